"""The answers for the offline screens (``rules/lyceum/answers.py``) are the engine's own: a
card's decision, a rest, a pass and a share lead exactly where applying that very move to a
whole copy of the game leads, although the answers apply a move only once per distinct outcome
and copy only what it changes; and asking leaves the game as it was (a cached game is shared)."""

from dataclasses import replace

import pytest

from facilitator.rules.lyceum import Move, replay
from facilitator.rules.lyceum.answers import _Answers
from facilitator.rules.lyceum.ruleset import sample_pack
from facilitator.rules.lyceum.simulate import random_game
from facilitator.rules.lyceum.standings import table_standing


def state(game):
    return (game.round, game.turn, game.main_done, game.finished, len(game.moves), len(game.history),
            table_standing(game),
            {n: (p.xp, dict(p.skills), p.pending, list(p.pending_reasons), p.deferred, p.shared, p.best_level)
             for n, p in game.players.items()})


def whole(game, move):
    after = game.copy()
    after.apply(move)
    return after


def positions_of(pack, seed, players, every):
    record, _ = random_game(pack, seed=seed, players=players, adjust_rate=0.05)
    for keep in range(0, len(record.moves), every):
        game = replay(type(record)(table=record.table, pack=pack, players=record.players, moves=record.moves[:keep]))
        if not game.finished:
            yield game


@pytest.mark.parametrize("skill_max", [None, 9])
def test_every_answer_is_where_the_move_itself_leads(skill_max):
    pack = sample_pack() if skill_max is None else replace(sample_pack(), skill_max=skill_max)
    checked = {"held": 0, "allocate": 0}
    for seed, players in ((3, 4), (5, 3)):
        for game in positions_of(pack, seed, players, every=4):
            before = state(game)
            answers = _Answers(game)
            found = answers.build()
            assert state(game) == before, "asking changed the game"
            for key, pos in list(found["positions"].items()):
                if not (pos["expects"] == "main" and pos.get("known")) or "deferred" in pos:
                    continue
                t = int(key[1:])
                g, name = answers.refs[t], pos["player"]
                checked["held"] += g.players[name].deferred is not None
                lead = lambda move: answers.key_of(whole(g, move), answers.tainted)  # noqa: E731
                for color, rows in pos["colors"].items():
                    for row in rows:
                        for decision, then in row["decisions"].items():
                            assert lead(Move("draw", player=name, color=color, card=row["card"],
                                             decision=decision)) == then, (key, row["card"], decision)
                            checked["allocate"] += found["positions"][then]["expects"] == "allocate"
                assert lead(Move("rest", player=name)) == pos["rest"]
                assert lead(Move("pass", player=name)) == pos["pass"]
                if pos["share"]:
                    assert lead(Move("share", player=name)) == pos["share"]
            assert state(game) == before
    assert checked["held"] and checked["allocate"], checked  # the answers' every kind of outcome was met
