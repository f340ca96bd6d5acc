"""The protocol as an Excel workbook (openpyxl): one table, or a whole event.

A table's protocol is a set of four sheets:

* **Setup** (Подготовка): the players in seating order, birth dates, characters, base skills +
  extra SP, declarations, the turn order and why;
* **Rounds** (По раундам): rows = players, for each round 1–10 the XP and level after it
  and the move that made it;
* **Log** (Журнал): every move in order, with XP and SP changes, level-ups, deferrals and
  the round they expire, special abilities, corrections with reasons, undone moves marked;
* **Results** (Итоги): XP, the declaration check skill by skill, bonus, final XP and place,
  the table's total and average, then the deferred cards, special abilities and corrections.

The event workbook is a **Summary** sheet (team ranking with the rule used, individual
ranking with shared places) followed by each table's four sheets.

Headers are in the current locale (Russian by default), header rows are frozen, numbers
are real numbers with number formats, pages print A4 landscape fitted to the width, and no
cell is merged (group headings use "centre across selection").

Speed: the cells are written through ``sheets.Book`` (openpyxl's public write-only mode, each
named style registered once), so a 50-table event workbook takes about a second and a half.
"""

from openpyxl.formatting.rule import Rule
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.styles.differential import DifferentialStyle
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from facilitator.games.lyceum import words
from facilitator.i18n import gettext as _, skill_name
from facilitator.rules.lyceum import DECLARATION_BONUS, ROUNDS, SKILLS
from facilitator.rules.lyceum.eras import age_in_round, era_of_round
from facilitator.games.lyceum.words import N_
from facilitator.games.lyceum.event import build_event
from facilitator.games.lyceum.protocol import Protocol, build_protocol
from facilitator.reports.sheets import Book
from facilitator.reports.tables import table_sheet_title

DARK = "1F3864"
LIGHT = "D9E1F2"
GRID = "B4BCC8"
RED = "C00000"
GREEN = "2E7D32"
GREY = "808080"
COLOR_FILLS = {"green": "E2EFDA", "yellow": "FFF2CC", "red": "F8CBAD"}

_thin = Side(style="thin", color=GRID)
_BOX = Border(left=_thin, right=_thin, top=_thin, bottom=_thin)
_TOP = Alignment(vertical="top", wrap_text=True)
_CENTER = Alignment(horizontal="center", vertical="top", wrap_text=True)
_RIGHT = Alignment(horizontal="right", vertical="top")

INT = "#,##0"
SIGNED = '+#,##0;"\u2212"#,##0;0'  # a real minus sign (U+2212), as the printed sheets write it
AVERAGE = "#,##0.0"


