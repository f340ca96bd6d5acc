"""RULES.md §7 Capital, threat and supply during play: every change but the demand's threat is
entered with a reason (D23) — ``capital``, ``threat``, ``supply`` — and players trade capital and
assets (``transfer``, D9); the host corrects the board with ``adjust``."""

import pytest

from facilitator.rules.newangeles import table_standing

from .helpers import adjust, capital, deal, make_game, refused, row, supply, threat, transfer, unopposed


@pytest.mark.parametrize("reason", ["contract", "action", "asset", "event", "other"])
def test_capital_changes_with_a_reason(reason):
    game = make_game()
    result = game.apply(capital("Boris", 2, reason))
    assert row(game, "Boris")["capital"] == 12
    assert result.capital == {"Boris": 2}
    assert result.events == [("capital", {"player": "Boris", "amount": 2, "capital": 12, "reason": reason})]


def test_a_loss_down_to_exactly_0_is_accepted_a_larger_one_refused_d10():
    game = make_game()
    err = refused(game, capital("Anna", -11), "D10", "capital_negative")
    assert str(err) == "capital Anna would be -1"
    game.apply(capital("Anna", -10))
    assert row(game, "Anna")["capital"] == 0


@pytest.mark.parametrize("reason", ["event", "illness", "action", "asset", "other"])
def test_threat_changes_with_a_reason(reason):
    game = make_game()
    result = game.apply(threat(2, reason))
    assert result.threat == {"before": 12, "after": 14, "added": 2, "capped": False, "reason": reason}


def test_threat_can_fall_but_not_below_0_d11():
    game = make_game(threat=3)
    game.apply(threat(-3))
    assert game.threat == 0
    refused(game, threat(-1), "D11", "threat_negative")


def test_an_increase_past_25_stops_at_25_and_ends_the_game_at_once_d11():
    game = make_game(threat=20)
    result = game.apply(threat(9))
    assert (game.threat, game.ended_by, result.ended_by) == (25, "threat", "threat")
    assert result.threat == {"before": 20, "after": 25, "added": 9, "capped": True, "reason": "event"}
    assert ("takeover", {"threat": 25, "threat_max": 25}) in result.events


def test_supply_changes_and_explicit_zeros_d31():
    game = make_game(supply={"tech": 2})
    result = game.apply(supply(tech=-2, energy=0, materials=1))
    assert table_standing(game)["supply"] == {"energy": 0, "entertainment": 0, "tech": 0, "consumables": 0,
                                              "materials": 1}
    assert result.supply == {"tech": -2, "materials": 1}


def test_a_transfer_gives_capital_and_assets():
    game = make_game()
    game.apply(deal("Anna", asset="A05"))
    result = game.apply(transfer("Anna", "Dmitri", capital=3, assets=["A05"]))
    assert (row(game, "Anna")["capital"], row(game, "Dmitri")["capital"]) == (7, 13)
    assert row(game, "Dmitri")["assets"] == ["A05"]
    assert result.capital == {"Anna": -3, "Dmitri": 3}
    assert result.assets == [{"asset": "A05", "from": "Anna", "to": "Dmitri"}]


def test_all_capital_may_be_given_but_no_more_d9():
    game = make_game()
    refused(game, transfer("Anna", "Vera", capital=11), "D9", "gives_too_much")
    game.apply(transfer("Anna", "Vera", capital=10))
    assert row(game, "Anna")["capital"] == 0


def test_adjust_assets_left_first_player_emergency_and_removed_assets():
    game = make_game()
    game.apply(deal("Anna", asset="A05"))
    result = game.apply(adjust("an event", assets_left=2, first_player="Dmitri", emergency={"nbn": "facedown"},
                               remove_assets={"Anna": ["A05"]}))
    t = table_standing(game)
    assert (t["assets_left"], t["first_player"]) == (4, "Dmitri")
    assert row(game, "Boris")["emergency"] == "facedown"
    assert row(game, "Anna")["assets"] == [] and game.holder == {}
    assert result.assets == [{"asset": "A05", "from": "Anna", "to": None}]
    assert result.emergency == {"nbn": "facedown"}
    assert result.first_player == {"before": "Boris", "after": "Dmitri"}
    game.apply(adjust("the card comes back", emergency={"nbn": "faceup"}))
    assert row(game, "Boris")["emergency"] == "faceup"


def test_an_adjust_lowering_assets_left_below_0_is_refused():
    game = make_game(assets=1)
    refused(game, adjust(assets_left=-2), "§10", "assets_left_negative")


def test_moves_before_the_end_are_accepted_in_any_slot():
    game = make_game(assets=1)
    unopposed(game)  # S1 waits for its end of round
    for move in (capital("Anna", 1), threat(1), supply(tech=1), transfer("Vera", "Boris", capital=1),
                 adjust("noted")):
        game.apply(move)
    assert game.next() == {"expects": "end_round"}
