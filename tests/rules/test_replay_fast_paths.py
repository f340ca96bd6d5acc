"""The replay's fast paths say what the full ones say (issue 19: a finished game replays in
0.6 ms). A record move of the usual shape is read with a few plain checks, everything else
the full way; a move's result diffs only the players it can change. Both must give, move for
move and refusal for refusal, what the full reader and a diff of every player give."""

import copy
import json

from facilitator.rules.errors import MalformedError
from facilitator.rules.lyceum import moves as moves_module
from facilitator.rules.lyceum import read_move, replay
from facilitator.rules.lyceum.game import Game, MoveResult
from facilitator.rules.lyceum.ruleset import sample_pack
from facilitator.rules.lyceum.simulate import random_game
from facilitator.rules.lyceum.skills import SKILLS


def full_read(data, strict):
    """``read_move`` without its fast path: ``(move, None)`` or ``(None, refusal text)``."""
    saved = moves_module._usual_move
    moves_module._usual_move = lambda data: None
    try:
        return read_move(data, "moves[0]", strict=strict), None
    except MalformedError as err:
        return None, str(err)
    finally:
        moves_module._usual_move = saved


def either_read(data, strict):
    try:
        return read_move(data, "moves[0]", strict=strict), None
    except MalformedError as err:
        return None, str(err)


def record_moves(per_type=6):
    """Up to ``per_type`` moves of each type from random games, as a record file holds them."""
    out, count = [], {}
    for seed in range(4):
        for move in random_game(sample_pack(), seed=seed, players=3 + seed % 2, adjust_rate=0.05)[0].moves:
            count[move.type] = count.get(move.type, 0) + 1
            if count[move.type] <= per_type:
                out.append(json.loads(json.dumps(move.to_dict(), ensure_ascii=False)))
    return out


#: changes to a usual move that the full reader refuses, takes, or reads differently
TWISTS = [
    lambda m: m.update(player="Аня\n"), lambda m: m.update(player="  "), lambda m: m.update(player="Б" * 61),
    lambda m: m.update(player=7), lambda m: m.update(player="Аня\u00a0Б"), lambda m: m.pop("player", None),
    lambda m: m.update(color="blue"), lambda m: m.update(color=["red"]), lambda m: m.update(card="X\u2028"),
    lambda m: m.update(card={"color": "red", "title": "Своя", "gains": {"energy": 2}}),
    lambda m: m.update(decision="keep"), lambda m: m.update(source="hand"), lambda m: m.update(source=None),
    lambda m: m.update(source="app-deck"), lambda m: m.update(redistribute={"energy": 1, "health": -1}),
    lambda m: m.update(redistribute={"energy": True}), lambda m: m.update(redistribute={"energy": 1.0}),
    lambda m: m.update(redistribute={"luck": 1}), lambda m: m.update(redistribute={"energy": 101}),
    lambda m: m.update(redistribute=None), lambda m: m.update(redistribute=[1]),
    lambda m: m.update(sp={"energy": -1}), lambda m: m.update(sp=None), lambda m: m.update(sp={"energy": 100}),
    lambda m: m.update(at=None), lambda m: m.update(at="12:00"), lambda m: m.update(at="1" * 41),
    lambda m: m.update(note=None), lambda m: m.update(note="две\nстроки"), lambda m: m.update(note="\x00"),
    lambda m: m.update(note=""), lambda m: m.update(note=5), lambda m: m.update(at=None, note=None),
    lambda m: m.update(unknown=1), lambda m: m.update(type="adjust"), lambda m: m.update(type="nope"),
    lambda m: m.update(type=None), lambda m: m.pop("type", None),
]


def test_every_usual_move_and_every_twist_of_it_reads_as_the_full_reader_reads_it():
    moves = record_moves()
    seen, fast_kinds = set(), set()
    for data in moves:
        if moves_module._usual_move(copy.deepcopy(data)) is not None:
            fast_kinds.add(data["type"])
        for twist in [lambda m: None] + TWISTS:
            twisted = copy.deepcopy(data)
            twist(twisted)
            for strict in (True, False):
                fast, full = either_read(copy.deepcopy(twisted), strict), full_read(copy.deepcopy(twisted), strict)
                assert fast == full, (twisted, strict)
                if fast[0] is not None:
                    assert fast[0].to_dict() == full[0].to_dict()
        seen.add(data["type"])
    assert seen >= {"draw", "rest", "pass", "allocate", "adjust", "finish"}
    assert fast_kinds == seen - {"adjust"}  # every usual move but a host's correction is read fast
    assert all(keys <= moves_module.ALLOWED[kind] for kind, keys in moves_module._USUAL.items())


