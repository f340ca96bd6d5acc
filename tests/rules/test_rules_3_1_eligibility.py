"""RULES.md 3.1 Eligibility: for every skill, SP >= conditions[skill] and SP >= losses[skill];
when not eligible the engine names every unmet skill with its value and the amount needed."""

import pytest

from facilitator.rules import IllegalMoveError

from .helpers import card_data, character, draw, make_game, make_pack, player, skills

# Аня plays with health 3, intellect 2, creativity 1, communication 0, energy 4
CARDS = [
    card_data("L-R1", "lyceum", "red", conditions={"health": 3, "intellect": 2}, gains={"creativity": 1}),
    card_data("L-R2", "lyceum", "red", conditions={"health": 4}, gains={"creativity": 1}),
    card_data("L-Y1", "lyceum", "yellow", losses={"energy": 1}, gains={"health": 1}),
    card_data("L-Y2", "lyceum", "yellow", losses={"communication": 1}, gains={"health": 1}),
    # a skill in both: the player needs the larger of the two
    card_data("L-R3", "lyceum", "red", conditions={"health": 2}, losses={"health": 3}, gains={"energy": 1}),
    card_data("L-R4", "lyceum", "red", conditions={"health": 4}, losses={"health": 3}, gains={"energy": 1}),
    card_data("L-R5", "lyceum", "red", conditions={"health": 9, "intellect": 3, "energy": 4},
              losses={"creativity": 2, "communication": 1}, gains={"energy": 1}),
]


@pytest.fixture
def game():
    chars = [character("C1", skills(health=2, intellect=2, creativity=1, communication=0, energy=0))]
    chars += [character(f"C{i}") for i in (2, 3)]
    pack = make_pack(characters=chars, cards=CARDS)
    players = [player("Аня", "C1", extra={"health": 1, "energy": 4}),
               player("Борис", "C2"), player("Вика", "C3")]
    return make_game(pack, players)


def test_the_table_as_set_up(game):
    assert game.players["Аня"].skills == skills(health=3, intellect=2, creativity=1, energy=4)
    assert game.order[0] == "Аня"  # most energy: she draws first


ELIGIBILITY = [
    # card,   unmet skills as (skill, have, need)
    ("L-R1", []),                                                  # conditions met exactly
    ("L-R2", [("health", 3, 4)]),                                  # a condition one short
    ("L-Y1", []),                                                  # a loss of 1 energy, has 4
    ("L-Y2", [("communication", 0, 1)]),                           # a loss the player cannot pay
    ("L-R3", []),                                                  # in both: max(2, 3) = 3, has 3
    ("L-R4", [("health", 3, 4)]),                                  # in both: max(4, 3) = 4
    ("L-R5", [("health", 3, 9), ("intellect", 2, 3), ("creativity", 1, 2),
              ("communication", 0, 1)]),                           # every unmet skill, energy 4 is met
]


@pytest.mark.parametrize("code, unmet", ELIGIBILITY)
def test_eligibility_checks_conditions_and_losses(game, code, unmet):
    card = game.card_by_code(code)
    assert game.shortfalls("Аня", card) == unmet
    assert game.eligible("Аня", card) is (not unmet)


@pytest.mark.parametrize("code, unmet", [c for c in ELIGIBILITY if c[1]])
def test_playing_without_eligibility_is_refused_naming_every_unmet_skill(game, code, unmet):
    with pytest.raises(IllegalMoveError) as err:
        game.apply(draw("Аня", code))
    assert (err.value.rule, err.value.code) == ("3.1", "not_eligible")
    assert err.value.params["missing"] == [{"skill": s, "have": h, "need": n} for s, h, n in unmet]
    for skill, have, need in unmet:
        assert f"{skill} {have} < {need}" in err.value.message


@pytest.mark.parametrize("code, unmet", [c for c in ELIGIBILITY if not c[1]])
def test_an_eligible_player_may_play(game, code, unmet):
    game.apply(draw("Аня", code))
    assert game.players["Аня"].xp == game.card_by_code(code).xp


def test_a_card_with_no_conditions_or_losses_is_open_to_everyone(game):
    game.players["Аня"].skills.update(skills())  # every skill 0
    assert game.shortfalls("Аня", game.card_by_code("L-G")) == []
