"""JSON Schema pieces a game's engine declares its formats with (the API's OpenAPI document
shows them, ``web/openapi.py``): each game's ``rules/<game>/schema.py`` builds the schema of its
moves from its own move declarations (``MOVE_TYPES``, ``MOVE_FIELDS``, the bounds its readers
hold a field to) and of its table state from its standings, with the helpers below.

Games-neutral and pure (standard library only): no game's rule is here. A schema says the
shape a reader accepts (types, required keys, choices, lengths, ranges); what needs the pack or
the table (a known card, a player at the table) is the engine's to refuse.
"""

from .bounds import LINE, LINES, MAX_CODE, MAX_NOTE

_CONTROL = "\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029"
_CONTROL_BUT_LINES = "\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f\\u2028\\u2029"


def text(limit, keep=LINE, blank=False):
    """A text of at most ``limit`` characters without control characters (but those of ``keep``:
    ``LINES`` lets a reason run over lines); not blank unless ``blank``."""
    control = _CONTROL if keep == LINE else _CONTROL_BUT_LINES
    out = {"type": "string", "maxLength": limit, "not": {"pattern": f"[{control}]"}}
    if not blank:
        out.update(minLength=1, pattern="\\S")  # some character that is not a space
    return out


def integer(minimum=None, maximum=None):
    out = {"type": "integer"}
    if minimum is not None:
        out["minimum"] = minimum
    if maximum is not None:
        out["maximum"] = maximum
    return out


def choice(values):
    return {"enum": list(values)}


def nullable(schema):
    """``schema`` or ``null`` (an optional field a record may give as null)."""
    return {"anyOf": [schema, {"type": "null"}]}


def array(items, max_items=None, min_items=None):
    out = {"type": "array", "items": items}
    if max_items is not None:
        out["maxItems"] = max_items
    if min_items is not None:
        out["minItems"] = min_items
    return out


def obj(properties, required=(), closed=True):
    """An object of ``properties``; ``closed``: no other key (a move sent to the API is refused
    for a key its type does not take)."""
    out = {"type": "object", "properties": dict(properties)}
    if required:
        out["required"] = list(required)
    if closed:
        out["additionalProperties"] = False
    return out


def mapping(values, max_entries=None, keys=None):
    """``{key: value}``: keys free (``keys``: their schema) or ``values`` a fixed key set."""
    out = {"type": "object", "additionalProperties": values}
    if max_entries is not None:
        out["maxProperties"] = max_entries
    if keys is not None:
        out["propertyNames"] = keys
    return out


#: what every move may carry besides its type's fields (a record's time and note; null as it came)
COMMON = {"at": nullable(text(MAX_CODE)), "note": nullable(text(MAX_NOTE, LINES, blank=True))}


def moves(types, fields, field_schema, required, common=COMMON, title=""):
    """A game's move: one object per move type (its ``type`` fixed), holding the fields its
    type takes (``fields[kind]``), each as ``field_schema(kind, key)`` says, ``required[kind]``
    among them, and ``common``; no other key."""
    variants = []
    for kind in types:
        properties = {"type": {"const": kind}}
        for key in fields[kind]:
            properties[key] = field_schema(kind, key)
        properties.update(common)
        variant = obj(properties, ("type",) + tuple(required.get(kind, ())))
        variant["title"] = kind
        variants.append(variant)
    out = {"oneOf": variants}
    if title:
        out["description"] = title
    return out
