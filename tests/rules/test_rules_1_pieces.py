"""RULES.md 1. Pieces: skills, characters, eras and rounds, action cards and their colours, levels."""

import pytest

from facilitator.rules import PackError
from facilitator.rules.lyceum import COLOR_XP, ERAS, ERA_BY_KEY, SKILLS, Card, age_in_round, era_of_round, pack_problems
from facilitator.rules.lyceum.cards import Special, colour_problems

from .helpers import card_data, character, make_game, make_pack, pack_data


# ----- skills ----------------------------------------------------------------------------
def test_the_five_skills_in_their_fixed_order():
    assert SKILLS == ("health", "intellect", "creativity", "communication", "energy")


def test_every_player_starts_at_level_1_with_0_xp():
    game = make_game()
    for p in game.players.values():
        assert p.xp == 0
        assert game.level(p.name) == 1


# ----- eras and rounds -------------------------------------------------------------------
ERA_TABLE = [
    # era key,     rounds,  ages,    rest limit   (the names are the screens' words: i18n.era_name)
    ("lyceum",     (1, 3),  (16, 18), 3),
    ("university", (4, 7),  (19, 22), 4),
    ("adult",      (8, 10), (23, 25), 5),
]


@pytest.mark.parametrize("key, rounds, ages, limit", ERA_TABLE)
def test_era_table(key, rounds, ages, limit):
    era = ERA_BY_KEY[key]
    assert (era.first_round, era.last_round) == rounds
    assert era.rest_limit == limit
    for r in range(rounds[0], rounds[1] + 1):
        assert era_of_round(r) is era
    assert (age_in_round(rounds[0]), age_in_round(rounds[1])) == ages


def test_ten_rounds_in_three_eras_in_order():
    assert [e.key for e in ERAS] == ["lyceum", "university", "adult"]
    assert [era_of_round(r).key for r in range(1, 11)] == ["lyceum"] * 3 + ["university"] * 4 + ["adult"] * 3


@pytest.mark.parametrize("round_no", [0, 11, -1])
def test_there_is_no_round_outside_1_to_10(round_no):
    with pytest.raises(ValueError):
        era_of_round(round_no)


@pytest.mark.parametrize("round_no, age", [(1, 16), (5, 20), (10, 25)])
def test_round_r_is_the_year_the_character_is_15_plus_r(round_no, age):
    assert age_in_round(round_no) == age


# ----- action cards: XP by colour and the colour rules -----------------------------------
@pytest.mark.parametrize("color, xp", [("green", 100), ("yellow", 200), ("red", 500)])
def test_xp_is_fixed_by_colour(color, xp):
    assert COLOR_XP[color] == xp
    assert Card(code="X", era="lyceum", color=color, title="x").xp == xp


def _card(color, gains=0, free=0, losses=0, special=None):
    """A card whose G is ``gains + free`` and whose L is ``losses``, spread over the skills."""
    def spread(n):
        out = {}
        for i in range(n):
            s = SKILLS[i % len(SKILLS)]
            out[s] = out.get(s, 0) + 1
        return out
    return Card(code="T1", era="lyceum", color=color, title="t", gains=spread(gains), free=free,
                losses=spread(losses), special=Special(**special) if special else None)


