"""RULES.md §10 Move types: every move reads and writes back exactly (``at``, ``note`` and the
``null``s of optional keys kept; unknown keys ignored in a record, refused from a tablet), names
its player for error lines, and malformed input is refused naming the field."""

import copy

import pytest

from facilitator.rules.newangeles import MOVE_TYPES, MalformedError, Move, Offer, Transfer, read_move

from .helpers import load

RECORDS = [load("example_takeover.json"), load("example_rounds.json")]
EXAMPLE_MOVES = [m for r in RECORDS for m in r["moves"]]

MORE = [
    {"type": "deal", "active": "Anna", "asset": "A01", "main": {"card": "X"},
     "counteroffers": [{"player": "Boris", "emergency": "nbn"}],
     "support": [{"player": "Vera", "offer": "counter", "cards": 2}],
     "extra": {"main": 0, "counter": -1}, "extra_reason": "card", "transfers": [],
     "winner": "main", "override_reason": "asset", "at": "2024-01-01T10:00:00Z", "note": "loud"},
    {"type": "deal", "active": "Anna", "asset": "A01", "main": {"card": "X"}, "counteroffers": [], "support": [],
     "winner": None, "extra": None},
    {"type": "end_round", "production": {"tech": 0}, "event_threat": 0, "note": None},
    {"type": "demand_round", "investments": [{"player": "Anna", "card": "I1", "capital": 0}],
     "next_demand": {"code": "DX", "threat": 2, "targets": {"tech": 1}}},
    {"type": "capital", "player": "Anna", "amount": -3, "reason": "other", "at": "2024-01-01T10:00:00Z"},
    {"type": "threat", "amount": 1, "reason": "asset"},
    {"type": "supply", "changes": {"tech": 1, "energy": 0}, "reason": "event"},
    {"type": "transfer", "from": "Anna", "to": "Boris"},
    {"type": "transfer", "from": "Anna", "to": "Boris", "capital": 0, "assets": ["A1"], "note": "n"},
    {"type": "adjust", "reason": "fix", "assets_left": -1, "first_player": "Vera",
     "emergency": {"nbn": "facedown"}, "remove_assets": {"Anna": ["A1", "A2"]}},
    {"type": "adjust", "reason": "only noted"},
    {"type": "finish"},
    {"type": "finish", "rivals": {}, "at": "2024-01-01T12:00:00Z"},
]

#: moves with keys their type does not take, on the move or on an object in it (as another
#: program's record might carry them), and the key a tablet's move is refused for
UNKNOWN = [
    (MORE[0], lambda m: m["main"].update(colour="red"), "move.main.colour"),
    (MORE[0], lambda m: m["counteroffers"][0].update(said="loudly"), "move.counteroffers[0].said"),
    (MORE[0], lambda m: m["support"][0].update(whisper=True), "move.support[0].whisper"),
    (MORE[0], lambda m: m.update(future=[1]), "move.future"),
    (MORE[3], lambda m: m["investments"][0].update(why="x"), "move.investments[0].why"),
    (MORE[3], lambda m: m["next_demand"].update(art="y"), "move.next_demand.art"),
    (MORE[5], lambda m: m.update(by="Vera"), "move.by"),
    (MORE[8], lambda m: m.update(x="x" * 100_000), "move.x"),
    (EXAMPLE_MOVES[0], lambda m: m.update(tablet=3), "move.tablet"),
]


@pytest.mark.parametrize("data", EXAMPLE_MOVES + MORE)
def test_a_move_writes_back_exactly_as_read(data):
    assert read_move(data).to_dict() == data


@pytest.mark.parametrize("data, spoil, path", UNKNOWN, ids=[u[2] for u in UNKNOWN])
def test_a_record_s_move_ignores_an_unknown_key_and_a_tablet_s_move_is_refused_for_it(data, spoil, path):
    """RECORD.md: readers ignore any other unknown key on a move (ignored: not kept, so a record
    cannot carry megabytes into a table's log); a move sent by a tablet or the API holds only its
    type's fields."""
    spoiled = copy.deepcopy(data)
    spoil(spoiled)
    assert read_move(spoiled, strict=False).to_dict() == data
    with pytest.raises(MalformedError) as info:
        read_move(spoiled)
    assert info.value.path == path
    assert info.value.template == "unknown key {key!r}; the keys allowed here are {allowed}"


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
    # wrong JSON types and values beyond any game (issue 17): refused, never a server error
    ({"type": ["deal"]}, "move.type"),
    ({"type": {"deal": 1}}, "move.type"),
    (dict(DEAL, active="A" * 61), "move.active"),
    (dict(DEAL, active="Anna\nVera"), "move.active"),
    (dict(DEAL, main={"card": "X" * 201}), "move.main.card"),
    (dict(DEAL, counteroffers=[{"player": "Boris", "card": "Y"}] * 101), "move.counteroffers"),
    (dict(DEAL, support=[{"player": "Vera", "offer": ["main"], "cards": 1}]), "move.support[0].offer"),
    (dict(DEAL, support=[{"player": "Vera", "offer": "main", "cards": 10 ** 400}]), "move.support[0].cards"),
    (dict(DEAL, override_reason="r" * 501), "move.override_reason"),
    (dict(DEAL, winner=["main"]), "move.winner"),
    ({"type": "end_round", "production": {"tech": 10 ** 7}}, "move.production.tech"),
    ({"type": "end_round", "production": {f"r{i}": 1 for i in range(101)}}, "move.production"),
    ({"type": "capital", "player": "Anna", "amount": -10 ** 7, "reason": "other"}, "move.amount"),
    ({"type": "capital", "player": "Anna", "amount": 1, "reason": {"other": 1}}, "move.reason"),
    ({"type": "transfer", "from": "Anna", "to": "Vera", "assets": ["A1"] * 101}, "move.assets"),
    ({"type": "adjust", "reason": "x" * 501}, "move.reason"),
    ({"type": "finish", "rivals": {"Anna": "c" * 201}}, "move.rivals.Anna"),
    ({"type": "threat", "amount": 1, "reason": "event", "note": "n" * 501}, "move.note"),
    (dict(DEAL, transfers=[{"from": "Anna", "to": "Vera", "capital": 1, "note": "n" * 501}]),
     "move.transfers[0].note"),
]


@pytest.mark.parametrize("data, path", MALFORMED)
def test_a_malformed_move_is_refused_naming_the_field(data, path):
    for strict in (True, False):  # from a tablet, and in a record
        with pytest.raises(MalformedError) as err:
            read_move(data, strict=strict)
        assert err.value.path == path
        assert str(err.value).startswith(f"{path}: ")
        assert len(str(err.value)) < 300  # a huge value is never put whole in a message


def test_the_path_prefix_places_the_field_in_its_record():
    with pytest.raises(MalformedError) as err:
        read_move({"type": "capital", "player": "Anna", "amount": "1", "reason": "x"}, "moves[6]")
    assert err.value.path == "moves[6].amount"
