"""RULES.md 3.2 Main moves: draw (play / defer / discard), rest, share and pass.

The default table (helpers): Аня, Борис, Вика in that turn order, each with health 7 and every
other skill 2; levels [0, 300, 600, 1000]. Lyceum cards: L-G gains intellect 1, L-Y loses
energy 1 and gains creativity 2, L-R needs intellect 5 and gains health 2 plus 2 free SP.
"""

from fractions import Fraction

import pytest

from facilitator.rules import MalformedError
from facilitator.rules.lyceum import read_move, share_amount

from .helpers import (allocate_all, draw, give, hand_card, make_game, make_pack, pass_, reach,
                      refused, rest, row, set_skills, share, skills, state)


@pytest.fixture
def game():
    return make_game()


def at_xp(game, name, xp):
    """Give ``name`` this much XP and allocate the level-up SP it brings (to health)."""
    give(game, name, xp=xp - game.players[name].xp)
    allocate_all(game)
    return game.players[name]


def player_rows(game):
    """Each player's standings row (the table's round and `next` left out: they move with the turn)."""
    return {r["name"]: r for r in state(game)[0]["tables"][0]["players"]}


# ----- draw ------------------------------------------------------------------------------
def test_draw_and_play_applies_the_card(game):
    game.apply(draw("Аня", "L-G"))
    anya = game.players["Аня"]
    assert anya.skills == skills(health=7, intellect=3, creativity=2, communication=2, energy=2)
    assert anya.xp == 100


def test_draw_and_defer_remembers_the_card_with_its_round(game):
    before = game.players["Аня"].snapshot()
    result = game.apply(draw("Аня", "L-R", "defer"))
    assert game.players["Аня"].snapshot() == before  # nothing else changes
    assert row(game, "Аня")["deferred"] == {"card": "L-R", "round": 1, "expires_after_round": 4}
    assert result.deferred_until == 4


def test_defer_only_when_not_eligible(game):
    err = refused(game, draw("Аня", "L-G", "defer"), "3.2", "defer_eligible")
    assert "L-G" in err.message and "Аня" in err.message


def test_defer_only_when_no_deferred_card_is_held(game):
    game.apply(draw("Аня", "L-R", "defer"))
    reach(game, 2, "Аня")
    err = refused(game, draw("Аня", "L-R", "defer"), "3.2", "already_deferred")
    assert err.params == {"player": "Аня", "card": "L-R", "round": 1}
    assert "round 1" in err.message


@pytest.mark.parametrize("code", ["L-G", "L-R"])  # eligible, and not eligible
def test_discard_is_always_allowed_and_changes_nothing(game, code):
    before = player_rows(game)
    game.apply(draw("Аня", code, "discard"))
    assert player_rows(game) == before


@pytest.mark.parametrize("code, held, decisions", [
    ("L-G", False, ["play", "discard"]),
    ("L-R", False, ["defer", "discard"]),
    ("L-R", True, ["discard"]),
    ("L-G", True, ["play", "discard"]),
])
def test_the_decisions_the_rules_allow(game, code, held, decisions):
    if held:
        game.apply(draw("Аня", "L-R", "defer"))
        reach(game, 2, "Аня")
    assert game.decisions("Аня", game.card_by_code(code)) == decisions


@pytest.mark.parametrize("round_no, code, card_era, era", [
    (1, "U-G", "university", "lyceum"),
    (3, "A-R", "adult", "lyceum"),
    (4, "L-G", "lyceum", "university"),
    (7, "A-Y", "adult", "university"),
    (8, "U-Y", "university", "adult"),
])
def test_a_pack_card_must_be_of_the_current_era(game, round_no, code, card_era, era):
    reach(game, round_no, "Аня")
    err = refused(game, draw("Аня", code), "3.2", "wrong_era")
    assert err.params == {"card": code, "card_era": card_era, "round": round_no, "era": era}
    assert f"round {round_no}" in err.message and card_era in err.message


@pytest.mark.parametrize("round_no, code", [(1, "L-G"), (3, "L-Y"), (4, "U-G"), (7, "U-Y"), (8, "A-G"),
                                            (10, "A-Y")])
def test_a_pack_card_of_the_current_era_is_accepted(game, round_no, code):
    reach(game, round_no, "Аня")
    game.apply(draw("Аня", code))
    assert game.round == round_no


@pytest.mark.parametrize("code, color", [("L-G", "yellow"), ("L-Y", "red"), ("L-R", "green")])
def test_the_card_must_be_of_the_colour_drawn(game, code, color):
    err = refused(game, draw("Аня", code, color=color), "3.2", "wrong_color")
    assert err.params["color"] == color and err.params["card_color"] == game.card_by_code(code).color


