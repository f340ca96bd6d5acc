"""Property tests: random legal games (``simulate.random_game``, its dice thrown by hypothesis)
keep RULES.md's invariants after EVERY move, and illegal moves thrown in between are refused
without changing anything.

A ``Referee`` replays each game move by move with its own bookkeeping and checks, after every
move: capital ≥ 0, 0 ≤ threat ≤ threat_max, supply ≥ 0; the round track only moves forward;
every asset card in exactly one hand; capital changes only by what the move says (a transfer
moves it, a capital move or investments add it); threat and supply as the move says (the demand
outcome recomputed from supply and targets); the deal's winner recomputed from the support
(§4); the token passing left; no rival and no result visible before finish; at least one loser
after it, and the winners recomputed by §8. At the end the record goes through JSON text, is
read back and replayed: same standings, and ``write(read(x)) == x``.

Runs are derandomized so CI is stable. The quick part runs a few dozen games; the ``slow``
ones several hundred.
"""

import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from facilitator.rules.newangeles import (FEDERALIST, Counteroffer, Game, IllegalMoveError, Move, Offer, Transfer,
                                          compute_deal, read_record, replay, standings, table_standing, write_record)
from facilitator.rules.newangeles.simulate import ENDS, random_game

from .helpers import state

SETTINGS = dict(deadline=None, database=None, derandomize=True, print_blob=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.large_base_example])


def quick(n):
    return settings(max_examples=n, **SETTINGS)


games = st.tuples(st.randoms(use_true_random=False), st.integers(4, 6), st.sampled_from(ENDS))


# ----- the referee --------------------------------------------------------------------------
def _deal_count(move, support_tie):
    """(S(main), S(counter) or None, won_by, tie) by RULES.md §4, independently of the engine."""
    standing = move.counteroffers[-1] if move.counteroffers else None
    s_main = sum(s.cards for s in move.support if s.offer == "main") + (move.extra_support or {}).get("main", 0)
    s_counter = sum(s.cards for s in move.support if s.offer == "counter") + (move.extra_support or {}).get("counter", 0)
    if standing is None:
        return s_main, None, move.winner or "main", False
    tie = s_main == s_counter
    computed = "main" if s_main > s_counter else "counter" if s_counter > s_main else (
        "main" if support_tie == "main" else None)
    return s_main, s_counter, move.winner or computed, tie


def _winners(ended_by, players, rivals, k, federalist_capital):
    """RULES.md §8, written out again for the referee."""
    cap = {p["name"]: p["capital"] for p in players}
    of_corp = {p["corp"]: p["name"] for p in players}
    out = []
    for p in players:
        rival, mine = rivals[p["name"]], p["capital"]
        if ended_by == "threat":
            won = rival == FEDERALIST and mine >= federalist_capital
        elif rival == FEDERALIST:
            won = False
        elif rival == p["corp"]:
            won = sum(mine > c for n, c in cap.items() if n != p["name"]) >= k
        else:
            won = mine > cap[of_corp[rival]]
        if won:
            out.append(p["name"])
    return out


