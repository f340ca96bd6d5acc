"""Two machines, one event (issue 22): a 60-table event played to the end on one app server,
then on two (half the tablets on each, both on one PostgreSQL database, each server with its
own instance folder), then on two again with the second stopped mid-event: its tablets find it
gone and carry on through the first. Loopback only; bounded in time; stops by itself.

    python benchmarks/two_servers.py [--tables 60] [--think 0] [--threads 8] [--stop-at 0.5] [--kill]

Both servers run on this one machine, on the same cores: the ratio of two servers to one shows
what a second process costs (connections, a second cache of games), not what a second machine
gains. Every scripted host (``load_event.Host``) picks legal moves with the engine and posts
them over the JSON API with a client id; when its server does not answer (stopped) it sends
the same move to the other server, where a move the stopped server had recorded before it went
is answered «already recorded» and counted once. ``--think 0`` (the default) measures the
saturation throughput, each host sending its next move as soon as the last is answered.

Prints moves/s and the move latency p50/p95 of each run, how many tablets switched servers
and how many moves they resent, and checks afterwards that every table's log holds exactly the
moves its host was told are recorded: none lost, none doubled. Exit status 1 if a check fails.
"""

import argparse
import http.client
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.crowded_room import pct, served  # noqa: E402
from benchmarks.load_event import DEADLINE_SECONDS, Host, postgres_database, prepare, verify  # noqa: E402
from facilitator.rules.lyceum.simulate import choose_move  # noqa: E402


class Tablet(Host):
    """A host's tablet behind a proxy: its moves go to its own server; when that one does not
    answer, to the next (as a proxy's failover does), the same move with the same client id."""

    def __init__(self, ports, *args, **kwargs):
        super().__init__(ports[0], *args, **kwargs)
        self.ports = list(ports)
        self.switched = self.resent = self.already = 0

    def post(self, body):
        """The move's answer ``(status, payload)`` from the first server that answers."""
        for _attempt in range(2 * len(self.ports)):
            conn = http.client.HTTPConnection("127.0.0.1", self.ports[0], timeout=30)
            try:
                conn.request("POST", f"/api/v1/tables/{self.table_id}/moves", body=body,
                             headers={"Content-Type": "application/json", "Authorization": f"Bearer {self.token}"})
                response = conn.getresponse()
                return response.status, response.read()
            except (OSError, http.client.HTTPException):
                self.ports.append(self.ports.pop(0))  # that server is gone: the next one
                self.switched = 1
                self.resent += 1
                time.sleep(0.05)
            finally:
                conn.close()
        return None, b"no server answered"

    def run(self):
        seq = 0
        try:
            while not self.game.finished and not self.stop.is_set():
                move = choose_move(self.game, self.rng)
                try:
                    self.game.check(move)
                except Exception:  # noqa: BLE001 - a random redistribution the rules refuse: pick again
                    continue
                body = json.dumps({"after": seq, "move": move.to_dict(), "client_id": f"{self.table_id}-{seq}"})
                start = time.perf_counter()
                status, payload = self.post(body)
                self.latencies.append(time.perf_counter() - start)
                answer = json.loads(payload) if status and status < 500 else {}
                if status == 409 and answer.get("error", {}).get("already_recorded"):
                    self.already += 1  # recorded by the server that went before it could answer
                    seq = answer["error"]["seq"]
                elif status == 201:
                    seq = answer["seq"]
                else:
                    self.errors.append((status, payload[:200]))
                    return
                self.game.apply(move)
                self.sent.append(move.to_dict())
                if self.think:
                    time.sleep(self.think)
        except Exception as err:  # noqa: BLE001 - reported, never hidden
            self.errors.append(("exception", repr(err)))


def play(url, ports, args, seed, stop_server=None, stop_at=None, total=None):
    """One event of ``args.tables`` tables played to the end, tablet i on ``ports[i % n]`` first.
    ``stop_server`` is stopped (``--kill``: killed) once ``stop_at`` of ``total`` moves are recorded."""
    _event_id, tables = prepare(url, args.tables, seed)
    stop = threading.Event()
    tablets = [Tablet(ports[i % len(ports):] + ports[:i % len(ports)], tid, token, players, seed + i, args.think,
                      stop) for i, (tid, token, players) in enumerate(tables)]
    stopped_after = None
    start = time.perf_counter()
    for t in tablets:
        t.start()
    deadline = start + DEADLINE_SECONDS
    while any(t.is_alive() for t in tablets) and time.perf_counter() < deadline:
        if stop_server is not None and stopped_after is None and sum(len(t.sent) for t in tablets) >= stop_at * total:
            stopped_after = sum(len(t.sent) for t in tablets)
            (stop_server.kill if args.kill else stop_server.terminate)()  # the second machine goes away
        time.sleep(0.01)
    stop.set()
    for t in tablets:
        t.join(30)
    elapsed = time.perf_counter() - start
    return tablets, elapsed, stopped_after


