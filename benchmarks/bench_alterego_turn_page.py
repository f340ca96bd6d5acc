"""How large Alter Ego's turn screen and its offline positions are, and how long they take to
draw (issue 18, item 2: the host enters the whole turn offline from the engine's answers).

    python3 benchmarks/bench_alterego_turn_page.py [--repeat 9] [--browser]

A 3-player Alter Ego game of the sample pack (``simulate.play_random``) is cut at a few points,
each at the current player's draw step and at their play step just after the draw, and stored
through ``services.import_record``. For each cut the turn page is requested through the app
in-process (Flask's test client, signed in as the organizer, in Finnish): its size in bytes,
gzipped (level 6), and the median server time to draw it over ``--repeat`` requests after one
warm-up. The offline positions are a resource of their own (``GET .../positions?after=<seq>``,
fetched by the tablet once the screen is idle): its size, gzipped, the server time to answer it
the first time at a position (``first ms``: the engine's answers and the drawing), again (``again
ms``) and to a page drawn again (``304 ms``); ``answers ms`` is the engine's part alone (CPU
time, the fastest of ``--repeat``), of which the sets of members of a Bile and of Pare's joke (``sets ms``) and the play
step after a season card (``season ms``); how many times the answers asked the engine about a move
(``checks``) and applied one (``applies``), with those sets and without (machine-independent), and
``positions`` how many positions it holds. With ``--browser`` the app is also served
by waitress on a loopback port and Debian's Chromium loads each turn page: the median time from
the request to the page's ``load`` event, and (``offline ms``, the answers fetched and the network
cut) from the draw tapped offline, or at the play step from the cut itself, to the play step's
forms drawn from the answers (before them: to the screen as it stays).
"""

import argparse
import gzip
import html
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

from organizer_browser import organizer_page

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from facilitator.rules.alterego import Game, Move, Record  # noqa: E402
from facilitator.rules.alterego.simulate import play_random  # noqa: E402

#: where the sample game is cut: a share of its moves (the first turn, where a season card leads to a
#: play step and not to a choice, early, middle, late)
CUTS = (0.0, 0.1, 0.5, 0.8)
SEED = 3


def cuts(seed):
    """``[(label, Record)]``: the game cut at each of ``CUTS`` at a draw step, and just after that draw."""
    record, full = play_random(seed, players=3)
    out = []
    for share in CUTS:
        game = Game(full.pack, full.setup)
        moves = record.moves
        for keep, move in enumerate(moves):
            nxt = game.next()
            if keep >= share * len(moves) and nxt and nxt["expects"] == "draw" and move.type == "draw":
                break
            game._apply_fast(move)
        else:
            raise SystemExit(f"seed {seed} has no draw after {share:.0%} of its moves")
        label = f"{share:.0%}"
        out.append((f"{label} draw", Record(table=f"Pöytä {label} d", pack=full.pack, setup=full.setup,
                                            moves=moves[:keep])))
        out.append((f"{label} play", Record(table=f"Pöytä {label} p", pack=full.pack, setup=full.setup,
                                            moves=moves[:keep] + [Move("draw", player=nxt["player"])])))
    return out


def median_ms(fn, repeat):
    fn()
    samples = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t) * 1000)
    return statistics.median(samples)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--browser", action="store_true", help="also load each page in Chromium")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-ae-turn-page-") as tmp:
        os.environ["FACILITATOR_INSTANCE"] = str(Path(tmp) / "instance")
        return run(f"sqlite:///{Path(tmp) / 'turn.db'}", args, tmp)


