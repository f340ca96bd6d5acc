"""RULES.md 5. Several tables: each table is a team scored by its players' final XP; ranked by the
sum when every table has the same number of players, else by the average per player; equal
scores share the place; an individual ranking across all tables uses final XP the same way."""

import pytest

from facilitator.rules import places
from facilitator.rules.lyceum import standings

from .helpers import (FINISH, NAMES, allocate_all, default_players, give, make_game, player,
                      reach_finish, set_skills)


def table(name, xps):
    """A finished game at table ``name`` whose players end with these XP (in turn order)."""
    game = make_game(count=len(xps), table=name)
    reach_finish(game)
    for player_name, xp in zip(game.order, xps):
        if xp:
            give(game, player_name, xp=xp)
    allocate_all(game)
    game.apply(FINISH)
    return game


@pytest.mark.parametrize("scores, expected", [
    ([900, 700, 700, 500], [1, 2, 2, 4]),
    ([500, 500, 300], [1, 1, 3]),
    ([300, 500, 500], [3, 1, 1]),
    ([100, 100, 100, 100], [1, 1, 1, 1]),
    ([0, 200, 100], [3, 1, 2]),
])
def test_equal_scores_share_the_place(scores, expected):
    assert places(scores) == expected


def test_tables_of_equal_size_are_ranked_by_total_final_xp():
    result = standings([table("Стол 1", [300, 300, 300]), table("Стол 2", [1000, 0, 0]),
                        table("Стол 3", [500, 200, 100])])
    assert [(t["table"], t["total_xp"], t["place"], t["ranked_by"]) for t in result["teams"]] == [
        ("Стол 2", 1000, 1, "total"), ("Стол 1", 900, 2, "total"), ("Стол 3", 800, 3, "total")]


def test_tables_of_mixed_sizes_are_ranked_by_average_final_xp():
    three = table("Стол 1", [300, 300, 300])      # total 900, average 300
    four = table("Стол 2", [400, 300, 200, 100])   # total 1000, average 250
    result = standings([four, three])
    teams = [(t["table"], t["players"], t["average_xp"], t["place"], t["ranked_by"]) for t in result["teams"]]
    assert teams == [("Стол 1", 3, 300.0, 1, "average"), ("Стол 2", 4, 250.0, 2, "average")]


def test_tables_with_equal_scores_share_the_place():
    result = standings([table("Стол 1", [600, 0, 0]), table("Стол 2", [200, 200, 200]),
                        table("Стол 3", [100, 100, 100])])
    assert sorted((t["table"], t["place"]) for t in result["teams"]) == [
        ("Стол 1", 1), ("Стол 2", 1), ("Стол 3", 3)]


def test_equal_averages_share_the_place_across_sizes():
    result = standings([table("Стол 1", [300, 300, 300]), table("Стол 2", [600, 600, 0, 0]),
                        table("Стол 3", [100, 100, 100, 100])])
    assert sorted((t["table"], t["place"]) for t in result["teams"]) == [
        ("Стол 1", 1), ("Стол 2", 1), ("Стол 3", 3)]


def test_the_individual_ranking_spans_every_table():
    result = standings([table("Стол 1", [700, 300, 0]), table("Стол 2", [300, 500, 100, 0])])
    ranking = [(r["table"], r["name"], r["final_xp"], r["place"]) for r in result["individuals"]]
    first, second = result["tables"][0]["players"], result["tables"][1]["players"]
    assert ranking == [
        ("Стол 1", first[0]["name"], 700, 1),
        ("Стол 2", second[1]["name"], 500, 2),
        ("Стол 1", first[1]["name"], 300, 3),
        ("Стол 2", second[0]["name"], 300, 3),
        ("Стол 2", second[2]["name"], 100, 5),
        ("Стол 1", first[2]["name"], 0, 6),
        ("Стол 2", second[3]["name"], 0, 6),
    ]
    assert {n for _, n, _, _ in ranking} == set(NAMES)  # the same names at both tables, kept apart


def test_the_team_score_counts_the_bonus():
    image = {"health": 7, "intellect": 7, "creativity": 7, "communication": 7, "energy": 7}
    game = make_game(players=[player("Аня", "C1", declaration=image)] + default_players(3)[1:])
    reach_finish(game)
    set_skills(game, "Аня", **image)
    game.apply(FINISH)
    assert standings([game])["teams"][0]["total_xp"] == 300
