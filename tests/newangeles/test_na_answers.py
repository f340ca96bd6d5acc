"""What the turn screen needs to follow the moves entered offline past the end of a round
(issue 18 item 2; ``rules/newangeles/answers.py``): the engine answers where each move leads,
through the end of the round after the live one, and every answer is what the engine then does
with the moves a host really enters (other offers, counteroffers, production, an event)."""

import pytest

from facilitator.rules.newangeles.answers import EXTRA_ASSETS, UNKNOWN, turn_answers

from facilitator.rules.newangeles import RulesError

from .helpers import deal, demand_round, end_round, make_game, meet_demand, reach, supply, threat, unopposed


def said_then(position, event_threat=None, next_assets=None, production=None):
    """Where an end of round leads for its numbers, as the page looks it up (None: no answer):
    the demand met when the production of each resource short is at least its shortfall."""
    short = position.get("short") or {}
    met = all((production or {}).get(r, 0) >= n for r, n in short.items()) if short else None
    found = [c["then"] for c in position["cases"]
             if (c["event_threat"], c["next_assets"], c["met"]) == (event_threat, next_assets, met)]
    assert len(found) <= 1, found
    return found[0] if found else None


def waits_as_said(game, position):
    """The game waits for what the position says."""
    nxt = game.next()
    if position["expects"] is None:
        return
    assert nxt["expects"] == position["expects"], (nxt, position)
    assert game.label == position["label"]
    if nxt["expects"] == "deal":
        assert (nxt["active"], nxt["deal"], nxt["of"]) == (position["active"], position["deal"], position["of"])
    legal = {m["type"]: m for m in game.legal_moves()}
    if nxt["expects"] in ("deal", "end_round"):
        assert position["legal"]["type"] == nxt["expects"]
        if nxt["expects"] == "deal":
            assert position["legal"] == legal["deal"]
        else:  # the end of round's form, without the track's value then: it depends on the path
            assert position["legal"] == {k: v for k, v in legal["end_round"].items() if k != "threat"}


def other_deal(game, i):
    """A deal the answers could not know: countered, the counteroffer supported and winning."""
    active = game.next()["active"]
    left = game.clockwise_from_left(active)
    return deal(active, asset=f"Z{i:02d}", counters=[left[0]], support=[(left[-1], "counter", 2)])


def test_the_rest_of_the_round_its_end_and_the_next_round_are_answered_as_the_engine_plays_them():
    game = make_game(assets=3)
    answers = turn_answers(game)
    positions = answers["positions"]
    key = answers["start"]
    # S1: deal after deal, whatever was offered
    for i in range(3):
        waits_as_said(game, positions[key])
        game.apply(other_deal(game, i))
        key = positions[key]["deal_then"]
    end = positions[key]
    waits_as_said(game, end)
    assert end["expects"] == "end_round" and end["label"] == "S1"
    # the end of S1 with production (none of it changes what follows), an event and 4 asset cards
    game.apply(end_round(production={"energy": 3, "tech": 0}, event="E01", event_threat=2, next_assets=4))
    key = said_then(end, 2, 4)
    assert key is not None
    for i in range(4):
        waits_as_said(game, positions[key])
        assert positions[key]["label"] == "S2"
        game.apply(other_deal(game, 10 + i))
        key = positions[key]["deal_then"]
    # the end of the next round: its form, and what follows it is the server's to say (the horizon)
    waits_as_said(game, positions[key])
    assert positions[key]["expects"] == "end_round" and positions[key]["label"] == "S2"
    assert "cases" not in positions[key]


def test_the_next_rounds_end_is_the_same_position_whatever_threat_the_event_added():
    """The end of the next round is reached through each threat the event at this round's end may
    add: one position for all of them, so it carries nothing of the track's value then."""
    game = make_game(assets=1)
    answers = turn_answers(game)
    positions = answers["positions"]
    end = positions[positions[answers["start"]]["deal_then"]]
    assert end["expects"] == "end_round" and end["label"] == "S1"
    horizon, thresholds = set(), set()
    for added in (0, 1, 2):
        key = said_then(end, added, 1)
        while positions[key]["expects"] == "deal":
            key = positions[key]["deal_then"]
        horizon.add(key)
        later = game.copy()
        unopposed(later)
        later.apply(end_round(event="E01", event_threat=added, next_assets=1))
        thresholds.add(later.threat)
        unopposed(later)
        waits_as_said(later, positions[key])
    assert len(thresholds) == 3, "the paths should reach the next round's end at different threats"
    assert len(horizon) == 1 and "threat" not in positions[horizon.pop()]["legal"]


