"""New Angeles' usual record moves are read with plain checks (issue 19: a finished game
replays in 0.6 ms), everything else the full way: both must give the same move, and the same
refusal, for every move of random games and for every twist of them below."""

import copy
import json
from dataclasses import fields

from facilitator.rules.errors import MalformedError
from facilitator.rules.newangeles import moves as moves_module
from facilitator.rules.newangeles import read_move
from facilitator.rules.newangeles.game import Game, MoveResult
from facilitator.rules.newangeles.rounds import round_info
from facilitator.rules.newangeles.simulate import random_game


def read(data, strict, partial, fast=True):
    """``(move, None)`` or ``(None, refusal text)``; ``fast=False``: without the fast path."""
    saved = moves_module._usual_move
    if not fast:
        moves_module._usual_move = lambda data: None
    try:
        return read_move(copy.deepcopy(data), "moves[0]", strict=strict, partial=partial), None
    except MalformedError as err:
        return None, str(err)
    finally:
        moves_module._usual_move = saved


def record_moves(per_shape=1):
    """Up to ``per_shape`` moves of each shape (type and keys given) from random games."""
    out, count = [], {}
    for seed in range(4):
        for move in random_game(seed, players=4 + seed % 3, end="rounds").moves:
            data = json.loads(json.dumps(move.to_dict(), ensure_ascii=False))
            shape = (data["type"], tuple(sorted(data)))
            count[shape] = count.get(shape, 0) + 1
            if count[shape] <= per_shape:
                out.append(data)
    return out


def first(key):
    return lambda m: m[key][0] if m.get(key) else {}