def run(url, args, tmp):
    from facilitator import services
    from facilitator.rules.alterego import write_record
    from facilitator.web import create_app
    app = create_app({"DATABASE_URL": url, "INSTANCE_PATH": str(Path(tmp) / "instance")})
    engine = app.extensions["facilitator.engine"]
    tables = []
    with services.db.session_scope(engine) as s:
        services.packs.ensure_sample(s, "alter-ego-3")
        for label, record in cuts(args.seed):
            tables.append((label, services.import_record(s, write_record(record), name=record.table).id))
    client = app.test_client()
    with services.db.session_scope(engine) as s:
        secret = services.access.start_session(s)
    with client.session_transaction() as sess:
        sess["organizer"] = secret
    client.get("/ae/packs?lang=fi")

    loads = {}
    if args.browser:
        loads = browser_loads(app, secret, [t for _, t in tables], args.repeat)
    print(f"Alter Ego turn page, 3 players, sample pack, seed {args.seed} · in-process · median of {args.repeat}")
    print(f"{'cut':>9} {'bytes':>8} {'gzip':>7} {'server ms':>10}" + (f" {'load ms':>8} {'offline ms':>10}" if loads else ""))
    sources = {}
    for label, table_id in tables:
        response = client.get(f"/ae/table/{table_id}")
        assert response.status_code == 200, response.status_code
        body = response.get_data()
        found = re.search(rb'data-src="([^"]+)"', body)
        sources[table_id] = html.unescape(found[1].decode()) if found else None
        ms = median_ms(lambda: client.get(f"/ae/table/{table_id}"), args.repeat)
        line = f"{label:>9} {len(body):>8} {len(gzip.compress(body, 6)):>7} {ms:>10.1f}"
        if loads:
            line += f" {loads[table_id][0]:>8.1f} {loads[table_id][1]:>10.1f}"
        print(line)
    print("the offline positions (GET .../positions), apart from the page")
    print(f"{'cut':>9} {'bytes':>8} {'gzip':>7} {'first ms':>9} {'again ms':>9} {'304 ms':>7} {'answers ms':>11} "
          f"{'sets ms':>8} {'season ms':>10} {'checks':>13} {'applies':>11} {'positions':>10}")
    for label, table_id in tables:
        src = sources[table_id]
        if src is None:
            print(f"{label:>9} (no offline positions on this page)")
            continue
        response = client.get(src)
        assert response.status_code == 200, response.status_code
        body, etag = response.get_data(), response.headers["ETag"]
        first = median_ms(lambda: (forget(), client.get(src)), args.repeat)
        again = median_ms(lambda: client.get(src), args.repeat)
        cached = median_ms(lambda: client.get(src, headers={"If-None-Match": etag}), args.repeat)
        a = answers_ms(engine, table_id, args.repeat)
        checks = f"{a['calls']['checks']}/{a['bare']['checks']}"
        applies = f"{a['calls']['applies']}/{a['bare']['applies']}"
        print(f"{label:>9} {len(body):>8} {len(gzip.compress(body, 6)):>7} {first:>9.1f} {again:>9.1f} "
              f"{cached:>7.1f} {a['ms']:>11.1f} {a['sets']:>8.1f} {a['season']:>10.1f} {checks:>13} {applies:>11} "
              f"{a['positions']:>10}")
    print("answers ms: the engine's part (CPU, fastest); sets ms: of which the sets of members of a Bile and of")
    print("Pare's joke; season ms: the play step after a season card; checks, applies: with the sets / without")
    return 0


def forget():
    """The positions drawn and the engine's answers are forgotten: the next fetch is a first one."""
    from facilitator.games.alterego import screens
    from facilitator.web import table
    table._FRAGMENTS.clear()
    screens._ANSWERS.clear()


