"""Load test of an event (issue 5): the app served by its production server (waitress) on
PostgreSQL, 60 tables played concurrently to the end by scripted hosts over the JSON API,
while 100 clients poll the projector's standings. Loopback only; bounded in time; stops by
itself.

    python benchmarks/load_event.py [--tables 60] [--pollers 100] [--think 2.0] [--db postgresql|sqlite]

Each scripted host waits ``--think`` seconds between its moves (2 s by default: a real host
reads the card aloud and the player decides, so a table makes a move every 20-60 s; 2 s is
ten times faster than a busy table). ``--think 0`` measures the saturation throughput
instead: then every host queues behind the others and latency shows the queue, not a move.

Reports moves per second, median and 95th percentile move latency, projector polls per
second, and then checks every table's log against the moves each host sent: none lost,
none doubled. Exit status 1 if a check fails.
"""

import argparse
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from facilitator.rules.lyceum.ruleset import sample_pack  # noqa: E402
from facilitator.rules.lyceum import Game  # noqa: E402
from facilitator.rules.lyceum.simulate import choose_move, random_setup  # noqa: E402
from benchmarks.rig import postgres_database  # noqa: E402

DEADLINE_SECONDS = 600


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def prepare(url, tables, seed):
    """An event with ``tables`` tables, each seated with 4 players; returns [(id, token, setup)]."""
    from facilitator import services
    from facilitator.services import events
    from facilitator.services.db import engine_for, session_scope, startup
    engine = engine_for(url)
    startup(engine)
    rng = random.Random(seed)
    out = []
    with session_scope(engine) as s:
        pack_row = services.packs.ensure_sample(s, "lyceum-16-25")
        ev = events.create_event(s, "Нагрузочный тест", "2026-11-29", pack_row)
        for i in range(tables):
            table = events.add_table(s, ev, f"Стол {i + 1}")
            players = random_setup(sample_pack(), rng, 4)
            services.set_players(s, table.id, players)
            out.append((table.id, table.token, players))
        event_id = ev.id
    return event_id, out


class Host(threading.Thread):
    """A scripted host: picks legal moves with the engine and posts them until the game ends."""

    def __init__(self, port, table_id, token, players, seed, think, stop):
        super().__init__(daemon=True)
        self.port, self.table_id, self.token = port, table_id, token
        self.game = Game(sample_pack(), players)
        self.rng = random.Random(seed)
        self.think, self.stop = think, stop
        self.sent = []  # every move the server accepted, in order
        self.latencies = []
        self.errors = []

    def run(self):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        seq = 0
        try:
            while not self.game.finished and not self.stop.is_set():
                move = choose_move(self.game, self.rng)
                try:
                    self.game.check(move)
                except Exception:  # a random redistribution the rules refuse: pick again
                    continue
                body = json.dumps({"after": seq, "move": move.to_dict()})
                start = time.perf_counter()
                conn.request("POST", f"/api/v1/tables/{self.table_id}/moves", body=body,
                             headers={"Content-Type": "application/json", "Authorization": f"Bearer {self.token}"})
                response = conn.getresponse()
                payload = response.read()
                self.latencies.append(time.perf_counter() - start)
                if response.status != 201:
                    self.errors.append((response.status, payload[:200]))
                    return
                seq = json.loads(payload)["seq"]
                self.game.apply(move)
                self.sent.append(move.to_dict())
                if self.think:
                    time.sleep(self.think)
        except Exception as err:  # noqa: BLE001 - reported, never hidden
            self.errors.append(("exception", repr(err)))
        finally:
            conn.close()


class Poller(threading.Thread):
    """A projector left open: polls the standings with If-None-Match every ``interval`` s."""

    def __init__(self, port, event_id, interval, stop):
        super().__init__(daemon=True)
        self.port, self.event_id, self.interval, self.stop = port, event_id, interval, stop
        self.polls = self.changed = self.failed = 0

    def run(self):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        etag = None
        time.sleep(random.random() * self.interval)
        while not self.stop.is_set():
            try:
                conn.request("GET", f"/e/{self.event_id}/standings.json",
                             headers={"If-None-Match": etag} if etag else {})
                response = conn.getresponse()
                response.read()
                self.polls += 1
                if response.status == 200:
                    etag = response.getheader("ETag")
                    self.changed += 1
                elif response.status != 304:
                    self.failed += 1
            except Exception:  # noqa: BLE001
                self.failed += 1
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            self.stop.wait(self.interval)
        conn.close()


