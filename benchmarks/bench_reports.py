"""How long the protocols take to make (issue 4): the event workbook of a 50-table event and one
table's protocol PDF, against the targets (under 2 s and under 1.5 s).

* **event workbook**: ``event_workbook_xlsx`` for 50 finished tables of 4 players (random
  legal games of ``facilitator.rules.simulate`` on the sample pack, replayed beforehand, as
  the app holds them): the summary sheet plus 4 sheets per table, built, styled and saved
  to bytes;
* **table protocol PDF**: ``table_protocol_pdf`` for one finished 4-player table, rendered by
  WeasyPrint (after one warm-up render: the first one also loads fonts and the stylesheet
  machinery, once per process).

Each figure is the median over ``--repeat`` runs, as wall-clock time and as the process's
CPU time: on a shared, busy machine the wall clock also counts other processes' turns, the
CPU time does not. Russian texts (the default locale).

    python3 benchmarks/bench_reports.py [--tables 50] [--repeat 5] [--seed 1]

Exit status 1 when a median wall-clock time misses its target (with ``--check``).
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from facilitator.content import sample_pack  # noqa: E402
from facilitator.i18n import use_locale  # noqa: E402
from facilitator.reports.pdf import table_protocol_pdf  # noqa: E402
from facilitator.reports.workbook import event_workbook_xlsx  # noqa: E402
from facilitator.rules.simulate import random_game  # noqa: E402

TARGETS = {"event workbook": 2.0, "table protocol PDF": 1.5}


def timed(fn, repeat):
    """Median wall and CPU seconds of ``fn()`` over ``repeat`` runs, and the last result."""
    walls, cpus, result = [], [], None
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        result = fn()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus), result


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args(argv)

    pack = sample_pack()
    games = [random_game(pack, seed=args.seed + i, players=4, table=f"Стол {i + 1}")[1] for i in range(args.tables)]
    moves = sum(len(g.history) for g in games)
    figures = {}
    with use_locale("ru"):
        wall, cpu, data = timed(lambda: event_workbook_xlsx(games, event="Бенчмарк"), args.repeat)
        figures["event workbook"] = (wall, cpu)
        print(f"event workbook, {args.tables} tables ({moves} moves, {1 + 4 * args.tables} sheets, "
              f"{len(data) / 1024:.0f} KiB): median {wall:.2f} s wall, {cpu:.2f} s CPU "
              f"(target < {TARGETS['event workbook']} s)")

        table_protocol_pdf(games[0])  # warm-up: fonts, stylesheets
        wall, cpu, data = timed(lambda: table_protocol_pdf(games[0]), args.repeat)
        figures["table protocol PDF"] = (wall, cpu)
        print(f"table protocol PDF, 1 table ({len(games[0].history)} moves, {len(data) / 1024:.0f} KiB): "
              f"median {wall:.2f} s wall, {cpu:.2f} s CPU (target < {TARGETS['table protocol PDF']} s)")

    missed = [name for name, (wall, _cpu) in figures.items() if wall >= TARGETS[name]]
    if missed:
        print("missed: " + ", ".join(missed))
    return 1 if missed and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
