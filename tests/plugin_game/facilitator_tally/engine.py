"""Tally's rules engine: pure, standard library only (and the app's shared rules core).

The game: 2 to 4 players sit in the order given; on their turn a player adds 1 to
``max_add`` points to their score (``add``) or passes (``pass``). The first whose score
reaches ``target`` wins and the game is over. Pack, setup, moves, records and standings are
JSON objects, as every game of the app writes them:

* pack ``{"format": "tally-pack/1", "id", "title", "target": 10, "max_add": 3}``;
* setup ``{"setup": {"players": ["Ann", "Ben"]}}`` (a record's ``setup`` key);
* move ``{"type": "add", "player": "Ann", "points": 2}`` or ``{"type": "pass", "player": "Ben"}``,
  with an optional ``at`` (when) and ``note``;
* record ``{"format": "tally-record/1", "table", "content": pack, "setup", "moves"}``.

``MalformedError`` is a move that is not of the format (a missing or unknown key, points that
are not a small whole number); ``IllegalMoveError`` one the rules refuse now (not the player's
turn, more points than ``max_add``, the game over). The module ends with ``RULESET``, the
adapter the app's registry calls (``facilitator.rules.registry.Ruleset``).
"""

import copy
from dataclasses import dataclass, field

from facilitator.rules.errors import IllegalMoveError, MalformedError, PackError, Problem, ReplayError, SetupError
from facilitator.rules.places import places
from facilitator.rules.registry import Ruleset

KEY = "tally"
PACK_FORMAT = "tally-pack/1"
RECORD_FORMAT = "tally-record/1"
STANDINGS_FORMAT = "tally-standings/1"
MOVE_TYPES = ("add", "pass")
MIN_PLAYERS, MAX_PLAYERS = 2, 4
MAX_NAME = 40
MAX_NOTE = 200
MAX_MOVES = 5000


# ----- reading JSON ------------------------------------------------------------------------------
def _object(value, path):
    if not isinstance(value, dict):
        raise MalformedError(path, "must be an object")
    return value


def _text(value, path, maximum=MAX_NAME):
    if not isinstance(value, str) or not value.strip():
        raise MalformedError(path, "must be a non-empty text")
    if len(value) > maximum:
        raise MalformedError(path, "at most {max} characters", max=maximum)
    return value.strip()


def _whole(value, path, low, high):
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise MalformedError(path, "must be a whole number from {low} to {high}", low=low, high=high)
    return value


def _join(path, key):
    return f"{path}.{key}" if path else key


# ----- pack --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Pack:
    id: str
    title: str
    target: int = 10
    max_add: int = 3

    def to_dict(self):
        return {"format": PACK_FORMAT, "id": self.id, "title": self.title, "target": self.target,
                "max_add": self.max_add}


def default_pack_data():
    """The pack the app stores on first start: to 10, adding 1 to 3."""
    return {"format": PACK_FORMAT, "id": "tally", "title": "Tally to 10", "target": 10, "max_add": 3}


def read_pack(data):
    """A ``Pack`` from its JSON object; ``PackError`` lists every problem at once."""
    problems = []
    if not isinstance(data, dict):
        raise PackError([Problem("pack", None, None, None, "must be an object")])
    if data.get("format") != PACK_FORMAT:
        problems.append(Problem("pack", None, None, "format", f"must be {PACK_FORMAT!r}"))
    for key in ("id", "title"):
        if not isinstance(data.get(key), str) or not data[key].strip() or len(data[key]) > 100:
            problems.append(Problem("pack", None, None, key, "must be a non-empty text of at most 100 characters"))
    for key, low, high in (("target", 1, 1000), ("max_add", 1, 100)):
        value = data.get(key)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            problems.append(Problem("pack", None, None, key, f"must be a whole number from {low} to {high}"))
    if problems:
        raise PackError(problems)
    return Pack(id=data["id"].strip(), title=data["title"].strip(), target=data["target"], max_add=data["max_add"])


# ----- setup -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Setup:
    players: tuple

    def to_dict(self):
        return {"setup": {"players": list(self.players)}}