# colour, gains, free, losses, special,  the fields that break the colour's rule
COLOUR_RULES = [
    # green: G exactly 1, L 0, no special
    ("green", 1, 0, 0, None, []),
    ("green", 0, 1, 0, None, []),
    ("green", 0, 0, 0, None, ["gains"]),
    ("green", 2, 0, 0, None, ["gains"]),
    ("green", 1, 1, 0, None, ["gains"]),
    ("green", 1, 0, 1, None, ["losses"]),
    ("green", 1, 0, 0, {"text": "особое"}, ["special"]),
    # yellow: G 1 to 3, L exactly 1, no special
    ("yellow", 1, 0, 1, None, []),
    ("yellow", 3, 0, 1, None, []),
    ("yellow", 1, 2, 1, None, []),
    ("yellow", 0, 0, 1, None, ["gains"]),
    ("yellow", 4, 0, 1, None, ["gains"]),
    ("yellow", 2, 2, 1, None, ["gains"]),
    ("yellow", 2, 0, 0, None, ["losses"]),
    ("yellow", 2, 0, 2, None, ["losses"]),
    ("yellow", 2, 0, 1, {"text": "особое"}, ["special"]),
    # red: G 0 to 6, L 0 to 3, special allowed
    ("red", 0, 0, 0, None, []),
    ("red", 6, 0, 3, None, []),
    ("red", 3, 3, 0, {"text": "особое", "redistribute": 2}, []),
    ("red", 7, 0, 0, None, ["gains"]),
    ("red", 5, 2, 0, None, ["gains"]),
    ("red", 2, 0, 4, None, ["losses"]),
    ("red", 7, 0, 4, None, ["gains", "losses"]),
]


@pytest.mark.parametrize("color, gains, free, losses, special, broken", COLOUR_RULES)
def test_colour_rules(color, gains, free, losses, special, broken):
    card = _card(color, gains, free, losses, special)
    assert [field for field, _ in colour_problems(card)] == broken


@pytest.mark.parametrize("color, gains, free, losses, special, broken",
                         [c for c in COLOUR_RULES if c[5]])
def test_a_pack_with_a_card_that_breaks_its_colour_rule_is_refused(color, gains, free, losses,
                                                                     special, broken):
    bad = _card(color, gains, free, losses, special).to_dict()
    pack, problems = pack_problems(pack_data(cards=[bad]))
    assert pack is None
    assert [(p.code, p.field) for p in problems] == [("T1", f) for f in broken]


def test_colour_problem_messages_give_the_numbers():
    (field, message), = colour_problems(_card("yellow", 4, 0, 1))
    assert field == "gains"
    assert "1 to 3" in message and "4" in message
    (field, message), = colour_problems(_card("red", 0, 0, 4))
    assert "0 to 3" in message and "4" in message


def test_card_codes_are_unique_within_a_pack():
    twice = card_data("L-G", "lyceum", "green", gains={"health": 1})
    with pytest.raises(PackError) as err:
        make_pack(cards=[twice])
    assert [(p.code, p.field) for p in err.value.problems] == [("L-G", "code")]


def test_a_pack_finds_a_drawn_card_by_its_code():
    pack = make_pack()
    assert pack.cards_by_code["U-Y"].era == "university"
    assert pack.cards_by_code["U-Y"].color == "yellow"


def test_character_codes_are_unique_within_a_pack():
    with pytest.raises(PackError) as err:
        make_pack(characters=[character("C1"), character("C2"), character("C1")])
    assert [(p.item, p.code, p.field) for p in err.value.problems] == [("character", "C1", "code")]


# ----- levels ----------------------------------------------------------------------------
LEVEL_THRESHOLDS = [  # levels [0, 300, 600, 1000]
    (0, 1), (100, 1), (299, 1),
    (300, 2), (599, 2),
    (600, 3), (999, 3),
    (1000, 4), (5000, 4),
]


@pytest.mark.parametrize("xp, level", LEVEL_THRESHOLDS)
def test_level_is_the_highest_whose_threshold_the_xp_has_reached(xp, level):
    assert make_pack(levels=[0, 300, 600, 1000]).level_for(xp) == level


@pytest.mark.parametrize("levels, field", [
    ([100, 300], "[0]"),          # the first entry is 0
    ([0, 300, 300], "[2]"),       # strictly increasing
    ([0, 600, 300], "[2]"),
    ([0, -100], "[1]"),
])
def test_level_thresholds_start_at_0_and_strictly_increase(levels, field):
    pack, problems = pack_problems(pack_data(levels=levels))
    assert pack is None
    assert [(p.item, p.field) for p in problems] == [("levels", field)]
