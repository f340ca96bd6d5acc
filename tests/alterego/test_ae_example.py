"""RECORD.md 4: the first three turns of a 2-player game, replayed move by move.

Each row of "What the engine does" is checked after its move: the temporary anxiety T of
the actives it names, the hand sizes, the activities placed or discarded and the choice
queued. At the end the standings are exactly RECORD.md 3's, and the variant "a second
activity onto Meira as move 11" is refused with the line RECORD.md quotes.
"""

import pytest

from facilitator.rules.alterego import (Game, ReplayError, read_record, replay, standings, table_standing,
                                        write_record)

from .helpers import example_record_data, example_standings

# move number -> (T after the move {active: T}, hands after {player: hand}, placed ids, discarded ids)
WHAT_THE_ENGINE_DOES = {
    1: ({}, {"Aino": 7}, [], []),
    2: ({}, {"Aino": 6}, [], []),
    3: ({}, {"Aino": 5}, ["a3"], []),
    4: ({}, {"Aino": 4}, ["a4"], []),
    5: ({"pare": 0}, {"Aino": 3}, ["a5"], []),
    6: ({"tommi": 2}, {"Aino": 2}, [], []),
    7: ({"tommi": 0}, {"Bertta": 4}, [], []),
    8: ({"pare": 0, "ville": 0, "meira": 1}, {"Aino": 2}, [], []),
    9: ({}, {"Bertta": 6}, [], []),
    10: ({"meira": 1}, {"Bertta": 5}, ["a10"], []),
    11: ({"tommi": 0}, {"Bertta": 4}, ["a11"], []),
    12: ({"imaami": 0, "niksu": 0, "pare": 0}, {"Bertta": 3}, [], []),
    13: ({"niksu": 1}, {"Aino": 1, "Bertta": 3}, [], []),
    14: ({"meira": 0, "niksu": 2}, {"Bertta": 3}, [], []),
    15: ({"niksu": 3, "tommi": 0, "imaami": 1}, {"Bertta": 3}, [], []),
    16: ({}, {"Aino": 5, "Bertta": 3}, [], ["a10"]),
    17: ({}, {"Aino": 5}, [], ["a4"]),
    18: ({}, {"Aino": 4}, ["a18"], []),
    19: ({"pare": 0, "ville": 0, "meira": 0}, {"Aino": 4, "Bertta": 3}, [], []),
}

# the anxiety the table names besides T: permanent P and A = T + P
PERMANENT = {5: {"pare": 1}, 10: {"meira": 1}, 11: {"tommi": 1}, 18: {"meira": 1}}


@pytest.fixture(scope="module")
def record():
    return read_record(example_record_data())


def test_the_example_record_is_read_and_written_back_unchanged(record):
    assert write_record(record) == example_record_data()


def test_every_move_does_what_the_table_says(record):
    game = Game(record.pack, record.setup, table=record.table)
    for number, move in enumerate(record.moves, start=1):
        result = game.apply(move)
        anxiety, hands, placed, discarded = WHAT_THE_ENGINE_DOES[number]
        for key, t in anxiety.items():
            assert game.state.actives[key].t == t, (number, key)
        for name, hand in hands.items():
            assert game.hands[name] == hand, (number, name)
        assert [p["id"] for p in result.placed] == placed, number
        assert [d["id"] for d in result.discarded] == discarded, number
        for key, perm in PERMANENT.get(number, {}).items():
            row = next(r for r in table_standing(game)["actives"] if r["key"] == key)
            assert row["anxiety_perm"] == perm, (number, key)


def test_move_4_is_a_second_activity_onto_ville_thanks_to_energiapuuska(record):
    game = Game(record.pack, record.setup)
    for move in record.moves[:4]:
        game.apply(move)
    assert [a.id for a in game.state.actives["ville"].acts] == ["a3", "a4"]


def test_move_8_meira_idle_gains_and_the_turn_passes_to_bertta(record):
    game = Game(record.pack, record.setup)
    for move in record.moves[:7]:
        game.apply(move)
    result = game.apply(record.moves[7])
    assert [(c["active"], c["outcome"]) for c in result.checks] == [
        ("pare", "no_change"), ("ville", "no_change"), ("meira", "idle_gain")]
    assert (game.turn, game.current, game.step) == (2, "Bertta", "draw")


def test_move_12_imaami_organizes_and_his_first_gain_is_one_smaller(record):
    game = Game(record.pack, record.setup)
    for move in record.moves[:11]:
        game.apply(move)
    result = game.apply(record.moves[11])
    gains = [e for e in result.events if e["code"] == "gain"]
    assert gains == [{"code": "gain", "active": "imaami", "amount": 1, "applied": 0, "cancelled": False,
                      "reduced": True, "cause": "bile", "anxiety_temp": 0}]
    assert next(e for e in result.events if e["code"] == "party")["guests"] == 1


def test_move_15_imaami_reduction_was_spent_at_move_12(record):
    game = Game(record.pack, record.setup)
    for move in record.moves[:14]:
        game.apply(move)
    result = game.apply(record.moves[14])
    assert [(c["active"], c["outcome"]) for c in result.checks] == [
        ("niksu", "idle_gain"), ("tommi", "no_change"), ("imaami", "idle_gain")]
    assert (game.state.actives["niksu"].t, game.state.actives["imaami"].t) == (3, 1)


def test_move_16_season_2_queues_villes_choice_and_discards_meiras_only_hobby(record):
    game = Game(record.pack, record.setup)
    for move in record.moves[:15]:
        game.apply(move)
    result = game.apply(record.moves[15])
    assert (game.season, game.season_key) == (2, "spring")
    assert result.queued == [{"choice": "discard_hobby", "player": "Aino", "active": "ville",
                              "options": ["a3", "a4"]}]
    assert game.next() == {"player": "Aino", "expects": "choose", "choice": result.queued[0]}


def test_the_standings_are_exactly_record_md_3(record):
    assert standings([replay(record)]) == example_standings()


def test_the_standings_survive_a_json_round_trip_of_the_record():
    import json
    data = json.loads(json.dumps(example_record_data(), ensure_ascii=False))
    assert standings([replay(read_record(data))]) == example_standings()


def test_a_second_activity_onto_meira_as_move_11_is_refused_with_the_quoted_line():
    data = example_record_data()
    data["moves"][10] = {"type": "play_activity", "player": "Bertta", "card": "htt_tyo", "target": "meira"}
    with pytest.raises(ReplayError) as info:
        replay(read_record(data))
    err = info.value
    assert (err.number, err.error.rule, err.error.code) == (11, "P6", "p6_once_per_turn")
    assert f"poyta2.json: {err}" == ("poyta2.json: move 11 (play_activity by Bertta): P6: meira already received "
                                     "an activity this turn (a10)")
