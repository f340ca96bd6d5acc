"""Alter Ego's usual record moves are read with plain checks (a record is read on every
replay), everything else the full way: both must give the same move, and the same refusal,
for every shape of move of random games and for every twist of them below."""

import copy
import json
import random

from facilitator.rules.alterego import moves as moves_module
from facilitator.rules.alterego import read_move, write_record
from facilitator.rules.alterego.simulate import play_random
from facilitator.rules.errors import MalformedError


def read(data, strict, partial, fast=True):
    """``(move, None)`` or ``(None, refusal text)``; ``fast=False``: without the fast path."""
    saved = moves_module._usual_move
    if not fast:
        moves_module._usual_move = lambda data: None
    try:
        return read_move(copy.deepcopy(data), "moves[0]", partial, strict=strict), None
    except MalformedError as err:
        return None, str(err)
    finally:
        moves_module._usual_move = saved


def record_moves():
    """One move of each shape (type and keys, in their order) from random games."""
    out, seen = [], set()
    for seed in range(6):
        record, _ = play_random(random.Random(seed), players=3, max_moves=400)
        for data in json.loads(json.dumps(write_record(record), ensure_ascii=False))["moves"]:
            shape = (data["type"], tuple(data))
            if shape not in seen:
                seen.add(shape)
                out.append(data)
    return out


#: changes to a move that the full reader refuses, takes, or reads differently
TWISTS = [
    lambda m: m.update(player=""), lambda m: m.update(player=" "), lambda m: m.update(player="B" * 101),
    lambda m: m.update(player="Bertta\n"), lambda m: m.update(player=3), lambda m: m.pop("player", None),
    lambda m: m.update(card="c\u2028"), lambda m: m.update(target=None), lambda m: m.update(partner="Aino"),
    lambda m: m.update(participants=["a1", "a2"]), lambda m: m.update(participants=["a1", ""]),
    lambda m: m.update(participants=("a1",)), lambda m: m.update(participants=["a"] * 51),
    lambda m: m.update(targets=["a1"]), lambda m: m.update(targets="a1"), lambda m: m.update(to=2),
    lambda m: m.update(to=0), lambda m: m.update(to=True), lambda m: m.update(to=10 ** 6),
    lambda m: m.update(reason="why"), lambda m: m.update(reason="two\nlines"), lambda m: m.update(reason=5),
    lambda m: m.update(faction="green"), lambda m: m.update(**{"from": "a3"}), lambda m: m.update(choice="breakup"),
    lambda m: m.update(changes=[]), lambda m: m.update(at=None), lambda m: m.update(at="1" * 41),
    lambda m: m.update(note="a\tb"), lambda m: m.update(note=None, at="12:00"), lambda m: m.update(note=7),
    lambda m: m.update(unknown=1), lambda m: m.update(type="choose"), lambda m: m.update(type=None),
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
                    assert fast[0].to_dict() == full[0].to_dict() and vars(fast[0]) == vars(full[0])
    assert kinds >= {"draw", "season", "play_event", "play_activity", "ability", "react", "end_turn", "adjust"}
    assert fast_kinds == kinds - {"choose", "adjust"}  # these two are read the full way
