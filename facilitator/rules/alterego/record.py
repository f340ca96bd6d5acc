"""Game records (`alterego-record/1`, RECORD.md 2): read, write exactly, and replay.

A record carries its pack inline (``content``), so it replays the same anywhere, years
later. What was read is written back unchanged: ``write_record(read_record(x)) == x``.
"""

from dataclasses import dataclass, field

from ..errors import MalformedError, PackError, RulesError
from ..bounds import MAX_MOVES
from ..errors import ReplayError, read_moves
from ..packcache import read_once
from .game import Game
from .moves import read_move
from .pack import PACK_FORMAT, RULESET, read_pack
from .setup import _read_player, check_setup, read_setup

RECORD_FORMAT = "alterego-record/1"
_KNOWN = ("format", "ruleset", "table", "content", "players", "first", "moves")


@dataclass
class Record:
    """One table's game: its pack, setup and moves; ``extra`` keeps unknown top-level keys,
    ``raw_content`` and ``raw_players`` the inline pack and the players as they came."""

    table: str
    pack: object
    setup: object
    moves: list = field(default_factory=list)
    extra: dict = field(default_factory=dict)
    raw_content: dict | None = None
    raw_players: list | None = None

    def to_dict(self):
        out = {"format": RECORD_FORMAT, "ruleset": RULESET, "table": self.table,
               "content": self.raw_content if self.raw_content is not None else self.pack.to_dict(),
               "players": [self._player(i, p) for i, p in enumerate(self.setup.players)],
               "first": self.setup.first,
               "moves": [m.to_dict() for m in self.moves]}
        out.update(self.extra)
        return out

    def _player(self, index, player):
        """The player as read while it still says the same, else the canonical form."""
        raws = self.raw_players or ()
        if index < len(raws):
            try:
                if _read_player(raws[index], "") == player:
                    return raws[index]
            except RulesError:
                pass
        return player.to_dict()


def read_record(data):
    """A ``Record`` from its JSON object. Raises ``MalformedError`` naming the bad field
    (a refused inline pack: its first problem and how many more), and ``SetupError`` for a
    setup that breaks RULES.md 2, before any move is read."""
    if not isinstance(data, dict):
        raise MalformedError("", "a record must be a JSON object")
    if data.get("format") != RECORD_FORMAT:
        raise MalformedError("format", "unknown format {got!r}; an Alter Ego record is {expected!r}",
                             got=data.get("format"), expected=RECORD_FORMAT)
    if data.get("ruleset") != RULESET:
        raise MalformedError("ruleset", "ruleset {got!r} is not implemented; this engine plays {expected!r}",
                             got=data.get("ruleset"), expected=RULESET)
    table = data.get("table")
    if not isinstance(table, str):
        raise MalformedError("table", "must be a text, got {value!r}", value=table)
    content = data.get("content")
    if not isinstance(content, dict):
        raise MalformedError("content", "must be the inline {format} pack", format=PACK_FORMAT)
    if content.get("ruleset") != data["ruleset"]:
        raise MalformedError("content.ruleset", "the record's ruleset {record!r} and its pack's {pack!r} differ",
                             record=data["ruleset"], pack=content.get("ruleset"))
    try:
        pack = read_once(read_pack, content)  # a content read before: its pack as read then
    except PackError as err:
        first = err.problems[0]
        more = f" (and {len(err.problems) - 1} more)" if len(err.problems) > 1 else ""
        raise MalformedError(_content_path(first), "{problem}{more}", problem=str(first), more=more) from err
    setup = read_setup({"players": data.get("players"), "first": data.get("first")})
    check_setup(pack, setup)
    moves = data.get("moves")
    if not isinstance(moves, list):
        raise MalformedError("moves", "must be a list of moves")
    if len(moves) > MAX_MOVES:
        raise MalformedError("moves", "must list at most {limit} items, got {count}", limit=MAX_MOVES, count=len(moves))
    moves = read_moves(moves, lambda m, path: read_move(m, path, strict=False))  # unknown keys: ignored
    return Record(table=table, pack=pack, setup=setup, moves=moves,
                  extra={k: v for k, v in data.items() if k not in _KNOWN}, raw_content=content,
                  raw_players=list(data["players"]))


def _content_path(problem):
    lists = {"active": "actives", "card": "cards"}
    if problem.item in lists and problem.index is not None:
        head = f"content.{lists[problem.item]}[{problem.index}]"
        return f"{head}.{problem.field}" if problem.field else head
    return f"content.{problem.field}" if problem.field else "content"


def write_record(record):
    return record.to_dict()


def replay(record):
    """The ``Game`` after every move of the record. Raises ``SetupError`` for a bad setup
    and ``ReplayError(number, move, error)`` (1-based) for the first move the rules refuse."""
    game = Game(record.pack, record.setup, table=record.table)
    moves = record.moves
    last = len(moves) - 1
    for i, move in enumerate(moves):
        # the state before a trigger is kept only if a reaction follows (or it is the last move)
        keep = i == last or moves[i + 1].type == "react"
        try:
            game._apply_fast(move, keep)
        except RulesError as err:
            raise ReplayError(i + 1, move, err) from None
    return game


__all__ = ["Record", "ReplayError", "RECORD_FORMAT", "read_record", "write_record", "replay"]
