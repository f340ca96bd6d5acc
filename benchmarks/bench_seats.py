"""What a room of phones and projectors costs the server, per move (issue 21, item 6): 200 players'
own pages polling every 10 s (``web.seats.POLL_SECONDS``) and 10 projectors polling every 3 s
(``static/projector.js``), at a 60-table «16/25» event where moves come at a steady rate.

    python3 benchmarks/bench_seats.py [--db sqlite|postgresql] [--tables 60] [--pages 200]
                                      [--projectors 10] [--rates 1,2] [--fresh default,0]
                                      [--seconds 60] [--check] [--profile]

Each pair of a rate (``--rates``: moves per second, event-wide) and a projector freshness window
(``--fresh``: ``PROJECTOR_FRESH_SECONDS``; ``default`` is the app's own, 5 s; 0 draws the
standings at every change) is one run on a fresh database, in a process of its own (what one
run's process kept never makes the next one cheaper). The app runs in-process (Flask's
test client), as one server alone on its SQLite file does (its polls answered from memory:
``storage.changes``); the tables are random legal games of the sample pack (4 players) cut
mid-game. A run is a simulated event of ``--seconds`` seconds on a simulated clock (the
projectors' window is measured on it): the moves come evenly spaced, recorded at random tables
the way a host's tablet or the API records them (``POST /api/v1/tables/<id>/moves`` with the
table's host token: the move checked, stored and answered with the table's new state: the
cheapest way a move arrives, a form tap also draws the turn screen, ``bench_move_cost.py``, so
the share below is the larger one); each phone and projector polls at its own moment of its
period, with the ETag it holds (kept from its last answer, a 304's too, as ``seat.js`` and
``projector.js`` do) and the link's ``?lang=`` as the players' QR codes carry it.

CPU is measured inside the app, as ``bench_move_cost.py`` measures it (``rig.Meter``): a WSGI wrapper takes the
thread's CPU time of each request from the moment the app gets it to its last byte (the test
client's own work of building the request and reading the answer is left out, on the moves'
side as on the polls'). A second wrapper, in front of Flask, tells which polls were answered
before it (``web.polls``).

Figures, per run: a move's own CPU; the polls' CPU per move as a share of a move's own CPU,
beside the target (less than 5 %), split into the 304s answered before the app (the change
checks), the players' own-state checks (a page's first poll after its table moved, answered 304
by the app when nothing of the player's changed), the player pages drawn again, the projector
drawings made, and the drawings handed to the other projectors; how many change checks read the
database. At the end, one line per run. ``--check``: exit 1 when a run misses the target.
``--profile``: where the polls' CPU goes (the figures are then the profiler's, inflated).
"""

import argparse
import os
import random
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.rig import Meter, database  # noqa: E402

TARGET = 0.05  # the polls add less than 5 % to a move's CPU
PROJECTOR_SECONDS = 3  # static/projector.js polls every 3 s


class Reached:
    """A WSGI wrapper in front of Flask (behind ``web.polls``): how many requests reached it."""

    def __init__(self, wsgi_app):
        self.app, self.count = wsgi_app, 0

    def __call__(self, environ, start_response):
        self.count += 1
        return self.app(environ, start_response)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--projectors", type=int, default=10)
    parser.add_argument("--rates", default="1,2", help="moves per second, event-wide: a run each (comma-separated)")
    parser.add_argument("--fresh", default="default,0",
                        help="PROJECTOR_FRESH_SECONDS of each run: 'default' (the app's) or seconds (comma-separated)")
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--check", action="store_true", help="exit 1 when a run misses the per-move target")
    parser.add_argument("--profile", action="store_true",
                        help="also print where the CPU of the event's polls goes (cProfile, the test client included)")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)  # a run of its own process
    args = parser.parse_args(argv)
    runs = [(float(rate), None if fresh.strip() == "default" else float(fresh))
            for rate in args.rates.split(",") for fresh in args.fresh.split(",")]
    if len(runs) > 1 and not args.profile:
        # each run in a process of its own, as a server starting: what one run kept (a player's
        # curve drawn, a move said in words) never makes the next one cheaper
        import json
        import subprocess
        results = []
        for rate, fresh in runs:
            out = subprocess.run([sys.executable, __file__, "--one", "--db", args.db, "--tables", str(args.tables),
                                  "--pages", str(args.pages), "--projectors", str(args.projectors),
                                  "--rates", f"{rate:g}", "--fresh", "default" if fresh is None else f"{fresh:g}",
                                  "--seconds", str(args.seconds), "--seed", str(args.seed)],
                                 capture_output=True, text=True, check=True).stdout
            *shown, last = out.rstrip("\n").split("\n")
            print("\n".join(shown), flush=True)
            results.append(json.loads(last))
        return summary(results, args)
    results = []
    for rate, fresh in runs:
        with tempfile.TemporaryDirectory(prefix="bench-seats-") as tmp:
            os.environ["FACILITATOR_INSTANCE"] = str(Path(tmp) / "instance")
            with database(args.db, tmp, "bench_seats") as url:
                results.append(run(url, args, tmp, rate, fresh, first=not results))
    if args.one:
        import json
        print(json.dumps(results[0]))
        return 0
    return summary(results, args)


