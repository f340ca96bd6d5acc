"""Reading a deck's Excel workbook, for every game: what each game's deck reader shares.

A game's reader (``games/<game>/excel.py``) keeps its own sheets, columns and cell kinds; this
module gives it:

* the **workbook budget** (``WorkbookBudget``, ``check_workbook_file``): a file beyond any deck
  (more than ``max_unpacked`` bytes packed or unpacked, more than ``max_parts`` files, a deck's
  sheet with more than its ``max_rows`` rows, declared or counted, or ``max_cells`` cells, an XML
  part that is not well-formed or declares a DTD) is refused before openpyxl parses anything;
  every part is streamed through expat, nothing is built;
* **the deck's sheets as values** (``read_sheets``): openpyxl streams only the sheets the game
  names (``read_only``), at most ``max_columns`` wide, refusing a sheet past its row limit,
  as ``Sheet`` objects (``title``, ``key``, ``max_row``, ``max_column``, ``cell(row, column)``);
* **the header row** (``read_header``): which column holds which field, headers compared as
  ``normalize`` does (case, spacing and ё/е do not matter), in any of the game's languages
  (``in_every_locale``), with the columns named twice and the other headers for the game to judge;
* **a problem at its cell** (``cell_problem``): an ``ImportProblem`` whose ``where`` names the
  sheet, row and column (``Cards!D7``, or ``Cards!B7:F7`` for a range);
* the **refusals** of a file as a whole (``refusal``, ``not_xlsx``, ``damaged``, ``too_large``,
  ``too_many_rows``), worded in the current locale.
"""

import posixpath
import re
import zipfile
import zlib
from dataclasses import dataclass
from io import BytesIO
from xml.etree import ElementTree
from xml.parsers import expat

from facilitator.content.importing import ImportProblem, PackImportError
from facilitator.i18n import gettext, use_locale

__all__ = ["WorkbookBudget", "Sheet", "check_workbook_file", "read_sheets", "read_header", "cell_problem",
           "column_letter", "normalize", "in_every_locale", "sheet_key_of", "blank", "cell_text", "refusal",
           "not_xlsx", "damaged", "too_large", "too_many_rows"]


@dataclass(frozen=True)
class WorkbookBudget:
    """The most a game's deck workbook may be: ``max_unpacked`` bytes (packed and unpacked),
    ``max_parts`` files, ``max_rows`` rows of each of the deck's sheets (by sheet key),
    ``max_cells`` filled cells of one sheet, ``max_columns`` columns read of each sheet."""

    max_unpacked: int
    max_parts: int
    max_rows: dict
    max_cells: int
    max_columns: int


_XML_CHUNK = 1 << 18
_TAG_PREFIX = rb"<(?:[A-Za-z_][\w.-]*:)?"
_ROW_TAG = re.compile(_TAG_PREFIX + rb"row[\s/>]")
_CELL_TAG = re.compile(_TAG_PREFIX + rb"c[\s/>]")
_DIMENSION = re.compile(_TAG_PREFIX + rb"dimension\s+ref\s*=\s*[\"'][A-Za-z$]*\d*(?::[A-Za-z$]*(\d+))?")
_MANIFEST_LIMIT = 2 * 1024 * 1024  # the package's and the workbook's relationships and sheet list


# ----- words and places ------------------------------------------------------------------------
def normalize(text):
    """How sheet titles, headers and labels are compared: case, ё/е and spacing do not matter."""
    return " ".join(str(text).replace("ё", "е").replace("Ё", "Е").casefold().split())


def in_every_locale(fn, locales):
    """``fn()`` in each of ``locales``, normalized (a header is read back in any of them); ``fn``
    may be a msgid, translated with ``gettext``."""
    text = (lambda: gettext(fn)) if isinstance(fn, str) else fn
    out = set()
    for locale in locales:
        with use_locale(locale):
            out.add(normalize(text()))
    return out


def sheet_key_of(title, sheets, locales):
    """Which of a deck's ``sheets`` (``(key, title msgid)`` pairs) a sheet title names, in any of
    ``locales`` or by its key; None for any other sheet."""
    name = normalize(title or "")
    for key, msgid in sheets:
        if name == key or name in in_every_locale(msgid, locales):
            return key
    return None


