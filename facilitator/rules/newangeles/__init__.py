"""The New Angeles tracker (ruleset ``new-angeles``): a pure, standard-library rules engine.

The host enters what happened at the table; the engine keeps capital, threat, supply and the
round track, checks the deal protocol and decides the winners, as the shared specification
``games/new-angeles/RULES.md`` says (formats: ``games/new-angeles/RECORD.md``); ``rule`` in every
refusal points into RULES.md ("§4" a section, "D21" a numbered decision). The app's ruleset
registry calls exactly the names exported here.

Modules: ``pack`` (content packs), ``setup``, ``moves`` (reading and writing moves), ``rounds``
(the round track), ``game`` (the rules), ``winners`` (§8), ``record`` (records and replay),
``standings``, ``simulate`` (random legal games).
"""

from ..errors import IllegalMoveError, MalformedError, PackError, Problem, RulesError, SetupError
from ..errors import ReplayError
from .game import DEAL_STAGES, DealPreview, Game, MoveResult, compute_deal
from .moves import (CAPITAL_REASONS, MOVE_TYPES, SUPPLY_REASONS, THREAT_REASONS, Counteroffer, Investment, Move,
                    Offer, Support, Transfer, read_move, write_move)
from .pack import (CORPORATION_KEYS, FEDERALIST, PACK_FORMAT, DemandCard, Pack, default_pack, default_pack_data,
                   pack_problems, read_pack, write_pack)
from .record import RECORD_FORMAT, Record, read_record, replay, write_record
from .rounds import SLOTS, round_info
from .setup import Setup, SetupPlayer, check_setup, read_setup
from .standings import STANDINGS_FORMAT, capital_ranking, standings, table_standing
from .winners import decide

RULESET = "new-angeles"

__all__ = [
    "RULESET", "PACK_FORMAT", "RECORD_FORMAT", "STANDINGS_FORMAT",
    "Pack", "DemandCard", "read_pack", "write_pack", "pack_problems", "default_pack", "default_pack_data",
    "CORPORATION_KEYS", "FEDERALIST",
    "Setup", "SetupPlayer", "read_setup", "check_setup",
    "Move", "Offer", "Counteroffer", "Support", "Transfer", "Investment", "read_move", "write_move",
    "MOVE_TYPES", "CAPITAL_REASONS", "THREAT_REASONS", "SUPPLY_REASONS",
    "Game", "MoveResult", "DealPreview", "DEAL_STAGES", "compute_deal",
    "Record", "read_record", "write_record", "replay", "ReplayError",
    "table_standing", "standings", "capital_ranking", "decide", "SLOTS", "round_info",
    "IllegalMoveError", "MalformedError", "PackError", "Problem", "RulesError", "SetupError",
]
