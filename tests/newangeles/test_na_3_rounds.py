"""RULES.md §3 Round structure: S1 S2 D1 S3 S4 D2 S5 S6 D3 (D1), one deal per asset card in a
standard round (D2), and what the game waits for at each point (RECORD.md §4 ``next``)."""

import pytest

from facilitator.rules.newangeles import SLOTS, table_standing

from .helpers import (demand_round, end_round, ended_by_rounds, finish_round, make_game, meet_demand, reach,
                      refused, unopposed)

LABELS = ["S1", "S2", "D1", "S3", "S4", "D2", "S5", "S6", "D3"]


def test_the_nine_slots_in_order():
    assert [SLOTS[i] for i in range(1, 10)] == [
        ("standard", "S1"), ("standard", "S2"), ("demand", "D1"), ("standard", "S3"), ("standard", "S4"),
        ("demand", "D2"), ("standard", "S5"), ("standard", "S6"), ("demand", "D3")]


def test_a_whole_game_walks_the_track_forward_and_ends_after_d3():
    game = make_game()
    seen = []
    while not game.ended:
        if not seen or seen[-1] != game.label:
            seen.append(game.label)
        if game.kind == "demand":
            meet_demand(game)
            game.apply(demand_round(next_demand=None if game.label == "D3" else "DM2"))
        else:
            finish_round(game)
    assert seen == LABELS
    assert (game.ended_by, game.round) == ("rounds", {"slot": 9, "kind": "demand", "label": "D3"})


@pytest.mark.parametrize("label", LABELS)
def test_reaching_every_slot(label):
    game = reach(make_game(), label)
    kind = "demand" if label.startswith("D") else "standard"
    assert table_standing(game)["round"] == {"slot": LABELS.index(label) + 1, "kind": kind, "label": label}
    assert game.next()["expects"] == ("demand_round" if kind == "demand" else "deal")


def test_a_standard_round_has_one_deal_per_asset_card_then_its_end():
    game = make_game(assets=2)
    assert game.next() == {"expects": "deal", "active": "Anna", "deal": 1, "of": 2}
    unopposed(game)
    assert game.next() == {"expects": "deal", "active": "Boris", "deal": 2, "of": 2}
    unopposed(game)
    assert game.next() == {"expects": "end_round"}
    game.apply(end_round(next_assets=4))
    assert game.next() == {"expects": "deal", "active": "Vera", "deal": 1, "of": 4}


def test_a_deal_in_a_demand_round_and_a_demand_round_in_a_standard_round_are_refused():
    game = make_game()
    refused(game, demand_round(), "§3", "not_demand_round")
    reach(game, "D1")
    refused(game, end_round(), "§3", "not_standard_round")


def test_the_first_player_token_passes_left_after_every_deal_across_rounds_but_not_in_demand_rounds():
    game = make_game(assets=3)
    finish_round(game, next_assets=2)  # Anna, Boris, Vera made deals
    assert game.first_player == "Dmitri"
    finish_round(game)  # Dmitri, Anna
    assert (game.label, game.first_player) == ("D1", "Boris")
    meet_demand(game)
    game.apply(demand_round())
    assert (game.label, game.first_player) == ("S3", "Boris")  # D21


def test_after_the_end_only_finish_then_nothing():
    game = ended_by_rounds()
    assert game.next() == {"expects": "finish"}
    assert [m["type"] for m in game.legal_moves()] == ["finish"]