def test_an_unknown_card_code_is_refused(game):
    err = refused(game, draw("Аня", "L-Z9", color="green"), "1", "unknown_card")
    assert "L-Z9" in err.message


# hand-entered cards ---------------------------------------------------------------------
@pytest.mark.parametrize("era", [None, "lyceum", "adult"])
def test_a_hand_entered_card_is_not_held_to_the_era(game, era):
    card = hand_card("yellow", losses={"energy": 1}, gains={"intellect": 3}, era=era)
    game.apply(draw("Аня", card))
    assert game.players["Аня"].skills["intellect"] == 5
    assert game.players["Аня"].xp == 200


def test_a_hand_entered_card_must_be_of_the_colour_drawn(game):
    card = hand_card("green", gains={"health": 1})
    err = refused(game, draw("Аня", card, color="red"), "3.2", "wrong_color")
    assert err.params["card"] == "Карта от руки"


def test_a_hand_entered_card_must_obey_its_colour_rule(game):
    card = hand_card("green", gains={"health": 2})
    err = refused(game, draw("Аня", card), "1", "card_colour")
    assert "exactly 1" in err.message and "2" in err.message


def test_a_hand_entered_card_read_from_json():
    move = read_move({"type": "draw", "player": "Аня", "color": "red", "decision": "defer",
                      "card": {"color": "red", "title": "Олимпиада", "conditions": {"intellect": 9},
                               "gains": {"intellect": 2}}})
    game = make_game()
    game.apply(move)
    assert row(game, "Аня")["deferred"]["card"] == "Олимпиада"


def test_a_hand_entered_card_in_json_that_breaks_its_colour_rule_is_malformed():
    with pytest.raises(MalformedError) as err:
        read_move({"type": "draw", "player": "Аня", "color": "yellow", "decision": "play",
                   "card": {"color": "yellow", "title": "x", "gains": {"health": 1}}})
    assert err.value.path == "move.card.losses"


# ----- rest ------------------------------------------------------------------------------
def test_rest_gives_1_energy_and_1_pending_free_sp(game):
    result = game.apply(rest("Аня"))
    anya = game.players["Аня"]
    assert anya.skills["energy"] == 3
    assert anya.pending == 1
    assert result.changes["Аня"] == {"skills": {"energy": 1}, "pending": 1}


def test_rest_energy_comes_before_the_redistribution(game):
    set_skills(game, "Аня", energy=0)
    game.apply(rest("Аня", {"energy": -1, "health": 1}))  # the +1 energy is moved straight on
    assert game.players["Аня"].skills == skills(health=8, intellect=2, creativity=2, communication=2,
                                                energy=0)


@pytest.mark.parametrize("moved", [1, 2, 3])
def test_a_redistribution_moves_sp_between_skills(game, moved):
    game.apply(rest("Аня", {"health": -moved, "intellect": moved - 1, "creativity": 1}))
    assert game.players["Аня"].skills == skills(health=7 - moved, intellect=1 + moved, creativity=3,
                                                communication=2, energy=3)


@pytest.mark.parametrize("redistribute, total", [
    ({"health": -2, "intellect": 1}, -1),
    ({"intellect": 1}, 1),
    ({"health": -1, "intellect": 2, "creativity": 1}, 2),
])
def test_a_redistribution_sums_to_0(game, redistribute, total):
    err = refused(game, rest("Аня", redistribute), "3.2", "redistribute_sum")
    assert err.params == {"sum": total}
    assert f"got {total}" in err.message


ERA_LIMITS = [(1, 3), (3, 3), (4, 4), (7, 4), (8, 5), (10, 5)]  # round, rest may redistribute up to


@pytest.mark.parametrize("round_no, limit", ERA_LIMITS)
def test_rest_redistributes_up_to_the_eras_limit(game, round_no, limit):
    reach(game, round_no, "Аня")
    assert game.rest_limit(round_no) == limit
    game.apply(rest("Аня", {"health": -limit, "intellect": limit}))
    assert game.players["Аня"].skills["intellect"] == 2 + limit


@pytest.mark.parametrize("round_no, limit", ERA_LIMITS)
def test_rest_beyond_the_eras_limit_is_refused(game, round_no, limit):
    reach(game, round_no, "Аня")
    err = refused(game, rest("Аня", {"health": -(limit + 1), "intellect": limit, "energy": 1}),
                  "3.2", "redistribute_limit")
    assert err.params == {"limit": limit, "moved": limit + 1}
    assert f"at most {limit}" in err.message and f"got {limit + 1}" in err.message


