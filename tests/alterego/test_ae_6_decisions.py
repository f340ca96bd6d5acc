"""RULES.md 6: the decisions on what the rules leave open. Decisions tested here have their own
test below; the others are tested where their rule is, and ``WHERE`` names that test (a
test checks the names still exist, so the map cannot rot)."""

import importlib

import pytest

from facilitator.rules.alterego import MOVE_TYPES, Game, read_pack, read_setup

from .helpers import (T, act, adjust, end, event, finish, give, ids, pack_data, react, refused,
                      row, season, set_t, setup_data, to_play, two)

#: decision -> "module::test" where it is tested (decisions tested in this module are absent)
WHERE = {
    1: "test_ae_2_setup::test_2_or_3_players_with_the_9_actives_of_the_3rd_edition",
    2: "test_ae_2_setup::test_turns_go_clockwise_from_the_first_player",
    3: "test_ae_3_2_play::test_p6_energiapuuska_lifts_it_for_its_target_for_the_rest_of_the_turn",
    6: "test_ae_1_pieces::test_paused_activities_take_no_free_time_and_count_for_nothing",
    7: "test_ae_3_5_end_of_turn::test_the_check_goes_through_the_current_players_faction_in_order_only",
    8: "test_ae_1_pieces::test_tommi_loses_his_unused_free_time_in_the_check",
    9: "test_ae_3_5_end_of_turn::test_the_anxiety_check",
    10: "test_ae_1_pieces::test_imaamis_first_gain_in_every_turn_is_one_smaller",
    11: "test_ae_3_2_play::test_p7_plays_by_anyone_count",
    12: "test_ae_3_4_reactions::test_draw_end_turn_and_adjust_close_the_window",
    14: "test_ae_3_4_reactions::test_ei_rahaa_answers_a_bile_only",
    15: "test_ae_3_4_reactions::test_ei_kiinnostusta_cancels_only_what_it_lists",
    16: "test_ae_3_4_reactions::test_mun_kaverit_redirects_a_breakup_choice",
    17: "test_ae_3_2_play::test_seurustelu_between_actives_of_one_owner_moves_nobody",
    18: "test_ae_3_3_breakup::test_the_breakup_choice_moves_the_chosen_one_to_the_faction_named",
    19: "test_ae_1_2_cards::test_tarkea_nakki_the_hobby_goes_and_the_chore_takes_its_slot_ignoring_p3_to_p8",
    20: "test_ae_1_2_cards::test_loppu_discards_an_activity_paused_or_not",
    21: "test_ae_4_seasons::test_2d_paused_activities_return_in_the_order_paused_if_there_is_free_time",
    24: "test_ae_1_2_cards::test_event_effects",
    25: "test_ae_pack::test_every_card_of_rules_1_2",
    26: "test_ae_1_pieces::test_permanent_anxiety",
    27: "test_ae_4_seasons::test_2a_a_lopputyo_held_in_force_through_a_season_is_discarded_and_relieves_3",
    28: "test_ae_1_pieces::test_tyo_maalla_puts_the_holders_other_activities_out_of_force",
    29: "test_ae_3_2_play::test_nakkikone_counts_any_player_playing_onto_its_holder_but_not_itself",
    31: "test_ae_3_2_play::test_play_activity_breaking_a_p_rule_is_refused_with_its_numbers",
    32: "test_ae_1_pieces::test_pare_tells_a_bad_joke_and_3_distinct_actives_gain_1_each",
    34: "test_ae_5_scoring::test_equal_influence_shares_the_place",
    35: "test_ae_4_seasons::test_the_4th_season_card_ends_the_game_with_step_2a_only",
    36: "test_ae_3_6_choices::test_react_adjust_and_finish_are_accepted_while_a_choice_is_pending",
    37: "test_ae_3_3_breakup::test_the_breakup_moves_to_another_faction_only_and_not_an_away_active",
    38: "test_ae_3_4_reactions::test_a_cancelled_gain_does_not_spend_imaamis_reduction",
    39: "test_ae_4_seasons::test_season_3_every_active_loses_1_and_an_athletic_hobby_in_force_spares_its_holder",
    41: "test_ae_3_4_reactions::test_ei_rahaa_names_each_actor_once_and_only_party_goers",
    42: "test_ae_3_6_choices::test_options_are_computed_when_answered",
    43: "test_ae_1_2_cards::test_an_event_without_effect_is_playable_with_no_fields_and_changes_nothing",
    44: "test_ae_7_moves::test_other_unknown_keys_of_a_record_are_ignored",
    47: "test_ae_4_seasons::test_the_season_card_only_as_the_draw_or_right_after_a_jaakko_or_kalle_ability",
    48: "test_ae_pack::test_a_pack_breaking_record_md_1_is_refused",
    49: "test_ae_5_scoring::test_several_tables_keep_their_order_and_names_are_unique",
}
HERE = {4, 5, 13, 22, 23, 30, 33, 40, 45, 46}


