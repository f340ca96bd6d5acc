"""``facilitator replay`` for every game (RECORD.md of each game, "One app, several games"): a
record is handed to its ruleset by its ``format``; the standings of RECORD.md's examples come out
exactly; records of different games in one call, and unknown formats, are refused with one line."""

import json
from pathlib import Path

import pytest

from facilitator.cli import main

TESTS = Path(__file__).resolve().parent
AE = TESTS / "alterego" / "data"
NA = TESTS / "newangeles" / "data"


def call(capsys, *args):
    status = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return status, out, err


def save(folder, name, data):
    path = folder / name
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    return path


@pytest.mark.parametrize("record, standings", [
    (AE / "example-record.json", AE / "example-standings.json"),  # Alter Ego, RECORD.md §3–4
    (NA / "example_takeover.json", NA / "example_takeover_standings.json"),  # New Angeles, RECORD.md §5
    (NA / "example_rounds.json", NA / "example_rounds_standings.json"),  # New Angeles, RECORD.md §6
], ids=["alter-ego", "new-angeles-takeover", "new-angeles-rounds"])
def test_the_examples_replay_to_their_printed_standings(capsys, record, standings):
    status, out, err = call(capsys, "replay", record, "--json")
    assert (status, err) == (0, "")
    assert json.loads(out) == json.loads(standings.read_text(encoding="utf-8"))


def test_an_alter_ego_table_in_finnish_by_default(capsys):
    status, out, _ = call(capsys, "replay", AE / "example-record.json")
    assert status == 0
    assert out.splitlines()[0].startswith("Pöytä 2: kierros 2 (kevätväsymys), vuoro 4, Bertta")
    assert out.splitlines()[1].split() == ["Sija", "Pelaaja", "Vaikutusvalta", "Käsi", "Aktiivit"]


def test_a_new_angeles_table_in_english_by_default_and_swedish_on_request(capsys):
    status, out, _ = call(capsys, "replay", NA / "example_takeover.json")
    assert status == 0 and "Winners: Vera" in out
    status, out, _ = call(capsys, "replay", NA / "example_takeover.json", "--lang", "sv")
    assert status == 0 and "Vinnare: Vera" in out


def test_records_of_different_games_are_refused_together(capsys):
    status, out, err = call(capsys, "replay", AE / "example-record.json", NA / "example_rounds.json")
    assert (status, out) == (2, "")
    assert len(err.splitlines()) == 1 and "cannot be replayed with alterego-record/1 records" in err


def test_an_unknown_format_names_the_known_ones(capsys, tmp_path):
    path = save(tmp_path, "t.json", {"format": "x-record/1"})
    status, out, err = call(capsys, "replay", path)
    assert (status, out) == (2, "")
    assert err.strip() == (f'{path}: unknown format "x-record/1" '
                           f"(known: alterego-record/1, lyceum-record/1, newangeles-record/1)")


def test_an_alter_ego_record_breaking_a_rule_names_the_move_and_the_rule(capsys, tmp_path):
    """RECORD.md §4: a second activity onto Meira as move 11."""
    data = json.loads((AE / "example-record.json").read_text(encoding="utf-8"))
    data["moves"][10] = {"type": "play_activity", "player": "Bertta", "card": "htt_tyo", "target": "meira"}
    path = save(tmp_path, "poyta2.json", data)
    status, out, err = call(capsys, "replay", path)
    assert (status, out) == (2, "")
    assert err.strip() == f"{path}: move 11 (play_activity by Bertta): P6: meira already received an activity " \
                          "this turn (a10)"


def test_a_new_angeles_record_breaking_a_rule_names_the_move(capsys, tmp_path):
    data = json.loads((NA / "example_takeover.json").read_text(encoding="utf-8"))
    deal = data["moves"][2]  # deal 2: Vera, then Dmitri counter; Vera counters a second time
    deal["counteroffers"].append({"player": "Vera", "card": "Labor: Again"})
    path = save(tmp_path, "t2.json", data)
    status, out, err = call(capsys, "replay", path)
    assert (status, out) == (2, "")
    assert err.startswith(f"{path}: move 3 (deal by Boris): Vera countered twice")


def test_a_deep_or_huge_json_file_is_refused_with_one_line(capsys, tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000, encoding="utf-8")
    status, out, err = call(capsys, "replay", path)
    assert (status, out) == (2, "") and len(err.splitlines()) == 1 and "nested" in err


def _spoiled(record, change):
    data = json.loads(record.read_text(encoding="utf-8"))
    change(data["moves"])
    return data


MALFORMED_MOVES = [
    # (record, what is spoiled, the line after "<path>: "): RECORD.md §3 of each game, the move named
    # by its number (1-based), its type and player as given, then the field and why
    (AE / "example-record.json", lambda m: m[9].pop("target"), "move 10 (play_activity by Bertta): target is missing"),
    (AE / "example-record.json", lambda m: m[6].update(to="six"),
     "move 7 (react by Bertta): to must be a move number (1 or more), got 'six'"),
    (AE / "example-record.json", lambda m: m[7].update(type="sleep"),
     "move 8 (sleep by Aino): type: unknown move type 'sleep'; the types are "),
    (NA / "example_takeover.json", lambda m: m[2].pop("asset"), "move 3 (deal by Boris): asset is missing"),
    (NA / "example_takeover.json", lambda m: m[1].update(amount="2"),
     "move 2 (capital by Boris): amount must be a whole number, got '2'"),
    (NA / "example_takeover.json", lambda m: m[3].pop("reason"), "move 4 (threat): reason is missing"),
    (NA / "example_takeover.json", lambda m: m[7].update(capital=[2]), "move 8 (transfer by "),
    (NA / "example_takeover.json", lambda m: m[2]["support"][1].pop("cards"),
     "move 3 (deal by Boris): support[1].cards is missing"),
]


@pytest.mark.parametrize("record, change, line", MALFORMED_MOVES,
                         ids=[f"{r.parent.parent.name}-{i}" for i, (r, _c, _l) in enumerate(MALFORMED_MOVES)])
def test_a_malformed_move_is_named_by_number_type_and_player(capsys, tmp_path, record, change, line):
    path = save(tmp_path, "poyta2.json", _spoiled(record, change))
    status, out, err = call(capsys, "replay", path)
    assert (status, out) == (2, "")
    assert len(err.splitlines()) == 1 and err.startswith(f"{path}: {line}"), err
    assert "moves[" not in err
