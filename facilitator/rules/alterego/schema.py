"""Alter Ego's formats as JSON Schema, for the API's document (``Ruleset.schemas``): a move as
``moves.read_move`` reads it (its declared types and fields, held to the same bounds) and a
table's state as ``standings.table_standing`` gives it (RECORD.md 2 and 3)."""

from .. import schema as js
from ..bounds import LINES, MAX_ID, MAX_MOVES, MAX_NOTE
from .moves import (_CHANGE_TYPES, _LISTS, _TEXT, CHANGE_KINDS, CHOICES, MAX_DELTA, MAX_ITEMS, MOVE_FIELDS,
                    MOVE_TYPES, REQUIRED)

#: a key, a name or a card's id as a move names it: a non-empty one-line text
KEY = {**js.text(MAX_ID, blank=True), "minLength": 1}
_BY_TYPE = {int: js.integer(-MAX_DELTA, MAX_DELTA), bool: {"type": "boolean"}, str: KEY}


def _change():
    """One change of an adjust (RULES.md 7): exactly one kind, with its keys."""
    variants = []
    for kind, (required, optional) in CHANGE_KINDS.items():
        variant = js.obj({k: _BY_TYPE[_CHANGE_TYPES[k]] for k in required + optional}, required)
        variant["title"] = kind
        variants.append(variant)
    return {"oneOf": variants}


def _field(kind, key):
    if key == "choice":
        return js.choice(CHOICES)
    if key in _TEXT:
        return KEY
    if key in _LISTS:
        return js.array(KEY, MAX_ITEMS)
    if key == "to":
        return {**js.integer(1, MAX_MOVES), "description": "the number of the move reacted to"}
    if key == "changes":
        return js.array(_change(), MAX_ITEMS, 1)
    if key == "reason":
        return js.text(MAX_NOTE, LINES, blank=True)
    raise KeyError(f"{kind}.{key}: no schema declared")


_INT, _TEXTS = {"type": "integer"}, {"type": "array", "items": {"type": "string"}}
_ACTIVE = js.obj({
    "key": {"type": "string"}, "owner": {"type": "string"}, "va": _INT, "bo": _INT, "anxiety_temp": _INT,
    "anxiety_perm": _INT, "anxiety": _INT, "burned_out": {"type": "boolean"}, "away": {"type": "boolean"},
    "free_time_unused": _INT,
    "activities": js.array(js.obj({"id": {"type": "string"}, "card": {"type": "string"},
                                   "paused": {"type": "boolean"}, "in_force": {"type": "boolean"},
                                   "season": _INT}, ("id", "card", "paused", "in_force", "season"), closed=False)),
    "influence_base": _INT, "influence": _INT},
    ("key", "owner", "va", "bo", "anxiety_temp", "anxiety_perm", "anxiety", "burned_out", "away",
     "free_time_unused", "activities", "influence_base", "influence"), closed=False)
_PLAYER = js.obj({"name": {"type": "string"}, "hand": _INT, "actives": _TEXTS, "influence": _INT,
                  "place": js.integer(1)}, ("name", "hand", "actives", "influence", "place"), closed=False)
_NEXT = js.nullable(js.obj({"player": {"type": "string"}, "expects": js.choice(("draw", "play", "choose")),
                            "choice": {"type": "object"}}, ("player", "expects"), closed=False))
_PENDING = js.obj({"choice": js.choice(CHOICES), "player": {"type": "string"}, "active": {"type": "string"},
                   "options": _TEXTS, "partners": _TEXTS}, ("choice", "player"), closed=False)
_STATE_KEYS = ("table", "finished", "ended_by", "season", "season_key", "turn", "current", "step", "next",
               "pending", "active_deck", "players", "actives")


def schemas():
    """``{"Move": …, "TableState": …}``: a move the API takes, and the table part of the
    standings (``alterego-standings/1``) a table's state holds."""
    move = js.moves(MOVE_TYPES, MOVE_FIELDS, _field, REQUIRED, title="A move of alterego-record/1 (RECORD.md 2)")
    state = js.obj({
        "table": {"type": "string"}, "finished": {"type": "boolean"},
        "ended_by": {"enum": [None, "season", "host"]}, "season": js.integer(1),
        "season_key": js.choice(("winter", "spring", "summer", "ropecon")), "turn": js.integer(1),
        "current": {"type": ["string", "null"]}, "step": js.choice(("draw", "play")), "next": _NEXT,
        "pending": js.array(_PENDING), "active_deck": _TEXTS, "players": js.array(_PLAYER),
        "actives": js.array(_ACTIVE)}, _STATE_KEYS, closed=False)
    return {"Move": move, "TableState": state}