def answers_ms(engine, table_id, repeat):
    """The engine's offline answers for a table's position: the CPU ms they take, the fastest
    of ``repeat`` (``answers``), of which the sets of members of a Bile and of Pare's joke (``sets``: the
    answers again without them, ``MEMBER_FULL`` and ``MEMBER_ABILITIES`` at 0, the difference)
    and the play step after a season card of the current turn (``season``: the time spent in
    ``_after_season``); how many times they asked the engine whether a move is legal
    (``checks``) and applied one to a copy of the game (``applies``), with the sets and without
    (machine-independent); how many positions they hold."""
    from facilitator import services
    from facilitator.rules.alterego import answers as mod
    with services.db.session_scope(engine) as s:
        game = services.load(s, table_id).game
    counts = {"checks": 0, "applies": 0}
    check, after, season = mod.check, mod._after, mod._Answers._after_season
    spent = [0.0]

    def counted_check(*a, **k):
        counts["checks"] += 1
        return check(*a, **k)

    def counted_after(*a, **k):
        counts["applies"] += 1
        return after(*a, **k)

    def timed_season(self, *a, **k):
        t = time.process_time()
        try:
            return season(self, *a, **k)
        finally:
            spent[0] += time.process_time() - t

    def fastest(fn):  # the fastest of ``repeat``: the machine may be shared
        samples = []
        for _ in range(repeat):
            t = time.process_time()
            out = fn()
            samples.append((time.process_time() - t) * 1000)
        return min(samples), out

    ms, answers = fastest(lambda: mod.turn_answers(game))
    seasons = []
    for _ in range(repeat):
        spent[0] = 0.0
        mod._Answers._after_season = timed_season
        try:
            mod.turn_answers(game)
        finally:
            mod._Answers._after_season = season
        seasons.append(spent[0] * 1000)
    mod.check, mod._after = counted_check, counted_after
    try:
        mod.turn_answers(game)
        calls = dict(counts)
        counts.update(checks=0, applies=0)
        saved = mod.MEMBER_FULL, mod.MEMBER_ABILITIES
        mod.MEMBER_FULL = mod.MEMBER_ABILITIES = 0
        try:
            mod.turn_answers(game)
            bare = dict(counts)
            without, _ = fastest(lambda: mod.turn_answers(game))
        finally:
            mod.MEMBER_FULL, mod.MEMBER_ABILITIES = saved
    finally:
        mod.check, mod._after = check, after
    return {"ms": ms, "sets": ms - without, "season": min(seasons), "calls": calls, "bare": bare,
            "positions": len(answers["positions"])}


#: in the page: the ms from the network cut (the play step: its position shown at once) or from
#: the tap on the draw (the draw step: the position it leads to shown) to the shown position's
#: play forms drawn from the answers (or, without them, the screen left as it is); ``WATCH`` set
#: before the cut, ``DRAW`` after it
WATCH = """() => {
  const drawn = () => document.querySelector('[data-position-shown] [data-fill=plays] form') ||
    (!document.querySelector('#positions template[data-part=plays]') && document.querySelector('[data-position-shown], [data-position-live]'));
  window.offlineShown = (draw) => new Promise(resolve => {
    const start = performance.now();
    const look = () => { if (drawn()) { obs.disconnect(); resolve(performance.now() - start); } };
    const obs = new MutationObserver(look);
    obs.observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
    if (draw) document.querySelector('[data-position-live] form[data-move=draw] button[type=submit]').click();
    setTimeout(look, 0);
  });
  window.offlineCut = new Promise(resolve => window.addEventListener('offline', () => resolve(window.offlineShown(false)),
                                                                     {capture: true, once: true}));
}"""


def browser_loads(app, secret, table_ids, repeat):
    """Per table: the median ms from the request to the turn page's ``load`` event in Chromium,
    and from the network cut (or the draw tapped offline) to the play step's forms drawn from the
    answers (``OFFLINE_MS``; the outbox emptied afterwards, so nothing is ever sent)."""
    out = {}
    with organizer_page(app, secret) as (page, base):
        context = page.context
        for table_id in table_ids:
            loads, offline = [], []
            for _ in range(repeat + 1):
                context.set_offline(False)
                page.goto(f"{base}/ae/table/{table_id}?lang=fi", wait_until="load")
                loads.append(page.evaluate(
                    "() => { const n = performance.getEntriesByType('navigation')[0];"
                    " return n.loadEventEnd - n.startTime; }"))
                page.locator("#positions[data-start]").wait_for(state="attached")
                draw = page.locator("section.actions").get_attribute("data-expects") == "draw"
                page.evaluate(WATCH)
                context.set_offline(True)
                page.wait_for_function("() => !navigator.onLine")
                offline.append(page.evaluate("() => window.offlineShown(true)" if draw else "() => window.offlineCut"))
                page.evaluate("() => localStorage.clear()")
            out[table_id] = (statistics.median(loads[1:]), statistics.median(offline[1:]))
            context.set_offline(False)
    return out


if __name__ == "__main__":
    raise SystemExit(main())
