"""Alter Ego (3rd edition) above its engine (``facilitator.rules.alterego``): its host screens
under ``/ae``, forms, words (Finnish first), protocol, Excel decks, templates and catalogs.
``GAME`` is what the app asks (entry point ``facilitator.games``); this module stays light."""

from pathlib import Path

from facilitator.games import GamePackage
from facilitator.rules.alterego.ruleset import RULESET


def N_(message):
    """A message id for the catalogs' extraction, translated where it is shown."""
    return message


class AlterEgo(GamePackage):
    ruleset = RULESET
    folder = Path(__file__).parent
    screens = "facilitator.games.alterego.screens"
    turn, setup, final = "alterego.turn", "alterego.setup", "alterego.final"
    layout = "alterego/_layout.html"
    reports = "facilitator.games.alterego.words"
    seat = "facilitator.games.alterego.seat"
    #: the shipped pack by its name in the page's language (its catalogs translate it)
    shipped_pack_name = N_("Alter Ego, 3rd edition")

    def narrate(self, loaded, result):
        from facilitator.games.alterego.words import result_lines
        return result_lines(result, loaded.pack)

    def move_names(self):
        from facilitator.games.alterego.words import move_name
        from facilitator.rules.alterego.moves import MOVE_TYPES
        return {kind: move_name(kind) for kind in MOVE_TYPES}

    def moved_on_context(self, loaded, happened):
        from facilitator.games.alterego.screens import moved_on_context
        return moved_on_context(loaded, happened)

    def read_move_form(self, kind, formdata, loaded):
        """Alter Ego's move forms name their fields as the move JSON does (``screens.read_form``)."""
        from facilitator.games.alterego.screens import read_form
        return read_form(kind, formdata, loaded.pack)

    def undone_line(self, loaded, row):
        import json

        from facilitator.games.alterego.words import move_line
        from facilitator.i18n import gettext as _
        return _("Undone: {move}. It stays in the history, marked undone.",
                 move=move_line(json.loads(row.data), loaded.pack, row.seq))

    def error_text(self, err, pack=None):
        from facilitator.games.alterego.words import error_text
        return error_text(err, pack)

    # ----- the event: each table ranked on its own (RULES.md 5) -------------------------------
    announces = "tables"

    def announced(self, result):
        """The projector reveals one table's ranking per step, the tables in their order."""
        return [{"table": t["table"], "finished": t["finished"], "ended_by": t.get("ended_by"),
                 "players": [{"name": p["name"], "influence": p["influence"], "place": p["place"]}
                             for p in sorted(t["players"], key=lambda p: p["place"])]}
                for t in result["tables"]]

    event_files = ("workbook", "results", "certificates")

    def event_file(self, kind, tables, event):
        """The event workbook (a summary and every table's protocol), the results (each table
        ranked on its own) or the certificates (each table's first place and their faction)."""
        from facilitator.games.alterego import event as files
        return files.event_file(kind, tables, event)

    def blank_protocol(self, table_name, players, pack, event=None, event_date=None):
        from facilitator.games.alterego.event import blank_protocol_pdf
        return blank_protocol_pdf(table_name, players, pack, event=event, event_date=event_date)

    def standings_text(self, result):
        from facilitator.games.alterego.text import standings_text
        return standings_text(result)


GAME = AlterEgo()
