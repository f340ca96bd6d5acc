"""What a room of phones and projectors costs the server, per move (issue 21, item 6): 200 players'
own pages polling every 10 s (``web.seats.POLL_SECONDS``) and 10 projectors polling every 3 s
(``static/projector.js``), at a 60-table «16/25» event where moves come at ``--rate`` per second
event-wide.

    python3 benchmarks/bench_seats.py [--db sqlite|postgresql] [--tables 60] [--pages 200]
                                      [--projectors 10] [--rate 2] [--seconds 60] [--check] [--profile]

The app runs in-process (Flask's test client); the tables are random legal games of the sample
pack (4 players) cut mid-game. The run is a simulated event of ``--seconds`` seconds: each second
``--rate`` moves are recorded at random tables the way a host's tablet or the API records them
(``POST /api/v1/tables/<id>/moves`` with the table's host token: the move checked, stored and
answered with the table's new state: the cheapest way a move arrives, a form tap also draws the
turn screen, ``bench_move_cost.py``, so the share below is the larger one), then the polls of
that second are made, each with the ETag
its poller holds (kept from its last answer, a 304's too, as ``seat.js`` and ``projector.js`` do)
and the link's ``?lang=`` as the players' QR codes carry it. The projectors' standings are drawn
again on every change (``PROJECTOR_FRESH_SECONDS`` = 0: the worst case; 1 s in a real hall).

CPU is measured inside the app, as ``bench_move_cost.py`` measures it: a WSGI wrapper takes the
thread's CPU time of each request from the moment the app gets it to its last byte (the test
client's own work of building the request and reading the answer is left out, on the moves'
side as on the polls'). A second wrapper, in front of Flask, tells which polls were answered
before it (``web.polls``: the change check alone).

Figures: a move's own CPU; the polls' CPU per move (all of it: the 304s, the checks of the
players' own state after a move, the pages and projector bodies drawn and sent again), as a
share of a move's own CPU, beside the target (less than 5 %), split by kind, and split into the
change checks (the polls answered 304) and the drawing of what the moves changed; the polls' CPU
per second as a share of one core. ``--check``: exit 1 when the per-move target is missed.
``--profile``: where the polls' CPU goes (the figures are then the profiler's, inflated).
"""

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGET = 0.05  # the polls add less than 5 % to a move's CPU
PROJECTOR_SECONDS = 3  # static/projector.js polls every 3 s


class Meter:
    """A WSGI wrapper: the thread's CPU time (s) of the last request, inside the app."""

    def __init__(self, wsgi_app):
        self.app, self.last = wsgi_app, 0.0

    def __call__(self, environ, start_response):
        c0 = time.thread_time()
        answer = self.app(environ, start_response)
        try:
            body = list(answer)
        finally:
            if hasattr(answer, "close"):
                answer.close()
        self.last = time.thread_time() - c0
        return body


class Reached:
    """A WSGI wrapper in front of Flask (behind ``web.polls``): how many requests reached it."""

    def __init__(self, wsgi_app):
        self.app, self.count = wsgi_app, 0

    def __call__(self, environ, start_response):
        self.count += 1
        return self.app(environ, start_response)


def postgres_database():
    import psycopg
    admin = user = None
    for user in ("postgres", "root"):
        try:
            admin = psycopg.connect(f"host=127.0.0.1 port=5432 user={user} dbname=postgres", autocommit=True,
                                    connect_timeout=3)
            break
        except Exception:  # noqa: BLE001 - the next user, else no server
            admin = None
    if admin is None:
        raise SystemExit("no PostgreSQL server on 127.0.0.1:5432 (use --db sqlite)")
    name = f"facilitator_bench_seats_{os.getpid()}"
    admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
    admin.execute(f'CREATE DATABASE "{name}"')

    def drop():
        from facilitator.storage.db import dispose_all
        dispose_all()
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()
    return f"postgresql+psycopg://{user}@127.0.0.1:5432/{name}", drop


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--projectors", type=int, default=10)
    parser.add_argument("--rate", type=float, default=2.0, help="moves per second, event-wide")
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--check", action="store_true", help="exit 1 when the per-move target is missed")
    parser.add_argument("--profile", action="store_true",
                        help="also print where the CPU of the event's polls goes (cProfile, the test client included)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-seats-") as tmp:
        os.environ["FACILITATOR_INSTANCE"] = str(Path(tmp) / "instance")
        if args.db == "sqlite":
            url, drop = f"sqlite:///{Path(tmp) / 'seats.db'}", None
        else:
            url, drop = postgres_database()
        try:
            return run(url, args, tmp)
        finally:
            if drop:
                drop()


