"""A thin layer over openpyxl's public write-only mode for the protocol workbooks: sheets filled
cell by cell (in any order) with named styles, then streamed to the file row by row.

* a ``Book`` is an openpyxl ``Workbook(write_only=True)``; each ``Sheet`` keeps its cells as
  plain ``(value, style name)`` pairs until the workbook is saved, so a sheet can be filled
  in any order (the summary sheet writes two rankings side by side);
* each style is an openpyxl ``NamedStyle`` (font, fill, border, alignment, number format),
  built and registered with ``Workbook.add_named_style`` once per workbook, the first time
  a cell uses it; a struck-through or filled variant of a style is a named style of its own;
* on save, every sheet's rows are appended in order as ``WriteOnlyCell`` objects carrying
  their named style; column widths, frozen panes, print setup, the footer and conditional
  formats are set on the sheet before its first row, as write-only sheets require.

Only openpyxl's public API is used (no private modules or attributes), so an openpyxl upgrade
cannot silently break the files. A 50-table event workbook (200 sheets, some 65 000 styled
cells) is saved in about a second and a half (``benchmarks/bench_reports.py``).

Text is always written as text (``cells.safe_cell``): a player named ``=1+1`` stays a name, never
a formula.
"""

from copy import copy
from io import BytesIO

from openpyxl import Workbook
from openpyxl.cell.cell import Cell
from openpyxl.styles import NamedStyle, PatternFill

from facilitator.reports.cells import cell_value, clean_text, safe_cell


class Book:
    """A workbook being filled: named styles and sheets; ``save()`` gives the ``.xlsx`` bytes."""

    def __init__(self, styles, title=None, creator=None):
        self.wb = Workbook(write_only=True)
        if title:
            self.wb.properties.title = title
        if creator:
            self.wb.properties.creator = creator
        self.specs = styles  # name -> {"font", "fill", "border", "alignment", "number_format"}
        self.names = {}  # (name, strike colour, fill colour) -> the registered NamedStyle's name
        self.styles = {}  # a registered NamedStyle's name -> the NamedStyle
        self.sheets = []

    def sheet(self, title):
        sheet = Sheet(self, self.wb.create_sheet(title=title))
        self.sheets.append(sheet)
        return sheet

    @property
    def titles(self):
        return [s.ws.title for s in self.sheets]

    def style(self, name, strike_colour=None, fill=None):
        """The name of a registered named style: ``name`` of the specs, optionally struck
        through in a colour, or with a fill colour (each variant registered once)."""
        key = (name, strike_colour, fill)
        found = self.names.get(key)
        if found is not None:
            return found
        spec = self.specs[name]
        style_name = name + (f" struck {strike_colour}" if strike_colour else "") + (f" fill {fill}" if fill else "")
        named = NamedStyle(name=style_name)
        font = spec.get("font")
        if font is not None:
            font = copy(font)
            if strike_colour:
                font.strike = True
                font.color = strike_colour
            named.font = font
        fill_value = PatternFill("solid", fgColor=fill) if fill else spec.get("fill")
        if fill_value is not None:
            named.fill = copy(fill_value)
        for attr in ("border", "alignment"):
            if spec.get(attr) is not None:
                setattr(named, attr, copy(spec[attr]))
        if spec.get("number_format"):
            named.number_format = spec["number_format"]
        self.wb.add_named_style(named)
        self.names[key] = style_name
        self.styles[style_name] = named
        return style_name

    def save(self):
        for sheet in self.sheets:
            sheet.write_rows()
        buf = BytesIO()
        self.wb.save(buf)
        return buf.getvalue()


class Sheet:
    """One worksheet: cells put in any order, the rest set on ``ws`` (openpyxl's sheet) before
    the workbook is saved."""

    def __init__(self, book, ws):
        self.book = book
        self.ws = ws
        self.cells = {}

    def put(self, row, col, value, style=None):
        self.cells.setdefault(row, {})[col] = (value, style)

    def value(self, row, col):
        return self.cells.get(row, {}).get(col, (None, None))[0]

    @property
    def footer(self):
        return self.ws.oddFooter

    def _cell(self, value, style):
        # a write-only cell (as ``WriteOnlyCell`` makes it) given its named style's style array
        # (``NamedStyle.as_tuple()``), as assigning ``cell.style = name`` does, without looking
        # the name up among the workbook's named styles for every cell
        array = self.book.styles[style].as_tuple() if style else None
        return safe_cell(Cell(self.ws, row=1, column=1, value=cell_value(value), style_array=array))

    def write_rows(self):
        """Stream the cells to the sheet, row by row (empty rows and cells skipped over)."""
        append = self.ws.append
        row_no = 0
        for row_idx in sorted(self.cells):
            while row_no < row_idx - 1:
                append(())
                row_no += 1
            cells = self.cells[row_idx]
            line = [None] * max(cells)
            for col, (value, style) in cells.items():
                if value is None and not style:
                    continue
                line[col - 1] = self._cell(value, style)
            append(line)
            row_no = row_idx
        self.cells = {}


__all__ = ["Book", "Sheet", "clean_text"]
