"""The New Angeles tracker above its engine (``facilitator.rules.newangeles``): its host
screens under ``/na``, forms, words (English and Swedish), protocol, templates and catalogs.
``GAME`` is what the app asks (entry point ``facilitator.games``); this module stays light."""

from pathlib import Path

from facilitator.games import GamePackage
from facilitator.rules.newangeles.ruleset import RULESET

MOVE_KINDS = ("deal", "end_round", "demand_round", "capital", "threat", "supply", "transfer", "adjust", "finish")


def N_(message):
    """A message id for the catalogs' extraction, translated where it is shown."""
    return message


class NewAngeles(GamePackage):
    ruleset = RULESET
    folder = Path(__file__).parent
    screens = "facilitator.games.newangeles.screens"
    turn, setup, final = "newangeles.turn", "newangeles.setup", "newangeles.final"
    layout = "newangeles/_layout.html"
    reports = "facilitator.games.newangeles.words"
    seat = "facilitator.games.newangeles.seat"
    #: the shipped pack by its name in the page's language (its catalogs translate it)
    shipped_pack_name = N_("Sample pack (demand cards made up, not the original game's)")

    def narrate(self, loaded, result):
        """A move's "what changed" lines in the game's language (the outbox's batch answer too)."""
        from flask import has_request_context

        from facilitator.games.newangeles.words import event_lines
        from facilitator.i18n import get_locale, spoken, use_locale
        from facilitator.web import page_locale
        chosen = page_locale(self.locales) if has_request_context() else get_locale()
        with use_locale(spoken(chosen, self.locales)):  # as the game's screens speak
            return event_lines(result, loaded.pack)

    def move_names(self):
        from facilitator.games.newangeles.screens import move_type_label
        return {kind: move_type_label(kind) for kind in MOVE_KINDS}

    def moved_on_context(self, loaded, happened):
        from facilitator.games.newangeles.screens import moved_on_context
        return moved_on_context(loaded, happened)

    def read_move_form(self, kind, formdata, loaded):
        """New Angeles' move forms, a deal's helper inputs folded (``screens.read_form``)."""
        from facilitator.games.newangeles.screens import read_form
        return read_form(kind, formdata, loaded)

    def undone_line(self, loaded, row):
        import json

        from facilitator.games.newangeles.screens import move_type_label
        from facilitator.i18n import gettext as _
        return _("Move #{seq} ({type}) was undone; it stays in the history, marked undone.", seq=row.seq,
                 type=move_type_label(json.loads(row.data).get("type", "")))

    def error_text(self, err, pack=None):
        """A refusal in the screen's words: a malformed field named by its label on the screen
        («Tillgångskort: saknas»), a corporation by the pack's name for it (with ``pack``), never
        by the record's key."""
        from facilitator.i18n import describe_error, translate_error
        from facilitator.rules.errors import IllegalMoveError, MalformedError, ReplayError, SetupError
        if isinstance(err, (IllegalMoveError, SetupError)):  # corporations, resources… by their names
            from facilitator.games.newangeles.words import refusal_text
            return refusal_text(err, pack)
        if isinstance(err, MalformedError) and not isinstance(err, ReplayError) and err.path:
            from facilitator.games.newangeles.words import path_label
            where = path_label(err.path)
            return f"{where}: {translate_error(err)}" if where else translate_error(err)
        return describe_error(err)

    # ----- the event: no team score, the winners of each table (RULES.md §8) ---------------------
    announces = "tables"

    def announced(self, result):
        """The projector reveals one table's winners per step, the tables in their order (no
        rival card: winners are known only after a table's reveal)."""
        return [{"table": t["table"], "finished": t["finished"], "ended_by": t.get("ended_by"),
                 "winners": list(t.get("winners") or [])} for t in result["tables"]]

    event_files = ("workbook", "results", "certificates")

    def event_file(self, kind, tables, event):
        """The event workbook (a summary and every table's protocol), the results (each table's
        winners and its players) or the certificates (each table's winners and their corporation)."""
        from facilitator.games.newangeles import event as files
        return files.event_file(kind, tables, event)

    def blank_protocol(self, table_name, players, pack, event=None, event_date=None):
        from facilitator.games.newangeles.event import blank_protocol_pdf
        return blank_protocol_pdf(table_name, players, pack, event=event, event_date=event_date)

    def standings_text(self, result):
        from facilitator.games.newangeles.text import standings_text
        return standings_text(result)


GAME = NewAngeles()
