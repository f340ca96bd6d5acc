"""What New Angeles' turn screen needs to follow the moves entered offline: what the game waits
for after each of them (ARCHITECTURE.md decision 14, issue 18 item 2), through the end of the
round after this one.

A deal's outcome for whoever comes next does not depend on what was offered: the token passes
on and the round's asset cards count down (D21). What follows an end of round depends only on
two of its numbers, the threat its event adds (a takeover ends the game, D19) and the asset cards
of the next round (D2), and, where a demand round follows, on whether its production covers
what that round finds short: the tracked supply against the demand card (§6, D24), production
only adding to it, so the demand is met when the production of each resource short at zero
production is at least that shortfall (the engine's ``demand_outcome``). What follows a demand
round depends on nothing the host enters there (its outcome is the tracked supply's, its
investments change capital only). ``turn_answers(game)`` finds all of it from the engine itself,
by applying moves to copies of the game: a plain deal (the active player's offer, nobody
countering, the main offer winning), an end of round with each threat the track has (0 to the
pack's maximum, or none), each number of asset cards up to the horizon's (or none) and, before a
demand round with something short, a production of nothing and one of exactly the shortfall, a
demand round with every player investing. A move the engine refuses is no answer.

``{"start": key, "positions": {key: position}}``, a position being

- ``{"expects": "deal", "active", "deal", "of", "label", "legal", "deal_then": key}``;
- ``{"expects": "end_round", "label", "legal", "cases": [{"event_threat", "next_assets", "met",
  "then": key}], "short"}``: where the end of the round leads for each pair of its numbers the
  engine accepts (None: the field left empty; a pair not listed is no answer) and, where a demand
  round follows and something is short there (``short``: ``{resource: the production it needs}``,
  the engine's shortfall at zero production), for a production meeting the demand or not
  (``met``; None: the production changes nothing);
- ``{"expects": "demand_round", "label", "card", "met", "takeover", "legal", "then": key}``: a
  demand round reached with its demand met or not, its unmet demand taking the city over or
  not (one position per outcome and where it leads; ``legal`` without the shortfall, which
  depends on the production entered offline);
- ``{"expects": "finish", "label", "legal", "then": OVER}``: the game is over; its form (the
  rivals not sealed at setup: ``legal``'s ``required``) can be entered offline, and leads to
  ``{"expects": "over"}``: revealing the sealed rivals and deciding the winners is the server's;
- ``{"expects": None}`` (``UNKNOWN``);

and ``"cards"``: the emergency cards, followed beside the positions (``emergency_answers``).

``legal`` is the engine's legal move of that type there (``Game.legal_moves``: what the screen
needs to draw its form). **The horizon:** the standard round after the start's is answered
through its end of round, whose form is drawn but whose numbers lead nowhere (no ``cases``):
what follows is the server's to say. A demand round ends no standard round: one reached from an
end of round entered offline (S2's, S4's, S6's) is answered, leading to the next standard round
through its end, or to the game's end. The next round's asset cards are answered up to the
number of players plus ``EXTRA_ASSETS`` (events and asset abilities add some); a larger number
is no answer. The screen names who is active every time, draws each position's own form from
it, looks up where each move leads and computes no rule.
"""

from ..errors import RulesError
from .game import Game
from .moves import Counteroffer, Investment, Move, Offer

UNKNOWN = "?"
#: the position after the reveal entered offline: the winners are the server's to decide
OVER = "over"
#: the next round's asset cards answered: up to the number of players plus these
EXTRA_ASSETS = 2


