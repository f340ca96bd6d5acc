"""Moves (ходы) as the game record carries them (RECORD.md 2), read and written exactly.

A move holds only its type's fields and the optional ``at`` and ``note``, each bounded. A move
sent by a tablet, a form or the API with any other key is refused, naming the key; a record
file's reader ignores such keys (RECORD.md 2) and drops them, so nothing unbounded is kept. A
valid record is written back exactly as it came (an ``at`` or ``note`` given as ``null``
included).
"""

from dataclasses import dataclass, field

from .cards import CARD_KEYS, COLORS, SPECIAL_KEYS, Card
from ..errors import MalformedError
from .fields import (LINE, LINES, MAX_CODE, MAX_NAME, MAX_NOTE, MAX_SP, MAX_XP_CHANGE, KeySet, check_text,
                     only_known, read_int, read_object, read_skill_map, read_text, require, shown)
from .skills import SKILLS, compact

MAIN_MOVES = ("draw", "rest", "share", "pass")
MOVE_TYPES = MAIN_MOVES + ("play_deferred", "allocate", "adjust", "finish")
DECISIONS = ("play", "defer", "discard")
#: where a drawn card came from, when the record says: "app-deck", the app's own deck drew it
#: (the host's draw screen; left out when the host typed or picked the card)
SOURCES = ("app-deck",)

#: the keys each move type knows, besides "type", "at" and "note"
MOVE_FIELDS = {
    "draw": ("player", "color", "card", "decision", "redistribute", "source"),
    "rest": ("player", "redistribute"),
    "share": ("player",),
    "pass": ("player",),
    "play_deferred": ("player", "redistribute"),
    "allocate": ("player", "sp"),
    "adjust": ("player", "xp", "sp", "reason"),
    "finish": (),
}
#: every key a move of the type may hold
ALLOWED = {kind: KeySet(("type",) + keys + ("at", "note")) for kind, keys in MOVE_FIELDS.items()}


@dataclass(frozen=True)
class Move:
    type: str
    player: str | None = None
    color: str | None = None
    card: "str | Card | None" = None  # a pack code, or a hand-entered card
    decision: str | None = None
    sp: dict | None = None
    xp: int | None = None
    redistribute: dict | None = None
    reason: str | None = None
    source: str | None = None  # a draw's: "app-deck" when the app's deck drew the card
    at: str | None = None
    note: str | None = None
    extra: dict = field(default_factory=dict)  # ``at`` or ``note`` given as null, written back as they came
    raw_card: dict | None = field(default=None, compare=False)  # a hand-entered card as it came

    @property
    def is_main(self):
        return self.type in MAIN_MOVES

    def describe(self):
        """``draw by Борис`` — how error lines name a move."""
        return f"{self.type} by {self.player}" if self.player is not None else self.type

    def to_dict(self):
        out = {"type": self.type}
        if self.player is not None:
            out["player"] = self.player
        if self.color is not None:
            out["color"] = self.color
        if self.card is not None:
            if isinstance(self.card, str):
                out["card"] = self.card
            else:
                out["card"] = self.raw_card if self.raw_card is not None else self.card.to_dict()
        if self.decision is not None:
            out["decision"] = self.decision
        if self.xp is not None:
            out["xp"] = self.xp
        if self.sp is not None:
            out["sp"] = compact(self.sp)
        if self.redistribute is not None:
            out["redistribute"] = compact(self.redistribute)
        if self.reason is not None:
            out["reason"] = self.reason
        if self.source is not None:
            out["source"] = self.source
        if self.at is not None:
            out["at"] = self.at
        if self.note is not None:
            out["note"] = self.note
        out.update(self.extra)
        return out


def _line(value, limit):
    """``value`` when ``read_text`` would take it as it is without a second look: a non-blank
    one-line text within ``limit`` (printable characters are no control characters)."""
    return type(value) is str and len(value) <= limit and value.isprintable() and value.strip()


def _skill_map(value, low):
    """A copy of ``value`` when ``read_skill_map`` would read it the same (skills, whole numbers
    from ``low`` to ``MAX_SP``), else None."""
    if type(value) is not dict:
        return None
    for key, amount in value.items():
        if key not in SKILL_SET or type(amount) is not int or not low <= amount <= MAX_SP:
            return None
    return dict(value)


