"""Builders for New Angeles tests, so each test states the numbers it needs and reads like the
record it describes.

The default table is the one of RECORD.md §3: Anna (jinteki), Boris (nbn), Vera (globalsec) and
Dmitri (haas-bioroid), clockwise, capital 10 each, threat 12, 3 asset cards for S1, demand card
DM2 of the sample pack (threat 6; energy 4, entertainment 3, tech 3, consumables 3,
materials 2), Anna holding the first-player token. Moves are built from their JSON through
``read_move``, so a test's move is exactly what a record would carry.
"""

import json
from pathlib import Path

import pytest

from facilitator.rules.newangeles import (Game, IllegalMoveError, default_pack_data, read_move, read_pack,
                                          read_setup, table_standing)

DATA = Path(__file__).parent / "data"
NAMES = ("Anna", "Boris", "Vera", "Dmitri")
CORPS = {"Anna": "jinteki", "Boris": "nbn", "Vera": "globalsec", "Dmitri": "haas-bioroid"}
DM2 = {"energy": 4, "entertainment": 3, "tech": 3, "consumables": 3, "materials": 2}


def load(name):
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def pack_data(**rules):
    """The sample pack's JSON with these ``rules`` overridden."""
    data = default_pack_data()
    data["rules"].update(rules)
    return data


def make_pack(**rules):
    return read_pack(pack_data(**rules))


def setup_data(*, players=None, capital=10, first="Anna", threat=12, assets=3, demand="DM2", supply=None,
               rivals=None):
    """A record's ``{"setup": ...}``; ``rivals`` seals rival cards at setup (D22)."""
    names = players or NAMES
    corps = dict(CORPS, Elena="weyland", Fyodor="melange")
    caps = capital if isinstance(capital, dict) else {n: capital for n in names}
    out = {"players": [dict({"name": n, "corp": corps[n], "capital": caps[n]},
                            **({"rival": rivals[n]} if rivals and n in rivals else {})) for n in names],
           "first_player": first, "threat": threat, "assets": assets, "demand": demand}
    if supply is not None:
        out["supply"] = supply
    return {"setup": out}


def make_game(pack=None, **setup):
    return Game(pack or make_pack(), read_setup(setup_data(**setup)), table="Table 2")


# ----- moves, as a record writes them -------------------------------------------------------
def move(data):
    return read_move(data)


def offer(value):
    """``"text"`` -> an action card; ``{"emergency": corp}`` as it is."""
    return value if isinstance(value, dict) else {"card": value}


def deal(active, asset="A01", main="Security: Sweep", counters=(), support=(), **more):
    """A deal: ``counters`` as names (a card each) or ``(name, offer)``; ``support`` as
    ``(name, "main" | "counter", cards)``; any other field as a keyword (``winner``, ``extra``…)."""
    counteroffers = []
    for c in counters:
        name, what = (c, f"Counter card of {c}") if isinstance(c, str) else c
        counteroffers.append({"player": name, **offer(what)})
    data = {"type": "deal", "active": active, "asset": asset, "main": offer(main), "counteroffers": counteroffers,
            "support": [{"player": p, "offer": o, "cards": n} for p, o, n in support]}
    data.update(more)
    return move(data)


def end_round(production=None, next_assets=3, **more):
    data = {"type": "end_round", "production": production or {}}
    if next_assets is not None:
        data["next_assets"] = next_assets
    data.update(more)
    return move(data)


def investments(*capital, cards=None, names=NAMES):
    cards = cards or [f"I{i + 1:02d}" for i in range(len(names))]
    return [{"player": n, "card": c, "capital": k} for n, c, k in zip(names, cards, capital or [0] * len(names))]


def demand_round(*capital, next_demand="DM2", names=NAMES, **more):
    data = {"type": "demand_round", "investments": investments(*capital, names=names)}
    if next_demand is not None:
        data["next_demand"] = next_demand
    data.update(more)
    return move(data)


def capital(player, amount, reason="contract"):
    return move({"type": "capital", "player": player, "amount": amount, "reason": reason})


def threat(amount, reason="event"):
    return move({"type": "threat", "amount": amount, "reason": reason})


def supply(reason="action", **changes):
    return move({"type": "supply", "changes": changes, "reason": reason})


def transfer(giver, receiver, capital=None, assets=None):
    data = {"type": "transfer", "from": giver, "to": receiver}
    if capital is not None:
        data["capital"] = capital
    if assets is not None:
        data["assets"] = assets
    return move(data)


def adjust(reason="card effect", **fields):
    return move({"type": "adjust", "reason": reason, **fields})


def finish(**rivals):
    return move({"type": "finish", "rivals": rivals})


# ----- positions ----------------------------------------------------------------------------
def unopposed(game, asset=None):
    """The token holder's deal, unopposed, on a fresh asset: how tests move the game along."""
    asset = asset or f"X{len(game.deals) + 1:02d}"
    return game.apply(deal(game.first_player, asset=asset))


def finish_round(game, next_assets=3, **more):
    """Make the rest of the current standard round's deals and end it."""
    while game.assets_left:
        unopposed(game)
    last = game.label == "S6"
    return game.apply(end_round(next_assets=None if last else next_assets, **more))


def meet_demand(game):
    """Raise supply to the current demand card's targets (so a demand round is met)."""
    short = {r: t - game.supply[r] for r, t in game.demand.full_targets(game.pack.resource_keys).items()
             if game.supply[r] < t}
    if short:
        game.apply(supply(**short))


def reach(game, label):
    """Play unopposed deals, ends of rounds and met demand rounds until the slot ``label``."""
    order = ["S1", "S2", "D1", "S3", "S4", "D2", "S5", "S6", "D3"]
    while order.index(game.label) < order.index(label):
        if game.kind == "demand":
            meet_demand(game)
            game.apply(demand_round(next_demand=None if game.label == "D3" else "DM2", names=game.names))
        else:
            finish_round(game)
    return game


def ended_by_threat(game=None):
    game = game or make_game()
    game.apply(threat(game.pack.threat_max - game.threat))
    return game


def ended_by_rounds(game=None):
    game = reach(game or make_game(), "D3")
    meet_demand(game)
    game.apply(demand_round(next_demand=None, names=game.names))
    return game


def state(game):
    """Everything a move can change, hidden parts included, to prove a refusal changed nothing."""
    return (json.dumps(table_standing(game), sort_keys=True), len(game.moves), len(game.history),
            game.deals_in_round, dict(game.holder), game.rivals, game.results, game.ended_by, game.finished,
            [p.snapshot() for p in game.players])


def refused(game, move_, rule, code):
    """``move_`` is refused by check and by apply with (rule, code), changing nothing."""
    before = state(game)
    with pytest.raises(IllegalMoveError) as checked:
        game.check(move_)
    with pytest.raises(IllegalMoveError) as err:
        game.apply(move_)
    assert (err.value.rule, err.value.code) == (rule, code), str(err.value)
    assert (checked.value.rule, checked.value.code) == (rule, code)
    assert state(game) == before
    return err.value


def row(game, name):
    return next(p for p in table_standing(game)["players"] if p["name"] == name)