def summary(results, args):
    """One line per run, and the exit status (``--check``)."""
    print(f"summary · the polls' CPU per move, as a share of a move's own CPU (target < {TARGET * 100:.0f} %):")
    print(f"  {'moves/s':>7} {'window':>7} {'a move':>8} {'304s':>6} {'own state':>9} {'pages':>6} "
          f"{'projector':>9} {'handed':>6} {'total':>7}")
    for r in results:
        parts = r["parts"]
        print(f"  {r['rate']:7g} {r['fresh']:6g}s {r['move_ms']:6.2f}ms {parts['checks']:5.1f}% {parts['own']:8.1f}% "
              f"{parts['pages']:5.1f}% {parts['projector']:8.1f}% {parts['handed']:5.1f}% {r['share'] * 100:6.1f}%  "
              f"{'met' if r['share'] < TARGET else 'NOT met'}")
    return 0 if all(r["share"] < TARGET for r in results) or not args.check else 1


class SimulatedClock:
    """``time`` as ``web.public`` reads it (the projectors' freshness window): the event's clock."""

    def __init__(self):
        self.now = 0.0

    def monotonic(self):
        return self.now


def run(url, args, tmp, rate, fresh, first=True):
    """One simulated event at ``rate`` moves per second with the projectors' window ``fresh``
    (None: the app's own): its figures printed, and returned."""
    import time as real_time

    from facilitator.storage import db as storage_db
    from facilitator.web import public
    clock, drawings, reads = SimulatedClock(), [0], [0]
    # (the change checks' reads are counted where the app has ``storage.db._read_row``: an app of
    # before the polls answered from memory can be measured too, its reads not counted)
    draw, real_read = public._draw, getattr(storage_db, "_read_row", None)

    def counted_draw(*a):
        drawings[0] += 1
        return draw(*a)

    def counted_read(*a):
        reads[0] += 1
        return real_read(*a)
    public.time, public._draw = clock, counted_draw
    if real_read is None:
        reads[0] = None
    else:
        storage_db._read_row = counted_read
    try:
        return simulate(url, args, tmp, rate, fresh, first, clock, drawings, reads)
    finally:
        public.time, public._draw = real_time, draw
        if real_read is not None:
            storage_db._read_row = real_read


