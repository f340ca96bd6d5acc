"""Content packs as Excel workbooks: the organizer's template, export and import.

The workbook has four sheets: «Инструкция» (the pack's settings at the top, then how to fill
in the rest), «Персонажи», «Карты» and «Уровни», one row per character, card or level, with
headers in the current locale (Russian by default), drop-down lists for era and colour and
one column per skill for conditions, losses and gains. Columns are found by their header, so
they may be reordered; extra columns are not read.

``workbook_to_pack`` refuses a workbook as a whole, raising ``PackImportError`` with every
problem located by sheet, row and column (``Карты!K14: жёлтая карта должна стоить ровно 1
SP, указано 2``). It checks what only a spreadsheet can get wrong (text where a number
belongs, an unknown era or colour label, a missing column) cell by cell, then hands the pack
to the rules engine's ``pack_problems`` for every rule of RULES.md 1 and maps each problem
back to its cell. ``pack_to_workbook`` writes the same layout, so
``workbook_to_pack(pack_to_workbook(pack)) == pack``.
"""

import math
import re
from dataclasses import dataclass, field
from io import BytesIO

from openpyxl import Workbook
from openpyxl.formatting.rule import FormulaRule
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation

from facilitator.content import workbook as deck_workbook
from facilitator.content.workbook import WorkbookBudget, blank as _blank, cell_problem, cell_text as _text, normalize
from facilitator.i18n import LOCALES, gettext, skill_name
from facilitator.reports.cells import put as put_cell
from facilitator.rules.lyceum import ERA_KEYS, PACK_FORMAT, SKILLS, pack_problems, read_pack
from facilitator.rules.lyceum.cards import COLOR_RULES, COLOR_XP, COLORS
from facilitator.rules.lyceum.fields import MAX_SP, MAX_XP, shown
from facilitator.rules.lyceum.ruleset import sample_pack
from facilitator.games.lyceum.importing import (IMPORT_TEMPLATES, PackImportError, color_name, era_name, json_to_pack,
                        problem_message, problem_text)

__all__ = ["template_workbook", "pack_to_workbook", "workbook_to_pack", "json_to_pack",
           "PackImportError", "XLSX_MIME"]

XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

#: rows that keep the drop-down lists and number checks beyond the last filled row
SPARE_ROWS = 500
#: a stand-in for a missing code or title while the rules engine checks the rest of the row
_PLACEHOLDER = "\ue000"


# ----- the layout ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Column:
    """One column of a sheet: the pack field it holds, its header and what its cells take.

    ``kind``: ``text`` (required), ``optional_text``, ``era``, ``color``, ``count`` (a whole
    number, 0 or more, empty = 0), ``positive`` (empty, or a whole number of at least 1) or
    ``info`` (written for the reader, not read back)."""

    field: str
    header: str  # the English msgid, or a skill-group msgid when ``skill`` is set
    kind: str
    width: int
    skill: str | None = None
    required: bool = True

    def label(self):
        """The header in the current locale."""
        if self.skill and self.header:
            return f"{gettext(self.header)}: {skill_name(self.skill)}"
        if self.skill:
            return skill_name(self.skill).capitalize()
        return gettext(self.header)


GROUPS = (("conditions", "Conditions"), ("losses", "Losses"), ("gains", "Gains"))

CHARACTER_COLUMNS = (
    Column("code", "Character code", "text", 10),
    Column("name", "Character name", "text", 16),
    Column("direction", "Lyceum direction", "optional_text", 30),
    *(Column(f"skills.{s}", "", "count", 14, skill=s) for s in SKILLS),
)

CARD_COLUMNS = (
    Column("code", "Card code", "text", 10),
    Column("era", "Era", "era", 17),
    Column("color", "Colour", "color", 11),
    Column("title", "Card title", "text", 30),
    Column("text", "Card text", "optional_text", 50),
    *(Column(f"{group}.{s}", msgid, "count", 13, skill=s) for group, msgid in GROUPS for s in SKILLS),
    Column("free", "Free SP", "count", 11),
    Column("special.text", "Special", "optional_text", 40),
    Column("special.redistribute", "Special: redistribute up to (SP)", "positive", 18),
)

LEVEL_COLUMNS = (
    Column("level", "Level", "info", 10, required=False),
    Column("xp", "XP at which the level begins", "count", 24),
)