def _style_specs():
    """Named cell styles: font, fill, border, alignment and number format."""
    head = dict(font=Font(bold=True, color="FFFFFF", size=10), fill=PatternFill("solid", fgColor=DARK),
                border=_BOX, alignment=Alignment(horizontal="center", vertical="center", wrap_text=True))
    return {
        "title": dict(font=Font(bold=True, size=14, color=DARK)),
        "subtitle": dict(font=Font(italic=True, size=10, color=GREY)),
        "block": dict(font=Font(bold=True, size=11, color=DARK)),
        "label": dict(font=Font(bold=True, size=10), alignment=Alignment(vertical="top")),
        "value": dict(font=Font(size=10), alignment=Alignment(vertical="top")),
        "value_date": dict(font=Font(size=10), alignment=Alignment(horizontal="left", vertical="top"),
                           number_format=_("YYYY-MM-DD")),
        "final": dict(font=Font(bold=True, size=11, color=GREEN)),
        "provisional": dict(font=Font(bold=True, size=11, color="FFFFFF"), fill=PatternFill("solid", fgColor=RED)),
        "head": head,
        "head_group": dict(head, alignment=Alignment(horizontal="centerContinuous", vertical="center")),
        "head2": dict(font=Font(bold=True, size=9, color=DARK), fill=PatternFill("solid", fgColor=LIGHT),
                      border=_BOX, alignment=Alignment(horizontal="center", vertical="center", wrap_text=True)),
        "text": dict(font=Font(size=10), border=_BOX, alignment=_TOP),
        "name": dict(font=Font(bold=True, size=10), border=_BOX, alignment=_TOP),
        "center": dict(font=Font(size=10), border=_BOX, alignment=_CENTER),
        "int": dict(font=Font(size=10), border=_BOX, alignment=_RIGHT, number_format=INT),
        "int_bold": dict(font=Font(bold=True, size=10), border=_BOX, alignment=_RIGHT, number_format=INT),
        "signed": dict(font=Font(size=10), border=_BOX, alignment=_RIGHT, number_format=SIGNED),
        "average": dict(font=Font(size=10), border=_BOX, alignment=_RIGHT, number_format=AVERAGE),
        "date": dict(font=Font(size=10), border=_BOX, alignment=_CENTER, number_format=_("YYYY-MM-DD")),
        "ok": dict(font=Font(size=10, color=GREEN, bold=True), border=_BOX, alignment=_RIGHT, number_format=INT),
        "miss": dict(font=Font(size=10, color=RED, bold=True), border=_BOX, alignment=_RIGHT, number_format=INT),
        "total_label": dict(font=Font(bold=True, size=10), alignment=Alignment(horizontal="right")),
        "total": dict(font=Font(bold=True, size=11), border=_BOX, alignment=_RIGHT, number_format=INT),
        "total_average": dict(font=Font(bold=True, size=11), border=_BOX, alignment=_RIGHT, number_format=AVERAGE),
    }


class _Sheet:
    """A worksheet being filled row by row (``row`` is the next free row), with named styles."""

    def __init__(self, book, title, footer):
        self.sheet = book.sheet(title)
        self.book = book
        self.ws = self.sheet.ws
        self.row = 1
        ws = self.ws
        ws.page_setup.orientation = "landscape"
        ws.page_setup.paperSize = Worksheet.PAPERSIZE_A4
        ws.page_setup.fitToWidth = 1
        ws.page_setup.fitToHeight = 0
        ws.sheet_properties.pageSetUpPr.fitToPage = True
        ws.print_options.horizontalCentered = True
        ws.page_margins.left = ws.page_margins.right = 0.4
        ws.page_margins.top = ws.page_margins.bottom = 0.5
        self.sheet.footer.left.text = footer.replace("&", "&&")
        self.sheet.footer.left.size = 8
        self.sheet.footer.right.text = "&P / &N"
        self.sheet.footer.right.size = 8

    def put(self, row, col, value, style="text", undone=False, fill=None):
        self.sheet.put(row, col, value, self.book.style(style, GREY if undone else None, fill))

    def line(self, values, styles, undone=False, fills=None, skip_empty=False):
        """Write one row starting at column A; ``styles`` is one name or one per value.
        ``skip_empty`` leaves out empty cells (their borders then come from ``boxed``)."""
        for col, value in enumerate(values, start=1):
            if skip_empty and value is None:
                continue
            style = styles if isinstance(styles, str) else styles[col - 1]
            fill = fills[col - 1] if fills else None
            if style is not None:
                self.put(self.row, col, value, style, undone, fill)
        self.row += 1

    def boxed(self, ref):
        """Thin borders over a whole range by one conditional format, instead of writing every
        empty cell of a long table just for its border."""
        self.ws.conditional_formatting.add(
            ref, Rule(type="expression", formula=["TRUE"], dxf=DifferentialStyle(border=_BOX)))

    def skip(self, count=1):
        self.row += count

    def widths(self, widths):
        for col, width in enumerate(widths, start=1):
            self.ws.column_dimensions[get_column_letter(col)].width = width

    def freeze(self, row, col=1):
        """Keep the rows above ``row`` (and the columns left of ``col``) in view."""
        self.ws.freeze_panes = f"{get_column_letter(col)}{row}"

    def heading(self, title, status_text, final, subtitle=None):
        self.put(self.row, 1, title, "title")
        self.row += 1
        self.put(self.row, 1, status_text, "final" if final else "provisional")
        self.row += 1
        if subtitle:
            self.put(self.row, 1, subtitle, "subtitle")
            self.row += 1
        self.row += 1