def run(url, args, tmp):
    from facilitator import games, services
    from facilitator.rules.lyceum import Game, IllegalMoveError, Record
    from facilitator.rules.lyceum.ruleset import sample_pack
    from facilitator.rules.lyceum.simulate import choose_move, random_game
    from facilitator.web import create_app
    from facilitator.web.seats import POLL_SECONDS, seat_locale
    app = create_app({"DATABASE_URL": url, "INSTANCE_PATH": str(Path(tmp) / "instance"),
                      "PROJECTOR_FRESH_SECONDS": 0, "PREPARE_PROTOCOLS": False})
    engine = app.extensions["facilitator.engine"]
    pack = sample_pack()
    rng = random.Random(args.seed)
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
        return response.status_code, meter.last, reached.count == before

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
            return meter.last
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
    moves, move_cpu = 0, []
    spent = {}  # (kind, how) -> [CPU s of each poll]
    before_app = 0
    per_second = []
    owed = 0.0
    profiler = None
    if args.profile:
        import cProfile
        profiler = cProfile.Profile()
    for second in range(args.seconds):
        owed += args.rate
        while owed >= 1:
            move_cpu.append(one_move())
            moves += 1
            owed -= 1
        this_second = 0.0
        due = [p for i, p in enumerate(polled) if i % POLL_SECONDS == second % POLL_SECONDS]
        due += [p for i, p in enumerate(projectors) if i % PROJECTOR_SECONDS == second % PROJECTOR_SECONDS]
        for p in due:
            if profiler:
                profiler.enable()
            status, cpu, early = poll(p)
            if profiler:
                profiler.disable()
            how = ("304 early" if early else "304") if status == 304 else "drawn" if p["kind"] == "page" else "sent"
            spent.setdefault((p["kind"], how), []).append(cpu)
            before_app += early
            this_second += cpu
        per_second.append(this_second)

    move_ms = statistics.mean(move_cpu) * 1000
    poll_s = sum(per_second)
    per_move = poll_s / max(moves, 1) * 1000
    share = per_move / move_ms
    polls = sum(len(cpu) for cpu in spent.values())
    print(f"facilitator seats · {args.tables} tables, {len(polled)} player pages every {POLL_SECONDS} s, "
          f"{args.projectors} projectors every {PROJECTOR_SECONDS} s, {args.rate:g} moves/s for {args.seconds} s · "
          f"{'PostgreSQL' if url.startswith('postgresql') else 'SQLite'} · in-process, CPU inside the app")
    print("  one poll, alone (median CPU):")
    for label, ms in unit.items():
        print(f"    {label:<46} {ms:6.3f} ms")
    print(f"  a move's own CPU (API move, mean of {moves}): {move_ms:.2f} ms "
          f"(median {statistics.median(move_cpu) * 1000:.2f} ms)")
    print(f"  {polls} polls: {before_app} answered before the app (the change check alone)")
    labels = {("page", "304 early"): "player pages: 304 before the app",
              ("page", "304"): "player pages: 304 by the app (own state)",
              ("page", "drawn"): "player pages drawn again",
              ("projector", "304 early"): "projectors: 304 before the app", ("projector", "304"): "projectors: 304 by the app",
              ("projector", "sent"): "projectors sent a body"}
    for key, label in labels.items():
        cpu = spent.get(key, [])
        print(f"    {label:<42} {len(cpu):5d} polls (median {statistics.median(cpu or [0]) * 1000:6.3f} ms), "
              f"{sum(cpu) / max(moves, 1) * 1000:6.3f} ms per move = {sum(cpu) * 1000 / max(moves, 1) / move_ms * 100:6.2f} % "
              "of a move")
    print(f"  polls' CPU per move: {per_move:.3f} ms = {share * 100:.2f} % of a move's own CPU "
          f"(target < {TARGET * 100:.0f} %): {'met' if share < TARGET else 'NOT met'}")
    checks = sum(sum(cpu) for (kind, how), cpu in spent.items() if how.startswith("304")) / max(moves, 1) * 1000
    print(f"    the change checks (polls answered 304): {checks:.3f} ms per move = {checks / move_ms * 100:.2f} %")
    print(f"    drawing what the moves changed (pages of the players they changed, the projectors' standings, "
          f"drawn once and handed to every projector): {per_move - checks:.3f} ms per move = "
          f"{(per_move - checks) / move_ms * 100:.2f} %")
    print(f"  polls' CPU per second: {poll_s / args.seconds * 100:.2f} % of one core "
          f"(median second {statistics.median(per_second) * 1000:.1f} ms, worst {max(per_second) * 1000:.1f} ms)")
    if profiler:
        import pstats
        print("  where the polls' CPU goes (cProfile, the test client's work included):")
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("cumulative").print_stats(50)
    return 0 if share < TARGET or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
