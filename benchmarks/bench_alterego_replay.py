"""How fast an Alter Ego record replays: the cost of a screen refresh, an export and
``facilitator replay`` for a table of «Alter Ego» (ruleset ``alter-ego-3``).

From records already parsed from JSON text into dicts, this script times:

* full simulated 3-player games through all four seasons (ended by the 4th season card):
  ``replay`` alone (the target: under 5 ms for a full game), and ``read_record`` +
  ``replay`` + ``standings``;
* the RECORD.md 4 example (19 moves);
* ``Game.apply`` of one move on a cached game (``copy`` + ``apply``), as the app does.

Each game is replayed ``--repeat`` times. Its cost is the best of those runs (as ``timeit``
advises: slower runs are other processes' turns, not the engine's); the figures are the
median and the 95th percentile of that over the games, as wall-clock time and as the
process's CPU time. The verdict is on the wall clock's 95th percentile. For the full games
the same figures over every single run are printed too, so a loaded machine shows (the load
average is printed).

    python benchmarks/bench_alterego_replay.py [--games 100] [--repeat 5]
"""

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

from facilitator.rules.alterego import read_record, replay, standings, write_record
from facilitator.rules.alterego.simulate import play_random

TARGET_MS = 5.0
EXAMPLE = Path(__file__).resolve().parent.parent / "tests" / "alterego" / "data" / "example-record.json"


def full_games(count, players=3, first_seed=0):
    """``count`` simulated games that reach the 4th season card, as record dicts."""
    out = []
    seed = first_seed
    while len(out) < count:
        record, game = play_random(random.Random(seed), players=players, max_moves=2000, table=f"Pöytä {seed}")
        seed += 1
        if game.ended_by == "season" and game.season == 4:
            out.append(json.loads(json.dumps(write_record(record), ensure_ascii=False)))
    return out


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def timed(fn, *args):
    c0, t0 = time.process_time(), time.perf_counter()
    fn(*args)
    return time.perf_counter() - t0, time.process_time() - c0


def read_replay_standings(data):
    standings([replay(read_record(data))])


def per_item(items, fn, repeat, every_run=False):
    """``(walls, cpus)``: for each item the best wall and CPU seconds of ``repeat`` runs (or,
    ``every_run``, all of them)."""
    walls, cpus = [], []
    for item in items:
        runs = [timed(fn, item) for _ in range(repeat)]
        if every_run:
            walls.extend(w for w, _ in runs)
            cpus.extend(c for _, c in runs)
        else:
            walls.append(min(w for w, _ in runs))
            cpus.append(min(c for _, c in runs))
    return walls, cpus


def report(label, walls, cpus, target=None):
    med, p95 = statistics.median(walls) * 1000, percentile(walls, 95) * 1000
    cmed, cp95 = statistics.median(cpus) * 1000, percentile(cpus, 95) * 1000
    line = f"{label:<42} median {med:6.3f} ms  p95 {p95:6.3f} ms   (CPU median {cmed:6.3f}, p95 {cp95:6.3f})"
    if target is not None:
        line += f"   target < {target:.0f} ms: {'OK' if p95 < target else 'OVER'}"
    print(line)
    return p95


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="distinct full games (default 100)")
    parser.add_argument("--repeat", type=int, default=7, help="times each game is replayed (default 7)")
    args = parser.parse_args(argv)

    games = full_games(args.games)
    records = [read_record(d) for d in games]
    moves = [len(d["moves"]) for d in games]
    print(f"{len(games)} simulated 3-player games through the 4th season card: {statistics.mean(moves):.0f} moves "
          f"on average ({min(moves)}–{max(moves)}), {sum(m['type'] == 'react' for d in games for m in d['moves'])} "
          f"reactions in all; each replayed {args.repeat} times; load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} CPUs")
    p95 = report("replay (full game)", *per_item(records, replay, args.repeat), TARGET_MS)
    report("  the same, every run", *per_item(records, replay, args.repeat, every_run=True))
    report("read_record + replay + standings", *per_item(games, read_replay_standings, args.repeat), TARGET_MS)
    report("  the same, every run", *per_item(games, read_replay_standings, args.repeat, every_run=True))

    example = json.loads(EXAMPLE.read_text("utf-8"))
    example_record = read_record(example)
    report("replay (RECORD.md 4 example, 19 moves)", *per_item([example_record] * 50, replay, args.repeat), TARGET_MS)
    report("read + replay + standings (example)", *per_item([example] * 50, read_replay_standings, args.repeat))

    cached = []
    for record in records[:30]:
        game = replay(type(record)(table=record.table, pack=record.pack, setup=record.setup, moves=record.moves[:-1]))
        cached.append((game, record.moves[-1]))
    report("copy + apply one move to a cached game", *per_item(cached, lambda gm: gm[0].copy().apply(gm[1]),
                                                               args.repeat))
    return 0 if p95 < TARGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
