"""Eras and rounds: RULES.md section 1."""

from dataclasses import dataclass

ROUNDS = 10
FIRST_AGE = 16


@dataclass(frozen=True)
class Era:
    """An era: its key (the screens name it in their language), its rounds and how many SP a
    rest may redistribute in it."""

    key: str
    first_round: int
    last_round: int
    rest_limit: int

    @property
    def rounds(self):
        return range(self.first_round, self.last_round + 1)


ERAS = (
    Era("lyceum", 1, 3, 3),
    Era("university", 4, 7, 4),
    Era("adult", 8, 10, 5),
)
ERA_KEYS = tuple(e.key for e in ERAS)
ERA_BY_KEY = {e.key: e for e in ERAS}


_ERA_OF_ROUND = {r: era for era in ERAS for r in era.rounds}


def era_of_round(round_no):
    """The era a round (1..10) belongs to."""
    era = _ERA_OF_ROUND.get(round_no)
    if era is not None:
        return era
    for era in ERAS:
        if era.first_round <= round_no <= era.last_round:
            return era
    raise ValueError(f"round must be 1..{ROUNDS}, got {round_no}")


def age_in_round(round_no):
    """The character's age in a round: round r is the year they are 15 + r."""
    return FIRST_AGE - 1 + round_no
