"""Moves as `alterego-record/1` carries them (RECORD.md 2, RULES.md 7), read and written exactly.

``read_move`` checks what a move says on its own: its type, the JSON type and the bounds of
every field, the fields its type requires, and decision 44: a field that some move type uses
but this one does not take is malformed. Any other key is refused in a move sent by a tablet,
a form or the API (``strict``) and ignored, not kept, in a record file's move (RECORD.md 2:
readers keep ``at`` and ``note`` and ignore other unknown keys). What needs the pack or the
table (a card's own fields, unknown ids) is checked by the ``Game``, as malformed too.
"""

from dataclasses import MISSING, dataclass, field, fields

from ..errors import MalformedError
from ..bounds import LINE, LINES, MAX_CODE, MAX_ID, MAX_MOVES, MAX_NOTE, KeySet, check_text, only_known, shown

MOVE_TYPES = ("draw", "season", "play_event", "play_activity", "ability", "react", "choose", "end_turn",
              "adjust", "finish")

#: the fields each move type may carry, besides "type", "at" and "note"
MOVE_FIELDS = {
    "draw": ("player",),
    "season": ("player",),
    "play_event": ("player", "card", "target", "hobby", "chore", "active", "activity", "participants"),
    "play_activity": ("player", "card", "target", "partner"),
    "ability": ("player", "active", "targets", "from"),
    "react": ("player", "card", "to", "target", "faction"),
    "choose": ("player", "choice", "active", "activity", "faction"),
    "end_turn": ("player",),
    "adjust": ("changes", "reason"),
    "finish": ("reason",),
}
#: the fields every move of the type needs, whatever its card
REQUIRED = {
    "draw": ("player",),
    "season": ("player",),
    "play_event": ("player", "card"),
    "play_activity": ("player", "card", "target"),
    "ability": ("player", "active"),
    "react": ("player", "card", "to"),
    "choose": ("player", "choice", "active"),
    "end_turn": ("player",),
    "adjust": ("changes",),
    "finish": (),
}
#: every field some move type uses (decision 44)
MOVE_KEYS = frozenset(k for keys in MOVE_FIELDS.values() for k in keys)
CHOICES = ("discard_hobby", "breakup")
#: the answer field each choice takes
CHOICE_FIELD = {"discard_hobby": "activity", "breakup": "faction"}
_TEXT = ("player", "card", "target", "hobby", "chore", "active", "activity", "partner", "from", "faction",
         "choice")
_LISTS = ("participants", "targets")
#: every key a move of the type may hold
ALLOWED = {kind: KeySet(("type",) + keys + ("at", "note")) for kind, keys in MOVE_FIELDS.items()}
#: the most items a list of a move may hold: active keys (a table has at most 6 × 3 actives)
#: and an adjust's changes
MAX_ITEMS = 50
#: the largest change an adjust makes to an anxiety or a hand, either way
MAX_DELTA = 1_000
#: what the Move attribute of a JSON field is called (``from`` is a Python keyword)
_ATTR = {"from": "from_"}

#: adjust change kinds (RULES.md 7): kind key -> (required keys, optional keys)
CHANGE_KINDS = {
    "anxiety": (("active", "anxiety"), ()),
    "hand": (("player", "hand"), ()),
    "owner": (("active", "owner"), ()),
    "away": (("active", "away"), ()),
    "add": (("active", "add"), ("partner",)),
    "remove": (("remove",), ()),
    "paused": (("activity", "paused"), ()),
}
_CHANGE_TYPES = {"active": str, "anxiety": int, "player": str, "hand": int, "owner": str, "away": bool,
                 "add": str, "partner": str, "remove": str, "activity": str, "paused": bool}


