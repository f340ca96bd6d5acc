"""RULES.md §1 Pieces: what the tracker keeps for each piece, and the tracks' ranges.

The default table (helpers): Anna jinteki, Boris nbn, Vera globalsec, Dmitri haas-bioroid,
capital 10 each, threat 12, demand card DM2.
"""

import pytest

from facilitator.rules.newangeles import CORPORATION_KEYS, FEDERALIST, default_pack, table_standing

from .helpers import (DM2, NAMES, capital, deal, finish, make_game, refused, row, supply, threat,
                      transfer)


def test_the_six_corporations_have_the_keys_of_section_1():
    assert CORPORATION_KEYS == ("haas-bioroid", "jinteki", "nbn", "weyland", "melange", "globalsec")
    names = {c.key: c.name for c in default_pack().corporations}
    assert names == {"haas-bioroid": "Haas-Bioroid", "jinteki": "Jinteki", "nbn": "NBN",
                     "weyland": "Weyland Consortium", "melange": "Melange Mining Corp.", "globalsec": "Globalsec"}


def test_seven_rival_cards_one_per_corporation_and_the_federalist():
    rivals = [c.rival for c in default_pack().rival_cards]
    assert sorted(rivals) == sorted(CORPORATION_KEYS + (FEDERALIST,))


def test_every_player_starts_with_his_corp_capital_and_a_faceup_emergency_card():
    game = make_game(capital={"Anna": 3, "Boris": 0, "Vera": 10, "Dmitri": 7})
    rows = table_standing(game)["players"]
    assert [(r["name"], r["corp"], r["capital"], r["emergency"], r["assets"], r["investments"]) for r in rows] == [
        ("Anna", "jinteki", 3, "faceup", [], []), ("Boris", "nbn", 0, "faceup", [], []),
        ("Vera", "globalsec", 10, "faceup", [], []), ("Dmitri", "haas-bioroid", 7, "faceup", [], [])]


def test_capital_never_goes_below_0():
    game = make_game(capital=2)
    game.apply(capital("Anna", -2))
    assert row(game, "Anna")["capital"] == 0
    refused(game, capital("Anna", -1), "D10", "capital_negative")


def test_threat_runs_from_0_to_25_and_25_ends_the_game():
    game = make_game(threat=0)
    refused(game, threat(-1), "D11", "threat_negative")
    game.apply(threat(24))
    assert (game.threat, game.ended_by) == (24, None)
    game.apply(threat(1))
    assert (game.threat, game.ended_by) == (25, "threat")


def test_one_supply_track_per_resource_of_the_pack_with_the_demand_cards_targets():
    game = make_game()
    standing = table_standing(game)
    assert standing["supply"] == {"energy": 0, "entertainment": 0, "tech": 0, "consumables": 0, "materials": 0}
    assert standing["demand"] == {"card": "DM2", "threat": 6, "targets": DM2}
    game.apply(supply(energy=2))
    refused(game, supply(tech=-1), "D11", "supply_negative")
    assert table_standing(game)["supply"]["energy"] == 2


def test_an_asset_card_is_held_by_the_player_who_won_its_deal_then_by_whoever_receives_it():
    game = make_game()
    game.apply(deal("Anna", asset="A05", counters=["Boris"], support=[("Vera", "counter", 1)]))
    assert row(game, "Boris")["assets"] == ["A05"]
    game.apply(transfer("Boris", "Dmitri", assets=["A05"]))
    assert row(game, "Boris")["assets"] == [] and row(game, "Dmitri")["assets"] == ["A05"]
    assert game.holder == {"A05": "Dmitri"}


def test_the_emergency_card_is_faceup_until_it_wins_a_deal():
    game = make_game()
    game.apply(deal("Anna", main={"emergency": "jinteki"}))
    assert row(game, "Anna")["emergency"] == "facedown"


def test_the_round_track_has_nine_slots_and_the_first_player_token_starts_with_the_first_player():
    game = make_game(first="Vera")
    standing = table_standing(game)
    assert standing["round"] == {"slot": 1, "kind": "standard", "label": "S1"}
    assert standing["first_player"] == "Vera"
    assert standing["assets_left"] == 3


@pytest.mark.parametrize("name", NAMES)
def test_rivals_are_sealed_and_nothing_shows_them_before_finish(name):
    game = make_game(rivals={"Anna": "nbn", "Boris": "haas-bioroid", "Vera": "federalist", "Dmitri": "jinteki"})
    r = row(game, name)
    assert (r["rival"], r["rival_player"], r["result"]) == (None, None, None)
    game.apply(threat(13))
    game.apply(finish())
    assert row(game, name)["rival"] is not None