def _usual_move(data):
    """The ``Move`` of a usual record move (a draw of a pack card, a rest, a share, a pass, a
    deferred card played, an allocation, a finish; ``at`` and ``note`` plain), read with a few
    plain checks, or None for anything else: ``read_move`` reads that the full way, which also
    names what is wrong. Whatever this takes, the full way takes and reads the same.

    (``_line`` spelled out: a record holds hundreds of moves. The keys are known to be the
    type's own, so once its required keys are read, the count of the keys says whether any
    optional one is there: a record's usual draw has none.)"""
    kind = data.get("type")
    if type(kind) is not str:
        return None
    known = _USUAL_KEYS.get(kind)
    if known is None or not known.issuperset(data):
        return None
    if kind == "finish":
        args = {"type": kind}
        required = 1
    else:
        player = data.get("player")
        if type(player) is not str or len(player) > MAX_NAME or not player.isprintable() or not player.strip():
            return None
        args = {"type": kind, "player": player}
        required = 2
        if kind == "draw":
            color, card, decision = data.get("color"), data.get("card"), data.get("decision")
            if type(color) is not str or color not in COLORS or type(card) is not str or len(card) > MAX_CODE \
                    or not card.isprintable() or not card.strip() or type(decision) is not str \
                    or decision not in DECISIONS:
                return None
            args["color"], args["card"], args["decision"] = color, card, decision
            required = 5
        elif kind == "allocate":
            sp = _skill_map(data.get("sp"), 0)
            if sp is None:
                return None
            required = 3
    if len(data) > required:  # an optional key: a draw's source, a redistribution, ``at``, ``note``
        if kind == "draw":
            source = data.get("source")
            if source is not None:
                if type(source) is not str or source not in SOURCES:
                    return None
                args["source"] = source
        if kind in ("draw", "rest", "play_deferred") and data.get("redistribute") is not None:
            redistribute = _skill_map(data["redistribute"], -MAX_SP)
            if redistribute is None:
                return None
            args["redistribute"] = redistribute
        elif kind == "allocate":
            args["sp"] = sp
        nulls = None
        for key, limit in (("at", MAX_CODE), ("note", MAX_NOTE)):
            if key in data:
                value = data[key]
                if value is None:
                    nulls = nulls or {}
                    nulls[key] = None
                elif type(value) is str and len(value) <= limit and value.isprintable():
                    args[key] = value
                else:
                    return None
        args["extra"] = nulls or {}
    else:
        if kind == "allocate":
            args["sp"] = sp
        args["extra"] = {}
    move = object.__new__(Move)  # a frozen dataclass made without its __init__: a field left at its
    move.__dict__.update(args)  # default (None) reads the class's
    return move


def usual_moves(raw):
    """A record's moves (a list) when every one of them is a usual move, read fast; else None
    (``read_record`` then reads them one by one, which names the first that is no move)."""
    out = []
    append = out.append
    for data in raw:
        move = _usual_move(data) if type(data) is dict else None
        if move is None:
            return None
        append(move)
    return out


#: the keys ``_usual_move`` reads, by move type (a key added to a type's fields is read the full way)
_USUAL = {kind: KeySet(("type",) + keys + ("at", "note")) for kind, keys in (
    ("draw", ("player", "color", "card", "decision", "redistribute", "source")), ("rest", ("player", "redistribute")),
    ("share", ("player",)), ("pass", ("player",)), ("play_deferred", ("player", "redistribute")),
    ("allocate", ("player", "sp")), ("finish", ()))}
SKILL_SET = frozenset(SKILLS)
#: the same keys as plain sets (``issuperset`` of a ``KeySet`` takes longer)
_USUAL_KEYS = {kind: frozenset(keys) for kind, keys in _USUAL.items()}


