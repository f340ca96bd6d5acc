"""Game records (`lyceum-record/1`, RECORD.md 2): read, write exactly, and replay.

A record carries its content pack inline so it replays the same anywhere, years later.
"""

from dataclasses import dataclass, field

from ..errors import ReplayError, read_moves
from ..packcache import read_once
from ..errors import MalformedError, PackError, RulesError, SetupError
from .fields import MAX_MOVES, MAX_NAME, MAX_PLAYERS_LISTED, check_text, read_list, read_object, require, shown
from .game import Game
from .moves import read_move, usual_moves
from .pack import read_pack
from .setup import read_player

RECORD_FORMAT = "lyceum-record/1"
_KNOWN = ("format", "table", "content", "players", "moves")


@dataclass
class Record:
    table: str
    pack: object
    players: list
    moves: list = field(default_factory=list)
    extra: dict = field(default_factory=dict)  # unknown top-level keys, kept as they came
    raw_content: dict | None = None  # the inline pack as it came, written back unchanged
    raw_players: list | None = None  # each player object as it came (declaration absent or null)

    def to_dict(self):
        out = {"format": RECORD_FORMAT, "table": self.table,
               "content": self.raw_content if self.raw_content is not None else self.pack.to_dict(),
               "players": [self._player_dict(i, p) for i, p in enumerate(self.players)],
               "moves": [m.to_dict() for m in self.moves]}
        out.update(self.extra)
        return out

    def _player_dict(self, index, player):
        """The player as read, when it still says the same (so ``write(read(x)) == x``);
        otherwise, e.g. after an edit, the writer's canonical form."""
        raws = self.raw_players or ()
        if index < len(raws) and read_player(raws[index], f"players[{index}]") == player:
            return raws[index]
        return player.to_dict()


def read_record(data):
    """A ``Record`` from its JSON object; raises ``MalformedError`` naming the bad field."""
    data = read_object(data, "")
    if data.get("format") != RECORD_FORMAT:
        raise MalformedError("format", "must be {expected!r}, got {got!r}",
                             expected=RECORD_FORMAT, got=shown(data.get("format")))
    table = require(data, "table", "")
    if not isinstance(table, str):
        raise MalformedError("table", "must be a text")
    check_text(table, "table", MAX_NAME)
    content = require(data, "content", "")
    try:
        pack = read_once(read_pack, content)  # a content read before: its pack as read then
    except PackError as err:
        first = err.problems[0]
        more = f" (and {len(err.problems) - 1} more)" if len(err.problems) > 1 else ""
        named = f"{first.item} {first.code}: " if first.item in ("card", "character") and first.code else ""
        raise MalformedError(_content_path(first), "{problem}{more}", problem=named + first.message,
                             more=more) from None
    raw_players = read_list(require(data, "players", ""), "players", MAX_PLAYERS_LISTED)
    players = [read_player(p, f"players[{i}]") for i, p in enumerate(raw_players)]
    moves = read_list(require(data, "moves", ""), "moves", MAX_MOVES)
    usual = usual_moves(moves)  # a record of usual moves, read fast
    moves = usual if usual is not None else read_moves(
        moves, lambda m, path: read_move(m, path, strict=False))  # unknown keys: ignored
    extra = {k: v for k, v in data.items() if k not in _KNOWN}
    return Record(table=table, pack=pack, players=players, moves=moves, extra=extra, raw_content=content,
                  raw_players=list(raw_players))


def _content_path(problem):
    """Where a pack problem sits inside the record: ``content.cards[3].gains``."""
    lists = {"card": "cards", "character": "characters"}
    if problem.item in lists and problem.index is not None:
        head = f"content.{lists[problem.item]}[{problem.index}]"
        return f"{head}.{problem.field}" if problem.field else head
    if problem.item == "levels":
        return f"content.levels{problem.field}"
    return f"content.{problem.field}" if problem.field else "content"


def write_record(record):
    return record.to_dict()


def replay(record):
    """The ``Game`` after every move of the record; raises ``SetupError`` or ``ReplayError``."""
    game = Game(record.pack, record.players, table=record.table)
    for i, move in enumerate(record.moves):
        try:
            game.apply(move)
        except RulesError as err:
            raise ReplayError(i + 1, move, err) from None
    return game


__all__ = ["Record", "ReplayError", "read_record", "write_record", "replay", "RECORD_FORMAT",
           "SetupError"]