@dataclass(frozen=True)
class Move:
    """One move. ``player`` is None for ``adjust`` and ``finish``; ``from_`` is the JSON
    ``from`` (Niksu's source); lists are tuples. ``extra`` keeps an ``at`` or ``note`` given
    as null, ``keys`` the order the keys came in (so ``to_dict`` writes them back in that
    order)."""

    type: str
    player: str | None = None
    card: str | None = None
    target: str | None = None
    partner: str | None = None
    hobby: str | None = None
    chore: str | None = None
    active: str | None = None
    activity: str | None = None
    participants: tuple | None = None
    targets: tuple | None = None
    from_: str | None = None
    to: int | None = None
    faction: str | None = None
    choice: str | None = None
    changes: tuple | None = None
    reason: str | None = None
    at: str | None = None
    note: str | None = None
    extra: dict = field(default_factory=dict)
    keys: tuple = field(default=(), compare=False, repr=False)

    def describe(self):
        """``play_activity by Bertta``, or ``finish``: how error lines name a move."""
        return f"{self.type} by {self.player}" if self.player is not None else self.type

    def get(self, name):
        """A field by its JSON name (``from`` included)."""
        return getattr(self, _ATTR.get(name, name))

    def to_dict(self):
        out = {"type": self.type}
        for name in MOVE_FIELDS[self.type]:
            value = getattr(self, _ATTR.get(name, name))
            if value is None:
                continue
            if name in _LISTS:
                value = list(value)
            elif name == "changes":
                value = [dict(c) for c in value]
            out[name] = value
        for name in ("at", "note"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        out.update(self.extra)
        if self.keys:
            ordered = {k: out[k] for k in self.keys if k in out}
            ordered.update(out)
            return ordered
        return out


_DEFAULTS = {f.name: f.default for f in fields(Move) if f.default is not MISSING}


def _new_move(args):
    """A ``Move`` from checked fields, without the frozen dataclass's one ``__setattr__`` per
    field (records are read move by move on every replay)."""
    values = dict(_DEFAULTS)
    values.update(args)
    move = object.__new__(Move)
    object.__setattr__(move, "__dict__", values)
    return move


def _text(value, path, limit=MAX_ID):
    if not isinstance(value, str) or not value:
        raise MalformedError(path, "must be a non-empty text, got {value!r}", value=shown(value))
    return check_text(value, path, limit, LINE)


def _change(data, path):
    if not isinstance(data, dict):
        raise MalformedError(path, "a change must be an object, got {value!r}", value=shown(data))
    kinds = [k for k in CHANGE_KINDS if k in data]
    if len(kinds) != 1:
        raise MalformedError(path, "a change has exactly one of {kinds}, got {got}",
                             kinds=", ".join(CHANGE_KINDS), got=", ".join(kinds) or "none")
    required, optional = CHANGE_KINDS[kinds[0]]
    for key in data:
        if key not in required and key not in optional:
            raise MalformedError(f"{path}.{shown(key)}", "unknown key {key!r} in a {kind} change; it takes {allowed}",
                                 key=shown(key), kind=kinds[0], allowed=", ".join(required + optional))
    for key in required:
        if key not in data:
            raise MalformedError(f"{path}.{key}", "is missing")
    for key, value in data.items():
        wanted = _CHANGE_TYPES[key]
        if wanted is int:
            ok = isinstance(value, int) and not isinstance(value, bool)
        elif wanted is bool:
            ok = isinstance(value, bool)
        else:
            ok = isinstance(value, str) and bool(value)
        if not ok:
            raise MalformedError(f"{path}.{key}", "must be {kind}, got {value!r}", value=shown(value),
                                 kind={int: "a whole number", bool: "true or false", str: "a non-empty text"}[wanted])
        if wanted is int and not -MAX_DELTA <= value <= MAX_DELTA:
            raise MalformedError(f"{path}.{key}", "must be from {low} to {high}, got {value}", low=-MAX_DELTA,
                                 high=MAX_DELTA, value=shown(value))
        if wanted is str:
            check_text(value, f"{path}.{key}", MAX_ID, LINE)
    return dict(data)


def _list(value, path, what):
    if what == "keys" and not isinstance(value, list):
        raise MalformedError(path, "must be a list of active keys, got {value!r}", value=shown(value))
    if what == "changes" and (not isinstance(value, list) or not value):
        raise MalformedError(path, "must be a non-empty list of changes, got {value!r}", value=shown(value))
    if len(value) > MAX_ITEMS:
        raise MalformedError(path, "must list at most {limit} items, got {count}", limit=MAX_ITEMS, count=len(value))
    return value


def _plain_id(value):
    """A text ``_text`` takes as it is (non-empty, one line within ``MAX_ID``: a printable text
    holds no control character)."""
    return type(value) is str and value and len(value) <= MAX_ID and value.isprintable()


#: the move types read fast in their usual shape (a choice and an adjust are read the full way)
_USUAL = frozenset(MOVE_TYPES) - {"choose", "adjust"}


def _usual_move(data):
    """The ``Move`` of a usual record move, read with plain checks, or None for anything else,
    which ``read_move`` reads the full way (that way also names what is wrong). Whatever this
    takes, the full way takes and reads the same."""
    kind = data.get("type")
    if type(kind) is not str or kind not in _USUAL or not data.keys() <= ALLOWED[kind]:
        return None
    args = {"type": kind}
    for key in MOVE_FIELDS[kind]:
        if key not in data:
            continue
        value = data[key]
        if key in _TEXT:
            if not _plain_id(value):
                return None
        elif key in _LISTS:
            if type(value) is not list or len(value) > MAX_ITEMS or not all(_plain_id(v) for v in value):
                return None
            value = tuple(value)
        elif key == "to":
            if type(value) is not int or not 1 <= value <= MAX_MOVES:
                return None
        elif key == "reason":
            if type(value) is not str or len(value) > MAX_NOTE or not value.isprintable():
                return None
        else:
            return None
        args[_ATTR.get(key, key)] = value
    for key in REQUIRED[kind]:
        if key not in data:
            return None
    extra = {}
    for key, limit in (("at", MAX_CODE), ("note", MAX_NOTE)):
        if key in data:
            value = data[key]
            if value is None:
                extra[key] = None
            elif type(value) is str and len(value) <= limit and value.isprintable():
                args[key] = value
            else:
                return None
    args["extra"] = extra
    args["keys"] = tuple(data)
    return _new_move(args)


def read_move(data, path="move", partial=False, *, strict=True):
    """A ``Move`` from its JSON object; raises ``MalformedError`` naming the bad field.

    ``partial``: a move still being entered (``Game.options``): required fields may be
    missing. ``strict`` (a move from a tablet, a form or the API): a key no move type takes is
    refused; else (a record file, a stored log) it is ignored and dropped."""
    if type(data) is dict:
        move = _usual_move(data)  # the usual move, read fast (whole: ``partial`` changes nothing)
        if move is not None:
            return move
    if not isinstance(data, dict):
        raise MalformedError(path, "a move must be an object, got {value!r}", value=shown(data))
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in MOVE_FIELDS:
        raise MalformedError(f"{path}.type", "unknown move type {kind!r}; the types are {allowed}",
                             kind=shown(kind), allowed=", ".join(MOVE_TYPES))
    known = MOVE_FIELDS[kind]
    for key in data:
        if key in MOVE_KEYS and key not in known:
            raise MalformedError(f"{path}.{key}", "a {kind} move takes no {key!r}; its fields are {allowed}",
                                 kind=kind, key=key, allowed=", ".join(known) or "none")
    data = only_known(data, ALLOWED[kind], path, strict)
    for key in () if partial else REQUIRED[kind]:
        if key not in data:
            raise MalformedError(f"{path}.{key}", "is missing")
    args = {"type": kind}
    for key in known:
        if key not in data:
            continue
        value = data[key]
        where = f"{path}.{key}"
        if key in _TEXT:
            value = _text(value, where)
        elif key in _LISTS:
            value = tuple(_text(v, f"{where}[{i}]") for i, v in enumerate(_list(value, where, "keys")))
        elif key == "to":
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise MalformedError(where, "must be a move number (1 or more), got {value!r}", value=shown(value))
            if value > MAX_MOVES:
                raise MalformedError(where, "must be at most {maximum}, got {value}", maximum=MAX_MOVES,
                                     value=shown(value))
        elif key == "changes":
            value = tuple(_change(c, f"{where}[{i}]") for i, c in enumerate(_list(value, where, "changes")))
            if sum(1 for c in value if "add" in c) > 1:
                raise MalformedError(where, "an adjust adds at most one activity (its id is a<move number>)")
        elif key == "reason":
            if not isinstance(value, str):
                raise MalformedError(where, "must be a text, got {value!r}", value=shown(value))
            check_text(value, where, MAX_NOTE, LINES)
        args[_ATTR.get(key, key)] = value
    if kind == "choose" and "choice" in args:
        if args["choice"] not in CHOICES:
            raise MalformedError(f"{path}.choice", "unknown choice {choice!r}; the choices are {allowed}",
                                 choice=args["choice"], allowed=", ".join(CHOICES))
        answer = CHOICE_FIELD[args["choice"]]
        other = CHOICE_FIELD["breakup" if args["choice"] == "discard_hobby" else "discard_hobby"]
        if answer not in data and not partial:
            raise MalformedError(f"{path}.{answer}", "is missing")
        if other in data:
            raise MalformedError(f"{path}.{other}", "a {choice} answer takes no {key!r}", choice=args["choice"],
                                 key=other)
    args["extra"] = {}
    for key, limit, keep in (("at", MAX_CODE, LINE), ("note", MAX_NOTE, LINES)):
        if key in data:
            if data[key] is None:
                args["extra"][key] = None  # written back as it came
                continue
            if not isinstance(data[key], str):
                raise MalformedError(f"{path}.{key}", "must be a text, got {value!r}", value=shown(data[key]))
            args[key] = check_text(data[key], f"{path}.{key}", limit, keep)
    args["keys"] = tuple(data)
    return _new_move(args)


def with_field(move, name, value, path="move"):
    """``move`` (read with ``partial``) with one field set, or one more member of a list field,
    checked as ``read_move`` checks that field: a screen trying the candidates of one field
    reads the rest of the move once (``Game.options``). A field ``read_move`` checks together
    with others (a choice's answer, ``to``, ``changes``, ``reason``) is read with the move."""
    kind = move.type
    if kind == "choose" or (name not in _TEXT and name not in _LISTS) or name not in MOVE_FIELDS[kind]:
        data = move.to_dict()
        data[name] = list(data.get(name) or ()) + [value] if name in _LISTS else value
        return read_move(data, path, partial=True)
    attr = _ATTR.get(name, name)
    where = f"{path}.{name}"
    if name in _LISTS:
        items = tuple(getattr(move, attr) or ())
        value = items + (_text(value, f"{where}[{len(items)}]"),)
        _list(list(value), where, "keys")
    else:
        value = _text(value, where)
    values = dict(move.__dict__)
    values[attr] = value
    if name not in values["keys"]:
        values["keys"] = values["keys"] + (name,)
    new = object.__new__(Move)
    object.__setattr__(new, "__dict__", values)
    return new


def write_move(move):
    return move.to_dict()
