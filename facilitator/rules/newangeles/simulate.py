"""Random legal New Angeles games: for property tests, benchmarks and demos.

A simulated table enters every kind of move RULES.md §10 knows: deals with transfers,
counteroffers (covered ones too), support, extra support and host overrides, emergency cards;
ends of rounds and demand rounds (met and unmet, next cards from the pack or inline);
``capital``, ``threat``, ``supply``, ``transfer`` and every kind of ``adjust``; then ``finish``
with rivals dealt as the rules deal them (some sealed at setup). Every move it makes must be
legal: ``random_game`` applies them without catching refusals, so a simulator that strays
fails loudly.

``end`` steers how the game ends: ``"rounds"`` keeps threat below its maximum through all nine
slots (production meets any demand that would otherwise end the game), ``"threat"`` drives
threat to the maximum at a random slot, ``None`` lets the dice decide.
"""

import random

from .game import Game
from .moves import (CAPITAL_REASONS, SUPPLY_REASONS, THREAT_REASONS, Counteroffer, Investment, Move, Offer,
                    Support, Transfer)
from .pack import FEDERALIST, DemandCard, default_pack
from .record import Record
from .rounds import DEMAND, LAST_SLOT, LAST_STANDARD, STANDARD
from .setup import Setup, SetupPlayer

NAMES = ("Anna", "Boris", "Vera", "Dmitri", "Elena", "Fyodor")
ACTIONS = ("Biotech: Vaccination Drive", "Biotech: Clinic", "Media: Public Broadcast", "Media: Ad Campaign",
           "Security: Sweep", "Security: Patrol", "Labor: Relocate Androids", "Construction: Restore Power",
           "Construction: Develop District", "Biotech: Quarantine")
ENDS = ("rounds", "threat", None)
MAX_IDLE = 3  # so that any dice, even a die always showing 0, finish the game


class _Table:
    """What the simulated table knows beyond the engine: the rival cards dealt, the next fresh
    asset number, when a ``"threat"`` game is to be taken over."""

    def __init__(self, rng, pack, end, rivals, takeover_slot):
        self.rng = rng
        self.pack = pack
        self.end = end
        self.rivals = rivals
        self.takeover_slot = takeover_slot
        self.next_asset = 1
        self.removed = []  # assets removed by adjust, which may be revealed again (D29)
        self.idle = 0  # moves in a row that did not advance the game (at most MAX_IDLE)


def random_setup(pack, rng, players, end):
    """A setup of ``players`` players and the rival card each is dealt (n + 1 cards, D14)."""
    names = NAMES[:players]
    corps = rng.sample(pack.corporation_keys, players)
    deck = list(corps) + [FEDERALIST]
    rng.shuffle(deck)
    rivals = dict(zip(names, deck))
    seal = rng.random() < 0.5
    top = pack.threat_max - 1
    threat = {"rounds": rng.randint(0, min(8, top)), "threat": rng.randint(min(5, top), min(20, top))}.get(
        end, rng.randint(0, min(15, top)))
    if pack.demand_cards and rng.random() < 0.7:
        demand = rng.choice(pack.demand_cards).code
    else:
        demand = _inline_demand(pack, rng, "DX0")
    supply = None
    if rng.random() < 0.3:
        supply = {r: rng.randint(0, 2) for r in pack.resource_keys if rng.random() < 0.5}
    setup = Setup(
        players=tuple(SetupPlayer(name, corp, rng.randint(0, 12), rivals[name] if seal and rng.random() < 0.6 else None)
                      for name, corp in zip(names, corps)),
        first_player=rng.choice(names), threat=threat, assets=rng.randint(1, max(1, players - 1)),
        demand=demand, supply=supply)
    return setup, rivals


def _inline_demand(pack, rng, code):
    targets = {r: rng.randint(0, 4) for r in pack.resource_keys if rng.random() < 0.7}
    return DemandCard(code, rng.randint(0, 6), targets)


def _code(table, kind, prefix):
    """A code of the pack's list, or any text when the list is empty (RECORD.md §2)."""
    codes = [c.code for c in getattr(table.pack, kind)]
    return table.rng.choice(codes) if codes else f"{prefix}{table.rng.randint(1, 16):02d}"


# ----- deals ----------------------------------------------------------------------------
def _offer(game, table, name):
    p = game.by_name[name]
    if p.emergency == "faceup" and table.rng.random() < 0.15:
        return Offer(emergency=p.corp)
    return Offer(card=table.rng.choice(ACTIONS))


def _asset(game, table):
    rng = table.rng
    if table.pack.assets:
        free = [a.code for a in table.pack.assets if a.code not in game.holder]
        return rng.choice(free) if free else None
    if table.removed and rng.random() < 0.5:
        return table.removed.pop(rng.randrange(len(table.removed)))
    code = f"A{table.next_asset:02d}"
    table.next_asset += 1
    return code


