"""Who wins (RULES.md §8): every player against his own rival card, not a ranking.

The comparisons are strict (D15, D16); the Federalist wins only by a takeover with at least
``federalist_capital`` (D17); and at least one player always loses (D18), which the rules
guarantee through D14–D17 and which ``decide`` asserts, as the reference pseudo-code does.
"""

from .pack import FEDERALIST


def decide(ended_by, players, rivals, k, federalist_capital):
    """``{name: won}`` for ``players`` = ``[(name, corp, capital), ...]`` in seating order.

    ``rivals`` maps each name to a corporation key or ``"federalist"``; ``k`` is k(n) of D15.
    Raises ``AssertionError`` if nobody would lose (only possible with inputs the engine refuses,
    e.g. k = 0 or a repeated rival)."""
    capital = {name: cap for name, _, cap in players}
    player_of = {corp: name for name, corp, _ in players}
    won = {}
    for name, corp, cap in players:
        rival = rivals[name]
        if ended_by == "threat":
            won[name] = rival == FEDERALIST and cap >= federalist_capital  # D17
        elif rival == FEDERALIST:
            won[name] = False  # D17
        elif rival == corp:  # own card, D15
            won[name] = sum(1 for other, c in capital.items() if other != name and cap > c) >= k
        else:  # D16
            won[name] = cap > capital[player_of[rival]]
    if all(won.values()):
        raise AssertionError("D18: at least one player must lose, but every player won")
    return won


def rival_player(name, rival, players):
    """The player of the rival's corporation: the player himself for his own card, None for the
    Federalist."""
    if rival == FEDERALIST:
        return None
    for other, corp, _ in players:
        if corp == rival:
            return other
    return None
