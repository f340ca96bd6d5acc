"""RULES.md 3.3 Play deferred: after the main move, by the player whose turn it is, a card
deferred in an earlier round d, in rounds d+1..d+3; it is discarded when the holder's turn in
round d+3 ends, survives the change of era, and a player holds at most one.

L-R (and U-R, A-R) need intellect 5 and give health 2, 2 free SP and 500 XP; every player
starts with intellect 2, so Аня defers it and later gets intellect 5 with a host adjust.
"""

import pytest

from facilitator.rules.lyceum import era_of_round

from .helpers import (ERA_PREFIX, allocate_all, card_data, draw, make_game, make_pack, pass_,
                      play_deferred, reach, refused, row, set_skills)


@pytest.fixture
def game():
    return make_game()


def defer_in(game, round_no, code=None):
    """Аня defers the red card of the round's era in her turn of ``round_no``."""
    reach(game, round_no, "Аня")
    code = code or ERA_PREFIX[era_of_round(round_no).key] + "-R"
    game.apply(draw("Аня", code, "defer"))
    return code


def test_a_deferred_card_is_played_when_eligible_and_is_no_longer_held(game):
    defer_in(game, 1)
    reach(game, 2, "Аня")
    game.apply(pass_("Аня"))
    set_skills(game, "Аня", intellect=5)
    result = game.apply(play_deferred("Аня"))
    anya = game.players["Аня"]
    assert result.card.code == "L-R"
    assert (anya.xp, anya.skills["health"], anya.pending) == (500, 9, 2 + 2)  # free 2, and level 2
    assert anya.deferred is None and row(game, "Аня")["deferred"] is None


@pytest.mark.parametrize("later", [1, 2, 3])
def test_playable_in_rounds_d_plus_1_to_d_plus_3(game, later):
    defer_in(game, 2)
    reach(game, 2 + later, "Аня")
    game.apply(pass_("Аня"))
    set_skills(game, "Аня", intellect=5)
    game.apply(play_deferred("Аня"))
    assert game.players["Аня"].xp == 500


def test_not_in_the_round_it_was_deferred_in(game):
    defer_in(game, 2)
    err = refused(game, play_deferred("Аня"), "3.3", "deferred_same_round")
    assert err.params == {"card": "L-R", "round": 2, "first": 3}


def test_only_after_the_main_move(game):
    defer_in(game, 1)
    reach(game, 2, "Аня")
    set_skills(game, "Аня", intellect=5)
    err = refused(game, play_deferred("Аня"), "3.3", "deferred_after_main")
    assert err.params["player"] == "Вика"  # Вика's round-1 turn lasts until Аня's main move


def test_only_by_the_player_whose_turn_it_is(game):
    defer_in(game, 1)
    reach(game, 2, "Борис")
    game.apply(pass_("Борис"))  # Борис's main move ends Аня's round-2 turn
    set_skills(game, "Аня", intellect=5)
    err = refused(game, play_deferred("Аня"), "3.3", "deferred_after_main")
    assert err.params["player"] == "Борис"


def test_the_turn_lasts_until_the_next_main_move(game):
    # RULES.md 3.8: Аня's turn ends only when Борис makes his main move
    defer_in(game, 1)
    reach(game, 2, "Борис")
    set_skills(game, "Аня", intellect=5)
    game.apply(play_deferred("Аня"))
    assert game.players["Аня"].xp == 500


def test_only_a_held_card(game):
    game.apply(pass_("Аня"))
    err = refused(game, play_deferred("Аня"), "3.3", "no_deferred")
    assert err.params == {"player": "Аня"}


def test_only_when_eligible_now(game):
    defer_in(game, 1)
    reach(game, 2, "Аня")
    game.apply(pass_("Аня"))
    err = refused(game, play_deferred("Аня"), "3.1", "not_eligible")
    assert "intellect 2 < 5" in err.message