#: changes to a move that the full reader refuses, takes, or reads differently
TWISTS = [
    lambda m: m.update(active="Anna\n"), lambda m: m.update(active=" "), lambda m: m.update(asset="A" * 201),
    lambda m: m.update(main={"card": "X", "emergency": None}), lambda m: m.update(main={"emergency": "jinteki"}),
    lambda m: m.update(main={"card": "X", "emergency": "jinteki"}), lambda m: m.update(main={"card": "\x07"}),
    lambda m: m.update(main={"card": "X", "other": 1}), lambda m: m.pop("main", None),
    lambda m: m.update(counteroffers=[{"player": "Boris", "card": "Y", "emergency": None}]),
    lambda m: m.update(counteroffers=[{"player": "Boris", "emergency": "haas"}]),
    lambda m: m.update(counteroffers=[{"player": "Boris\u2028", "card": "Y"}]), lambda m: m.update(counteroffers={}),
    lambda m: m.update(counteroffers=[{"card": "Y"}] * 101), lambda m: m.pop("counteroffers", None),
    lambda m: m.update(support=[{"player": "Vera", "offer": "main", "cards": True}]),
    lambda m: m.update(support=[{"player": "Vera", "offer": "side", "cards": 1}]),
    lambda m: m.update(support=[{"player": "Vera", "offer": "main", "cards": 1, "note": None}]),
    lambda m: m.update(support=[{"player": "Vera", "offer": "main", "cards": 10 ** 7}]),
    lambda m: m.update(extra={"main": 1}), lambda m: m.update(extra={"main": 1, "side": 1}),
    lambda m: m.update(extra={"counter": 1.0}), lambda m: m.update(extra=None),
    lambda m: m.update(extra_reason="two\nlines"), lambda m: m.update(extra_reason=""),
    lambda m: m.update(override_reason="because"), lambda m: m.update(winner="side"),
    lambda m: m.update(winner="counter"), lambda m: m.update(winner=None),
    lambda m: m.update(transfers=[{"from": "Anna", "to": "Boris", "capital": 2, "note": "for the vote"}]),
    lambda m: m.update(transfers=[{"from": "Anna", "to": "Boris", "capital": None, "assets": ["A1"]}]),
    lambda m: m.update(transfers=[{"from": "Anna", "to": "Boris", "assets": ["A1\t"]}]),
    lambda m: m.update(transfers=[{"from": "Anna", "to": "Boris", "capital": "2"}]),
    lambda m: m.update(transfers=[{"from": "Anna", "to": "Boris", "note": "a\nb"}]),
    lambda m: m.update(transfers=[{"from": "Anna", "to": "Boris", "extra": 1}]), lambda m: m.update(transfers=[7]),
    lambda m: m.update(production={"energy": -2, "": 1}), lambda m: m.update(production={"e\n": 1}),
    lambda m: m.update(production=None), lambda m: m.update(event=None), lambda m: m.update(event=""),
    lambda m: m.update(event_threat=False), lambda m: m.update(next_assets=None),
    lambda m: m.update(changes={"tech": 10 ** 6}), lambda m: m.update(changes={"tech": -10 ** 6 - 1}),
    lambda m: m.update(reason="event"), lambda m: m.update(reason="asset"), lambda m: m.update(reason=["x"]),
    lambda m: m.update(amount=-3), lambda m: m.update(amount=None), lambda m: m.update(player=None),
    lambda m: m.update(at=None), lambda m: m.update(at="1" * 41), lambda m: m.update(at=""),
    lambda m: m.update(note=None), lambda m: m.update(note="a\tb"), lambda m: m.update(note=3),
    lambda m: m.update(unknown=1), lambda m: m.update(type="transfer"), lambda m: m.update(type=7),
    lambda m: m.update(investments=[{"player": "Anna", "card": "I1", "capital": -1, "note": None}]),
    lambda m: m.update(investments=[{"player": "Anna", "card": "", "capital": 1}]),
    lambda m: m.update(investments=[{"player": "Anna", "card": "I1"}]), lambda m: m.update(investments=None),
    lambda m: m.update(next_demand={"code": "X", "threat": 1, "targets": {"energy": 2}}),
    lambda m: m.update(next_demand="\n"), lambda m: m.update(next_demand=None),
    lambda m: m.update(rivals={"Anna": "jinteki", "Boris": ""}), lambda m: m.update(rivals={"": "jinteki"}),
    lambda m: m.update(rivals={"Anna": 3}), lambda m: m.update(rivals=None),
    lambda m: m.update(emergency={"jinteki": "faceup"}), lambda m: m.update(emergency={"jinteki": "gone"}),
    lambda m: m.update(remove_assets={"Anna": ["A1", "A2"]}), lambda m: m.update(remove_assets={"Anna": "A1"}),
    lambda m: m.update(remove_assets={"Anna": [""]}), lambda m: m.update(first_player="Anna\t"),
    lambda m: m.update(assets_left=True), lambda m: m.update(assets_left=-1), lambda m: m.update(reason=""),
    lambda m: m.update(reason="line\nbreak"), lambda m: m.update(capital=None, assets=None),
    lambda m: m.update(**{"from": "Anna", "to": None}), lambda m: m.update(assets=("A1",)),
]


def test_every_usual_move_and_every_twist_of_it_reads_as_the_full_reader_reads_it():
    kinds, fast_kinds = set(), set()
    for data in record_moves():
        kinds.add(data["type"])
        if moves_module._usual_move(copy.deepcopy(data)) is not None:
            fast_kinds.add(data["type"])
        for twist in [lambda m: None] + TWISTS:
            twisted = copy.deepcopy(data)
            twist(twisted)
            for strict, partial in ((True, False), (False, False), (True, True)):
                fast, full = read(twisted, strict, partial), read(twisted, strict, partial, fast=False)
                assert fast == full, (twisted, strict, partial)
                if fast[0] is not None:
                    assert fast[0].to_dict() == full[0].to_dict() and fast[0].player == full[0].player
    assert kinds == {"deal", "end_round", "supply", "capital", "threat", "demand_round", "transfer", "adjust",
                     "finish"}
    assert fast_kinds == kinds  # every kind of move is read fast in its usual shape
    assert all(keys <= moves_module.ALLOWED[kind] for kind, keys in moves_module._USUAL.items())


