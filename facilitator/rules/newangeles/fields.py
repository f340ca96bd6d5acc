"""Readers for the small field types of the New Angeles formats (texts, whole numbers, maps).

Each raises ``MalformedError`` with the path of the bad field. They check only the shape of the
JSON (RECORD.md); whether a value is allowed in the game (a known player, a capital that stays
≥ 0) is the engine's business and is refused with an ``IllegalMoveError`` or a ``SetupError``.
"""

from ..errors import MalformedError
from ..bounds import LINE, check_text, shown

#: the largest number a move may carry either way (capital, threat, supply, cards, counts): the
#: host's forms take the same (``newangeles_forms.MAX_NUMBER``); a game's own numbers are a
#: few dozen
MAX_NUMBER = 1_000_000


def is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def read_object(value, path):
    if not isinstance(value, dict):
        raise MalformedError(path, "must be an object, got {value!r}", value=shown(value))
    return value


def require(obj, key, path):
    if key not in obj:
        raise MalformedError(f"{path}.{key}" if path else key, "is missing")
    return obj[key]


def sub(path, key):
    """``move`` + ``asset`` -> ``move.asset``; the top level has no prefix."""
    return f"{path}.{key}" if path else key


def read_int(value, path, minimum=None, maximum=None):
    """A whole number, at least ``minimum``; with ``maximum``, within ±``maximum`` too."""
    if not is_int(value):
        raise MalformedError(path, "must be a whole number, got {value!r}", value=shown(value))
    if minimum is not None and value < minimum:
        raise MalformedError(path, "must be at least {minimum}, got {value}", minimum=minimum, value=shown(value))
    if maximum is not None and not -maximum <= value <= maximum:
        raise MalformedError(path, "must be from {low} to {high}, got {value}", low=-maximum, high=maximum,
                             value=shown(value))
    return value


def read_text(value, path, limit=None, keep=LINE):
    """A non-empty text; with ``limit``, of at most that many characters and without control
    characters but ``keep`` (``fields.check_text``)."""
    if not isinstance(value, str) or not value.strip():
        raise MalformedError(path, "must be a non-empty text")
    if limit is not None:
        check_text(value, path, limit, keep)
    return value


def read_choice(value, path, allowed):
    if not isinstance(value, str) or value not in allowed:
        raise MalformedError(path, "must be one of {allowed}, got {value!r}",
                             allowed=", ".join(allowed), value=shown(value))
    return value


def read_list(value, path, limit=None):
    if not isinstance(value, list):
        raise MalformedError(path, "must be a list, got {value!r}", value=shown(value))
    if limit is not None and len(value) > limit:
        raise MalformedError(path, "must list at most {limit} items, got {count}", limit=limit, count=len(value))
    return value


def read_int_map(value, path, minimum=None, *, limit=None, key_limit=None, maximum=None):
    """``{key: whole number}``; the keys are checked against the pack by the engine. With
    ``limit``, at most that many entries, ``key_limit`` characters a key and numbers within
    ±``maximum``."""
    read_object(value, path)
    if limit is not None and len(value) > limit:
        raise MalformedError(path, "must list at most {limit} items, got {count}", limit=limit, count=len(value))
    out = {}
    for key, amount in value.items():
        if key_limit is not None:
            check_text(key, f"{path}.{shown(key)}", key_limit, LINE)
        out[key] = read_int(amount, f"{path}.{key}", minimum, maximum)
    return out


def optional(data, key):
    """The value of an optional key: absent and ``null`` both read as None (a ``null`` is kept
    so it is written back as it came)."""
    return data.get(key)