def test_an_end_of_round_leads_where_the_engine_takes_each_pair_of_its_numbers():
    """Every pair of (threat the event adds, the next round's asset cards) the answers list is
    one the engine accepts, leading where said; every pair it refuses is left out (no answer)."""
    game = make_game(assets=1, threat=12)
    unopposed(game)
    answers = turn_answers(game)
    end = answers["positions"][answers["start"]]
    assert end["expects"] == "end_round"
    listed = {(c["event_threat"], c["next_assets"]): c["then"] for c in end["cases"]}
    most = len(game.players) + EXTRA_ASSETS
    for added in (None, *range(game.pack.threat_max + 3)):
        for assets in (None, 0, *range(1, most + 2)):
            after = game.copy()
            try:
                after.apply(end_round(next_assets=assets, **({} if added is None else {"event_threat": added})))
            except RulesError:
                assert (added, assets) not in listed
                continue
            if added is not None and added > game.pack.threat_max or assets is not None and assets > most:
                assert (added, assets) not in listed  # past the horizon: no answer
                continue
            waits_as_said(after, answers["positions"][listed[(added, assets)]])
    # a takeover by the event: the game's end (its rivals are the server's to reveal)
    takeover = listed[(game.pack.threat_max - game.threat, None)]
    assert answers["positions"][takeover]["expects"] == "finish"
    assert (game.pack.threat_max - game.threat, 2) not in listed and (0, None) not in listed
    # every threat that takes no city over leads to the same next round
    assert listed[(None, 3)] == listed[(0, 3)] == listed[(game.pack.threat_max - game.threat - 1, 3)]


def demand_as_said(game, position):
    """The demand round the game waits for is the position's: its round and card, its demand met
    or not, taking the city over or not (the engine's legal move), the shortfall never said."""
    legal = {m["type"]: m for m in game.legal_moves()}["demand_round"]
    assert position["expects"] == "demand_round" and game.next()["expects"] == "demand_round"
    assert (position["label"], position["card"]) == (game.label, game.demand.code)
    assert (position["met"], position["takeover"]) == (legal["met"], legal["takeover"])
    assert position["legal"] == {k: v for k, v in legal.items() if k != "short"}


def productions(short, rng):
    """Productions around what is short: none, exactly enough, one resource one short, more
    than enough, random ones (other resources produced too)."""
    keys = list(short)
    out = [{}, dict(short), {r: n + 3 for r, n in short.items()}, {"energy": 9}]
    out += [dict(short, **{r: short[r] - 1}) for r in keys]
    for _ in range(20):
        out.append({r: rng.randint(0, 7) for r in ("energy", "entertainment", "tech", "consumables", "materials")
                    if rng.random() < 0.8})
    return out


