"""«16/25»'s printed sheets as PDF: its print templates (``games/lyceum/templates/print/``),
rendered by the printing toolkit (``facilitator.reports.pdf``, WeasyPrint).

* ``table_protocol_pdf``: one table's protocol, A4 landscape, with the XP-by-round chart;
* ``event_results_pdf``: team and individual rankings, ready to hand to the organizer;
* ``blank_protocol_pdf``: a paper backup with the players' names (and setup) filled in;
* ``certificates_pdf``: one page per winner: each table's winner(s) and the winning table.

Text is in the current locale (``facilitator.i18n.use_locale``).
"""

from facilitator.games.lyceum import words
from markupsafe import Markup

from facilitator.i18n import skill_name
from facilitator.reports.pdf import _now, html_to_pdf, render_html  # noqa: F401
from facilitator.rules.lyceum import DECLARATION_BONUS, ROUNDS, SKILLS
from facilitator.rules.lyceum.eras import age_in_round, era_of_round
from facilitator.rules.lyceum.setup import start_skills, turn_order
from facilitator.games.lyceum.chart import xp_chart_svg
from facilitator.reports.svgchart import PRINT
from facilitator.games.lyceum.event import build_event
from facilitator.games.lyceum.protocol import Protocol, build_protocol

def protocol_html(protocol):
    """The protocol's print template rendered to HTML (what ``table_protocol_pdf`` prints)."""
    return render_html("protocol.html", p=protocol, chart=Markup(xp_chart_svg(protocol, height=230)),
                       has_time=any(r.at for r in protocol.log))


def table_protocol_pdf(game, undone=None, event=None, now=None, event_date=None):
    """One table's protocol as PDF bytes (2–3 pages A4 landscape). ``game`` is a replayed
    ``Game`` or a built ``Protocol``; ``event_date`` is the event's day, ISO ``YYYY-MM-DD``."""
    protocol = game if isinstance(game, Protocol) else build_protocol(game, undone=undone, event=event, now=now,
                                                                      event_date=event_date)
    return html_to_pdf(protocol_html(protocol))


def render_protocol_pdf_from_record(record, undone=(), event=None, locale=None, event_date=None, now=None):
    """One table's protocol as PDF bytes from plain JSON-able inputs, so it can run in another
    process (``multiprocessing``/``concurrent.futures.ProcessPoolExecutor``) without holding up
    the web app's request threads: a pure function of its arguments.

    ``record``: the table's game record (``lyceum-record/1`` dict, ``LoadedTable.record().to_dict()``);
    ``undone``: the moves taken back, as ``protocol.undone_as_json(loaded.undone_moves())`` gives
    them (dicts of ``move``, ``undone_at``, ``undone_by``, ``after``, ``kind``); ``event``: the
    event's name; ``locale``: ``"ru"``/``"en"`` (None: Russian); ``event_date``: ISO
    ``YYYY-MM-DD``; ``now``: the "made at" time as ISO text (None: the current time).
    The result prints the same text as ``table_protocol_pdf`` given the same game. (Any game's
    record is printed by its own module: ``games.protocol_pdf_from_record``.)
    """
    from facilitator.reports.games import protocol_pdf_from_record
    return protocol_pdf_from_record(record, undone=undone, event=event, event_date=event_date, locale=locale,
                                    now=now)


def event_results_pdf(items, event=None, now=None, event_date=None):
    """The event's team and individual rankings as PDF bytes (``items``: games or protocols);
    ``event_date``: the event's day, ISO ``YYYY-MM-DD`` (None: no date printed)."""
    results = build_event(items, event=event, now=_now(now), event_date=event_date)
    return html_to_pdf(render_html("results.html", e=results))


def certificates_pdf(items, event=None, now=None, event_date=None):
    """One certificate page per winner: each table's winner(s), then the winning table(s) when
    there are several tables. Provisional results are marked on the page. The certificate
    prints the event's date (``event_date``, ISO ``YYYY-MM-DD``), never the day it is printed;
    with no date, none is printed."""
    results = build_event(items, event=event, now=_now(now), event_date=event_date)
    return html_to_pdf(render_html("certificates.html", e=results, certificates=results.certificates()))


def blank_players(players, pack=None):
    """Rows for the blank protocol: names always, setup (character, start skills, image, turn)
    when ``players`` are ``PlayerSetup`` objects and the pack is given."""
    rows = []
    setups = [p for p in players if not isinstance(p, str)]
    order = None
    if pack is not None and setups and len(setups) == len(players):
        try:
            order = turn_order(pack, setups)
        except (KeyError, ValueError):
            order = None
    for seat, p in enumerate(players):
        if isinstance(p, str):
            rows.append({"seat": seat + 1, "name": p})
            continue
        row = {"seat": seat + 1, "name": p.name, "born": p.born, "character": p.character,
               "declaration": p.declaration, "declared": p.declared}
        if pack is not None and p.character in pack.characters_by_code:
            char = pack.characters_by_code[p.character]
            row.update(character_name=char.name, start=start_skills(pack, p))
        if order is not None:
            row["turn"] = order.index(seat) + 1
        rows.append(row)
    return rows


def blank_protocol_pdf(table, players, pack=None, event=None, now=None, event_date=None):
    """A paper protocol to fill by hand, as PDF bytes. ``players`` are names (seating order) or
    ``PlayerSetup`` objects; with ``pack`` their characters, start skills, declarations and
    turn order are printed too. ``event_date`` (ISO ``YYYY-MM-DD``) fills the date line."""
    return html_to_pdf(blank_protocol_html(table, players, pack, event, now, event_date))


def blank_protocol_html(table, players, pack=None, event=None, now=None, event_date=None):
    """The paper protocol's print template rendered to HTML (what ``blank_protocol_pdf`` prints),
    its reminders with the engine's numbers: XP per colour, free SP per level, the rounds a
    deferred card stays playable, the future image bonus."""
    from facilitator.rules.lyceum import cards, game
    return render_html("blank.html", table=table, event=event, players=blank_players(players, pack),
                       made_at=_now(now), bonus=DECLARATION_BONUS, event_date=event_date,
                       colour_xp=[(c, cards.COLOR_XP[c]) for c in cards.COLORS], level_sp=game.LEVEL_UP_SP,
                       defer_rounds=game.DEFER_ROUNDS)


__all__ = ["table_protocol_pdf", "render_protocol_pdf_from_record", "event_results_pdf", "certificates_pdf",
           "blank_protocol_pdf", "blank_protocol_html", "protocol_html", "print_globals"]


def print_globals():
    """What «16/25»'s print templates use besides the toolkit's filters (``GamePackage.print_globals``)."""
    return {"filters": {"color_name": words.color_name, "skill_changes": words.skill_changes},
            "globals": {"SKILLS": SKILLS, "ROUNDS": ROUNDS, "PALETTE": PRINT["palette"], "skill_short": words.skill_short,
                        "skill_name": skill_name, "era_name": words.era_name, "age_in_round": age_in_round,
                        "era_of_round": era_of_round}}
