"""The bounds every game's JSON formats hold a text to, and what a refusal may quote: shared by
the rules engines of every game (games-neutral: no game's rule is here).

A text beyond these is a typing slip (a pasted page) or an attack, never a game: refused when
read, with ``MalformedError`` naming the field, so no screen, sheet or backup ever carries it.
"""

import re
import reprlib

from .errors import MalformedError

#: Moves in one game record (and log rows in one table): a 4-player «16/25» game of 10 rounds
#: makes about 300.
MAX_MOVES = 10_000

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

def only_known(data, allowed, path, strict=True):
    """The JSON object ``data`` holding only the keys in ``allowed`` (a frozenset, or a
    ``KeySet`` that also says the order a refusal lists them in).

    ``strict``: any other key is refused, naming it and the keys allowed (a move sent by a
    tablet, a form, the API or an outbox file holds only its rules' fields). Else the other
    keys are dropped: a record's readers ignore them (RECORD.md 2), and whatever a reader
    keeps is stored, so kept they would let one record file carry megabytes into a log."""
    if data.keys() <= allowed:  # the usual case, checked fast
        return data
    if strict:
        key = next(k for k in data if k not in allowed)
        where = f"{path}.{shown(key)}" if path else str(shown(key))
        raise MalformedError(where, "unknown key {key!r}; the keys allowed here are {allowed}",
                             key=shown(key), allowed=", ".join(getattr(allowed, "order", None) or sorted(allowed)))
    return {k: v for k, v in data.items() if k in allowed}


class KeySet(frozenset):
    """The keys an object may hold, with the order a message lists them in (``order``)."""

    def __new__(cls, keys):
        keys = tuple(keys)
        made = super().__new__(cls, keys)
        made.order = keys
        return made
