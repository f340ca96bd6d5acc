"""What it costs that an acknowledged move survives a power cut (issue 17): a tablet's move over
HTTP on the default server (``facilitator serve``, SQLite) with ``synchronous=NORMAL`` (a move
survives a crash of the app, not of the laptop) and ``synchronous=FULL`` (the app's setting:
each commit waits until the write-ahead log is on the disk). Loopback only; bounded.

    python benchmarks/bench_durability.py [--tables 3] [--rounds 2]

One scripted host at a time plays whole 4-player games through ``POST /api/v1/tables/<id>/moves``
(no think time, so the figure is the move itself); the two settings take turns, ``--rounds``
times each, on fresh databases, and the medians of all their moves are printed side by side.
"""

import argparse
import statistics
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.crowded_room import pct, served  # noqa: E402
from benchmarks.load_event import Host, prepare  # noqa: E402


def play(setting, tables, seed):
    """Every move's latency of ``tables`` games played one after another under ``setting``."""
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/durability.db"
        _event, seated = prepare(url, tables, seed)
        from facilitator.storage.db import dispose_all
        dispose_all()
        latencies = []
        with served(url, folder, synchronous=setting) as (port, _server):
            for i, (table_id, token, players) in enumerate(seated):
                host = Host(port, table_id, token, players, seed + i, 0, threading.Event())
                host.run()
                if host.errors:
                    raise SystemExit(f"{setting}: {host.errors[:3]}")
                latencies.extend(host.latencies)
        return latencies


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=3, help="games played per run")
    ap.add_argument("--rounds", type=int, default=2, help="runs of each setting, taking turns")
    ap.add_argument("--seed", type=int, default=17)
    args = ap.parse_args(argv)
    results = {"NORMAL": [], "FULL": []}
    for r in range(args.rounds):
        for setting in results:
            results[setting].extend(play(setting, args.tables, args.seed + r))
    print("a tablet's move over HTTP (POST /api/v1/tables/<id>/moves, waitress, SQLite), one host at a time")
    for setting, values in results.items():
        values.sort()
        print(f"  synchronous={setting:6} {len(values):4} moves: p50 {statistics.median(values) * 1000:.2f} ms, "
              f"p95 {pct(values, 0.95) * 1000:.2f} ms")
    cost = statistics.median(results["FULL"]) - statistics.median(results["NORMAL"])
    print(f"cost of surviving a power cut: {cost * 1000:+.2f} ms a move at the median "
          f"({statistics.median(results['FULL']) / statistics.median(results['NORMAL']):.2f}×)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
