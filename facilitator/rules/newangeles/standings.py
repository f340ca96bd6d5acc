"""Standings (`newangeles-standings/1`, RECORD.md §4): one ``tables`` entry per game, no team
or individual ranking (New Angeles scores no teams). ``table_players`` lists one table's players
by capital (what the event's views show per table); ``capital_ranking`` every player of an
event by capital, for a script that wants one (RULES.md §8 ranks nobody across tables).

Hidden information (D22): before ``finish`` no rival appears (``rival``, ``rival_player`` and
``result`` are null, ``winners`` and ``losers`` empty); investments appear only once scored.
"""

from ..errors import MalformedError
from ..places import places
from .winners import rival_player

STANDINGS_FORMAT = "newangeles-standings/1"


def _player(game, p, table):
    """``table``: ``[(name, corp, capital)]`` of every player after finish (``Game.rival_player``'s),
    made once for all of them."""
    finished = game.finished
    return {
        "name": p.name,
        "corp": p.corp,
        "capital": p.capital,
        "assets": list(p.assets),
        "emergency": p.emergency,
        "investments": [{"round": r, "card": c, "capital": k} for r, c, k in p.investments],
        "rival": game.rivals[p.name] if finished else None,
        "rival_player": rival_player(p.name, game.rivals[p.name], table) if finished else None,
        "result": ("won" if game.results[p.name] else "lost") if finished else None,
    }


def table_standing(game):
    """One table's entry of the standings, with the keys in the order of RECORD.md §5."""
    keys = game.pack.resource_keys
    table = [(p.name, p.corp, p.capital) for p in game.players] if game.finished else None
    return {
        "table": game.table,
        "finished": game.finished,
        "round": game.round,
        "ended_by": game.ended_by,
        "government_takeover": game.ended_by == "threat",
        "threat": game.threat,
        "threat_max": game.pack.threat_max,
        "first_player": game.first_player,
        "assets_left": game.assets_left,
        "demand": {"card": game.demand.code, "threat": game.demand.threat,
                   "targets": game.demand.full_targets(keys)},
        "supply": {r: game.supply[r] for r in keys},
        "demand_history": [dict(e, supply=dict(e["supply"]), targets=dict(e["targets"]), short=dict(e["short"]))
                           for e in game.demand_history],
        "deals": [d.to_dict() for d in game.deals],
        "players": [_player(game, p, table) for p in game.players],
        "winners": game.winners(),
        "losers": game.losers(),
        "next": game.next(),
    }


def standings(games):
    """The `newangeles-standings/1` document for the tables of one event, in the order given.
    Table names must be unique (D39)."""
    seen = set()
    for g in games:
        if g.table in seen:
            raise MalformedError("tables", "table names must be unique: {table!r} is used by more than one record",
                                 table=g.table)
        seen.add(g.table)
    return {"format": STANDINGS_FORMAT, "tables": [table_standing(g) for g in games]}


def table_players(table):
    """The players of one ``tables`` entry by capital, highest first (equal capital in seat
    order), with no place: a table's result is its winners, not a ranking (RULES.md §8).
    ``won`` is True/False after finish, None before (D22)."""
    return [{"table": table["table"], "name": p["name"], "corp": p["corp"], "capital": p["capital"],
             "won": None if p["result"] is None else p["result"] == "won"}
            for p in sorted(table["players"], key=lambda p: -p["capital"])]


def capital_ranking(tables):
    """Every player of the given ``tables`` entries ranked by capital, highest first; equal
    capital shares a place. ``won`` is True/False after finish, None before (D22)."""
    rows = [{"table": t["table"], "name": p["name"], "corp": p["corp"], "capital": p["capital"],
             "won": None if p["result"] is None else p["result"] == "won"}
            for t in tables for p in t["players"]]
    for row, place in zip(rows, places([r["capital"] for r in rows])):
        row["place"] = place
    return sorted(rows, key=lambda r: r["place"])
