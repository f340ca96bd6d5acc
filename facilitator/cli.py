"""The ``facilitator`` command: ``replay`` (and the commands other modules add).

Each subcommand lives in a small function; ``main`` returns the exit status: 0 on success,
2 when an input file is refused (one line on stderr, nothing on stdout).
"""

import argparse
import json
import sys

from facilitator.i18n import ALL_LOCALES, use_locale
from facilitator.rules import RulesError


def cmd_replay(args):
    """Replay records of one game and print its standings (text, or the standings JSON)."""
    from facilitator.recordfile import RecordFileError, replay_any
    from facilitator.standings_text import format_standings
    games, rules = [], None
    for path in args.records:
        try:
            these, _record, game = replay_any(path)
        except RecordFileError as err:
            print(str(err).replace("\n", " "), file=sys.stderr)
            return 2
        if rules is not None and these.key != rules.key:
            print(f"{path}: a {these.record_format} record cannot be replayed with {rules.record_format} records "
                  f"(their standings do not combine)", file=sys.stderr)
            return 2
        rules = these
        games.append(game)
    try:
        result = rules.standings(games)
    except RulesError as err:  # e.g. two records of one event under the same table name
        print(str(err).replace("\n", " "), file=sys.stderr)
        return 2
    if args.json:
        json.dump(result, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    else:
        with use_locale(args.lang or rules.locales[0]):
            sys.stdout.write(format_standings(result, rules.key))
    return 0


#: subcommands defined next to the code they drive, loaded only when asked for (or for --help),
#: so that ``replay`` starts without importing the web app, the database or the PDF engine
EXTENSIONS = {
    "serve": "facilitator.web.commands",
    "organizer-password": "facilitator.web.commands",
    "secret-key": "facilitator.web.commands",
    "export": "facilitator.reports.commands",
}


def extensions():
    """The app's subcommands and every game's own (``GamePackage.commands``: its deck tools)."""
    from facilitator.rules import registry
    found = dict(EXTENSIONS)
    for game in registry.games():
        found.update(getattr(game, "commands", None) or {})
    return found


def build_parser(command=None):
    parser = argparse.ArgumentParser(prog="facilitator",
                                     description="The game master's assistant («16/25», Alter Ego, New Angeles): "
                                                 "rules, protocol, rankings")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("replay", help="replay game records and print the standings")
    p.add_argument("records", nargs="+", metavar="RECORD.json",
                   help="game records of one game (lyceum-record/1, alterego-record/1, newangeles-record/1); "
                        "several files are the tables of one event")
    p.add_argument("--json", action="store_true", help="print the standings JSON (lyceum-standings/1, …) "
                                                       "instead of a table")
    p.add_argument("--lang", choices=ALL_LOCALES, default=None,
                   help="language of the table (default: the game's own: ru, fi, en)")
    p.set_defaults(func=cmd_replay)

    known = extensions()
    if command == "replay":
        modules = []
    elif command in known:
        modules = [known[command]]
    else:
        modules = list(dict.fromkeys(known.values()))
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
