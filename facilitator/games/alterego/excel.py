"""Alter Ego decks (`alterego-pack/1`) as Excel workbooks: the organizer's template (the
3rd-edition deck with instructions), export, and import with every problem named by its cell.

The workbook has three sheets, named in the current locale (Finnish by default on Alter
Ego's pages) and read back in any of the app's languages: «Ohjeet» (the deck's code, title
and source at the top, then how to fill in the rest), «Aktiivit» (one row per active) and
«Kortit» (one row per card). Columns are found by their header (any language, or the JSON
key), so they may be reordered; other columns are not read.

``workbook_to_pack`` refuses a workbook as a whole, raising ``PackImportError`` with every
problem at its cell (``Kortit!D7: määrä: pitää olla kokonaisluku ≥ 1``): first what only a
spreadsheet can get wrong (text where a number belongs, an unknown yes/no), then every rule of
RECORD.md 1, checked by the engine's ``pack_problems`` and mapped back to the cell. A workbook
beyond a deck's size is refused before openpyxl reads it (``check_workbook_file``: the file,
its unpacked size, its parts, each sheet's rows and cells, well-formed XML without a DTD).
``pack_to_workbook`` writes the layout ``workbook_to_pack`` reads:
``workbook_to_pack(pack_to_workbook(pack)) == pack``.
"""

import json
import re
from dataclasses import dataclass
from io import BytesIO

from facilitator.content import workbook as deck_workbook
from facilitator.content.workbook import WorkbookBudget, cell_problem, column_letter as _column_letter, normalize
from facilitator.content.workbook import refusal as _refusal
from facilitator.i18n import gettext as _
from facilitator.rules.alterego.pack import (ABILITIES, CARD_TYPES, EFFECTS, HOBBY_SUBTYPES, PACK_FORMAT, RULESET,
                                   default_pack_data, pack_problems, read_pack)
from facilitator.safejson import JSONInputError
from facilitator.safejson import loads as safe_loads
from facilitator.content.importing import ImportProblem, PackImportError

__all__ = ["template_workbook", "pack_to_workbook", "workbook_to_pack", "json_to_pack", "load_pack_bytes",
           "check_workbook_file", "PackImportError", "XLSX_MIME"]

XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
LOCALES = ("fi", "en", "ru")


def N_(message):
    return message


# ----- the layout ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Column:
    """One column: the pack field it holds, its header (an English msgid), what its cells take
    (``text``, ``name`` (non-empty text), ``key``, ``count`` (whole ≥ 1), ``number`` (whole ≥ 0),
    ``bool``, ``choice`` of ``choices``, ``optional`` (empty: null), ``params``) and its width."""

    field: str
    header: str
    kind: str
    width: int
    choices: tuple = ()


ACTIVE_COLUMNS = (
    Column("key", N_("key"), "key", 12),
    Column("name", N_("name"), "name", 14),
    Column("va", N_("free time VA"), "count", 10),
    Column("bo", N_("burn-out limit BO"), "count", 10),
    Column("ability", N_("ability (rule)"), "choice_or_none", 14, ABILITIES),
    Column("ability_name", N_("ability's name"), "optional", 22),
    Column("text", N_("text (Finnish, as printed)"), "text", 50),
    Column("text_en", N_("text in English"), "text", 50),
)

CARD_COLUMNS = (
    Column("key", N_("key"), "key", 22),
    Column("name", N_("name"), "name", 22),
    Column("gloss", N_("in English"), "text", 22),
    Column("count", N_("count"), "count", 8),
    Column("type", N_("card type"), "choice", 10, CARD_TYPES),
    Column("subtype", N_("subtype"), "choice_or_none", 11, HOBBY_SUBTYPES),
    Column("work", N_("work"), "bool", 7),
    Column("influence", N_("influence"), "number", 9),
    Column("permanent_anxiety", N_("permanent anxiety"), "number", 10),
    Column("reaction", N_("reaction"), "bool", 9),
    Column("no_money_immune", N_("immune to Ei rahaa"), "bool", 10),
    Column("effect", N_("effect"), "choice_or_none", 22, tuple(EFFECTS)),
    Column("params", N_("parameters"), "params", 34),
    Column("text", N_("text (Finnish, as printed)"), "text", 50),
    Column("text_en", N_("text in English"), "text", 50),
)