def full_diff(before, game):
    """What the result of a move says, worked out from every player (the engine's old way)."""
    changes, after = {}, {}
    for n, p in game.players.items():
        xp, skills, pending, best = before[n]
        change = {}
        if p.xp != xp:
            change["xp"] = p.xp - xp
        delta = {s: p.skills[s] - skills[s] for s in SKILLS if p.skills[s] != skills[s]}
        if delta:
            change["skills"] = delta
        if p.pending != pending:
            change["pending"] = p.pending - pending
        if p.best_level != best:
            change["levels"] = list(range(best + 1, p.best_level + 1))
        if change:
            changes[n] = change
        after[n] = (p.xp, game.pack.level_for(p.xp))
    return changes, after


def test_a_move_result_names_every_change_a_diff_of_every_player_finds():
    kinds = set()
    for seed in range(6):
        record, _ = random_game(sample_pack(), seed=100 + seed, players=3 + seed % 2, adjust_rate=0.1)
        game = Game(record.pack, record.players, table=record.table)
        for move in record.moves:
            before = {n: p.snapshot() for n, p in game.players.items()}
            result = game.apply(move)
            changes, after = full_diff(before, game)
            assert (result.changes, result.after) == (changes, after)
            assert list(result.changes) == list(changes) and list(result.after) == list(after)
            kinds.add(move.type)
        assert [r.after for r in replay(record).history] == [r.after for r in game.history]
    assert kinds == {"draw", "rest", "share", "pass", "play_deferred", "allocate", "adjust", "finish"}


def test_a_move_result_made_fast_is_the_one_its_init_makes():
    move = read_move({"type": "pass", "player": "Аня"})
    fast, made = MoveResult.new(3, move), MoveResult(index=3, move=move, round=0, era="")
    assert vars(fast) == vars(made) and list(vars(fast)) == list(vars(made)) and fast == made
    for name in ("changes", "expired", "after"):  # a new dict or list of its own
        assert getattr(fast, name) is not getattr(MoveResult.new(3, move), name)


def test_a_move_results_changes_read_after_the_game_went_on_are_the_ones_it_made():
    """``changes`` is worked out when first read: read after every later move (and after a copy
    of the game went on from it), it says what a diff made right after the move said."""
    kinds = set()
    for seed in range(6):
        record, _ = random_game(sample_pack(), seed=200 + seed, players=3 + seed % 2, adjust_rate=0.1)
        game = Game(record.pack, record.players, table=record.table)
        made = []
        for i, move in enumerate(record.moves):
            before = {n: p.snapshot() for n, p in game.players.items()}
            game.apply(move)
            made.append(full_diff(before, game))
            if i == len(record.moves) // 2:  # a copy goes on from here, sharing the results so far
                fork = game.copy()
            kinds.add(move.type)
        for move in record.moves[len(record.moves) // 2 + 1:]:
            fork.apply(move)
        for result, (changes, after) in zip(game.history, made):
            assert (result.changes, result.after) == (changes, after), result.move
            assert list(result.changes) == list(changes)
            assert "changes" in vars(result) and result.changes is result.changes  # worked out once
        assert [r.changes for r in fork.history] == [r.changes for r in game.history]
    assert kinds == {"draw", "rest", "share", "pass", "play_deferred", "allocate", "adjust", "finish"}


def test_a_move_never_changes_the_skills_a_result_kept():
    """The skills a result keeps are never changed in place: each move changes a copy."""
    record, _ = random_game(sample_pack(), seed=7, players=4, adjust_rate=0.1)
    game = Game(record.pack, record.players, table=record.table)
    kept = []
    for move in record.moves:
        result = game.apply(move)
        kept += [(skills, dict(skills)) for entry in vars(result)["_diff"] for skills in (entry[2], entry[6])]
    assert all(skills == copy for skills, copy in kept)
