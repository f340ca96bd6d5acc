"""RULES.md §10 Move types: every move reads and writes back exactly (``at``, ``note`` and unknown
keys kept), names its player for error lines, and malformed input is refused naming the field."""

import pytest

from facilitator.rules.newangeles import MOVE_TYPES, MalformedError, Move, Offer, Transfer, read_move

from .helpers import load

RECORDS = [load("example_takeover.json"), load("example_rounds.json")]
EXAMPLE_MOVES = [m for r in RECORDS for m in r["moves"]]

MORE = [
    {"type": "deal", "active": "Anna", "asset": "A01", "main": {"card": "X", "colour": "red"},
     "counteroffers": [{"player": "Boris", "emergency": "nbn", "said": "loudly"}],
     "support": [{"player": "Vera", "offer": "counter", "cards": 2, "whisper": True}],
     "extra": {"main": 0, "counter": -1}, "extra_reason": "card", "transfers": [],
     "winner": "main", "override_reason": "asset", "at": "2024-01-01T10:00:00Z", "note": "loud", "future": [1]},
    {"type": "deal", "active": "Anna", "asset": "A01", "main": {"card": "X"}, "counteroffers": [], "support": [],
     "winner": None, "extra": None},
    {"type": "end_round", "production": {"tech": 0}, "event_threat": 0, "note": None},
    {"type": "demand_round", "investments": [{"player": "Anna", "card": "I1", "capital": 0, "why": "x"}],
     "next_demand": {"code": "DX", "threat": 2, "targets": {"tech": 1}, "art": "y"}},
    {"type": "capital", "player": "Anna", "amount": -3, "reason": "other", "at": "2024-01-01T10:00:00Z"},
    {"type": "threat", "amount": 1, "reason": "asset", "by": "Vera"},
    {"type": "supply", "changes": {"tech": 1, "energy": 0}, "reason": "event"},
    {"type": "transfer", "from": "Anna", "to": "Boris"},
    {"type": "transfer", "from": "Anna", "to": "Boris", "capital": 0, "assets": ["A1"], "note": "n", "x": 1},
    {"type": "adjust", "reason": "fix", "assets_left": -1, "first_player": "Vera",
     "emergency": {"nbn": "facedown"}, "remove_assets": {"Anna": ["A1", "A2"]}},
    {"type": "adjust", "reason": "only noted"},
    {"type": "finish"},
    {"type": "finish", "rivals": {}, "at": "2024-01-01T12:00:00Z"},
]


@pytest.mark.parametrize("data", EXAMPLE_MOVES + MORE)
def test_a_move_writes_back_exactly_as_read(data):
    assert read_move(data).to_dict() == data


def test_every_move_type_is_covered():
    assert {m["type"] for m in EXAMPLE_MOVES + MORE} == set(MOVE_TYPES)


@pytest.mark.parametrize("data, player, described", [
    ({"type": "deal", "active": "Dmitri", "asset": "A", "main": {"card": "X"}, "counteroffers": [],
      "support": []}, "Dmitri", "deal by Dmitri"),
    ({"type": "end_round", "production": {}}, None, "end_round"),
    ({"type": "demand_round", "investments": []}, None, "demand_round"),
    ({"type": "capital", "player": "Boris", "amount": 1, "reason": "contract"}, "Boris", "capital by Boris"),
    ({"type": "threat", "amount": 1, "reason": "event"}, None, "threat"),
    ({"type": "supply", "changes": {"tech": 1}, "reason": "event"}, None, "supply"),
    ({"type": "transfer", "from": "Vera", "to": "Anna", "capital": 1}, "Vera", "transfer by Vera"),
    ({"type": "adjust", "reason": "x"}, None, "adjust"),
    ({"type": "finish"}, None, "finish"),
])
def test_a_move_names_its_player_for_error_lines(data, player, described):
    move = read_move(data)
    assert (move.type, move.player, move.describe()) == (data["type"], player, described)


def test_moves_built_in_code_know_their_player_and_write_the_record_form():
    deal = Move("deal", active="Anna", asset="A1", main=Offer(card="X"), counteroffers=(), support=())
    assert deal.player == "Anna"
    assert deal.to_dict() == {"type": "deal", "active": "Anna", "asset": "A1", "main": {"card": "X"},
                              "counteroffers": [], "support": []}
    give = Move("transfer", transfer=Transfer("Vera", "Anna", 2))
    assert (give.player, give.to_dict()) == ("Vera", {"type": "transfer", "from": "Vera", "to": "Anna", "capital": 2})


