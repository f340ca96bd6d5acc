"""Issue 6, item 5: the host finds a drawn card by the code printed on it or by a few letters of
its title, among the cards of the current era and the chosen colour only."""

import pytest

from facilitator.rules.lyceum.ruleset import sample_pack
from facilitator.games.lyceum.search import code_key, find_cards, title_key


def codes(era, color, query, pack=None):
    return [c.code for c in find_cards(pack or sample_pack(), era, color, query)]


@pytest.mark.parametrize("query", ["L-G-01", "l-g-01", "lg01", "LG01", "L G 01", " l-g 01 ", "L_G_01", "L–G–01"])
def test_a_card_is_found_by_its_code_however_it_is_typed(query):
    assert codes("lyceum", "green", query) == ["L-G-01"]


def test_a_code_must_match_exactly_not_as_a_part():
    assert codes("lyceum", "green", "LG0") == []
    assert codes("lyceum", "green", "LG011") == []


@pytest.mark.parametrize("era, color, query, found", [
    ("lyceum", "green", "олимп", ["L-G-01"]),  # «Школьная олимпиада»
    ("lyceum", "green", "ОЛИМП", ["L-G-01"]),  # case does not matter
    ("lyceum", "yellow", "олимп", ["L-Y-03"]),  # «Региональная олимпиада»: same letters, other colour
    ("lyceum", "red", "олимп", ["L-R-01"]),  # «Всероссийская олимпиада»
    ("lyceum", "green", "волонтер", ["L-G-05"]),  # «Волонтёрская акция» typed with е
    ("university", "green", "волонтёр", ["U-G-08"]),  # «Волонтёр на фестивале», with ё
    ("university", "green", "ВОЛОНТЁР", ["U-G-08"]),
    ("adult", "green", "олимп", []),  # no such card in the era
])
def test_a_card_is_found_by_a_few_letters_of_its_title(era, color, query, found):
    assert codes(era, color, query) == found


def test_only_cards_of_the_era_and_colour_are_offered():
    for era in ("lyceum", "university", "adult"):
        for color in ("green", "yellow", "red"):
            found = find_cards(sample_pack(), era, color, "")
            assert found and all(c.era == era and c.color == color for c in found)
    assert codes("university", "green", "L-G-01") == []  # a lyceum card in the university
    assert codes("lyceum", "yellow", "L-G-01") == []  # a green card in the yellow deck


def test_an_empty_query_lists_the_whole_deck_of_the_era_and_colour_in_pack_order():
    assert codes("lyceum", "green", "") == [f"L-G-0{i}" for i in range(1, 10)]
    assert codes("lyceum", "green", "   ") == codes("lyceum", "green", None)


def test_results_come_exact_code_first_then_title_prefix_then_substring():
    from facilitator.rules.lyceum import read_pack
    data = sample_pack().to_dict()
    data["cards"] = [
        {"code": "X-1", "era": "lyceum", "color": "green", "title": "Большой концерт", "gains": {"health": 1}},
        {"code": "X-2", "era": "lyceum", "color": "green", "title": "Концерт в актовом зале", "gains": {"health": 1}},
        {"code": "КОНЦЕРТ", "era": "lyceum", "color": "green", "title": "Репетиция", "gains": {"health": 1}},
        {"code": "X-3", "era": "lyceum", "color": "green", "title": "Концерт-2", "gains": {"health": 1}},
        {"code": "X-4", "era": "lyceum", "color": "green", "title": "Без совпадений", "gains": {"health": 1}},
    ]
    pack = read_pack(data)
    assert codes("lyceum", "green", "концерт", pack) == ["КОНЦЕРТ", "X-2", "X-3", "X-1"]


def test_era_or_colour_none_means_any():
    assert codes(None, None, "олимп") == ["L-G-01", "L-Y-03", "L-R-01"]
    assert codes(None, "green", "волонтер") == ["L-G-05", "U-G-08"]


def test_keys_compare_codes_and_titles_loosely():
    assert code_key(" l-g 01 ") == "LG01"
    assert title_key("  Ёлка   ВОЛОНТЁР ") == "елка волонтер"
