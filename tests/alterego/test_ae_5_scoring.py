"""RULES.md 5 and RECORD.md 3: influence, places with shared ties, and the standings document."""

import pytest

from facilitator.rules.alterego import (MalformedError, STANDINGS_FORMAT, standings, table_ranking,
                                        table_standing)

from .helpers import adjust, give, player_row, row, set_t, three, two

# Ville's activities -> (B, influence) with T making him burned out or not (Ville: BO 5)
INFLUENCE = [
    ([], 0, 0, 0),
    (["pelikampanja"], 0, 3, 3),  # 2 + 1 (his campaign)
    (["pelikampanja", "hype_kampanja", "jarjestoaktiivi"], 0, 2 + 3 + 1 + 2, 8),
    (["pelikampanja", "hype_kampanja", "jarjestoaktiivi"], 4, 8, 4),  # A 5 ≥ BO: halved
    (["pelikampanja", "jarjestoaktiivi"], 4, 4, 2),
    (["hype_kampanja", "htt_tyo"], 4, 5, 2),  # A = 4 + P 1 = BO: ⌊5 / 2⌋
    (["hype_kampanja", "htt_tyo"], 3, 5, 5),  # A = 3 + 1 < BO
    (["hype_kampanja", "tyo_maalla"], 0, 0, 0),  # out of force
]


@pytest.mark.parametrize("held, t, base, influence", INFLUENCE)
def test_influence_is_b_or_half_of_it_while_burned_out(held, t, base, influence):
    game = two()
    for card in held:
        give(game, "ville", card)
    set_t(game, "ville", t)
    r = row(game, "ville")
    assert (r["influence_base"], r["influence"]) == (base, influence)


def test_meiras_unused_free_time_counts_and_an_away_active_scores():
    game = two()
    give(game, "meira", "hype_kampanja")
    game.apply(adjust({"active": "meira", "away": True}))
    assert row(game, "meira")["influence"] == 3 + 3
    assert player_row(game, "Aino")["influence"] == 6


def test_a_players_influence_is_the_sum_over_the_faction_live():
    game = two()
    give(game, "pare", "htt_tyo")
    give(game, "niksu", "hype_kampanja")
    assert [player_row(game, n)["influence"] for n in ("Aino", "Bertta")] == [1 + 4, 3]
    game.apply(adjust({"active": "niksu", "owner": "Aino"}))
    assert [player_row(game, n)["influence"] for n in ("Aino", "Bertta")] == [8, 0]


@pytest.mark.parametrize("gifts, places", [
    ({}, [1, 2, 2]),
    ({"tommi": ["hype_kampanja", "jarjestoaktiivi"]}, [1, 1, 3]),
    ({"tommi": ["hype_kampanja", "jarjestoaktiivi"], "tane": ["pelikampanja", "pelikampanja"]}, [1, 1, 1]),
    ({"tane": ["hype_kampanja", "hype_kampanja"]}, [2, 3, 1]),
])
def test_equal_influence_shares_the_place(gifts, places):
    game = three()
    for key, cards in gifts.items():
        for card in cards:
            give(game, key, card)
    assert [p["place"] for p in table_standing(game)["players"]] == places


def test_the_standings_keys_are_exactly_record_md_3s_in_order():
    s = standings([two()])
    assert list(s) == ["format", "ruleset", "tables"] and s["format"] == STANDINGS_FORMAT
    t = s["tables"][0]
    assert list(t) == ["table", "finished", "ended_by", "season", "season_key", "turn", "current", "step", "next",
                       "pending", "active_deck", "players", "actives"]
    assert list(t["players"][0]) == ["name", "hand", "actives", "influence", "place"]
    assert list(t["actives"][0]) == ["key", "owner", "va", "bo", "anxiety_temp", "anxiety_perm", "anxiety",
                                     "burned_out", "away", "free_time_unused", "activities", "influence_base",
                                     "influence"]
    game = two()
    give(game, "pare", "tyo")
    assert list(table_standing(game)["actives"][0]["activities"][0]) == ["id", "card", "paused", "in_force", "season"]


def test_several_tables_keep_their_order_and_names_are_unique():
    """Decision 49."""
    a, b = two(), three()
    a.table, b.table = "Pöytä 2", "Pöytä 1"
    assert [t["table"] for t in standings([a, b])["tables"]] == ["Pöytä 2", "Pöytä 1"]
    b.table = "Pöytä 2"
    with pytest.raises(MalformedError) as info:
        standings([a, b])
    assert info.value.path == "tables[1].table"


def test_each_table_is_ranked_on_its_own_with_no_place_across_tables():
    """RULES.md 5: no team score and no ranking across tables; equal influence shares the place
    at its own table (turn order within a place)."""
    a, b = two(), three()
    a.table, b.table = "Pöytä 1", "Pöytä 2"
    give(b, "kalle", "hype_kampanja")
    give(b, "kalle", "jarjestoaktiivi")  # Cecilia 4, like both Ainos
    rows = table_ranking(standings([a, b])["tables"])
    assert rows == [
        {"table": "Pöytä 1", "name": "Aino", "influence": 4, "place": 1},
        {"table": "Pöytä 1", "name": "Bertta", "influence": 0, "place": 2},
        {"table": "Pöytä 2", "name": "Aino", "influence": 4, "place": 1},
        {"table": "Pöytä 2", "name": "Cecilia", "influence": 4, "place": 1},
        {"table": "Pöytä 2", "name": "Bertta", "influence": 0, "place": 3},
    ]
