"""The New Angeles tracker as a ruleset of the registry: the adapter functions the app and the
CLI call for any game. A setup is stored as the record's ``setup`` key (``{"setup": {...}}``)."""

from .game import Game
from .moves import read_move as _read_move
from .pack import default_pack_data, read_pack
from .record import Record, read_record, replay
from .setup import read_setup as _read_setup
from .standings import standings, table_players, table_standing
from ..registry import Ruleset

__all__ = ["read_pack", "default_pack_data", "read_setup", "setup_json", "new_game", "read_move",
           "read_record", "make_record", "replay", "table_standing", "standings", "event_ranking", "sealed_out", "schemas"]


def read_setup(value, path="setup"):
    return _read_setup(value, path if path != "players" else "")


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
    """An event of New Angeles tables: no team score and no place across tables (a table's
    result is a set of winners, RULES.md §8). ``winners``: each table's winners, how it ended and
    its players by capital; ``individuals``: every player, table by table, each table's by
    capital, with no place."""
    winners = [{"table": t["table"], "winners": t.get("winners", []), "finished": t["finished"],
                "ended_by": t.get("ended_by"), "players": table_players(t)} for t in tables]
    return {"teams": [], "individuals": [p for w in winners for p in w["players"]], "ranked_by": "capital",
            "winners": winners}


def sealed_out(record, game):
    """A record as a host or a script may read it before the reveal (D22): the rivals sealed at
    setup are left out until ``finish``; after it, the whole record."""
    if game is not None and game.finished:
        return record
    out = dict(record)
    setup = dict(out.get("setup") or {})
    setup["players"] = [{k: v for k, v in p.items() if k != "rival"} for p in setup.get("players", [])]
    out["setup"] = setup
    return out


def schemas():
    """This game's move and table state as JSON Schema (``schema.schemas``), for the API's
    OpenAPI document."""
    from .schema import schemas as declared
    return declared()


#: this game as a ruleset of the registry (its game package names it: ``facilitator.games``)
RULESET = Ruleset(key="new-angeles", name="New Angeles", pack_format="newangeles-pack/1",
                  record_format="newangeles-record/1", standings_format="newangeles-standings/1",
                  locales=("en", "sv", "ru"), engine=__name__, players=(4, 6))
