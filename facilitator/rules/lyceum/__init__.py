"""The «16/25» rules engine: pure Python, standard library only.

Everything RULES.md says is enforced here; the web app, the API, the exports and the CLI
ask this package instead of re-implementing a rule.
"""

from .cards import COLOR_XP, COLORS, Card, Special
from .eras import ERAS, ERA_BY_KEY, ERA_KEYS, ROUNDS, age_in_round, era_of_round
from ..errors import IllegalMoveError, MalformedError, PackError, Problem, RulesError, SetupError
from .game import Game, MoveResult, share_amount
from .moves import DECISIONS, MAIN_MOVES, MOVE_TYPES, Move, read_move, write_move
from .pack import PACK_FORMAT, Character, ContentPack, pack_problems, read_pack, write_pack
from .record import RECORD_FORMAT, Record, ReplayError, read_record, replay, write_record
from .setup import DECLARATION_BONUS, PlayerSetup, read_player, turn_order, turn_order_reason
from .skills import SKILLS
from .standings import STANDINGS_FORMAT, places, standings, table_standing

__all__ = [
    "COLOR_XP", "COLORS", "Card", "Special", "ERAS", "ERA_BY_KEY", "ERA_KEYS", "ROUNDS",
    "age_in_round", "era_of_round", "IllegalMoveError", "MalformedError", "PackError", "Problem",
    "RulesError", "SetupError", "Game", "MoveResult", "share_amount", "DECISIONS", "MAIN_MOVES",
    "MOVE_TYPES", "Move", "read_move", "write_move", "PACK_FORMAT", "Character", "ContentPack",
    "pack_problems", "read_pack", "write_pack", "RECORD_FORMAT", "Record", "ReplayError",
    "read_record", "replay", "write_record", "DECLARATION_BONUS", "PlayerSetup", "read_player",
    "turn_order", "turn_order_reason", "SKILLS", "STANDINGS_FORMAT", "places",
    "standings", "table_standing",
]