DEAL = {"type": "deal", "active": "Anna", "asset": "A1", "main": {"card": "X"}, "counteroffers": [], "support": []}

MALFORMED = [
    ({"type": "bribe"}, "move.type"),
    ({"active": "Anna"}, "move.type"),
    ([1, 2], "move"),
    ({k: v for k, v in DEAL.items() if k != "active"}, "move.active"),
    (dict(DEAL, asset=""), "move.asset"),
    (dict(DEAL, main={"card": "X", "emergency": "nbn"}), "move.main"),
    (dict(DEAL, main={}), "move.main"),
    ({k: v for k, v in DEAL.items() if k != "support"}, "move.support"),
    (dict(DEAL, counteroffers=[{"card": "Y"}]), "move.counteroffers[0].player"),
    (dict(DEAL, counteroffers=[{"player": "Boris"}]), "move.counteroffers[0]"),
    (dict(DEAL, support=[{"player": "Vera", "offer": "both", "cards": 1}]), "move.support[0].offer"),
    (dict(DEAL, support=[{"player": "Vera", "offer": "main", "cards": "two"}]), "move.support[0].cards"),
    (dict(DEAL, support=[{"player": "Vera", "offer": "main", "cards": True}]), "move.support[0].cards"),
    (dict(DEAL, extra={"side": 1}), "move.extra.side"),
    (dict(DEAL, extra={"main": 1.5}), "move.extra.main"),
    (dict(DEAL, winner="nobody"), "move.winner"),
    (dict(DEAL, transfers=[{"from": "Anna"}]), "move.transfers[0].to"),
    (dict(DEAL, transfers=[{"from": "Anna", "to": "Vera", "assets": "A1"}]), "move.transfers[0].assets"),
    ({"type": "end_round"}, "move.production"),
    ({"type": "end_round", "production": {"tech": "1"}}, "move.production.tech"),
    ({"type": "end_round", "production": {}, "next_assets": "3"}, "move.next_assets"),
    ({"type": "demand_round", "investments": [{"player": "Anna", "card": "I1"}]}, "move.investments[0].capital"),
    ({"type": "demand_round", "investments": [], "next_demand": {"code": "DX", "targets": {}}},
     "move.next_demand.threat"),
    ({"type": "demand_round", "investments": [], "next_demand": {"code": "DX", "threat": -1}},
     "move.next_demand.threat"),
    ({"type": "capital", "player": "Anna", "amount": 1, "reason": "gift"}, "move.reason"),
    ({"type": "capital", "player": "Anna", "reason": "contract"}, "move.amount"),
    ({"type": "threat", "amount": 1, "reason": "contract"}, "move.reason"),
    ({"type": "supply", "changes": [1], "reason": "action"}, "move.changes"),
    ({"type": "supply", "changes": {"tech": 1}, "reason": "contract"}, "move.reason"),
    ({"type": "transfer", "from": "Anna", "capital": 1}, "move.to"),
    ({"type": "adjust"}, "move.reason"),
    ({"type": "adjust", "reason": "  "}, "move.reason"),  # D37: an empty reason is missing
    ({"type": "adjust", "reason": "x", "emergency": {"nbn": "sideways"}}, "move.emergency.nbn"),
    ({"type": "adjust", "reason": "x", "remove_assets": {"Anna": "A1"}}, "move.remove_assets.Anna"),
    ({"type": "adjust", "reason": "x", "assets_left": "1"}, "move.assets_left"),
    ({"type": "finish", "rivals": ["nbn"]}, "move.rivals"),
    ({"type": "finish", "rivals": {"Anna": 3}}, "move.rivals.Anna"),
    ({"type": "threat", "amount": 1, "reason": "event", "at": 5}, "move.at"),
]


@pytest.mark.parametrize("data, path", MALFORMED)
def test_a_malformed_move_is_refused_naming_the_field(data, path):
    with pytest.raises(MalformedError) as err:
        read_move(data)
    assert err.value.path == path
    assert str(err.value).startswith(f"{path}: ")


def test_the_path_prefix_places_the_field_in_its_record():
    with pytest.raises(MalformedError) as err:
        read_move({"type": "capital", "player": "Anna", "amount": "1", "reason": "x"}, "moves[6]")
    assert err.value.path == "moves[6].amount"
