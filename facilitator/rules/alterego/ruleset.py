"""Alter Ego (3rd edition) as a ruleset of the registry: the adapter functions the app and the
CLI call for any game. A setup is stored as the record's setup keys (``players``, ``first``)."""

from .game import Game
from .moves import read_move as _read_move
from .pack import default_pack_data, read_pack
from .record import Record, read_record, replay
from .setup import read_setup as _read_setup
from .standings import standings, table_ranking, table_standing
from ..registry import Ruleset

__all__ = ["read_pack", "default_pack_data", "read_setup", "setup_json", "new_game", "read_move",
           "read_record", "make_record", "replay", "table_standing", "standings", "event_ranking", "schemas"]


def read_setup(value, path=""):
    return _read_setup(value, "" if path == "players" else path)


def setup_json(setup):
    return setup.to_dict()


def new_game(pack, setup, table=""):
    return Game(pack, setup, table=table)


def read_move(data, path="move", *, strict=True):
    """A move from its JSON object: ``strict`` refuses a key its type does not take (a move
    from a tablet, a form or the API); else the key is dropped (a record, a stored log)."""
    return _read_move(data, path, strict=strict)


def make_record(table, pack, setup, moves):
    return Record(table=table, pack=pack, setup=setup, moves=list(moves))


def event_ranking(tables):
    """An event of Alter Ego tables: each table ranked on its own by influence, equal influence
    sharing the place; no team score and no ranking across tables (RULES.md 5). ``individuals``
    lists every player with the place at their own table, table by table; ``winners`` each
    table's first place (live before its end, as the standings are)."""
    winners = [{"table": t["table"], "winners": [p["name"] for p in t["players"] if p["place"] == 1],
                "influence": max((p["influence"] for p in t["players"]), default=0),
                "finished": t["finished"], "ended_by": t.get("ended_by")} for t in tables]
    return {"teams": [], "individuals": table_ranking(tables), "ranked_by": "influence", "winners": winners}


def schemas():
    """This game's move and table state as JSON Schema (``schema.schemas``), for the API's
    OpenAPI document."""
    from .schema import schemas as declared
    return declared()


#: this game as a ruleset of the registry (its game package names it: ``facilitator.games``)
RULESET = Ruleset(key="alter-ego-3", name="Alter Ego", pack_format="alterego-pack/1",
                  record_format="alterego-record/1", standings_format="alterego-standings/1",
                  locales=("fi", "en", "ru"), engine=__name__, players=(2, 3))