#: the pack's settings, at the top of the instructions sheet: (field, label msgid, hint msgid)
SETTINGS = (
    ("id", "Pack code",
     "the key the deck is stored under; importing a changed deck under the same code adds a new version"),
    ("title", "Pack title", "the name hosts see when they choose a deck"),
    ("description", "Pack description", "optional"),
    ("skill_max", "Skill maximum", "empty: no limit; otherwise no skill may go above this number"),
)
SETTINGS_FIRST_ROW = 4

SHEETS = (("instructions", "Instructions"), ("characters", "Characters"), ("cards", "Cards"),
          ("levels", "Levels"))
SHEET_MSGID = dict(SHEETS)
COLUMNS = {"characters": CHARACTER_COLUMNS, "cards": CARD_COLUMNS, "levels": LEVEL_COLUMNS}
SHEET_OF_ITEM = {"character": "characters", "card": "cards", "levels": "levels", "pack": "instructions"}

ERA_ALIASES = {"lyceum": ("лицей",), "university": ("универ", "университет"),
               "adult": ("взрослая жизнь", "взрослая")}
COLOR_ALIASES = {"green": ("зелёная", "зелёный"), "yellow": ("жёлтая", "жёлтый"),
                 "red": ("красная", "красный")}
COLOR_FILLS = {"green": "E2F0D9", "yellow": "FFF2CC", "red": "F8D7DA"}

HEADER_FONT = Font(bold=True)
HEADER_FILL = PatternFill("solid", start_color="D9E1F2", end_color="D9E1F2")
HEADER_ALIGN = Alignment(wrap_text=True, vertical="center", horizontal="center")
TEXT_ALIGN = Alignment(wrap_text=True, vertical="top")


def _in_every_locale(fn):
    """``fn()`` in each supported locale, normalized (for reading either language back)."""
    return deck_workbook.in_every_locale(fn, LOCALES)


# ----- writing -------------------------------------------------------------------------------
def template_workbook():
    """The organizer's template: the sample pack's rows as the worked example, to overwrite."""
    data = sample_pack().to_dict()
    data.update(id="my-deck", title=gettext("My deck"))
    data.pop("description", None)
    return pack_to_workbook(read_pack(data))


def pack_to_workbook(pack):
    """The pack as an .xlsx workbook (bytes) in the template's layout."""
    wb = Workbook()
    _write_instructions(wb.active, pack)
    _write_sheet(wb.create_sheet(gettext("Characters")), CHARACTER_COLUMNS,
                 [_character_cells(c) for c in pack.characters], freeze="B2")
    cards = wb.create_sheet(gettext("Cards"))
    _write_sheet(cards, CARD_COLUMNS, [_card_cells(c) for c in pack.cards], freeze="B2")
    _colour_rows(cards, len(pack.cards))
    _write_sheet(wb.create_sheet(gettext("Levels")), LEVEL_COLUMNS,
                 [{"level": i + 1, "xp": xp} for i, xp in enumerate(pack.levels)], freeze="A2")
    buf = BytesIO()
    wb.save(buf)
    return buf.getvalue()


def _character_cells(char):
    cells = {"code": char.code, "name": char.name, "direction": char.direction or None}
    cells.update({f"skills.{s}": char.skills.get(s, 0) for s in SKILLS})
    return cells


def _card_cells(card):
    cells = {"code": card.code, "era": era_name(card.era), "color": color_name(card.color),
             "title": card.title, "text": card.text or None, "free": card.free or None}
    for group, _ in GROUPS:
        for s, amount in getattr(card, group).items():
            cells[f"{group}.{s}"] = amount or None
    if card.special is not None:
        cells["special.text"] = card.special.text or None
        cells["special.redistribute"] = card.special.redistribute
    return cells


def _put(ws, row, col, value):
    """Write a value with the app's one safe cell writer (``reports.cells.put``): a text that
    starts with ``= + - @`` stays a text, never a formula; control characters a workbook cannot
    hold (all but tab and newline) are left out."""
    return put_cell(ws, row, col, value)