def read_setup(value, path="setup"):
    """A ``Setup`` from ``{"setup": {"players": [...]}}`` (a record, a table's stored setup, the
    API's ``players`` body): 2 to 4 different names, in their seating order."""
    outer = _object(value, path)
    inner = _object(outer.get("setup"), "setup")
    names = inner.get("players")
    where = "setup.players"
    if not isinstance(names, list):
        raise MalformedError(where, "must be a list of names")
    if len(names) > MAX_PLAYERS * 4:
        raise MalformedError(where, "at most {max} names", max=MAX_PLAYERS * 4)
    names = [_text(n, f"{where}[{i}]") for i, n in enumerate(names)]
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise SetupError("players", "players_count", "a table seats {low} to {high} players, got {count}",
                         low=MIN_PLAYERS, high=MAX_PLAYERS, count=len(names))
    seen = set()
    for i, name in enumerate(names):
        if name in seen:
            raise SetupError(f"players[{i}]", "name_twice", "the name {name!r} is given twice", name=name)
        seen.add(name)
    return Setup(players=tuple(names))


def setup_json(setup):
    return setup.to_dict()


# ----- moves -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Move:
    type: str
    player: str
    points: int | None = None
    at: str | None = None
    note: str | None = None

    def to_dict(self):
        out = {"type": self.type, "player": self.player}
        if self.points is not None:
            out["points"] = self.points
        for key in ("at", "note"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        return out

    def describe(self):
        return f"{self.type} by {self.player}" + (f" ({self.points})" if self.points is not None else "")


_KEYS = {"add": {"type", "player", "points", "at", "note"}, "pass": {"type", "player", "at", "note"}}


def read_move(data, path="move", *, strict=True):
    """A ``Move`` from its JSON object. ``strict`` refuses a key its type does not take (a move
    from a form or the API); a record's or a stored log's extra key is dropped."""
    data = _object(data, path)
    kind = data.get("type")
    if kind not in MOVE_TYPES:
        raise MalformedError(_join(path, "type"), "must be one of {types}, got {got!r}",
                             types=", ".join(MOVE_TYPES), got=str(kind)[:40])
    if strict:
        extra = sorted(set(data) - _KEYS[kind])
        if extra:
            raise MalformedError(_join(path, extra[0]), "a {type} move takes no such key", type=kind)
    player = _text(data.get("player"), _join(path, "player"))
    points = _whole(data.get("points"), _join(path, "points"), 1, 100) if kind == "add" else None
    at = _text(data["at"], _join(path, "at")) if data.get("at") is not None else None
    note = _text(data["note"], _join(path, "note"), MAX_NOTE) if data.get("note") is not None else None
    return Move(type=kind, player=player, points=points, at=at, note=note)


# ----- the game ----------------------------------------------------------------------------------
@dataclass
class MoveResult:
    """What a move changed: whose score, by how much, to what, and whether it won the game."""

    type: str
    player: str
    points: int
    score: int
    won: bool


@dataclass
class Game:
    pack: Pack
    setup: Setup
    table: str = ""
    scores: dict = field(default_factory=dict)
    turn: int = 0  # moves applied: the player on turn is ``order[turn % len(order)]``
    winner: str | None = None
    moves: list = field(default_factory=list)

    def __post_init__(self):
        self.scores = self.scores or {name: 0 for name in self.setup.players}

    @property
    def order(self):
        return list(self.setup.players)

    @property
    def current(self):
        return self.order[self.turn % len(self.order)]

    @property
    def round(self):
        return self.turn // len(self.order) + 1

    @property
    def finished(self):
        return self.winner is not None

    def next(self):
        """What the game waits for: the player on turn, or None once it is over."""
        return None if self.finished else {"expects": "move", "player": self.current}

    def legal_moves(self):
        if self.finished:
            return []
        return [{"type": "add", "player": self.current, "points": list(range(1, self.pack.max_add + 1))},
                {"type": "pass", "player": self.current}]

    def check(self, move):
        """Raise ``IllegalMoveError`` when the rules refuse ``move`` now."""
        if self.finished:
            raise IllegalMoveError("3", "game_over", "the game is over: {winner} won", winner=self.winner)
        if move.player not in self.scores:
            raise IllegalMoveError("1", "unknown_player", "{player} does not play at this table",
                                   player=move.player)
        if move.player != self.current:
            raise IllegalMoveError("2", "not_your_turn", "it is {current}'s turn, not {player}'s",
                                   current=self.current, player=move.player)
        if move.type == "add" and move.points > self.pack.max_add:
            raise IllegalMoveError("2", "too_many_points", "a turn adds 1 to {max} points, not {points}",
                                   max=self.pack.max_add, points=move.points)

    def apply(self, move):
        """Check, then apply ``move``; returns its ``MoveResult``."""
        self.check(move)
        points = move.points if move.type == "add" else 0
        self.scores[move.player] += points
        won = self.scores[move.player] >= self.pack.target
        if won:
            self.winner = move.player
        self.turn += 1
        self.moves.append(move)
        return MoveResult(type=move.type, player=move.player, points=points, score=self.scores[move.player], won=won)

    def copy(self):
        return copy.deepcopy(self)


def new_game(pack, setup, table=""):
    return Game(pack=pack, setup=setup, table=table)


# ----- records -----------------------------------------------------------------------------------
@dataclass
class Record:
    table: str
    pack: Pack
    setup: Setup
    moves: list = field(default_factory=list)

    def to_dict(self):
        return {"format": RECORD_FORMAT, "table": self.table, "content": self.pack.to_dict(),
                "setup": self.setup.to_dict()["setup"], "moves": [m.to_dict() for m in self.moves]}


def make_record(table, pack, setup, moves):
    return Record(table=table, pack=pack, setup=setup, moves=list(moves))


def read_record(data):
    data = _object(data, "")
    if data.get("format") != RECORD_FORMAT:
        raise MalformedError("format", "must be {expected!r}, got {got!r}", expected=RECORD_FORMAT,
                             got=str(data.get("format"))[:40])
    table = _text(data.get("table"), "table", 100)
    try:
        pack = read_pack(data.get("content"))
    except PackError as err:
        raise MalformedError("content", "{problem}", problem=str(err.problems[0])) from None
    setup = read_setup({"setup": data.get("setup")}, "setup")
    moves = data.get("moves")
    if not isinstance(moves, list) or len(moves) > MAX_MOVES:
        raise MalformedError("moves", "must be a list of at most {max} moves", max=MAX_MOVES)
    return Record(table=table, pack=pack, setup=setup,
                  moves=[read_move(m, f"moves[{i}]", strict=False) for i, m in enumerate(moves)])


def replay(record):
    """The ``Game`` after every move of the record; ``ReplayError`` names the first the rules refuse."""
    game = new_game(record.pack, record.setup, record.table)
    for number, move in enumerate(record.moves, start=1):
        try:
            game.apply(move)
        except IllegalMoveError as err:
            raise ReplayError(number, move, err) from None
    return game


# ----- standings ---------------------------------------------------------------------------------
def table_standing(game):
    """One table's entry of the standings: every player's score and place, the round, who is
    on turn, the winner."""
    names = game.order
    scores = [game.scores[n] for n in names]
    return {"table": game.table, "finished": game.finished, "round": game.round, "target": game.pack.target,
            "next": game.current if not game.finished else None, "winner": game.winner,
            "players": [{"name": n, "score": s, "place": p} for n, s, p in zip(names, scores, places(scores))]}


def standings(games):
    return {"format": STANDINGS_FORMAT, "tables": [table_standing(g) for g in games]}


def event_ranking(tables):
    """Every player of an event's tables by score (ties share a place); no teams."""
    rows = [{"table": t["table"], "name": p["name"], "score": p["score"], "won": t["winner"] == p["name"]}
            for t in tables for p in t["players"]]
    for row, place in zip(rows, places([r["score"] for r in rows])):
        row["place"] = place
    return {"teams": [], "individuals": sorted(rows, key=lambda r: r["place"]), "ranked_by": "score"}


#: Tally as a ruleset of the app's registry (its game package names it)
RULESET = Ruleset(key=KEY, name="Tally", pack_format=PACK_FORMAT, record_format=RECORD_FORMAT,
                  standings_format=STANDINGS_FORMAT, locales=("en",), engine=__name__, players=(MIN_PLAYERS, MAX_PLAYERS))

__all__ = ["RULESET", "Pack", "Setup", "Move", "Game", "MoveResult", "Record", "read_pack", "default_pack_data",
           "read_setup", "setup_json", "read_move", "new_game", "make_record", "read_record", "replay",
           "table_standing", "standings", "event_ranking", "ReplayError"]
