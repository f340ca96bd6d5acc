"""New Angeles' formats as JSON Schema, for the API's document (``Ruleset.schemas``): a move as
``moves.read_move`` reads it (its declared types and fields, held to the same bounds) and a
table's state as ``standings.table_standing`` gives it (RECORD.md §3 and §5)."""

from .. import schema as js
from ..bounds import LINES
from .fields import MAX_NUMBER
from .moves import (CAPITAL_REASONS, EMERGENCY_STATES, MAX_ENTRIES, MOVE_FIELDS, MOVE_TYPES, NAME, OFFERS, REASON,
                    SUPPLY_REASONS, TEXT, THREAT_REASONS)

_NAME, _TEXT, _REASON = js.text(NAME), js.text(TEXT), js.text(REASON, LINES)
_NUMBER = js.integer(-MAX_NUMBER, MAX_NUMBER)
_NUMBERS = js.mapping(_NUMBER, MAX_ENTRIES, {"maxLength": TEXT})


def _opt(schema):
    return js.nullable(schema)


def _offer(extra=None, required=()):
    """An offer: an action card (any text) or a corporation's emergency card, exactly one."""
    out = js.obj({**(extra or {}), "card": _opt(_TEXT), "emergency": _opt(_TEXT)}, required)
    out["oneOf"] = [{"required": ["card"], "properties": {"card": _TEXT}},
                    {"required": ["emergency"], "properties": {"emergency": _TEXT}}]
    return out


_TRANSFER = {"from": _NAME, "to": _NAME, "capital": _opt(_NUMBER), "assets": _opt(js.array(_TEXT, MAX_ENTRIES))}
#: the fields of each move type (``MOVE_FIELDS``); those a move cannot go without in ``REQUIRED``
FIELDS = {
    "deal": {"active": _NAME, "asset": _TEXT, "main": _offer(),
             "counteroffers": js.array(_offer({"player": _NAME}, ("player",)), MAX_ENTRIES),
             "support": js.array(js.obj({"player": _NAME, "offer": js.choice(OFFERS), "cards": _NUMBER},
                                        ("player", "offer", "cards")), MAX_ENTRIES),
             "extra": _opt(js.mapping(_NUMBER, MAX_ENTRIES, js.choice(OFFERS))), "extra_reason": _opt(_REASON),
             "transfers": _opt(js.array(js.obj({**_TRANSFER, "note": _opt(js.COMMON["note"])}, ("from", "to")),
                                        MAX_ENTRIES)),
             "winner": _opt(js.choice(OFFERS)), "override_reason": _opt(_REASON)},
    "end_round": {"production": _NUMBERS, "event": _opt(_TEXT), "event_threat": _opt(_NUMBER),
                  "next_assets": _opt(_NUMBER)},
    "demand_round": {"investments": js.array(js.obj({"player": _NAME, "card": _TEXT, "capital": _NUMBER},
                                                    ("player", "card", "capital")), MAX_ENTRIES),
                     "next_demand": _opt({"anyOf": [_TEXT, js.obj({
                         "code": _TEXT, "threat": js.integer(0, MAX_NUMBER),
                         "targets": js.mapping(js.integer(0, MAX_NUMBER), MAX_ENTRIES, {"maxLength": TEXT})},
                         ("code", "threat"))]})},
    "capital": {"player": _NAME, "amount": _NUMBER, "reason": js.choice(CAPITAL_REASONS)},
    "threat": {"amount": _NUMBER, "reason": js.choice(THREAT_REASONS)},
    "supply": {"changes": _NUMBERS, "reason": js.choice(SUPPLY_REASONS)},
    "transfer": _TRANSFER,
    "adjust": {"reason": _REASON, "assets_left": _opt(_NUMBER), "first_player": _opt(_NAME),
               "emergency": _opt(js.mapping(js.choice(EMERGENCY_STATES), MAX_ENTRIES, {"maxLength": TEXT})),
               "remove_assets": _opt(js.mapping(js.array(_TEXT, MAX_ENTRIES), MAX_ENTRIES, {"maxLength": TEXT}))},
    "finish": {"rivals": _opt(js.mapping(_TEXT, MAX_ENTRIES, {"maxLength": TEXT}))},
}
REQUIRED = {"deal": ("active", "asset", "main", "counteroffers", "support"), "end_round": ("production",),
            "demand_round": ("investments",), "capital": ("player", "amount", "reason"),
            "threat": ("amount", "reason"), "supply": ("changes", "reason"), "transfer": ("from", "to"),
            "adjust": ("reason",)}

_INT, _TEXTS = {"type": "integer"}, {"type": "array", "items": {"type": "string"}}
_MAP = {"type": "object", "additionalProperties": {"type": "integer"}}
_PLAYER = js.obj({"name": {"type": "string"}, "corp": {"type": "string"}, "capital": _INT, "assets": _TEXTS,
                  "emergency": js.choice(EMERGENCY_STATES), "investments": {"type": "array"},
                  "rival": {"type": ["string", "null"]}, "rival_player": {"type": ["string", "null"]},
                  "result": {"enum": [None, "won", "lost"]}},
                 ("name", "corp", "capital", "assets", "emergency", "investments", "rival", "rival_player", "result"),
                 closed=False)
_STATE_KEYS = ("table", "finished", "round", "ended_by", "government_takeover", "threat", "threat_max",
               "first_player", "assets_left", "demand", "supply", "demand_history", "deals", "players", "winners",
               "losers", "next")


def schemas():
    """``{"Move": …, "TableState": …}``: a move the API takes, and the table part of the
    standings (``newangeles-standings/1``) a table's state holds."""
    move = js.moves(MOVE_TYPES, MOVE_FIELDS, lambda kind, key: FIELDS[kind][key], REQUIRED,
                    title="A move of newangeles-record/1 (RECORD.md §3)")
    state = js.obj({
        "table": {"type": "string"}, "finished": {"type": "boolean"},
        "round": js.obj({"slot": js.integer(1), "kind": js.choice(("standard", "demand")),
                         "label": {"type": "string"}}, ("slot", "kind", "label"), closed=False),
        "ended_by": {"enum": [None, "threat", "rounds"]}, "government_takeover": {"type": "boolean"},
        "threat": _INT, "threat_max": _INT, "first_player": {"type": "string"}, "assets_left": _INT,
        "demand": js.obj({"card": {"type": "string"}, "threat": _INT, "targets": _MAP}, ("card", "threat", "targets"),
                         closed=False),
        "supply": _MAP, "demand_history": js.array({"type": "object"}), "deals": js.array({"type": "object"}),
        "players": js.array(_PLAYER), "winners": _TEXTS, "losers": _TEXTS,
        "next": js.nullable(js.obj({"expects": js.choice(("deal", "end_round", "demand_round", "finish"))},
                                   ("expects",), closed=False))}, _STATE_KEYS, closed=False)
    return {"Move": move, "TableState": state}
