"""Alter Ego's event outputs (``GamePackage.event_file`` and ``blank_protocol``): the event
workbook, the results PDF, the certificates and a paper protocol to fill in by hand.

RULES.md 5: each table is ranked on its own, by the influence of each player's faction; equal
influence shares the place; no team score and no ranking across tables. So the results list
every table's ranking, and the certificates go to each table's first place (a shared first
place gives each of them one), naming the faction they led (their three actives).

==========================================================  =========================================
``event_file(kind, tables, event)``                          "workbook", "results" or "certificates"
``event_workbook_xlsx(results)``                             a summary sheet, then every table's protocol
``results_pdf(results)``, ``certificates_pdf(results)``      the printed sheets (``templates/print/``)
``blank_protocol_pdf(table, players, pack, ...)``            the paper protocol
==========================================================  =========================================

Texts are the game's (``translations/<locale>/alterego.po``), in ``output_locale()``.
"""

from dataclasses import dataclass
from datetime import datetime
from io import BytesIO

from facilitator import formatting
from facilitator.games.alterego.words import active_name, add_protocol_sheets, build_protocol, season_name
from facilitator.i18n import get_locale, spoken, use_locale
from facilitator.i18n import gettext as _
from facilitator.reports.tables import EventTables, render_pdf, table_sheet_title
from facilitator.rules.alterego.ruleset import RULESET

LOCALES = RULESET.locales


def output_locale(event=None):
    """The language of an event's printed files: the page's when the game speaks it, else the
    game's first (Finnish). The one place to switch to the event's own language."""
    return spoken(get_locale(), LOCALES)


# ----- the event's results, as data ------------------------------------------------------------
@dataclass
class TableResult:
    table: str
    finished: bool
    status: str  # how the table's game stands, in words
    players: list  # rows {place, name, influence, faction (names), shared}, best first
    protocol: object  # the table's ``words.Protocol``

    @property
    def winners(self):
        return [p for p in self.players if p["place"] == 1]


@dataclass
class EventResults(EventTables):
    def certificates(self):
        """One per first place of each table (RULES.md 5: a shared place is each one's)."""
        return [dict(p, table=t.table, shared=len(t.winners) > 1, finished=t.finished)
                for t in self.tables for p in t.winners]


def table_status(p):
    """Where a table's game stands, in words: how it ended, or its season and turn."""
    if p.finished:
        return p.status
    return _("In progress: {season}, turn {turn}", season=season_name(p.standing["season"]),
             turn=p.standing["turn"])


def build_event(tables, event=None, event_date=None, now=None):
    """``EventResults`` of an event's ``tables`` (each with ``game`` and ``undone_moves()``)."""
    now = now or datetime.now().astimezone()
    results = EventResults(event=event, event_date=event_date, made_at=now)
    for t in tables:
        p = build_protocol(t.game, undone=t.undone_moves(), event=event, event_date=event_date, now=now)
        factions = {row["name"]: row["actives"] for row in p.setup}
        places = [row["place"] for row in p.players]
        rows = [{"place": row["place"], "name": row["name"], "influence": row["influence"],
                 "faction": factions.get(row["name"], []), "shared": places.count(row["place"]) > 1}
                for row in p.players]
        results.tables.append(TableResult(table=p.table, finished=p.finished, status=table_status(p), players=rows,
                                          protocol=p))
    return results


# ----- the files -------------------------------------------------------------------------------
def event_file(kind, tables, event):
    """The bytes of one of the event's files (``GamePackage.event_file``)."""
    make = {"workbook": event_workbook_xlsx, "results": results_pdf, "certificates": certificates_pdf}[kind]
    with use_locale(output_locale(event)):
        return make(build_event(tables, event=event.name, event_date=event.date))


def results_pdf(results):
    """Every table's ranking on its own (A4 portrait), final or provisional."""
    return render_pdf("alterego_results.html", e=results)


def certificates_pdf(results):
    """One certificate page per first place of each table (A4 landscape)."""
    return render_pdf("alterego_certificates.html", e=results, certificates=results.certificates())