def verify(url, hosts):
    """Every table's log holds exactly the moves its host sent: none lost, none doubled."""
    from facilitator import services
    from facilitator.storage import get_engine, session_scope
    problems = []
    with session_scope(get_engine(url)) as s:
        for h in hosts:
            loaded = services.load(s, h.table_id)
            stored = [json.loads(r.data) for r in loaded.log]
            stored = [{k: v for k, v in d.items() if k != "at"} for d in stored]
            if stored != h.sent:
                problems.append(f"table {h.table_id}: {len(stored)} moves stored, {len(h.sent)} sent")
            if h.sent and not loaded.game.finished:
                problems.append(f"table {h.table_id}: not finished")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=60)
    ap.add_argument("--pollers", type=int, default=100)
    ap.add_argument("--poll-interval", type=float, default=3.0, help="seconds between polls (the projector page polls every 3 s)")
    ap.add_argument("--think", type=float, default=2.0, help="seconds a host waits between moves")
    ap.add_argument("--threads", type=int, default=16, help="waitress worker threads")
    ap.add_argument("--db", choices=("postgresql", "sqlite"), default="postgresql")
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()

    tmp = tempfile.TemporaryDirectory()
    if args.db == "postgresql":
        url, drop = postgres_database("facilitator_load")
    else:
        url, drop = f"sqlite:///{tmp.name}/load.db", (lambda: None)
    server = None
    try:
        event_id, tables = prepare(url, args.tables, args.seed)
        port = free_port()
        env = dict(os.environ, DATABASE_URL=url, FACILITATOR_INSTANCE=str(Path(tmp.name) / "instance"),
                   FACILITATOR_ORGANIZER_PASSWORD="load-test-password")
        server_log = open(Path(tmp.name) / "server.log", "w+")
        server = subprocess.Popen([sys.executable, "-m", "facilitator", "serve", "--host", "127.0.0.1",
                                   "--port", str(port), "--threads", str(args.threads)],
                                  env=env, stdout=server_log, stderr=subprocess.STDOUT, cwd=tmp.name)
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        else:
            server_log.seek(0)
            raise SystemExit("the server did not start: " + server_log.read()[-2000:])

        stop = threading.Event()
        hosts = [Host(port, tid, token, players, args.seed + i, args.think, stop)
                 for i, (tid, token, players) in enumerate(tables)]
        pollers = [Poller(port, event_id, args.poll_interval, stop) for _ in range(args.pollers)]
        for p in pollers:
            p.start()
        start = time.perf_counter()
        for h in hosts:
            h.start()
            time.sleep(args.think / len(hosts))  # hosts do not all tap at the same instant
        deadline = start + DEADLINE_SECONDS
        for h in hosts:
            h.join(max(0.1, deadline - time.perf_counter()))
        elapsed = time.perf_counter() - start
        stop.set()
        for p in pollers:
            p.join(5)

        latencies = sorted(x for h in hosts for x in h.latencies)
        moves = sum(len(h.sent) for h in hosts)
        errors = [(h.table_id, e) for h in hosts for e in h.errors]
        polls = sum(p.polls for p in pollers)
        p95 = latencies[int(0.95 * (len(latencies) - 1))] if latencies else float("nan")
        print(f"database: {args.db}; server: waitress, {args.threads} threads; host think time {args.think} s")
        print(f"tables: {len(hosts)} played concurrently, {moves} moves in {elapsed:.1f} s "
              f"= {moves / elapsed:.0f} moves/s")
        print(f"move latency: median {statistics.median(latencies) * 1000:.1f} ms, "
              f"p95 {p95 * 1000:.1f} ms, max {latencies[-1] * 1000:.1f} ms (target p95 < 100 ms, issue 11; 200 ms, issue 5)")
        print(f"projector pollers: {len(pollers)}, {polls} polls = {polls / elapsed:.0f}/s, "
              f"{sum(p.changed for p in pollers)} with new standings, {sum(p.failed for p in pollers)} failed")
        problems = verify(url, hosts)
        print(f"log check: {len(hosts) - len({p.split(':')[0] for p in problems})}/{len(hosts)} tables hold "
              f"exactly the moves sent; lost or doubled: {len(problems)}")
        for table_id, e in errors[:10]:
            print(f"  error at table {table_id}: {e}")
        for p in problems[:10]:
            print(f"  {p}")
        if errors:
            server_log.seek(0)
            print("server log (end):\n" + server_log.read()[-3000:])
        ok = not problems and not errors and p95 < 0.2
        print("RESULT:", "PASS" if ok else "FAIL")
        return 0 if ok else 1
    finally:
        if server is not None:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
        drop()
        tmp.cleanup()


if __name__ == "__main__":
    sys.exit(main())