def column_letter(n):
    """A column's letters from its number (1 -> A, 27 -> AA)."""
    out = ""
    while n:
        n, rest = divmod(n - 1, 26)
        out = chr(65 + rest) + out
    return out


def blank(value):
    """An empty cell: nothing, or only spaces."""
    return value is None or (isinstance(value, str) and not value.strip())


def cell_text(value):
    """A cell's value as text: numbers without a trailing ".0", empty as ""."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return value if isinstance(value, str) else str(value)


def cell_problem(sheet, message, key, params=None, row=None, cols=(), **located):
    """An ``ImportProblem`` at its place: ``sheet`` (its title as the workbook spells it) and,
    when known, ``row`` and the column numbers ``cols`` (one cell, or the range of several);
    ``located`` adds where it is in the pack (item, index, code, field)."""
    cell = None
    if row is not None and cols:
        low, high = min(cols), max(cols)
        cell = f"{column_letter(low)}{row}" + (f":{column_letter(high)}{row}" if high != low else "")
    return ImportProblem(f"{sheet}!{cell}" if cell else sheet, message, key, dict(params or {}), sheet=sheet,
                         cell=cell, row=row, **located)


# ----- refusals of the file as a whole ----------------------------------------------------------
def refusal(where, key, message, **params):
    """The workbook refused as a whole for one reason; ``message`` is in the user's language."""
    return PackImportError([ImportProblem(where, message, key, params)])


def not_xlsx():
    return refusal("", "not_xlsx", gettext("the file is not an Excel workbook (.xlsx)"))


def damaged(where=""):
    return refusal(where, "damaged", gettext("the workbook is damaged and cannot be read; save it again in Excel"))


