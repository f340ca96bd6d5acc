"""``facilitator export RECORD.json [...] [--xlsx] [--pdf] [--out DIR] [--event NAME] [--date YYYY-MM-DD]
[--lang ru|en]``.

Replays the game records (several records are the tables of one event) and writes under
``DIR/<event>/`` (``DIR`` defaults to ``exports``):

* with ``--xlsx``: each table's protocol workbook and the event workbook;
* with ``--pdf``: each table's protocol and blank paper protocol, the event results and the
  certificates;
* with neither flag: both.

Each path written is printed on its own line. A record that cannot be read or breaks the
rules stops the command before anything is written: exit status 2 and the same one-line
error as ``facilitator replay`` on stderr.
"""

import argparse
import sys
from datetime import date, datetime
from pathlib import Path

from facilitator.i18n import LOCALES, use_locale
from facilitator.recordfile import RecordFileError, replay_file


def register(subparsers):
    p = subparsers.add_parser(
        "export", help="write protocols (Excel workbooks, PDFs) of game records under exports/",
        description="Write the protocols of game records: each table's protocol workbook and PDF, a blank "
                    "paper protocol, the event workbook, the event results PDF and the certificates.")
    p.add_argument("records", nargs="+", metavar="RECORD.json",
                   help="lyceum-record/1 files; several files are the tables of one event")
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
    p.add_argument("--lang", choices=LOCALES, default="ru", help="language of the documents (default: ru)")
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


def export(loaded, out, event=None, xlsx=True, pdf=True, now=None, event_date=None):
    """Write the files for replayed records ``[(path, record, game)]``; return the paths written.
    ``event_date``: the event's day, ISO ``YYYY-MM-DD`` (default: the records' ``event_date``)."""
    # imported here, not at the top: the CLI builds every subcommand's parser on each call,
    # and `facilitator replay` should not wait for openpyxl and WeasyPrint to load
    from facilitator.reports.files import write_export
    from facilitator.games.lyceum.pdf import blank_protocol_pdf, certificates_pdf, event_results_pdf, table_protocol_pdf
    from facilitator.games.lyceum.protocol import build_protocol
    from facilitator.games.lyceum.workbook import event_workbook_xlsx, table_protocol_xlsx

    now = now or datetime.now().astimezone()
    event = event or _event_name(loaded)
    event_date = event_date or _event_date(loaded)
    written = []

    def save(data, kind, ext, table=None):
        written.append(write_export(data, out, kind, ext, event=event, table=table, when=now))

    protocols = [build_protocol(game, event=event, now=now, event_date=event_date)
                 for _path, _record, game in loaded]
    for protocol in protocols:
        if xlsx:
            save(table_protocol_xlsx(protocol), "protocol", "xlsx", protocol.table)
        if pdf:
            save(table_protocol_pdf(protocol), "protocol", "pdf", protocol.table)
            game = protocol.game
            save(blank_protocol_pdf(game.table, game.setup, pack=game.pack, event=event, now=now,
                                    event_date=event_date),
                 "blank", "pdf", protocol.table)
    if xlsx:
        save(event_workbook_xlsx(protocols, event=event, now=now, event_date=event_date), "results", "xlsx")
    if pdf:
        save(event_results_pdf(protocols, event=event, now=now, event_date=event_date), "results", "pdf")
        save(certificates_pdf(protocols, event=event, now=now, event_date=event_date), "certificates", "pdf")
    return written


def cmd_export(args):
    loaded = []
    for path in args.records:
        try:
            record, game = replay_file(path)
        except RecordFileError as err:
            print(str(err).replace("\n", " "), file=sys.stderr)
            return 2
        loaded.append((path, record, game))
    _distinct_names(loaded)
    want_xlsx = args.xlsx or not args.pdf
    want_pdf = args.pdf or not args.xlsx
    with use_locale(args.lang):
        try:
            written = export(loaded, args.out, event=args.event, xlsx=want_xlsx, pdf=want_pdf, event_date=args.date)
        except OSError as err:
            print(f"{args.out}: cannot write the files: {err.strerror or err}", file=sys.stderr)
            return 1
    for path in written:
        print(path)
    return 0
