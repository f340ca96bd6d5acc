"""What one move costs the server (issue 11): an API move and a tablet's tap, next to a bare
Flask endpoint that inserts one row into the same database, measured in the same run.

    python3 benchmarks/bench_move_cost.py [--db sqlite|postgresql] [--moves 300]

Everything runs in one process through Flask's test client (no HTTP parsing on either side,
so the comparison is of the server's own work): for each request the wall-clock time, the
process's CPU time and the SQL statements it sent (counted on the engine). Three measurements:

* **bare insert**: ``POST /bare`` — a Flask view that inserts one row (``INSERT`` + ``COMMIT``)
  with SQLAlchemy Core and answers 201 with a small JSON body: the floor of any write;
* **API move**: ``POST /api/v1/tables/<id>/moves`` with the table's host token, a legal move
  of the engine's random player, answered with the table's new state — at tables whose games
  stand in round 1, and at tables in round 10 (the cost must not grow with the game);
* **tablet tap**: the move form's POST and the redirect's GET of the turn screen.

Prints medians and 95th percentiles and the ratio of the API move to the bare insert beside
the target (at most 3×). Exit status 1 with ``--check`` when a target is missed.
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
from facilitator.rules.lyceum import Game, Record  # noqa: E402
from facilitator.rules.errors import IllegalMoveError  # noqa: E402
from facilitator.rules.lyceum.simulate import choose_move, random_game  # noqa: E402

TARGET_RATIO = 3.0


def cut_game(pack, seed, round_no, players=4):
    """A random legal game stopped before a main move of ``round_no``: (record, game)."""
    full, _ = random_game(pack, seed=seed, players=players)
    game = Game(pack, full.players, table=full.table)
    for i, move in enumerate(full.moves):
        upcoming = game._next_turn()
        nxt = game.next()
        if nxt and nxt["expects"] == "main" and upcoming and upcoming[0] == round_no:
            return Record(table=full.table, pack=pack, players=full.players, moves=full.moves[:i]), game
        game.apply(move)
    raise ValueError(f"game {seed} never reached round {round_no}")


def legal(game, rng):
    while True:
        move = choose_move(game, rng)
        try:
            game.check(move)
            return move
        except IllegalMoveError:
            continue


class Meter:
    """Wall time, CPU time and SQL statements of each measured request."""

    def __init__(self, engine):
        from sqlalchemy import event
        self.statements = 0
        event.listen(engine, "before_cursor_execute", self._count)
        event.listen(engine, "commit", self._count_commit)

    def _count(self, *args, **kwargs):
        self.statements += 1

    def _count_commit(self, *args, **kwargs):
        self.statements += 1  # COMMIT is a round trip too

    def measure(self, fn):
        before = self.statements
        w0, c0 = time.perf_counter(), time.process_time()
        fn()
        return time.perf_counter() - w0, time.process_time() - c0, self.statements - before


def bare_app(url):
    """The floor: a Flask app whose one view inserts one row and answers 201 with JSON."""
    from flask import Flask, jsonify, request
    from sqlalchemy import Column, Integer, MetaData, Table, Text, create_engine, insert
    engine = create_engine(url.replace("sqlite:///", "sqlite:///") if url.startswith("sqlite") else url)
    meta = MetaData()
    rows = Table("bench_bare", meta, Column("id", Integer, primary_key=True), Column("table_id", Integer),
                 Column("seq", Integer), Column("data", Text))
    meta.create_all(engine)
    app = Flask("bare")

    @app.post("/bare")
    def bare():
        body = request.get_json()
        with engine.begin() as conn:
            conn.execute(insert(rows).values(table_id=body["table"], seq=body["seq"], data=body["data"]))
        return jsonify({"ok": True, "seq": body["seq"]}), 201
    return app, engine


def percentile(values, q):
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, -(-len(ordered) * q // 100) - 1))]


def summary(label, samples):
    wall = [s[0] * 1000 for s in samples]
    cpu = [s[1] * 1000 for s in samples]
    sql = [s[2] for s in samples]
    print(f"  {label:<34} wall median {statistics.median(wall):6.2f} ms  p95 {percentile(wall, 95):6.2f}   "
          f"cpu median {statistics.median(cpu):6.2f} ms   SQL round trips {statistics.median(sql):.0f}")
    return statistics.median(cpu)


def postgres_database():
    import psycopg
    for user in ("postgres", "root"):
        try:
            admin = psycopg.connect(f"host=127.0.0.1 port=5432 user={user} dbname=postgres", autocommit=True,
                                    connect_timeout=3)
            break
        except Exception:  # noqa: BLE001
            admin = None
    if admin is None:
        raise SystemExit("no PostgreSQL server on 127.0.0.1:5432 (use --db sqlite)")
    name = f"facilitator_bench_cost_{os.getpid()}"
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
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="bench-cost-") as tmp:
        os.environ["FACILITATOR_INSTANCE"] = str(Path(tmp) / "instance")
        if args.db == "sqlite":
            url, drop = f"sqlite:///{Path(tmp) / 'bench.db'}", None
        else:
            url, drop = postgres_database()
        try:
            return run(url, args, tmp)
        finally:
            if drop:
                drop()


def run(url, args, tmp):
    from facilitator import services
    from facilitator.web import create_app
    app = create_app({"DATABASE_URL": url, "INSTANCE_PATH": str(Path(tmp) / "instance"),
                      "WTF_CSRF_ENABLED": False})
    engine = app.extensions["facilitator.engine"]
    pack = sample_pack()
    rng = random.Random(args.seed)
    count = args.moves // 4 + 4
    tables = {1: [], 10: []}
    with services.db.session_scope(engine) as s:
        for round_no in (1, 10):
            for i in range(count):
                record, game = cut_game(pack, args.seed + 100 * round_no + i, round_no)
                record.table = f"Стол {round_no}-{i}"
                table = services.import_record(s, record.to_dict())
                services.access.ensure_access(s, table)
                tables[round_no].append([table.id, table.token, game])
    bare, bare_engine = bare_app(url)
    meter, bare_meter = Meter(engine), Meter(bare_engine)
    api, tablet, floor = app.test_client(), app.test_client(), bare.test_client()

    def api_moves(round_no, n):
        samples, pool = [], list(tables[round_no])
        while len(samples) < n:
            table_id, token, game = pool[len(samples) % len(pool)]
            if game.finished or game.next() is None:
                continue
            move = legal(game, rng)
            body = {"after": len(game.history), "move": move.to_dict()}

            def post():
                response = api.post(f"/api/v1/tables/{table_id}/moves", json=body,
                                    headers={"Authorization": f"Bearer {token}"})
                assert response.status_code == 201, response.get_data(as_text=True)
            samples.append(meter.measure(post))
            game.apply(move)
        return samples

    def bare_inserts(n):
        return [bare_meter.measure(lambda i=i: floor.post("/bare", json={"table": 1, "seq": i, "data": "{}"}))
                for i in range(n)]

    # warm both (templates, caches, pools), then measure interleaved so both see the same machine
    bare_inserts(20)
    api_moves(1, 8)
    n = args.moves
    floor_samples = bare_inserts(n)
    round1 = api_moves(1, n // 2)
    round10 = api_moves(10, n // 2)

    # the tablet's tap: the move form's POST and the turn screen it redirects to
    with tablet.session_transaction() as sess:
        with services.db.session_scope(engine) as s:
            sess["organizer"] = services.access.start_session(s)
    taps = []
    table_id, _token, game = next(t for t in tables[1] if not t[2].finished)
    for _ in range(min(60, n // 4)):
        move = legal(game, rng)
        if move.type not in ("pass", "rest", "allocate"):
            game.apply(move)  # recorded through the API: only the simple forms are timed here
            api.post(f"/api/v1/tables/{table_id}/moves", json={"after": len(game.history) - 1, "move": move.to_dict()},
                     headers={"Authorization": f"Bearer {_token}"})
            continue
        form = {"after": len(game.history), "player": move.player or "", "type": move.type}
        for key, values in (("redistribute", move.redistribute), ("sp", move.sp)):
            for skill, v in (values or {}).items():
                form[f"{key}-{skill}"] = v

        def tap():
            r = tablet.post(f"/table/{table_id}/move/{move.type}", data=form)
            assert r.status_code == 303, r.status_code
            tablet.get(r.headers["Location"])
        taps.append(meter.measure(tap))
        game.apply(move)

    print(f"facilitator move cost · Python {sys.version.split()[0]} · {os.cpu_count()} CPUs · "
          f"{'SQLite' if url.startswith('sqlite') else 'PostgreSQL'} · in-process (Flask test client)")
    floor_cpu = summary("bare Flask insert (the floor)", floor_samples)
    r1 = summary("API move, games in round 1", round1)
    r10 = summary("API move, games in round 10", round10)
    summary("tablet tap (POST + turn screen)", taps)
    ratio = statistics.median([s[1] for s in round1 + round10]) * 1000 / floor_cpu
    growth = r10 / r1
    print(f"  API move / bare insert: {ratio:.1f}× CPU (target ≤ {TARGET_RATIO:.0f}×) -> "
          f"{'meets' if ratio <= TARGET_RATIO else 'MISSES'}")
    print(f"  round 10 / round 1: {growth:.2f}× (a move's cost does not grow with the game)")
    return 1 if args.check and (ratio > TARGET_RATIO or growth > 1.5) else 0


if __name__ == "__main__":
    sys.exit(main())
