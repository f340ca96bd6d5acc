"""Many games finishing at once (issue 17.6): 20 tables of each game («16/25», Alter Ego, New
Angeles) record their last move at the same instant and each host downloads the protocol PDF,
while 20 other «16/25» tables go on playing moves over HTTP. The server is the default one an
organizer starts (``facilitator serve``: waitress on SQLite). Loopback only; bounded in time.

    python benchmarks/bench_finishing.py [--finishing 20] [--playing 20] [--think 1.0]

Each finishing table is a simulated full game of its game (Alter Ego to the 4th season card, New
Angeles over all nine rounds, «16/25» over ten rounds) imported without its last move. At the
start signal every finishing host posts that move (``POST /api/v1/tables/<id>/moves``, which
starts the protocol in the worker process) and asks for ``/table/<id>/protocol.pdf`` as its
browser does: the progress page (202, ``Refresh: 1``) is asked again a second later, until the
PDF comes. Meanwhile the playing hosts post a legal move every ``--think`` seconds.

Prints the playing tables' move latency p50/p95/max before the finish and while the protocols
are being made (target: p95 < 100 ms), how long each game's hosts waited for their PDF, the
answers' statuses, and exits 1 when the target is missed or any answer was an error.
"""

import argparse
import http.client
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.crowded_room import served  # noqa: E402
from benchmarks.load_event import Host, prepare  # noqa: E402

TARGET_P95_MS = 100
DEADLINE_SECONDS = 600
GAMES = ("lyceum-16-25", "alter-ego-3", "new-angeles")


def simulated(game, seed):
    """A full random game of ``game`` as a record dict (its own simulator, realistic length)."""
    if game == "lyceum-16-25":
        from facilitator.rules.lyceum.ruleset import sample_pack
        from facilitator.rules.lyceum.simulate import random_game
        return random_game(sample_pack(), seed=seed, players=4, table=f"Стол {seed}")[0].to_dict()
    if game == "alter-ego-3":
        from facilitator.rules.alterego.simulate import play_random
        return play_random(random.Random(seed), players=3, table=f"Pöytä {seed}")[0].to_dict()
    from facilitator.rules.newangeles.simulate import random_game
    return random_game(random.Random(seed), players=5, end="rounds", table=f"Table {seed}").to_dict()


def prepare_finishing(url, per_game, seed):
    """``per_game`` tables of each game, each one move from its end; [(game, id, token, last move)]."""
    from facilitator import services
    from facilitator.services.db import engine_for, session_scope, startup
    engine = engine_for(url)
    startup(engine)
    out = []
    with session_scope(engine) as s:
        for game in GAMES:
            event = services.events.create_event(s, f"Finale {game}", "2026-11-29",
                                                 services.packs.ensure_sample(s, game))
            for i in range(per_game):
                data = simulated(game, seed + i)
                last = data["moves"].pop()
                table = services.import_record(s, data, data["table"], event_id=event.id)
                services.access.ensure_access(s, table)
                out.append((game, table.id, table.token, last))
    return out


