"""Game records (`newangeles-record/1`, RECORD.md §3): read, written back exactly, replayed, and
refused naming the field or the move."""

import copy
import json

import pytest

from facilitator.rules.newangeles import (RECORD_FORMAT, MalformedError, Record, ReplayError, SetupError, default_pack,
                                          read_record, read_setup, replay, write_record)

from .helpers import load, setup_data

EXAMPLES = ["example_takeover.json", "example_rounds.json"]


@pytest.mark.parametrize("name", EXAMPLES)
def test_a_record_writes_back_exactly_as_read(name):
    data = load(name)
    assert data["format"] == RECORD_FORMAT
    record = read_record(data)
    assert write_record(record) == data
    text = json.dumps(write_record(record), ensure_ascii=False)
    assert write_record(read_record(json.loads(text))) == data


def test_unknown_keys_and_odd_but_valid_setups_are_kept():
    data = load("example_takeover.json")
    data["event"] = {"name": "Club night", "round": 2}
    data["setup"]["players"][0]["rival"] = None  # an explicit null: no sealed rival
    data["setup"]["supply"] = {"tech": 0}
    data["moves"][0]["at"] = "2024-05-04T14:00:00+03:00"
    record = read_record(data)
    assert record.extra == {"event": {"name": "Club night", "round": 2}}
    assert write_record(record) == data


def test_a_record_built_in_code_writes_its_pack_inline():
    record = Record(table="Table 9", pack=default_pack(), setup=read_setup(setup_data()), moves=[])
    data = write_record(record)
    assert data["content"] == default_pack().to_dict()
    assert data["setup"] == setup_data()["setup"]
    assert write_record(read_record(data)) == data


@pytest.mark.parametrize("mutate, path", [
    (lambda d: d.update(format="lyceum-record/1"), "format"),
    (lambda d: d.pop("table"), "table"),
    (lambda d: d.pop("content"), "content"),
    (lambda d: d["content"].update(format="lyceum-pack/1"), "content.format"),
    (lambda d: d["content"]["demand_cards"][0].update(threat=-6), "content.demand_cards[0].threat"),
    (lambda d: d.pop("setup"), "setup"),
    (lambda d: d["setup"].update(assets="three"), "setup.assets"),
    (lambda d: d.update(moves={}), "moves"),
    (lambda d: d["moves"][4].pop("main"), "moves[4].main"),
    (lambda d: d["moves"][1].update(reason="salary"), "moves[1].reason"),
])
def test_a_malformed_record_names_the_field(mutate, path):
    data = load("example_takeover.json")
    mutate(data)
    with pytest.raises(MalformedError) as err:
        read_record(data)
    assert err.value.path == path


def test_a_bad_inline_pack_names_its_first_problem_and_counts_the_rest():
    data = load("example_takeover.json")
    data["content"]["demand_cards"][0]["threat"] = -6
    data["content"]["rules"]["threat_max"] = 0
    with pytest.raises(MalformedError) as err:
        read_record(data)
    assert str(err.value) == "content.rules.threat_max: must be at least 1, got 0 (and 1 more)"


def test_replay_refuses_the_first_illegal_move_with_its_number():
    data = load("example_takeover.json")
    data["moves"][10]["active"] = "Vera"  # deal 5 belongs to Anna
    record = read_record(data)
    with pytest.raises(ReplayError) as err:
        replay(record)
    assert (err.value.number, err.value.move is record.moves[10]) == (11, True)
    assert (err.value.error.rule, err.value.error.code) == ("D21", "wrong_active")
    assert str(err.value) == "move 11 (deal by Vera): wrong active player: expected Anna"


def test_replay_refuses_a_bad_setup_with_a_setup_error():
    data = load("example_takeover.json")
    data["setup"]["first_player"] = "Olga"
    with pytest.raises(SetupError, match="first player Olga is not at the table"):
        replay(read_record(data))


def test_a_record_may_stop_anywhere_before_finish():
    data = load("example_rounds.json")
    for cut in (0, 1, 9, 27):
        partial = copy.deepcopy(data)
        partial["moves"] = partial["moves"][:cut]
        game = replay(read_record(partial))
        assert (len(game.moves), game.finished) == (cut, False)
