"""How fast the guarded JSON reader (``facilitator.safejson.loads``: depth, number length and
size checked before parsing) reads a 1 MB game record, next to the standard library's
``json.loads`` on the same text. Target: under 100 ms for the 1 MB record.

    python benchmarks/bench_safejson.py
"""

import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from facilitator.content import sample_pack_data  # noqa: E402
from facilitator.safejson import loads  # noqa: E402

TARGET_MS = 100


def record_text(moves):
    record = {"format": "lyceum-record/1", "table": "Стол 3", "content": sample_pack_data(),
              "players": [{"name": "Аня", "born": "2009-03-14", "character": "C01", "extra": {"energy": 5}}],
              "moves": [{"type": "adjust", "player": "Аня", "xp": 100, "sp": {"energy": -1},
                         "reason": "спец \"кавычки\" \\ [скобки] {фигурные} 12345678901234567890123456789012345",
                         "note": None} for _ in range(moves)]}
    return json.dumps(record, ensure_ascii=False, indent=2)


def timed(fn, text, runs=9):
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn(text)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), min(times)


def main():
    text = record_text(4000)
    size = len(text.encode()) / 1e6
    guarded, guarded_best = timed(loads, text)
    plain, plain_best = timed(json.loads, text)
    print(f"record of {size:.2f} MB")
    print(f"safejson.loads : median {guarded:6.1f} ms, best {guarded_best:6.1f} ms  (target < {TARGET_MS} ms)")
    print(f"json.loads     : median {plain:6.1f} ms, best {plain_best:6.1f} ms")
    print(f"guarded / plain: {guarded / plain:.1f}×   {'OK' if guarded < TARGET_MS else 'MISSED'}")


if __name__ == "__main__":
    main()
