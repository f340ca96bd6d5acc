"""The public API the app's ruleset registry calls: constants, ``Game.copy``, ``legal_moves``,
``MoveResult`` (codes and numbers, nothing hidden before finish), standings and the capital
ranking."""

import json

import facilitator.rules.newangeles as na
from facilitator.rules.newangeles import (Game, capital_ranking, read_record, replay, standings, table_standing)

from .helpers import (capital, deal, ended_by_threat, finish, load, make_game, meet_demand, reach, state, supply,
                      threat, unopposed)


def test_the_registry_constants():
    assert (na.RULESET, na.PACK_FORMAT, na.RECORD_FORMAT, na.STANDINGS_FORMAT) == (
        "new-angeles", "newangeles-pack/1", "newangeles-record/1", "newangeles-standings/1")
    for name in ("read_pack", "default_pack", "read_setup", "read_move", "Record", "read_record", "write_record",
                 "Game", "compute_deal", "replay", "table_standing", "standings", "capital_ranking", "ReplayError"):
        assert name in na.__all__ and hasattr(na, name)
    from facilitator.rules.lyceum.record import ReplayError
    assert na.ReplayError is ReplayError


def test_a_copy_is_independent_and_continues_like_the_original():
    """The app applies a new move to a copy of a cached game instead of replaying the record."""
    full = read_record(load("example_takeover.json"))
    data = load("example_takeover.json")
    data["moves"] = data["moves"][:10]
    original = replay(read_record(data))
    before = state(original)
    twin = original.copy()
    for move in full.moves[10:]:
        twin.apply(move)
    assert state(original) == before
    assert state(twin) == state(replay(full))


def test_a_copy_shares_nothing_that_moves_change():
    game = make_game()
    game.apply(deal("Anna", asset="A1"))
    twin = game.copy()
    twin.apply(capital("Anna", 5))
    twin.apply(supply(tech=2))
    twin.apply(deal("Boris", asset="A2", main={"emergency": "nbn"}))
    assert (game.players[0].capital, game.supply["tech"], game.players[1].assets, game.players[1].emergency) == (
        10, 0, [], "faceup")
    assert (len(game.moves), len(game.history), len(game.deals), game.holder) == (1, 1, 1, {"A1": "Anna"})


def test_legal_moves_for_a_deal_name_the_active_player_the_order_and_the_faceup_emergency_cards():
    game = make_game(first="Vera")
    game.apply(na.read_move({"type": "adjust", "reason": "x", "emergency": {"nbn": "facedown"}}))
    offer = game.legal_moves()[0]
    assert offer == {"type": "deal", "active": "Vera", "order": ["Dmitri", "Anna", "Boris"], "deal": 1, "of": 3,
                     "emergency": {"Anna": "jinteki", "Vera": "globalsec", "Dmitri": "haas-bioroid"},
                     "support_tie": "main"}
    assert [m["type"] for m in game.legal_moves()] == ["deal", "capital", "threat", "supply", "transfer", "adjust"]


def test_legal_moves_at_the_end_of_a_round_in_a_demand_round_and_at_the_end():
    game = make_game(assets=1)
    unopposed(game)
    end = game.legal_moves()[0]
    assert (end["type"], end["next_assets"], end["threat"], end["threat_max"]) == ("end_round", "unless_takeover",
                                                                                   12, 25)
    game = reach(make_game(), "D1")
    meet_demand(game)
    demand = game.legal_moves()[0]
    assert (demand["type"], demand["met"], demand["next_demand"]) == ("demand_round", True, "required")
    game = ended_by_threat(make_game(rivals={"Boris": "nbn"}))
    assert game.legal_moves() == [{"type": "finish", "required": ["Anna", "Vera", "Dmitri"], "sealed": ["Boris"]}]
    game.apply(finish(Anna="jinteki", Vera="federalist", Dmitri="globalsec"))
    assert game.legal_moves() == [] and game.next() is None


def test_a_move_result_is_codes_and_numbers():
    game = make_game()
    result = game.apply(deal("Anna", asset="A05", counters=["Boris"], support=[("Vera", "counter", 2)],
                             transfers=[{"from": "Anna", "to": "Vera", "capital": 2}]))
    assert (result.index, result.round, result.capital) == (0, {"slot": 1, "kind": "standard", "label": "S1"},
                                                           {"Anna": -2, "Vera": 2})
    assert [code for code, _ in result.events] == ["transfer", "deal_won", "asset_taken"]
    assert result.events[1] == ("deal_won", {"n": 1, "won_by": "counter", "winner": "Boris", "tie": False,
                                             "main": 0, "counter": 2, "overridden": False})
    json.dumps([result.events, result.deal, result.capital, result.assets, result.first_player])  # plain JSON


def test_no_move_result_names_a_rival_before_finish_d22():
    data = load("example_takeover.json")
    data["setup"]["players"][2]["rival"] = "federalist"  # sealed at setup
    game = replay(read_record(data))
    before_finish = game.history[:-1]
    for result in before_finish:
        text = json.dumps([result.events, result.deal, result.demand, result.outcome], default=str)
        assert "rival" not in text and "federalist" not in text
    assert game.history[-1].outcome["rivals"]["Vera"] == "federalist"
    assert game.history[-1].outcome["winners"] == ["Vera"]


def test_capital_ranking_lists_every_player_by_capital_ties_share_a_place():
    tables = standings([replay(read_record(load("example_rounds.json"))),
                        replay(read_record(load("example_takeover.json")))])["tables"]
    rows = capital_ranking(tables)
    assert [(r["name"], r["capital"], r["place"]) for r in rows] == [
        ("Anna", 31, 1), ("Boris", 30, 2), ("Vera", 30, 2), ("Vera", 25, 4), ("Dmitri", 18, 5), ("Boris", 14, 6),
        ("Anna", 10, 7), ("Dmitri", 8, 8)]
    assert rows[0] == {"table": "Table 5", "name": "Anna", "corp": "jinteki", "capital": 31, "won": True, "place": 1}
    assert [r["won"] for r in rows if r["table"] == "Table 2"] == [True, False, False, False]


def test_capital_ranking_before_finish_does_not_tell_who_won():
    game = make_game()
    assert {r["won"] for r in capital_ranking([table_standing(game)])} == {None}


def test_standings_have_no_team_or_individual_ranking():
    assert set(standings([make_game()])) == {"format", "tables"}


def test_a_game_from_a_setup_dict_and_an_empty_table_name():
    game = Game(na.default_pack(), {"setup": load("example_takeover.json")["setup"]})
    assert table_standing(game)["table"] == ""
    game.apply(threat(13))
    assert game.ended and not game.finished and game.ended_by == "threat"
