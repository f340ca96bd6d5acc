"""The one way every workbook of the app writes a cell: text from people stays text.

A player may be named ``=HYPERLINK("http://…")``, ``=cmd|' /C calc'!A0`` (a DDE payload) or
``@SUM(1)``. openpyxl stores a text that starts with ``=`` as a *formula*, which Excel and
LibreOffice evaluate when the file is opened; a text that starts with ``+``, ``-`` or ``@`` (or a
tab or carriage return) is stored as text, but Excel reads it again as a formula the moment
someone edits the cell. So every workbook writer (the three games' protocol workbooks, the
«16/25» event workbook, the decks' Excel export) puts its values through ``safe_cell``:

* a ``str`` is a string cell (``data_type = "s"``), whatever it starts with (``=1+1``, ``#N/A``),
  with the control characters XML forbids left out;
* a text starting with one of ``FORMULA_STARTS`` also gets the cell style's *quote prefix*
  (Excel's leading apostrophe: shown as text, kept text when edited, not part of the value,
  so the text reads back exactly as the player typed it);
* a number, date or boolean is written as it is: ``-2`` as a number stays a number.

Only openpyxl's public API is used (``Cell.data_type``, ``Cell.quotePrefix``, ``WriteOnlyCell``).
"""

from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

#: what makes a spreadsheet read a text as a formula (OWASP's list), and the full-width forms
#: of ``= + - @`` some input methods type and some spreadsheets take for the ASCII ones
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def clean_text(value):
    """Text as a cell can hold it: characters XML forbids (control codes) left out."""
    return ILLEGAL_CHARACTERS_RE.sub("", value)


def cell_value(value):
    """The value to give a cell: text cleaned of forbidden characters, anything else as is."""
    return clean_text(value) if isinstance(value, str) else value


def looks_like_formula(value):
    """True for a text a spreadsheet would take for a formula (when opened, or when edited)."""
    return isinstance(value, str) and value.startswith(FORMULA_STARTS)


def safe_cell(cell):
    """Make a cell whose value is set hold its text as text (see the module's notes); returns it."""
    if isinstance(cell.value, str):
        cell.data_type = "s"
        if looks_like_formula(cell.value):
            cell.quotePrefix = True
    return cell


def put(ws, row, column, value):
    """``ws.cell(row, column, value)`` of a normal worksheet, written safely; returns the cell."""
    return safe_cell(ws.cell(row=row, column=column, value=cell_value(value)))


def write_only_cell(ws, value):
    """A ``WriteOnlyCell`` of a write-only worksheet holding ``value``, written safely."""
    from openpyxl.cell import WriteOnlyCell
    return safe_cell(WriteOnlyCell(ws, value=cell_value(value)))


__all__ = ["FORMULA_STARTS", "clean_text", "cell_value", "looks_like_formula", "safe_cell", "put",
           "write_only_cell"]