def test_every_decision_is_tested_somewhere():
    assert set(WHERE) | HERE == set(range(1, 50))
    for n, where in WHERE.items():
        module, name = where.split("::")
        assert callable(getattr(importlib.import_module(f"{__package__}.{module}"), name, None)), (n, where)
    for n in HERE:
        assert any(name.startswith(f"test_decision_{n}_") for name in globals()), n


def test_decision_4_losses_touch_only_t_and_a_includes_p():
    game = two()
    give(game, "meira", "vastuutyo")
    set_t(game, "meira", 1)
    to_play(game)
    game.apply(event("Aino", "uusi_tyyli", target="meira"))
    r = row(game, "meira")
    assert (r["anxiety_temp"], r["anxiety_perm"], r["anxiety"]) == (0, 2, 2)


def test_decision_5_burned_out_actives_keep_passive_abilities_and_activities_take_free_time():
    game = two()
    give(game, "meira", "vastuutyo")
    give(game, "meira", "hype_kampanja")
    set_t(game, "meira", 2)
    r = row(game, "meira")
    assert r["burned_out"] and (r["influence_base"], r["influence"], r["free_time_unused"]) == (3 + 2, 2, 2)
    assert [a["in_force"] for a in r["activities"]] == [True, True]


def test_decision_13_taktinen_teko_cancels_gains_only_the_organizer_keeps_a_net_loss():
    game = two()
    set_t(game, "pare", 2)
    to_play(game)
    game.apply(event("Aino", "bile", target="pare", participants=["niksu", "tommi", "imaami"]))
    assert T(game, "pare") == 1
    refused(game, react("Bertta", "taktinen_teko", len(game.moves), target="pare"), "§3.4", "taktinen_teko_no_gain")


def test_decision_22_away_actives_return_before_the_start_effects():
    game = to_play(two())
    game.apply(event("Aino", "maallepako", target="meira"))
    game.apply(end("Aino"))
    set_t(game, "meira", 3)  # set while away, by the host
    game.apply(season("Bertta"))  # season 2: returns with T 0
    game.apply(end("Bertta"))
    assert (row(game, "meira")["away"], T(game, "meira")) == (False, 0)


def test_decision_23_anyone_not_away_may_attend_a_bile_burned_out_or_not():
    game = two()
    give(game, "tommi", "vastuutyo")
    set_t(game, "tommi", 4)  # A 6 ≥ BO 6
    to_play(game)
    assert row(game, "tommi")["burned_out"]
    game.apply(event("Aino", "bile", target="pare", participants=["tommi"]))
    assert T(game, "tommi") == 3


def test_decision_30_one_hobby_goes_without_asking_end_steps_come_first():
    """A Stressinpoistokampanja goes at the end of the season (2b), so the start effect finds
    Ville's one hobby left and discards it without asking."""
    game = two()
    give(game, "ville", "stressinpoistokampanja")
    give(game, "ville", "pelikampanja")
    result = game.apply(season("Aino"))
    assert result.queued == [] and ids(game, "ville") == []
    assert [(e["id"], e["step"]) for e in result.season_change if e["code"] == "discarded"] == [
        ("a1", "2b"), ("a2", "3")]


def test_decision_33_there_is_no_voluntary_discard():
    assert not any("discard" in t for t in MOVE_TYPES)


def test_decision_40_ei_kiinnostusta_discarding_a_seurustelu_is_a_breakup():
    data = pack_data()
    ek = next(c for c in data["cards"] if c["key"] == "ei_kiinnostusta")
    ek["params"]["cancels"] = ["pelikampanja", "seurustelu"]
    game = to_play(Game(read_pack(data), read_setup(setup_data())))
    game.apply(act("Aino", "seurustelu", "niksu", partner="tommi"))
    result = game.apply(react("Bertta", "ei_kiinnostusta", len(game.moves)))
    assert [d["card"] for d in result.discarded] == ["seurustelu"]
    assert result.queued == [{"choice": "breakup", "player": "Bertta", "partners": ["niksu", "tommi"]}]
    assert (T(game, "niksu"), T(game, "tommi")) == (2, 2)


