"""What New Angeles' turn screen needs to follow the moves entered offline: what the game waits
for after each of them (ARCHITECTURE.md decision 14, issue 18 item 2).

A deal's outcome for whoever comes next does not depend on what was offered: the token passes
on and the round's asset cards count down (D21). ``turn_answers(game)`` finds it from the
engine itself, by applying a plain deal (the active player's offer, nobody countering, the main
offer winning) to a copy of the game, from the position now and from those the deals lead to:
``{"start": key, "positions": {key: position}}``, a position being ``{"expects": "deal",
"active", "deal", "of", "label", "legal", "deal_then": key}``, ``{"expects": "end_round" |
"demand_round" | "finish", "label", "legal"}`` (what follows those depends on the numbers the host
enters: the answers end there), or ``{"expects": None}`` (``UNKNOWN``); ``legal`` is the engine's
legal move of that type there (``Game.legal_moves``: what the screen needs to draw its form, the
deal's counteroffer order and face-up emergency cards, the end of round's asset cards). The
screen names who is active every time, draws each position's own form from it and computes no
rule.
"""

from ..errors import RulesError
from .game import Game
from .moves import Move, Offer

UNKNOWN = "?"


def turn_answers(game: Game):
    positions, keys = {}, {}

    def add(canonical, key, position):
        if canonical not in keys:
            keys[canonical] = key
            positions[key] = position
        return keys[canonical]

    def key_of(g):
        if g.finished:
            return add(("unknown",), UNKNOWN, {"expects": None})
        nxt = g.next()
        if nxt["expects"] != "deal":
            return add((nxt["expects"], g.label), f"{nxt['expects'][0]}{len(positions)}",
                       {"expects": nxt["expects"], "label": g.label, "legal": _legal(g, nxt["expects"])})
        canonical = ("deal", g.label, nxt["deal"], nxt["active"])
        if canonical in keys:
            return keys[canonical]
        key = add(canonical, f"d{len(positions)}", {"expects": "deal", "active": nxt["active"], "deal": nxt["deal"],
                                                  "of": nxt["of"], "label": g.label,
                                                  "legal": _legal(g, "deal")})
        after = g.copy()
        try:
            after.apply(_plain_deal(g, nxt["active"]))
        except RulesError:
            positions[key]["deal_then"] = add(("unknown",), UNKNOWN, {"expects": None})
        else:
            positions[key]["deal_then"] = key_of(after)
        return key

    start = key_of(game)
    add(("unknown",), UNKNOWN, {"expects": None})
    return {"start": start, "positions": positions}


def _legal(g, kind):
    return next((m for m in g.legal_moves() if m["type"] == kind), None)


def _plain_deal(g, active):
    """A deal the engine accepts now: the active player's offer wins an asset card nobody holds."""
    held = set(g.holder)
    free = [a.code for a in g.pack.assets if a.code not in held] if g.pack.assets else []
    asset = free[0] if free else next(f"offline-{i}" for i in range(len(held) + 1) if f"offline-{i}" not in held)
    return Move("deal", active=active, asset=asset, main=Offer(card="offline"), counteroffers=(), support=(),
                winner="main")