def _title(protocol):
    return _("Game protocol «16/25»: {table}", table=protocol.table)


def _footer(protocol):
    parts = ["«16/25»", protocol.table]
    if protocol.event:
        parts.insert(1, protocol.event)
    if not protocol.final:
        parts.append(_("provisional"))
    return " · ".join(parts)


# ----- the four sheets of a table ----------------------------------------------------------
def _setup_sheet(sheet, p):
    sheet.heading(_title(p), p.status_text, p.final)
    info = [(_("Event"), p.event or "")]
    if p.event_date:
        info.append((_("Date"), words.as_date(p.event_date)))
    info += [
        (_("Table"), p.table),
        (_("Content pack"), p.pack_title),
        (_("Round"), _("{round} of {rounds} ({era})", round=p.round, rounds=ROUNDS, era=words.era_name(p.era))),
        (_("Made at"), words.format_datetime(p.generated_at)),
        (_("Turn order"), " → ".join(p.order)),
        (_("Why"), p.order_reason),
    ]
    for label, value in info:
        sheet.put(sheet.row, 1, label, "label")
        sheet.put(sheet.row, 2, value, "value" if isinstance(value, str) else "value_date")
        sheet.row += 1
    sheet.skip()

    sheet.put(sheet.row, 1, _("Players in seating order"), "block")
    sheet.row += 1
    sheet.line([_("Player"), _("Seat"), _("Born"), _("Turn"), _("Character"), _("Character's name"),
                _("Direction"), _("Future image")], "head")
    for r in p.players:
        sheet.line([r.name, r.seat, r.born, r.turn, r.character, r.character_name, r.direction,
                    r.declared if r.declared else _("not declared")],
                   ["name", "center", "date", "center", "center", "text", "text", "center"])
    sheet.skip()

    sheet.put(sheet.row, 1, _("Skills at the start: base + extra SP = start"), "block")
    sheet.row += 1
    first = sheet.row
    sheet.put(first, 1, _("Player"), "head")
    sheet.put(first + 1, 1, "", "head2")
    for i, s in enumerate(SKILLS):
        col = 2 + 3 * i
        for k in range(3):
            sheet.put(first, col + k, skill_name(s).capitalize() if k == 0 else None, "head_group")
        sheet.put(first + 1, col, _("base"), "head2")
        sheet.put(first + 1, col + 1, _("extra"), "head2")
        sheet.put(first + 1, col + 2, _("at start"), "head2")
    sheet.row = first + 2
    for r in p.players:
        values, styles = [r.name], ["name"]
        for s in SKILLS:
            values += [r.base[s], r.extra[s], r.start[s]]
            styles += ["int", "int", "int_bold"]
        sheet.line(values, styles)
    sheet.skip()

    sheet.put(sheet.row, 1, _("Future image (declared targets)"), "block")
    sheet.row += 1
    sheet.line([_("Player")] + [skill_name(s).capitalize() for s in SKILLS]
               + [_("Sum"), _("Bonus if met")], "head")
    for r in p.players:
        if r.declaration:
            sheet.line([r.name] + [r.declaration[s] for s in SKILLS] + [r.declared, DECLARATION_BONUS[r.declared]],
                       ["name"] + ["int"] * 5 + ["int_bold", "int"])
        else:
            sheet.line([r.name] + [None] * 5 + [_("not declared"), None], ["name"] + ["int"] * 5 + ["center", "int"])
    sheet.widths([18, 12, 12, 9, 10, 14, 24, 12, 9, 9, 9, 9, 9, 9, 9, 9])
    sheet.freeze(2)


def _round_heading(r):
    return _("Round {round} · age {age} · {era}", round=r, age=age_in_round(r), era=words.era_name(era_of_round(r).key))