def _random_transfer(game, rng):
    giver, receiver = rng.sample(game.names, 2)
    capital = game.by_name[giver].capital
    amount = rng.randint(0, min(capital, 4))
    assets = game.by_name[giver].assets
    given = [rng.choice(assets)] if assets and (rng.random() < 0.3 or not amount) else []
    if not amount and not given:
        return None
    extra = {"note": "for support"} if rng.random() < 0.3 else {}
    return Transfer(giver, receiver, amount if amount or rng.random() < 0.5 else None,
                    tuple(given) if given or rng.random() < 0.5 else None, extra)


def random_deal(game, table):
    rng = table.rng
    active = game.first_player
    order = game.clockwise_from_left(active)
    transfers = None
    if rng.random() < 0.15:
        t = _random_transfer(game, rng)
        transfers = (t,) if t is not None else ()
    counters = [Counteroffer(n, _offer(game, table, n)) for n in order if rng.random() < 0.3]
    standing = counters[-1].player if counters else None
    support = []
    for n in order:
        if n != standing and rng.random() < 0.6:
            offer = "counter" if standing and rng.random() < 0.5 else "main"
            support.append(Support(n, offer, rng.randint(1, 3)))
    extra = reason = None
    if rng.random() < 0.1:
        extra = {"main": rng.randint(-1, 2)}
        if standing and rng.random() < 0.5:
            extra["counter"] = rng.randint(0, 2)
        reason = "asset ability: extra support"
    asset = _asset(game, table)
    if asset is None:  # every pack asset is held: the host removes one first (D29)
        holder = next(p for p in game.players if p.assets)
        return Move("adjust", reason="an event discards an asset card", remove_assets={holder.name: (holder.assets[0],)})
    move = Move("deal", active=active, asset=asset, main=_offer(game, table, active), counteroffers=tuple(counters),
                support=tuple(support), extra_support=extra, extra_reason=reason, transfers=transfers)
    preview = game.preview_deal(move, "support")
    winner = override = None
    if preview.computed is None:
        winner = rng.choice(("main", "counter"))
    elif standing and rng.random() < 0.08:
        winner = "counter" if preview.computed == "main" else "main"
        override = "asset ability takes precedence"
    elif rng.random() < 0.2:
        winner = preview.computed
    return Move("deal", active=active, asset=asset, main=move.main, counteroffers=move.counteroffers,
                support=move.support, extra_support=extra, extra_reason=reason, transfers=transfers,
                winner=winner, override_reason=override, note="simulated" if rng.random() < 0.1 else None)


# ----- the other moves -------------------------------------------------------------------
def _threat_room(game, table):
    """How much threat a move may add: all the way for ``threat``/``None``, below the maximum
    for ``rounds``."""
    room = game.pack.threat_max - game.threat
    return room - 1 if table.end == "rounds" else room


def random_end_round(game, table):
    rng = table.rng
    keys = game.pack.resource_keys
    production = {r: rng.randint(0, 3) for r in keys if rng.random() < 0.5}
    if table.end == "rounds" and game.slot in (2, 5, LAST_STANDARD):  # a demand round follows
        for r in keys:
            need = game.demand.target(r) - game.supply[r]
            if need > production.get(r, 0):
                production[r] = need
    room = _threat_room(game, table)
    top = {"rounds": 2, "threat": 6}.get(table.end, 4)
    event_threat = rng.randint(0, max(0, min(top, room)))
    takeover = game.threat + event_threat >= game.pack.threat_max
    next_assets = None
    if game.slot != LAST_STANDARD and not takeover:
        n = len(game.players)
        next_assets = rng.randint(max(1, n - 2), n)
    event = _code(table, "events", "E") if rng.random() < 0.8 else None
    return Move("end_round", production=production, event=event,
                event_threat=event_threat if event_threat or rng.random() < 0.5 else None, next_assets=next_assets)


def random_demand_round(game, table):
    rng = table.rng
    n = len(game.players)
    pool = [i.code for i in table.pack.investments] or [f"I{i:02d}" for i in range(1, 13)]
    cards = rng.sample(pool, n)
    investments = tuple(Investment(p.name, card, rng.randint(0, 6)) for p, card in zip(game.players, cards))
    met, short, added = game.demand_outcome()
    next_demand = None
    if game.slot != LAST_SLOT and game.threat + added < game.pack.threat_max:
        if table.pack.demand_cards and rng.random() < 0.6:
            next_demand = rng.choice(table.pack.demand_cards).code
        else:
            next_demand = _inline_demand(table.pack, rng, f"DX{game.slot}")
    return Move("demand_round", investments=investments, next_demand=next_demand)


def random_finish(game, table):
    rng = table.rng
    sealed = game.setup.sealed_rivals()
    rivals = {n: r for n, r in table.rivals.items() if n not in sealed or rng.random() < 0.3}
    return Move("finish", rivals=rivals if rivals or rng.random() < 0.5 else None)


