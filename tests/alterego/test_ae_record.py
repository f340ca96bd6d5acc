"""RECORD.md 2 and 0: game records (`alterego-record/1`): read, written back exactly, replayed;
refusals name the field, the move or the setup."""

import copy
import json

import pytest

from facilitator.rules.alterego import (RECORD_FORMAT, RULESET, MalformedError, Record, ReplayError, SetupError,
                                        default_pack, read_record, read_setup, replay, standings, write_record)
from facilitator.rules.lyceum.record import ReplayError as SharedReplayError

from .helpers import example_record_data, example_standings


def test_the_format_and_ruleset():
    data = example_record_data()
    assert (data["format"], data["ruleset"]) == (RECORD_FORMAT, RULESET) == ("alterego-record/1", "alter-ego-3")


def test_write_read_is_exact_with_unknown_keys_at_and_note_kept():
    data = example_record_data()
    data["event"] = {"name": "Ropecon 2024"}
    data["players"][0]["seat"] = "ikkuna"
    data["moves"][0]["at"] = "2024-07-26T18:00:00+03:00"
    data["moves"][1]["note"] = "ensimmäinen kortti"
    record = read_record(copy.deepcopy(data))
    assert write_record(record) == data
    assert json.dumps(write_record(record), ensure_ascii=False) == json.dumps(data, ensure_ascii=False)


def test_an_unknown_key_on_a_move_is_ignored_and_not_written_back():
    """RECORD.md 2: readers ignore any other unknown key on a move (and so do not keep it)."""
    data = example_record_data()
    spoiled = copy.deepcopy(data)
    spoiled["moves"][2]["tablet"] = "x" * 100_000
    assert write_record(read_record(spoiled)) == data


def test_a_record_built_in_code_writes_the_canonical_form():
    record = read_record(example_record_data())
    built = Record(table=record.table, pack=default_pack(), setup=record.setup, moves=record.moves)
    assert write_record(built) == example_record_data()


def test_the_replay_error_is_the_shared_one_and_names_the_move():
    data = example_record_data()
    data["moves"][2]["target"] = "kalle"
    with pytest.raises(SharedReplayError) as info:
        replay(read_record(data))
    assert ReplayError is SharedReplayError
    err = info.value
    assert (err.number, err.move.type, err.error.rule, err.error.code) == (3, "play_activity", "P2", "p2_not_in_game")
    assert str(err) == "move 3 (play_activity by Aino): P2: kalle is not in the game"


def test_a_malformed_move_in_replay_names_the_move_too():
    data = example_record_data()
    data["moves"][1]["card"] = "tanssi"
    with pytest.raises(ReplayError) as info:
        replay(read_record(data))
    assert info.value.number == 2 and isinstance(info.value.error, MalformedError)
    assert str(info.value) == "move 2 (play_event by Aino): unknown card 'tanssi': the pack has no such card"


REFUSALS = [
    ("another game's format", lambda d: d.update(format="lyceum-record/1"), "format"),
    ("an unknown ruleset", lambda d: d.update(ruleset="alter-ego-2"), "ruleset"),
    ("a record's ruleset differs from its pack's", lambda d: d["content"].update(ruleset="alter-ego-4"),
     "content.ruleset"),
    ("a table name that is no text", lambda d: d.update(table=2), "table"),
    ("no inline pack", lambda d: d.pop("content"), "content"),
    ("a refused inline pack", lambda d: d["content"]["cards"][12].update(count="5"), "content.cards[12].count"),
    ("moves that are no list", lambda d: d.update(moves={}), "moves"),
    ("a malformed move", lambda d: d["moves"][3].update(type="pass"), "moves[3].type"),
]


@pytest.mark.parametrize("name, change, path", REFUSALS, ids=[r[0] for r in REFUSALS])
def test_a_malformed_record_is_refused_naming_the_field(name, change, path):
    data = example_record_data()
    change(data)
    with pytest.raises(MalformedError) as info:
        read_record(data)
    assert info.value.path == path, str(info.value)


def test_a_refused_inline_pack_says_how_many_problems_more():
    data = example_record_data()
    data["content"]["cards"][12]["count"] = "5"
    data["content"]["cards"][13]["count"] = 0
    with pytest.raises(MalformedError) as info:
        read_record(data)
    assert str(info.value) == ("content.cards[12].count: card bile: count: must be a whole number, got '5' "
                               "(and 1 more)")


@pytest.mark.parametrize("change, code", [
    (lambda d: d["players"][1].update(actives=["niksu", "tommi", "pare"]), "active_taken"),
    (lambda d: d.update(first="Cecilia"), "first_unknown"),
    (lambda d: d["players"][1].update(actives=["niksu", "tommi", "elvis"]), "active_unknown"),
    (lambda d: d.update(players=d["players"][:1]), "player_count"),
])
def test_a_bad_setup_is_refused_before_any_move_is_read(change, code):
    data = example_record_data()
    change(data)
    data["moves"] = [{"type": "not a move"}]
    with pytest.raises(SetupError) as info:
        read_record(data)
    assert info.value.code == code


def test_replay_refuses_a_bad_setup_built_in_code():
    record = read_record(example_record_data())
    record.setup = read_setup({"players": [{"name": "Aino", "actives": ["pare", "ville", "elvis"]},
                                           {"name": "Bertta", "actives": ["niksu", "tommi", "imaami"]}],
                               "first": "Aino"})
    with pytest.raises(SetupError):
        replay(record)


def test_replay_keeps_the_state_before_the_last_trigger_for_a_reaction_to_come():
    data = example_record_data()
    data["moves"] = data["moves"][:6]  # ends with Hahmo kuolee on Tommi
    game = replay(read_record(data))
    from facilitator.rules.alterego import read_move
    game.apply(read_move({"type": "react", "player": "Bertta", "card": "taktinen_teko", "to": 6, "target": "tommi"}))
    assert game.state.actives["tommi"].t == 0


def test_a_game_reacting_to_a_trigger_whose_state_was_not_kept_rebuilds_it():
    """``replay`` keeps the state before a trigger only if a reaction follows; a game that was
    not told (``_apply_fast(move, False)``) rebuilds it when a reaction comes."""
    from facilitator.rules.alterego import Game, read_move
    record = read_record(example_record_data())
    game = Game(record.pack, record.setup)
    for move in record.moves[:6]:
        game._apply_fast(move, False)
    game.apply(read_move({"type": "react", "player": "Bertta", "card": "taktinen_teko", "to": 6, "target": "tommi"}))
    fresh = replay(read_record(dict(example_record_data(), moves=example_record_data()["moves"][:7])))
    assert game.state.key() == fresh.state.key()


def test_replays_of_the_same_record_agree():
    record = read_record(example_record_data())
    assert standings([replay(record)]) == standings([replay(record)]) == example_standings()