def _rounds_sheet(sheet, p):
    sheet.heading(_title(p), p.status_text, p.final, _("XP and level after each round, and the moves that made them"))
    first = sheet.row
    sheet.put(first, 1, _("Player"), "head")
    sheet.put(first + 1, 1, "", "head2")
    for r in range(1, ROUNDS + 1):
        col = 2 + 3 * (r - 1)
        for k in range(3):
            sheet.put(first, col + k, _round_heading(r) if k == 0 else None, "head_group")
        sheet.put(first + 1, col, _("XP"), "head2")
        sheet.put(first + 1, col + 1, _("Lvl"), "head2")
        sheet.put(first + 1, col + 2, _("Move"), "head2")
    sheet.row = first + 2
    for row in p.grid:
        values, styles = [row.name], ["name"]
        for cell in row.cells:
            if cell is None:
                values += [None, None, None]
            else:
                values += [cell.xp, cell.level, cell.label]
            styles += ["int_bold", "center", "text"]
        sheet.line(values, styles)
    sheet.skip()
    sheet.put(sheet.row, 1, _("Levels"), "label")
    sheet.put(sheet.row, 2, ", ".join(_("level {level} from {xp} XP", level=i + 1, xp=words.number(xp))
                                      for i, xp in enumerate(p.levels)), "value")
    sheet.widths([16] + [7, 5, 15] * ROUNDS)
    sheet.freeze(first + 2, 2)
    sheet.ws.print_title_cols = "A:A"


LOG_HEADERS = (N_("No."), N_("Round"), N_("Player"), N_("Move"), N_("Colour"), N_("Card"), N_("Card title"),
               N_("XP ±"), N_("XP after"), N_("Level after"), N_("Skills ±"), N_("Free SP ±"), N_("New levels"),
               N_("Deferred until round"), N_("Special ability"), N_("Details"), N_("Time"))
LOG_STYLES = ["center", "center", "name", "text", "text", "text", "text", "signed", "int", "center",
              "text", "signed", "center", "center", "text", "text", "center"]


def _log_sheet(sheet, p):
    sheet.heading(_title(p), p.status_text, p.final, _("Every move in order; undone moves are struck through"))
    header = sheet.row
    sheet.line([_(h) for h in LOG_HEADERS], "head")
    for r in p.log:
        fill = COLOR_FILLS.get(r.color) if r.card_label else None
        fills = [None] * len(LOG_HEADERS)
        fills[5] = fill
        sheet.line([
            r.number, r.round, r.player, r.what, words.color_name(r.color) if r.color else None,
            r.card_code, r.card_title, r.xp, r.xp_after, r.level_after, r.skills_text or None,
            r.free_sp, r.levels_text or None, r.deferred_until, r.special or None, r.details_text or None,
            words.format_time(r.at) if r.at else None,
        ], LOG_STYLES, undone=r.undone, fills=fills, skip_empty=True)
    if p.log:
        sheet.boxed(f"A{header + 1}:{get_column_letter(len(LOG_HEADERS))}{sheet.row - 1}")
    sheet.widths([5, 7, 14, 24, 10, 9, 24, 8, 8, 7, 24, 8, 8, 10, 30, 34, 7])
    sheet.freeze(header + 1)
    sheet.ws.auto_filter.ref = f"A{header}:{get_column_letter(len(LOG_HEADERS))}{max(header, sheet.row - 1)}"
    sheet.ws.print_title_rows = f"{header}:{header}"