def simulate(url, args, tmp, rate, fresh, first, clock, drawings, reads):
    from facilitator import games, services
    from facilitator.rules.lyceum import Game, IllegalMoveError, Record
    from facilitator.rules.lyceum.ruleset import sample_pack
    from facilitator.rules.lyceum.simulate import choose_move, random_game
    from facilitator.web import create_app
    from facilitator.web.seats import POLL_SECONDS, seat_locale
    config = {"DATABASE_URL": url, "INSTANCE_PATH": str(Path(tmp) / "instance"), "PREPARE_PROTOCOLS": False}
    if fresh is not None:
        config["PROJECTOR_FRESH_SECONDS"] = fresh
    app = create_app(config)
    fresh = app.config["PROJECTOR_FRESH_SECONDS"]
    engine = app.extensions["facilitator.engine"]
    pack = sample_pack()
    rng = random.Random(args.seed)
    clock.now = -1000.0  # the set-up and the warm-up, long before the event's first second
    tables = {}  # id -> {"token", "game": the engine's copy, picking the next legal move, "seq"}
    with services.db.session_scope(engine) as s:
        ev = services.events.create_event(s, "Кубок", "2026-12-20", services.packs.ensure_sample(s, "lyceum-16-25"))
        event_id = ev.id
        for i in range(args.tables):
            full, _ = random_game(pack, seed=args.seed * 1000 + i, players=4)
            keep = rng.randrange(8, max(9, len(full.moves) // 2))
            record = Record(table=f"Стол {i + 1}", pack=pack, players=full.players, moves=full.moves[:keep])
            row = services.import_record(s, record.to_dict(), name=f"Стол {i + 1}", event_id=event_id)
            services.access.ensure_access(s, row)
            game = Game(pack, full.players, table=full.table)
            for move in full.moves[:keep]:
                game.apply(move)
            tables[row.id] = {"token": row.token, "game": game, "seq": row.seq}
    # every player's seat, its link as the QR code carries it (the event's language); the first
    # --pages of them are polled
    polled = []
    with app.test_request_context():
        with services.db.session_scope(engine) as s:
            lang = seat_locale(games.get(ev.ruleset), services.events.get_event(s, event_id))
            for table_id in tables:
                loaded = services.load(s, table_id)
                names = games.of_table(loaded.table).player_names(loaded)
                for name, seat in services.seats.ensure_seats(s, table_id, names).items():
                    polled.append({"kind": "page", "path": f"/p/{seat.token}?lang={lang}", "etag": None})
    polled = polled[:args.pages]
    projectors = [{"kind": "projector", "path": f"/e/{event_id}/standings.json", "etag": None}
                  for _ in range(args.projectors)]

    meter = app.wsgi_app = Meter(app.wsgi_app)
    polls = meter.app  # web.polls, in front of Flask (without it, as before it was: every poll reaches Flask)
    if hasattr(polls, "wsgi_app"):
        reached = polls.wsgi_app = Reached(polls.wsgi_app)
    else:
        reached = meter.app = Reached(polls)
    client = app.test_client()

    def poll(poller):
        """One poll with the ETag its poller holds: (status, CPU s, answered before Flask)."""
        before = reached.count
        headers = {"If-None-Match": poller["etag"]} if poller["etag"] else {}
        browser = poller.setdefault("browser", app.test_client())  # each phone and screen its own cookies
        response = browser.get(poller["path"], headers=headers)
        assert response.status_code in (200, 304), (poller["path"], response.status_code)
        # the page's first opening may set its cookie (the language of its link), never a poll
        assert not poller["etag"] or "Set-Cookie" not in response.headers, "a poll rewrote its session cookie"
        poller["etag"] = response.headers.get("ETag") or poller["etag"]
        return response.status_code, meter.last.cpu, reached.count == before

    def one_move():
        """A legal move at a random table not finished, recorded through the API: its CPU (s)."""
        for _ in range(100):
            table_id = rng.choice(list(tables))
            t = tables[table_id]
            move = choose_move(t["game"], rng) if not t["game"].finished else None
            if move is None or move.type == "finish":
                continue
            try:
                t["game"].check(move)
            except IllegalMoveError:
                continue
            response = client.post(f"/api/v1/tables/{table_id}/moves", json={"after": t["seq"], "move": move.to_dict()},
                                   headers={"Authorization": f"Bearer {t['token']}"})
            assert response.status_code == 201, response.get_data(as_text=True)[:300]
            t["game"].apply(move)
            t["seq"] += 1
            return meter.last.cpu
        raise SystemExit("no table takes a move any more: fewer --seconds or more --tables")

    for p in polled + projectors:  # every phone and projector opened once: they hold an ETag
        poll(p)
    for _ in range(5):  # warm up the moves' path (templates, caches, pools)
        one_move()
    for p in polled + projectors:
        poll(p)

    # ----- what one poll costs, each kind alone ---------------------------------------------------
    def median_ms(fn, repeat=50):
        return statistics.median(fn() for _ in range(repeat)) * 1000

    first, wall = polled[0], projectors[0]
    unit = {
        "player page, table not moved (304)": median_ms(lambda: poll(dict(first))[1]),
        "player page drawn": median_ms(lambda: poll(dict(first, etag=None))[1], 20),
        "projector, event not changed (304)": median_ms(lambda: poll(dict(wall))[1]),
        "projector's body sent again, already drawn": median_ms(lambda: poll(dict(wall, etag='W/"old"'))[1]),
    }

    def projector_drawn():
        app.extensions["facilitator.projector_cache"].pop((event_id, lang), None)  # the event's language
        return poll(dict(wall, etag=None))[1]
    unit["projector drawn (standings and chart)"] = median_ms(projector_drawn, 10)

    # ----- the simulated event --------------------------------------------------------------------
    # the moves evenly spaced; each phone and projector polls at its own moment of its period
    timeline = [((k + 0.5) / rate, 0, None) for k in range(int(rate * args.seconds))]
    for group, period in ((polled, POLL_SECONDS), (projectors, PROJECTOR_SECONDS)):
        for i, p in enumerate(group):
            at = period * i / len(group)
            while at < args.seconds:
                timeline.append((at, 1, p))
                at += period
    timeline.sort(key=lambda e: (e[0], e[1]))
    moves, move_cpu = 0, []
    spent = {}  # (kind, how) -> [CPU s of each poll]
    before_app = 0
    per_second = [0.0] * args.seconds
    profiler = None
    if args.profile:
        import cProfile
        profiler = cProfile.Profile()
    reads_before, drawings_before = reads[0] or 0, drawings[0]
    for at, what, p in timeline:
        clock.now = 1000.0 + at
        if what == 0:
            move_cpu.append(one_move())
            moves += 1
            continue
        drew = drawings[0]
        if profiler:
            profiler.enable()
        status, cpu, early = poll(p)
        if profiler:
            profiler.disable()
        if status == 304:
            how = "304 early" if early else "304"
        elif p["kind"] == "page":
            how = "drawn"
        else:
            how = "drawn" if drawings[0] > drew else "handed"
        spent.setdefault((p["kind"], how), []).append(cpu)
        before_app += early
        per_second[int(at)] += cpu

    move_ms = statistics.mean(move_cpu) * 1000
    poll_s = sum(per_second)
    per_move = poll_s / max(moves, 1) * 1000
    share = per_move / move_ms
    polls = sum(len(cpu) for cpu in spent.values())

    def part(*keys):
        return sum(sum(spent.get(k, [])) for k in keys) * 1000 / max(moves, 1) / move_ms * 100
    parts = {"checks": part(("page", "304 early"), ("projector", "304 early"), ("projector", "304")),
             "own": part(("page", "304")), "pages": part(("page", "drawn")),
             "projector": part(("projector", "drawn")), "handed": part(("projector", "handed"))}
    print(f"facilitator seats · {args.tables} tables, {len(polled)} player pages every {POLL_SECONDS} s, "
          f"{args.projectors} projectors every {PROJECTOR_SECONDS} s, {rate:g} moves/s for {args.seconds} s, "
          f"projectors' freshness window {fresh:g} s · {'PostgreSQL' if url.startswith('postgresql') else 'SQLite'} "
          "· in-process, CPU inside the app")
    if first:
        print("  one poll, alone (median CPU):")
        for label, ms in unit.items():
            print(f"    {label:<46} {ms:6.3f} ms")
    print(f"  a move's own CPU (API move, mean of {moves}): {move_ms:.2f} ms "
          f"(median {statistics.median(move_cpu) * 1000:.2f} ms)")
    read = "?" if reads[0] is None else reads[0] - reads_before
    print(f"  {polls} polls: {before_app} answered before the app; {read} change checks read the "
          f"database (the others answered from memory); {drawings[0] - drawings_before} projector drawings")
    labels = {("page", "304 early"): "player pages: 304 before the app",
              ("page", "304"): "player pages: 304 by the app (own state)",
              ("page", "drawn"): "player pages drawn again",
              ("projector", "304 early"): "projectors: 304 before the app",
              ("projector", "304"): "projectors: 304 by the app",
              ("projector", "drawn"): "projectors: a drawing made",
              ("projector", "handed"): "projectors: handed the drawing made"}
    for key, label in labels.items():
        cpu = spent.get(key, [])
        print(f"    {label:<42} {len(cpu):5d} polls (median {statistics.median(cpu or [0]) * 1000:6.3f} ms), "
              f"{sum(cpu) / max(moves, 1) * 1000:6.3f} ms per move = {sum(cpu) * 1000 / max(moves, 1) / move_ms * 100:6.2f} % "
              "of a move")
    print(f"  polls' CPU per move: {per_move:.3f} ms = {share * 100:.2f} % of a move's own CPU "
          f"(target < {TARGET * 100:.0f} %): {'met' if share < TARGET else 'NOT met'}")
    print(f"    304s before the app (the change checks) {parts['checks']:.2f} % · players' own-state checks "
          f"{parts['own']:.2f} % · player pages drawn {parts['pages']:.2f} % · projector drawings "
          f"{parts['projector']:.2f} % · drawings handed on {parts['handed']:.2f} %")
    print(f"  polls' CPU per second: {poll_s / args.seconds * 100:.2f} % of one core "
          f"(median second {statistics.median(per_second) * 1000:.1f} ms, worst {max(per_second) * 1000:.1f} ms)")
    if profiler:
        import pstats
        print("  where the polls' CPU goes (cProfile, the test client's work included):")
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("cumulative").print_stats(50)
    print()
    return {"rate": rate, "fresh": fresh, "move_ms": move_ms, "share": share, "parts": parts}


if __name__ == "__main__":
    sys.exit(main())
