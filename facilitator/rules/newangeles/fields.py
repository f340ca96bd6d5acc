"""Readers for the small field types of the New Angeles formats (texts, whole numbers, maps).

Each raises ``MalformedError`` with the path of the bad field. They check only the shape of the
JSON (RECORD.md); whether a value is allowed in the game (a known player, a capital that stays
≥ 0) is the engine's business and is refused with an ``IllegalMoveError`` or a ``SetupError``.
"""

from ..errors import MalformedError


def is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def read_object(value, path):
    if not isinstance(value, dict):
        raise MalformedError(path, "must be an object, got {value!r}", value=value)
    return value


def require(obj, key, path):
    if key not in obj:
        raise MalformedError(f"{path}.{key}" if path else key, "is missing")
    return obj[key]


def sub(path, key):
    """``move`` + ``asset`` -> ``move.asset``; the top level has no prefix."""
    return f"{path}.{key}" if path else key


def read_int(value, path, minimum=None):
    if not is_int(value):
        raise MalformedError(path, "must be a whole number, got {value!r}", value=value)
    if minimum is not None and value < minimum:
        raise MalformedError(path, "must be at least {minimum}, got {value}", minimum=minimum, value=value)
    return value


def read_text(value, path):
    if not isinstance(value, str) or not value.strip():
        raise MalformedError(path, "must be a non-empty text")
    return value


def read_choice(value, path, allowed):
    if value not in allowed:
        raise MalformedError(path, "must be one of {allowed}, got {value!r}",
                             allowed=", ".join(allowed), value=value)
    return value


def read_list(value, path):
    if not isinstance(value, list):
        raise MalformedError(path, "must be a list, got {value!r}", value=value)
    return value


def read_int_map(value, path, minimum=None):
    """``{key: whole number}``; the keys are checked against the pack by the engine."""
    read_object(value, path)
    out = {}
    for key, amount in value.items():
        out[key] = read_int(amount, f"{path}.{key}", minimum)
    return out


def optional(data, key):
    """The value of an optional key: absent and ``null`` both read as None (a ``null`` is kept
    among the move's unknown keys so it is written back as it came)."""
    return data.get(key)
