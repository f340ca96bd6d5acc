"""RULES.md 4. End of the game: finish after the last turn of round 10 and its allocations;
deferred cards discarded; the future-image bonus (35 -> 300, 40 -> 400, 45 -> 500) when every
skill reaches its target, giving no level-up SP; final XP = XP + bonus; equal final XP share the
place (1, 1, 3); before finish the standings are provisional."""

import pytest

from facilitator.rules.lyceum import standings

from .helpers import (FINISH, allocate_all, default_players, draw, give, make_game, pass_,
                      play_deferred, player, reach, reach_finish, refused, rest, row, set_skills)

IMAGE_35 = {"health": 7, "intellect": 7, "creativity": 7, "communication": 7, "energy": 7}
IMAGE_40 = {"health": 8, "intellect": 8, "creativity": 8, "communication": 8, "energy": 8}
IMAGE_45 = {"health": 9, "intellect": 9, "creativity": 9, "communication": 9, "energy": 9}


def game_with(declaration=None):
    players = [player("Аня", "C1", declaration=declaration)] + default_players(3)[1:]
    return make_game(players=players)


# ----- when the game may be finished -----------------------------------------------------
@pytest.mark.parametrize("round_no, name", [(1, "Аня"), (5, "Борис"), (10, "Аня"), (10, "Вика")])
def test_finish_only_after_the_last_turn_of_round_10(round_no, name):
    game = game_with()
    reach(game, round_no, name)
    err = refused(game, FINISH, "4", "finish_early")
    assert err.params == {"rounds": 10, "player": name, "round": round_no}
    assert f"round {round_no}" in err.message and name in err.message


def test_finish_waits_for_the_allocations_of_the_last_turn():
    game = game_with()
    reach(game, 10, "Вика")
    game.apply(rest("Вика"))
    refused(game, FINISH, "3.6", "pending_sp")
    allocate_all(game)
    game.apply(FINISH)
    assert game.finished and row(game, "Вика")["skills"]["energy"] == 3


def test_no_main_move_after_the_last_turn_of_round_10():
    game = reach_finish(game_with())
    err = refused(game, pass_("Аня"), "4", "round10_over")
    assert err.params == {"rounds": 10}


def test_the_last_player_may_still_play_deferred_before_finish():
    game = game_with()
    reach(game, 9, "Вика")
    game.apply(draw("Вика", "A-R", "defer"))
    reach_finish(game)
    set_skills(game, "Вика", intellect=5)
    game.apply(play_deferred("Вика"))
    assert game.players["Вика"].xp == 500


def test_deferred_cards_still_held_are_discarded_at_finish():
    game = game_with()
    reach(game, 9, "Борис")
    game.apply(draw("Борис", "A-R", "defer"))
    reach(game, 10, "Аня")
    game.apply(draw("Аня", "A-R", "defer"))
    reach_finish(game)
    result = game.apply(FINISH)
    assert sorted((n, c.code) for n, c in result.expired) == [("Аня", "A-R"), ("Борис", "A-R")]
    assert row(game, "Аня")["deferred"] is None and row(game, "Борис")["deferred"] is None


# ----- the future-image bonus -------------------------------------------------------------
BONUS = [
    # declaration, skills at the end,                    bonus
    (IMAGE_35, IMAGE_35,                                 300),
    (IMAGE_40, IMAGE_40,                                 400),
    (IMAGE_45, IMAGE_45,                                 500),
    (IMAGE_35, dict(IMAGE_45),                           300),   # above every target
    (IMAGE_40, dict(IMAGE_40, creativity=7),             0),     # one skill short
    (IMAGE_45, dict(IMAGE_35),                           0),
    ({"health": 20, "intellect": 20}, {"health": 20, "intellect": 20}, 400),  # unnamed targets are 0
    (None, IMAGE_45,                                     0),     # nothing declared
]


@pytest.mark.parametrize("declaration, final_skills, bonus", BONUS)
def test_the_bonus_needs_every_skill_at_its_target(declaration, final_skills, bonus):
    game = game_with(declaration)
    reach_finish(game)
    give(game, "Аня", xp=800)
    allocate_all(game, "communication")
    set_skills(game, "Аня", **final_skills)
    provisional = row(game, "Аня")
    assert (provisional["bonus"], provisional["final_xp"]) == (bonus, 800 + bonus)  # shown before finish
    assert provisional["declaration_met"] is (bonus > 0)
    game.apply(FINISH)
    final = row(game, "Аня")
    assert (final["xp"], final["bonus"], final["final_xp"]) == (800, bonus, 800 + bonus)


def test_the_bonus_gives_no_level_up_sp():
    game = game_with(IMAGE_35)
    reach_finish(game)
    give(game, "Аня", xp=800)  # level 3; 800 + 300 would be level 4
    allocate_all(game)
    set_skills(game, "Аня", **IMAGE_35)
    game.apply(FINISH)
    anya = row(game, "Аня")
    assert (anya["final_xp"], anya["level"], anya["pending_sp"]) == (1100, 3, 0)


def test_the_provisional_bonus_follows_the_skills_during_the_game():
    game = game_with(IMAGE_35)
    assert row(game, "Аня")["bonus"] == 0
    set_skills(game, "Аня", **IMAGE_35)
    assert row(game, "Аня")["bonus"] == 300
    set_skills(game, "Аня", energy=6)
    assert row(game, "Аня")["bonus"] == 0


# ----- places ----------------------------------------------------------------------------
def test_equal_final_xp_share_the_place():
    game = game_with(IMAGE_35)
    reach_finish(game)
    give(game, "Аня", xp=300)  # + bonus 300 = 600
    give(game, "Борис", xp=600)
    give(game, "Вика", xp=300)
    allocate_all(game)
    set_skills(game, "Аня", **IMAGE_35)
    game.apply(FINISH)
    table = standings([game])["tables"][0]
    assert [(r["name"], r["final_xp"], r["place"]) for r in table["players"]] == [
        ("Аня", 600, 1), ("Борис", 600, 1), ("Вика", 300, 3)]
    assert table["finished"] is True


def test_level_and_sp_do_not_matter_for_the_place():
    game = game_with()
    reach_finish(game)
    give(game, "Аня", xp=200)
    give(game, "Борис", xp=100, health=20, intellect=20)
    allocate_all(game)
    game.apply(FINISH)
    assert [row(game, n)["place"] for n in ("Аня", "Борис", "Вика")] == [1, 2, 3]
