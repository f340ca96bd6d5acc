"""«16/25» as a ruleset of the registry (``RULESET`` below): the adapter functions the app and
the CLI call for any game, answered by this game's engine. Its formats stay byte for byte as
RECORD.md gives them; a setup is stored as the record's list of players."""

import json
from functools import lru_cache
from importlib import resources

from .fields import MAX_PLAYERS_LISTED, read_list
from .game import Game
from .moves import read_move as _read_move
from .pack import read_pack
from .record import Record, read_record, replay
from .setup import read_player
from .standings import individual_ranking, ranking_rule, standings, table_standing, team_ranking
from ..registry import Ruleset

__all__ = ["read_pack", "default_pack_data", "sample_pack", "sample_pack_data", "read_setup", "setup_json", "new_game", "read_move",
           "read_record", "make_record", "replay", "table_standing", "standings", "event_ranking", "schemas"]


def default_pack_data():
    """The sample pack shipped with the app (not the official deck), as a fresh JSON object."""
    return json.loads(resources.files(__package__).joinpath("sample_pack.json").read_text("utf-8"))


def sample_pack_data():
    """The sample pack's `lyceum-pack/1` JSON object (a fresh copy)."""
    return default_pack_data()


@lru_cache(maxsize=1)
def sample_pack():
    """The sample pack, validated. Not the official Lyceum deck: see the README."""
    return read_pack(default_pack_data())


def read_setup(value, path="players"):
    """The stored setup (a list of record players) as the engine's ``PlayerSetup`` list."""
    players = read_list(value, path, MAX_PLAYERS_LISTED) if value is not None else []
    return [read_player(p, f"{path}[{i}]") for i, p in enumerate(players)]


def setup_json(setup):
    """What is stored for a setup: the record's list of players."""
    return [p.to_dict() for p in setup]


def new_game(pack, setup, table=""):
    """A game at its start (raises ``SetupError`` for a setup that breaks RULES.md 2)."""
    return Game(pack, setup, table=table)


def read_move(data, path="move", *, strict=True):
    """A move from its JSON object: ``strict`` refuses a key its type does not take (a move
    from a tablet, a form or the API); else the key is dropped (a record, a stored log)."""
    return _read_move(data, path, strict=strict)


def make_record(table, pack, setup, moves):
    """The game record of a table: its pack inline, the setup and the moves in force."""
    return Record(table=table, pack=pack, players=list(setup), moves=list(moves))


def event_ranking(tables):
    """RULES.md 5 over the table standings of one event: teams (by total or average final
    XP) and individuals."""
    if not tables:
        return {"teams": [], "individuals": [], "ranked_by": "total"}
    return {"teams": team_ranking(tables), "individuals": individual_ranking(tables),
            "ranked_by": ranking_rule(tables)}


def schemas():
    """This game's move and table state as JSON Schema (``schema.schemas``), for the API's
    OpenAPI document."""
    from .schema import schemas as declared
    return declared()


#: this game as a ruleset of the registry (its game package names it: ``facilitator.games``)
RULESET = Ruleset(key="lyceum-16-25", name="16/25", pack_format="lyceum-pack/1",
                  record_format="lyceum-record/1", standings_format="lyceum-standings/1",
                  locales=("ru", "en"), engine=__name__, players=(3, 4))