def _write_sheet(ws, columns, rows, freeze):
    for i, col in enumerate(columns, start=1):
        cell = _put(ws, 1, i, col.label())
        cell.font, cell.fill, cell.alignment = HEADER_FONT, HEADER_FILL, HEADER_ALIGN
        ws.column_dimensions[get_column_letter(i)].width = col.width
    ws.row_dimensions[1].height = 32
    for r, cells in enumerate(rows, start=2):
        for i, col in enumerate(columns, start=1):
            cell = _put(ws, r, i, cells.get(col.field))
            if col.kind == "optional_text" or col.field == "title":
                cell.alignment = TEXT_ALIGN
    ws.freeze_panes = freeze
    last = len(rows) + 1 + SPARE_ROWS
    for i, col in enumerate(columns, start=1):
        ref = f"{get_column_letter(i)}2:{get_column_letter(i)}{last}"
        if col.kind == "era":
            _list_check(ws, ref, [era_name(k) for k in ERA_KEYS], gettext("Pick an era from the list."))
        elif col.kind == "color":
            _list_check(ws, ref, [color_name(k) for k in COLORS], gettext("Pick a colour from the list."))
        elif col.kind in ("count", "positive"):
            low = 0 if col.kind == "count" else 1
            check = DataValidation(type="whole", operator="greaterThanOrEqual", formula1=str(low),
                                   allow_blank=True, showErrorMessage=True, errorStyle="warning",
                                   error=gettext("Enter a whole number, {low} or more.", low=low))
            check.add(ref)
            ws.add_data_validation(check)
    ws.auto_filter.ref = f"A1:{get_column_letter(len(columns))}{len(rows) + 1}"


def _list_check(ws, ref, labels, error):
    check = DataValidation(type="list", formula1='"' + ",".join(labels) + '"', allow_blank=True,
                           showErrorMessage=True, error=error)
    check.add(ref)
    ws.add_data_validation(check)


def _colour_rows(ws, count):
    """Tint each card row by its colour, so a deck reads at a glance."""
    col = get_column_letter(1 + [c.field for c in CARD_COLUMNS].index("color"))
    ref = f"A2:{get_column_letter(len(CARD_COLUMNS))}{count + 1 + SPARE_ROWS}"
    for color in COLORS:
        words = sorted({color_name(color), color})
        formula = "OR(" + ",".join(f'${col}2="{w}"' for w in words) + ")"
        fill = PatternFill("solid", start_color=COLOR_FILLS[color], end_color=COLOR_FILLS[color],
                           bgColor=COLOR_FILLS[color])
        ws.conditional_formatting.add(ref, FormulaRule(formula=[formula], fill=fill))


