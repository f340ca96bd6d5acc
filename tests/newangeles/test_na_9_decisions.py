"""RULES.md §9 Decisions: one test per numbered decision D1–D40 (``test_dNN_…``), then the
engine's own decisions where even RULES.md is silent (``game.py``'s docstring lists them).

The default table (helpers): Anna, Boris, Vera, Dmitri clockwise; capital 10; threat 12;
3 asset cards for S1; demand DM2 (threat 6); Anna active.
"""

import re
import sys

import pytest

from facilitator.rules.errors import IllegalMoveError

from facilitator.rules.newangeles import (MalformedError, ReplayError, SetupError, default_pack_data, read_move,
                                          read_pack, read_record, read_setup, replay, standings, table_standing)
from facilitator.rules.newangeles import Game

from .helpers import (DM2, adjust, capital, deal, demand_round, end_round, ended_by_rounds, ended_by_threat,
                      finish, finish_round, load, make_game, make_pack, meet_demand, reach, refused, row,
                      setup_data, supply, threat, transfer, unopposed)


def test_d01_round_order_and_d3_runs_steps_1_and_2_only():
    game = reach(make_game(), "D3")
    meet_demand(game)
    supply_before = dict(game.supply)
    game.apply(demand_round(1, 1, 1, 1, next_demand=None))
    assert (game.label, game.ended_by, game.supply, game.demand.code) == ("D3", "rounds", supply_before, "DM2")


def test_d02_deals_per_round_are_the_asset_cards_entered_and_adjust_covers_card_effects():
    game = make_game(assets=2)
    game.apply(adjust("an asset adds a card", assets_left=1))
    for _ in range(3):
        unopposed(game)
    game.apply(end_round(next_assets=1))
    assert game.next() == {"expects": "deal", "active": "Dmitri", "deal": 1, "of": 1}


def test_d03_only_the_top_counteroffer_stands_and_a_covered_owner_may_support():
    game = make_game()
    game.apply(deal("Anna", counters=["Boris", "Vera"], support=[("Boris", "counter", 1)]))
    entry = table_standing(game)["deals"][0]
    assert (entry["counter"]["player"], entry["counter"]["support"], entry["winner"]) == ("Vera", 1, "Vera")


def test_d04_support_is_the_cards_placed_plus_extra():
    game = make_game()
    game.apply(deal("Anna", counters=["Boris"], support=[("Vera", "main", 2), ("Dmitri", "main", 3)],
                    extra={"main": 1, "counter": 4}, extra_reason="asset"))
    entry = table_standing(game)["deals"][0]
    assert (entry["main"]["support"], entry["counter"]["support"]) == (6, 4)


def test_d05_no_counteroffer_the_main_offer_wins_without_a_count():
    game = make_game()
    game.apply(deal("Anna", extra={"main": -3}, extra_reason="card effect"))
    entry = table_standing(game)["deals"][0]
    assert (entry["won_by"], entry["main"]["support"], entry["tie"]) == ("main", -3, False)


def test_d06_a_tie_goes_to_the_main_offer_or_the_active_player_chooses():
    game = make_game()
    game.apply(deal("Anna", counters=["Boris"], support=[("Vera", "counter", 1), ("Dmitri", "main", 1)]))
    assert table_standing(game)["deals"][0]["won_by"] == "main"
    choosing = make_game(make_pack(support_tie="active_chooses"))
    tied = deal("Anna", counters=["Boris"])
    refused(choosing, tied, "D6", "tie_needs_winner")
    choosing.apply(deal("Anna", counters=["Boris"], winner="counter"))
    assert table_standing(choosing)["deals"][0]["winner"] == "Boris"


def test_d07_a_winner_other_than_the_count_needs_a_reason_printed_in_the_protocol():
    game = make_game()
    refused(game, deal("Anna", counters=["Boris"], support=[("Vera", "counter", 1)], winner="main"), "D7",
            "winner_differs")
    game.apply(deal("Anna", counters=["Boris"], support=[("Vera", "counter", 1)], winner="main",
                    override_reason="asset ability"))
    assert table_standing(game)["deals"][0]["override_reason"] == "asset ability"


