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

from facilitator.safejson import loads  # noqa: E402
from tests.test_safejson import record_text  # noqa: E402  (the record the unit test reads)

TARGET_MS = 100


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
