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
    #: the shipped pack by its name in the page's language (its catalogs translate it)
    shipped_pack_name = N_("Sample pack (demand cards made up, not the original game's)")

    def narrate(self, loaded, result):
        """A move's "what changed" lines in the game's language (the outbox's batch answer too)."""
        from flask import has_request_context

        from facilitator.games.newangeles.words import event_lines
        from facilitator.i18n import get_locale, use_locale
        from facilitator.web import page_locale
        chosen = page_locale(self.locales) if has_request_context() else get_locale()
        with use_locale(chosen if chosen in self.locales else self.locales[0]):  # as the game's screens speak
            return event_lines(result, loaded.pack)

    def move_names(self):
        from facilitator.games.newangeles.screens import move_type_label
        return {kind: move_type_label(kind) for kind in MOVE_KINDS}

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
        from facilitator.i18n import describe_error, translate_error
        from facilitator.rules.errors import IllegalMoveError
        return translate_error(err) if isinstance(err, IllegalMoveError) else describe_error(err)

    def standings_text(self, result):
        from facilitator.games.newangeles.text import standings_text
        return standings_text(result)


GAME = NewAngeles()