def _results_sheet(sheet, p):
    sheet.heading(_title(p), p.status_text, p.final)
    first = sheet.row
    fixed = [_("Place"), _("Player"), _("Character"), _("XP"), _("Level"), _("Future image")]
    for col, label in enumerate(fixed, start=1):
        sheet.put(first, col, label, "head")
        sheet.put(first + 1, col, "", "head2")
    for i, s in enumerate(SKILLS):
        col = len(fixed) + 1 + 2 * i
        sheet.put(first, col, skill_name(s).capitalize(), "head_group")
        sheet.put(first, col + 1, None, "head_group")
        sheet.put(first + 1, col, _("has"), "head2")
        sheet.put(first + 1, col + 1, _("target"), "head2")
    tail = [_("Image met"), _("Bonus"), _("Final XP")]
    tail_col = len(fixed) + 1 + 2 * len(SKILLS)
    for k, label in enumerate(tail):
        sheet.put(first, tail_col + k, label, "head")
        sheet.put(first + 1, tail_col + k, "", "head2")
    sheet.row = first + 2
    # the character by its name, as the setup block and the PDF show it (a code alone says nothing)
    characters = {r.name: r.character_name for r in p.players}
    for r in p.results_by_place:
        values = [r.place, r.name, characters.get(r.name) or r.character, r.xp, r.level,
                  r.declared if r.declared else _("not declared")]
        styles = ["center", "name", "text", "int", "center", "center"]
        checks = {c.skill: c for c in r.checks}
        for s in SKILLS:
            c = checks.get(s)
            if c is None:
                values += [r.skills[s], None]
                styles += ["int", "int"]
            else:
                values += [c.have, c.target]
                styles += ["ok" if c.met else "miss", "int"]
        met = (_("yes") if r.met else _("no")) if r.declared else "—"
        values += [met, r.bonus, r.final_xp]
        styles += ["center", "int", "int_bold"]
        sheet.line(values, styles)
    last = tail_col + len(tail) - 1
    sheet.put(sheet.row, last - 1, _("Table total"), "total_label")
    sheet.put(sheet.row, last, p.total_xp, "total")
    sheet.row += 1
    sheet.put(sheet.row, last - 1, _("Average per player"), "total_label")
    sheet.put(sheet.row, last, p.average_xp, "total_average")
    sheet.row += 2

    _listing(sheet, _("Deferred cards"),
             [_("Round"), _("Player"), _("Card"), _("Card title"), _("Colour"), _("Playable until round"),
              _("Outcome"), _("Rounds held")],
             [[d.round, d.player, d.card_code, d.card_title, words.color_name(d.color), d.until, d.outcome_text,
               d.held_rounds] for d in p.deferrals],
             ["center", "name", "text", "text", "text", "center", "text", "center"], _("No card was deferred."))
    sheet.skip()
    _listing(sheet, _("Special abilities of red cards"),
             [_("Round"), _("Player"), _("Card"), _("Card title"), _("Special ability")],
             [[r.round, r.player, r.card_code, r.card_title, r.special] for r in p.specials],
             ["center", "name", "text", "text", "text"], _("No special ability was played."))
    sheet.skip()
    _listing(sheet, _("Host's corrections"),
             [_("Round"), _("Player"), _("XP ±"), _("Skills ±"), _("Details")],
             [[r.round, r.player, r.xp, r.skills_text or None, r.details_text or None] for r in p.adjustments],
             ["center", "name", "signed", "text", "text"], _("No corrections."))
    sheet.widths([7, 16, 11, 24, 9, 11, 22, 9] + [7] * 7 + [9, 9, 11])
    sheet.freeze(first + 2)


def _listing(sheet, title, headers, rows, styles, empty):
    """A titled block of the results sheet: a header row and one line per item, or a line
    saying there was none."""
    sheet.put(sheet.row, 1, title, "block")
    sheet.row += 1
    sheet.line(headers, "head")
    for values in rows:
        sheet.line(values, styles)
    if not rows:
        sheet.put(sheet.row, 1, empty, "value")
        sheet.row += 1


SHEET_PARTS = ((N_("Setup"), _setup_sheet), (N_("Rounds"), _rounds_sheet), (N_("Log"), _log_sheet),
               (N_("Results"), _results_sheet))


def _sheet_title(part, table=None, taken=None):
    """An Excel sheet name (31 characters, no []:*?/\\) that says the table and the part."""
    return table_sheet_title(table, _(part), taken)


def _add_table(book, protocol, prefix_table):
    taken = {title.lower() for title in book.titles}
    for part, fill in SHEET_PARTS:
        title = _sheet_title(part, protocol.table if prefix_table else None, taken)
        fill(_Sheet(book, title, _footer(protocol)), protocol)


def _new_book(title):
    return Book(_style_specs(), title=title, creator="facilitator «16/25»")


