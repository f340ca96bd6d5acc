"""Property tests: random legal games (``simulate``: every move type, reactions, choices,
abilities, host adjusts, season cards up to the 4th) keep RULES.md's invariants after EVERY
move, and random moves thrown in between, mostly illegal, are refused without changing
anything (or, when one happens to be legal, carried out on a copy that keeps the invariants).
At the end the record goes through JSON text, is read back and replayed: same standings.

The quick tests play a few dozen games; the ``slow`` ones play hundreds.
"""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from facilitator.rules.alterego import (MOVE_TYPES, Game, IllegalMoveError, MalformedError, default_pack, read_move,
                                        read_record, replay, standings, table_standing, write_record)
from facilitator.rules.alterego.simulate import play_random

PACK = default_pack()
STRANGER = "Kalle Kustaa"


def examples(n):
    return settings(max_examples=n, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# ----- the invariants ---------------------------------------------------------------------------
def check_invariants(game, copies=True):
    """RULES.md's invariants. ``copies``: no card held beyond its count (an ``adjust`` may break
    it, as it adds with no copy check; the simulated host never does)."""
    s = game.state
    row = table_standing(game)
    assert s.season in (1, 2, 3, 4) and s.step in ("draw", "play") and s.turn >= 1
    in_game = set(s.actives)
    placed = [k for keys in s.factions.values() for k in keys]
    assert sorted(placed) == sorted(in_game), "every active in exactly one faction"
    assert set(row["active_deck"]) | in_game == set(PACK.actives_by_key)
    assert not set(row["active_deck"]) & in_game
    for name, keys in s.factions.items():
        assert all(s.actives[k].owner == name for k in keys)
    for name, hand in s.hands.items():
        assert hand >= 0, (name, hand)
    held = {}
    seen_ids = set()
    for r in row["actives"]:
        assert r["anxiety_temp"] >= 0 and r["free_time_unused"] >= 0, r
        assert r["anxiety"] == r["anxiety_temp"] + r["anxiety_perm"]
        assert r["burned_out"] == (r["anxiety"] >= r["bo"])
        assert r["influence"] == (r["influence_base"] // 2 if r["burned_out"] else r["influence_base"])
        for a in r["activities"]:
            assert a["id"] not in seen_ids
            seen_ids.add(a["id"])
            assert int(a["id"][1:]) <= len(game.moves)
            held[a["card"]] = held.get(a["card"], 0) + 1
            assert not (a["in_force"] and a["paused"])
    for card, n in held.items():
        assert n <= PACK.cards_by_key[card].count or not copies, (card, n)
    assert {k: n for k, n in s.held.items() if n} == held == s.count_held()
    by_key = {r["key"]: r for r in row["actives"]}
    for p in row["players"]:
        assert p["influence"] == sum(by_key[k]["influence"] for k in p["actives"])
        assert p["place"] == 1 + sum(1 for q in row["players"] if q["influence"] > p["influence"])
    if s.finished:
        assert game.next() is None and row["ended_by"] in ("season", "host")
    elif s.pending:
        assert game.next()["expects"] == "choose"
    else:
        assert game.next() == {"player": game.current, "expects": s.step}


def fingerprint(game):
    return game.state.key(), len(game.moves), game.trigger, len(game._reactions)


# ----- random moves, mostly illegal ---------------------------------------------------------------
def random_move(game, rng):
    """A move of a random type with random fields: usually illegal, sometimes malformed."""
    s = game.state
    actives = [a.key for a in PACK.actives]
    ids = [a.id for k in s.actives for a in s.actives[k].acts] + ["a999"]
    players = list(s.order) + [STRANGER]
    kind = rng.choice(MOVE_TYPES)
    d = {"type": kind}
    if kind not in ("adjust", "finish"):
        d["player"] = rng.choice(players)
    if kind in ("play_event", "play_activity", "react"):
        d["card"] = rng.choice(PACK.cards).key
    if kind in ("play_activity", "play_event", "react") and rng.random() < 0.8:
        d["target"] = rng.choice(actives)
    if kind == "play_activity" and rng.random() < 0.3:
        d["partner"] = rng.choice(actives)
    if kind == "play_event" and rng.random() < 0.3:
        d[rng.choice(("activity", "hobby", "active"))] = rng.choice(ids + actives)
    if kind == "play_event" and rng.random() < 0.2:
        d["participants"] = rng.sample(actives, rng.randint(0, 3))
    if kind == "ability":
        d["active"] = rng.choice(actives)
        if rng.random() < 0.5:
            d["targets"] = rng.sample(actives, 3)
        else:
            d["from"] = rng.choice(actives)
    if kind == "react":
        d["to"] = max(1, len(game.moves) - rng.randint(0, 2))
        if rng.random() < 0.3:
            d.pop("target", None)
            d["faction"] = rng.choice(players)
    if kind == "choose":
        d["choice"] = rng.choice(("discard_hobby", "breakup"))
        d["active"] = rng.choice(actives)
        if d["choice"] == "discard_hobby":
            d["activity"] = rng.choice(ids)
        else:
            d["faction"] = rng.choice(players)
    if kind == "adjust":
        d["reason"] = rng.choice(("", "fix", " "))
        d["changes"] = [rng.choice([
            {"active": rng.choice(actives), "anxiety": rng.randint(-3, 3)},
            {"player": rng.choice(players), "hand": rng.randint(-6, 2)},
            {"active": rng.choice(actives), "owner": rng.choice(players)},
            {"active": rng.choice(actives), "away": rng.random() < 0.5},
            {"active": rng.choice(actives), "add": rng.choice(PACK.cards).key},
            {"remove": rng.choice(ids)},
            {"activity": rng.choice(ids), "paused": rng.random() < 0.5},
        ])]
    if kind == "finish" and rng.random() < 0.5:
        d["reason"] = "probe"
    try:
        return read_move(d)
    except MalformedError:
        return None


class Referee:
    """Follows a game move by move: checks the invariants and what each move may do."""

    def __init__(self, game, rng, probes=1):
        self.game = game
        self.rng = rng
        self.probes = probes
        check_invariants(game)

    def probe(self):
        """Random moves: a refusal changes nothing; a legal one, made on a copy, keeps the
        invariants there."""
        game = self.game
        for _ in range(self.probes):
            move = random_move(game, self.rng)
            if move is None:
                continue
            before = fingerprint(game)
            try:
                game.check(move)
            except (IllegalMoveError, MalformedError) as err:
                assert fingerprint(game) == before
                assert str(err)
                with pytest.raises(type(err)):
                    game.apply(move)
                assert fingerprint(game) == before
                continue
            fork = game.copy()
            fork.apply(move)
            check_invariants(fork, copies=move.type != "adjust")
            assert fingerprint(game) == before

    def moved(self, move):
        game = self.game
        pending_before = bool(game.state.pending)
        away_before = {k: a.t for k, a in game.state.actives.items() if a.away}
        result = game.apply(move)
        check_invariants(game)
        if pending_before:
            assert move.type in ("choose", "react", "adjust", "finish"), move.type
        if move.type not in ("adjust", "season", "react"):
            for k, t in away_before.items():  # away: no gains or losses
                if game.state.actives[k].away:
                    assert game.state.actives[k].t == t, (k, move)
        for name, (was, now) in result.hands.items():
            assert game.state.hands[name] == now
        for key, changes in result.actives.items():
            if "anxiety_temp" in changes:
                assert game.state.actives[key].t == changes["anxiety_temp"][1]


def play_and_check(seed, players, max_moves=400, probes=1):
    record, _ = play_random(random.Random(seed), players=players, max_moves=max_moves)
    game = Game(record.pack, record.setup, table=record.table)
    referee = Referee(game, random.Random(seed + 1), probes=probes)
    for move in record.moves:
        referee.probe()
        referee.moved(move)
    assert game.finished
    text = json.dumps(write_record(record), ensure_ascii=False)
    again = read_record(json.loads(text))
    assert write_record(again) == json.loads(text)
    assert standings([replay(again)]) == standings([game])
    return game


# ----- quick ----------------------------------------------------------------------------------------
# (a dozen games, for ``-m 'not slow'``: the slow tests below play seventy more with more probes)
@examples(12)
@given(seed=st.integers(0, 2 ** 32 - 1), players=st.sampled_from([2, 3]))
def test_random_games_keep_the_invariants_after_every_move(seed, players):
    play_and_check(seed, players)


def test_simulated_games_use_every_move_type_and_reach_the_4th_season():
    kinds = set()
    ended = set()
    for seed in range(30):
        record, game = play_random(seed, players=2 + seed % 2)
        kinds.update(m.type for m in record.moves)
        ended.add(game.ended_by)
        assert game.season == 4 or game.ended_by == "host"
    assert kinds == set(MOVE_TYPES) - {"finish"} and ended == {"season"}
    record, game = play_random(1, players=2, max_moves=30)
    assert game.ended_by == "host" and record.moves[-1].type == "finish" and len(record.moves) == 30


def test_simulated_reactions_cover_every_reaction_card():
    cards = set()
    for seed in range(40):
        record, _ = play_random(seed, players=2 + seed % 2)
        cards.update(m.card for m in record.moves if m.type == "react")
    assert cards == {c.key for c in PACK.reaction_cards}


# ----- slow -------------------------------------------------------------------------------------------
@pytest.mark.slow
@examples(70)
@given(seed=st.integers(0, 2 ** 32 - 1), players=st.sampled_from([2, 3]))
def test_many_random_games_keep_the_invariants_with_many_probes(seed, players):
    play_and_check(seed, players, probes=3)


@pytest.mark.slow
@examples(120)
@given(seed=st.integers(0, 2 ** 32 - 1), players=st.sampled_from([2, 3]),
       adjust_rate=st.sampled_from([0.0, 0.1]), react_rate=st.sampled_from([0.0, 0.3, 0.9]))
def test_replay_equals_the_game_played_move_by_move(seed, players, adjust_rate, react_rate):
    record, game = play_random(random.Random(seed), players=players, adjust_rate=adjust_rate, react_rate=react_rate,
                               finish_rate=0.002)
    assert standings([replay(read_record(json.loads(json.dumps(write_record(record)))))]) == standings([game])