@pytest.mark.parametrize("reason", ["", "   ", "aika loppui"])
def test_decision_45_a_finish_reason_may_be_any_text_even_empty(reason):
    game = two()
    game.apply(finish(reason))
    assert game.ended_by == "host"


def test_decision_46_adjust_details():
    game = two()
    result = game.apply(adjust({"active": "pare", "owner": "Aino"}))  # to its own owner: nothing
    assert result.actives == {} and game.faction("Aino") == ["pare", "ville", "meira"]
    a = give(game, "tommi", "tyo")
    game.apply(adjust({"activity": a, "paused": True}))
    result = game.apply(adjust({"activity": a, "paused": True}))  # pausing a paused one: nothing
    assert result.paused == [] and result.events == []
    # a Seurustelu by adjust needs only a partner in the game: burned out, away, no free time all do
    for card in ("tyo", "htt_tyo", "vastuutyo", "nakkikone"):
        give(game, "pare", card)
    set_t(game, "pare", 9)
    game.apply(adjust({"active": "pare", "away": True}))
    s = give(game, "meira", "seurustelu", partner="pare")
    assert game.faction("Aino") == ["pare", "ville", "meira"] and s in ids(game, "meira")  # and nobody moves
    refused(game, adjust({"active": "ville", "add": "seurustelu", "partner": "kalle"}), "§6.46",
            "adjust_not_in_game", active="kalle")
    refused(game, adjust({"active": "ville", "add": "seurustelu", "partner": "ville"}), "§6.46",
            "adjust_partner_self")


# ----- decisions beyond RULES.md 6 (facilitator.rules.alterego's docstring) --------------------------
def test_beyond_a_choice_left_without_options_waits_for_the_host():
    game = two()
    give(game, "ville", "pelikampanja")
    give(game, "ville", "hype_kampanja")
    game.apply(season("Aino"))
    game.apply(adjust({"remove": "a1"}, {"remove": "a2"}))
    assert game.pending == [{"choice": "discard_hobby", "player": "Aino", "active": "ville", "options": []}]
    assert [m["type"] for m in game.legal_moves()] == ["choose", "adjust", "finish"]
    refused(game, end("Aino"), "§3.6", "choice_pending")
    hobby = give(game, "ville", "jarjestoaktiivi")
    from .helpers import choose
    game.apply(choose("Aino", "discard_hobby", "ville", activity=hobby))
    assert game.pending == []


def test_beyond_a_lopputyo_completed_by_an_away_holder_at_the_end_relieves_nothing():
    game = two()
    for _ in range(2):
        if game.step == "play":
            game.apply(end(game.current))
        game.apply(season(game.current))
    give(game, "pare", "lopputyo")
    game.apply(end(game.current))
    game.apply(season(game.current))  # season 4; the Lopputyö was placed in season 3
    game.apply(adjust({"active": "pare", "away": True}, {"active": "pare", "anxiety": 4}))
    game.apply(end(game.current))
    result = game.apply(season(game.current))
    assert game.finished and ids(game, "pare") == [] and T(game, "pare") == 4
    assert {"code": "unaffected_away", "active": "pare", "change": "loss", "amount": 3, "cause": "lopputyo",
            "step": "2a"} in result.events


def test_beyond_each_nakkikone_is_a_gain_of_its_own():
    game = two()
    give(game, "imaami", "nakkikone")
    give(game, "imaami", "nakkikone")
    to_play(game)
    result = game.apply(act("Aino", "tyo", "imaami"))
    gains = [(e["amount"], e["applied"]) for e in result.events if e["code"] == "gain"]
    assert gains == [(1, 0), (1, 1)] and T(game, "imaami") == 1


def test_beyond_the_season_discard_counts_a_hobby_out_of_force():
    game = two()
    give(game, "meira", "pelikampanja")
    give(game, "meira", "tyo_maalla")
    game.apply(season("Aino"))
    assert [a["card"] for a in row(game, "meira")["activities"]] == ["tyo_maalla"]


def test_beyond_finish_may_come_without_a_reason():
    from facilitator.rules.alterego import read_move
    game = two()
    move = read_move({"type": "finish"})
    game.apply(move)
    assert game.ended_by == "host" and move.to_dict() == {"type": "finish"}
