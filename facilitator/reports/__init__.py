"""The printing toolkit every game's printed files are made with (ARCHITECTURE.md decision 6:
an export is a function that returns bytes; the web app wraps it in ``send_file``, the CLI
writes it with ``write_export``):

==============================================================  ===================================
``pdf.render_html(template, **context)``, ``pdf.html_to_pdf``    print templates to PDF (WeasyPrint)
``sheets.Book``, ``cells.put``                                   workbooks cell by cell (openpyxl)
``svgchart.Figure``, ``svgchart.svg``                             line charts as SVG (screens and prints)
``tables.EventTables``, ``tables.table_sheet_title``             what every game's event files share
``access_sheet_pdf(event_name, event_date, cards, pin_url, ...)``  the hosts' links, PINs, QR codes
``write_export(data, base, kind, ext, event=, table=)``          save under ``base/<event>/``
``protocol_pdf_from_record(record, ...)``                        any game's protocol PDF from its
                                                                 record (a worker process)
==============================================================  ===================================

Each game's own sheets (its protocol workbook and PDF, its event files) are in its package
(``GamePackage.reports``, ``event_file``, ``blank_protocol``). Texts follow the current locale
(``facilitator.i18n.use_locale``). The modules are loaded on first use (PEP 562), so importing
this package (as the CLI does for every command) does not load openpyxl or WeasyPrint.
"""

from importlib import import_module

_EXPORTS = {
    "access_sheet_pdf": "access", "write_export": "files", "export_name": "files", "export_folder": "files",
    "protocol_pdf_from_record": "games", "undone_as_plain": "games", "protocol_module": "games",
    "has_protocol": "games",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{module}"), name)