def random_anytime(game, table):
    """A ``capital``, ``threat``, ``supply``, ``transfer`` or ``adjust`` move, or None when the
    one drawn does not fit the position."""
    rng = table.rng
    kind = rng.choice(("capital", "threat", "supply", "transfer", "adjust"))
    if kind == "capital":
        p = rng.choice(game.players)
        amount = rng.randint(1, 6) if rng.random() < 0.6 or not p.capital else -rng.randint(1, min(p.capital, 5))
        return Move("capital", player=p.name, amount=amount, reason=rng.choice(CAPITAL_REASONS))
    if kind == "threat":
        room = _threat_room(game, table)
        if game.threat and (rng.random() < 0.4 or room < 1):
            return Move("threat", amount=-rng.randint(1, min(game.threat, 3)), reason=rng.choice(THREAT_REASONS))
        if room < 1:
            return None
        return Move("threat", amount=rng.randint(1, min(room, 3)), reason=rng.choice(THREAT_REASONS))
    if kind == "supply":
        r = rng.choice(game.pack.resource_keys)
        have = game.supply[r]
        delta = rng.randint(1, 3) if rng.random() < 0.7 or not have else -rng.randint(1, min(have, 3))
        changes = {r: delta}
        others = [x for x in game.pack.resource_keys if x != r]
        if others and rng.random() < 0.2:
            changes[rng.choice(others)] = 0  # D31: explicit zeros are accepted
        return Move("supply", changes=changes, reason=rng.choice(SUPPLY_REASONS))
    if kind == "transfer":
        t = _random_transfer(game, rng)
        return None if t is None else Move("transfer", transfer=t)
    return _random_adjust(game, table)


def _random_adjust(game, table):
    rng = table.rng
    roll = rng.random()
    if roll < 0.2:
        return Move("adjust", reason="noted for the protocol")  # D37
    if roll < 0.45 and game.kind == STANDARD and game.deals_in_round + game.assets_left < len(game.players) + 2:
        return Move("adjust", reason="an asset ability adds an asset card", assets_left=1)
    if roll < 0.55 and game.kind == STANDARD and game.assets_left >= 2:
        return Move("adjust", reason="an event removes an asset card", assets_left=-1)
    if roll < 0.7:
        return Move("adjust", reason="a card passes the first-player token", first_player=rng.choice(game.names))
    if roll < 0.85:
        p = rng.choice(game.players)
        state = rng.choice(("faceup", "facedown"))
        return Move("adjust", reason="a card effect flips an emergency card", emergency={p.corp: state})
    holders = [p for p in game.players if p.assets]
    if not holders:
        return None
    p = rng.choice(holders)
    asset = rng.choice(p.assets)
    table.removed.append(asset)
    return Move("adjust", reason="an event discards an asset card", remove_assets={p.name: (asset,)})


def choose_move(game, table):
    """One legal move for the game's position (the game is not finished)."""
    rng = table.rng
    if game.ended:
        return random_finish(game, table)
    pack = game.pack
    if table.end == "threat" and game.slot >= table.takeover_slot:
        federalist = next((n for n, r in table.rivals.items() if r == FEDERALIST), None)
        if federalist and game.by_name[federalist].capital < pack.federalist_capital and rng.random() < 0.5:
            needed = pack.federalist_capital - game.by_name[federalist].capital
            return Move("capital", player=federalist, amount=needed, reason="contract")  # a Federalist's win
        return Move("threat", amount=pack.threat_max - game.threat, reason=rng.choice(THREAT_REASONS))
    if table.end == "rounds" and game.kind == DEMAND:
        met, short, added = game.demand_outcome()
        if game.threat + added >= pack.threat_max:  # keep the city out of government hands
            return Move("supply", changes=short, reason="action")
    if table.idle < MAX_IDLE and rng.random() < 0.3:
        move = random_anytime(game, table)
        if move is not None:
            table.idle += 1
            return move
    table.idle = 0
    if game.kind == DEMAND:
        return random_demand_round(game, table)
    if game.assets_left >= 1:
        return random_deal(game, table)
    if game.deals_in_round == 0:  # D36: only an adjust gets the round going again
        return Move("adjust", reason="the host corrects the asset cards", assets_left=1)
    return random_end_round(game, table)


def random_game(rng, pack=None, players=None, end=None, table="Table 1"):
    """A complete random legal game, from setup to ``finish``, as a ``Record``.

    ``rng`` is a ``random.Random`` (or a seed); ``players`` 4..6 (default: drawn within the
    pack's limits); ``end`` one of ``"rounds"``, ``"threat"`` or None (module docstring)."""
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    pack = pack or default_pack()
    if end not in ENDS:
        raise ValueError(f"end must be one of {ENDS}, got {end!r}")
    players = players or rng.randint(pack.players_min, pack.players_max)
    setup, rivals = random_setup(pack, rng, players, end)
    sim = _Table(rng, pack, end, rivals, rng.randint(1, LAST_SLOT))
    game = Game(pack, setup, table=table)
    while not game.finished:
        game.apply(choose_move(game, sim))
    return Record(table=table, pack=pack, setup=setup, moves=list(game.moves))