def turn_answers(game: Game):
    positions, keys = {}, {}

    def add(canonical, key, position):
        if canonical not in keys:
            keys[canonical] = key
            positions[key] = position
        return keys[canonical]

    def unknown():
        return add(("unknown",), UNKNOWN, {"expects": None})

    def after(g, move, ended):
        """The key of the position ``move`` leads to from ``g``; None when the engine refuses it."""
        try:
            g.check(move)  # a refusal costs no copy
        except RulesError:
            return None
        later = g.copy()
        later.apply(move)
        return key_of(later, ended)

    def key_of(g, ended):
        """``ended``: a standard round has ended on the way from the start (the horizon's round;
        a demand round ends no standard round, so the one after it is still answered)."""
        if g.finished:
            return unknown()
        nxt = g.next()
        expects = nxt["expects"]
        if expects == "demand_round":
            return demand_key(g)
        if expects == "deal":
            canonical = ("deal", g.label, nxt["deal"], nxt["of"], nxt["active"])
            if canonical in keys:
                return keys[canonical]
            key = add(canonical, f"d{len(positions)}", {"expects": "deal", "active": nxt["active"], "deal": nxt["deal"],
                                                      "of": nxt["of"], "label": g.label, "legal": _legal(g, "deal")})
            positions[key]["deal_then"] = after(g, _plain_deal(g, nxt["active"]), ended) or unknown()
            return key
        canonical = (expects, g.label)
        if canonical in keys:
            return keys[canonical]
        key = add(canonical, f"{expects[0]}{len(positions)}",
                  {"expects": expects, "label": g.label, "legal": _form(g, expects)})
        if expects == "finish":  # the reveal entered offline: what it decides is the server's to say
            positions[key]["then"] = add(("over",), OVER, {"expects": "over"})
            return key
        if ended:
            return key
        most = len(g.players) + EXTRA_ASSETS
        short = _shortfall(g)
        # the production entered matters only to a demand round that follows, and only whether
        # it covers what is short there (met: at least the shortfall of each resource)
        productions = ((True, dict(short)), (False, {})) if short else ((None, {}),)
        if short:
            positions[key]["short"] = short
        positions[key]["cases"] = [
            {"event_threat": threat, "next_assets": assets, "met": met, "then": then}
            for threat in (None, *range(g.pack.threat_max + 1))
            for assets in (None, *range(1, most + 1))
            for met, production in productions
            for then in [after(g, Move("end_round", production=production, event_threat=threat, next_assets=assets),
                               True)]
            if then is not None]
        return key

    def demand_key(g):
        """A demand round, answered wherever it is reached (its outcome is the tracked supply's:
        whether its demand is met and whether that takes the city over, as the engine says for
        the supply the moves before it leave), keyed by that outcome and where it leads."""
        legal = _legal(g, "demand_round")
        investments = _plain_investments(g)
        thens = [after(g, Move("demand_round", investments=investments, next_demand=card), True)
                 for card in (g.demand, None)] if investments else []
        then = next((t for t in thens if t is not None), None) or unknown()
        canonical = ("demand_round", g.label, legal["met"], legal["takeover"], then)
        if canonical not in keys:
            add(canonical, f"m{len(positions)}",
                {"expects": "demand_round", "label": g.label, "met": legal["met"], "takeover": legal["takeover"],
                 "card": g.demand.code, "legal": {k: v for k, v in legal.items() if k != "short"}, "then": then})
        return keys[canonical]

    start = key_of(game, False)
    unknown()
    return {"start": start, "positions": positions, "cards": emergency_answers(game)}


def _shortfall(g):
    """What the demand round following the end of round ``g`` waits for would find short were
    nothing produced (``{resource: amount}``, the engine's ``demand_outcome``; the demand is met
    when the production of each is at least that); None when no demand round follows."""
    for assets in (None, 1):
        later = g.copy()
        try:
            later.apply(Move("end_round", production={}, next_assets=assets))
        except RulesError:
            continue
        nxt = later.next()
        return later.demand_outcome()[1] if nxt and nxt["expects"] == "demand_round" else None
    return None


def _legal(g, kind):
    return next((m for m in g.legal_moves() if m["type"] == kind), None)


def _form(g, kind):
    """What the form of a move waited for at ``g`` needs, the same whichever path reached it: a
    position is keyed by what the game waits for and the round, and the next round's end is
    reached through each threat the events may add, so the track's value then (``legal``'s
    ``threat``) is not the position's: it is left out (the form needs only the track's maximum)."""
    legal = _legal(g, kind)
    if kind == "end_round" and legal is not None:
        legal = {k: v for k, v in legal.items() if k != "threat"}
    return legal


