"""Standings (`newangeles-standings/1`, RECORD.md §4) from the complete examples, replayed EXACTLY: RECORD.md §5 (four
players, takeover in D1, the Federalist wins), with the intermediate states described after it,
and a whole game of all nine slots ending by rounds whose outcome is RECORD.md §6's."""

import copy

import pytest

from facilitator.rules.newangeles import read_record, replay, standings

from .helpers import load


def _replay(name, moves=None):
    data = load(name)
    if moves is not None:
        data["moves"] = data["moves"][:moves]
    return replay(read_record(data))


def _expected(name):
    return load(name)


def test_the_section_5_example_replays_to_its_printed_standings():
    assert standings([_replay("example_takeover.json")]) == _expected("example_takeover_standings.json")


def test_the_standings_keys_are_in_the_printed_order():
    expected = _expected("example_takeover_standings.json")["tables"][0]
    got = standings([_replay("example_takeover.json")])["tables"][0]
    assert list(got) == list(expected)
    assert list(got["demand"]) == list(expected["demand"])
    assert [list(d) for d in got["deals"]] == [list(d) for d in expected["deals"]]
    assert [list(p) for p in got["players"]] == [list(p) for p in expected["players"]]
    assert list(got["demand_history"][0]) == list(expected["demand_history"][0])


def test_before_move_16_the_table_is_not_finished_and_hides_every_rival():
    """RECORD.md §5: ``"finished": false``, every rival and result null, no winners or losers, and
    ``next`` is ``{"expects": "finish"}``."""
    expected = copy.deepcopy(_expected("example_takeover_standings.json"))
    table = expected["tables"][0]
    table.update(finished=False, winners=[], losers=[], next={"expects": "finish"})
    for p in table["players"]:
        p.update(rival=None, rival_player=None, result=None)
    assert standings([_replay("example_takeover.json", 15)]) == expected


def test_before_move_15_no_investment_is_shown_and_d1_is_expected():
    """RECORD.md §5: the investments are empty and ``next`` is ``{"expects": "demand_round"}``; the
    rest is the position after move 14 (threat 19, capital before the investments)."""
    expected = copy.deepcopy(_expected("example_takeover_standings.json"))
    table = expected["tables"][0]
    table.update(finished=False, winners=[], losers=[], next={"expects": "demand_round"}, ended_by=None,
                 government_takeover=False, threat=19, demand_history=[])
    before = {"Anna": 7, "Boris": 12, "Vera": 20, "Dmitri": 7}
    for p in table["players"]:
        p.update(rival=None, rival_player=None, result=None, investments=[], capital=before[p["name"]])
    assert standings([_replay("example_takeover.json", 14)]) == expected


@pytest.mark.parametrize("moves, threat, capital", [
    (1, 12, {"Anna": 8, "Boris": 10, "Vera": 12, "Dmitri": 10}),  # 1. the bribe
    (2, 12, {"Anna": 8, "Boris": 12, "Vera": 12, "Dmitri": 10}),  # 2. Boris's contract
    (4, 14, None),  # 4. threat goes to 14
    (6, 14, {"Anna": 8, "Boris": 12, "Vera": 17, "Dmitri": 10}),  # 6. Vera's contract
    (7, 17, None),  # 7. end of S1
    (8, 17, {"Anna": 8, "Boris": 12, "Vera": 20, "Dmitri": 7}),  # 8. the transfer
    (12, 17, {"Anna": 7, "Boris": 12, "Vera": 20, "Dmitri": 7}),  # 12. Anna drops to 7
    (14, 19, None),  # 14. end of S2
    (15, 25, {"Anna": 10, "Boris": 14, "Vera": 25, "Dmitri": 8}),  # 15. D1: takeover
])
def test_the_moves_play_out_as_section_5_narrates(moves, threat, capital):
    game = _replay("example_takeover.json", moves)
    assert game.threat == threat
    if capital:
        assert {p.name: p.capital for p in game.players} == capital


def test_section_5_supply_after_each_end_of_round():
    after_s1 = _replay("example_takeover.json", 7).supply
    assert after_s1 == {"energy": 2, "entertainment": 1, "tech": 2, "consumables": 1, "materials": 0}
    after_s2 = _replay("example_takeover.json", 14)
    assert after_s2.supply == {"energy": 4, "entertainment": 3, "tech": 2, "consumables": 3, "materials": 1}
    assert after_s2.next() == {"expects": "demand_round"} and after_s2.assets_left == 4


def test_the_game_ending_by_rounds_replays_to_its_standings():
    assert standings([_replay("example_rounds.json")]) == _expected("example_rounds_standings.json")


def test_the_game_ending_by_rounds_has_the_outcome_of_section_6():
    table = standings([_replay("example_rounds.json")])["tables"][0]
    assert (table["ended_by"], table["government_takeover"], table["threat"]) == ("rounds", False, 22)
    rows = [(p["name"], p["corp"], p["capital"], p["rival"], p["rival_player"], p["result"]) for p in table["players"]]
    assert rows == [("Anna", "jinteki", 31, "globalsec", "Vera", "won"),
                    ("Boris", "nbn", 30, "nbn", "Boris", "lost"),
                    ("Vera", "globalsec", 30, "federalist", None, "lost"),
                    ("Dmitri", "haas-bioroid", 18, "jinteki", "Anna", "lost")]
    assert (table["winners"], table["losers"]) == (["Anna"], ["Boris", "Vera", "Dmitri"])
    assert [d["round"] for d in table["demand_history"]] == ["D1", "D2", "D3"]
    assert sorted({d["round"] for d in table["deals"]}) == ["S1", "S2", "S3", "S4", "S5", "S6"]


def test_both_examples_in_one_event_keep_their_order():
    games = [_replay("example_rounds.json"), _replay("example_takeover.json")]
    assert [t["table"] for t in standings(games)["tables"]] == ["Table 5", "Table 2"]
