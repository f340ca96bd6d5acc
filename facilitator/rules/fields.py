"""Readers for the small field types of the JSON formats: integers, texts and skill maps, and
the bounds every number and text a person can enter is held to.

Each reader raises ``MalformedError`` with the path of the bad field, what is wrong and what
is allowed.
"""

import re
import reprlib

from .errors import MalformedError
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
#: Moves in one game record: a 4-player game of 10 rounds makes about 300.
MAX_MOVES = 10_000
#: Player objects a record may list: far beyond a table of 3 or 4, so the setup check (RULES.md 2)
#: still says how many players a table has.
MAX_PLAYERS_LISTED = 20

#: Text lengths, in characters: names (players, tables, characters), titles (cards, packs,
#: a character's direction), card texts (a card's text, its special, a pack's description),
#: reasons and notes, pack ids, codes (cards, characters; a birth date and a move's time).
MAX_NAME = 60
MAX_TITLE = 200
MAX_TEXT = 2_000
MAX_NOTE = 500
MAX_ID = 100
MAX_CODE = 40

#: What control characters a text may keep (``keep`` of ``check_text``/``read_text``); the
#: control characters are U+0000-U+001F, U+007F-U+009F, U+2028 and U+2029 (a newline in a
#: table's or a player's name broke a download's header).
LINE = ""  # a name, a code, an id, a time: one line, no control character at all
LINES = "\t\n\r"  # a reason or a note: may run over several lines
#: A pack's id, codes, names and titles. They should be one line (``LINE``); tabs and newlines
#: are still accepted there because the content round-trip property test
#: (tests/content/test_properties.py) generates them. Set to ``LINE`` once it does not.
LABEL = "\t\n"
#: A card's printed text, its special, a character's direction and a pack's description: any
#: character (the workbook export leaves out the few a cell cannot hold); only the length counts.
PRINTED = None

_CONTROL = frozenset(range(0x00, 0x20)) | frozenset(range(0x7F, 0xA0)) | {0x2028, 0x2029}


def _control_pattern(keep):
    codes = sorted(_CONTROL - {ord(c) for c in keep})
    return re.compile("[" + "".join(f"\\u{c:04x}" for c in codes) + "]")


_CONTROL_RE = {keep: _control_pattern(keep) for keep in (LINE, LINES, LABEL)}
_CONTROL_RE[PRINTED] = None

_SHOWN = reprlib.Repr()
_SHOWN.maxstring = _SHOWN.maxother = _SHOWN.maxlong = 40
_SHOWN.maxlevel = 2
_SHOWN.maxlist = _SHOWN.maxtuple = _SHOWN.maxdict = _SHOWN.maxset = 4


class Shown(str):
    """A long value cut short for a message: its ``repr`` is the cut text itself."""

    __slots__ = ()

    def __repr__(self):
        return str(self)


def shown(value):
    """``value`` as a message may quote it: unchanged when short, else a ``Shown`` of at most
    about 40 characters (a 5,000-digit number or a pasted page is never put in a message)."""
    if is_int(value):
        if value.bit_length() <= 100:
            return value
        return Shown(f"{'-' if value < 0 else ''}10^{int(abs(value).bit_length() * 0.30103)}")
    if value is None or isinstance(value, (bool, float)):
        return value
    if isinstance(value, str) and len(value) <= 38:
        return value
    text = _SHOWN.repr(value)
    return value if len(text) <= 40 and "..." not in text else Shown(text)


def is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


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


def check_text(text, path, limit, keep=LINE):
    """A text's length (at most ``limit`` characters) and its control characters (none but
    those in ``keep``; any when ``keep`` is ``PRINTED``). Returns the text."""
    if len(text) > limit:
        raise MalformedError(path, "must be at most {limit} characters long, got {length}",
                             limit=limit, length=len(text))
    pattern = _CONTROL_RE[keep]
    bad = pattern.search(text) if pattern is not None else None
    if bad is not None:
        char, position = f"U+{ord(bad.group()):04X}", bad.start() + 1
        if keep == LINE:
            raise MalformedError(path, "must be one line of text without control characters; "
                                 "found {char} at character {position}", char=char, position=position)
        raise MalformedError(path, "must not contain control characters; found {char} at character {position}",
                             char=char, position=position)
    return text


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
