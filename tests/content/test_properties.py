"""Round trips on generated packs: whatever valid pack hypothesis builds (any Unicode text a
workbook can hold, every shape of special, free SP, skill_max), export and import give it back."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from facilitator.games.lyceum.excel import pack_to_workbook, workbook_to_pack
from facilitator.games.lyceum.importing import json_to_pack, pack_to_json
from facilitator.rules.lyceum import ERA_KEYS, SKILLS, read_pack
from facilitator.rules.lyceum.cards import COLOR_RULES

# any character a workbook cell can hold: no control characters but tab and newline, no surrogates
CHARS = st.characters(blacklist_categories=("Cs", "Cc")) | st.sampled_from("\t\n")
TEXT = st.text(CHARS, max_size=30)
NAME = TEXT.filter(lambda t: t.strip())


@st.composite
def skill_map(draw, total, max_value=9):
    """A map of skills whose values add up to ``total`` (zeros left out)."""
    out = {}
    for _ in range(total):
        s = draw(st.sampled_from(SKILLS))
        out[s] = out.get(s, 0) + 1
    return out


@st.composite
def card(draw, code):
    color = draw(st.sampled_from(list(COLOR_RULES)))
    g_min, g_max, l_min, l_max, special_ok = COLOR_RULES[color]
    g = draw(st.integers(g_min, g_max))
    free = draw(st.integers(0, g))
    special = None
    if special_ok and draw(st.booleans()):
        special = {"text": draw(TEXT)}
        if draw(st.booleans()):
            special["redistribute"] = draw(st.integers(1, 5))
        if not special["text"] and "redistribute" not in special:
            special["text"] = "особое"  # a special with neither text nor number has no cell to live in
    return {"code": code, "era": draw(st.sampled_from(ERA_KEYS)), "color": color, "title": draw(NAME),
            "text": draw(TEXT), "conditions": draw(skill_map(draw(st.integers(0, 12)))),
            "losses": draw(skill_map(draw(st.integers(l_min, l_max)))),
            "gains": draw(skill_map(g - free)), "free": free, "special": special}


@st.composite
def packs(draw):
    codes = draw(st.lists(NAME, min_size=1, max_size=8, unique=True))
    char_codes = draw(st.lists(NAME, min_size=1, max_size=4, unique=True))
    gaps = draw(st.lists(st.integers(1, 1000), max_size=6))
    levels = [0]
    for gap in gaps:
        levels.append(levels[-1] + gap)
    skill_max = draw(st.none() | st.integers(9, 12))
    data = {
        "format": "lyceum-pack/1", "id": draw(NAME), "title": draw(NAME), "levels": levels,
        "skill_max": skill_max,
        "characters": [{"code": c, "name": draw(NAME), "direction": draw(TEXT),
                        "skills": {s: draw(st.integers(0, 9)) for s in SKILLS}} for c in char_codes],
        "cards": [draw(card(c)) for c in codes],
    }
    description = draw(TEXT)
    if description:
        data["description"] = description
    return read_pack(data)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(packs())
def test_any_valid_pack_comes_back_from_its_workbook(pack):
    assert workbook_to_pack(pack_to_workbook(pack)).to_dict() == pack.to_dict()


@settings(max_examples=60, deadline=None)
@given(packs())
def test_any_valid_pack_comes_back_from_its_json(pack):
    assert json_to_pack(pack_to_json(pack)) == pack
