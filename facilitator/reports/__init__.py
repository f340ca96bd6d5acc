"""Protocols and results, produced from the move log (issue 4): Excel workbooks and PDFs.

Every export is a function that returns bytes (ARCHITECTURE.md decision 6); the web app
wraps them in ``send_file``, the CLI (``facilitator export``, ``commands.py``) writes them
with ``write_export``. Texts follow the current locale (``facilitator.i18n.use_locale``,
Russian by default). ``game`` is a replayed ``facilitator.rules.Game`` (finished: a final
protocol; not yet: provisional, marked so), or a ``Protocol`` built with ``build_protocol``.

==============================================================================  ==============================
``table_protocol_xlsx(game, undone=None, event=None, now=None, event_date=None)``  one table's protocol workbook
``table_protocol_pdf(game, undone=None, event=None, now=None, event_date=None)``   the same, printed (2-3 pages)
``render_protocol_pdf_from_record(record, undone=(), event=None, locale=None,``     the same from plain JSON-able
``event_date=None, now=None)``                                                      values (a worker process)
``protocol_pdf_from_record(record, undone=(), event=None, event_date=None,``        any game's protocol PDF from its
``locale=None, now=None)``                                                          record (``games.py``)
``event_workbook_xlsx(games, event=None, now=None, event_date=None)``              summary + every table's sheets
``event_results_pdf(games, event=None, now=None, event_date=None)``                team and individual rankings
``certificates_pdf(games, event=None, now=None, event_date=None)``                 a page per winner
``blank_protocol_pdf(table, players, pack=None, event=None, now=None,``             a paper protocol to fill in
``event_date=None)``
``access_sheet_pdf(event_name, event_date, cards, pin_url, locale=None)``          the hosts' links, PINs, QR codes
``write_export(data, base, kind, ext, event=, table=)``                            save under ``base/<event>/``
==============================================================================  ==============================

``event_date`` is the event's day as ISO text ``YYYY-MM-DD``; it is printed the locale's way
(``17.05.2025``; ``May 17, 2025``) on every sheet, certificates included; None prints no date
(the "made at" time is printed always).

``undone`` lists the moves taken back, shown struck through in the log, each kind in its own
words: the host's undo, a move the organizer voided, a finished game the organizer reopened.
``LoadedTable.undone_moves()`` pairs ``(move dict, row)`` work as they are (``row.kind`` is
"undo" | "void" | "reopen"; see ``protocol.read_undone`` for every accepted form);
``undone_as_json(...)`` turns them into plain dicts for ``render_protocol_pdf_from_record``.
``now=`` fixes the "made at" time. Words, numbers and dates come from ``facilitator.games.lyceum.words``.

Example (a view)::

    data = table_protocol_pdf(loaded.game, undone=loaded.undone_moves(), event=event.name,
                              event_date=event.date)
    path = write_export(data, app.config["EXPORTS_DIR"], "facilitator.games.lyceum.protocol", "facilitator.games.lyceum.pdf", event=event.name,
                        table=loaded.table.name)
    return send_file(BytesIO(data), mimetype="application/pdf", download_name=path.name)

Or, to keep the request threads free, in a worker process::

    future = pool.submit(render_protocol_pdf_from_record, loaded.record().to_dict(),
                         undone=undone_as_json(loaded.undone_moves()), event=event.name,
                         locale=get_locale(), event_date=event.date)

The modules are loaded on first use (PEP 562), so importing this package (as the CLI does
for every command) does not load openpyxl or WeasyPrint.
"""

from importlib import import_module

_EXPORTS = {
    "build_protocol": "facilitator.games.lyceum.protocol", "Protocol": "facilitator.games.lyceum.protocol", "UndoneMove": "facilitator.games.lyceum.protocol", "read_undone": "facilitator.games.lyceum.protocol",
    "undone_as_json": "facilitator.games.lyceum.protocol", "render_protocol_pdf_from_record": "facilitator.games.lyceum.pdf", "access_sheet_pdf": "access",
    "build_event": "facilitator.games.lyceum.event", "EventResults": "facilitator.games.lyceum.event",
    "table_protocol_xlsx": "facilitator.games.lyceum.workbook", "event_workbook_xlsx": "facilitator.games.lyceum.workbook",
    "table_protocol_pdf": "facilitator.games.lyceum.pdf", "event_results_pdf": "facilitator.games.lyceum.pdf", "certificates_pdf": "facilitator.games.lyceum.pdf",
    "blank_protocol_pdf": "facilitator.games.lyceum.pdf",
    "write_export": "files", "export_name": "files", "export_folder": "files",
    "xp_chart_svg": "chart",
    "protocol_pdf_from_record": "games", "undone_as_plain": "games", "protocol_module": "games",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(module if "." in module else f"{__name__}.{module}"), name)
