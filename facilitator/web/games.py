"""The screens of each game, reached through its game package (``facilitator.games``): every
game brings a blueprint of its own and names which of its views shows a table's setup, its turn
and its final results; the words every game says on the screens they share (what a move
changed, an undone move, the outbox's move names, a stale screen)."""

from flask import url_for

from facilitator import games


def register_blueprints(app):
    """Register every game's blueprint (its screens) and its templates folder; a game lacking a
    template of its part of the shared event pages is refused here (``GamePackage.check_templates``),
    not on an organizer's dashboard in the middle of an event."""
    for game in games.registered():
        game.check_templates()
        for bp in game.blueprints():
            app.register_blueprint(bp)


def narrate(loaded, result):
    """The "what changed" lines of a move's result, in the current language."""
    return games.get(loaded.table.ruleset).narrate(loaded, result)


def undone_line(loaded, row):
    """"Move #n (…) was undone" for ``row``, in the table's game's words and the current language."""
    return games.get(loaded.table.ruleset).undone_line(loaded, row)


def stale_text(err, undo=False):
    """Why a write was refused because the table is not at the move the screen (or the queued
    move, or the script) names (``services.StaleMove``), in the current language. A screen
    behind the table was overtaken by another device; one ahead of it names a move the table
    has not reached (a table restored or undone meanwhile, a move sent to the wrong table)."""
    from facilitator.i18n import gettext as _
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
    return games.get(ruleset).move_names() if ruleset else {}


def screen_url(table, which="turn", **values):
    """Where a table's ``which`` screen (turn, setup, final) is, by its game."""
    return url_for(getattr(games.of_table(table), which), table_id=table.id, **values)
