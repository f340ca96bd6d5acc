"""How large New Angeles' offline positions are and how long they take to draw (issue 18, item 2:
the turn screen carries the engine's answers for the moves a host enters offline).

    python3 benchmarks/bench_newangeles_positions.py [--repeat 9] [--browser]

Tables of the sample pack, 4 and 6 players (as many asset cards a round as players), are cut at
the first deal of S1, at S1's last deal, at S1's end of round, at S2's first and last deals and
at S2's end of round (plain deals: the active player's offer wins an asset nobody holds; S1's end
producing nothing: from S2 on, the answers reach D1, whose outcome depends on the production
typed at S2's end, and S3's deals), and stored through
``services.import_record``. For each cut the positions fragment (``GET /na/table/<id>/positions
?after=<seq>``, fetched by the tablet once the screen is idle, off the tap's path) is asked
through the app in-process: its size in bytes and gzipped (level 6, as a web server would send
it), its positions (``<template data-position>``), the median server time to draw it the first
time at a position (``first ms``: the engine's answers and the drawing) and again (``again
ms``: kept with the cached game), and ``answers ms``, the engine's part alone (the positions and
the emergency cards' answers); ``cards``: the states of the emergency cards the page follows
beside the positions (whose card is faceup after the deals entered offline); ``demand``: the
demand-round positions among them (one per outcome, met or not and taking the city over or not,
and where it leads). ``moves`` is how
many moves in a row the host can enter offline on the screen's forms from there before a
screen says it must ask the server: with the next round as long as the table has players, and
at most (the longest path of the answers' keys). With ``--browser``
Debian's Chromium loads each turn screen (served by waitress on a loopback port) and the median
time to fetch the fragment, to parse it (as the outbox does: into a detached element) and to
show one of its positions with a form (its template and the part it names put into the page and
laid out) is printed too.
"""

import argparse
import gzip
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

from facilitator.rules.newangeles import Game, Record, Setup, SetupPlayer, default_pack, write_record  # noqa: E402
from facilitator.rules.newangeles.answers import turn_answers  # noqa: E402
from facilitator.rules.newangeles.moves import Move, Offer  # noqa: E402

NAMES = ("Anna", "Boris", "Vera", "Dmitri", "Elena", "Fyodor")
CORPS = ("jinteki", "nbn", "globalsec", "haas-bioroid", "weyland", "melange")
CUTS = ("S1 deal 1", "S1 last deal", "S1 end", "S2 deal 1", "S2 last deal", "S2 end")


def plain_deal(game):
    asset = f"A{len(game.deals) + 1:02d}"
    return Move("deal", active=game.next()["active"], asset=asset, main=Offer(card="Security: Sweep"),
                counteroffers=(), support=(), winner="main")


def cut(players, where):
    """A record of ``players`` players stopped at ``where`` (``CUTS``)."""
    pack = default_pack()
    setup = Setup(players=tuple(SetupPlayer(n, c, 10) for n, c in zip(NAMES[:players], CORPS)),
                  first_player="Anna", threat=12, assets=players, demand=pack.demand_cards[0].code)
    game = Game(pack, setup)
    if where != "S1 deal 1":
        while game.assets_left > (1 if where == "S1 last deal" else 0):
            game.apply(plain_deal(game))
    if where.startswith("S2"):
        game.apply(Move("end_round", production={}, next_assets=players))
    if where in ("S2 last deal", "S2 end"):
        while game.assets_left > (1 if where == "S2 last deal" else 0):
            game.apply(plain_deal(game))
    return Record(table=f"{players}p {where}", pack=pack, setup=setup, moves=list(game.moves)), game


def longest(answers, assets=None):
    """The most moves a host enters in a row offline from here before a screen says it must ask
    the server: the live screen's own form, then the forms of the positions its answers lead to
    (a deal, an end of round, a demand round), following every key a position names (``deal_then``, ``then``,
    the keys an end of round's lookup gives; ``assets``: only those of an end of round giving
    the next round that many asset cards)."""
    positions, memo = answers["positions"], {}

    def nexts(pos):
        out = [pos.get("deal_then"), pos.get("then")]
        out += [case["then"] for case in pos.get("cases") or () if assets is None or case["next_assets"] == assets]
        return [k for k in out if k in positions]

    def depth(key):  # the moves entered from this position on
        if key not in memo:
            memo[key] = 0
            pos = positions[key]
            if pos["expects"] in ("deal", "end_round", "demand_round"):
                memo[key] = 1 + max((depth(k) for k in nexts(pos)), default=0)
        return memo[key]

    return depth(answers["start"])


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
    parser.add_argument("--browser", action="store_true", help="also fetch and parse each fragment in Chromium")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-na-positions-") as tmp:
        os.environ["FACILITATOR_INSTANCE"] = str(Path(tmp) / "instance")
        return run(f"sqlite:///{Path(tmp) / 'na.db'}", args, tmp)