def table_protocol_xlsx(game, undone=None, event=None, now=None, event_date=None):
    """One table's protocol workbook as ``.xlsx`` bytes. ``game`` is a replayed ``Game`` or a
    ``Protocol`` already built (``build_protocol`` documents ``undone``); ``event_date`` is the
    event's day, ISO ``YYYY-MM-DD`` (None: no date row)."""
    protocol = game if isinstance(game, Protocol) else build_protocol(game, undone=undone, event=event, now=now,
                                                                      event_date=event_date)
    book = _new_book(_title(protocol))
    _add_table(book, protocol, prefix_table=False)
    return book.save()


def _summary_sheet(sheet, results):
    title = _("Event results «16/25»: {event}", event=results.event) if results.event else _("Event results «16/25»")
    if results.final:
        status = _("Final: every table has finished.")
    else:
        status = _("Provisional: still playing: {tables}.", tables=", ".join(results.unfinished))
    made_at = _("Made at {when}", when=words.format_datetime(results.generated_at))
    if results.event_date:
        made_at = f"{words.format_date(results.event_date)} · {made_at}"
    sheet.heading(title, status, results.final, made_at)
    sheet.put(sheet.row - 1, 1, _("Ranking rule: {rule}", rule=results.rule_text), "label")
    sheet.row += 1
    team_col, person_col = 1, 9
    sheet.put(sheet.row, team_col, _("Team ranking"), "block")
    sheet.put(sheet.row, person_col, _("Individual ranking"), "block")
    sheet.row += 1
    header = sheet.row
    for col, label in enumerate([_("Place"), _("Table"), _("Players"), _("Total XP"), _("Average XP"),
                                 _("Ranked by"), _("Game")], start=team_col):
        sheet.put(header, col, label, "head")
    for col, label in enumerate([_("Place"), _("Player"), _("Table"), _("Character"), _("XP"), _("Bonus"),
                                 _("Final XP")], start=person_col):
        sheet.put(header, col, label, "head")
    for i, t in enumerate(results.teams):
        row = header + 1 + i
        values = [t.place, t.table, t.players, t.total_xp, t.average_xp, results.rule_short,
                  _("finished") if t.final else _("in progress")]
        ranked = "int_bold" if results.rule == "total" else "int"
        for col, (value, style) in enumerate(zip(values, ["center", "name", "center", ranked,
                                                          "average" if results.rule == "total" else "total_average",
                                                          "center", "center"]), start=team_col):
            sheet.put(row, col, value, style)
    for i, r in enumerate(results.individuals):
        row = header + 1 + i
        values = [r.place, r.name, r.table, r.character, r.xp, r.bonus, r.final_xp]
        for col, (value, style) in enumerate(zip(values, ["center", "name", "text", "text", "int", "int",
                                                          "int_bold"]), start=person_col):
            sheet.put(row, col, value, style)
    sheet.row = header + 1 + max(len(results.teams), len(results.individuals))
    sheet.widths([7, 16, 9, 11, 11, 12, 12, 3, 7, 16, 14, 14, 9, 9, 11])
    sheet.freeze(header + 1)
    sheet.ws.print_title_rows = f"{header}:{header}"


def event_workbook_xlsx(items, event=None, now=None, event_date=None):
    """The event workbook as ``.xlsx`` bytes: the summary sheet, then every table's protocol
    sheets. ``items`` are replayed ``Game`` objects or built ``Protocol`` objects;
    ``event_date`` is the event's day, ISO ``YYYY-MM-DD``."""
    results = build_event(items, event=event, now=now, event_date=event_date)
    book = _new_book(_("Event results «16/25»"))
    summary = _Sheet(book, _sheet_title(N_("Summary")), f"«16/25» · {event or ''}".rstrip(" ·"))
    _summary_sheet(summary, results)
    for protocol in results.protocols:
        _add_table(book, protocol, prefix_table=True)
    return book.save()


__all__ = ["table_protocol_xlsx", "event_workbook_xlsx", "SHEET_PARTS", "LOG_HEADERS"]