def test_a_move_result_made_fast_is_the_one_its_init_makes():
    move = read_move({"type": "threat", "amount": 1, "reason": "event"})
    fast, made = MoveResult.new(3, move, 2), MoveResult(index=3, move=move, round=round_info(2))
    assert [(f.name, getattr(fast, f.name)) for f in fields(MoveResult)] \
        == [(f.name, getattr(made, f.name)) for f in fields(MoveResult)] and fast == made
    for name in ("capital", "supply", "assets", "emergency", "events", "round"):  # a new dict or list of its own
        assert getattr(fast, name) is not getattr(MoveResult.new(3, move, 2), name)
    assert "events" in vars(fast) and fast.events is fast.events  # written once, when first read
    try:
        fast.no_such_field
    except AttributeError as err:
        assert "no_such_field" in str(err)
    else:
        raise AssertionError("an unknown attribute is read")


def test_a_replayed_moves_events_told_when_read_are_the_ones_it_would_have_noted():
    """The events of every move of random games (every kind, takeovers and ends by rounds
    among them), told when read after the game went on, against the events of the same move
    applied to a copy of the game and read at once."""
    codes = set()
    for seed in range(40):
        record = random_game(seed, players=4 + seed % 3, end=("rounds", "threat")[seed % 2])
        game = Game(record.pack, record.setup)
        now = []
        for move in record.moves:
            result = game.copy().apply(move)
            now.append((copy.deepcopy(result.events), copy.deepcopy(result.deal), result.round))
            game.apply(move)
        for result, (events, deal, round) in zip(game.history, now):
            assert "events" not in vars(result) or result.move.type in ("adjust", "finish")
            assert (result.events, result.deal, result.round) == (events, deal, round), result.move
            codes.update(code for code, _ in events)
    assert {"transfer", "deal_won", "asset_taken", "emergency_spent", "production", "event", "threat", "takeover",
            "rounds_over", "round_advanced", "investment_scored", "demand_met", "demand_missed", "demand_revealed",
            "capital", "supply"} <= codes


def test_a_plain_offer_support_or_investment_read_again_is_the_same_object_and_only_of_the_same_types():
    deal = {"type": "deal", "active": "Anna", "asset": "A1", "main": {"card": "Media"},
            "counteroffers": [{"player": "Boris", "emergency": "haas"}],
            "support": [{"player": "Vera", "offer": "counter", "cards": 1}]}
    first, again = read_move(copy.deepcopy(deal)), read_move(copy.deepcopy(deal))
    assert first == again and first.to_dict() == deal
    assert again.main is first.main and again.counteroffers[0] is first.counteroffers[0]
    assert again.support[0] is first.support[0]
    demand = {"type": "demand_round", "investments": [{"player": "Anna", "card": "I1", "capital": 2}]}
    assert read_move(copy.deepcopy(demand)).investments[0] is read_move(copy.deepcopy(demand)).investments[0]
    # equal values of another type (True == 1, 1.0 == 1) are not the value read before
    for twist in (lambda m: m["support"][0].update(cards=True), lambda m: m["support"][0].update(cards=1.0),
                  lambda m: m["investments"][0].update(capital=2.0), lambda m: m["investments"][0].update(capital=False),
                  lambda m: m["main"].update(emergency=None), lambda m: m["counteroffers"][0].update(card=None)):
        for data in (deal, demand):
            twisted = copy.deepcopy(data)
            try:
                twist(twisted)
            except KeyError:
                continue
            for strict in (True, False):
                assert read(twisted, strict, False) == read(twisted, strict, False, fast=False), twisted