@pytest.mark.parametrize("supply_first", [{}, {"energy": 3, "tech": 5}])
def test_the_end_of_the_round_before_a_demand_round_leads_to_its_outcome_for_the_production_entered(supply_first):
    """S2's end leads to D1 met or not as the engine then finds it (production at least each
    shortfall at zero production), taking the city over or not, and D1 to S3's deals through
    S3's end (the horizon)."""
    import random
    rng = random.Random(18)
    game = make_game(threat=16)
    if supply_first:
        game.apply(supply(**supply_first))
    reach(game, "S2")
    while game.assets_left:
        unopposed(game)
    answers = turn_answers(game)
    positions = answers["positions"]
    end = positions[answers["start"]]
    short = game.demand_outcome()[1]
    assert end["short"] == short and short  # the engine's shortfall at zero production
    assert said_then(end, None, None, {}) is None  # the next round's asset cards are still needed
    outcomes, checked = set(), 0
    for production in productions(short, rng):
        for added in (None, 0, 2, game.pack.threat_max - game.threat - game.demand.threat,
                      game.pack.threat_max - game.threat):
            for assets in (None, 1, 3, len(game.players) + EXTRA_ASSETS):
                after = game.copy()
                move = end_round(production=production, next_assets=assets,
                                 **({} if added is None else {"event_threat": added}))
                try:
                    after.apply(move)
                except RulesError:
                    assert said_then(end, added, assets, production) is None
                    continue
                key = said_then(end, added, assets, production)
                assert key is not None, (production, added, assets)
                if after.ended:  # the event took the city over
                    assert positions[key]["expects"] == "finish"
                    continue
                demand = positions[key]
                demand_as_said(after, demand)
                outcomes.add((demand["met"], demand["takeover"]))
                after.apply(demand_round(next_demand=None if demand["takeover"] else "DM2", names=after.names))
                key = demand["then"]
                if after.ended:
                    assert positions[key]["expects"] == "finish" and positions[key]["label"] == "D1"
                    continue
                while after.next()["expects"] == "deal":
                    waits_as_said(after, positions[key])
                    assert positions[key]["label"] == "S3"
                    after.apply(other_deal(after, 60 + len(after.deals)))
                    key = positions[key]["deal_then"]
                waits_as_said(after, positions[key])
                assert positions[key]["label"] == "S3" and "cases" not in positions[key]
                checked += 1
    assert outcomes == {(True, False), (False, False), (False, True)}
    assert checked > 100


def test_a_demand_round_is_one_position_per_outcome_and_where_it_leads():
    """At most met/not met × takeover/not per number of asset cards; the same outcome leading to
    the same round is one position."""
    for players in (("Anna", "Boris", "Vera", "Dmitri"), ("Anna", "Boris", "Vera", "Dmitri", "Elena", "Fyodor")):
        game = reach(make_game(players=players, assets=len(players)), "S2")
        answers = turn_answers(game)
        most = len(players) + EXTRA_ASSETS
        demands = [p for p in answers["positions"].values() if p["expects"] == "demand_round"]
        assert len(demands) <= 4 * most
        shapes = [(p["met"], p["takeover"], p["then"]) for p in demands]
        assert len(shapes) == len(set(shapes))
        assert len([p for p in demands if p["takeover"]]) == 1  # all lead to the game's end


def test_the_last_standard_rounds_end_leads_to_the_last_demand_round_and_the_games_end():
    game = reach(make_game(), "S6")
    answers = turn_answers(game)
    key = answers["start"]
    while answers["positions"][key]["expects"] == "deal":
        game.apply(other_deal(game, 70 + len(game.deals)))
        key = answers["positions"][key]["deal_then"]
    end = answers["positions"][key]
    assert end["label"] == "S6" and end["legal"]["next_assets"] == "absent"
    assert all(c["next_assets"] is None for c in end["cases"])
    for production in ({}, dict(end["short"])):
        after = game.copy()
        after.apply(end_round(production=production, next_assets=None))
        demand = answers["positions"][said_then(end, None, None, production)]
        demand_as_said(after, demand)
        assert demand["label"] == "D3" and demand["legal"]["next_demand"] == "absent"
        after.apply(demand_round(next_demand=None, names=after.names))
        assert after.ended and answers["positions"][demand["then"]]["expects"] == "finish"


def test_a_demand_round_on_the_screen_leads_to_the_next_rounds_deals_through_its_end():
    game = reach(make_game(), "D1")
    meet_demand(game)
    answers = turn_answers(game)
    positions = answers["positions"]
    start = positions[answers["start"]]
    assert start["expects"] == "demand_round"
    game.apply(demand_round(3, 0, 1, 0, next_demand={"code": "DX9", "threat": 4, "targets": {"tech": 2}}))
    key = start["then"]
    for i in range(3):  # S3's asset cards were entered at the end of S2
        waits_as_said(game, positions[key])
        game.apply(other_deal(game, 40 + i))
        key = positions[key]["deal_then"]
    assert positions[key]["expects"] == "end_round" and positions[key]["label"] == "S3"
    assert "cases" not in positions[key]


