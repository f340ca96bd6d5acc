"""Pages cost what they show, not what the database holds (issue 11, item 10): the organizer's
start page, the dashboard of a 1,000-table event, its status JSON and the projector's standings,
and the projector's change check, with 1,000 tables in the database.

    python3 benchmarks/bench_pages.py [--tables 1000] [--db sqlite|postgresql] [--repeat 7]

The tables are random legal games of ``simulate.random_game`` (the sample pack, 4 players) cut at
every round from 1 to 10 and stored through ``services.import_record`` in one event. The app runs
in-process (Flask's test client, signed in as the organizer); each figure is the median of
``--repeat`` requests after one warm-up, the projector's recomputed each time (a move at one table
in between, as during an event) and its 304 (nothing changed) measured apart. Targets: start page
and dashboard under 300 ms.
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

from facilitator.rules.lyceum.ruleset import sample_pack  # noqa: E402
from facilitator.rules.lyceum import Record  # noqa: E402
from facilitator.rules.lyceum.simulate import random_game  # noqa: E402

TARGET_MS = 300


def cut(pack, seed, moves_kept):
    full, _ = random_game(pack, seed=seed, players=4)
    keep = min(moves_kept, len(full.moves))
    return Record(table=f"Стол {seed}", pack=pack, players=full.players, moves=full.moves[:keep])


def timed(fn, repeat):
    fn()  # warm-up: templates compiled, caches filled
    samples = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t) * 1000)
    return statistics.median(samples), max(samples)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-pages-") as tmp:
        os.environ["FACILITATOR_INSTANCE"] = str(Path(tmp) / "instance")
        if args.db == "sqlite":
            url, drop = f"sqlite:///{Path(tmp) / 'pages.db'}", None
        else:
            sys.path.insert(0, str(ROOT / "benchmarks"))
            from bench_move_cost import postgres_database
            url, drop = postgres_database()
        try:
            return run(url, args, tmp)
        finally:
            if drop:
                drop()


def run(url, args, tmp):
    from facilitator import services
    from facilitator.web import create_app
    app = create_app({"DATABASE_URL": url, "INSTANCE_PATH": str(Path(tmp) / "instance"), "PROJECTOR_FRESH_SECONDS": 0})
    engine = app.extensions["facilitator.engine"]
    pack = sample_pack()
    rng = random.Random(1)
    t0 = time.perf_counter()
    records = {}
    with services.db.session_scope(engine) as s:
        ev = services.events.create_event(s, "Большое мероприятие", "2026-11-29", services.packs.ensure_sample(s, "lyceum-16-25"))
        event_id = ev.id
        for i in range(args.tables):
            seed = i % 60  # 60 distinct games, each cut at another point
            key = (seed, rng.randrange(0, 320, 8))
            if key not in records:
                records[key] = cut(pack, *key).to_dict()
            services.import_record(s, records[key], name=f"Стол {i + 1}", event_id=event_id)
    print(f"facilitator pages · {args.tables} tables stored in {time.perf_counter() - t0:.0f} s · "
          f"{'SQLite' if url.startswith('sqlite') else 'PostgreSQL'} · in-process")

    client = app.test_client()
    with services.db.session_scope(engine) as s:
        secret = services.access.start_session(s)
    with client.session_transaction() as sess:
        sess["organizer"] = secret
    token = {}
    with services.db.session_scope(engine) as s:
        playing = next(t for t in services.events.tables_of(s, event_id) if t.status == "playing")
        services.access.ensure_access(s, playing)
        token = {"id": playing.id, "token": playing.token}

    def move():
        """A pass or a rest at one table, as happens between two projector polls."""
        with services.db.session_scope(engine) as s:
            loaded = services.load(s, token["id"])
            game = loaded.game
            nxt = game.next()
            if nxt is None or nxt["expects"] != "main":
                return
            from facilitator.rules.lyceum import Move
            services.record_move(s, token["id"], Move("pass", player=nxt["player"]), loaded.seq)

    def get(path, status=200):
        def fn():
            response = client.get(path)
            assert response.status_code == status, (path, response.status_code)
            return response
        return fn

    results = []
    for label, fn in (
        ("start page (/) listing every table", get("/")),
        ("dashboard of the event", get(f"/organizer/events/{event_id}")),
        ("dashboard status JSON", get(f"/organizer/events/{event_id}/status.json")),
    ):
        results.append((label, *timed(fn, args.repeat), True))

    def projector_after_a_move():
        move()
        get(f"/e/{event_id}/standings.json")()
    results.append(("projector standings after a move", *timed(projector_after_a_move, args.repeat), False))
    etag = client.get(f"/e/{event_id}/standings.json").headers["ETag"]

    def unchanged():
        response = client.get(f"/e/{event_id}/standings.json", headers={"If-None-Match": etag})
        assert response.status_code == 304
    results.append(("projector poll, nothing changed (304)", *timed(unchanged, args.repeat * 5), False))
    ok = True
    for label, median, worst, targeted in results:
        verdict = ""
        if targeted:
            verdict = f"target < {TARGET_MS} ms -> {'meets' if median < TARGET_MS else 'MISSES'}"
            ok &= median < TARGET_MS
        print(f"  {label:<40} median {median:7.1f} ms   max {worst:7.1f} ms   {verdict}")
    return 1 if args.check and not ok else 0


if __name__ == "__main__":
    sys.exit(main())
