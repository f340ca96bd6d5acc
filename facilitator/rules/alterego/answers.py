"""What Alter Ego's turn screen needs to go on without the server: where the moves a host can
enter offline lead (ARCHITECTURE.md decision 14, issue 18 item 2).

Offline a host enters the moves of the turn screen that need no page of their own: a player's
draw, the end of their turn, the season card drawn. ``turn_answers(game)`` says, for each of them
from the position now and from the positions they lead to (up to a turn of every player),
what the game waits for next, by applying the move to a copy of the game (``Game.apply``): the
screen names the right player every time and computes no rule. A pending choice (after a season
card), the game's end, or a turn past the horizon end the answers: the screen says so.

``{"start": key, "positions": {key: position}}``; a position is ``{"expects": "draw" | "play",
"player", "season", "turn", "draw" | "end_turn": key, "season_card": key or None}``, or
``{"expects": "choose", "player"}``, ``{"expects": "finish"}``, ``{"expects": None}`` (``UNKNOWN``).
"""

from ..errors import RulesError
from .game import Game
from .moves import Move

UNKNOWN = "?"


def turn_answers(game: Game):
    positions, keys = {}, {}
    limit = game.turn + len(game.order)

    def add(canonical, key, position):
        if canonical not in keys:
            keys[canonical] = key
            positions[key] = position
        return keys[canonical]

    def then(g, move):
        after = g.copy()
        try:
            after.apply(move)
        except RulesError:  # a move the engine refuses here leads nowhere the screen can know
            return add(("unknown",), UNKNOWN, {"expects": None})
        return key_of(after)

    def key_of(g):
        if g.finished:
            return add(("finish",), "f", {"expects": "finish"})
        nxt = g.next()
        if nxt["expects"] == "choose":
            return add(("choose", nxt["player"]), f"c{len(positions)}", {"expects": "choose", "player": nxt["player"]})
        if g.turn > limit:
            return add(("unknown",), UNKNOWN, {"expects": None})
        step, player = nxt["expects"], nxt["player"]
        canonical = (step, g.turn, g.season)
        if canonical in keys:
            return keys[canonical]
        key = add(canonical, f"{step[0]}{g.turn}s{g.season}",
                  {"expects": step, "player": player, "season": g.season, "turn": g.turn})
        position = positions[key]
        position["season_card"] = then(g, Move("season", player=player)) if _legal(g, Move("season", player=player)) \
            else None
        if step == "draw":
            position["draw"] = then(g, Move("draw", player=player))
        else:
            position["end_turn"] = then(g, Move("end_turn", player=player))
        return key

    start = key_of(game)
    add(("unknown",), UNKNOWN, {"expects": None})
    return {"start": start, "positions": positions}


def _legal(g, move):
    try:
        g.check(move)
    except RulesError:
        return False
    return True