class Finisher(threading.Thread):
    """A host whose game ends: the last move over the API, then the protocol PDF as a browser
    asks for it (following the progress page's one-second refresh)."""

    def __init__(self, port, game, table_id, token, last, start):
        super().__init__(daemon=True)
        self.port, self.game, self.table_id, self.token, self.last, self.start_at = \
            port, game, table_id, token, last, start
        self.statuses = Counter()
        self.finish_ms = self.pdf_seconds = None
        self.error = None
        self.ready = threading.Event()  # signed in and read the table: waiting for the start
        self.refreshes = []  # the progress page's Refresh seconds, each time it came

    def run(self):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=300)
        try:
            conn.request("GET", f"/t/{self.token}")
            response = conn.getresponse()
            response.read()
            cookie = (response.getheader("Set-Cookie") or "").split(";", 1)[0]
            conn.request("GET", f"/api/v1/tables/{self.table_id}",
                         headers={"Authorization": f"Bearer {self.token}"})
            response = conn.getresponse()
            seq = json.loads(response.read())["seq"]
            self.ready.set()
            self.start_at.wait()
            began = time.perf_counter()
            conn.request("POST", f"/api/v1/tables/{self.table_id}/moves",
                         body=json.dumps({"after": seq, "move": self.last, "client_id": "last"}),
                         headers={"Content-Type": "application/json", "Authorization": f"Bearer {self.token}"})
            response = conn.getresponse()
            body = response.read()
            self.finish_ms = (time.perf_counter() - began) * 1000
            self.statuses[response.status] += 1
            if response.status != 201:
                self.error = f"finish: {response.status} {body[:200]!r}"
                return
            while time.perf_counter() - began < DEADLINE_SECONDS:
                conn.request("GET", f"/table/{self.table_id}/protocol.pdf", headers={"Cookie": cookie})
                response = conn.getresponse()
                body = response.read()
                self.statuses[response.status] += 1
                if response.status == 202:  # the progress page: asked again when it says
                    self.refreshes.append(float(response.getheader("Refresh") or 1))
                    time.sleep(self.refreshes[-1])
                    continue
                if response.status == 200 and body.startswith(b"%PDF"):
                    self.pdf_seconds = time.perf_counter() - began
                else:
                    self.error = f"protocol: {response.status} {body[:200]!r}"
                return
            self.error = "no protocol within the deadline"
        except Exception as err:  # noqa: BLE001 - reported, never hidden
            self.error = repr(err)
        finally:
            self.ready.set()
            conn.close()


class Stamped(list):
    """A playing host's list of move latencies that also notes when each move was sent."""

    def __init__(self):
        super().__init__()
        self.sent_at = []

    def append(self, latency):
        self.sent_at.append(time.perf_counter() - latency)
        super().append(latency)


