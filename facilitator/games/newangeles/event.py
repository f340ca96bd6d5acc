"""New Angeles' event outputs (``GamePackage.event_file`` and ``blank_protocol``): the event
workbook, the results PDF, the certificates and a paper protocol to fill in by hand.

RULES.md §8: a game's result is a set of winners, not a ranking; several may win, and a takeover
without a Federalist holding enough capital means everyone loses. There is no team score. So the
results list each table's winners (with how its game ended) and its players, and the
certificates go to each table's winners, naming the corporation they led. Before a table's
reveal no rival card appears anywhere (D22), and it has no winners yet.

==========================================================  =========================================
``event_file(kind, tables, event)``                          "workbook", "results" or "certificates"
``event_workbook_xlsx(results)``                             a summary sheet, then every table's protocol
``results_pdf(results)``, ``certificates_pdf(results)``      the printed sheets (``templates/print/``)
``blank_protocol_pdf(table, players, pack, ...)``            the paper protocol
==========================================================  =========================================

Texts are the game's (``translations/<locale>/newangeles.po``), in ``output_locale()``.
"""

from dataclasses import dataclass
from datetime import datetime
from io import BytesIO

from facilitator import formatting
from facilitator.games.newangeles.words import add_protocol_sheets, build_protocol, corp_label, ended_line, resource_label
from facilitator.i18n import get_locale, spoken, use_locale
from facilitator.i18n import gettext as _
from facilitator.reports.tables import EventTables, render_pdf, table_sheet_title
from facilitator.rules.newangeles.rounds import SLOTS
from facilitator.rules.newangeles.ruleset import RULESET

LOCALES = RULESET.locales


def output_locale(event=None):
    """The language of an event's printed files: the page's when the game speaks it, else the
    game's first (English). The one place to switch to the event's own language."""
    return spoken(get_locale(), LOCALES)


# ----- the event's results, as data ------------------------------------------------------------
@dataclass
class TableResult:
    table: str
    finished: bool  # the rivals are revealed
    ended: str  # how the game ended, or where it stands, in words
    players: list  # rows {name, corp, capital, rival, result} in seating order
    winners: list  # rows {name, corp, capital} (empty before the reveal, or when nobody won)
    protocol: object  # the table's ``words.Protocol``


@dataclass
class EventResults(EventTables):
    def certificates(self):
        """One per winner of each table whose rivals are revealed (RULES.md §8)."""
        return [dict(w, table=t.table, several=len(t.winners) > 1) for t in self.tables for w in t.winners]


def build_event(tables, event=None, event_date=None, now=None):
    """``EventResults`` of an event's ``tables`` (each with ``game`` and ``undone_moves()``)."""
    now = now or datetime.now().astimezone()
    results = EventResults(event=event, event_date=event_date, made_at=now)
    for t in tables:
        p = build_protocol(t.game, undone=t.undone_moves(), event=event, event_date=event_date, now=now)
        revealed = {r["name"]: r for r in p.reveal}
        rows = []
        for pl in p.players:
            rv = revealed.get(pl["name"])
            rows.append({"name": pl["name"], "corp": pl["corp_name"], "capital": pl["capital"],
                         "rival": rv["rival_name"] if rv else None,
                         "result": (_("won") if rv["won"] else _("lost")) if rv else None})
        winners = [{"name": r["name"], "corp": r["corp"], "capital": r["capital"]}
                   for r in rows if r["name"] in p.winners] if p.final else []
        results.tables.append(TableResult(table=p.table, finished=p.final, ended=ended_line(p), players=rows,
                                          winners=winners, protocol=p))
    return results


# ----- the files -------------------------------------------------------------------------------
def event_file(kind, tables, event):
    """The bytes of one of the event's files (``GamePackage.event_file``)."""
    make = {"workbook": event_workbook_xlsx, "results": results_pdf, "certificates": certificates_pdf}[kind]
    with use_locale(output_locale(event)):
        return make(build_event(tables, event=event.name, event_date=event.date))


def results_pdf(results):
    """Each table's winners and players (A4 portrait), final or provisional."""
    return render_pdf("newangeles_results.html", e=results)


def certificates_pdf(results):
    """One certificate page per winner of each revealed table (A4 landscape)."""
    return render_pdf("newangeles_certificates.html", e=results, certificates=results.certificates())


def winners_text(t):
    """A table's winners in words (RULES.md §8: a set, maybe empty)."""
    if not t.finished:
        return _("not revealed yet")
    return ", ".join(w["name"] for w in t.winners) if t.winners else _("nobody won")