@pytest.mark.parametrize("label", ["D1", "D3"])
def test_a_demand_round_that_ends_the_game_leads_to_its_end(label):
    """D1 unmet with threat one card short of the maximum: a takeover; D3 met: the rounds are over."""
    game = reach(make_game(), label)
    if label == "D1":
        game.apply(threat(game.pack.threat_max - game.demand.threat - game.threat))
    else:
        meet_demand(game)
    answers = turn_answers(game)
    then = answers["positions"][answers["start"]]["then"]
    game.apply(demand_round(next_demand=None, names=game.names))
    assert game.ended and answers["positions"][then]["expects"] == "finish"


def test_the_answers_are_bounded_by_the_next_rounds_end():
    """However long the game, the answers reach the end of the round after the live one: the
    live round's deals, its end, the next round's deals for each number of asset cards up to the
    horizon's, that round's end, the game's end and the unknown position."""
    for players in (("Anna", "Boris", "Vera", "Dmitri"), ("Anna", "Boris", "Vera", "Dmitri", "Elena", "Fyodor")):
        game = make_game(players=players, assets=len(players))
        answers = turn_answers(game)
        n, most = len(players), len(players) + EXTRA_ASSETS
        kinds = {}
        for pos in answers["positions"].values():
            kinds[pos["expects"]] = kinds.get(pos["expects"], 0) + 1
            assert pos.get("label") in (None, "S1", "S2")
        assert kinds == {"deal": n + most * (most + 1) // 2, "end_round": 2, "finish": 1, "over": 1, None: 1}  # the reveal leads to "over"
        assert UNKNOWN in answers["positions"]


# ----- the emergency cards (issue 18: an offline deal spending one) --------------------------------
def test_a_deal_spending_an_emergency_card_leads_to_a_state_that_does_not_offer_it():
    """The answers follow the cards beside the positions: a deal won by Anna's emergency card
    leads to a state without it, and what the engine's next deal then allows matches it."""
    from facilitator.rules.newangeles.answers import emergency_answers
    game = make_game(assets=3)
    cards = emergency_answers(game)
    start = cards["states"][cards["start"]]
    assert start["faceup"] == ["Anna", "Boris", "Vera", "Dmitri"]
    game.apply(deal("Anna", main={"emergency": "jinteki"}))
    after = cards["states"][start["spent"]["Anna"]]
    legal = {m["type"]: m for m in game.legal_moves()}["deal"]
    assert after["faceup"] == list(legal["emergency"]) == ["Boris", "Vera", "Dmitri"]
    # a counteroffer's card, won by the counteroffer: Vera's, from there
    game.apply(deal("Boris", asset="A02", counters=[("Vera", {"emergency": "globalsec"})],
                    support=[("Dmitri", "counter", 1)]))
    later = cards["states"][after["spent"]["Vera"]]
    assert later["faceup"] == list({m["type"]: m for m in game.legal_moves()}["deal"]["emergency"]) == ["Boris", "Dmitri"]
    # the engine refuses a spent card: no state offers it again
    with pytest.raises(RulesError):
        game.copy().apply(deal("Vera", asset="A03", main={"emergency": "globalsec"}))
    assert all("Anna" not in s["faceup"] for k, s in cards["states"].items() if k != cards["start"]
               and k in after["spent"].values())


def test_the_spend_answers_are_the_engines_for_every_shape_of_a_deal():
    """Every row says whose card the engine turns facedown: the winning offer's emergency card,
    never a losing or covered one; a game whose cards are partly spent answers from its own state."""
    from facilitator.rules.newangeles.answers import emergency_answers
    game = make_game(assets=3)
    game.apply(deal("Anna", main={"emergency": "jinteki"}))  # Anna's spent before the answers
    cards = emergency_answers(game)
    assert cards["states"][cards["start"]]["faceup"] == ["Boris", "Vera", "Dmitri"]
    corp = {p.name: p.corp for p in game.players}
    for active, rows in cards["spend"].items():
        for main, standing, kind, winner, spent in rows:
            won = active if winner == "main" else standing
            won_kind = main if winner == "main" else kind
            assert spent == (won if won_kind == "emergency" else None), (active, main, standing, kind, winner)
    assert {r[1] for r in cards["spend"]["Boris"] if r[1]} == {"Vera", "Dmitri", "Anna"}
    assert corp["Anna"] == "jinteki"
