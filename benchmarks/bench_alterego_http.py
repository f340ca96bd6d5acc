"""Time a host waits on Alter Ego's screens: a move form's POST plus the turn screen it redirects
to, and a card's page (its legal targets from ``Game.options``), at a table late in a game.

    python3 benchmarks/bench_alterego_http.py [--moves 150] [--db sqlite|URL]

In process (Flask's test client, no network), on a fresh SQLite file by default: a 3-player
table is seated through the setup screen, then a host taps through the screens (the tests'
``tests/alterego_web/driver.py``) until ``--moves`` moves are recorded or the game ends; every
request is timed. Reports the median and 95th percentile per kind of request beside the
target (50 ms median for a move and its screen).
"""

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

TARGET_MS = 50


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=150)
    parser.add_argument("--db", default=None, help="a database URL (default: a temporary SQLite file)")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-ae-"))
    os.environ["FACILITATOR_INSTANCE"] = str(folder / "instance")
    from facilitator.web import create_app
    app = create_app({"TESTING": True, "DATABASE_URL": args.db or f"sqlite:///{folder / 'bench.db'}",
                      "INSTANCE_PATH": str(folder / "instance"), "EXPORTS_DIR": str(folder / "exports")})
    from conftest import organizer_browser
    from alterego_web import driver
    from alterego_web.helpers import THREE, seated

    client = organizer_browser(app, lang="fi")
    table = seated(app, client, THREE, first="Aino")
    times = {"move + screen": [], "card page": [], "turn screen": []}
    real_tap, real_open, real_post = driver.Host.tap, driver.Host.open, driver.Host.post

    def timed(kind, fn):
        def wrapper(self, *a, **k):
            start = time.perf_counter()
            try:
                return fn(self, *a, **k)
            finally:
                times[kind].append((time.perf_counter() - start) * 1000)
        return wrapper

    def tap_and_screen(self, form, **overrides):
        page = real_tap(self, form, **overrides)
        client.get(self.turn_url)
        return page
    driver.Host.tap = timed("move + screen", tap_and_screen)
    driver.Host.post = timed("move + screen", lambda self, form, data: (real_post(self, form, data),
                                                                         client.get(self.turn_url))[0])
    driver.Host.open = timed("card page", real_open)
    host = driver.Host(client, table, seed=args.seed, season_every=12)
    moves = 0
    while moves < args.moves:
        start = time.perf_counter()
        response = client.get(host.turn_url)
        times["turn screen"].append((time.perf_counter() - start) * 1000)
        if response.status_code == 302:
            break
        if not host.step():
            break
        moves += 1
    print(f"{moves} moves at one table (Alter Ego, 3 players), {app.config['DATABASE_URL'].split(':')[0]}")
    for kind, values in times.items():
        if not values:
            continue
        values.sort()
        p95 = values[min(len(values) - 1, int(len(values) * 0.95))]
        print(f"  {kind:14s} n={len(values):4d}  median {statistics.median(values):6.1f} ms  p95 {p95:6.1f} ms"
              + (f"  (target: median under {TARGET_MS} ms)" if kind == "move + screen" else ""))


if __name__ == "__main__":
    main()
