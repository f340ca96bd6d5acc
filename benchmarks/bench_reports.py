"""How long the protocols and the access sheet take to make, against their targets.

* **event workbook** (target < 2 s): ``event_workbook_xlsx`` for 50 finished tables of 4
  players (random legal games of ``facilitator.rules.lyceum.simulate`` on the sample pack, replayed
  beforehand, as the app holds them): the summary sheet plus 4 sheets per table, built,
  styled and saved to bytes through openpyxl's public write-only API;
* **table protocol PDF** (target < 1 s): ``table_protocol_pdf`` for one finished 4-player
  table, rendered by WeasyPrint (after one warm-up render: the first one also loads fonts and
  the stylesheet machinery, once per process);
* **20 protocol PDFs** (no target; what an organizer printing every table waits for): the
  protocols of 20 tables rendered one after another, total;
* **access sheet** (target < 3 s for 60 tables): ``access_sheet_pdf`` for 1, 20 and 60 tables
  (QR codes made inside);
* **a correction of 10^100 XP** (targets: the XP chart < 0.5 s, the whole protocol PDF < 3 s):
  one player's XP raised by 10^100 from round 4 on, as a host's corrections can add up to;
  before the chart's gridlines were bounded, 10^8 XP took 20 s and 10^100 never ended.

Each figure is the median over ``--repeat`` runs (the 20-PDF total and the access sheets: one
run each unless ``--repeat`` says more), as wall-clock time and as the process's CPU time: on
a shared, busy machine the wall clock also counts other processes' turns, the CPU time does
not. Russian texts (the default locale).

``--before``: the figures measured before the changes that brought each one under its
target, on the same 2-CPU machine (median wall / CPU seconds), printed next to today's:

* event workbook, 50 tables: 0.96 / 0.93 s, with a private openpyxl worksheet writer
  (``openpyxl.worksheet._writer`` subclassed, ``wb._cell_styles`` used); now public API
  only, about 1.6 s (still under 2 s);
* table protocol PDF: 1.31 / 1.31 s, 6 pages; now 3 pages in about 0.6 s;
* 20 protocol PDFs: 21.6 / 20.3 s; now about 12 s;
* access sheet (the organizer's HTML template with inline SVG codes in a flex box):
  1 table 0.12 / 0.12 s, 20 tables 4.4 / 4.3 s, 60 tables 26.1 / 25.5 s; now 0.07, 0.24 and
  0.8 s.

    python3 benchmarks/bench_reports.py [--tables 50] [--repeat 5] [--seed 1] [--before] [--check]

Exit status 1 when a median wall-clock time misses its target (with ``--check``).
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from facilitator.rules.lyceum.ruleset import sample_pack  # noqa: E402
from facilitator.i18n import use_locale  # noqa: E402
from facilitator.reports.access import access_sheet_pdf  # noqa: E402
from facilitator.games.lyceum.chart import xp_chart_svg  # noqa: E402
from facilitator.games.lyceum.pdf import table_protocol_pdf  # noqa: E402
from facilitator.games.lyceum.protocol import build_protocol  # noqa: E402
from facilitator.games.lyceum.workbook import event_workbook_xlsx  # noqa: E402
from facilitator.rules.lyceum.simulate import random_game  # noqa: E402

TARGETS = {"event workbook": 2.0, "table protocol PDF": 1.0, "access sheet, 60 tables": 3.0,
           "XP chart, 10^100 XP": 0.5, "protocol PDF, 10^100 XP": 3.0}
#: (wall, CPU) seconds before the changes (see the docstring)
BEFORE = {"event workbook": (0.96, 0.93), "table protocol PDF": (1.31, 1.31), "20 protocol PDFs": (21.6, 20.3),
          "access sheet, 1 table": (0.12, 0.12), "access sheet, 20 tables": (4.4, 4.3),
          "access sheet, 60 tables": (26.1, 25.5)}


def timed(fn, repeat):
    """Median wall and CPU seconds of ``fn()`` over ``repeat`` runs, and the last result."""
    walls, cpus, result = [], [], None
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        result = fn()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus), result


def access_cards(count):
    """Cards as the organizer's view makes them: a table name, a host, a 6-digit PIN, a link."""
    return [{"name": f"Стол {i + 1}", "host": f"Ведущий {i + 1}", "pin": f"{(i * 7919 + 12345) % 10 ** 6:06d}",
             "url": f"http://192.168.100.100:5000/t/{i:04d}-AbCdEfGhIjKlMnOpQrStUvWx"} for i in range(count)]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--before", action="store_true", help="also print the figures measured before the changes")
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args(argv)

    pack = sample_pack()
    games = [random_game(pack, seed=args.seed + i, players=4, table=f"Стол {i + 1}")[1] for i in range(args.tables)]
    moves = sum(len(g.history) for g in games)
    figures = {}

    def report(name, wall, cpu, what):
        figures[name] = (wall, cpu)
        target = f" (target < {TARGETS[name]} s)" if name in TARGETS else ""
        before = ""
        if args.before and name in BEFORE:
            before = f"; before: {BEFORE[name][0]:.2f} s wall, {BEFORE[name][1]:.2f} s CPU"
        print(f"{name}, {what}: median {wall:.2f} s wall, {cpu:.2f} s CPU{target}{before}")

    with use_locale("ru"):
        wall, cpu, data = timed(lambda: event_workbook_xlsx(games, event="Бенчмарк"), args.repeat)
        report("event workbook", wall, cpu, f"{args.tables} tables ({moves} moves, {1 + 4 * args.tables} sheets, "
                                            f"{len(data) / 1024:.0f} KiB)")

        table_protocol_pdf(games[0])  # warm-up: fonts, stylesheets
        wall, cpu, data = timed(lambda: table_protocol_pdf(games[0]), args.repeat)
        report("table protocol PDF", wall, cpu, f"1 table ({len(games[0].history)} moves, {len(data) / 1024:.0f} KiB)")

        twenty = games[:20]
        wall, cpu, _data = timed(lambda: [table_protocol_pdf(g) for g in twenty], max(1, args.repeat // 5))
        report("20 protocol PDFs", wall, cpu, f"{len(twenty)} tables one after another, total")

        for count in (1, 20, 60):
            cards = access_cards(count)
            name = f"access sheet, {count} table{'s' if count > 1 else ''}"
            wall, cpu, data = timed(lambda: access_sheet_pdf("Бенчмарк", "2025-05-17", cards,
                                                             "http://192.168.100.100:5000/pin"),
                                    max(1, args.repeat // 5))
            report(name, wall, cpu, f"{len(data) / 1024:.0f} KiB")

        protocol = build_protocol(games[0])
        for cell in protocol.grid[0].cells[3:]:
            cell.xp += 10 ** 100
        wall, cpu, _svg = timed(lambda: xp_chart_svg(protocol), args.repeat)
        report("XP chart, 10^100 XP", wall, cpu, "one player corrected by 10^100 from round 4")
        wall, cpu, data = timed(lambda: table_protocol_pdf(protocol), max(1, args.repeat // 5))
        report("protocol PDF, 10^100 XP", wall, cpu, f"{len(data) / 1024:.0f} KiB")

    missed = [name for name, (wall, _cpu) in figures.items() if name in TARGETS and wall >= TARGETS[name]]
    if missed:
        print("missed: " + ", ".join(missed))
    return 1 if missed and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
