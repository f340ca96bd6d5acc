"""«16/25»'s formats as JSON Schema, for the API's document (``Ruleset.schemas``): a move as
``moves.read_move`` reads it (its declared types and fields, held to the same bounds) and a
table's state as ``standings.table_standing`` gives it (RECORD.md 2 and 3)."""

from .. import schema as js
from ..bounds import LABEL, LINES, MAX_CODE, MAX_NAME, MAX_NOTE, MAX_TITLE
from .cards import COLORS
from .eras import ERA_KEYS
from .fields import MAX_SP, MAX_XP_CHANGE
from .moves import DECISIONS, MOVE_FIELDS, MOVE_TYPES, SOURCES
from .skills import SKILLS

#: the fields each move type cannot go without (``read_move``'s ``require``)
REQUIRED = {"draw": ("player", "color", "card", "decision"), "allocate": ("player", "sp"),
            "adjust": ("player", "reason")}
REQUIRED.update({kind: ("player",) for kind in MOVE_TYPES if kind not in REQUIRED and "player" in MOVE_FIELDS[kind]})


def skill_map(signed=False, limit=MAX_SP):
    return js.obj({s: js.integer(-limit if signed else 0, limit) for s in SKILLS})


_SKILL_MAP = skill_map()

#: a card typed in by hand (a draw's ``card`` object): its keys (the pack reader holds each to
#: its colour's rules)
INLINE_CARD = js.obj({"code": js.text(MAX_CODE, LABEL), "era": js.choice(ERA_KEYS), "color": js.choice(COLORS),
                      "title": js.text(MAX_TITLE, LABEL), "text": {"type": ["string", "null"]},
                      "conditions": js.nullable(_SKILL_MAP), "losses": js.nullable(_SKILL_MAP),
                      "gains": js.nullable(_SKILL_MAP), "free": js.nullable(js.integer(0, MAX_SP)),
                      "special": {"type": ["object", "null"]}}, ("era", "color", "title"))

FIELDS = {
    "player": js.text(MAX_NAME),
    "color": js.choice(COLORS),
    "card": {"anyOf": [js.text(MAX_CODE), INLINE_CARD], "description": "a card code of the table's pack, or a "
                                                                       "card typed in by hand"},
    "decision": js.choice(DECISIONS),
    "redistribute": js.nullable(skill_map(signed=True)),
    "source": js.nullable(js.choice(SOURCES)),
    "xp": js.integer(-MAX_XP_CHANGE, MAX_XP_CHANGE),
    "reason": js.text(MAX_NOTE, LINES),
}


def _field(kind, key):
    if key == "sp":  # an allocation gives points; an adjust may take them away too
        return _SKILL_MAP if kind == "allocate" else js.nullable(skill_map(signed=True))
    return FIELDS[key]


_NEXT = js.nullable(js.obj({"player": {"type": ["string", "null"]},
                            "expects": js.choice(("main", "allocate", "finish"))}, ("player", "expects")))
_PLAYER = js.obj({
    "name": {"type": "string"}, "character": {"type": "string"}, "xp": {"type": "integer"},
    "level": {"type": "integer"}, "skills": js.obj({s: {"type": "integer"} for s in SKILLS}, SKILLS),
    "pending_sp": {"type": "integer"},
    "deferred": js.nullable(js.obj({"card": {"type": "string"}, "round": {"type": "integer"},
                                    "expires_after_round": {"type": "integer"}}, ("card", "round"))),
    "shared": {"type": "boolean"}, "declared": {"type": ["integer", "null"]}, "declaration_met": {"type": "boolean"},
    "bonus": {"type": "integer"}, "final_xp": {"type": "integer"}, "place": {"type": "integer", "minimum": 1}},
    ("name", "character", "xp", "level", "skills", "pending_sp", "deferred", "final_xp", "place"), closed=False)


def schemas():
    """``{"Move": …, "TableState": …}``: a move the API takes, and the table part of the
    standings (``lyceum-standings/1``) a table's state holds."""
    move = js.moves(MOVE_TYPES, MOVE_FIELDS, _field, REQUIRED, title="A move of lyceum-record/1 (RECORD.md 2)")
    state = js.obj({"table": {"type": "string"}, "finished": {"type": "boolean"},
                    "round": js.integer(1), "era": js.choice(ERA_KEYS), "next": _NEXT,
                    "players": js.array(_PLAYER), "total_xp": {"type": "integer"},
                    "average_xp": {"type": "number"}},
                   ("table", "finished", "round", "era", "next", "players", "total_xp", "average_xp"), closed=False)
    return {"Move": move, "TableState": state}