def report(name, tablets, elapsed):
    latencies = sorted(x for t in tablets for x in t.latencies)
    moves = sum(len(t.sent) for t in tablets)
    print(f"{name:<34} {moves:>5} moves in {elapsed:5.1f} s = {moves / elapsed:5.0f} moves/s; move latency "
          f"p50 {statistics.median(latencies) * 1000:5.1f} ms, p95 {pct(latencies, 0.95) * 1000:5.1f} ms")
    return moves / elapsed, pct(latencies, 0.95), moves


def check(url, name, tablets):
    problems = verify(url, tablets) + [f"table {t.table_id}: {e}" for t in tablets for e in t.errors]
    print(f"  log check ({name}): {len(tablets) - len({p.split(':')[0] for p in problems})}/{len(tablets)} tables "
          f"hold exactly the moves sent; problems: {len(problems)}")
    for p in problems[:8]:
        print("    " + p)
    return not problems


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=60)
    ap.add_argument("--think", type=float, default=0.0, help="seconds a host waits between moves (0: saturation)")
    ap.add_argument("--threads", type=int, default=8, help="waitress threads per server (serve's default: 8)")
    ap.add_argument("--stop-at", type=float, default=0.5,
                    help="the second server is stopped once this share of the event's moves is recorded")
    ap.add_argument("--kill", action="store_true",
                    help="kill the second server (SIGKILL: a machine losing power, its answers in flight lost) "
                         "instead of stopping it (SIGTERM)")
    ap.add_argument("--seed", type=int, default=22)
    args = ap.parse_args(argv)

    tmp = tempfile.TemporaryDirectory()
    url, drop = postgres_database()
    folders = [Path(tmp.name) / "machine-a", Path(tmp.name) / "machine-b"]
    for folder in folders:
        folder.mkdir()
    ok, gone = True, "killed" if args.kill else "stopped"
    try:
        print(f"database: postgresql (one, shared); {args.tables} tables of 4 players played to the end; "
              f"host think time {args.think} s; waitress, {args.threads} threads per server; both servers on "
              f"this machine's cores")
        with served(url, folders[0], threads=args.threads) as (port_a, _server_a):
            tablets, elapsed, _ = play(url, [port_a], args, args.seed)
            one = report("one server", tablets, elapsed)
            ok &= check(url, "one server", tablets)
            with served(url, folders[1], threads=args.threads) as (port_b, server_b):
                tablets, elapsed, _ = play(url, [port_a, port_b], args, args.seed)
                two = report(f"two servers ({args.tables - args.tables // 2} + {args.tables // 2} tablets)",
                             tablets, elapsed)
                ok &= check(url, "two servers", tablets)
                tablets, elapsed, stopped = play(url, [port_a, port_b], args, args.seed, stop_server=server_b,
                                                 stop_at=args.stop_at, total=one[2])
                third = report(f"two, the second {gone} mid-event", tablets,
                               elapsed)
                on_b = tablets[1::2]
                moved = [t for t in on_b if t.switched]
                print(f"  the second server {gone} after {stopped} moves: {len(moved)} of its {len(on_b)} tablets "
                      f"switched to the first and carried on (any other had finished); "
                      f"{sum(t.resent for t in tablets)} moves resent, {sum(t.already for t in tablets)} found "
                      f"already recorded")
                ok &= check(url, f"second {gone}", tablets)
                ok &= stopped is not None and bool(moved) and not any(t.switched for t in tablets[0::2])
        print(f"two servers / one: moves/s x{two[0] / one[0]:.2f}, p95 x{two[1] / one[1]:.2f}; "
              f"with the second {gone} mid-event: moves/s x{third[0] / one[0]:.2f}, p95 x{third[1] / one[1]:.2f}")
        print("RESULT:", "PASS" if ok else "FAIL")
        return 0 if ok else 1
    finally:
        drop()
        tmp.cleanup()


if __name__ == "__main__":
    sys.exit(main())