def test_held_through_the_holders_turn_in_round_d_plus_3(game):
    defer_in(game, 1)
    reach(game, 4, "Аня")
    game.apply(pass_("Аня"))
    assert row(game, "Аня")["deferred"] == {"card": "L-R", "round": 1, "expires_after_round": 4}


def test_discarded_when_the_holders_turn_in_round_d_plus_3_ends(game):
    defer_in(game, 1)
    reach(game, 4, "Аня")
    game.apply(pass_("Аня"))
    result = game.apply(pass_("Борис"))  # ends Аня's turn
    assert [(name, card.code) for name, card in result.expired] == [("Аня", "L-R")]
    assert row(game, "Аня")["deferred"] is None
    reach(game, 5, "Аня")
    game.apply(pass_("Аня"))
    set_skills(game, "Аня", intellect=5)
    refused(game, play_deferred("Аня"), "3.3", "no_deferred")


def test_other_players_turns_do_not_discard_it_early(game):
    defer_in(game, 1)
    reach(game, 4, "Аня")  # the turns of Борис and Вика in rounds 1-3 have all ended
    assert row(game, "Аня")["deferred"]["round"] == 1


def test_survives_the_change_of_era(game):
    defer_in(game, 3)  # a lyceum card
    reach(game, 6, "Аня")  # university
    game.apply(pass_("Аня"))
    set_skills(game, "Аня", intellect=5)
    result = game.apply(play_deferred("Аня"))
    assert (result.card.era, result.era) == ("lyceum", "university")


def test_at_most_one_deferred_card(game):
    defer_in(game, 1)
    reach(game, 2, "Аня")
    err = refused(game, draw("Аня", "L-R", "defer"), "3.2", "already_deferred")
    assert err.params["round"] == 1


def test_still_held_during_the_turn_it_expires_so_no_second_deferral_then(game):
    # RULES.md 3.3: it is discarded when that turn *ends*; until then the player holds it (3.2)
    defer_in(game, 1)
    reach(game, 4, "Аня")
    refused(game, draw("Аня", "U-R", "defer"), "3.2", "already_deferred")


def test_a_new_card_may_be_deferred_once_the_held_one_is_played_or_gone(game):
    defer_in(game, 1)
    reach(game, 2, "Аня")
    game.apply(pass_("Аня"))
    set_skills(game, "Аня", intellect=5)
    game.apply(play_deferred("Аня"))
    allocate_all(game)
    set_skills(game, "Аня", intellect=2)
    reach(game, 3, "Аня")
    game.apply(draw("Аня", "L-R", "defer"))
    assert row(game, "Аня")["deferred"]["round"] == 3


def test_a_deferred_card_with_a_redistribution_carries_it():
    cards = [card_data("L-RX", "lyceum", "red", conditions={"intellect": 5}, gains={"creativity": 1},
                       special={"text": "переставь 2 SP", "redistribute": 2})]
    game = make_game(make_pack(cards=cards))
    defer_in(game, 1, "L-RX")
    reach(game, 2, "Аня")
    game.apply(pass_("Аня"))
    set_skills(game, "Аня", intellect=5)
    refused(game, play_deferred("Аня", {"health": -3, "energy": 3}), "3.4", "redistribute_limit")
    game.apply(play_deferred("Аня", {"health": -2, "energy": 2}))
    assert game.players["Аня"].skills["energy"] == 4


@pytest.mark.parametrize("deferred_in, last", [(1, 4), (6, 9), (7, 10), (8, 10), (9, 10)])
def test_the_last_round_it_can_be_played_in_is_d_plus_3_but_never_past_round_10(game, deferred_in, last):
    """The engine owns this number: the tablet and the protocol show it, never ``d + 3`` past
    the game's end ("until round 12" for a card deferred in round 9)."""
    code = defer_in(game, deferred_in)
    held = game.players["Аня"].deferred
    assert (held.card.code, held.last_round) == (code, last)
    assert game.history[-1].deferred_until == last
    # the standings keep RECORD.md's d + 3, byte for byte
    assert row(game, "Аня")["deferred"]["expires_after_round"] == deferred_in + 3
