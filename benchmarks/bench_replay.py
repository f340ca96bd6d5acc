"""How fast a game record replays: the cost of every page view, export and ``facilitator replay``.

The app keeps no game state: a table's state is the replay of its moves (ARCHITECTURE.md,
decision 2), so replaying one full game is what a host's tap, a screen refresh and a line
of the big-screen standings cost. This script times, from a record already parsed from JSON
text into a dict:

* one full 10-round 4-player game: ``read_record`` + ``replay`` + ``standings`` (median and
  95th percentile over every game and repetition), with the share of each step;
* a 100-table event: the same for 100 records, then the standings of all of them at once.

Each figure is given as wall-clock time and as the process's CPU time: on a shared, busy
machine the wall clock also counts other processes' turns, the CPU time does not.

The games are random legal games on the sample pack (``facilitator.rules.lyceum.simulate``).

The median of one finished game is also printed against issue 19's target (0.6 ms: its pack
is read once per content, so the figure is the moves' own cost).

    python3 benchmarks/bench_replay.py [--games 200] [--repeat 5] [--tables 100]
"""

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's facilitator

from facilitator.rules.lyceum.ruleset import sample_pack  # noqa: E402
from facilitator.rules.lyceum import read_record, standings, write_record  # noqa: E402
from facilitator.rules.lyceum import replay  # noqa: E402
from facilitator.rules.lyceum.simulate import random_game  # noqa: E402

TARGET_MS = 5.0
#: issue 19: a finished game replays (read + replay + standings) in at most this, median, its
#: inline pack validated once per content (``rules/packcache.py``)
REPLAY_TARGET_MS = 0.6


def record_dicts(count, players=4, first_seed=0):
    """``count`` finished random games as record dicts, as ``json.load`` would give them."""
    out = []
    for i in range(count):
        record, _ = random_game(sample_pack(), seed=first_seed + i, players=players, table=f"Стол {i + 1}")
        out.append(json.loads(json.dumps(write_record(record), ensure_ascii=False)))
    return out


def ms(seconds):
    return seconds * 1000


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def time_one_game(data):
    """Seconds for read, replay and standings of one record dict, and the CPU seconds of all three."""
    c0, t0 = time.process_time(), time.perf_counter()
    record = read_record(data)
    t1 = time.perf_counter()
    game = replay(record)
    t2 = time.perf_counter()
    standings([game])
    t3, c3 = time.perf_counter(), time.process_time()
    return t1 - t0, t2 - t1, t3 - t2, c3 - c0


def time_event(records):
    """(wall, CPU) seconds for the standings of an event, from its record dicts."""
    c0, t0 = time.process_time(), time.perf_counter()
    standings([replay(read_record(data)) for data in records])
    return time.perf_counter() - t0, time.process_time() - c0


def verdict(milliseconds):
    return "OK" if milliseconds < TARGET_MS else "OVER"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="distinct games to time (default 200)")
    parser.add_argument("--repeat", type=int, default=5, help="times each game is replayed (default 5)")
    parser.add_argument("--tables", type=int, default=100, help="tables in the event (default 100)")
    parser.add_argument("--event-repeat", type=int, default=10,
                        help="times the event is replayed (default 10)")
    args = parser.parse_args(argv)

    games = record_dicts(args.games)
    main_moves = [sum(1 for m in g["moves"] if m["type"] in ("draw", "rest", "share", "pass")) for g in games]
    moves = [len(g["moves"]) for g in games]
    for data in games[:20]:  # warm up caches and the interpreter
        time_one_game(data)

    read_t, replay_t, standing_t, total_t, cpu_t = [], [], [], [], []
    for _ in range(args.repeat):
        for data in games:
            r, p, s, cpu = time_one_game(data)
            read_t.append(r)
            replay_t.append(p)
            standing_t.append(s)
            total_t.append(r + p + s)
            cpu_t.append(cpu)

    event = record_dicts(args.tables, first_seed=10_000)
    time_event(event[:10])
    event_wall, event_cpu = zip(*(time_event(event) for _ in range(args.event_repeat)))

    wall, wall95 = ms(statistics.median(total_t)), ms(percentile(total_t, 95))
    cpu, cpu95 = ms(statistics.median(cpu_t)), ms(percentile(cpu_t, 95))
    target = f"target < {TARGET_MS:g} ms per game"
    print(f"Replay benchmark: sample pack, {args.games} random finished games of 10 rounds and 4 players, "
          f"each replayed {args.repeat} times from a JSON dict")
    print(f"  moves per game:  mean {statistics.mean(moves):.1f} (min {min(moves)}, max {max(moves)}), "
          f"of which {statistics.mean(main_moves):.0f} main moves")
    print("  one full game (read_record + replay + standings):")
    print(f"    wall clock     median {wall:.2f} ms, p95 {wall95:.2f} ms   "
          f"[{target}: median {verdict(wall)}, p95 {verdict(wall95)}]")
    print(f"    CPU time       median {cpu:.2f} ms, p95 {cpu95:.2f} ms   "
          f"[{target}: median {verdict(cpu)}, p95 {verdict(cpu95)}]")
    print(f"    of which       read_record {ms(statistics.median(read_t)):.2f} ms "
          "(the moves; its inline pack is read once per content), "
          f"replay {ms(statistics.median(replay_t)):.2f} ms, "
          f"standings {ms(statistics.median(standing_t)):.2f} ms (medians, wall clock)")
    print(f"  issue 19, a finished game replayed: median {cpu:.2f} ms CPU (wall {wall:.2f} ms) | "
          f"target <= {REPLAY_TARGET_MS:g} ms -> {'meets' if cpu <= REPLAY_TARGET_MS else 'MISSES'} "
          f"({cpu / REPLAY_TARGET_MS:.2f}× the target)")
    n = args.tables
    for label, runs in (("wall clock", event_wall), ("CPU time", event_cpu)):
        median = ms(statistics.median(runs))
        print(f"  {n}-table event, {label}: median {median:.0f} ms, max {ms(max(runs)):.0f} ms over "
              f"{args.event_repeat} runs = {median / n:.2f} ms per table   "
              f"[target < {TARGET_MS * n:g} ms: {verdict(median / n)}]")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
