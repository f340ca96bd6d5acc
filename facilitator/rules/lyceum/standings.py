"""Standings (`lyceum-standings/1`, RECORD.md 3): places with ties, team and individual ranking
(RULES.md 4 and 5)."""

from ..places import places
from .skills import full

STANDINGS_FORMAT = "lyceum-standings/1"


def player_standing(game, p):
    bonus = p.bonus()
    return {
        "name": p.name,
        "character": p.character,
        "xp": p.xp,
        "level": game.pack.level_for(p.xp),
        "skills": full(p.skills),
        "pending_sp": p.pending,
        "deferred": p.deferred.to_dict() if p.deferred else None,
        "shared": p.shared,
        "declared": p.declared,
        "declaration_met": p.declaration_met(),
        "bonus": bonus,
        "final_xp": p.xp + bonus,
    }


def table_standing(game):
    """One table's part of the standings: players in turn order with their places."""
    players = [player_standing(game, p) for p in game.players_in_order()]
    for row, place in zip(players, places([r["final_xp"] for r in players])):
        row["place"] = place
    total = sum(r["final_xp"] for r in players)
    return {
        "table": game.table,
        "finished": game.finished,
        "round": game.round,
        "era": game.era.key,
        "next": game.next(),
        "players": players,
        "total_xp": total,
        "average_xp": total / len(players),
    }


def winners(table):
    """The names in first place of one table's standing (RULES.md 4: equal final XP share it)."""
    if not table["players"]:
        return []
    best = min(p["place"] for p in table["players"])
    return [p["name"] for p in table["players"] if p["place"] == best]


def ranking_rule(tables):
    """``total`` when every table has the same number of players, else ``average``."""
    return "total" if len({len(t["players"]) for t in tables}) <= 1 else "average"


def team_ranking(tables):
    rule = ranking_rule(tables)
    key = "total_xp" if rule == "total" else "average_xp"
    rows = [{"table": t["table"], "players": len(t["players"]), "total_xp": t["total_xp"],
             "average_xp": t["average_xp"], "ranked_by": rule} for t in tables]
    for row, place in zip(rows, places([r[key] for r in rows])):
        row["place"] = place
    return sorted(rows, key=lambda r: r["place"])


def individual_ranking(tables):
    rows = [{"table": t["table"], "name": p["name"], "final_xp": p["final_xp"]}
            for t in tables for p in t["players"]]
    for row, place in zip(rows, places([r["final_xp"] for r in rows])):
        row["place"] = place
    return sorted(rows, key=lambda r: r["place"])


def standings(games):
    """The `lyceum-standings/1` object for the tables of one event (one game or many)."""
    tables = [table_standing(g) for g in games]
    return {
        "format": STANDINGS_FORMAT,
        "tables": tables,
        "teams": team_ranking(tables),
        "individuals": individual_ranking(tables),
    }
