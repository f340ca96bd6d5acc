"""Game records (`newangeles-record/1`, RECORD.md §3): read, written back exactly, replayed.

A record carries its pack inline under ``content`` so it replays the same anywhere. The inline
pack and the setup are written back as they came (when they still say the same), so
``write_record(read_record(x)) == x``.
"""

from dataclasses import dataclass, field

from ..errors import MalformedError, PackError, RulesError
from ..bounds import MAX_MOVES
from ..errors import ReplayError, read_moves
from ..packcache import read_once
from .fields import read_list, read_object, read_text, require
from .game import Game
from .moves import read_move, usual_moves
from .pack import read_pack
from .setup import read_setup

RECORD_FORMAT = "newangeles-record/1"
_KNOWN = ("format", "table", "content", "setup", "moves")


@dataclass
class Record:
    table: str
    pack: object
    setup: object
    moves: list = field(default_factory=list)
    extra: dict = field(default_factory=dict)  # unknown top-level keys, kept as they came
    raw_content: dict | None = None  # the inline pack as it came
    raw_setup: dict | None = None  # the setup object as it came

    def to_dict(self):
        setup = self.setup.to_dict()["setup"]
        if self.raw_setup is not None and _same_setup(self.raw_setup, self.setup):
            setup = self.raw_setup
        out = {"format": RECORD_FORMAT, "table": self.table,
               "content": self.raw_content if self.raw_content is not None else self.pack.to_dict(),
               "setup": setup, "moves": [m.to_dict() for m in self.moves]}
        out.update(self.extra)
        return out


def _same_setup(raw, setup):
    try:
        return read_setup({"setup": raw}) == setup
    except RulesError:
        return False


def read_record(data):
    """A ``Record`` from its JSON object; raises ``MalformedError`` naming the bad field (a bad
    inline pack is named by its first problem, ``content.demand_cards[0].threat``)."""
    read_object(data, "")
    if data.get("format") != RECORD_FORMAT:
        raise MalformedError("format", "must be {expected!r}, got {got!r}", expected=RECORD_FORMAT,
                             got=data.get("format"))
    table = read_text(require(data, "table", ""), "table")
    content = read_object(require(data, "content", ""), "content")
    try:
        pack = read_once(read_pack, content)  # a content read before: its pack as read then
    except PackError as err:
        first = err.problems[0]
        more = f" (and {len(err.problems) - 1} more)" if len(err.problems) > 1 else ""
        path = f"content.{first.field}" if first.field else "content"
        raise MalformedError(path, "{problem}{more}", problem=first.message, more=more) from None
    setup = read_setup(data, "")
    moves = read_list(require(data, "moves", ""), "moves", MAX_MOVES)
    usual = usual_moves(moves)  # a record of usual moves, read fast
    moves = usual if usual is not None else read_moves(
        moves, lambda m, path: read_move(m, path, strict=False),  # unknown keys: ignored
        by={"deal": "active", "transfer": "from"})  # who a move is by, as ``Move.player``
    extra = {k: v for k, v in data.items() if k not in _KNOWN}
    return Record(table=table, pack=pack, setup=setup, moves=moves, extra=extra, raw_content=content,
                  raw_setup=data["setup"])


def write_record(record):
    return record.to_dict()


def replay(record):
    """The ``Game`` after every move of the record. Raises ``SetupError`` for a setup the rules
    refuse and ``ReplayError(number, move, error)`` (1-based) for the first illegal move."""
    game = Game(record.pack, record.setup, table=record.table)
    for i, move in enumerate(record.moves):
        try:
            game.apply(move)
        except RulesError as err:
            raise ReplayError(i + 1, move, err) from None
    return game