def read_move(data, path="move", *, strict=True):
    """A ``Move`` from its JSON object; raises ``MalformedError`` naming the bad field.

    ``strict`` (a move sent by a tablet, a form or the API): a key its type does not take is
    refused. Else (a record file) such a key is ignored and dropped (RECORD.md 2)."""
    if type(data) is dict:
        move = _usual_move(data)  # the usual move, read fast
        if move is not None:
            return move
    from .pack import read_inline_card  # pack imports cards only; avoid a cycle at import time

    data = read_object(data, path)
    kind = require(data, "type", path)
    if not isinstance(kind, str) or kind not in MOVE_TYPES:
        raise MalformedError(f"{path}.type", "unknown move type {kind!r}; the types are {allowed}",
                             kind=shown(kind), allowed=", ".join(MOVE_TYPES))
    data = only_known(data, ALLOWED[kind], path, strict)
    known = MOVE_FIELDS[kind]
    args = {"type": kind}
    if "player" in known:
        args["player"] = read_text(require(data, "player", path), f"{path}.player", limit=MAX_NAME)
    if kind == "draw":
        color = text_choice(require(data, "color", path), f"{path}.color", COLORS)
        if color not in COLORS:
            raise MalformedError(f"{path}.color", "unknown colour {color!r}; the colours are {allowed}",
                                 color=shown(color), allowed=", ".join(COLORS))
        args["color"] = color
        card = require(data, "card", path)
        if isinstance(card, str):
            args["card"] = read_text(card, f"{path}.card", limit=MAX_CODE)
        else:
            args["card"] = read_inline_card(card, f"{path}.card", strict=strict)
            args["raw_card"] = raw_card(card)
        decision = text_choice(require(data, "decision", path), f"{path}.decision", DECISIONS)
        if decision not in DECISIONS:
            raise MalformedError(f"{path}.decision", "unknown decision {decision!r}; allowed: {allowed}",
                                 decision=shown(decision), allowed=", ".join(DECISIONS))
        args["decision"] = decision
    if kind == "draw" and data.get("source") is not None:
        args["source"] = text_choice(data["source"], f"{path}.source", SOURCES)
        if args["source"] not in SOURCES:
            raise MalformedError(f"{path}.source", "must be one of {allowed}, got {value!r}",
                                 allowed=", ".join(SOURCES), value=shown(args["source"]))
    if "redistribute" in known and data.get("redistribute") is not None:
        args["redistribute"] = read_skill_map(data["redistribute"], f"{path}.redistribute", signed=True)
    if kind == "allocate":
        args["sp"] = read_skill_map(require(data, "sp", path), f"{path}.sp")
    if kind == "adjust":
        if "xp" in data:
            args["xp"] = read_xp_change(data["xp"], f"{path}.xp")
        if "sp" in data:
            args["sp"] = read_skill_map(data["sp"], f"{path}.sp", signed=True)
        args["reason"] = read_text(require(data, "reason", path), f"{path}.reason", limit=MAX_NOTE, keep=LINES)
    for key, limit, keep in (("at", MAX_CODE, LINE), ("note", MAX_NOTE, LINES)):
        if key in data and data[key] is not None:
            if not isinstance(data[key], str):
                raise MalformedError(f"{path}.{key}", "must be a text")
            args[key] = check_text(data[key], f"{path}.{key}", limit, keep)
    nulls = {k: None for k in ("at", "note") if k in data and data[k] is None}
    if nulls:
        args["extra"] = nulls
    return Move(**args)


def text_choice(value, path, allowed):
    """A choice's value as a text: anything else (a list, an object) is refused as not one of
    ``allowed`` (a colour's or a decision's own refusal would look its name up by it)."""
    if not isinstance(value, str):
        raise MalformedError(path, "must be one of {allowed}, got {value!r}", allowed=", ".join(allowed),
                             value=shown(value))
    return value


def raw_card(card):
    """A hand-entered card as written back: its object as it came, but only the keys a card
    has (a record's reader drops any other; a tablet's move with one was refused already)."""
    out = {k: v for k, v in card.items() if k in CARD_KEYS}
    if isinstance(out.get("special"), dict) and not out["special"].keys() <= SPECIAL_KEYS:
        out["special"] = {k: v for k, v in out["special"].items() if k in SPECIAL_KEYS}
    return out


def read_xp_change(value, path):
    """An adjust's XP change: a whole number within ``MAX_XP_CHANGE`` either way."""
    xp = read_int(value, path)
    if not -MAX_XP_CHANGE <= xp <= MAX_XP_CHANGE:
        raise MalformedError(path, "an adjust changes XP by at most {limit} either way, got {value}",
                             limit=MAX_XP_CHANGE, value=shown(xp))
    return xp


def check_move(move, path="move"):
    """A ``Move`` built in code (a form, a test) held to the same bounds as one read from JSON:
    the move ``read_move`` gives for its JSON form. Raises ``MalformedError``."""
    return read_move(move.to_dict(), path)


def write_move(move):
    return move.to_dict()
