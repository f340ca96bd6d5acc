"""Readers for the small field types of the JSON formats: integers and skill maps.

Each raises ``MalformedError`` with the path of the bad field and what is allowed.
"""

from .errors import MalformedError
from .skills import SKILLS


def is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def read_int(value, path, minimum=None):
    if not is_int(value):
        raise MalformedError(path, "must be a whole number, got {value!r}", value=value)
    if minimum is not None and value < minimum:
        raise MalformedError(path, "must be at least {minimum}, got {value}",
                             minimum=minimum, value=value)
    return value


def read_text(value, path, required=True):
    if value is None and not required:
        return None
    if not isinstance(value, str) or (required and not value.strip()):
        raise MalformedError(path, "must be a non-empty text")
    return value


def read_skill_map(value, path, signed=False):
    """A ``{skill: int}`` map; values are >= 0 unless ``signed``. Returns a new dict."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise MalformedError(path, "must be a map of skills to numbers, got {value!r}", value=value)
    out = {}
    for key, amount in value.items():
        if key not in SKILLS:
            raise MalformedError(f"{path}.{key}", "unknown skill {key!r}; the skills are {allowed}",
                                 key=key, allowed=", ".join(SKILLS))
        out[key] = read_int(amount, f"{path}.{key}", minimum=None if signed else 0)
    return out


def read_object(value, path):
    if not isinstance(value, dict):
        raise MalformedError(path, "must be an object, got {value!r}", value=value)
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
