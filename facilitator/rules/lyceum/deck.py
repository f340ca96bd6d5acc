"""The app's own shuffled copy of the deck, for tables without printed cards.

Each era and colour is a pile shuffled from the table's seed. A drawn card goes to the
discard pile (or stays with its player while deferred); when a pile runs out, its discard
pile is shuffled back in, as a host would do. The next card depends only on the seed and
the cards drawn so far, so reloading a screen never draws a different card.
"""

import random

from .game import Game


def drawn_codes(game, era, color):
    """Pack codes drawn so far in this game from one era and colour, in order."""
    return [r.card.code for r in game.history
            if r.move.type == "draw" and isinstance(r.move.card, str)
            and r.card is not None and r.card.era == era and r.card.color == color]


def held_codes(game):
    return {p.deferred.card.code for p in game.players.values() if p.deferred and p.deferred.card.code}


def next_card(game: Game, seed, era, color):
    """The card the app's deck gives next for this era and colour, or None if the pack has none."""
    cards = sorted(game.pack.cards_of(era, color), key=lambda c: c.code)
    if not cards:
        return None
    drawn = drawn_codes(game, era, color)
    held = held_codes(game)
    cycle = 0
    pile = _shuffled(cards, seed, era, color, cycle)
    used = set()
    for code in drawn:
        if not any(c.code not in used for c in pile):
            cycle += 1
            pile = _shuffled(cards, seed, era, color, cycle)
            used = set()
        used.add(code)
    remaining = [c for c in pile if c.code not in used and c.code not in held]
    if not remaining:  # every card drawn: the discard pile is shuffled back in
        cycle += 1
        remaining = [c for c in _shuffled(cards, seed, era, color, cycle) if c.code not in held] or pile
    return remaining[0]


def _shuffled(cards, seed, era, color, cycle):
    order = list(cards)
    random.Random(f"{seed}:{era}:{color}:{cycle}").shuffle(order)
    return order
