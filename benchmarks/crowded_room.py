"""The crowded room (issue 17): 40 tablets whose Wi-Fi comes back at the same instant, each
flushing the 1-4 moves its outbox queued, wave after wave for 60 s, on the server an organizer
starts (``facilitator serve``: waitress on SQLite) and with ``--workers 4`` (four forked waitress processes), on
SQLite or PostgreSQL. Loopback only; bounded in time; stops by itself.

    python benchmarks/crowded_room.py [--tablets 40] [--seconds 60] [--workers 1|4]
                                      [--db sqlite|postgresql] [--synchronous FULL|NORMAL]

Every tablet plays its table's game with the engine (legal moves, 4 players), queues 1-4 moves
(each with the sequence number it follows and a client id, as ``static/outbox.js`` does; now and
then an undo), waits at a barrier with the other tablets and sends them in one
``POST /api/v1/tables/<id>/moves/batch``. Prints every answer's status (target: none >= 500),
the batch latency p50/p95/max, and checks afterwards that every table's log holds exactly what
its tablet sent, once and in order. Exit status 1 if a check fails.
"""

import argparse
import contextlib
import http.client
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.load_event import free_port, postgres_database, prepare  # noqa: E402
from facilitator.rules.lyceum.ruleset import sample_pack  # noqa: E402
from facilitator.rules.lyceum import Game  # noqa: E402
from facilitator.rules.lyceum.simulate import choose_move  # noqa: E402


@contextlib.contextmanager
def served(url, folder, workers=1, threads=8, synchronous=None, extra_env=None):
    """``facilitator serve`` on 127.0.0.1 (a subprocess), as an organizer starts it; yields the port."""
    port = free_port()
    env = dict(os.environ, DATABASE_URL=url, FACILITATOR_INSTANCE=str(Path(folder) / "instance"),
               FACILITATOR_ORGANIZER_PASSWORD="crowded-room-password", **(extra_env or {}))
    if synchronous:
        env["FACILITATOR_SQLITE_SYNCHRONOUS"] = synchronous
    log = open(Path(folder) / f"server-{port}.log", "w+")
    command = [sys.executable, "-m", "facilitator", "serve", "--host", "127.0.0.1", "--port", str(port),
               "--threads", str(threads), "--public-url", f"http://127.0.0.1:{port}"]
    if workers > 1:
        command += ["--workers", str(workers)]
    server = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=folder)
    try:
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if server.poll() is not None:
                    break
                time.sleep(0.1)
        else:
            log.seek(0)
            raise SystemExit("the server did not start: " + log.read()[-2000:])
        time.sleep(0.5 if workers > 1 else 0)  # the workers are forked after the socket opens
        server.log = log
        yield port, server
    finally:
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


class Tablet(threading.Thread):
    """A host's tablet: plays its table with the engine and flushes 1-4 queued moves per wave."""

    def __init__(self, port, table_id, token, players, seed, waves):
        super().__init__(daemon=True)
        self.port, self.table_id, self.token = port, table_id, token
        self.players = players
        self.moves = []  # the moves in force, as the tablet believes them
        self.game = Game(sample_pack(), players)
        self.rng = random.Random(seed)
        self.waves = waves
        self.seq = 0
        self.sent = []  # every log row the server took, in order: ("move", dict) or ("undo", None)
        self.latencies, self.statuses, self.problems = [], Counter(), []

    def queue(self):
        """The next 1-4 writes the outbox holds: moves chosen with the engine, or now and then
        an undo (and always before the game would finish, so the table plays on all along)."""
        items, seq = [], self.seq
        for _ in range(self.rng.randint(1, 4)):
            nxt = self.game.next()
            if self.moves and (nxt is None or nxt["expects"] == "finish" or self.rng.random() < 0.05):
                self.moves.pop()
                self.game = Game(sample_pack(), self.players)
                for move in self.moves:
                    self.game.apply(move)
                items.append(({"after": seq, "undo": True, "client_id": f"u{self.table_id}-{seq}"}, ("undo", None)))
            else:
                while True:
                    move = choose_move(self.game, self.rng)
                    try:
                        self.game.check(move)
                        break
                    except Exception:  # noqa: BLE001 - a random redistribution the rules refuse
                        continue
                self.game.apply(move)
                self.moves.append(move)
                items.append(({"after": seq, "move": move.to_dict(), "client_id": f"m{self.table_id}-{seq}"},
                              ("move", move.to_dict())))
            seq += 1
        return items

    def run(self):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            while True:
                try:
                    self.waves.wait()
                except threading.BrokenBarrierError:
                    return
                items = self.queue()
                body = json.dumps({"moves": [item for item, _ in items]})
                start = time.perf_counter()
                try:
                    conn.request("POST", f"/api/v1/tables/{self.table_id}/moves/batch", body=body,
                                 headers={"Content-Type": "application/json",
                                          "Authorization": f"Bearer {self.token}"})
                    response = conn.getresponse()
                    payload = response.read()
                except (OSError, http.client.HTTPException) as err:
                    self.statuses["no answer"] += 1
                    self.problems.append(repr(err))
                    conn.close()
                    conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
                    self.resync()
                    continue
                self.latencies.append(time.perf_counter() - start)
                self.statuses[response.status] += 1
                answer = json.loads(payload) if response.status < 500 else {}
                recorded = answer.get("recorded", [])
                if response.status != 200 or answer.get("refused") or len(recorded) != len(items):
                    self.problems.append(f"{response.status}: {payload[:300]!r}")
                    self.resync()
                    continue
                self.sent.extend(row for _, row in items)
                self.seq = answer["seq"]
        finally:
            conn.close()

    def resync(self):
        """After an answer that was not a clean 200 the tablet cannot tell what was stored: it
        stops checking its own log (the check below then counts the table as not exact)."""
        self.sent = None


