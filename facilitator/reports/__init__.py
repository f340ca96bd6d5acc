"""Protocols and results, produced from the move log (issue 4): Excel workbooks and PDFs.

Every export is a function that returns bytes (ARCHITECTURE.md decision 6); the web app
wraps them in ``send_file``, the CLI (``facilitator export``, ``commands.py``) writes them
with ``write_export``. Texts follow the current locale (``facilitator.i18n.use_locale``,
Russian by default). ``game`` is a replayed ``facilitator.rules.Game`` (finished: a final
protocol; not yet: provisional, marked so), or a ``Protocol`` built with ``build_protocol``.

==========================================================  ===============================
``table_protocol_xlsx(game, undone=None, event=None)``      one table's protocol workbook
``table_protocol_pdf(game, undone=None, event=None)``       the same, printed (A4 landscape)
``event_workbook_xlsx(games, event=None)``                  summary + every table's sheets
``event_results_pdf(games, event=None)``                    team and individual rankings
``certificates_pdf(games, event=None)``                     a page per winner
``blank_protocol_pdf(table, players, pack=None, event=None)``  a paper protocol to fill in
``write_export(data, base, kind, ext, event=, table=)``     save under ``base/<event>/``
==========================================================  ===============================

``undone`` lists the moves the host took back, shown struck through in the log:
``LoadedTable.undone_moves()`` pairs ``(move dict, undo row)`` work as they are (see
``protocol.read_undone`` for every accepted form). ``now=`` fixes the "made at" time.

Example (a view)::

    data = table_protocol_pdf(loaded.game, undone=loaded.undone_moves(), event=event.name)
    path = write_export(data, app.config["EXPORTS_DIR"], "protocol", "pdf", event=event.name,
                        table=loaded.table.name)
    return send_file(BytesIO(data), mimetype="application/pdf", download_name=path.name)

The modules are loaded on first use (PEP 562), so importing this package (as the CLI does
for every command) does not load openpyxl or WeasyPrint.
"""

from importlib import import_module

_EXPORTS = {
    "build_protocol": "protocol", "Protocol": "protocol", "UndoneMove": "protocol", "read_undone": "protocol",
    "undone_as_json": "protocol", "render_protocol_pdf_from_record": "pdf", "access_sheet_pdf": "access",
    "build_event": "event", "EventResults": "event",
    "table_protocol_xlsx": "workbook", "event_workbook_xlsx": "workbook",
    "table_protocol_pdf": "pdf", "event_results_pdf": "pdf", "certificates_pdf": "pdf",
    "blank_protocol_pdf": "pdf",
    "write_export": "files", "export_name": "files", "export_folder": "files",
    "xp_chart_svg": "chart",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{module}"), name)
