"""How large the host's turn screen is and how long it takes to draw (issue 18, item 2: the turn
screen carries the engine's answers for the moves a host enters offline).

    python3 benchmarks/bench_turn_page.py [--repeat 9] [--browser]

A 4-player «16/25» table of the sample pack (``simulate.random_game``) is cut at the start of
rounds 1, 4 and 8 (the eras' decks differ) and stored through ``services.import_record``. For each
cut the turn page is requested through the app in-process (Flask's test client, signed in as the
organizer): its size in bytes, gzipped (level 6, as a web server would send it), and the median
server time to draw it over ``--repeat`` requests after one warm-up. The engine's answers for
the offline screens are a resource of their own (``GET /table/<id>/positions?after=<seq>``,
fetched by the tablet once the screen is idle, off the tap's path): its size, gzipped, the
server time to answer it the first time at a position (``first ms``: the engine's answers and
the drawing), again (``again ms``: kept with the cached game) and to a page drawn again
(``304 ms``: its ETag); ``answers ms`` is the engine's part alone, once per move, with the
moves it applies (``applies``) and the players it copies (``copies``) to find them.
With ``--browser`` the app
is also served by waitress on a loopback port and Debian's Chromium loads each page: the median
time from the request to the page's ``load`` event (parsing, styles and scripts) is printed too.
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

from facilitator.rules.lyceum import Record  # noqa: E402
from facilitator.rules.lyceum.ruleset import sample_pack  # noqa: E402
from facilitator.rules.lyceum.simulate import random_game  # noqa: E402

ROUNDS = (1, 4, 8)


def cut_at_round(pack, seed, round_no):
    """A random legal 4-player game cut just before the first main move of ``round_no``."""
    from facilitator.rules.lyceum import replay
    full, _ = random_game(pack, seed=seed, players=4)
    for keep in range(len(full.moves) + 1):
        game = replay(Record(table="b", pack=pack, players=full.players, moves=full.moves[:keep]))
        nxt = game.next()
        if nxt and nxt["expects"] == "main" and game.upcoming() == (round_no, 0):
            return Record(table=f"Стол {round_no}", pack=pack, players=full.players, moves=full.moves[:keep])
    raise SystemExit(f"seed {seed} never reached round {round_no}")


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
    parser.add_argument("--browser", action="store_true", help="also load each page in Chromium")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-turn-page-") as tmp:
        os.environ["FACILITATOR_INSTANCE"] = str(Path(tmp) / "instance")
        return run(f"sqlite:///{Path(tmp) / 'turn.db'}", args, tmp)


def run(url, args, tmp):
    from facilitator import services
    from facilitator.web import create_app
    app = create_app({"DATABASE_URL": url, "INSTANCE_PATH": str(Path(tmp) / "instance")})
    engine = app.extensions["facilitator.engine"]
    pack = sample_pack()
    tables = []
    with services.db.session_scope(engine) as s:
        services.packs.ensure_sample(s, "lyceum-16-25")
        for round_no in ROUNDS:
            record = cut_at_round(pack, 7, round_no)
            tables.append((round_no, services.import_record(s, record.to_dict(), name=f"Стол {round_no}").id))
    client = app.test_client()
    with services.db.session_scope(engine) as s:
        secret = services.access.start_session(s)
    with client.session_transaction() as sess:
        sess["organizer"] = secret
    client.get("/?lang=ru")

    loads = {}
    if args.browser:
        loads = browser_loads(app, secret, [t for _, t in tables], args.repeat)
    print("«16/25» turn page, 4 players, sample pack · in-process · median of", args.repeat)
    answers = answers_ms(engine, [t for _, t in tables], args.repeat)
    print(f"{'round':>5} {'bytes':>8} {'gzip':>7} {'server ms':>10}" + (f" {'load ms':>8}" if loads else ""))
    sources = {}
    for round_no, table_id in tables:
        response = client.get(f"/table/{table_id}")
        assert response.status_code == 200, response.status_code
        body = response.get_data()
        sources[table_id] = html.unescape(re.search(rb'data-src="([^"]+)"', body)[1].decode())
        ms = median_ms(lambda: client.get(f"/table/{table_id}"), args.repeat)
        line = f"{round_no:>5} {len(body):>8} {len(gzip.compress(body, 6)):>7} {ms:>10.1f}"
        if loads:
            line += f" {loads[table_id]:>8.1f}"
        print(line)
    print("the offline positions (GET .../positions), apart from the page")
    print(f"{'round':>5} {'bytes':>8} {'gzip':>7} {'first ms':>9} {'again ms':>9} {'304 ms':>7} "
          f"{'answers ms':>11} {'applies':>8} {'copies':>7}")
    for round_no, table_id in tables:
        src = sources[table_id]
        response = client.get(src)
        assert response.status_code == 200, response.status_code
        body, etag = response.get_data(), response.headers["ETag"]
        first = median_ms(lambda: (forget(), client.get(src)), args.repeat)
        again = median_ms(lambda: client.get(src), args.repeat)
        cached = median_ms(lambda: client.get(src, headers={"If-None-Match": etag}), args.repeat)
        ms, applies, copies = answers[table_id]
        print(f"{round_no:>5} {len(body):>8} {len(gzip.compress(body, 6)):>7} {first:>9.1f} {again:>9.1f} "
              f"{cached:>7.1f} {ms:>11.1f} {applies:>8} {copies:>7}")
    return 0


def forget():
    """The positions drawn and the engine's answers are forgotten: the next fetch is a first one."""
    from facilitator.games.lyceum import screens
    from facilitator.web import table
    table._FRAGMENTS.clear()
    screens._ANSWERS.clear()


def answers_ms(engine, table_ids, repeat):
    """Per table: the median ms the engine takes for the offline answers of its position, the
    moves it applies and the players it copies to find them."""
    from facilitator import services
    from facilitator.rules.lyceum.answers import turn_answers
    from facilitator.rules.lyceum.game import Game, PlayerState
    out = {}
    for table_id in table_ids:
        with services.db.session_scope(engine) as s:
            game = services.load(s, table_id).game
        counts = {"apply": 0, "copy": 0}
        apply, copy = Game.apply, PlayerState.copy

        def counted_apply(self, move):
            counts["apply"] += 1
            return apply(self, move)

        def counted_copy(self):
            counts["copy"] += 1
            return copy(self)
        Game.apply, PlayerState.copy = counted_apply, counted_copy
        try:
            turn_answers(game)
        finally:
            Game.apply, PlayerState.copy = apply, copy
        out[table_id] = (median_ms(lambda: turn_answers(game), repeat), counts["apply"], counts["copy"])
    return out


def browser_loads(app, secret, table_ids, repeat):
    """Median ms from the request to the ``load`` event of each turn page in Chromium."""
    out = {}
    with organizer_page(app, secret) as (page, base):
        for table_id in table_ids:
            samples = []
            for _ in range(repeat + 1):
                page.goto(f"{base}/table/{table_id}", wait_until="load")
                samples.append(page.evaluate(
                    "() => { const n = performance.getEntriesByType('navigation')[0];"
                    " return n.loadEventEnd - n.startTime; }"))
            out[table_id] = statistics.median(samples[1:])
    return out


if __name__ == "__main__":
    sys.exit(main())