def verify(url, tablets):
    """Every table's log holds exactly the rows its tablet sent: none lost, none doubled, in order."""
    from facilitator import services
    from facilitator.storage import get_engine, session_scope
    exact, problems = 0, []
    with session_scope(get_engine(url)) as s:
        for t in tablets:
            if t.sent is None:
                problems.append(f"table {t.table_id}: an answer was not a clean 200")
                continue
            loaded = services.load(s, t.table_id, fresh=True)
            stored = [("undo", None) if r.kind == "undo" else
                      ("move", {k: v for k, v in json.loads(r.data).items() if k != "at"}) for r in loaded.log]
            if stored != t.sent or loaded.broken:
                problems.append(f"table {t.table_id}: {len(stored)} rows stored, {len(t.sent)} sent")
            else:
                exact += 1
    return exact, problems


def pct(values, q):
    return values[min(len(values) - 1, int(q * (len(values) - 1) + 0.5))] if values else float("nan")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tablets", type=int, default=40)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--workers", type=int, default=1, help="1: waitress (the default server); N: N forked waitress processes")
    ap.add_argument("--threads", type=int, default=8, help="threads per server process (serve's default: 8)")
    ap.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    ap.add_argument("--synchronous", choices=("FULL", "NORMAL"), default=None,
                    help="SQLite's synchronous setting (default: the app's, FULL)")
    ap.add_argument("--seed", type=int, default=17)
    args = ap.parse_args(argv)

    tmp = tempfile.TemporaryDirectory()
    url, drop = postgres_database() if args.db == "postgresql" else (f"sqlite:///{tmp.name}/event.db", lambda: None)
    try:
        _event_id, tables = prepare(url, args.tablets, args.seed)
        from facilitator.storage.db import dispose_all
        dispose_all()
        with served(url, tmp.name, args.workers, args.threads, args.synchronous) as (port, server):
            waves = threading.Barrier(len(tables))
            tablets = [Tablet(port, tid, token, players, args.seed + i, waves)
                       for i, (tid, token, players) in enumerate(tables)]
            start = time.perf_counter()
            for t in tablets:
                t.start()
            time.sleep(args.seconds)
            waves.abort()
            for t in tablets:
                t.join(90)
            elapsed = time.perf_counter() - start
            server.log.seek(0)
            server_log = server.log.read()
        latencies = sorted(x for t in tablets for x in t.latencies)
        statuses = sum((t.statuses for t in tablets), Counter())
        batches = sum(statuses.values())
        rows = sum(len(t.sent or []) for t in tablets)
        failed = sum(n for status, n in statuses.items() if not isinstance(status, int) or status >= 500)
        exact, problems = verify(url, tablets)
        server_name = "waitress (facilitator serve)" if args.workers == 1 else f"facilitator serve --workers {args.workers}"
        print(f"database: {args.db}{' synchronous=' + args.synchronous if args.synchronous else ''}; "
              f"server: {server_name}, {args.threads} threads each")
        print(f"{len(tablets)} tablets flushing 1-4 queued moves at the same instant for {elapsed:.0f} s: "
              f"{batches} batches, {rows} moves and undos recorded ({rows / elapsed:.0f}/s)")
        print("answers: " + ", ".join(f"{status}: {n}" for status, n in sorted(statuses.items(), key=str)))
        print(f"answers >= 500 or none: {failed} (target 0)")
        print(f"batch latency: p50 {pct(latencies, 0.5) * 1000:.0f} ms, p95 {pct(latencies, 0.95) * 1000:.0f} ms, "
              f"max {latencies[-1] * 1000 if latencies else float('nan'):.0f} ms")
        print(f"log check: {exact}/{len(tablets)} tables hold exactly the moves sent, once and in order")
        for p in ([p for t in tablets for p in t.problems] + problems)[:8]:
            print("  " + p)
        if failed and "Traceback" in server_log:
            print("server log (end):\n" + server_log[-2500:])
        ok = failed == 0 and exact == len(tablets)
        print("RESULT:", "PASS" if ok else "FAIL")
        return 0 if ok else 1
    finally:
        drop()
        tmp.cleanup()


if __name__ == "__main__":
    sys.exit(main())
