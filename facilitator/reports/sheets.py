"""A thin layer over openpyxl for the protocol workbooks: sheets filled cell by cell with named
styles, then written in one pass, fast.

Why not plain openpyxl cells: a 50-table event workbook has 200 sheets and some 65 000
styled cells. openpyxl keeps a ``Cell`` object per cell, looks each style attribute up as it
is assigned, and serialises every cell as an XML element through ``et_xmlfile``; together
that took about 1.5 s of CPU, most of the 2 s budget. Here:

* a ``Book`` is an openpyxl *write-only* workbook; each ``Sheet`` keeps its cells as plain
  ``(value, style id)`` pairs, in any order, until the workbook is saved;
* each named style is built once per workbook (font, fill, border, alignment, number
  format) and registered by openpyxl, which gives it its id;
* on save, each sheet's rows are written by ``_RowWriter``: with openpyxl's own XML stream
  (``et_xmlfile``) a row is written as one ready-made string; with any other stream (lxml,
  when installed) the row goes through openpyxl's ordinary cell writer. Everything else of
  the file (column widths, frozen panes, print setup, conditional formats, styles) is
  openpyxl's own.

Text is always written as text: a player named ``=1+1`` stays a name, never a formula.
"""

from copy import copy
from datetime import date, datetime
from io import BytesIO
from xml.sax.saxutils import escape

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.compat import safe_string
from openpyxl.styles import PatternFill
from openpyxl.styles.cell_style import StyleArray
from openpyxl.utils import get_column_letter
from openpyxl.utils.datetime import to_excel
from openpyxl.worksheet._writer import WorksheetWriter
from openpyxl.worksheet.header_footer import HeaderFooter

COLUMNS = [""] + [get_column_letter(i) for i in range(1, 703)]  # A .. ZZ


def clean_text(value):
    """Text as a cell can hold it: characters XML forbids (control codes) left out."""
    return ILLEGAL_CHARACTERS_RE.sub("", value)


def cell_xml(ref, value, style, epoch):
    """One ``<c>`` element as text, the way openpyxl writes it (inline strings, no shared table)."""
    s = f' s="{style}"' if style else ""
    if value is None or value == "":
        return f'<c r="{ref}"{s}/>' if style else ""
    if isinstance(value, bool):
        return f'<c r="{ref}"{s} t="b"><v>{int(value)}</v></c>'
    if isinstance(value, (int, float)):
        return f'<c r="{ref}"{s} t="n"><v>{safe_string(value)}</v></c>'
    if isinstance(value, (datetime, date)):
        return f'<c r="{ref}"{s} t="n"><v>{safe_string(to_excel(value, epoch))}</v></c>'
    text = clean_text(str(value))
    space = ' xml:space="preserve"' if text != text.strip() else ""
    return f'<c r="{ref}"{s} t="inlineStr"><is><t{space}>{escape(text)}</t></is></c>'


class _RowWriter(WorksheetWriter):
    """openpyxl's worksheet writer, with the rows coming from a ``Sheet``'s cells."""

    #: write rows as ready-made strings when the stream allows it (tests turn it off to
    #: compare with openpyxl's own cell writer)
    raw_rows = True

    def __init__(self, ws, sheet):
        self.sheet = sheet
        super().__init__(ws)

    def write_rows(self):
        xf = self.xf.send(True)
        raw = getattr(xf, "_file", None) if self.raw_rows else None  # et_xmlfile's write function
        epoch = self.ws.parent.epoch
        with xf.element("sheetData"):
            for row_idx in sorted(self.sheet.cells):
                cells = self.sheet.cells[row_idx]
                if callable(raw):
                    raw(f'<row r="{row_idx}">'
                        + "".join(cell_xml(f"{COLUMNS[col]}{row_idx}", value, style, epoch)
                                  for col, (value, style) in sorted(cells.items()))
                        + "</row>")
                else:
                    self.write_row(xf, list(self._cells(cells, row_idx)), row_idx)
        self.xf.send(None)

    def _cells(self, cells, row_idx):
        """The same row as openpyxl cells, for openpyxl's own writer."""
        for col, (value, style) in sorted(cells.items()):
            cell = WriteOnlyCell(self.ws, value=clean_text(value) if isinstance(value, str) else value)
            if cell.data_type == "f":
                cell.data_type = "s"
            cell.row, cell.column = row_idx, col
            if style:
                cell._style = copy(self.sheet.book.arrays[style])
            yield cell


class Book:
    """A workbook being filled: named styles and sheets; ``save()`` gives the ``.xlsx`` bytes."""

    def __init__(self, styles, title=None, creator=None):
        self.wb = Workbook(write_only=True)
        if title:
            self.wb.properties.title = title
        if creator:
            self.wb.properties.creator = creator
        self.specs = styles  # name -> {"font", "fill", "border", "alignment", "number_format"}
        self.ids = {}  # (name, modifier...) -> style id
        self.arrays = {}  # style id -> openpyxl StyleArray
        self.sheets = []
        self._probe = None

    def sheet(self, title):
        sheet = Sheet(self, self.wb.create_sheet(title=title))
        self.sheets.append(sheet)
        return sheet

    @property
    def titles(self):
        return [s.ws.title for s in self.sheets]

    def style(self, name, strike_colour=None, fill=None):
        """The id of a named style, optionally struck through in a colour, or with a fill colour."""
        key = (name, strike_colour, fill)
        found = self.ids.get(key)
        if found is not None:
            return found
        if self._probe is None:
            self._probe = WriteOnlyCell(self.sheets[0].ws)
        cell = self._probe
        cell._style = StyleArray()
        spec = self.specs[name]
        font = spec.get("font")
        if strike_colour:
            font = copy(font) if font is not None else None
            if font is not None:
                font.strike = True
                font.color = strike_colour
        for attr, value in (("font", font), ("fill", PatternFill("solid", fgColor=fill) if fill else spec.get("fill")),
                            ("border", spec.get("border")), ("alignment", spec.get("alignment")),
                            ("number_format", spec.get("number_format"))):
            if value is not None:
                setattr(cell, attr, value)
        array = copy(cell._style)
        style_id = self.wb._cell_styles.add(array)
        self.ids[key] = style_id
        self.arrays[style_id] = array
        return style_id

    def save(self):
        for sheet in self.sheets:
            sheet.ws._writer = _RowWriter(sheet.ws, sheet)
            sheet.ws._writer.write_top()
        buf = BytesIO()
        self.wb.save(buf)
        return buf.getvalue()


class Sheet:
    """One worksheet: cells put in any order, the rest set on ``ws`` (openpyxl's sheet)."""

    def __init__(self, book, ws):
        self.book = book
        self.ws = ws
        self.cells = {}
        if not hasattr(ws, "HeaderFooter"):  # write-only sheets lack it; the writer reads it
            ws.HeaderFooter = HeaderFooter()

    def put(self, row, col, value, style_id=0):
        self.cells.setdefault(row, {})[col] = (value, style_id)

    def value(self, row, col):
        return self.cells.get(row, {}).get(col, (None, 0))[0]

    @property
    def footer(self):
        return self.ws.HeaderFooter.oddFooter


__all__ = ["Book", "Sheet", "cell_xml", "clean_text"]
