"""Readers for the small field types of the JSON formats: integers, texts and skill maps, and
the bounds every number and text a person can enter is held to.

Each reader raises ``MalformedError`` with the path of the bad field, what is wrong and what
is allowed.
"""

from ..bounds import (LABEL, LINE, LINES, MAX_CODE, MAX_ID, MAX_MOVES, MAX_NAME, MAX_NOTE, MAX_TEXT,  # noqa: F401
                     MAX_TITLE, PRINTED, KeySet, Shown, check_text, is_int, only_known, shown)
from ..errors import MalformedError
from .skills import SKILLS

# ----- bounds: what the game can reach ---------------------------------------------------------
# A number or text beyond these is a typing slip (extra zeros, a pasted page) or an attack, never
# a game: refused when read, so no chart, table, header or PDF ever has to draw it.

#: The most XP a player can hold. Without host corrections a player gains at most 10,000 XP
#: from their own cards (10 turns, at most two cards a turn — a drawn card and a deferred one —
#: of at most 500 XP) and at most 3 shares of 30% of another player's XP: the first sharer has
#: at most 10,000 and gives 3,000, the second at most 13,000 and gives 3,900, the third at most
#: 16,900 and gives 5,100, so no one passes 22,000 XP, or 22,500 with the declaration bonus.
#: 100,000 leaves room for any honest correction; it also bounds a level threshold (a level
#: beyond it could never be reached).
MAX_XP = 100_000
#: The largest XP change one adjust may make either way: a whole game's worth of own cards.
#: (The step of 100 is the engine's rule, RULES.md 3.7.)
MAX_XP_CHANGE = 10_000
#: The largest SP amount anywhere: a character's skill, a card's condition, loss or gain, free
#: SP, a redistribution, ``skill_max``, an extra SP or declaration target, an allocation, and
#: (either way) a change of a skill. Real decks use single digits; a player starts at most
#: a few SP above their character and gains at most 6 SP a card.
MAX_SP = 100
#: Level thresholds a pack may list: more levels than XP steps of 1,000 up to ``MAX_XP``.
MAX_LEVELS = 100
#: Cards and characters in one pack: a printed deck has about 100 cards and 10 characters.
MAX_CARDS = 2_000
MAX_CHARACTERS = 200
#: Player objects a record may list: far beyond a table of 3 or 4, so the setup check (RULES.md 2)
#: still says how many players a table has.
MAX_PLAYERS_LISTED = 20


def read_int(value, path, minimum=None, maximum=None):
    """A whole number (never a boolean) within ``minimum``..``maximum`` when given."""
    if not is_int(value):
        raise MalformedError(path, "must be a whole number, got {value!r}", value=shown(value))
    if minimum is not None and value < minimum:
        raise MalformedError(path, "must be at least {minimum}, got {value}",
                             minimum=minimum, value=shown(value))
    if maximum is not None and value > maximum:
        raise MalformedError(path, "must be at most {maximum}, got {value}",
                             maximum=maximum, value=shown(value))
    return value


def read_text(value, path, required=True, *, limit, keep=LINE):
    """A text of at most ``limit`` characters keeping no control characters but ``keep``;
    non-empty (not only spaces) when ``required``, else None is allowed."""
    if value is None and not required:
        return None
    if not isinstance(value, str) or (required and not value.strip()):
        raise MalformedError(path, "must be a non-empty text")
    return check_text(value, path, limit, keep)


def read_skill_map(value, path, signed=False, limit=MAX_SP):
    """A ``{skill: int}`` map; values are 0..``limit``, or -``limit``..``limit`` when
    ``signed``. Returns a new dict."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise MalformedError(path, "must be a map of skills to numbers, got {value!r}", value=shown(value))
    out = {}
    for key, amount in value.items():
        if key not in SKILLS:
            raise MalformedError(f"{path}.{shown(key)}", "unknown skill {key!r}; the skills are {allowed}",
                                 key=shown(key), allowed=", ".join(SKILLS))
        out[key] = read_int(amount, f"{path}.{key}", minimum=-limit if signed else 0, maximum=limit)
    return out


def read_list(value, path, limit):
    """A list of at most ``limit`` items."""
    if not isinstance(value, list):
        raise MalformedError(path, "must be a list")
    if len(value) > limit:
        raise MalformedError(path, "must list at most {limit} items, got {count}", limit=limit, count=len(value))
    return value


def read_object(value, path):
    if not isinstance(value, dict):
        raise MalformedError(path, "must be an object, got {value!r}", value=shown(value))
    return value


def require(obj, key, path):
    if key not in obj:
        raise MalformedError(f"{path}.{key}" if path else key, "is missing")
    return obj[key]


class FieldErrors:
    """Reads an object field by field and keeps every ``MalformedError`` instead of stopping at
    the first, so a pack lists every problem of a card at once. ``take`` returns the field's
    value, or ``default`` after noting what was wrong."""

    def __init__(self):
        self.errors = []

    def take(self, read, default=None):
        try:
            return read()
        except MalformedError as err:
            self.errors.append(err)
            return default

    def raise_first(self):
        """For a single object outside a pack: the first problem, as a plain refusal."""
        if self.errors:
            raise self.errors[0]