class Referee:
    def __init__(self, game):
        self.game = game
        self.pack = game.pack

    def snapshot(self):
        g = self.game
        return {"slot": g.slot, "threat": g.threat, "supply": dict(g.supply), "first": g.first_player,
                "capital": {p.name: p.capital for p in g.players}, "demand": g.demand, "ended": g.ended_by}

    def after(self, move, before):
        g, pack = self.game, self.pack
        t = table_standing(g)
        # the tracks stay in range
        assert all(p.capital >= 0 for p in g.players)
        assert 0 <= g.threat <= pack.threat_max
        assert all(v >= 0 for v in g.supply.values())
        assert g.slot >= before["slot"] and 1 <= g.slot <= 9  # only forward
        assert g.assets_left >= 0
        # every asset card in exactly one hand
        held = Counter(a for p in g.players for a in p.assets)
        assert all(n == 1 for n in held.values())
        assert g.holder == {a: p.name for p in g.players for a in p.assets}
        # capital moves only as the move says
        delta = sum(p.capital for p in g.players) - sum(before["capital"].values())
        expected = {"capital": lambda: move.amount,
                    "demand_round": lambda: sum(i.capital for i in move.investments)}.get(move.type, lambda: 0)()
        assert delta == expected
        # threat as the move says
        added = 0
        if move.type == "threat":
            added = move.amount
        elif move.type == "end_round":
            added = move.event_threat or 0
        elif move.type == "demand_round":
            short = [r for r in pack.resource_keys if before["supply"][r] < before["demand"].target(r)]
            added = before["demand"].threat if short else 0
            assert t["demand_history"][-1]["met"] == (not short)
        assert g.threat == min(before["threat"] + added, pack.threat_max)
        if g.threat == pack.threat_max:
            assert g.ended_by == "threat"
        if move.type == "supply":
            assert g.supply == {r: before["supply"][r] + move.changes.get(r, 0) for r in pack.resource_keys}
        # a deal: the count of §4 and the token passing left
        if move.type == "deal":
            entry = t["deals"][-1]
            s_main, s_counter, won_by, tie = _deal_count(move, pack.support_tie)
            assert (entry["main"]["support"], entry["counter"] and entry["counter"]["support"]) == (s_main, s_counter)
            assert (entry["won_by"], entry["tie"]) == (won_by, tie)
            owner = move.active if won_by == "main" else move.counteroffers[-1].player
            assert entry["winner"] == owner and g.holder[move.asset] == owner
            names = g.names
            assert g.first_player == names[(names.index(move.active) + 1) % len(names)]
        elif not (move.type == "adjust" and move.first_player):
            assert g.first_player == before["first"]  # D21: nothing else moves the token
        # the end
        if move.type == "demand_round" and before["slot"] == 9 and g.ended_by != "threat":
            assert g.ended_by == "rounds"
        if before["ended"] is not None:
            assert move.type == "finish"
        # hidden information before finish, at least one loser after
        if not g.finished:
            assert all(p["rival"] is None and p["rival_player"] is None and p["result"] is None
                       for p in t["players"])
            assert t["winners"] == [] and t["losers"] == []
        else:
            assert t["losers"], "D18: at least one player loses"
            assert t["winners"] == _winners(g.ended_by, t["players"], g.rivals, pack.k(len(g.players)),
                                            pack.federalist_capital)
        return t


# ----- illegal moves thrown in between --------------------------------------------------------
def _probes(game):
    """Moves that are illegal in the game's position, whatever it is."""
    out = []
    p = game.players[0]
    out.append(Move("capital", player=p.name, amount=-(p.capital + 1), reason="other"))
    out.append(Move("threat", amount=-(game.threat + 1), reason="other"))
    r = game.pack.resource_keys[0]
    out.append(Move("supply", changes={r: -(game.supply[r] + 1)}, reason="other"))
    out.append(Move("transfer", transfer=Transfer(p.name, game.players[1].name, p.capital + 1)))
    wrong = game.players[(game.first + 1) % len(game.players)].name
    out.append(Move("deal", active=wrong, asset="P1", main=Offer(card="x"), counteroffers=(), support=()))
    active = game.first_player
    out.append(Move("deal", active=active, asset="P2", main=Offer(card="x"),
                    counteroffers=(Counteroffer(active, Offer(card="y")),), support=()))
    if game.kind == "standard" or game.ended:
        out.append(Move("demand_round", investments=()))
    if game.kind == "demand" or game.assets_left > 0 or game.ended:
        out.append(Move("end_round", production={}, next_assets=1))
    if not game.ended or game.finished:
        out.append(Move("finish", rivals={}))
    if game.holder:
        out.append(Move("deal", active=active, asset=next(iter(game.holder)), main=Offer(card="x"),
                        counteroffers=(), support=()))
    return out


def play(record, probe=None):
    """Replay ``record`` move by move under the referee; ``probe(game)`` may throw illegal moves."""
    game = Game(record.pack, record.setup, table=record.table)
    referee = Referee(game)
    for move in record.moves:
        if probe is not None:
            probe(game)
        before = referee.snapshot()
        result = game.apply(move)
        assert result.index == len(game.moves) - 1
        referee.after(move, before)
    assert game.finished
    return game


def refuse_all(game, moves):
    for bad in moves:
        before = state(game)
        with pytest.raises(IllegalMoveError):
            game.apply(bad)
        assert state(game) == before, bad


def round_trip(record, game):
    data = write_record(record)
    text = json.dumps(data, ensure_ascii=False)
    back = read_record(json.loads(text))
    assert write_record(back) == json.loads(text)
    assert standings([replay(back)]) == standings([game])


def simulated(game_args):
    rng, players, end = game_args
    return random_game(rng, players=players, end=end)