#: the deck's settings at the top of the instructions sheet: (field, label msgid, hint msgid)
SETTINGS = (
    ("id", N_("Deck code"),
     N_("the key the deck is stored under; a changed deck under the same code is a new version")),
    ("title", N_("Deck title"), N_("the name hosts and organizers see")),
    ("source", N_("Source"), N_("where the deck comes from (free text)")),
)
SETTINGS_FIRST_ROW = 3

SHEETS = (("instructions", N_("Instructions")), ("actives", N_("Actives")), ("cards", N_("Cards")))
SHEET_MSGID = dict(SHEETS)
COLUMNS = {"actives": ACTIVE_COLUMNS, "cards": CARD_COLUMNS}
ITEM_SHEET = {"active": "actives", "card": "cards"}

YES = {"yes", "y", "true", "1", "x", "kyllä", "k", "да", "д", "tosi"}
NO = {"no", "n", "false", "0", "ei", "нет", "н", "epätosi"}
#: words a cell may hold for a choice (any language the app speaks), by key
TYPE_WORDS = {"event": N_("event card"), "hobby": N_("hobby"), "chore": N_("chore")}
SUBTYPE_WORDS = {"campaign": N_("campaign"), "athletic": N_("athletic"), "dating": N_("dating"), "other": N_("other")}

#: the most a deck's workbook may be (and unpack to): the 3rd-edition deck's is about 20 kB
MAX_UNPACKED = 5 * 1024 * 1024
#: the most files a workbook may hold (a deck's holds about 12)
MAX_PARTS = 200
#: the most rows of each sheet (a deck has 9 actives and 30 cards), counted before openpyxl reads it
MAX_ROWS = {"instructions": 300, "actives": 300, "cards": 2_000}
#: the most cells of one sheet of the deck
MAX_CELLS = 50_000
#: columns read in each sheet
MAX_COLUMNS = 60
BUDGET = WorkbookBudget(MAX_UNPACKED, MAX_PARTS, MAX_ROWS, MAX_CELLS, MAX_COLUMNS)


def _every_locale(msgid):
    return deck_workbook.in_every_locale(msgid, LOCALES)


def _sheet_key(title):
    return deck_workbook.sheet_key_of(title, SHEETS, LOCALES)


# ----- writing -------------------------------------------------------------------------------
def template_workbook():
    """The organizer's template: the 3rd-edition deck as the worked example, with instructions."""
    return pack_to_workbook(read_pack(default_pack_data()))


def _params_text(params):
    """A card's ``params`` as typed in a cell: ``gain=2; loss=1``, lists comma-separated."""
    parts = []
    for name, value in params.items():
        parts.append(f"{name}={','.join(value) if isinstance(value, list) else value}")
    return "; ".join(parts)


def _yes(value):
    return _("yes") if value else _("no")


def _cell_value(column, value):
    if column.kind == "bool":
        return _yes(value)
    if column.kind == "params":
        return _params_text(value) or None
    if column.field == "type":
        return _(TYPE_WORDS[value])
    if column.field == "subtype":
        return _(SUBTYPE_WORDS[value]) if value else None
    if value is None or value == "":
        return None
    return value


