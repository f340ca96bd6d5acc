"""The rules engine's pack problems carry a stable ``key``, their numbers (``params``) and the
English template, so the import and the pack editor can say them in Russian; the English
``message`` is the same sentence as before."""

import pytest

from facilitator.rules.lyceum.ruleset import sample_pack_data
from facilitator.rules import Problem
from facilitator.rules.lyceum import pack_problems
from facilitator.rules.lyceum.cards import colour_breaks, colour_problems, read_card
from facilitator.rules.lyceum.pack import MALFORMED_KEYS

from .helpers import sample_data_with


def _only_problem(change):
    pack, problems = pack_problems(sample_data_with(change))
    assert pack is None
    (p,) = problems
    return p


def _card(i, **fields):
    def change(data):
        data["cards"][i].update(fields)
    return change


# (what, change, key, params, the English message as the engine has always written it)
KEYED = [
    ("yellow losses", _card(9, losses={"energy": 2}), "losses_exact",
     {"color": "yellow", "need": 1, "got": 2}, "a yellow card costs exactly 1 SP in losses, this one costs 2"),
    ("red losses", _card(18, losses={"energy": 4}), "losses_range",
     {"color": "red", "min": 0, "max": 3, "got": 4}, "a red card costs 0 to 3 SP in losses, this one costs 4"),
    ("green gains", _card(0, gains={"intellect": 2}), "gains_exact",
     {"color": "green", "need": 1, "got": 2}, "a green card gives exactly 1 SP (gains + free), this one gives 2"),
    ("yellow gains", _card(9, gains={"intellect": 4}), "gains_range",
     {"color": "yellow", "min": 1, "max": 3, "got": 4},
     "a yellow card gives 1 to 3 SP (gains + free), this one gives 4"),
    ("special", _card(0, special={"text": "x"}), "special_not_red", {"color": "green"},
     "only red cards have a special, this is a green card"),
    ("duplicate", _card(1, code="L-G-01"), "duplicate_code", {"first": 1},
     "duplicate code, also used by card #1"),
    ("unknown skill", _card(0, conditions={"charisma": 1}), "unknown_skill",
     {"key": "charisma", "allowed": "health, intellect, creativity, communication, energy"},
     "unknown skill 'charisma'; the skills are health, intellect, creativity, communication, energy"),
    ("unknown era", _card(0, era="school"), "unknown_era",
     {"era": "school", "allowed": "lyceum, university, adult"},
     "unknown era 'school'; the eras are lyceum, university, adult"),
    ("unknown colour", _card(0, color="blue"), "unknown_color",
     {"color": "blue", "allowed": "green, yellow, red"}, "unknown colour 'blue'; the colours are green, yellow, red"),
    ("negative", _card(0, conditions={"intellect": -1}), "below_minimum", {"minimum": 0, "value": -1},
     "must be at least 0, got -1"),
    ("text for a number", _card(0, free="one"), "not_whole_number", {"value": "one"},
     "must be a whole number, got 'one'"),
    ("missing title", _card(0, title=""), "missing_text", {}, "must be a non-empty text"),
    ("levels", lambda d: d["levels"].__setitem__(2, 200), "levels_not_increasing",
     {"level": 3, "xp": 200, "previous": 2, "previous_xp": 200},
     "thresholds must increase: level 3 at 200 XP is not above level 2 at 200 XP"),
    ("level 1", lambda d: d["levels"].__setitem__(0, 5), "level_1_not_zero", {"value": 5},
     "level 1 begins at 0 XP, got 5"),
    ("skill_max", lambda d: d.update(skill_max=0), "bad_skill_max", {"value": 0},
     "must be null or a whole number of at least 1, got 0"),
    ("format", lambda d: d.update(format="pack/2"), "wrong_format",
     {"expected": "lyceum-pack/1", "got": "pack/2"}, "must be 'lyceum-pack/1', got 'pack/2'"),
]


@pytest.mark.parametrize("what, change, key, params, message", KEYED, ids=[k[0] for k in KEYED])
def test_each_pack_problem_has_a_key_and_its_numbers(what, change, key, params, message):
    p = _only_problem(change)
    assert isinstance(p, Problem)
    assert (p.key, p.params, p.message) == (key, params, message)
    assert p.template.format(**p.params) == p.message


def test_every_malformed_template_of_the_field_readers_has_a_key():
    # a key maps each template the readers raise; none falls through to "malformed"
    for what, change, key, _params, _message in KEYED:
        assert _only_problem(change).key != "malformed", what
    assert "malformed" not in MALFORMED_KEYS.values()


def test_colour_problems_keeps_its_shape_and_agrees_with_colour_breaks():
    card = read_card(sample_data_with(_card(9, losses={"energy": 2}, gains={"intellect": 4}))["cards"][9], "c")
    assert colour_problems(card) == [(b.field, b.message) for b in colour_breaks(card)]
    assert [b.key for b in colour_breaks(card)] == ["gains_range", "losses_exact"]


def test_a_valid_pack_has_no_problems():
    assert pack_problems(sample_pack_data())[1] == []