def test_d08_emergency_card_only_its_corporations_faceup_facedown_after_winning_adjust_flips_it():
    game = make_game()
    refused(game, deal("Anna", main={"emergency": "nbn"}), "D8", "emergency_other")
    game.apply(deal("Anna", main={"emergency": "jinteki"}))
    assert row(game, "Anna")["emergency"] == "facedown"
    game.apply(adjust("card effect", emergency={"jinteki": "faceup"}))
    assert row(game, "Anna")["emergency"] == "faceup"


def test_d09_transfers_inside_a_deal_or_as_a_move_never_more_than_held():
    game = make_game()
    game.apply(deal("Anna", asset="A1", transfers=[{"from": "Anna", "to": "Boris", "capital": 4}]))
    game.apply(transfer("Anna", "Vera", capital=6, assets=["A1"]))
    assert [p.capital for p in game.players] == [0, 14, 16, 10]
    refused(game, transfer("Anna", "Vera", capital=1), "D9", "gives_too_much")
    refused(game, transfer("Anna", "Vera", assets=["A1"]), "D9", "asset_not_held")


def test_d10_capital_never_below_0_the_host_enters_the_actual_loss():
    game = make_game(capital=3)
    refused(game, capital("Boris", -5, "event"), "D10", "capital_negative")
    game.apply(capital("Boris", -3, "event"))
    assert row(game, "Boris")["capital"] == 0


def test_d11_threat_past_25_stops_at_25_below_0_refused():
    game = make_game(threat=1)
    refused(game, threat(-2), "D11", "threat_negative")
    game.apply(threat(30))
    assert (game.threat, game.ended_by) == (25, "threat")


def test_d12_starting_capital_and_threat_are_entered():
    game = make_game(capital={"Anna": 0, "Boris": 7, "Vera": 30, "Dmitri": 2}, threat=24)
    assert ([p.capital for p in game.players], game.threat) == ([0, 7, 30, 2], 24)


def test_d13_investments_are_entered_when_scored_and_shown_only_then():
    game = reach(make_game(), "D1")
    assert all(p["investments"] == [] for p in table_standing(game)["players"])
    meet_demand(game)
    game.apply(demand_round(0, 2, 0, 1))
    assert row(game, "Dmitri")["investments"] == [{"round": "D1", "card": "I04", "capital": 1}]


def test_d14_rival_cards_are_distinct_corporations_in_play_or_the_federalist():
    game = ended_by_threat()
    refused(game, finish(Anna="nbn", Boris="nbn", Vera="federalist", Dmitri="jinteki"), "D14", "rival_repeated")
    refused(game, finish(Anna="melange", Boris="nbn", Vera="federalist", Dmitri="jinteki"), "D14",
            "rival_not_in_play")
    game.apply(finish(Anna="globalsec", Boris="nbn", Vera="federalist", Dmitri="jinteki"))  # haas-bioroid unused


def test_d15_own_rival_card_beats_k_n_others_strictly_k_from_the_pack():
    assert default_pack_data()["rules"]["self_rival_beats"] == {"4": 2, "5": 2, "6": 3}
    game = ended_by_rounds(make_game(capital={"Anna": 5, "Boris": 5, "Vera": 4, "Dmitri": 3}))
    game.apply(finish(Anna="jinteki", Boris="globalsec", Vera="federalist", Dmitri="nbn"))
    assert row(game, "Anna")["result"] == "won"  # beats Vera and Dmitri; 5 = 5 with Boris does not count


def test_d16_more_capital_than_the_rival_is_strict():
    game = ended_by_rounds(make_game(capital={"Anna": 5, "Boris": 5, "Vera": 4, "Dmitri": 3}))
    game.apply(finish(Anna="nbn", Boris="jinteki", Vera="federalist", Dmitri="globalsec"))
    assert (row(game, "Anna")["result"], row(game, "Boris")["result"]) == ("lost", "lost")


def test_d17_the_federalist_wins_by_a_takeover_even_in_d3s_pay_demand_with_at_least_25():
    game = reach(make_game(threat=19, capital={"Anna": 0, "Boris": 0, "Vera": 20, "Dmitri": 0}), "D3")
    game.apply(demand_round(0, 0, 5, 0, next_demand=None))  # Vera scores her third investment, then 19 + 6
    assert game.ended_by == "threat"
    game.apply(finish(Anna="nbn", Boris="jinteki", Vera="federalist", Dmitri="globalsec"))
    assert table_standing(game)["winners"] == ["Vera"]


