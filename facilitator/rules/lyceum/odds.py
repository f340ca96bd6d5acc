"""The odds of a draw (issue 21): of the cards of each colour of the era being played, how many a
player could play now. A card counts when the player is eligible for it (RULES.md 3.1: for every
skill, SP ≥ its condition and SP ≥ its loss), asked of the engine's own check
(``Game.eligible``), whoever's turn it is. Pure: standard library only.
"""

from .cards import COLORS
from .eras import era_of_round


def odds_era(game):
    """The era the odds are counted in: the era of the next main move (the decks on the table
    are that era's once its first turn comes), else, once the last turn has begun, the era of
    the current round."""
    upcoming = game.upcoming()
    return era_of_round(upcoming[0] if upcoming else game.round)


def playable(game, name, era=None):
    """``{colour: (k, n)}`` for player ``name``: ``n`` the cards of that colour of ``era`` (the
    odds' era by default) in the table's pack, ``k`` those the player is eligible for now."""
    era = era or odds_era(game)
    out = {}
    for color in COLORS:
        cards = game.pack.cards_of(era.key, color)
        out[color] = (sum(1 for card in cards if game.eligible(name, card)), len(cards))
    return out


def table_odds(game):
    """``{name: {colour: (k, n)}}`` for every player of the table, in turn order."""
    era = odds_era(game)
    return {name: playable(game, name, era) for name in game.order}


__all__ = ["odds_era", "playable", "table_odds"]