def event_workbook_xlsx(results):
    """The event workbook: a summary (each table's winners, then every player), then each
    table's protocol sheets."""
    from openpyxl import Workbook
    from openpyxl.styles import Font

    from facilitator.reports.cells import put

    wb = Workbook()
    ws = wb.active
    summary_title = _("Summary")[:31]
    ws.title = summary_title
    wb.properties.title = _("New Angeles · event results")
    wb.properties.creator = "facilitator"
    bold = Font(bold=True)
    put(ws, 1, 1, _("New Angeles · event results")).font = Font(bold=True, size=14)
    facts = [(_("Event"), results.event or ""),
             (_("Date"), formatting.format_date(results.event_date) if results.event_date else ""),
             (_("Status"), _("Final: every table has revealed its rivals.") if results.final else
              _("Provisional: still playing: {tables}.", tables=", ".join(results.unfinished))),
             (_("Made at"), formatting.format_datetime(results.made_at)),
             (_("Ranking rule"), rule_text())]
    for row, (label, value) in enumerate(facts, start=2):
        put(ws, row, 1, label).font = bold
        put(ws, row, 2, value)
    row = len(facts) + 3
    for col, label in enumerate((_("Table"), _("Winners"), _("How it ended")), start=1):
        put(ws, row, col, label).font = bold
    for t in results.tables:
        row += 1
        put(ws, row, 1, t.table)
        put(ws, row, 2, winners_text(t))
        put(ws, row, 3, t.ended)
    row += 2
    head = row
    for col, label in enumerate((_("Table"), _("Player"), _("Corporation"), _("Capital"), _("Rival"), _("Result")),
                                start=1):
        put(ws, row, col, label).font = bold
    for t in results.tables:
        for pl in t.players:
            row += 1
            for col, value in enumerate((t.table, pl["name"], pl["corp"], pl["capital"], pl["rival"] or "",
                                         pl["result"] or ""), start=1):
                put(ws, row, col, value)
    for col, width in zip("ABCDEF", (22, 28, 26, 10, 24, 60)):
        ws.column_dimensions[col].width = width
    ws.freeze_panes = f"A{head + 1}"
    taken = {summary_title.lower()}
    for t in results.tables:
        add_protocol_sheets(wb, t.protocol, lambda text, table=t.table: table_sheet_title(table, text, taken))
    buf = BytesIO()
    wb.save(buf)
    return buf.getvalue()


def rule_text():
    return _("Each table's result is a set of winners, not a ranking: several may win, or nobody. There is "
             "no team score.")


# ----- the paper protocol --------------------------------------------------------------------------
#: rows of the paper protocol's deal grid
DEAL_ROWS = 20


def blank_players(players, pack):
    """The paper protocol's seats: names, corporations and starting capital when the table is
    seated (never a rival card: they stay sealed), else empty seats (as many as the pack allows)."""
    players = list(getattr(players, "players", players) or ())
    if not players:
        seats = pack.players_max if pack is not None else RULESET.players[1]
        return [{"seat": i + 1, "name": "", "corp": "", "capital": None} for i in range(seats)]
    return [{"seat": i + 1, "name": p.name, "corp": corp_label(pack, p.corp), "capital": p.capital}
            for i, p in enumerate(players)]


def shipped_title(pack):
    """The pack's name on paper, as the organizer's pages name it (the shipped pack's in the
    current language, never its file's developer title)."""
    from facilitator import games
    return games.get(RULESET.key).pack_title(pack.id, pack.title) if pack is not None else ""


def blank_protocol_pdf(table, players, pack, event=None, event_date=None, now=None):
    """A paper New Angeles protocol (PDF bytes) with the table's seats filled in: ``players``
    are the setup's players (or the setup) or none yet; ``event_date`` ISO ``YYYY-MM-DD``. Its
    reminders carry the pack's numbers (threat limit, the Federalist's capital, k(n))."""
    setup = players if hasattr(players, "players") else None
    rows = blank_players(players, pack)
    with use_locale(output_locale()):
        return render_pdf("newangeles_blank.html", table=table, event=event, event_date=event_date,
                       made_at=now or datetime.now().astimezone(), players=rows,
                       first=setup.first_player if setup else None, setup=setup,
                       slots=[label for _kind, label in SLOTS.values()], deal_rows=DEAL_ROWS,
                       resources=[resource_label(pack, r.key) for r in pack.resources] if pack is not None else [],
                       threat_max=pack.threat_max if pack is not None else None,
                       federalist_capital=pack.federalist_capital if pack is not None else None,
                       beats=sorted(pack.self_rival_beats.items()) if pack is not None else [],
                       pack_title=shipped_title(pack))


__all__ = ["event_file", "build_event", "event_workbook_xlsx", "results_pdf", "certificates_pdf",
           "blank_protocol_pdf", "output_locale", "EventResults", "TableResult", "winners_text"]