def test_d18_at_least_one_player_loses():
    game = ended_by_rounds(make_game(capital=9))
    game.apply(finish(Anna="jinteki", Boris="nbn", Vera="globalsec", Dmitri="haas-bioroid"))
    assert table_standing(game)["losers"] == ["Anna", "Boris", "Vera", "Dmitri"]  # nobody beats anybody


def test_d19_threat_25_ends_the_game_at_once_then_only_finish():
    game = make_game(assets=1, threat=22)
    unopposed(game)
    game.apply(end_round({"tech": 2}, event_threat=3, next_assets=None))
    assert (game.label, game.assets_left, game.supply["tech"]) == ("S1", 0, 2)
    assert [m["type"] for m in game.legal_moves()] == ["finish"]
    refused(game, supply(tech=1), "D19", "after_end")


def test_d20_demand_card_from_setup_then_next_demand_supply_resets_only_in_d1_and_d2():
    game = reach(make_game(demand={"code": "DX", "threat": 1, "targets": {"tech": 1}}), "D1")
    assert game.demand.code == "DX"
    game.apply(supply(tech=2))
    game.apply(demand_round(next_demand="DM2"))
    assert (game.demand.code, game.supply["tech"]) == ("DM2", 0)


def test_d21_the_token_passes_left_after_every_deal_across_rounds_not_in_demand_rounds():
    game = make_game(assets=1, first="Dmitri")
    unopposed(game)
    assert game.first_player == "Anna"  # left of Dmitri, around the table
    game.apply(end_round(next_assets=1))
    unopposed(game)
    game.apply(end_round(next_assets=1))
    meet_demand(game)
    game.apply(demand_round())
    assert game.first_player == "Boris"


def test_d22_hidden_until_finish_and_sealed_rivals_must_agree():
    game = ended_by_threat(make_game(rivals={"Vera": "federalist"}))
    assert all(p["rival"] is None and p["result"] is None for p in table_standing(game)["players"])
    assert table_standing(game)["winners"] == [] and table_standing(game)["losers"] == []
    refused(game, finish(Anna="nbn", Boris="jinteki", Vera="globalsec", Dmitri="federalist"), "D22",
            "rival_contradicts_setup")


@pytest.mark.parametrize("rivals", [
    {"Anna": "federalist", "Boris": "jinteki", "Dmitri": "nbn"},  # Anna's card is Vera's sealed one
    {"Anna": "nbn", "Boris": "jinteki", "Dmitri": "federalist"},  # Dmitri's, found at Vera's seat
])
def test_d22_a_refused_finish_never_says_whose_card_a_sealed_one_is(rivals):
    game = ended_by_threat(make_game(rivals={"Vera": "federalist"}))
    with pytest.raises(IllegalMoveError) as err:
        game.apply(finish(**rivals))
    assert err.value.code == "rival_repeated"
    named = next(n for n, r in rivals.items() if r == "federalist")
    assert err.value.message == f"rival repeated: {named}'s rival federalist is sealed at setup for another player"
    assert "Vera" not in err.value.message and "Vera" not in err.value.params.values()


def test_d22_a_finish_contradicting_a_sealed_card_does_not_show_it():
    game = ended_by_threat(make_game(rivals={"Vera": "federalist"}))
    with pytest.raises(IllegalMoveError) as err:
        game.apply(finish(Anna="nbn", Boris="jinteki", Vera="globalsec", Dmitri="haas-bioroid"))
    assert err.value.message == "rival contradicting setup: Vera's rival globalsec in finish is not the card sealed at setup"
    assert "federalist" not in err.value.message and "federalist" not in err.value.params.values()


def test_d23_board_effects_are_entered_only_the_demand_threat_is_derived():
    game = reach(make_game(), "D1")
    result = game.apply(demand_round(next_demand="DM2"))  # nothing produced: every resource short
    assert result.threat["reason"] == "demand" and result.threat["added"] == 6
    assert [h.threat["reason"] for h in game.history if h.threat] == ["demand"]


def test_d24_threat_added_is_the_cards_value_even_when_threat_stops_at_its_maximum():
    game = reach(make_game(threat=24), "D1")
    game.apply(demand_round(next_demand=None))
    assert (game.threat, table_standing(game)["demand_history"][0]["threat_added"]) == (25, 6)


def test_d25_a_takeover_by_the_event_still_adds_the_production():
    game = make_game(assets=1, threat=24)
    unopposed(game)
    game.apply(end_round({"energy": 3}, event_threat=1, next_assets=None))
    assert (game.supply["energy"], game.ended_by, game.label) == (3, "threat", "S1")