def pack_to_workbook(pack):
    """The deck as .xlsx bytes in the template's layout, in the current locale."""
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Font, PatternFill
    from openpyxl.worksheet.datavalidation import DataValidation

    wb = Workbook()
    bold = Font(bold=True)
    fill = PatternFill("solid", start_color="E8DDF0", end_color="E8DDF0")
    wrap = Alignment(wrap_text=True, vertical="top")
    ws = wb.active
    ws.title = _("Instructions")
    ws.column_dimensions["A"].width = 22
    ws.column_dimensions["B"].width = 60
    ws.column_dimensions["C"].width = 70
    _put(ws, 1, 1, _("Alter Ego deck (alterego-pack/1)")).font = Font(bold=True, size=14)
    data = pack.to_dict()
    for i, (field_name, label, hint) in enumerate(SETTINGS):
        row = SETTINGS_FIRST_ROW + i
        _put(ws, row, 1, _(label)).font = bold
        _put(ws, row, 2, data.get(field_name))
        _put(ws, row, 3, _(hint)).alignment = wrap
    row = SETTINGS_FIRST_ROW + len(SETTINGS) + 1
    for line in _instructions():
        cell = _put(ws, row, 1, line)
        cell.alignment = Alignment(wrap_text=False, vertical="top")
        row += 1
    for key, columns, items in (("actives", ACTIVE_COLUMNS, data["actives"]), ("cards", CARD_COLUMNS, data["cards"])):
        sheet = wb.create_sheet(_(SHEET_MSGID[key]))
        for col, column in enumerate(columns, start=1):
            cell = _put(sheet, 1, col, _(column.header))
            cell.font = bold
            cell.fill = fill
            cell.alignment = Alignment(wrap_text=True, vertical="center")
            sheet.column_dimensions[_column_letter(col)].width = column.width
        for r, item in enumerate(items, start=2):
            for col, column in enumerate(columns, start=1):
                _put(sheet, r, col, _cell_value(column, item.get(column.field)))
        sheet.freeze_panes = "B2"
        last = max(len(items) + 200, 300)
        for col, column in enumerate(columns, start=1):
            words = None
            if column.kind == "bool":
                words = [_("yes"), _("no")]
            elif column.field == "type":
                words = [_(TYPE_WORDS[k]) for k in CARD_TYPES]
            elif column.field == "subtype":
                words = [_(SUBTYPE_WORDS[k]) for k in HOBBY_SUBTYPES]
            if words:
                check = DataValidation(type="list", formula1='"' + ",".join(words) + '"', allow_blank=True)
                check.add(f"{_column_letter(col)}2:{_column_letter(col)}{last}")
                sheet.add_data_validation(check)
            elif column.kind in ("count", "number"):
                check = DataValidation(type="whole", operator="greaterThanOrEqual",
                                       formula1="1" if column.kind == "count" else "0", allow_blank=True)
                check.add(f"{_column_letter(col)}2:{_column_letter(col)}{last}")
                sheet.add_data_validation(check)
    buf = BytesIO()
    wb.save(buf)
    return buf.getvalue()


def _put(ws, row, col, value):
    """Write a value with the app's one safe cell writer: a text stays a text, never a formula."""
    from facilitator.reports.cells import put
    return put(ws, row, col, value)


def _instructions():
    effects = "; ".join(f"{name}" + (f" ({', '.join(params)})" if params else "")
                        for name, (_t, _s, params) in EFFECTS.items())
    return [
        _("How to fill in the deck"),
        _("Change the rows of the sheets «{actives}» and «{cards}»: one row per active or card; keep the header row.",
          actives=_(SHEET_MSGID["actives"]), cards=_(SHEET_MSGID["cards"])),
        _("key: lower-case ASCII letters, digits and _ (active keys), unique; the rules act on a card's effect and "
          "flags, never on its key, so cards may be renamed freely."),
        _("count: how many copies the deck holds, a whole number of 1 or more; VA and BO: whole numbers of 1 or more; "
          "influence and permanent anxiety: whole numbers of 0 or more (0 for events)."),
        _("type: {types}; subtype (hobbies only): {subtypes}; yes/no columns: {yes} or {no}.",
          types=", ".join(_(w) for w in TYPE_WORDS.values()), subtypes=", ".join(_(w) for w in SUBTYPE_WORDS.values()),
          yes=_("yes"), no=_("no")),
        _("ability: one of {abilities}, or empty for none.", abilities=", ".join(ABILITIES)),
        _("effect and its parameters (name=number; separated by semicolons; cancels lists hobby keys separated by "
          "commas): {effects}.", effects=effects),
        _("Exactly one card has the effect sekoita_pakka (the season card), with count 1; a deck has at least 6 "
          "actives."),
        _("A deck with any problem is refused as a whole: every problem is listed by its cell, nothing is stored."),
    ]


# ----- the workbook budget -------------------------------------------------------------------
def check_workbook_file(data):
    """Refuse, before openpyxl reads anything, a file beyond a deck's ``BUDGET`` (the file, its
    unpacked size, its parts, each sheet's rows and cells, well-formed XML without a DTD:
    ``content.workbook.check_workbook_file``). Raises ``PackImportError``."""
    deck_workbook.check_workbook_file(data, BUDGET, _sheet_key)


# ----- reading -------------------------------------------------------------------------------
def load_pack_bytes(body, filename):
    """A deck from an upload: ``.xlsx`` (the template) or ``.json`` (`alterego-pack/1`)."""
    name = (filename or "").lower()
    if name.endswith(".xlsx"):
        return workbook_to_pack(body)
    if name.endswith(".json"):
        return json_to_pack(body)
    raise _refusal("", "not_a_deck_file", _("a deck is an Excel workbook (.xlsx) or an alterego-pack/1 file (.json)"))


def problem_message(problem):
    """An engine pack problem in the current locale."""
    return _(problem.template, **problem.params)


