"""RULES.md 3.4 Applying a card: losses, then gains, then free SP to pending, then the colour's
XP and its level-ups; a `redistribute: N` special carries a redistribution (limit N) applied
last; any other special is carried out by the host with an adjust."""

import pytest

from .helpers import (adjust, allocate, card_data, character, draw, flat, make_game, make_pack,
                      player, refused, skills)

CARDS = [
    # yellow: lose 1 energy, gain 1 energy and 1 intellect, 1 free SP
    card_data("L-Y1", "lyceum", "yellow", losses={"energy": 1}, gains={"energy": 1, "intellect": 1}, free=1),
    # red with a redistribution of up to 2, gaining 2 creativity
    card_data("L-R1", "lyceum", "red", losses={"health": 1}, gains={"creativity": 2}, free=1,
              special={"text": "можно переставить до 2 SP", "redistribute": 2}),
    # red with a special the host carries out
    card_data("L-R2", "lyceum", "red", gains={"health": 1},
              special={"text": "соперник слева теряет 1 энергию"}),
]


def game_with(skill_max=None, levels=(0, 300, 600, 1000), anya=None):
    chars = [character("C1", anya or flat(2)), character("C2"), character("C3")]
    pack = make_pack(characters=chars, cards=CARDS, skill_max=skill_max, levels=levels)
    players = [player("Аня", "C1", extra={"energy": 5}), player("Борис", "C2"), player("Вика", "C3")]
    return make_game(pack, players)


def test_losses_gains_free_and_xp():
    game = game_with()
    result = game.apply(draw("Аня", "L-Y1"))
    assert game.players["Аня"].skills == skills(health=2, intellect=3, creativity=2, communication=2,
                                                energy=7)
    assert game.players["Аня"].pending == 1
    assert game.players["Аня"].xp == 200
    assert result.changes["Аня"] == {"xp": 200, "skills": {"intellect": 1}, "pending": 1}


def test_losses_come_before_gains():
    # at skill_max 7 with energy 7: losses first give 7 - 1 + 1 = 7; gains first would give 6
    game = game_with(skill_max=7)
    game.apply(draw("Аня", "L-Y1"))
    assert game.players["Аня"].skills["energy"] == 7


def test_free_sp_and_level_up_sp_are_both_pending_after_one_card():
    game = game_with(levels=(0, 200, 400))  # 200 XP reaches level 2 at once
    result = game.apply(draw("Аня", "L-Y1"))
    assert game.players["Аня"].pending == 1 + 2
    assert game.players["Аня"].pending_reasons == [("card", 1), ("level", 2)]
    assert result.changes["Аня"]["levels"] == [2]


def test_the_redistribution_is_applied_last_after_the_gains():
    # Аня has creativity 0: only the card's +2 creativity lets her move 2 creativity away
    game = game_with(anya=flat(2, creativity=0))
    game.apply(draw("Аня", "L-R1", redistribute={"creativity": -2, "intellect": 2}))
    assert game.players["Аня"].skills == skills(health=1, intellect=4, creativity=0, communication=2,
                                                energy=7)
    assert game.players["Аня"].xp == 500


def test_the_redistribution_is_checked_against_skills_after_the_losses():
    # health 2 - 1 lost = 1: moving 2 health away would make it negative
    game = game_with()
    err = refused(game, draw("Аня", "L-R1", redistribute={"health": -2, "intellect": 2}),
                  "3.4", "skill_negative")
    assert err.params == {"skill": "health", "have": 1, "delta": -2}


@pytest.mark.parametrize("redistribute", [{"health": -1, "intellect": 1}, {"energy": -2, "health": 2}])
def test_a_redistribution_of_up_to_n(redistribute):
    game = game_with()
    game.apply(draw("Аня", "L-R1", redistribute=redistribute))


def test_a_redistribution_beyond_n_is_refused():
    game = game_with()
    err = refused(game, draw("Аня", "L-R1", redistribute={"energy": -3, "health": 3}),
                  "3.4", "redistribute_limit")
    assert err.params == {"limit": 2, "moved": 3}


def test_a_card_redistribution_sums_to_0():
    game = game_with()
    err = refused(game, draw("Аня", "L-R1", redistribute={"energy": -1, "health": 2}),
                  "3.4", "redistribute_sum")
    assert err.params == {"sum": 1}


@pytest.mark.parametrize("code", ["L-Y1", "L-R2"])
def test_a_redistribution_on_a_card_without_it_is_refused(code):
    game = game_with()
    err = refused(game, draw("Аня", code, redistribute={"energy": -1, "health": 1}),
                  "3.4", "redistribute_not_allowed")
    assert code in err.message


@pytest.mark.parametrize("decision", ["defer", "discard"])
def test_a_redistribution_goes_only_with_playing_the_card(decision):
    game = game_with(anya=flat(2, health=0))  # not eligible for L-R1 (loses 1 health): may defer
    refused(game, draw("Аня", "L-R1", decision, redistribute={"energy": -1, "intellect": 1}),
            "3.4", "redistribute_not_allowed")


def test_any_other_special_is_recorded_and_carried_out_by_the_host_with_an_adjust():
    game = game_with()
    result = game.apply(draw("Аня", "L-R2"))
    assert result.card.special.text == "соперник слева теряет 1 энергию"
    assert set(result.changes) == {"Аня"}  # the engine itself touches no one else
    game.apply(allocate("Аня", health=2))  # level 2 from 500 XP
    game.apply(adjust("Борис", reason="спецспособность карты L-R2", energy=-1))
    assert game.players["Борис"].skills["energy"] == 1
