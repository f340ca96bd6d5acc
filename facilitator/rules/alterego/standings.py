"""Standings (`alterego-standings/1`, RECORD.md 3): each table ranked on its own (RULES.md 5).

Before the end influence and places are live, as if the game ended now. Equal influence
shares the place (1, 1, 3); there is no tie-break and no team score.
"""

from ..errors import MalformedError
from ..places import places
from .pack import RULESET

STANDINGS_FORMAT = "alterego-standings/1"


def _activity(st, a, forces, act):
    return {"id": act.id, "card": act.card.key, "paused": act.paused, "in_force": act in forces,
            "season": act.season}


def _active(st, a, relief):
    forces = st.in_force(a)
    perm = st.perm(a, relief)
    anxiety = a.t + perm
    burned = anxiety >= a.card.bo
    base = st.influence_base(a)
    return {"key": a.key, "owner": a.owner, "va": a.card.va, "bo": a.card.bo, "anxiety_temp": a.t,
            "anxiety_perm": perm, "anxiety": anxiety, "burned_out": burned, "away": a.away,
            "free_time_unused": st.u(a), "activities": [_activity(st, a, forces, act) for act in a.acts],
            "influence_base": base, "influence": base // 2 if burned else base}


def table_standing(game):
    """One entry of ``tables``, with exactly RECORD.md 3's keys in its order."""
    st = game.state
    relief = st.stress_relief()
    actives = [_active(st, st.actives[k], relief) for k in st.in_seat_order()]
    by_key = {row["key"]: row for row in actives}
    players = [{"name": name, "hand": st.hands[name], "actives": list(st.factions[name]),
                "influence": sum(by_key[k]["influence"] for k in st.factions[name])} for name in st.order]
    for row, place in zip(players, places([p["influence"] for p in players])):
        row["place"] = place
    return {"table": game.table, "finished": st.finished, "ended_by": st.ended_by, "season": st.season,
            "season_key": game.season_key, "turn": st.turn, "current": game.current, "step": st.step,
            "next": game.next(), "pending": game.pending, "active_deck": game.active_deck, "players": players,
            "actives": actives}


def standings(games):
    """The `alterego-standings/1` document for one or more tables, in the order given
    (decision 49); table names must be unique."""
    seen = {}
    for i, game in enumerate(games):
        if game.table in seen:
            raise MalformedError(f"tables[{i}].table", "table {table!r} is given twice (tables {first} and {second}); "
                                 "table names are unique", table=game.table, first=seen[game.table] + 1, second=i + 1)
        seen[game.table] = i
    return {"format": STANDINGS_FORMAT, "ruleset": RULESET, "tables": [table_standing(g) for g in games]}


def table_ranking(tables):
    """Every player of an event, each table ranked on its own (RULES.md 5: no cross-table or
    team ranking): rows ``{"table", "name", "influence", "place"}`` with the place at their own
    table, the tables in the order given, each best first (turn order within a place)."""
    return [{"table": t["table"], "name": p["name"], "influence": p["influence"], "place": p["place"]}
            for t in tables for p in sorted(t["players"], key=lambda p: p["place"])]