def forget():
    from facilitator.web import table
    table._FRAGMENTS.clear()


def run(url, args, tmp):
    from facilitator import services
    from facilitator.web import create_app
    app = create_app({"DATABASE_URL": url, "INSTANCE_PATH": str(Path(tmp) / "instance")})
    engine = app.extensions["facilitator.engine"]
    tables = []
    with services.db.session_scope(engine) as s:
        services.packs.ensure_sample(s, "new-angeles")
        for players in (4, 6):
            for where in CUTS:
                record, game = cut(players, where)
                table = services.import_record(s, write_record(record), name=record.table)
                tables.append((record.table, table.id, game))
    client = app.test_client()
    with services.db.session_scope(engine) as s:
        secret = services.access.start_session(s)
    with client.session_transaction() as sess:
        sess["organizer"] = secret
    client.get("/?lang=sv")
    sources = {}
    for name, table_id, _ in tables:
        page = client.get(f"/na/table/{table_id}").get_data(as_text=True)
        sources[table_id] = re.search(r'id="positions"[^>]*data-src="([^"]+)"', page)[1].replace("&amp;", "&")
    loads = browser_fetches(app, secret, sources, args.repeat) if args.browser else {}
    print("New Angeles offline positions (GET .../positions), sample pack · in-process · median of", args.repeat)
    print(f"{'table':>16} {'bytes':>8} {'gzip':>7} {'positions':>9} {'demand':>6} {'cards':>5} {'moves':>7} "
          f"{'first ms':>9} {'again ms':>9} {'answers ms':>11}" + (f" {'fetch ms':>9} {'parse ms':>9} {'show ms':>8}" if loads else ""))
    for name, table_id, game in tables:
        src = sources[table_id]
        response = client.get(src)
        assert response.status_code == 200, (name, response.status_code)
        body = response.get_data()
        count = len(re.findall(rb"<template data-position=", body))
        first = median_ms(lambda: (forget(), client.get(src)), args.repeat)
        again = median_ms(lambda: client.get(src), args.repeat)
        answers = turn_answers(game)
        moves = f"{longest(answers, len(game.players))}/{longest(answers)}"
        ms = median_ms(lambda: turn_answers(game), args.repeat)
        cards = len(answers["cards"]["states"])
        demand = sum(p["expects"] == "demand_round" for k, p in answers["positions"].items() if k != answers["start"])
        line = (f"{name:>16} {len(body):>8} {len(gzip.compress(body, 6)):>7} {count:>9} {demand:>6} {cards:>5} {moves:>7} "
                f"{first:>9.1f} {again:>9.1f} {ms:>11.1f}")
        if loads:
            line += f" {loads[table_id][0]:>9.1f} {loads[table_id][1]:>9.1f} {loads[table_id][2]:>8.1f}"
        print(line)
    return 0


def browser_fetches(app, secret, sources, repeat):
    """Per table: the median ms Chromium takes to fetch the fragment and to parse it."""
    out = {}
    with organizer_page(app, secret) as (page, base):
        for table_id, src in sources.items():
            page.goto(f"{base}/na/table/{table_id}", wait_until="load")
            fetches, parses, shows = [], [], []
            for _ in range(repeat + 1):
                f, q, w = page.evaluate(
                    """async (src) => {
                         const t0 = performance.now();
                         const text = await (await fetch(src, {cache: "no-store"})).text();
                         const t1 = performance.now();
                         const box = document.createElement("div");
                         box.innerHTML = text;
                         const all = box.querySelectorAll("template[data-position]");
                         const t2 = performance.now();
                         // a position shown as the outbox shows it: its template, a part put in, laid out
                         const t = Array.from(all).find(x => x.content.querySelector("[data-fill], form")) || all[0];
                         const shown = document.createElement("div");
                         shown.appendChild(t.content.cloneNode(true));
                         shown.querySelectorAll("[data-fill]").forEach(el => {
                           const part = box.querySelector(`template[data-part='${el.dataset.fill}']`);
                           if (part) el.appendChild(part.content.cloneNode(true));
                         });
                         document.body.appendChild(shown);
                         shown.offsetHeight;
                         const t3 = performance.now();
                         shown.remove();
                         return [t1 - t0, t2 - t1, t3 - t2];
                       }""", src)
                fetches.append(f)
                parses.append(q)
                shows.append(w)
            out[table_id] = (statistics.median(fetches[1:]), statistics.median(parses[1:]),
                             statistics.median(shows[1:]))
    return out


if __name__ == "__main__":
    sys.exit(main())
