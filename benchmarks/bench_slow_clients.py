"""Slow clients against ``facilitator serve`` (issue 17): a troublemaker holds 1,100 half-sent
connections (more than the server's connection limit of 1,000), trickling a byte into each
every few seconds and re-opening at once any the server drops, while a new tablet opens its
pages. Loopback only; bounded in time; stops by itself.

    python benchmarks/bench_slow_clients.py [--held 1100] [--seconds 25] [--trickle 3] [--workers 1]
                                            [--connection-limit N] [--attack one|spread|both]

Two attacks, one after the other, on a fresh server each (SQLite, a temporary instance folder):
  * one address: all connections from 127.0.0.2 (the per-address cap's case);
  * 40 addresses: spread over 127.0.0.2-127.0.0.41, under the cap each (the connection limit's).
The troublemaker runs in a process of its own so it never slows the tablet's clock. The tablet
opens GET /pin and GET / from 127.0.0.1, each on a new connection, every 0.2 s; a request
counts from connect to its last byte and fails after 30 s.

Prints, per attack: how many connections the troublemaker held (sampled each second), how many
the server dropped and they re-opened, and the tablet's p50 / max per page. PASS when every
page answered in < 1 s. Exit status 1 if any attack fails.
"""

import argparse
import http.client
import multiprocessing
import os
import resource
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOAL_SECONDS = 1.0
PAGE_TIMEOUT = 30
HALF_SENT = b"GET /pin HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUser-Agent: slow\r\nX-Slow: "
REOPENS_PER_SECOND = 2000  # the troublemaker's bound on new connections


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def raise_open_files(need):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (need if hard == resource.RLIM_INFINITY else min(need, hard), hard))


class Server:
    """``facilitator serve`` on a loopback port with a fresh instance folder, stopped on exit."""

    def __init__(self, folder, workers, options=()):
        self.port = free_port()
        self.log = open(folder / "server.log", "wb")
        env = dict(os.environ, DATABASE_URL=f"sqlite:///{folder / 'bench.db'}",
                   FACILITATOR_INSTANCE=str(folder / "instance"), FACILITATOR_ORGANIZER_PASSWORD="slow-clients-bench",
                   PYTHONPATH=str(ROOT))
        self.proc = subprocess.Popen([sys.executable, "-m", "facilitator", "serve", "--host", "127.0.0.1",
                                      "--port", str(self.port), "--workers", str(workers), *options],
                                     cwd=folder, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"the server exited: see {self.log.name}")
            try:
                if page(self.port, "/pin")[0] == 200:
                    return
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise SystemExit("the server did not start within 60 s")

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self.log.close()


def page(port, path):
    """A new tablet's request: (status, seconds from connect to the last byte)."""
    started = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=PAGE_TIMEOUT)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        return response.status, time.monotonic() - started
    finally:
        conn.close()


# ----- the troublemaker (its own process) --------------------------------------------------------
def troublemaker(port, sources, held, trickle, seconds, ready, results):
    """Hold ``held`` half-sent connections spread over ``sources`` for ``seconds``, trickling a
    byte into each every ``trickle`` seconds (0: never) and re-opening any the server drops."""
    raise_open_files(held + 256)
    head = HALF_SENT % port
    selector = selectors.DefaultSelector()
    slots = [None] * held  # per slot: [socket, connected, next trickle time] or None
    opened = dropped = failed = 0
    samples = []
    budget, budget_time = 0.0, time.monotonic()
    stop_at = time.monotonic() + seconds
    next_sample = time.monotonic() + 1
    announced = False

    def close(i):
        selector.unregister(slots[i][0])
        slots[i][0].close()
        slots[i] = None

    while time.monotonic() < stop_at:
        now = time.monotonic()
        budget = min(REOPENS_PER_SECOND, budget + (now - budget_time) * REOPENS_PER_SECOND)
        budget_time = now
        for i in range(held):
            if slots[i] is None and budget >= 1:
                budget -= 1
                sock = socket.socket()
                sock.setblocking(False)
                try:
                    sock.setsockopt(socket.SOL_IP, 24, 1)  # IP_BIND_ADDRESS_NO_PORT: ports by destination
                    sock.bind((sources[i % len(sources)], 0))
                    sock.connect_ex(("127.0.0.1", port))
                except OSError:
                    sock.close()
                    failed += 1
                    continue
                slots[i] = [sock, False, now + trickle]
                selector.register(sock, selectors.EVENT_WRITE, i)
                opened += 1
        if not announced and all(slots):
            ready.set()
            announced = True
        for key, events in selector.select(timeout=0.05):
            i = key.data
            sock, connected, _ = slots[i]
            if not connected:
                if sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):
                    close(i)
                    failed += 1
                    continue
                try:
                    sock.send(head)
                except OSError:
                    close(i)
                    dropped += 1
                    continue
                slots[i][1] = True
                selector.modify(sock, selectors.EVENT_READ, i)
                continue
            try:
                data = sock.recv(4096)
            except OSError:
                data = b""
            if not data:  # the server closed it: re-open
                close(i)
                dropped += 1
        now = time.monotonic()
        if trickle:
            for i, slot in enumerate(slots):
                if slot and slot[1] and now >= slot[2]:
                    slot[2] = now + trickle
                    try:
                        slot[0].send(b"a")
                    except OSError:
                        close(i)
                        dropped += 1
        if now >= next_sample:
            next_sample = now + 1
            samples.append(sum(1 for slot in slots if slot and slot[1]))
    ready.set()
    for i, slot in enumerate(slots):
        if slot:
            close(i)
    results.put({"opened": opened, "dropped": dropped, "failed": failed, "samples": samples})