def _write_instructions(ws, pack):
    ws.title = gettext("Instructions")
    ws.column_dimensions["A"].width = 28
    ws.column_dimensions["B"].width = 60
    ws.column_dimensions["C"].width = 70
    title = _put(ws, 1, 1, gettext("«16/25»: a content pack for the host's assistant"))
    title.font = Font(bold=True, size=14)
    _put(ws, SETTINGS_FIRST_ROW - 1, 1, gettext("Pack settings")).font = HEADER_FONT
    values = {"id": pack.id, "title": pack.title, "description": pack.description or None,
              "skill_max": pack.skill_max}
    for r, (key, label, hint) in enumerate(SETTINGS, start=SETTINGS_FIRST_ROW):
        head = _put(ws, r, 1, gettext(label))
        head.font, head.fill = HEADER_FONT, HEADER_FILL
        _put(ws, r, 2, values[key]).alignment = TEXT_ALIGN
        _put(ws, r, 3, gettext(hint)).alignment = TEXT_ALIGN
    row = SETTINGS_FIRST_ROW + len(SETTINGS) + 1
    _put(ws, row, 1, gettext("How to fill in the workbook")).font = HEADER_FONT
    for topic, text in _instructions():
        row += 1
        _put(ws, row, 1, topic).font = HEADER_FONT
        ws.cell(row=row, column=1).alignment = TEXT_ALIGN
        ws.merge_cells(start_row=row, start_column=2, end_row=row, end_column=3)
        _put(ws, row, 2, text).alignment = TEXT_ALIGN
        ws.row_dimensions[row].height = 15 * max(2, len(text) // 95 + 1)


def _instructions():
    """The instructions sheet's text, as (topic, text) rows in the current locale."""
    names = {key: gettext(msgid) for key, msgid in SHEETS}
    column = {c.field: c.label() for c in CARD_COLUMNS}
    def amount(low, high):
        return gettext("exactly {n}", n=low) if low == high else f"{low}–{high}"

    rules = "; ".join(
        gettext("{color}: {xp} XP, gains + free SP {gains}, losses {losses}, {special}",
                color=color_name(c), xp=COLOR_XP[c], gains=amount(g_min, g_max), losses=amount(l_min, l_max),
                special=gettext("special ability allowed") if special else gettext("no special ability"))
        for c, (g_min, g_max, l_min, l_max, special) in COLOR_RULES.items())
    return [
        (gettext("Pack settings"), gettext(
            "Fill in the pack settings above: the pack code and title are required. The code is the "
            "deck's key in the library: importing a changed deck under the same code stores a new "
            "version, and games keep replaying with the version they started with.")),
        (gettext("Sheets of the workbook"), gettext(
            "The sheets «{characters}», «{cards}» and «{levels}» hold the deck, one row per character, "
            "card or level. They come filled with the sample deck as a worked example: overwrite its "
            "rows with your deck and delete the rows you do not need. Empty rows are skipped.",
            characters=names["characters"], cards=names["cards"], levels=names["levels"])),
        (gettext("Columns of the sheets"), gettext(
            "Do not rename or delete the columns; you may reorder them. Columns you add are not read, "
            "so you may keep notes in them.")),
        (names["characters"], gettext(
            "A unique code (C01), the name, the Lyceum direction and the base value of every skill "
            "(whole numbers, 0 or more).")),
        (names["cards"], gettext(
            "The code printed on the card, unique in the deck (L-G-01): the host finds a drawn card by "
            "it. Pick the era and the colour from the lists. «{conditions}»: the least SP a player must "
            "have; «{losses}»: SP spent when the card is played; «{gains}»: SP added; «{free}»: SP of the "
            "player's choice. Empty cells count as 0.",
            conditions=gettext("Conditions"), losses=gettext("Losses"), gains=gettext("Gains"),
            free=column["free"])),
        (gettext("Colour rules"), rules + "."),
        (column["special.text"], gettext(
            "Red cards only. Write what the ability does. If it lets the player redistribute SP, put "
            "the number of SP in «{redistribute}»: the app then offers the redistribution. Any other "
            "effect the host applies by hand.", redistribute=column["special.redistribute"])),
        (names["levels"], gettext(
            "One row per level, from level 1: the XP at which the level begins. Level 1 begins at 0 "
            "and every next threshold must be higher. The «{level}» column is for reading only: levels "
            "are numbered by the order of the rows.", level=LEVEL_COLUMNS[0].label())),
        (gettext("Importing the workbook"), gettext(
            "Run «facilitator pack import FILE.xlsx» or upload the workbook in the app. A deck with any "
            "problem is refused as a whole, and every problem is listed with its sheet, row and column, "
            "for example «{example}».",
            example=f"{names['cards']}!K14: " + problem_text(
                IMPORT_TEMPLATES["losses_exact"], {"color": "yellow", "need": 1, "got": 2}))),
    ]


# ----- reading -------------------------------------------------------------------------------
def workbook_to_pack(data, pack_id=None, title=None):
    """A ``ContentPack`` from .xlsx bytes (or a binary file); raises ``PackImportError`` listing
    every problem by sheet, row and column. ``pack_id``/``title``, when given, replace the
    workbook's settings.

    The file is read within the workbook budget (``MAX_UNPACKED`` and the limits below it):
    what is beyond any real deck is refused before openpyxl parses anything, and openpyxl then
    streams only the sheets of the deck (``read_only``), stopping past their row limits."""
    return _WorkbookReader(_Book(deck_workbook.read_sheets(data, BUDGET, _sheet_key))).read(pack_id, title)


# ----- the workbook budget -------------------------------------------------------------------
#: The most a workbook may unpack to (and the most an upload may be). A deck at every limit of
#: the pack format (2,000 cards with long texts) unpacks to under 10 MB; a 418 kB upload that
#: inflated to 400 MB once took 881 MB of memory to read.
MAX_UNPACKED = 20 * 1024 * 1024
#: The most files a workbook may hold (a deck's workbook holds about 12).
MAX_PARTS = 1_000
#: The most rows each sheet of a deck may have, counted before openpyxl reads it (its declared
#: ``<dimension>`` and its ``<row>`` elements) and again while openpyxl streams it: far more than
#: any deck (``MAX_CARDS`` cards, ``MAX_CHARACTERS`` characters, ``MAX_LEVELS`` levels, with
#: empty rows between). A 100,000-row sheet once kept a worker busy for five minutes.
MAX_ROWS = {"instructions": 500, "characters": 500, "cards": 5_000, "levels": 500}
#: The most filled cells a sheet of a deck may have (a full deck has about 2,000 x 23).
MAX_CELLS = 200_000
#: Columns read in each sheet (a deck uses 23; the organizer's notes beyond are not read).
MAX_COLUMNS = 200

BUDGET = WorkbookBudget(MAX_UNPACKED, MAX_PARTS, MAX_ROWS, MAX_CELLS, MAX_COLUMNS)

#: digits of the longest number a cell may hold before it is refused without being converted
_LONGEST = 15


def _sheet_key(title):
    """Which sheet of a deck a sheet title names (either language, or the key), else None."""
    return deck_workbook.sheet_key_of(title, SHEETS, LOCALES)


def check_workbook_file(data):
    """Refuse, before openpyxl parses anything, a file that is not an .xlsx or is beyond any
    deck (``BUDGET``: ``content.workbook.check_workbook_file``). Returns ``{sheet title: row
    limit}`` of the deck's sheets; raises ``PackImportError``."""
    return deck_workbook.check_workbook_file(data, BUDGET, _sheet_key)


@dataclass
class _Book:
    worksheets: list  # the deck's sheets as read (``content.workbook.Sheet``)


@dataclass
class _Row:
    """Where one item came from: its sheet row, and the column of each field."""

    row: int
    cols: dict
    filled: set = field(default_factory=set)  # fields whose cell is not empty


class _WorkbookReader:
    def __init__(self, wb):
        self.wb = wb
        self.problems = []  # (sort key, ImportProblem)
        self.tainted = set()  # (item, index, field) the rules engine must not judge again
        self.sheets = {}
        self.rows = {"character": [], "card": [], "levels": []}
        self.settings_rows = {}
        self.labels = {
            "era": self._aliases(ERA_KEYS, era_name, ERA_ALIASES),
            "color": self._aliases(COLORS, color_name, COLOR_ALIASES),
        }

    @staticmethod
    def _aliases(keys, name, extra):
        out = {}
        for key in keys:
            for word in _in_every_locale(lambda: name(key)) | {normalize(key)} | {normalize(w) for w in extra[key]}:
                out[word] = key
        return out

    # -- problems --
    def problem(self, sheet_key, message, key, params=None, row=None, cols=(), pack_problem=None):
        ws = self.sheets.get(sheet_key)
        sheet = ws.title if ws is not None else gettext(SHEET_MSGID[sheet_key])
        extra = {}
        if pack_problem is not None:
            extra = {"item": pack_problem.item, "index": pack_problem.index, "code": pack_problem.code,
                     "field": pack_problem.field}
        order = ([k for k, _ in SHEETS].index(sheet_key), row or 0, min(cols) if cols else 0)
        self.problems.append((order, cell_problem(sheet, message, key, params, row, cols, **extra)))

    # -- the whole workbook --
    def read(self, pack_id, title):
        by_name = {normalize(ws.title): ws for ws in self.wb.worksheets}
        for key, msgid in SHEETS:
            names = _in_every_locale(lambda: gettext(msgid)) | {key}
            self.sheets[key] = next((by_name[n] for n in names if n in by_name), None)
        settings = self._read_settings(pack_id, title)
        data = {"format": PACK_FORMAT, **settings,
                "characters": self._read_items("characters", "character", self._character),
                "cards": self._read_items("cards", "card", self._card),
                "levels": self._read_levels()}
        pack, problems = pack_problems(data)
        for p in problems:
            if not self._is_tainted(p):
                self._locate(p)
        if self.problems:
            self.problems.sort(key=lambda t: t[0])
            raise PackImportError([p for _, p in self.problems])
        return pack

    def _missing_sheet(self, key):
        name = gettext(SHEET_MSGID[key])
        self.problem(key, gettext("there is no sheet «{sheet}»", sheet=name), "sheet_missing", {"sheet": name})

    # -- settings --
    def _read_settings(self, pack_id, title):
        given = {"id": pack_id, "title": title}
        out = {"id": pack_id or "", "title": title or "", "description": "", "skill_max": None}
        ws = self.sheets["instructions"]
        if ws is None:
            if pack_id is None or title is None:
                self._missing_sheet("instructions")
            self.tainted |= {("pack", None, "id"), ("pack", None, "title")}
            return out
        labels = {}
        for key, msgid, _hint in SETTINGS:
            for word in _in_every_locale(lambda: gettext(msgid)) | {normalize(key)}:
                labels[word] = key
        for r in range(1, ws.max_row + 1):
            key = labels.get(normalize(ws.cell(row=r, column=1).value or ""))
            if key and key not in self.settings_rows:
                self.settings_rows[key] = r
        for key, msgid, _hint in SETTINGS:
            label = gettext(msgid)
            if given.get(key) is not None:
                continue
            r = self.settings_rows.get(key)
            if r is None:
                if key in ("id", "title"):
                    self.problem("instructions", gettext("there is no row «{label}»", label=label),
                                 "row_missing", {"label": label})
                    self.tainted.add(("pack", None, key))
                continue
            cell = ws.cell(row=r, column=2)
            if key == "skill_max":
                value, ok = self._number(cell.value, "positive", "instructions", r, 2, MAX_SP)
                out[key] = value if ok else None
            else:
                out[key] = _text(cell.value)
                if key in ("id", "title") and not out[key].strip():
                    self.problem("instructions", gettext("«{column}» is empty", column=label), "missing_text",
                                 {"column": label}, r, (2,))
                    self.tainted.add(("pack", None, key))
        return out

    # -- characters and cards --
    def _columns(self, sheet_key):
        """``{field: column number}`` from the header row; reports missing/doubled/unknown columns.
        Returns None when a required column is missing (the sheet's rows are then not read)."""
        ws = self.sheets[sheet_key]
        columns = COLUMNS[sheet_key]
        words = {}
        for col in columns:
            for word in _in_every_locale(col.label) | {normalize(col.field)}:
                words[word] = col.field
        groups = {}
        for group, msgid in GROUPS:
            for word in _in_every_locale(lambda: gettext(msgid)) | {group}:
                groups[word] = group
        header = deck_workbook.read_header(ws, words)
        found = header.columns
        for c, text in header.twice:
            self.problem(sheet_key, gettext("the column «{column}» appears twice", column=text),
                         "column_twice", {"column": text}, 1, (c,))
        for c, text in header.others:
            head, sep, rest = text.partition(":")
            if sep and normalize(head) in groups:
                self.problem(sheet_key, gettext("unknown skill «{skill}» in the column «{column}»; the skills "
                                                "are {allowed}", skill=rest.strip(), column=text,
                                                allowed=", ".join(skill_name(s) for s in SKILLS)),
                             "unknown_skill", {"skill": rest.strip(), "column": text}, 1, (c,))
        missing = [col for col in columns if col.required and col.field not in found]
        for col in missing:
            label = col.label()
            self.problem(sheet_key, gettext("there is no column «{column}»", column=label), "column_missing",
                         {"column": label})
        return None if missing else found

    def _read_items(self, sheet_key, item, parse):
        ws = self.sheets[sheet_key]
        if ws is None:
            self._missing_sheet(sheet_key)
        cols = self._columns(sheet_key) if ws is not None else None
        if cols is None:
            self.tainted.add(("pack", None, sheet_key))
            return []
        out = []
        for r in range(2, ws.max_row + 1):
            values = {f: ws.cell(row=r, column=c).value for f, c in cols.items()}
            filled = {f for f, v in values.items() if not _blank(v)}
            if not filled:
                continue
            place = _Row(r, cols, filled)
            index = len(out)
            self.rows[item].append(place)
            out.append(parse(sheet_key, item, index, place, values))
        return out

    def _cell_text(self, sheet_key, place, values, name, required):
        text = _text(values.get(name))
        if required and not text.strip():
            label = self._label(sheet_key, name)
            self.problem(sheet_key, gettext("«{column}» is empty", column=label), "missing_text",
                         {"column": label}, place.row, (place.cols[name],))
            return _PLACEHOLDER + str(place.row)
        return text

    def _skill_map(self, sheet_key, place, values, group):
        out, ok = {}, True
        for s in SKILLS:
            name = f"{group}.{s}"
            value, good = self._number(values.get(name), "count", sheet_key, place.row, place.cols[name], MAX_SP)
            ok &= good
            if good and value:
                out[s] = value
        return out, ok

    def _character(self, sheet_key, item, index, place, values):
        skills, ok = self._skill_map(sheet_key, place, values, "skills")
        if not ok:
            self.tainted.add((item, index, "skills"))
        return {"code": self._cell_text(sheet_key, place, values, "code", True),
                "name": self._cell_text(sheet_key, place, values, "name", True),
                "direction": _text(values.get("direction")),
                "skills": skills}

    def _card(self, sheet_key, item, index, place, values):
        row = place.row
        era = self._choice(values.get("era"), "era", sheet_key, place)
        color = self._choice(values.get("color"), "color", sheet_key, place)
        card = {"code": self._cell_text(sheet_key, place, values, "code", True),
                "era": era or ERA_KEYS[0], "color": color or "red",
                "title": self._cell_text(sheet_key, place, values, "title", True),
                "text": _text(values.get("text"))}
        if color is None:
            self.tainted |= {(item, index, "gains"), (item, index, "losses"), (item, index, "special")}
        for group, _ in GROUPS:
            card[group], ok = self._skill_map(sheet_key, place, values, group)
            if not ok:
                self.tainted.add((item, index, "gains" if group == "gains" else group))
        free, ok = self._number(values.get("free"), "count", sheet_key, row, place.cols["free"], MAX_SP)
        card["free"] = free if ok else 0
        if not ok:
            self.tainted.add((item, index, "gains"))
        card["special"] = None
        if values.get("special.text") not in (None, "") or "special.redistribute" in place.filled:
            special = {"text": _text(values.get("special.text"))}
            redistribute, ok = self._number(values.get("special.redistribute"), "positive", sheet_key, row,
                                            place.cols["special.redistribute"], MAX_SP)
            if ok and redistribute is not None:
                special["redistribute"] = redistribute
            card["special"] = special
        return card

    def _choice(self, value, kind, sheet_key, place):
        """An era or colour key from its label (either language, or the key itself), or None."""
        col = place.cols[kind]
        label = self._label(sheet_key, kind)
        if _blank(value):
            self.problem(sheet_key, gettext("«{column}» is empty", column=label), "missing_text",
                         {"column": label}, place.row, (col,))
            return None
        key = self.labels[kind].get(normalize(value))
        if key is None:
            names = era_name if kind == "era" else color_name
            allowed = ", ".join(names(k) for k in (ERA_KEYS if kind == "era" else COLORS))
            template = ("unknown era «{value}»; the eras are {allowed}" if kind == "era"
                        else "unknown colour «{value}»; the colours are {allowed}")
            self.problem(sheet_key, gettext(template, value=_text(value), allowed=allowed),
                         f"unknown_{kind}", {"value": _text(value)}, place.row, (col,))
        return key

    # -- levels --
    def _read_levels(self):
        ws = self.sheets["levels"]
        if ws is None:
            self._missing_sheet("levels")
        cols = self._columns("levels") if ws is not None else None
        if cols is None:
            self.tainted.add(("levels", None, "*"))
            return []
        levels = []
        for r in range(2, ws.max_row + 1):
            values = {f: ws.cell(row=r, column=c).value for f, c in cols.items()}
            if all(_blank(v) for v in values.values()):
                continue
            index = len(levels)
            self.rows["levels"].append(_Row(r, cols, {f for f, v in values.items() if not _blank(v)}))
            if _blank(values["xp"]):
                label = self._label("levels", "xp")
                self.problem("levels", gettext("«{column}» is empty", column=label), "missing_text",
                             {"column": label}, r, (cols["xp"],))
                value, ok = None, False
            else:
                value, ok = self._number(values["xp"], "count", "levels", r, cols["xp"], MAX_XP)
            if not ok:
                self.tainted.add(("levels", index, "*"))
            levels.append(value if ok else None)
        return levels

    # -- cells --
    def _label(self, sheet_key, name):
        """A column's header as the workbook spells it (for messages), else as we would."""
        ws = self.sheets[sheet_key]
        col = next(c for c in COLUMNS[sheet_key] if c.field == name)
        header = None
        if ws is not None:
            for c in range(1, ws.max_column + 1):
                raw = ws.cell(row=1, column=c).value
                if raw is not None and normalize(raw) in _in_every_locale(col.label) | {normalize(name)}:
                    header = str(raw).strip()
                    break
        return header or col.label()

    def _number(self, value, kind, sheet_key, row, col, maximum):
        """``(number, ok)`` from a cell that takes a whole number up to ``maximum``; reports what
        is wrong with it. ``count``: empty is 0, negatives refused; ``positive``: empty is None,
        at least 1. A number too long to be any number of the game is never converted."""
        empty = None if kind == "positive" else 0
        if _blank(value):
            return empty, True
        number = None
        if isinstance(value, bool):
            number = None
        elif isinstance(value, int):
            number = value
        elif isinstance(value, float) and math.isnan(value):
            number = None
        elif isinstance(value, float) and (math.isinf(value) or abs(value) > 10 ** _LONGEST):
            return self._above(maximum, str(value), sheet_key, row, col, empty)
        elif isinstance(value, float):
            if value != int(value):
                self.problem(sheet_key, gettext("{value} is not a whole number", value=_text(value)),
                             "not_whole_number", {"value": value}, row, (col,))
                return empty, False
            number = int(value)
        elif isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d+\s*", value):
            if len(value.strip().lstrip("+-")) > _LONGEST:
                return self._above(maximum, shown(value.strip()), sheet_key, row, col, empty)
            number = int(value)
        elif isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d+[.,]\d+\s*", value):
            self.problem(sheet_key, gettext("{value} is not a whole number", value=value.strip()),
                         "not_whole_number", {"value": value.strip()}, row, (col,))
            return empty, False
        if number is None:
            self.problem(sheet_key, gettext("«{value}» is not a number", value=_text(value)), "not_a_number",
                         {"value": _text(value)}, row, (col,))
            return empty, False
        if kind == "positive" and number < 1:
            self.problem(sheet_key, problem_text(IMPORT_TEMPLATES["below_minimum"], {"minimum": 1, "value": number}),
                         "below_minimum", {"minimum": 1, "value": number}, row, (col,))
            return empty, False
        if number < 0:
            self.problem(sheet_key, gettext("must not be negative, got {value}", value=shown(number)), "negative",
                         {"value": shown(number)}, row, (col,))
            return empty, False
        if number > maximum:
            return self._above(maximum, shown(number), sheet_key, row, col, empty)
        return number, True

    def _above(self, maximum, value, sheet_key, row, col, empty):
        params = {"maximum": maximum, "value": value}
        self.problem(sheet_key, problem_text(IMPORT_TEMPLATES["above_maximum"], params), "above_maximum", params,
                     row, (col,))
        return empty, False

    # -- the rules engine's problems, back to their cells --
    def _is_tainted(self, p):
        field_name = p.field or ""
        if (p.item, p.index, "*") in self.tainted:
            return True
        return any((p.item, p.index, t) in self.tainted and (field_name == t or field_name.startswith(t + "."))
                   for t in {field_name, field_name.split(".")[0]})

    def _locate(self, p):
        if p.item == "pack":
            return self._locate_setting(p)
        sheet_key = SHEET_OF_ITEM[p.item]
        if p.item == "levels" and p.index is None and p.key != "too_many":
            col = self.rows["levels"][0].cols["xp"] if self.rows["levels"] else 2
            return self.problem("levels", gettext("the sheet lists no rows"), p.key, p.params, 2, (col,),
                                pack_problem=p)
        if p.index is None or p.index >= len(self.rows[p.item]):
            return self.problem(sheet_key, problem_message(p), p.key, p.params, pack_problem=p)
        place = self.rows[p.item][p.index]
        message = problem_message(p)
        params = dict(p.params)
        if p.key == "duplicate_code":
            first = self.rows[p.item][p.params["first"] - 1].row
            message = gettext("the code is already used in row {row}", row=first)
            params["row"] = first
        self.problem(sheet_key, message, p.key, params, place.row, self._cells_of(p, place), pack_problem=p)

    def _cells_of(self, p, place):
        """The columns a problem points at: the field's own cell, or for a rule on a sum (gains +
        free, losses) the one filled cell of the sum, else all of its cells."""
        name = "xp" if p.item == "levels" else (p.field or "code")
        if name in place.cols:
            return (place.cols[name],)
        if name == "gains":
            fields = [f"gains.{s}" for s in SKILLS] + ["free"]
        elif name == "special":
            fields = ["special.text", "special.redistribute"]
        else:
            fields = [f for f in place.cols if f.startswith(name + ".")] or ["code"]
        filled = [place.cols[f] for f in fields if f in place.filled and f in place.cols]
        if len(filled) == 1:
            return tuple(filled)
        return tuple(place.cols[f] for f in fields if f in place.cols)

    def _locate_setting(self, p):
        name = p.field or ""
        if name in ("characters", "cards") and p.key == "too_many":
            return self.problem(name, problem_message(p), p.key, p.params, pack_problem=p)
        if name in ("characters", "cards"):
            return self.problem(name, gettext("the sheet lists no rows"), p.key, p.params, 2, (1,), pack_problem=p)
        r = self.settings_rows.get(name)
        label = gettext(dict((k, m) for k, m, _ in SETTINGS).get(name, name))
        if p.key == "missing_text":
            message = gettext("«{column}» is empty", column=label)
        else:
            message = problem_message(p)
        self.problem("instructions", message, p.key, p.params, r, (2,) if r else (), pack_problem=p)

