"""Content packs (`lyceum-pack/1`, RECORD.md 1) through the public API: ``read_pack`` and
``pack_problems``.

A pack that breaks a rule of RULES.md 1 is refused as a whole, with EVERY problem listed by
card or character code and field, so an organizer fixes their deck in one pass. The sample
pack that ships with the app loads, meets the issue's spec and round-trips exactly.
"""

import copy
import json
from collections import Counter

import pytest

from facilitator.rules.lyceum.ruleset import sample_pack, sample_pack_data
from facilitator.rules import PackError
from facilitator.rules.lyceum import COLORS, ERA_KEYS, pack_problems, read_pack, write_pack

SKILLS = ("health", "intellect", "creativity", "communication", "energy")


def skills(health, intellect, creativity, communication, energy):
    return dict(zip(SKILLS, (health, intellect, creativity, communication, energy)))


def base_pack():
    """A small valid pack: four characters, a green, a yellow and a red card per era."""
    cards = []
    for era, prefix in zip(ERA_KEYS, "LUA"):
        cards += [
            {"code": f"{prefix}-G", "era": era, "color": "green", "title": "Олимпиада", "text": "",
             "conditions": {"intellect": 3}, "losses": {}, "gains": {"intellect": 1}, "free": 0,
             "special": None},
            {"code": f"{prefix}-Y", "era": era, "color": "yellow", "title": "Подготовка", "text": "",
             "conditions": {"intellect": 4}, "losses": {"energy": 1}, "gains": {"intellect": 1},
             "free": 1, "special": None},
            {"code": f"{prefix}-R", "era": era, "color": "red", "title": "Проект", "text": "",
             "conditions": {"creativity": 5}, "losses": {"health": 1, "energy": 2},
             "gains": {"creativity": 2, "communication": 1}, "free": 3,
             "special": {"text": "Можно перераспределить до 2 SP", "redistribute": 2}},
        ]
    return {
        "format": "lyceum-pack/1", "id": "test", "title": "Проверочная колода",
        "levels": [0, 300, 600, 1000], "skill_max": None,
        "characters": [
            {"code": "C1", "name": "Маша", "direction": "Математика", "skills": skills(3, 6, 2, 2, 3)},
            {"code": "C2", "name": "Дима", "direction": "Физика", "skills": skills(4, 5, 3, 1, 2)},
            {"code": "C3", "name": "Лиза", "direction": "Дизайн", "skills": skills(2, 2, 6, 3, 3)},
            {"code": "C4", "name": "Артём", "direction": "Право", "skills": skills(3, 4, 2, 5, 2)},
        ],
        "cards": cards,
    }


def card(data, code):
    return next(c for c in data["cards"] if c["code"] == code)


def character(data, code):
    return next(c for c in data["characters"] if c["code"] == code)


# Each breakage: (name, how to break a pack in place, the problems it must produce as
# "item code: field"). The names are the test ids.
BREAKAGES = [
    ("duplicate card code", lambda d: card(d, "U-G").update(code="L-G"), ["card L-G: code"]),
    ("duplicate character code", lambda d: character(d, "C4").update(code="C2"), ["character C2: code"]),
    ("negative character skill", lambda d: character(d, "C1")["skills"].update(energy=-1),
     ["character C1: skills.energy"]),
    ("negative gain", lambda d: card(d, "L-G").update(gains={"intellect": 2, "health": -1}),
     ["card L-G: gains.health"]),
    ("negative condition", lambda d: card(d, "U-Y").update(conditions={"intellect": -4}),
     ["card U-Y: conditions.intellect"]),
    ("negative loss", lambda d: card(d, "A-R").update(losses={"energy": -2}), ["card A-R: losses.energy"]),
    ("negative free SP", lambda d: card(d, "U-R").update(free=-1), ["card U-R: free"]),
    ("negative level threshold", lambda d: d.update(levels=[0, -300, 600]), ["levels: [1]"]),
    ("unknown skill of a character", lambda d: character(d, "C3")["skills"].update(luck=1),
     ["character C3: skills.luck"]),
    ("unknown skill in conditions", lambda d: card(d, "A-G").update(conditions={"charm": 2}),
     ["card A-G: conditions.charm"]),
    ("unknown skill in gains", lambda d: card(d, "L-Y")["gains"].update(wisdom=1),
     ["card L-Y: gains.wisdom"]),
    ("levels not starting at 0", lambda d: d.update(levels=[100, 300, 600]), ["levels: [0]"]),
    ("levels repeating a threshold", lambda d: d.update(levels=[0, 300, 300, 1000]), ["levels: [2]"]),
    ("levels going down", lambda d: d.update(levels=[0, 600, 300, 1000]), ["levels: [2]"]),
    ("levels empty", lambda d: d.update(levels=[]), ["levels"]),
    ("levels as text", lambda d: d.update(levels=[0, "300"]), ["levels: [1]"]),
    ("skill_max zero", lambda d: d.update(skill_max=0), ["pack: skill_max"]),
    ("skill_max as text", lambda d: d.update(skill_max="9"), ["pack: skill_max"]),
    ("character above skill_max", lambda d: d.update(skill_max=5),
     ["character C1: skills.intellect", "character C3: skills.creativity"]),
    ("green card giving two SP", lambda d: card(d, "L-G").update(free=1), ["card L-G: gains"]),
    ("yellow card without a loss", lambda d: card(d, "U-Y").update(losses={}), ["card U-Y: losses"]),
    ("yellow card with a special", lambda d: card(d, "A-Y").update(special={"text": "особое"}),
     ["card A-Y: special"]),
    ("red card losing 4 SP", lambda d: card(d, "L-R").update(losses={"health": 2, "energy": 2}),
     ["card L-R: losses"]),
    ("red card giving 7 SP", lambda d: card(d, "U-R").update(free=4), ["card U-R: gains"]),
    ("green card that both gives too much and costs", lambda d: card(d, "A-G").update(
        gains={"intellect": 2}, losses={"health": 1}), ["card A-G: gains", "card A-G: losses"]),
    ("special redistributing 0 SP", lambda d: card(d, "A-R")["special"].update(redistribute=0),
     ["card A-R: special.redistribute"]),
    ("unknown era", lambda d: card(d, "L-Y").update(era="childhood"), ["card L-Y: era"]),
    ("unknown colour", lambda d: card(d, "A-R").update(color="blue"), ["card A-R: color"]),
    ("card without title", lambda d: card(d, "L-Y").pop("title"), ["card L-Y: title"]),
    ("card without code", lambda d: card(d, "U-Y").pop("code"), ["card #5: code"]),
    ("character without name", lambda d: character(d, "C2").update(name=""), ["character C2: name"]),
    ("character that is not an object", lambda d: d["characters"].append("C5"), ["character #5"]),
    ("format of another version", lambda d: d.update(format="lyceum-pack/2"), ["pack: format"]),
    ("no id", lambda d: d.pop("id"), ["pack: id"]),
    ("empty title", lambda d: d.update(title=" "), ["pack: title"]),
    ("no characters", lambda d: d.update(characters=[]), ["pack: characters"]),
    ("cards not a list", lambda d: d.update(cards={}), ["pack: cards"]),
]