def test_the_values_kept_are_bounded(monkeypatch):
    monkeypatch.setattr(moves_module, "KNOWN_LIMIT", 3)
    monkeypatch.setattr(moves_module, "_SUPPORTS", {})
    for cards in range(1, 10):
        move = read_move({"type": "deal", "active": "Anna", "asset": "A1", "main": {"card": "Media"},
                          "counteroffers": [], "support": [{"player": "Vera", "offer": "main", "cards": cards}]})
        assert move.support[0].cards == cards and len(moves_module._SUPPORTS) <= 3


def test_a_move_read_again_is_the_move_read_before_and_only_for_the_same_json():
    """A usual move read again from a JSON object of the same bytes is the move read then; an
    object that only compares equal (other types, other key order) is read, and reads as the
    full reader reads it."""
    moves_module.forget_known()
    deal = {"type": "deal", "active": "Anna", "asset": "A1", "main": {"card": "Media"},
            "counteroffers": [{"player": "Boris", "card": "Labor"}],
            "support": [{"player": "Vera", "offer": "main", "cards": 2}], "winner": "main", "note": None}
    first = read_move(json.loads(json.dumps(deal)))
    assert read_move(json.loads(json.dumps(deal))) is first and len(moves_module._MOVES) == 1
    for twist in (lambda m: m["support"][0].update(cards=True), lambda m: m["support"][0].update(cards=2.0),
                  lambda m: m.update(note=""), lambda m: m.update(main={"card": "Media", "emergency": None}),
                  lambda m: m.update(extra={"main": 1}, extra_reason="a card"), lambda m: m.pop("winner")):
        twisted = json.loads(json.dumps(deal))
        twist(twisted)
        for strict in (True, False):
            assert read(twisted, strict, False) == read(twisted, strict, False, fast=False), twisted
            assert read(twisted, strict, False) == read(twisted, strict, False, fast=False), twisted  # read again
    reordered = dict(reversed(list(json.loads(json.dumps(deal)).items())))
    again = read_move(reordered)
    assert again == first and again is not first and again.to_dict() == first.to_dict()
    moves_module.forget_known()
    assert not moves_module._MOVES and read_move(json.loads(json.dumps(deal))) is not first


def test_the_moves_kept_are_bounded(monkeypatch):
    monkeypatch.setattr(moves_module, "MOVES_LIMIT", 3)
    monkeypatch.setattr(moves_module, "_MOVES", {})
    for amount in range(1, 10):
        move = read_move({"type": "capital", "player": "Anna", "amount": amount, "reason": "other"})
        assert move.amount == amount and len(moves_module._MOVES) <= 3


def test_a_records_moves_read_again_are_the_moves_read_before_in_a_list_of_their_own():
    moves_module.forget_known()
    raw = json.loads(json.dumps([m.to_dict() for m in random_game(3, players=5, end="rounds").moves]))
    first = moves_module.usual_moves(json.loads(json.dumps(raw)))
    again = moves_module.usual_moves(json.loads(json.dumps(raw)))
    assert again == first and again is not first and all(a is b for a, b in zip(again, first))
    again.pop()
    assert moves_module.usual_moves(json.loads(json.dumps(raw))) == first  # the kept moves are not that list
    changed = json.loads(json.dumps(raw))
    changed[0]["note"] = "a note"
    read = moves_module.usual_moves(changed)
    assert read[0].note == "a note" and read[1:] == first[1:] and read[0] != first[0]
    changed[0]["note"] = 5  # no usual move: nothing kept, read the full way by ``read_record``
    assert moves_module.usual_moves(changed) is None
    moves_module.forget_known()
    assert not moves_module._RECORDS


def test_the_records_kept_are_bounded(monkeypatch):
    monkeypatch.setattr(moves_module, "RECORDS_LIMIT", 2)
    monkeypatch.setattr(moves_module, "_RECORDS", {})
    for amount in range(1, 6):
        moves = moves_module.usual_moves([{"type": "threat", "amount": amount, "reason": "other"}])
        assert moves[0].amount == amount and len(moves_module._RECORDS) <= 2