def test_rest_redistribution_may_not_make_a_skill_negative(game):
    err = refused(game, rest("Аня", {"intellect": -3, "health": 3}), "3.2", "skill_negative")
    assert err.params == {"skill": "intellect", "have": 2, "delta": -3}
    assert "intellect" in err.message and "2 -3" in err.message


# ----- share -----------------------------------------------------------------------------
@pytest.mark.parametrize("xp, level", [(0, 1), (300, 2), (500, 2)])
def test_share_needs_level_3(game, xp, level):
    if xp:
        at_xp(game, "Аня", xp)
    err = refused(game, share("Аня"), "3.2", "share_level")
    assert err.params == {"need": 3, "player": "Аня", "level": level}
    assert game.share_refusal("Аня").code == "share_level" and not game.can_share("Аня")
    assert f"level {level}" in err.message


def test_share_needs_the_level_shown_now_not_the_best_reached(game):
    at_xp(game, "Аня", 600)
    give(game, "Аня", xp=-300)  # a host correction: level 2 shown again
    err = refused(game, share("Аня"), "3.2", "share_level")
    assert err.params["level"] == 2


def test_share_at_level_3(game):
    at_xp(game, "Аня", 600)
    assert game.can_share("Аня") and game.share_refusal("Аня") is None
    anya_before = dict(game.players["Аня"].skills)
    result = game.apply(share("Аня"))
    anya = game.players["Аня"]
    assert result.shared_xp == 200  # 30% of 600 = 180, to the nearest 100
    assert {n: game.players[n].xp for n in game.order} == {"Аня": 600, "Борис": 200, "Вика": 200}
    assert anya.skills == dict(anya_before, communication=anya_before["communication"] + 1,
                               energy=anya_before["energy"] - 1)
    assert anya.pending == 1
    assert row(game, "Аня")["shared"] is True


def test_share_only_once_per_game(game):
    at_xp(game, "Аня", 600)
    game.apply(share("Аня"))
    reach(game, 2, "Аня")
    err = refused(game, share("Аня"), "3.2", "share_twice")
    assert "Аня" in err.message


def test_share_needs_energy_1(game):
    at_xp(game, "Аня", 600)
    set_skills(game, "Аня", energy=0)
    err = refused(game, share("Аня"), "6.5", "share_energy")
    assert err.params == {"need": 1, "player": "Аня", "energy": 0}
    set_skills(game, "Аня", energy=1)
    game.apply(share("Аня"))
    assert game.players["Аня"].skills["energy"] == 0


SHARE_ROUNDING = [  # sharer's XP -> S each other player gains
    (1500, 500), (1400, 400), (0, 0), (100, 0), (200, 100), (1700, 500), (1800, 500), (2500, 800),
]


@pytest.mark.parametrize("xp, gain", SHARE_ROUNDING)
def test_share_amount_is_30_percent_rounded_to_100_halves_up(xp, gain):
    assert share_amount(xp) == gain


def _nearest_100_halves_up(value):
    hundreds = value / 100
    whole = hundreds.numerator // hundreds.denominator
    return (whole + (1 if hundreds - whole >= Fraction(1, 2) else 0)) * 100


def test_share_formula_agrees_with_30_percent_to_the_nearest_100_halves_up():
    for xp in range(0, 10001, 50):
        assert share_amount(xp) == ((3 * xp + 500) // 1000) * 100
        assert share_amount(xp) == _nearest_100_halves_up(Fraction(3 * xp, 10)), xp


@pytest.mark.parametrize("xp, gain", [r for r in SHARE_ROUNDING if r[0] >= 600])
def test_others_gain_s_in_play(xp, gain):
    game = make_game(make_pack(levels=[0, 300, 600]))
    at_xp(game, "Аня", xp)
    assert game.share_preview("Аня") == {"Борис": gain, "Вика": gain}
    game.apply(share("Аня"))
    assert game.players["Аня"].xp == xp  # the sharer's XP is unchanged
    assert game.players["Борис"].xp == game.players["Вика"].xp == gain


def test_others_may_level_up_from_s(game):
    at_xp(game, "Аня", 1000)  # S = 300
    at_xp(game, "Вика", 800)  # level 3; 800 + 300 = 1100 reaches level 4
    game.apply(share("Аня"))
    assert game.pending() == {"Аня": 1, "Борис": 2, "Вика": 2}
    assert (game.level("Борис"), game.level("Вика")) == (2, 4)


# ----- pass ------------------------------------------------------------------------------
def test_pass_changes_nothing_but_the_turn(game):
    before = player_rows(game)
    result = game.apply(pass_("Аня"))
    assert player_rows(game) == before
    assert result.changes == {}
    assert game.next() == {"player": "Борис", "expects": "main"}
