"""The odds of a draw (issue 21): of the cards of each colour of the era being played, how many a
player could play now. A card counts when the player is eligible for it (RULES.md 3.1: for every
skill, SP ≥ its condition and SP ≥ its loss), asked of the engine's own check
(``Game.eligible``), whoever's turn it is. Pure: standard library only.
"""

import weakref

from .cards import COLORS
from .eras import era_of_round
from .skills import SKILLS


def odds_era(game):
    """The era the odds are counted in: the era of the next main move (the decks on the table
    are that era's once its first turn comes), else, once the last turn has begun, the era of
    the current round."""
    upcoming = game.upcoming()
    return era_of_round(upcoming[0] if upcoming else game.round)


def playable(game, name, era=None):
    """``{colour: (k, n)}`` for player ``name``: ``n`` the cards of that colour of ``era`` (the
    odds' era by default) in the table's pack, ``k`` those the player is eligible for now.
    Eligibility asks only the player's skills, so the counts are worked out once per pack, era
    and skill values (a move changes one player's skills: the others' counts are known)."""
    era = era or odds_era(game)
    skills = game.players[name].skills
    kept = _kept(game.pack)
    key = (era.key, tuple(skills[s] for s in SKILLS))
    counts = kept.get(key)
    if counts is None:
        decks = kept.get(era.key)
        if decks is None:
            decks = kept[era.key] = [(color, game.pack.cards_of(era.key, color)) for color in COLORS]
        counts = {color: (sum(1 for card in cards if game.eligible(name, card)), len(cards)) for color, cards in decks}
        if len(kept) >= KEPT:
            kept.clear()
        kept[key] = counts
    return dict(counts)


#: the most counts kept per pack (then it starts again)
KEPT = 20_000
#: ``id(pack) -> (weak reference to the pack, {(era, skill values): counts})``; an entry goes
#: with its pack (a pack is never changed: an edit is a new pack)
_COUNTS = {}


def _kept(pack):
    entry = _COUNTS.get(id(pack))
    if entry is None or entry[0]() is not pack:
        entry = _COUNTS[id(pack)] = (weakref.ref(pack, lambda _ref, key=id(pack): _COUNTS.pop(key, None)), {})
    return entry[1]


def table_odds(game):
    """``{name: {colour: (k, n)}}`` for every player of the table, in turn order."""
    era = odds_era(game)
    return {name: playable(game, name, era) for name in game.order}


__all__ = ["odds_era", "playable", "table_odds"]
