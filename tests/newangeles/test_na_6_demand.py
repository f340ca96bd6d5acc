"""RULES.md §6 Demand rounds: 1. score investments, 2. pay demand, 3. reveal the next demand card
(supply back to 0), 4. choose investments (secret, not tracked). D3 stops after step 2.

DM2 of the sample pack: threat 6; energy 4, entertainment 3, tech 3, consumables 3, materials 2.
"""

import pytest

from facilitator.rules.newangeles import table_standing

from .helpers import DM2, demand_round, make_game, meet_demand, reach, refused, row, supply

INLINE = {"code": "DM5", "threat": 5, "targets": {"energy": 2, "tech": 4, "materials": 3}}


def at_d1(threat=12):
    return reach(make_game(threat=threat), "D1")


def test_step_1_every_player_scores_his_investment():
    game = at_d1()
    meet_demand(game)
    result = game.apply(demand_round(3, 2, 5, 0))
    assert [p["capital"] for p in table_standing(game)["players"]] == [13, 12, 15, 10]
    assert row(game, "Vera")["investments"] == [{"round": "D1", "card": "I03", "capital": 5}]
    assert result.capital == {"Anna": 3, "Boris": 2, "Vera": 5}
    assert [i["capital"] for i in result.demand["investments"]] == [3, 2, 5, 0]


def test_step_2_met_when_every_supply_reaches_its_target():
    game = at_d1()
    game.apply(supply(**DM2))
    result = game.apply(demand_round())
    entry = table_standing(game)["demand_history"][0]
    assert entry == {"round": "D1", "card": "DM2", "supply": DM2, "targets": DM2, "short": {}, "met": True,
                     "threat_added": 0}
    assert (game.threat, result.threat) == (12, None)


def test_step_2_unmet_demand_adds_the_cards_threat_and_lists_what_fell_short():
    game = at_d1()
    game.apply(supply(**dict(DM2, tech=1, materials=0)))
    result = game.apply(demand_round())
    entry = table_standing(game)["demand_history"][0]
    assert (entry["met"], entry["short"], entry["threat_added"]) == (False, {"tech": 2, "materials": 2}, 6)
    assert entry["supply"]["tech"] == 1
    assert result.threat == {"before": 12, "after": 18, "added": 6, "capped": False, "reason": "demand"}


def test_step_3_supply_returns_to_0_and_the_next_card_sets_the_targets():
    game = at_d1()
    game.apply(supply(**DM2))
    result = game.apply(demand_round(next_demand=INLINE))
    t = table_standing(game)
    assert set(t["supply"].values()) == {0}
    assert t["demand"] == {"card": "DM5", "threat": 5,
                           "targets": {"energy": 2, "entertainment": 0, "tech": 4, "consumables": 0, "materials": 3}}
    assert result.supply == {r: -v for r, v in DM2.items()}
    assert (t["round"]["label"], result.advanced) == ("S3", {"from": "D1", "to": "S3"})


def test_a_takeover_in_pay_demand_skips_steps_3_and_4_d19():
    game = at_d1(threat=19)
    refused(game, demand_round(next_demand="DM2"), "D19", "next_demand_not_allowed")
    result = game.apply(demand_round(1, 1, 1, 1, next_demand=None))
    t = table_standing(game)
    assert (t["threat"], t["ended_by"], t["round"]["label"]) == (25, "threat", "D1")
    assert t["demand_history"][0]["threat_added"] == 6
    assert [p["capital"] for p in t["players"]] == [11, 11, 11, 11]  # step 1 came first
    assert result.ended_by == "threat"


def test_threat_added_is_the_cards_value_even_when_threat_stops_at_25_d24():
    game = at_d1(threat=22)
    game.apply(demand_round(next_demand=None))
    assert (game.threat, table_standing(game)["demand_history"][0]["threat_added"]) == (25, 6)
    assert game.history[-1].threat == {"before": 22, "after": 25, "added": 6, "capped": True, "reason": "demand"}


def test_d3_stops_after_pay_demand_and_the_game_ends_by_rounds():
    game = reach(make_game(), "D3")
    meet_demand(game)
    supply_before = dict(game.supply)
    refused(game, demand_round(next_demand="DM2"), "D1", "next_demand_after_last")
    result = game.apply(demand_round(next_demand=None))
    assert (game.ended_by, game.label, game.supply) == ("rounds", "D3", supply_before)
    assert result.ended_by == "rounds"


def test_a_takeover_in_d3s_pay_demand_ends_the_game_by_threat():
    game = reach(make_game(threat=19), "D3")
    game.apply(demand_round(next_demand=None))
    assert game.ended_by == "threat"


@pytest.mark.parametrize("label", ["D1", "D2"])
def test_next_demand_is_required_in_d1_and_d2(label):
    game = reach(make_game(), label)
    refused(game, demand_round(next_demand=None), "D20", "next_demand_missing")


def test_legal_moves_tells_the_screen_the_outcome_of_pay_demand_in_advance():
    game = at_d1(threat=19)
    game.apply(supply(**dict(DM2, tech=2)))
    offer = next(m for m in game.legal_moves() if m["type"] == "demand_round")
    assert (offer["met"], offer["short"], offer["threat_added"], offer["takeover"], offer["next_demand"]) == (
        False, {"tech": 1}, 6, True, "absent")