def too_large(size, limit):
    params = {"size": max(1, round(size / 2 ** 20)), "limit": limit // 2 ** 20}
    return refusal("", "too_large", gettext("the workbook unpacks to {size} MB; a deck's workbook is at most {limit} MB",
                                            **params), **params)


def too_many_rows(where, limit):
    return refusal(where, "too_many_rows", gettext("the sheet has more than {limit} rows; delete the rows below "
                                                   "the table", limit=limit), limit=limit)


# ----- the workbook budget ---------------------------------------------------------------------
class _BrokenXML(Exception):
    """A part that is not well-formed XML (``line``/``column``), or declares a DTD (no position)."""

    def __init__(self, line=None, column=None):
        self.line, self.column = line, column
        super().__init__(line, column)


def check_workbook_file(data, budget, sheet_key):
    """Refuse, before openpyxl parses anything, a file that is not an .xlsx or is beyond
    ``budget``; ``sheet_key(title)`` names the deck's sheets (None for any other). Returns
    ``{sheet title: row limit}`` of the deck's sheets; raises ``PackImportError``."""
    data = bytes(data)
    if len(data) > budget.max_unpacked:
        raise too_large(len(data), budget.max_unpacked)
    try:
        archive = zipfile.ZipFile(BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        raise not_xlsx() from None
    with archive:
        parts = archive.infolist()
        if len(parts) > budget.max_parts:
            params = {"count": len(parts), "limit": budget.max_parts}
            raise refusal("", "too_many_parts", gettext("the workbook holds {count} files; a workbook holds at "
                                                        "most {limit}", **params), **params)
        unpacked = sum(p.file_size for p in parts)
        if unpacked > budget.max_unpacked:
            raise too_large(unpacked, budget.max_unpacked)
        try:
            sheets = _deck_sheets(archive, sheet_key)
            for info in parts:
                if info.filename.endswith((".xml", ".rels")) and not info.is_dir():
                    title = sheets.get(info.filename)
                    _scan_part(archive, info, title if title is not None else info.filename, budget,
                               budget.max_rows[sheet_key(title)] if title is not None else None)
        except (zipfile.BadZipFile, zlib.error, EOFError, RuntimeError, NotImplementedError, OSError):
            # a bad CRC, a truncated or encrypted part, a compression Python cannot unpack
            raise damaged() from None
    return {title: budget.max_rows[sheet_key(title)] for title in sheets.values()}


def _deck_sheets(archive, sheet_key):
    """``{part name: sheet title}`` of the worksheets that are sheets of a deck, found as a
    spreadsheet application finds them: the package's relationships name the workbook part,
    whose own relationships name each sheet's part. Not an .xlsx when any of it is missing."""
    names = set(archive.namelist())
    package = _small_xml(archive, "_rels/.rels", names)
    workbook = next((_part_name("", r.get("Target", "")) for r in _elements(package, "Relationship")
                     if r.get("Type", "").endswith("/officeDocument")), None)
    if workbook is None or workbook not in names:
        raise not_xlsx()
    folder, base = posixpath.split(workbook)
    rels = _small_xml(archive, posixpath.join(folder, "_rels", base + ".rels"), names)
    targets = {r.get("Id"): _part_name(folder, r.get("Target", "")) for r in _elements(rels, "Relationship")}
    out = {}
    for sheet in _elements(_small_xml(archive, workbook, names), "sheet"):
        rel = next((v for k, v in sheet.attrib.items() if k.endswith("}id")), None)
        part, title = targets.get(rel), sheet.get("name")
        if part in names and sheet_key(title) is not None:
            out[part] = title
    return out


def _small_xml(archive, name, names):
    """A small part of the package's manifest, parsed (after the same expat check as any part)."""
    if name not in names:
        raise not_xlsx()
    info = archive.getinfo(name)
    if info.file_size > _MANIFEST_LIMIT:
        raise damaged(name)
    _scan_part(archive, info, name, None, None)
    try:
        return ElementTree.fromstring(archive.read(name))
    except ElementTree.ParseError:
        raise damaged(name) from None


def _elements(root, local):
    return [e for e in root.iter() if isinstance(e.tag, str) and e.tag.rpartition("}")[2] == local]


def _part_name(folder, target):
    """A relationship's target as a part name of the archive (no leading slash)."""
    path = target[1:] if target.startswith("/") else posixpath.join(folder, target)
    return posixpath.normpath(path).lstrip("/")


def _scan_part(archive, info, where, budget, row_limit):
    """Stream one XML part through expat (well-formed, no DTD) without building anything; for a
    sheet of a deck (``row_limit`` given) also read its declared dimension and count its rows
    and cells, stopping at the first limit passed. Refusals name ``where``."""
    try:
        _scan_xml(archive, info, where, budget, row_limit)
    except _BrokenXML as bad:
        if bad.line is None:
            raise damaged(where) from None
        params = {"line": bad.line, "column": bad.column}
        raise refusal(where, "bad_xml", gettext("the workbook is damaged: its XML is broken at line {line}, column "
                                                "{column}; save it again in Excel", **params), **params) from None


def _scan_xml(archive, info, where, budget, row_limit):
    parser = expat.ParserCreate()

    def no_dtd(*_args):
        raise _BrokenXML()
    parser.StartDoctypeDeclHandler = no_dtd
    parser.EntityDeclHandler = no_dtd
    rows = cells = 0
    carry = b""
    first = True
    with archive.open(info) as stream:
        while True:
            chunk = stream.read(_XML_CHUNK)
            try:
                parser.Parse(chunk, not chunk)
            except expat.ExpatError as err:
                raise _BrokenXML(err.lineno, err.offset + 1) from None
            if row_limit is not None:
                if first:
                    first = False
                    dimension = _DIMENSION.search(chunk)
                    last = dimension.group(1) if dimension else None
                    if last and (len(last) > 9 or int(last) > row_limit):
                        raise too_many_rows(where, row_limit)
                text = carry + chunk
                cut = text.rfind(b"<") if chunk else -1
                if cut < 0 or len(text) - cut > 64:  # no tag can start in a longer tail
                    cut = len(text)
                counted, carry = text[:cut], text[cut:]
                rows += len(_ROW_TAG.findall(counted))
                cells += len(_CELL_TAG.findall(counted))
                if rows > row_limit:
                    raise too_many_rows(where, row_limit)
                if cells > budget.max_cells:
                    raise refusal(where, "too_many_cells", gettext("the sheet has more than {limit} filled cells; "
                                                                   "a deck has far fewer", limit=budget.max_cells),
                                  limit=budget.max_cells)
            if not chunk:
                return


# ----- the deck's sheets as values -------------------------------------------------------------
class _Cell:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


_EMPTY = _Cell(None)


class Sheet:
    """A deck's sheet as read: ``title`` (as the workbook spells it), ``key`` (the game's name for
    it), ``rows`` (lists of values, no trailing empty cells or rows), with the little of openpyxl's
    ``Worksheet`` a reader uses: ``max_row``, ``max_column``, ``cell(row, column).value``."""

    def __init__(self, title, key, rows):
        self.title = title
        self.key = key
        self.rows = rows
        self.max_row = len(rows)
        self.max_column = max((len(r) for r in rows), default=0)

    def cell(self, row, column):
        if 1 <= row <= len(self.rows):
            values = self.rows[row - 1]
            if 1 <= column <= len(values):
                return _Cell(values[column - 1])
        return _EMPTY


def read_sheets(data, budget, sheet_key):
    """The deck's sheets of an .xlsx (bytes or a binary file), in the workbook's order, as
    ``Sheet`` values: the file checked against ``budget`` first (``check_workbook_file``), then
    streamed by openpyxl (``read_only``), each sheet refused past its row limit. Raises
    ``PackImportError`` (not an .xlsx, damaged, beyond the budget)."""
    if hasattr(data, "read"):
        data = data.read()
    limits = check_workbook_file(data, budget, sheet_key)
    import openpyxl
    from openpyxl.utils.exceptions import InvalidFileException
    try:
        wb = openpyxl.load_workbook(BytesIO(data), read_only=True, data_only=True)
    except (zipfile.BadZipFile, InvalidFileException, KeyError, OSError, ValueError, TypeError):
        raise not_xlsx() from None
    except Exception:  # noqa: BLE001 - anything else openpyxl meets in a hostile file: damaged, not a 500
        raise damaged() from None
    try:
        return [_read_sheet(ws, key, limits.get(ws.title, budget.max_rows[key]), budget.max_columns)
                for ws in wb.worksheets if (key := sheet_key(ws.title)) is not None]
    finally:
        wb.close()


def _read_sheet(ws, key, limit, max_columns):
    """A sheet streamed by openpyxl, refused past ``limit`` rows (counted again here: the count
    before did not see a row number jumping ahead)."""
    width = min(ws.max_column or max_columns, max_columns)
    rows = []
    try:
        for values in ws.iter_rows(min_row=1, max_row=limit + 1, max_col=width, values_only=True):
            if len(rows) == limit:
                raise too_many_rows(ws.title, limit)
            values = list(values)
            while values and values[-1] is None:
                values.pop()
            rows.append(values)
    except PackImportError:
        raise
    except Exception:  # noqa: BLE001 - a sheet openpyxl cannot parse is a damaged workbook, not a 500
        raise damaged(ws.title) from None
    while rows and not rows[-1]:
        rows.pop()
    return Sheet(ws.title, key, rows)


# ----- the header row --------------------------------------------------------------------------
@dataclass
class Header:
    """A sheet's header row read: ``columns`` {field: column number} (the first column naming
    each field), ``twice`` [(column number, header)] naming a field already found, ``others``
    [(column number, header)] the other filled headers (notes, or the game's to judge)."""

    columns: dict
    twice: list
    others: list


def read_header(sheet, words):
    """Row 1 of ``sheet`` against ``words`` ({normalized header: field}, every language's words
    and the field's own name)."""
    columns, twice, others = {}, [], []
    for c in range(1, sheet.max_column + 1):
        raw = sheet.cell(1, c).value
        if blank(raw):
            continue
        text = str(raw).strip()
        name = words.get(normalize(text))
        if name is None:
            others.append((c, text))
        elif name in columns:
            twice.append((c, text))
        else:
            columns[name] = c
    return Header(columns, twice, others)