def _plain_deal(g, active):
    """A deal the engine accepts now: the active player's offer wins an asset card nobody holds."""
    held = set(g.holder)
    free = [a.code for a in g.pack.assets if a.code not in held] if g.pack.assets else []
    asset = free[0] if free else next(f"offline-{i}" for i in range(len(held) + 1) if f"offline-{i}" not in held)
    return Move("deal", active=active, asset=asset, main=Offer(card="offline"), counteroffers=(), support=(),
                winner="main")


def _plain_investments(g):
    """Every player investing nothing, each with a card of their own (the pack's, if it lists
    them); None when the pack lists too few."""
    cards = [c.code for c in g.pack.investments] if g.pack.investments else [f"offline-{i}" for i in range(len(g.players))]
    if len(cards) < len(g.players):
        return None
    return tuple(Investment(p.name, card, 0) for p, card in zip(g.players, cards))


# ----- the emergency cards (D8), followed apart from the positions ------------------------------
#: what an offer is made with, as ``emergency_answers``' ``spend`` names it
KINDS = ("card", "emergency")


def emergency_answers(game):
    """Whose emergency card is faceup after the deals entered offline (issue 18: a deal won by an
    emergency card spends it, and the later deals must not offer it again). The cards' state is
    independent of what the game waits for (no position's key depends on it, only what a deal's
    form offers), so it is answered beside the positions rather than multiplying them:

    ``{"start": key, "states": {key: {"faceup": [names], "spent": {name: key}}},
    "spend": {active: [[main kind, standing player | None, standing kind | None, winner, spent]]}}``

    ``spend`` is the engine's answer, for each player who may be active, for every shape of a deal
    that decides a card's fate: the main offer made with an action card or the emergency card
    (``KINDS``), no counteroffer standing or one standing (its player and kind), the winner; its
    last item is the player whose card the engine turns facedown (None: none). ``states`` are the
    faceup cards reachable from the game's by deals spending one card each, and where spending
    one of them leads (the engine says which cards a deal won by a player's emergency card turns
    facedown: only that one). Nothing else turns a card in the moves the screen answers (an end
    of round, a demand round; an adjust is not answered). Asked of a new game of the same setup
    with every card faceup (``adjust``), whose first player is made each active in turn."""
    fresh = Game(game.pack, game.setup)
    corps = {p.name: p.corp for p in fresh.players}
    fresh.apply(Move("adjust", reason="offline answers", emergency={c: "faceup" for c in corps.values()}))
    spend, turned = {}, {}
    for active in fresh.names:
        g = fresh.copy()
        if g.first_player != active:
            g.apply(Move("adjust", reason="offline answers", first_player=active))
        rows = spend[active] = []
        asset = _plain_deal(g, active).asset
        shapes = [(None, None)] + [(x, kind) for x in g.clockwise_from_left(active) for kind in KINDS]
        for main in KINDS:
            for standing, kind in shapes:
                for winner in (("main", "counter") if standing else ("main",)):
                    move = Move("deal", active=active, asset=asset,
                                main=_offer(main, corps[active]),
                                counteroffers=(Counteroffer(standing, _offer(kind, corps[standing])),) if standing else (),
                                support=(), winner=winner,
                                override_reason="offline answers" if winner == "counter" else None)
                    turns = g.copy().apply(move).emergency
                    facedown = [name for name, corp in corps.items() if turns.get(corp) == "facedown"]
                    spent = facedown[0] if facedown else None
                    if spent is not None:
                        turned[spent] = frozenset(facedown)
                    rows.append([main, standing, kind, winner, spent])
    keys = {}

    def key_of(faceup):
        if faceup not in keys:
            keys[faceup] = f"c{len(keys)}"
            states[keys[faceup]] = entry = {"faceup": [n for n in fresh.names if n in faceup], "spent": {}}
            for name in entry["faceup"]:
                entry["spent"][name] = key_of(faceup - turned.get(name, frozenset((name,))))
        return keys[faceup]

    states = {}
    start = key_of(frozenset(p.name for p in game.players if p.emergency == "faceup"))
    return {"start": start, "states": states, "spend": spend}


def _offer(kind, corp):
    return Offer(emergency=corp) if kind == "emergency" else Offer(card="offline")