def json_to_pack(body):
    """A deck from `alterego-pack/1` JSON; every problem named by its item and field."""
    try:
        data = safe_loads(body, what="JSON", max_bytes=MAX_UNPACKED)
    except JSONInputError as err:
        from facilitator.i18n import describe_error
        raise _refusal("", "not_json", _("not an alterego-pack/1 file: {error}", error=describe_error(err))) from None
    pack, problems = pack_problems(data)
    if problems:
        raise PackImportError([ImportProblem(_where(p), problem_message(p), p.key, dict(p.params), item=p.item,
                                             index=p.index, code=p.code, field=p.field) for p in problems])
    return pack


def _where(p):
    item = {"active": _("active"), "card": _("card"), "pack": _("deck")}.get(p.item, p.item)
    label = p.code if p.code else (f"#{p.index + 1}" if p.index is not None else "")
    head = f"{item} {label}".strip()
    return f"{head}: {p.field}" if p.field else head


class _Reader:
    def __init__(self, sheets):
        self.sheets = sheets  # key -> (title, rows)
        self.problems = []  # (order, ImportProblem)
        self.places = {"active": [], "card": []}  # per item read: (row, {field: column})
        self.settings_rows = {}
        self.tainted = set()
        self.structural = False  # a sheet, column or setting missing: the rules cannot be judged

    def problem(self, sheet_key, row, col, message, key, params=None):
        if key in ("missing_sheet", "missing_column", "missing_setting"):
            self.structural = True
        title = self.sheets[sheet_key].title if sheet_key in self.sheets else _(SHEET_MSGID[sheet_key])
        order = (list(SHEET_MSGID).index(sheet_key), row or 0, col or 0)
        self.problems.append((order, cell_problem(title, message, key, params, row, (col,) if row and col else ())))

    def read(self):
        for key in ("actives", "cards"):
            if key not in self.sheets:
                self.problem(key, None, None, _("the sheet «{sheet}» is missing", sheet=_(SHEET_MSGID[key])),
                             "missing_sheet")
        data = {"format": PACK_FORMAT, "ruleset": RULESET}
        data.update(self._settings())
        data["actives"] = self._items("actives", "active")
        data["cards"] = self._items("cards", "card")
        if not self.structural:  # the engine judges every rule, but not a value already refused at its cell
            _pack, problems = pack_problems(data)
            for p in problems:
                self._locate(p)
        if self.problems:
            raise PackImportError([p for _o, p in sorted(self.problems, key=lambda x: x[0])])
        return read_pack(data)

    def _settings(self):
        out = {}
        if "instructions" not in self.sheets:
            self.problem("instructions", None, None, _("the sheet «{sheet}» is missing",
                                                       sheet=_(SHEET_MSGID["instructions"])), "missing_sheet")
            return out
        rows = self.sheets["instructions"].rows
        labels = {field_name: _every_locale(label) | {field_name} for field_name, label, _hint in SETTINGS}
        for r, values in enumerate(rows[:60], start=1):
            if not values or values[0] is None:
                continue
            name = normalize(values[0])
            for field_name, words in labels.items():
                if name in words and field_name not in out:
                    value = values[1] if len(values) > 1 else None
                    out[field_name] = "" if value is None else str(value).strip()
                    self.settings_rows[field_name] = r
        for field_name, label, _hint in SETTINGS:
            if field_name not in out:
                self.problem("instructions", None, None, _("the setting «{label}» is missing", label=_(label)),
                             "missing_setting")
        return out

    def _columns(self, sheet_key):
        words = {}
        for column in reversed(COLUMNS[sheet_key]):  # a header two columns take is the first's
            words.update({word: column.field for word in _every_locale(column.header) | {column.field}})
        found = deck_workbook.read_header(self.sheets[sheet_key], words).columns
        for column in COLUMNS[sheet_key]:
            if column.field not in found:
                self.problem(sheet_key, 1, None, _("the column «{column}» is missing", column=_(column.header)),
                             "missing_column")
        return found

    def _items(self, sheet_key, item):
        if sheet_key not in self.sheets:
            return []
        cols = self._columns(sheet_key)
        if len(cols) < len(COLUMNS[sheet_key]):
            return []
        items = []
        for r, values in enumerate(self.sheets[sheet_key].rows[1:], start=2):
            if not any(v is not None and str(v).strip() for v in values):
                continue
            out = {}
            for column in COLUMNS[sheet_key]:
                col = cols[column.field]
                raw = values[col - 1] if col - 1 < len(values) else None
                out[column.field] = self._value(sheet_key, r, col, column, raw)
            items.append(out)
            self.places[item].append((r, cols))
        return items

    def _value(self, sheet_key, r, col, column, raw):
        text = "" if raw is None else (str(raw).strip() if not isinstance(raw, float) else raw)
        label = _(column.header)
        kind = column.kind
        if kind in ("count", "number"):
            minimum = 1 if kind == "count" else 0
            value = raw
            if isinstance(raw, float) and raw.is_integer():
                value = int(raw)
            elif isinstance(raw, str) and re.fullmatch(r"[+-]?\d{1,9}", raw.strip()):
                value = int(raw.strip())
            if raw is None or isinstance(raw, str) and not raw.strip():
                value = 0 if kind == "number" else None
            if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
                self.problem(sheet_key, r, col, _("{column} must be a whole number ≥ {minimum}", column=label,
                                                  minimum=minimum), "not_whole_number", {"minimum": minimum})
                self.tainted.add((sheet_key, r, column.field))
                return minimum
            return value
        if kind == "bool":
            word = normalize(text) if text != "" else ""
            if word in YES or word in _every_locale("yes"):
                return True
            if word in NO or word in _every_locale("no") or word == "":
                return False
            self.problem(sheet_key, r, col, _("{column} must be {yes} or {no}", column=label, yes=_("yes"), no=_("no")),
                         "not_yes_no")
            self.tainted.add((sheet_key, r, column.field))
            return False
        if kind in ("choice", "choice_or_none"):
            if text == "":
                return None
            word = normalize(text)
            words = TYPE_WORDS if column.field == "type" else SUBTYPE_WORDS if column.field == "subtype" else {}
            for key in column.choices:
                if word == key or (key in words and word in _every_locale(words[key])):
                    return key
            return text  # the engine names the allowed values
        if kind == "params":
            return self._params(sheet_key, r, col, text)
        if kind == "optional":
            return text or None
        if kind == "key":
            return text if text != "" else ""
        return "" if raw is None else str(raw)

    def _params(self, sheet_key, r, col, text):
        if text == "":
            return {}
        if isinstance(text, str) and text.startswith("{"):
            try:
                value = json.loads(text)
            except ValueError:
                value = None
            if isinstance(value, dict):
                return value
        out = {}
        for part in str(text).split(";"):
            if not part.strip():
                continue
            name, eq, value = part.partition("=")
            name, value = name.strip(), value.strip()
            if not eq or not name:
                self.problem(sheet_key, r, col, _("parameters are written name=number; separated by semicolons, "
                                                  "not {text!r}", text=part.strip()), "bad_params")
                self.tainted.add((sheet_key, r, "params"))
                return {}
            if name == "cancels":
                out[name] = [v.strip() for v in value.split(",") if v.strip()]
            elif re.fullmatch(r"\d{1,9}", value):
                out[name] = int(value)
            else:
                out[name] = value
        return out

    def _locate(self, p):
        """An engine problem at its cell: an active's or card's field, or a setting."""
        message = problem_message(p)
        if p.item in ("active", "card") and p.index is not None and p.index < len(self.places[p.item]):
            sheet_key = ITEM_SHEET[p.item]
            row, cols = self.places[p.item][p.index]
            field_name = (p.field or "").split(".")[0]
            col = cols.get(field_name)
            if (sheet_key, row, field_name) in self.tainted:
                return
            column = next((c for c in COLUMNS[sheet_key] if c.field == field_name), None)
            if column is not None:
                message = f"{_(column.header)}: {message}"
            self.problem(sheet_key, row, col, message, p.key, dict(p.params))
            return
        if p.item == "pack" and p.field in self.settings_rows:
            label = next(label for name, label, _hint in SETTINGS if name == p.field)
            self.problem("instructions", self.settings_rows[p.field], 2, f"{_(label)}: {message}", p.key,
                         dict(p.params))
            return
        sheet_key = {"actives": "actives", "cards": "cards"}.get(p.field, "instructions")
        self.problem(sheet_key, None, None, message, p.key, dict(p.params))


def workbook_to_pack(data):
    """An Alter Ego ``Pack`` from .xlsx bytes (or a binary file); raises ``PackImportError``
    listing every problem by its cell, in the current locale. The workbook budget is checked
    before openpyxl reads anything; openpyxl then streams only the deck's sheets."""
    sheets = {}
    for sheet in deck_workbook.read_sheets(data, BUDGET, _sheet_key):
        sheets.setdefault(sheet.key, sheet)  # the first sheet of each name is the deck's
    return _Reader(sheets).read()