def _check_game(rng, players, end, data=None):
    record = random_game(rng, players=players, end=end)
    probe = None
    if data is not None:
        def probe(game):
            chosen = data.draw(st.lists(st.sampled_from(_probes(game)), max_size=2), label="illegal moves")
            refuse_all(game, chosen)
    game = play(record, probe)
    assert len(game.players) == players
    if end is not None:
        assert game.ended_by == end
    if end == "rounds":
        assert [d["round"] for d in table_standing(game)["demand_history"]] == ["D1", "D2", "D3"]
    round_trip(record, game)
    return game


# ----- quick -------------------------------------------------------------------------------
# (a dozen games, for ``-m 'not slow'``: the slow test below plays a hundred more the same way)
@quick(12)
@given(games, st.data())
def test_random_games_keep_the_invariants_after_every_move(game_args, data):
    _check_game(*game_args, data=data)


@quick(10)
@given(games, st.integers(0, 200))
def test_a_copy_taken_anywhere_continues_like_the_replay(game_args, cut):
    record = simulated(game_args)
    full = replay(record)
    cut = cut % (len(record.moves) + 1)
    game = Game(record.pack, record.setup, table=record.table)
    for move in record.moves[:cut]:
        game.apply(move)
    twin = game.copy()
    before = state(game)
    for move in record.moves[cut:]:
        twin.apply(move)
    assert state(game) == before
    assert state(twin) == state(full)


@quick(10)
@given(games)
def test_the_deal_preview_at_every_stage_agrees_with_what_is_recorded(game_args):
    record = simulated(game_args)
    game = Game(record.pack, record.setup, table=record.table)
    for move in record.moves:
        if move.type == "deal":
            data = move.to_dict()
            for stage in ("asset", "offer", "counteroffers", "support", "winner"):
                preview = compute_deal(game, data, stage)
            result = game.apply(move)
            assert (preview.won_by, preview.winner, preview.tie) == (
                result.deal["won_by"], result.deal["winner"], result.deal["tie"])
        else:
            game.apply(move)


def test_the_referee_can_fail():
    """A referee that cannot fail proves nothing: a game whose capital was tampered with fails it."""
    record = random_game(7, players=4, end="rounds")
    game = Game(record.pack, record.setup)
    referee = Referee(game)
    before = referee.snapshot()
    game.apply(record.moves[0])
    game.players[0].capital += 1  # not what the move says
    with pytest.raises(AssertionError):
        referee.after(record.moves[0], before)


@pytest.mark.parametrize("end", ENDS)
@pytest.mark.parametrize("players", [4, 5, 6])
def test_every_kind_of_move_is_simulated(players, end):
    kinds = Counter()
    for seed in range(8):
        record = random_game(seed, players=players, end=end)
        kinds.update(m.type for m in record.moves)
        kinds.update("override" for m in record.moves if m.type == "deal" and m.override_reason)
        kinds.update("counteroffer" for m in record.moves if m.type == "deal" and m.counteroffers)
        kinds.update("covered" for m in record.moves if m.type == "deal" and len(m.counteroffers or ()) > 1)
        kinds.update("extra" for m in record.moves if m.type == "deal" and m.extra_support)
        kinds.update("deal transfer" for m in record.moves if m.type == "deal" and m.transfers)
        kinds.update("emergency" for m in record.moves if m.type == "deal" and (
            m.main.emergency or any(c.offer.emergency for c in m.counteroffers)))
    expected = {"deal", "end_round", "demand_round", "capital", "threat", "supply", "transfer", "adjust", "finish",
                "override", "counteroffer", "covered", "extra", "deal transfer", "emergency"}
    assert expected <= set(kinds), expected - set(kinds)


# ----- slow: volume ------------------------------------------------------------------------
@pytest.mark.slow
@settings(max_examples=60, **SETTINGS)  # with the thousands of seeded games below: under the suite's 6 minutes
@given(games, st.data())
def test_many_random_games_keep_the_invariants_after_every_move(game_args, data):
    _check_game(*game_args, data=data)


@pytest.mark.slow
@pytest.mark.parametrize("end", ENDS)
def test_thousands_of_seeded_games_replay_and_round_trip(end):
    outcomes = Counter()
    for seed in range(300):
        game = _check_game(seed, 4 + seed % 3, end)
        outcomes[(game.ended_by, bool(game.winners()))] += 1
    if end == "threat":  # both a Federalist's win and a takeover that everyone loses occur
        assert outcomes[("threat", True)] and outcomes[("threat", False)]