def event_workbook_xlsx(results):
    """The event workbook: a summary (every table ranked on its own), then each table's protocol."""
    from openpyxl import Workbook
    from openpyxl.styles import Font

    from facilitator.reports.cells import write_only_cell

    wb = Workbook(write_only=True)
    wb.properties.title = _("Alter Ego · event results")
    wb.properties.creator = "facilitator · Alter Ego"
    bold = Font(bold=True)

    def line(ws, values, font=None):
        cells = []
        for v in values:
            c = write_only_cell(ws, v)
            if font is not None:
                c.font = font
            cells.append(c)
        ws.append(cells)

    summary_title = _("Summary")
    ws = wb.create_sheet(summary_title[:31])
    for col, width in zip("ABCDEF", (22, 8, 20, 40, 11, 44)):
        ws.column_dimensions[col].width = width
    ws.freeze_panes = "A8"
    line(ws, [_("Alter Ego · event results")], Font(bold=True, size=14))
    line(ws, [_("Event"), results.event or ""])
    line(ws, [_("Date"), formatting.format_date(results.event_date) if results.event_date else ""])
    line(ws, [_("Status"), _("Final: every table has finished.") if results.final else
              _("Provisional: still playing: {tables}.", tables=", ".join(results.unfinished))])
    line(ws, [_("Made at"), formatting.format_datetime(results.made_at)])
    line(ws, [_("Ranking rule"), rule_text()])
    line(ws, [_("Table"), _("Place"), _("Player"), _("Faction"), _("Influence"), _("Status")], bold)
    for t in results.tables:
        for p in t.players:
            line(ws, [t.table, p["place"], p["name"], ", ".join(p["faction"]), p["influence"], t.status])
    taken = {summary_title[:31].lower()}
    for t in results.tables:
        add_protocol_sheets(wb, t.protocol, lambda msgid, table=t.table: table_sheet_title(table, _(msgid), taken))
    buf = BytesIO()
    wb.save(buf)
    return buf.getvalue()


def rule_text():
    return _("Each table is ranked on its own by the influence of each player's faction; equal influence "
             "shares the place. There is no team score and no ranking across tables.")


# ----- the paper protocol --------------------------------------------------------------------------
#: the seasons as their cards name them, for the paper protocol's season lines
SEASONS = (1, 2, 3, 4)
#: rows of the paper protocol's move log
LOG_ROWS = 20


def blank_players(players, pack):
    """The paper protocol's seats: names, birth dates and actives (with VA and BO) when the
    table is seated, else empty seats (as many as the deck allows)."""
    players = list(getattr(players, "players", players) or ())
    if not players:
        seats = min(RULESET.players[1], pack.max_players) if pack is not None else RULESET.players[1]
        return [{"seat": i + 1, "name": "", "born": "", "actives": [None, None, None]} for i in range(seats)]
    rows = []
    for i, p in enumerate(players):
        actives = []
        for key in p.actives:
            card = pack.actives_by_key.get(key) if pack is not None else None
            actives.append({"name": active_name(pack, key), "va": card.va if card else None,
                            "bo": card.bo if card else None})
        rows.append({"seat": i + 1, "name": p.name, "born": formatting.format_date(p.born) if p.born else "",
                     "actives": actives})
    return rows


def shipped_title(pack):
    """The pack's name on paper, as the organizer's pages name it (the shipped deck's in the
    current language)."""
    from facilitator import games
    return games.get(RULESET.key).pack_title(pack.id, pack.title) if pack is not None else ""


def blank_protocol_pdf(table, players, pack, event=None, event_date=None, now=None):
    """A paper Alter Ego protocol (PDF bytes) with the table's seats filled in: ``players`` are
    the setup's players (or the setup) or none yet; ``event_date`` ISO ``YYYY-MM-DD``."""
    first = getattr(players, "first", None)
    with use_locale(output_locale()):
        return render_pdf("alterego_blank.html", table=table, event=event, event_date=event_date,
                       made_at=now or datetime.now().astimezone(), players=blank_players(players, pack), first=first,
                       seasons=[(n, season_name(n)) for n in SEASONS], log_rows=LOG_ROWS,
                       pack_title=shipped_title(pack))


__all__ = ["event_file", "build_event", "event_workbook_xlsx", "results_pdf", "certificates_pdf",
           "blank_protocol_pdf", "output_locale", "EventResults", "TableResult"]
