"""The screens of each game. «16/25»'s are the ``host`` blueprint; every other ruleset brings a
blueprint of its own (``/ae/…`` for Alter Ego, ``/na/…`` for New Angeles) and registers here
which of its views shows a table's setup, its turn and its final results. A table opened by its
generic address (``/table/<id>``, the host link, the PIN) lands on its own game's screens."""

from dataclasses import dataclass

from flask import url_for

LYCEUM = "lyceum-16-25"


@dataclass(frozen=True)
class GameScreens:
    ruleset: str
    turn: str  # the endpoint of a table's main screen (takes ``table_id``)
    setup: str
    final: str


SCREENS = {LYCEUM: GameScreens(LYCEUM, "host.turn", "host.setup", "host.final")}


#: the blueprint module of each game besides «16/25» (``facilitator.web.<name>``, with ``bp``)
GAME_MODULES = ("alterego", "newangeles")


def register_blueprints(app, csrf=None):
    """Register every game's blueprint that is installed (its module defines ``bp``)."""
    from importlib import import_module
    from importlib.util import find_spec
    for name in GAME_MODULES:
        if find_spec(f"facilitator.web.{name}") is None:
            continue
        module = import_module(f"facilitator.web.{name}")
        app.register_blueprint(module.bp)


# Each game's words for the screens the games share, registered by its blueprint module (the
# ``host`` blueprint for «16/25»):

#: what a move changed, as lines for the host, by ruleset: ``fn(loaded, result) -> [str]``
NARRATORS = {}

#: the host's line for an undone move, by ruleset: ``fn(loaded, row) -> str`` (``row`` the move
#: row taken back); the form's undo and an undo sent by the tablet's outbox say the same
UNDONE = {}

#: the names of a game's moves for the tablet's outbox, by ruleset: ``fn() -> {type: name}``
#: (a draw's name may be keyed ``draw:<decision>``); the outbox names a waiting move with them
#: while offline, when the server cannot be asked
MOVE_NAMES = {}


def narrate(loaded, result):
    """The "what changed" lines of a move's result, in the current language."""
    fn = NARRATORS.get(loaded.table.ruleset)
    return fn(loaded, result) if fn else []


def undone_line(loaded, row):
    """"Move #n (…) was undone" for ``row``, in the table's game's words and the current language."""
    return UNDONE[loaded.table.ruleset](loaded, row)


def undone_by_type(row, type_name):
    """"Move #n (its type) was undone": the undo line of a game that names the move by its type."""
    from ..i18n import gettext as _
    return _("Move #{seq} ({type}) was undone; it stays in the history, marked undone.", seq=row.seq, type=type_name)


def stale_text(err, undo=False):
    """Why a write was refused because the table is not at the move the screen (or the queued
    move, or the script) names (``services.StaleMove``), in the current language. A screen
    behind the table was overtaken by another device; one ahead of it names a move the table
    has not reached (a table restored or undone meanwhile, a move sent to the wrong table)."""
    from ..i18n import gettext as _
    numbers = {"expected": err.expected, "actual": err.actual}
    if err.expected > err.actual:
        if undo:
            return _("This screen names move #{expected}, but the table has only reached move #{actual}; "
                     "nothing was undone. Reload the screen.", **numbers)
        return _("This screen names move #{expected}, but the table has only reached move #{actual}. The move "
                 "was NOT recorded: reload the screen and repeat it if needed.", **numbers)
    if undo:
        return _("The table has changed on another device (move #{expected}, now #{actual}); "
                 "nothing was undone.", **numbers)
    return _("The table has changed on another device since this screen was drawn "
             "(move #{expected}, now #{actual}). The move was NOT recorded: check the "
             "screen and repeat it if needed.", **numbers)


def move_names(ruleset):
    """``{move type: its name}`` in the current language, for a page of ``ruleset``'s game."""
    return MOVE_NAMES[ruleset]()


def register(screens):
    SCREENS[screens.ruleset] = screens
    return screens


def screen_url(table, which="turn", **values):
    """Where a table's ``which`` screen (turn, setup, final) is, by its game."""
    screens = SCREENS.get(table.ruleset, SCREENS[LYCEUM])
    return url_for(getattr(screens, which), table_id=table.id, **values)


def foreign(table):
    """True when the table plays another game than «16/25» (its screens are elsewhere)."""
    return table.ruleset != LYCEUM and table.ruleset in SCREENS
