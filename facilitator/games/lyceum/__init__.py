"""«16/25» (the HSE Lyceum's card game) above its engine (``facilitator.rules.lyceum``): its
host screens, forms, words, protocol workbook and PDF, event outputs, deck editor and Excel
deck files, templates and Russian catalogs. ``GAME`` is what the app asks (entry point
``facilitator.games``); this module stays light, the rest is imported on first use."""

from pathlib import Path

from facilitator.games import GamePackage
from facilitator.rules.lyceum.ruleset import RULESET


def N_(message):
    """A message id for the catalogs' extraction, translated where it is shown."""
    return message



class Lyceum(GamePackage):
    ruleset = RULESET
    folder = Path(__file__).parent
    screens = "facilitator.games.lyceum.screens"
    turn, setup, final = "lyceum.turn", "lyceum.setup", "lyceum.final"
    reports = "facilitator.games.lyceum.reports"
    seat = "facilitator.games.lyceum.seat"
    #: the shipped pack by its name in the page's language (its catalogs translate it)
    shipped_pack_name = N_("Sample deck (not the original game)")
    before_games = True  # the app's first game: an event backup of format /1 is «16/25»'s
    commands = {"pack": "facilitator.games.lyceum.commands"}  # the deck's Excel template, import, export

    def blueprints(self):
        from facilitator.games.lyceum import packs, screens
        return [screens.bp, packs.bp]

    def narrate(self, loaded, result):
        from facilitator.games.lyceum.words import result_lines
        return result_lines(result)

    def move_names(self):
        """«16/25»'s moves by name (a draw by its decision), for the tablet's outbox."""
        from facilitator.games.lyceum.words import move_name
        from facilitator.rules.lyceum import Move
        names = {f"draw:{d}": move_name(Move("draw", player="", decision=d)) for d in ("play", "defer", "discard")}
        for kind in ("rest", "share", "pass", "play_deferred", "allocate", "adjust", "finish"):
            names[kind] = move_name(Move(kind, player=""))
        return names

    def moved_on_context(self, loaded, happened):
        from facilitator.games.lyceum.screens import moved_on_context
        return moved_on_context(loaded, happened)

    def read_move_form(self, kind, formdata, loaded):
        """«16/25»'s move forms are WTForms classes (``screens.read_form``)."""
        from facilitator.games.lyceum.screens import read_form
        return read_form(kind, formdata)[1]

    def undone_line(self, loaded, row):
        import json

        from facilitator.i18n import gettext as _
        return _("Move #{seq} ({type}) was undone; it stays in the history, marked undone.", seq=row.seq,
                 type=_(json.loads(row.data)["type"]))

    def error_text(self, err, pack=None):
        from facilitator.i18n import describe_error, translate_error
        from facilitator.rules.errors import IllegalMoveError
        return translate_error(err) if isinstance(err, IllegalMoveError) else describe_error(err)

    def player_extras(self, loaded):
        """Each player's odds (issue 21): ``playable`` ``{colour: [k, n]}``, of the ``n`` cards of
        that colour of the era in play the ``k`` the player is eligible for now (the engine's
        ``rules.lyceum.odds``)."""
        from facilitator.games.lyceum.seat import position_odds
        # worked out once per position the process keeps, and read again by the players' pages
        return {name: {"playable": {c: list(kn) for c, kn in odds.items()}}
                for name, odds in position_odds(loaded).items()}

    event_files = ("workbook", "results", "certificates")

    def event_file(self, kind, tables, event):
        """The event workbook (a summary and every table's protocol), the results with team and
        individual rankings, or the certificates (RULES.md 5)."""
        from facilitator.games.lyceum import pdf, workbook
        from facilitator.games.lyceum.protocol import build_protocol
        protocols = [build_protocol(t.game, undone=t.undone_moves(), event=event.name) for t in tables]
        make = {"workbook": workbook.event_workbook_xlsx, "results": pdf.event_results_pdf,
                "certificates": pdf.certificates_pdf}[kind]
        return make(protocols, event=event.name, event_date=event.date)

    def blank_protocol(self, table_name, players, pack, event=None, event_date=None):
        from facilitator.games.lyceum.pdf import blank_protocol_pdf
        return blank_protocol_pdf(table_name, players, pack=pack, event=event, event_date=event_date)

    def print_globals(self):
        from facilitator.games.lyceum.pdf import print_globals
        return print_globals()

    def standings_text(self, result):
        from facilitator.games.lyceum.text import standings_text
        return standings_text(result)


GAME = Lyceum()
