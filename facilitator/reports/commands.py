"""``facilitator export RECORD.json [...] [--xlsx] [--pdf] [--out DIR] [--event NAME] [--date YYYY-MM-DD]
[--lang ru|en]``.

Replays the game records (several records are the tables of one event) and writes under
``DIR/<event>/`` (``DIR`` defaults to ``exports``):

* with ``--xlsx``: each table's protocol workbook and the event workbook;
* with ``--pdf``: each table's protocol and blank paper protocol, the event results and the
  certificates;
* with neither flag: both.

Every game's records (all of one game): each game prints what its package makes
(``GamePackage.reports``, ``blank_protocol``, ``event_files``); a game without event-wide
files writes its tables' protocols only.

Each path written is printed on its own line. A record that cannot be read or breaks the
rules stops the command before anything is written: exit status 2 and the same one-line
error as ``facilitator replay`` on stderr.
"""

import argparse
import sys
from datetime import date, datetime
from pathlib import Path

from facilitator.i18n import ALL_LOCALES, use_locale
from facilitator.recordfile import RecordFileError, replay_any


def register(subparsers):
    p = subparsers.add_parser(
        "export", help="write protocols (Excel workbooks, PDFs) of game records under exports/",
        description="Write the protocols of game records: each table's protocol workbook and PDF, a blank "
                    "paper protocol, the event workbook, the event results PDF and the certificates.")
    p.add_argument("records", nargs="+", metavar="RECORD.json",
                   help="game records of one game (lyceum-record/1, alterego-record/1, newangeles-record/1, …); "
                        "several files are the tables of one event")
    p.add_argument("--xlsx", action="store_true", help="write the Excel workbooks")
    p.add_argument("--pdf", action="store_true", help="write the PDFs (with neither flag: both kinds)")
    p.add_argument("--out", default="exports", metavar="DIR",
                   help="base folder; the files go to DIR/<event>/ (default: exports)")
    p.add_argument("--event", metavar="NAME",
                   help="the event's name for headings and file names (default: the records' \"event\" "
                        "key, if they have one)")
    p.add_argument("--date", metavar="YYYY-MM-DD", type=_iso_day,
                   help="the event's day, printed on the sheets and certificates (default: the records' "
                        "\"event_date\" key, if they agree on one; else no date)")
    p.add_argument("--lang", choices=ALL_LOCALES, default=None,
                   help="language of the documents (default: the game's own: ru, fi, en)")
    p.set_defaults(func=cmd_export)


def _iso_day(text):
    try:
        return date.fromisoformat(text).isoformat()
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date YYYY-MM-DD: {text!r}") from None


def _event_date(loaded):
    """The records' common ``"event_date"`` key (an ISO date), if they agree on one."""
    days = {record.extra.get("event_date") for _path, record, _game in loaded}
    if len(days) == 1:
        day = days.pop()
        if isinstance(day, str):
            try:
                return _iso_day(day)
            except argparse.ArgumentTypeError:
                return None
    return None


def _distinct_names(loaded):
    """Give tables with the same name (two records both called «Стол 1») names that differ,
    by the record file's name: the event's rankings need to tell them apart."""
    names = [game.table for _path, _record, game in loaded]
    seen = set()
    for path, _record, game in loaded:
        if names.count(game.table) > 1:
            name, n = f"{game.table} ({Path(path).stem})", 2
            while name in seen:
                name, n = f"{game.table} ({Path(path).stem} {n})", n + 1
            game.table = name
        seen.add(game.table)


def _event_name(loaded):
    """The records' common ``"event"`` key (RECORD.md keeps unknown keys), if they agree on one."""
    names = {record.extra.get("event") for _path, record, _game in loaded}
    if len(names) == 1:
        name = names.pop()
        if isinstance(name, str) and name.strip():
            return name.strip()
    return None


#: the event-wide files as the command writes them: kind -> (file kind, extension)
EVENT_FILES = {"workbook": ("results", "xlsx"), "results": ("results", "pdf"), "certificates": ("certificates", "pdf")}


def export(loaded, out, event=None, xlsx=True, pdf=True, now=None, event_date=None, game_package=None):
    """Write the files for replayed records ``[(path, record, game)]`` of one game (its
    ``game_package``: the records' game by default); return the paths written.
    ``event_date``: the event's day, ISO ``YYYY-MM-DD`` (default: the records' ``event_date``)."""
    # imported here, not at the top: the CLI builds every subcommand's parser on each call,
    # and `facilitator replay` should not wait for openpyxl and WeasyPrint to load
    from types import SimpleNamespace

    from facilitator import games
    from facilitator.reports.files import write_export
    from facilitator.rules import registry

    package = game_package or games.get(registry.of_record(loaded[0][1].to_dict()).key)
    sheets = package.reports_module()
    now = now or datetime.now().astimezone()
    event = event or _event_name(loaded)
    event_date = event_date or _event_date(loaded)
    written = []

    def save(data, kind, ext, table=None):
        written.append(write_export(data, out, kind, ext, event=event, table=table, when=now))

    for _path, _record, game in loaded:
        if xlsx and sheets is not None:
            save(sheets.table_protocol_xlsx(game, event=event, now=now, event_date=event_date), "protocol", "xlsx",
                 game.table)
        if pdf and sheets is not None:
            save(sheets.table_protocol_pdf(game, event=event, now=now, event_date=event_date), "protocol", "pdf",
                 game.table)
        if pdf:
            blank = package.blank_protocol(game.table, game.setup, game.pack, event=event, event_date=event_date)
            if blank is not None:
                save(blank, "blank", "pdf", game.table)
    tables = [SimpleNamespace(game=game, undone_moves=list) for _path, _record, game in loaded]
    about = SimpleNamespace(name=event, date=event_date)
    for kind in package.event_files:
        kind_name, ext = EVENT_FILES[kind]
        if (ext == "xlsx" and xlsx) or (ext == "pdf" and pdf):
            save(package.event_file(kind, tables, about), kind_name, ext)
    return written


def cmd_export(args):
    loaded, rulesets = [], {}
    for path in args.records:
        try:
            rules, record, game = replay_any(path)
        except RecordFileError as err:
            print(str(err).replace("\n", " "), file=sys.stderr)
            return 2
        loaded.append((path, record, game))
        rulesets[rules.key] = rules
    if len(rulesets) > 1:
        print("the records are of different games (" + ", ".join(sorted(r.name for r in rulesets.values()))
              + "): export one game's records at a time", file=sys.stderr)
        return 2
    rules = next(iter(rulesets.values()))
    _distinct_names(loaded)
    want_xlsx = args.xlsx or not args.pdf
    want_pdf = args.pdf or not args.xlsx
    from facilitator import games
    with use_locale(args.lang or rules.locales[0]):
        try:
            written = export(loaded, args.out, event=args.event, xlsx=want_xlsx, pdf=want_pdf, event_date=args.date,
                             game_package=games.get(rules.key))
        except OSError as err:
            print(f"{args.out}: cannot write the files: {err.strerror or err}", file=sys.stderr)
            return 1
    for path in written:
        print(path)
    return 0