# ----- one attack -----------------------------------------------------------------------------
def attack(name, sources, args):
    with tempfile.TemporaryDirectory() as tmp:
        options = ["--connection-limit", str(args.connection_limit)] if args.connection_limit else []
        server = Server(Path(tmp), args.workers, options)
        try:
            calm = [page(server.port, "/pin")[1] for _ in range(5)]
            ready, results = multiprocessing.Event(), multiprocessing.Queue()
            settle = 5.0
            maker = multiprocessing.Process(target=troublemaker, args=(
                server.port, sources, args.held, args.trickle, args.seconds + settle, ready, results))
            maker.start()
            ready.wait(settle)
            time.sleep(1.0)
            times = {"/pin": [], "/": []}
            statuses, failures = set(), 0
            measure_until = time.monotonic() + args.seconds
            while time.monotonic() < measure_until and maker.is_alive():
                for path in times:
                    try:
                        status, seconds = page(server.port, path)
                        statuses.add(status)
                        times[path].append(seconds)
                    except OSError as error:
                        failures += 1
                        times[path].append(PAGE_TIMEOUT)
                        statuses.add(type(error).__name__)
                time.sleep(0.2)
            outcome = results.get(timeout=args.seconds + 60)
            maker.join(10)
        finally:
            server.stop()
    samples = outcome["samples"] or [0]
    worst = max(max(t) for t in times.values() if t)
    passed = failures == 0 and worst < GOAL_SECONDS
    then = f"a byte trickled into each every {args.trickle:g} s" if args.trickle else "never another byte"
    print(f"\n{name}: {args.held} half-sent connections from {len(sources)} address(es), {then}")
    print(f"  open on the troublemaker's side {min(samples)}-{max(samples)} (median {statistics.median(samples):.0f}); "
          f"the server dropped {outcome['dropped']}, re-opened {outcome['opened'] - args.held}, "
          f"connect failures {outcome['failed']}")
    print(f"  calm server: /pin p50 {statistics.median(calm) * 1000:.0f} ms")
    for path, seconds in times.items():
        print(f"  new tablet GET {path:5s} n={len(seconds):3d}  p50 {statistics.median(seconds) * 1000:6.0f} ms  "
              f"max {max(seconds) * 1000:6.0f} ms")
    print(f"  statuses {sorted(map(str, statuses))}, failed requests {failures}: "
          f"{'PASS' if passed else 'FAIL'} (every page < {GOAL_SECONDS:g} s)")
    return passed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--held", type=int, default=1100, help="half-sent connections held (default 1100)")
    parser.add_argument("--seconds", type=float, default=25.0, help="measuring time per attack (default 25)")
    parser.add_argument("--trickle", type=float, default=3.0, help="seconds between trickled bytes (0: none)")
    parser.add_argument("--workers", type=int, default=1, help="facilitator serve --workers (default 1: waitress)")
    parser.add_argument("--connection-limit", type=int, help="facilitator serve --connection-limit (default: its own)")
    parser.add_argument("--attack", choices=["one", "spread", "both"], default="both")
    args = parser.parse_args()
    print(f"facilitator serve --workers {args.workers}: the tablet must get its page in < {GOAL_SECONDS:g} s "
          f"while {args.held} half-sent connections are held ({os.cpu_count()} CPU cores)")
    attacks = {"one": ("one address", ["127.0.0.2"]),
               "spread": ("40 addresses", [f"127.0.0.{n}" for n in range(2, 42)])}
    chosen = list(attacks) if args.attack == "both" else [args.attack]
    passed = [attack(*attacks[key], args) for key in chosen]
    return 0 if all(passed) else 1


if __name__ == "__main__":
    sys.exit(main())