def broken(*names):
    data = base_pack()
    for name, brk, _ in BREAKAGES:
        if name in names:
            brk(data)
    return data


def wheres(problems):
    return [p.where() for p in problems]


def test_the_base_pack_is_valid():
    pack, problems = pack_problems(base_pack())
    assert problems == [] and pack is not None


@pytest.mark.parametrize("name, brk, expected", BREAKAGES, ids=[b[0] for b in BREAKAGES])
def test_a_broken_pack_is_refused_naming_the_item_and_field(name, brk, expected):
    data = base_pack()
    brk(data)
    pack, problems = pack_problems(data)
    assert pack is None
    assert wheres(problems) == expected
    with pytest.raises(PackError) as refused:
        read_pack(data)
    assert wheres(refused.value.problems) == expected
    for where in expected:  # the message an organizer reads names each problem
        assert f"- {where}: " in str(refused.value)


# Breakages of distinct cards, characters and fields, made to one pack at once.
TOGETHER = ["duplicate card code", "duplicate character code", "negative character skill",
            "negative condition", "negative free SP", "unknown skill of a character",
            "unknown skill in conditions", "levels repeating a threshold", "skill_max zero",
            "yellow card with a special", "red card losing 4 SP", "card without title",
            "unknown colour", "no id"]


def test_every_problem_of_a_pack_is_listed_at_once():
    expected = [w for name, _, ws in BREAKAGES if name in TOGETHER for w in ws]
    assert len(expected) >= len(TOGETHER)
    with pytest.raises(PackError) as refused:
        read_pack(broken(*TOGETHER))
    assert sorted(wheres(refused.value.problems)) == sorted(expected)
    assert f"{len(expected)} problem(s)" in str(refused.value)


def test_every_malformed_field_of_one_card_is_listed():
    data = base_pack()
    card(data, "L-G").update(conditions={"charm": 1}, gains={"intellect": -1})
    character(data, "C1").update(name="")
    character(data, "C1")["skills"].update(energy=-1)
    assert sorted(wheres(pack_problems(data)[1])) == sorted([
        "card L-G: conditions.charm", "card L-G: gains.intellect",
        "character C1: name", "character C1: skills.energy"])


def test_a_pack_that_is_not_an_object_is_refused():
    with pytest.raises(PackError) as refused:
        read_pack([base_pack()])
    assert wheres(refused.value.problems) == ["pack"]


def test_skill_max_is_kept_when_every_character_fits():
    data = base_pack()
    data["skill_max"] = 6
    assert read_pack(data).skill_max == 6


@pytest.mark.parametrize("data", [base_pack(), sample_pack_data()], ids=["base pack", "sample pack"])
def test_write_of_read_is_the_pack_itself(data):
    assert write_pack(read_pack(copy.deepcopy(data))) == data
    text = json.dumps(write_pack(read_pack(json.loads(json.dumps(data, ensure_ascii=False)))),
                      ensure_ascii=False)
    assert json.loads(text) == data


# ----- the sample pack (the spec) -------------------------------------------------
def test_the_sample_pack_loads_without_problems():
    assert pack_problems(sample_pack_data())[1] == []
    assert sample_pack() == read_pack(sample_pack_data())


def test_the_sample_pack_says_it_is_a_sample():
    pack = sample_pack()
    assert "пример" in pack.title.lower()
    assert "не оригинальная" in pack.title.lower() or "не официальная" in pack.description.lower()


def test_the_sample_pack_has_ten_characters_of_distinct_directions():
    characters = sample_pack().characters
    assert len(characters) == 10
    assert len({c.code for c in characters}) == 10
    assert len({c.direction.strip().lower() for c in characters}) == 10
    assert all(c.direction.strip() for c in characters)


def test_the_sample_pack_has_at_least_eight_cards_per_era_and_colour():
    counts = Counter((c.era, c.color) for c in sample_pack().cards)
    short = {(era, color): counts[era, color] for era in ERA_KEYS for color in COLORS
             if counts[era, color] < 8}
    assert short == {}


def test_the_sample_pack_levels_start_at_zero_and_increase():
    levels = sample_pack().levels
    assert levels[0] == 0 and all(a < b for a, b in zip(levels, levels[1:]))
    assert len(levels) >= 3  # level 3 exists: sharing is possible