def test_d26_support_on_an_unopposed_main_offer_is_shown_tie_false():
    game = make_game()
    game.apply(deal("Anna", support=[("Boris", "main", 1), ("Dmitri", "main", 2)]))
    entry = table_standing(game)["deals"][0]
    assert (entry["main"]["support"], entry["counter"], entry["tie"]) == (3, None, False)


def test_d27_extra_is_any_integer_non_zero_only_with_a_reason_counter_extra_needs_a_counteroffer():
    game = make_game()
    refused(game, deal("Anna", extra={"main": -1}), "D27", "extra_reason_missing")
    refused(game, deal("Anna", extra={"counter": 1}, extra_reason="x"), "D27", "extra_counter_missing")
    game.apply(deal("Anna", extra={"main": 0, "counter": 0}))  # zeros need no reason
    game.apply(deal("Boris", asset="A02", counters=["Vera"], extra={"counter": -2}, extra_reason="card"))
    assert table_standing(game)["deals"][1]["counter"]["support"] == -2


def test_d28_investment_cards_are_distinct_within_a_round_not_across_the_game():
    game = reach(make_game(), "D1")
    meet_demand(game)
    game.apply(demand_round())  # I01..I04
    game = reach(game, "D2")
    meet_demand(game)
    game.apply(demand_round())  # I01..I04 again: accepted
    assert [i["card"] for i in row(game, "Anna")["investments"]] == ["I01", "I01"]


def test_d29_an_asset_removed_by_adjust_may_be_revealed_again():
    game = make_game()
    game.apply(deal("Anna", asset="A05"))
    refused(game, deal("Boris", asset="A05"), "D29", "asset_held")
    game.apply(adjust("an event discards it", remove_assets={"Anna": ["A05"]}))
    game.apply(deal("Boris", asset="A05"))
    assert game.holder == {"A05": "Boris"}


def test_d30_finish_names_every_rival_but_the_sealed_ones_which_may_be_repeated():
    game = ended_by_threat(make_game(rivals={"Anna": "nbn", "Boris": "jinteki"}))
    refused(game, finish(Anna="nbn", Vera="federalist"), "D30", "rival_missing")
    game.apply(finish(Anna="nbn", Vera="federalist", Dmitri="globalsec"))
    assert [p["rival"] for p in table_standing(game)["players"]] == ["nbn", "jinteki", "federalist", "globalsec"]


def test_d31_supply_deltas_may_hold_zeros_but_one_must_be_non_zero():
    game = make_game()
    refused(game, supply(tech=0, energy=0), "D31", "supply_nothing")
    game.apply(supply(tech=0, energy=2))
    assert (game.supply["energy"], game.supply["tech"]) == (2, 0)


def test_d32_winner_is_main_or_counter_and_tie_reflects_the_count_under_an_override():
    with pytest.raises(MalformedError):
        deal("Anna", winner="Boris")
    game = make_game()
    refused(game, deal("Anna", winner="counter", override_reason="x"), "D32", "winner_counter_missing")
    game.apply(deal("Anna", counters=["Boris"], winner="counter", override_reason="asset"))
    assert table_standing(game)["deals"][0]["tie"] is True


def test_d33_assets_are_listed_in_the_order_acquired():
    game = make_game(assets=3)
    game.apply(deal("Anna", asset="A09", counters=["Vera"], support=[("Boris", "counter", 1)]))
    game.apply(deal("Boris", asset="A01", counters=["Vera"], support=[("Dmitri", "counter", 1)]))
    game.apply(deal("Vera", asset="A05"))
    assert row(game, "Vera")["assets"] == ["A09", "A01", "A05"]


def test_d34_corporations_are_the_six_keys_and_adjust_names_only_those_in_play():
    data = default_pack_data()
    data["corporations"][0]["key"] = "umbrella"
    with pytest.raises(Exception, match="unknown corporation 'umbrella'"):
        read_pack(data)
    refused(make_game(), adjust(emergency={"melange": "facedown"}), "D34", "corporation_not_in_play")


def test_d35_missing_rules_keys_take_the_sample_packs_values():
    data = default_pack_data()
    del data["rules"]["threat_max"], data["rules"]["support_tie"]
    pack = read_pack(data)
    assert (pack.threat_max, pack.support_tie) == (25, "main")
    data.pop("rules")
    assert read_pack(data).to_dict()["rules"] == default_pack_data()["rules"]


