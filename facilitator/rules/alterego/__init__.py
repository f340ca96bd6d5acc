"""The rules engine of Alter Ego, 3rd edition (ruleset ``alter-ego-3``): pure Python, standard
library only.

RULES.md and RECORD.md of ``games/alter-ego`` are the contract; everything they say is
enforced here. The modules:

* ``pack``: `alterego-pack/1` decks (``read_pack``, ``default_pack``);
* ``setup``: the table (``read_setup``, ``propose_first``);
* ``moves``: moves as records carry them (``read_move``);
* ``state``: the state and what is read from it (N, U, in force, P, A, influence);
* ``checks``: whether a move is legal now (the rule-reference scheme is documented there);
* ``effects``: what a legal move does (gains, losses, seasons, reactions as modifiers);
* ``game``: ``Game`` (check, apply, legal moves, options, copy);
* ``record`` and ``standings``: `alterego-record/1` and `alterego-standings/1`;
* ``simulate``: random legal games for property tests and benchmarks.
"""

from ..errors import IllegalMoveError, MalformedError, PackError, Problem, RulesError, SetupError
from ..record import ReplayError
from .game import Game, MoveResult
from .moves import MOVE_TYPES, Move, read_move, write_move
from .pack import PACK_FORMAT, RULESET, ActiveCard, Card, Pack, default_pack, pack_problems, read_pack, write_pack
from .record import RECORD_FORMAT, Record, read_record, replay, write_record
from .setup import PlayerSetup, Setup, propose_first, read_setup
from .standings import STANDINGS_FORMAT, influence_ranking, standings, table_standing

__all__ = [
    "RULESET", "PACK_FORMAT", "RECORD_FORMAT", "STANDINGS_FORMAT",
    "IllegalMoveError", "MalformedError", "PackError", "Problem", "RulesError", "SetupError", "ReplayError",
    "Game", "MoveResult", "MOVE_TYPES", "Move", "read_move", "write_move",
    "ActiveCard", "Card", "Pack", "default_pack", "pack_problems", "read_pack", "write_pack",
    "Record", "read_record", "replay", "write_record",
    "PlayerSetup", "Setup", "propose_first", "read_setup",
    "influence_ranking", "standings", "table_standing",
]
