"""RULES.md 3.7 Adjust (host correction): change a player's XP and skills by deltas, with a
required reason; XP and skills never negative, skills never above skill_max; an XP increase
levels up as usual; allowed at any time before finish."""

import pytest

from facilitator.rules import MalformedError
from facilitator.rules.lyceum import Move, read_move

from .helpers import (FINISH, adjust, draw, give, make_game, make_pack, pass_, reach, reach_finish,
                      refused, rest, skills)


@pytest.fixture
def game():
    return make_game()


def test_adjust_changes_xp_and_skills_by_deltas(game):
    game.apply(adjust("Борис", xp=200, reason="спецспособность карты", health=-3, energy=2))
    boris = game.players["Борис"]
    assert boris.xp == 200
    assert boris.skills == skills(health=4, intellect=2, creativity=2, communication=2, energy=4)


@pytest.mark.parametrize("reason", [None, "", "   "])
def test_a_reason_is_required(game, reason):
    refused(game, Move("adjust", player="Аня", xp=100, reason=reason), "3.7", "adjust_reason")


def test_a_reason_is_required_in_the_record():
    with pytest.raises(MalformedError) as err:
        read_move({"type": "adjust", "player": "Аня", "xp": 100})
    assert err.value.path == "move.reason"


def test_an_adjust_names_its_player(game):
    refused(game, Move("adjust", xp=100, reason="ошибка"), "3.7", "adjust_player")


def test_an_adjust_changes_something(game):
    refused(game, Move("adjust", player="Аня", xp=0, sp={"health": 0}, reason="ошибка"),
            "3.7", "adjust_nothing")


@pytest.mark.parametrize("have, change", [(0, -100), (300, -400)])
def test_xp_never_goes_negative(game, have, change):
    if have:
        give(game, "Аня", xp=have)
    err = refused(game, adjust("Аня", xp=change, reason="ошибка"), "3.7", "adjust_xp_negative")
    assert err.params == {"player": "Аня", "have": have, "xp": change}
    assert str(have) in err.message and str(change) in err.message


def test_xp_may_go_down_to_0(game):
    give(game, "Аня", xp=300)
    game.apply(adjust("Аня", xp=-300, reason="ошибка"))
    assert game.players["Аня"].xp == 0


@pytest.mark.parametrize("skill, have, delta", [("energy", 2, -3), ("health", 7, -8)])
def test_skills_never_go_negative(game, skill, have, delta):
    err = refused(game, adjust("Аня", reason="ошибка", **{skill: delta}), "3.7", "skill_negative")
    assert err.params == {"skill": skill, "player": "Аня", "have": have, "delta": delta}


def test_a_skill_may_go_down_to_0(game):
    game.apply(adjust("Аня", reason="ошибка", energy=-2))
    assert game.players["Аня"].skills["energy"] == 0


def test_skills_never_pass_skill_max():
    game = make_game(make_pack(skill_max=8))
    err = refused(game, adjust("Аня", reason="ошибка", health=2), "3.7", "above_max")
    assert err.params == {"skill": "health", "value": 9, "max": 8}
    game.apply(adjust("Аня", reason="ошибка", health=1))
    assert game.players["Аня"].skills["health"] == 8


def test_an_xp_increase_levels_up(game):
    result = game.apply(adjust("Вика", xp=700, reason="спецспособность карты"))
    assert result.changes["Вика"] == {"xp": 700, "pending": 4, "levels": [2, 3]}


def test_the_engine_counts_xp_in_steps_of_100(game):
    # every XP in the game (cards, share, bonus) is a multiple of 100, so a correction is too
    err = refused(game, adjust("Аня", xp=150, reason="ошибка"), "3.7", "adjust_xp_step")
    assert "150" in err.message


@pytest.mark.parametrize("moment", ["start", "mid_turn", "pending", "round_10_over"])
def test_allowed_at_any_time_before_finish(game, moment):
    if moment == "mid_turn":
        reach(game, 5, "Борис")
        game.apply(pass_("Борис"))
    elif moment == "pending":
        game.apply(rest("Аня"))
    elif moment == "round_10_over":
        reach_finish(game)
    game.apply(adjust("Аня", xp=100, reason="ошибка"))
    assert game.players["Аня"].xp == 100


def test_an_adjust_is_not_a_turn(game):
    game.apply(draw("Аня", "L-G"))
    game.apply(adjust("Вика", xp=100, reason="ошибка"))
    assert game.next() == {"player": "Борис", "expects": "main"}
    assert game.current == "Аня"


def test_not_after_finish(game):
    reach_finish(game)
    game.apply(FINISH)
    refused(game, adjust("Аня", xp=100, reason="ошибка"), "6.6", "finished")
