"""Tally's protocol, with the app's printing toolkit (``facilitator.reports``): a workbook of two
sheets (Result, Log) written through the toolkit's ``sheets.Book`` (every value a safe cell),
and a one-page PDF from ``templates/print/tally_protocol.html``.

Both take what every game's protocol takes (``GamePackage.reports``): a replayed game,
``undone`` (the moves taken back, as ``LoadedTable.undone_moves()`` pairs or as the plain dicts
``reports.games.undone_as_plain`` makes for the worker process), ``event``, ``event_date`` and
``now``.
"""

from dataclasses import dataclass
from datetime import datetime

from facilitator_tally.engine import table_standing


@dataclass
class Protocol:
    table: str
    event: str | None
    event_date: str | None
    status: str
    players: list
    log: list
    undone: list


def _undone(entries):
    out = []
    for entry in entries or ():
        if isinstance(entry, dict):
            move, kind, by = entry.get("move") or {}, entry.get("kind") or "undo", entry.get("undone_by")
        else:
            move, row = entry
            move, kind, by = (move.to_dict() if hasattr(move, "to_dict") else move), row.kind, row.author
        how = {"undo": "undone", "void": "voided by the organizer", "reopen": "reopened by the organizer"}.get(kind, kind)
        out.append({"player": move.get("player"), "type": move.get("type"), "points": move.get("points"),
                    "how": how + (f" ({by})" if by else "")})
    return out


def build_protocol(game, undone=None, event=None, event_date=None, now=None):
    standing = table_standing(game)
    return Protocol(table=game.table, event=event, event_date=event_date,
                    status="final" if game.finished else "provisional",
                    players=sorted(standing["players"], key=lambda p: p["place"]),
                    log=[{"number": i, "player": m.player, "type": m.type, "points": m.points}
                         for i, m in enumerate(game.moves, start=1)],
                    undone=_undone(undone))


def table_protocol_xlsx(game, undone=None, event=None, event_date=None, now=None):
    """The table's protocol workbook (bytes): Result (places and scores) and Log (every move,
    the undone ones struck through)."""
    from openpyxl.styles import Font

    from facilitator.reports.sheets import Book
    p = build_protocol(game, undone, event, event_date, now)
    book = Book({"tally title": {"font": Font(bold=True, size=14)}, "tally head": {"font": Font(bold=True)}, "tally cell": {},
                 "tally struck": {"font": Font(strike=True, color="808080")}},
                title=f"Tally · {p.table}", creator="facilitator")
    result = book.sheet("Result")
    result.put(1, 1, f"Tally · {p.table}", book.style("tally title"))
    result.put(2, 1, " · ".join(x for x in (p.event, p.event_date, p.status) if x))
    for col, label in enumerate(("Place", "Player", "Score"), start=1):
        result.put(4, col, label, book.style("tally head"))
    for row, player in enumerate(p.players, start=5):
        for col, value in enumerate((player["place"], player["name"], player["score"]), start=1):
            result.put(row, col, value, book.style("tally cell"))
    log = book.sheet("Log")
    for col, label in enumerate(("#", "Player", "Move", "Points"), start=1):
        log.put(1, col, label, book.style("tally head"))
    row = 1
    for entry in p.log:
        row += 1
        for col, value in enumerate((entry["number"], entry["player"], entry["type"], entry["points"]), start=1):
            log.put(row, col, value, book.style("tally cell"))
    for entry in p.undone:
        row += 1
        for col, value in enumerate(("", entry["player"], entry["type"], entry["how"]), start=1):
            log.put(row, col, value, book.style("tally struck"))
    return book.save()


def table_protocol_pdf(game, undone=None, event=None, event_date=None, now=None):
    """The table's protocol as PDF bytes (one A4 page)."""
    from facilitator.reports.pdf import html_to_pdf, render_html
    p = build_protocol(game, undone, event, event_date, now or datetime.now())
    return html_to_pdf(render_html("tally_protocol.html", p=p))
