"""Moves (ходы) as the game record carries them (RECORD.md 2), read and written exactly.

A move keeps its optional ``at`` and ``note`` and any key it does not know, so a record
written back out loses nothing.
"""

from dataclasses import dataclass, field

from .cards import COLORS, Card
from .errors import MalformedError
from .fields import (LINE, LINES, MAX_CODE, MAX_NAME, MAX_NOTE, MAX_XP_CHANGE, check_text, read_int, read_object,
                     read_skill_map, read_text, require, shown)
from .skills import compact

MAIN_MOVES = ("draw", "rest", "share", "pass")
MOVE_TYPES = MAIN_MOVES + ("play_deferred", "allocate", "adjust", "finish")
DECISIONS = ("play", "defer", "discard")

#: the keys each move type knows, besides "type", "at" and "note"
MOVE_FIELDS = {
    "draw": ("player", "color", "card", "decision", "redistribute"),
    "rest": ("player", "redistribute"),
    "share": ("player",),
    "pass": ("player",),
    "play_deferred": ("player", "redistribute"),
    "allocate": ("player", "sp"),
    "adjust": ("player", "xp", "sp", "reason"),
    "finish": (),
}
_COMMON = ("type", "at", "note")


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
    at: str | None = None
    note: str | None = None
    extra: dict = field(default_factory=dict)  # unknown keys, kept as they came
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
        if self.at is not None:
            out["at"] = self.at
        if self.note is not None:
            out["note"] = self.note
        out.update(self.extra)
        return out


def read_move(data, path="move"):
    """A ``Move`` from its JSON object; raises ``MalformedError`` naming the bad field."""
    from .pack import read_inline_card  # pack imports cards only; avoid a cycle at import time

    data = read_object(data, path)
    kind = require(data, "type", path)
    if kind not in MOVE_TYPES:
        raise MalformedError(f"{path}.type", "unknown move type {kind!r}; the types are {allowed}",
                             kind=shown(kind), allowed=", ".join(MOVE_TYPES))
    known = MOVE_FIELDS[kind]
    args = {"type": kind}
    if "player" in known:
        args["player"] = read_text(require(data, "player", path), f"{path}.player", limit=MAX_NAME)
    if kind == "draw":
        color = require(data, "color", path)
        if color not in COLORS:
            raise MalformedError(f"{path}.color", "unknown colour {color!r}; the colours are {allowed}",
                                 color=shown(color), allowed=", ".join(COLORS))
        args["color"] = color
        card = require(data, "card", path)
        if isinstance(card, str):
            args["card"] = read_text(card, f"{path}.card", limit=MAX_CODE)
        else:
            args["card"] = read_inline_card(card, f"{path}.card")
            args["raw_card"] = card
        decision = require(data, "decision", path)
        if decision not in DECISIONS:
            raise MalformedError(f"{path}.decision", "unknown decision {decision!r}; allowed: {allowed}",
                                 decision=shown(decision), allowed=", ".join(DECISIONS))
        args["decision"] = decision
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
    args["extra"] = {k: v for k, v in data.items()
                     if (k not in known and k not in _COMMON) or (k in ("at", "note") and v is None)}
    return Move(**args)


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