def test_d36_assets_left_after_s6_is_0_and_a_round_without_a_deal_cannot_end():
    game = make_game()
    game.apply(adjust("the host miscounted", assets_left=-3))
    assert game.next() == {"expects": "end_round"}
    refused(game, end_round(), "D36", "no_deal_made")
    game.apply(adjust("corrected", assets_left=1))
    unopposed(game)
    game.apply(end_round())
    game = reach(game, "S6")
    finish_round(game)
    assert (game.label, game.assets_left) == ("D3", 0)


def test_d37_an_adjust_with_only_a_reason_changes_nothing_an_empty_reason_is_missing():
    game = make_game()
    before = table_standing(game)
    result = game.apply(adjust("the host notes a ruling"))
    assert table_standing(game) == before and result.events == [("adjust", {"reason": "the host notes a ruling"})]
    with pytest.raises(MalformedError, match="move.reason"):
        read_move({"type": "adjust", "reason": ""})


def test_d38_error_lines_name_the_move_or_the_setup():
    data = load("example_takeover.json")
    data["moves"][3]["amount"] = -20
    with pytest.raises(ReplayError) as err:
        replay(read_record(data))
    assert f"t2.json: {err.value}" == "t2.json: move 4 (threat): threat below 0: 12 -20 = -8"
    data = load("example_takeover.json")
    data["setup"]["threat"] = 25
    with pytest.raises(SetupError) as err:
        replay(read_record(data))
    assert f"t2.json: {err.value}" == "t2.json: setup: threat 25 must be 0 to 24"


def test_d39_several_records_need_unique_table_names_and_keep_their_order():
    one, two = make_game(), make_game()
    two.table = "Table 1"
    assert [t["table"] for t in standings([one, two])["tables"]] == ["Table 2", "Table 1"]
    two.table = "Table 2"
    with pytest.raises(MalformedError, match="Table 2"):
        standings([one, two])


def test_d40_threat_limit_and_federalist_capital_come_from_the_pack():
    pack = make_pack(threat_max=15, federalist_capital=12)
    game = make_game(pack, capital={"Anna": 12, "Boris": 3, "Vera": 3, "Dmitri": 3})
    game.apply(threat(3))
    assert (game.threat, game.ended_by) == (15, "threat")
    game.apply(finish(Anna="federalist", Boris="jinteki", Vera="nbn", Dmitri="globalsec"))
    assert table_standing(game)["winners"] == ["Anna"]
    assert table_standing(game)["threat_max"] == 15


def test_every_decision_has_its_test():
    names = [n for n in dir(sys.modules[__name__]) if n.startswith("test_d")]
    numbers = sorted({int(m.group(1)) for n in names if (m := re.match(r"test_d(\d\d)_", n))})
    assert numbers == list(range(1, 41))


# ----- where even the decisions are silent ----------------------------------------------------
def test_deal_checks_run_in_the_order_of_section_4_so_a_counteroffer_fault_comes_before_a_support_fault():
    game = make_game()
    refused(game, deal("Anna", counters=["Vera", "Boris"], support=[("Anna", "main", 1)]), "§4", "counter_order")


def test_unknown_names_are_refused_before_anything_else():
    refused(make_game(), deal("Boris", counters=["Olga"]), "§2", "unknown_player")


def test_an_adjust_may_set_an_emergency_card_to_the_state_it_has():
    game = make_game()
    result = game.apply(adjust("confirmed", emergency={"nbn": "faceup"}))
    assert result.emergency == {} and row(game, "Boris")["emergency"] == "faceup"


def test_a_winner_equal_to_the_count_may_carry_a_reason():
    game = make_game()
    game.apply(deal("Anna", counters=["Boris"], support=[("Vera", "counter", 1)], winner="counter",
                    override_reason="the host confirms"))
    assert table_standing(game)["deals"][0]["override_reason"] == "the host confirms"


def test_a_setup_is_read_as_a_dict_too():
    game = Game(make_pack(), setup_data())
    assert game.names == ["Anna", "Boris", "Vera", "Dmitri"]
    assert read_setup(setup_data()) == game.setup


def test_dm2_is_the_sample_packs_demand_card():
    assert make_game().demand.full_targets(make_pack().resource_keys) == DM2
