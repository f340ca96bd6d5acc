"""The ``facilitator`` command: ``replay`` (and the commands other modules add).

Each subcommand lives in a small function; ``main`` returns the exit status: 0 on success,
2 when an input file is refused (one line on stderr, nothing on stdout).
"""

import argparse
import json
import sys

from .recordfile import RecordFileError, replay_file
from .rules import ERA_BY_KEY, SKILLS, standings

SKILL_SHORT_RU = {"health": "Здр", "intellect": "Инт", "creativity": "Тв", "communication": "Ком",
                  "energy": "Эн"}


def _table(headers, rows, right=()):
    """A plain-text table with columns padded to their widest cell."""
    cells = [headers] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]

    def line(r):
        return "  ".join(c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip()
    return "\n".join([line(cells[0]), "  ".join("-" * w for w in widths)] + [line(r) for r in cells[1:]])


def format_standings(result):
    """The standings as readable Russian text: each table, then the team and individual rankings."""
    out = []
    for t in result["tables"]:
        era = ERA_BY_KEY[t["era"]].name
        state = "игра окончена" if t["finished"] else "идёт игра, результаты предварительные"
        out.append(f"{t['table']}: раунд {t['round']}, эпоха «{era}», {state}")
        headers = ["Место", "Игрок", "Персонаж", "Опыт", "Ур."] + [SKILL_SHORT_RU[s] for s in SKILLS] + [
            "Образ", "Бонус", "Итого"]
        rows = []
        for p in sorted(t["players"], key=lambda p: p["place"]):
            image = "—" if p["declared"] is None else f"{p['declared']} {'да' if p['declaration_met'] else 'нет'}"
            rows.append([p["place"], p["name"], p["character"], p["xp"], p["level"]]
                        + [p["skills"][s] for s in SKILLS] + [image, p["bonus"], p["final_xp"]])
        out.append(_table(headers, rows, right={0, 3, 4, 5, 6, 7, 8, 9, 11, 12}))
        out.append(f"Сумма опыта стола: {t['total_xp']}, в среднем на игрока: {t['average_xp']:.1f}")
        out.append("")
    if len(result["tables"]) > 1:
        rule = result["teams"][0]["ranked_by"]
        rule_text = ("по сумме опыта (за всеми столами поровну игроков)" if rule == "total"
                     else "по среднему опыту на игрока (за столами разное число игроков)")
        out.append(f"Командный зачёт, {rule_text}:")
        out.append(_table(["Место", "Стол", "Игроков", "Сумма", "Среднее"],
                          [[r["place"], r["table"], r["players"], r["total_xp"], f"{r['average_xp']:.1f}"]
                           for r in result["teams"]], right={0, 2, 3, 4}))
        out.append("")
        out.append("Личный зачёт:")
        out.append(_table(["Место", "Игрок", "Стол", "Итого"],
                          [[r["place"], r["name"], r["table"], r["final_xp"]] for r in result["individuals"]],
                          right={0, 3}))
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def cmd_replay(args):
    games = []
    for path in args.records:
        try:
            games.append(replay_file(path)[1])
        except RecordFileError as err:
            print(str(err).replace("\n", " "), file=sys.stderr)
            return 2
    result = standings(games)
    if args.json:
        json.dump(result, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(format_standings(result))
    return 0


#: subcommands defined next to the code they drive, loaded only when asked for (or for --help),
#: so that ``replay`` starts without importing the web app, the database or the PDF engine
EXTENSIONS = {
    "serve": "facilitator.web.commands",
    "organizer-password": "facilitator.web.commands",
    "export": "facilitator.reports.commands",
    "pack": "facilitator.content.commands",
}


def build_parser(command=None):
    parser = argparse.ArgumentParser(prog="facilitator",
                                     description="«16/25»: the host's assistant (rules, protocol, rankings)")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("replay", help="replay game records and print the standings")
    p.add_argument("records", nargs="+", metavar="RECORD.json",
                   help="lyceum-record/1 files; several files are the tables of one event")
    p.add_argument("--json", action="store_true", help="print lyceum-standings/1 JSON instead of a table")
    p.set_defaults(func=cmd_replay)

    if command == "replay":
        modules = []
    elif command in EXTENSIONS:
        modules = [EXTENSIONS[command]]
    else:
        modules = list(dict.fromkeys(EXTENSIONS.values()))
    for module_name in modules:
        __import__(module_name, fromlist=["register"]).register(sub)
    return parser


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    command = next((a for a in argv if not a.startswith("-")), None)
    args = build_parser(command).parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