def cpu_seconds(pid):
    """CPU time (user + system) a process has used so far, from /proc (None elsewhere)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def children(pid):
    """The live processes whose parent is ``pid`` (the PDF worker and its helper), from /proc."""
    out = []
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else ():
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        out.append(int(entry))
            except (OSError, ValueError, IndexError):
                continue
    return out


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * (len(ordered) - 1)))] if ordered else float("nan")


def line(label, ms):
    if not ms:
        return f"  {label}: no moves"
    return (f"  {label}: {len(ms)} moves, p50 {statistics.median(ms):.1f} ms, p95 {percentile(ms, 95):.1f} ms, "
            f"max {max(ms):.1f} ms")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--finishing", type=int, default=20, help="tables of each game finishing at once")
    ap.add_argument("--playing", type=int, default=20, help="«16/25» tables playing meanwhile")
    ap.add_argument("--think", type=float, default=1.0, help="seconds a playing host waits between moves")
    ap.add_argument("--warmup", type=float, default=5.0, help="seconds of play before the games finish")
    ap.add_argument("--threads", type=int, default=8, help="waitress threads (the default of facilitator serve)")
    ap.add_argument("--seed", type=int, default=17)
    args = ap.parse_args()

    tmp = tempfile.TemporaryDirectory(prefix="bench-finishing-")
    url = f"sqlite:///{tmp.name}/finishing.db"
    print(f"preparing {args.finishing} finishing tables of each game and {args.playing} playing tables ...",
          flush=True)
    finishing = prepare_finishing(url, args.finishing, args.seed)
    _event, playing = prepare(url, args.playing, args.seed)
    from facilitator.storage.db import dispose_all
    dispose_all()

    try:
        with served(url, tmp.name, threads=args.threads) as (port, server):
            log = server.log
            stop, start = threading.Event(), threading.Event()
            hosts = [Host(port, tid, token, players, args.seed + i, args.think, stop)
                     for i, (tid, token, players) in enumerate(playing)]
            for h in hosts:
                h.latencies = Stamped()
            finishers = [Finisher(port, game, tid, token, last, start) for game, tid, token, last in finishing]
            for f in finishers:
                f.start()
            for f in finishers:
                f.ready.wait(120)
            for h in hosts:
                h.start()
                time.sleep(args.think / max(1, len(hosts)))  # hosts do not all tap at the same instant
            time.sleep(args.warmup)
            server_cpu = cpu_seconds(server.pid)
            finish_at = time.perf_counter()
            start.set()
            worker_cpu = {}
            while any(f.is_alive() for f in finishers) and time.perf_counter() - finish_at < DEADLINE_SECONDS:
                for pid in children(server.pid):  # the worker's CPU, read while it lives
                    worker_cpu[pid] = cpu_seconds(pid) or worker_cpu.get(pid, 0)
                time.sleep(0.5)
            done_at = time.perf_counter()
            server_cpu = (cpu_seconds(server.pid) or 0) - (server_cpu or 0)
            stop.set()
            for h in hosts:
                h.join(30)

            def window(low, high):
                return [lat * 1000 for h in hosts for at, lat in zip(h.latencies.sent_at, h.latencies) if low <= at < high]
            before, during = window(0, finish_at), window(finish_at, done_at)
            # the burst: until every finishing table's last move was answered; then the PDFs being made
            answered = finish_at + max((f.finish_ms or 0) for f in finishers) / 1000
            burst, making = window(finish_at, answered), window(answered, done_at)
            statuses = Counter()
            for f in finishers:
                statuses.update(f.statuses)
            errors = [(f.game, f.table_id, f.error) for f in finishers if f.error] + \
                [("playing", h.table_id, e) for h in hosts for e in h.errors]
            print(f"server: facilitator serve (waitress, {args.threads} threads), SQLite; "
                  f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
            print(f"{len(finishers)} tables finished at once ({args.finishing} of each game), each downloading its "
                  f"protocol PDF; {len(hosts)} «16/25» tables playing a move every {args.think:g} s")
            print("playing tables' moves:")
            print(line("before the finish", before))
            print(line(f"while {len(finishers)} protocols were made ({done_at - finish_at:.1f} s)", during))
            print(line(f"  of which: the {len(finishers)} last moves posted at once ({answered - finish_at:.1f} s)", burst))
            print(line("  of which: then, the PDFs being made and downloaded", making))
            for game in GAMES:
                mine = [f for f in finishers if f.game == game]
                waits = [f.pdf_seconds for f in mine if f.pdf_seconds is not None]
                finishes = [f.finish_ms for f in mine if f.finish_ms is not None]
                if waits:
                    print(f"  {game}: last move p50 {statistics.median(finishes):.0f} ms; PDF in hand after "
                          f"p50 {statistics.median(waits):.1f} s, max {max(waits):.1f} s ({len(waits)}/{len(mine)})")
            span = done_at - finish_at
            print(f"CPU while the protocols were made: server process {server_cpu:.1f} s "
                  f"({100 * server_cpu / span:.0f}% of one core), PDF worker {sum(worker_cpu.values()):.1f} s "
                  f"({100 * sum(worker_cpu.values()) / span:.0f}%)")
            refreshes = [r for f in finishers for r in f.refreshes]
            print(f"finishing hosts' answers: {dict(sorted(statuses.items()))}; the progress page came "
                  f"{len(refreshes)} times, {len(refreshes) / max(0.001, done_at - finish_at):.1f}/s, asking again "
                  f"after {statistics.mean(refreshes) if refreshes else 0:.1f} s on average")
            for where, table_id, error in errors[:10]:
                print(f"  error at {where} table {table_id}: {error}")
            p95 = percentile(during, 95)
            ok = not errors and during and p95 < TARGET_P95_MS and not any(s >= 500 for s in statuses)
            print(f"target: p95 of the playing tables' moves while the protocols are made < {TARGET_P95_MS} ms: "
                  f"{p95:.1f} ms")
            print("RESULT:", "PASS" if ok else "FAIL")
            if errors:
                log.seek(0)
                print("server log (end):\n" + log.read()[-3000:])
            return 0 if ok else 1
    finally:
        tmp.cleanup()


if __name__ == "__main__":
    sys.exit(main())
