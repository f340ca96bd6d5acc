"""Property tests: over a thousand random legal games per run (ten times as many on the thorough
profile) keep the rules' invariants after every move.

Two drivers play the games:

* hypothesis chooses every move among what the rules allow (setup, kind of move, colour,
  pack card or hand-entered card, decision, redistribution, allocation, host adjust), and
  between legal moves throws in random moves, mostly illegal, which must be refused without
  changing anything (or, when one happens to be legal, be carried out like any other);
* ``facilitator.rules.lyceum.simulate`` plays plausible tables fast, for volume.

A ``Referee`` follows each game with its own bookkeeping and, after EVERY move, checks what
RULES.md promises: skills within 0..skill_max, XP in steps of 100, pending SP never negative,
nothing but allocate/adjust while SP are pending, exactly one main move per player per round
in turn order, at most one deferred card per player and only from the last three rounds.
At the end the record is written, sent through JSON text, read back and replayed: the
standings must be the same.

Runs are derandomized so CI is stable; ``RULES_HYPOTHESIS_PROFILE=rules-thorough`` plays ten
times as many games with fresh randomness.
"""

import json
import os
from collections import Counter
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, Phase, given, note, settings
from hypothesis import strategies as st

from facilitator.rules.lyceum.ruleset import sample_pack, sample_pack_data
from facilitator.rules import IllegalMoveError
from facilitator.rules.lyceum import COLORS, DECISIONS, ERA_KEYS, MOVE_TYPES, SKILLS, Game, PlayerSetup, Record, read_move, read_pack, read_record, replay, standings, write_record
from facilitator.rules.lyceum.simulate import random_game

# RULES.md 1: what a card of each colour gives (G = gains + free) and costs (L = losses).
COLOUR_RULES = {"green": (1, 1, 0, 0), "yellow": (1, 3, 1, 1), "red": (0, 6, 0, 3)}
NAMES = ("Аня", "Борис", "Вика", "Гоша")
STRANGER = "Незнакомец"
ROUNDS = 10
DEFER_WINDOW = 3

_common = dict(deadline=None, database=None, print_blob=True,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
# CI: the same games on every run, and a failure reported at once (the full draw log and a
# reproduction blob are printed) instead of minutes spent shrinking a 100-move game
settings.register_profile("rules-ci", derandomize=True, phases=[Phase.explicit, Phase.generate], **_common)
settings.register_profile("rules-thorough", derandomize=False, **_common)
PROFILE = os.environ.get("RULES_HYPOTHESIS_PROFILE", "rules-ci")
SCALE = 10 if PROFILE == "rules-thorough" else 1


def examples(n):
    """Settings for a test of ``n`` games (times ten on the thorough profile)."""
    return settings(settings.get_profile(PROFILE), max_examples=n * SCALE)


def capped_pack(skill_max):
    """The sample pack with a ``skill_max`` (its characters all fit under it)."""
    data = sample_pack_data()
    data["id"] = f"sample-max-{skill_max}"
    data["skill_max"] = skill_max
    return read_pack(data)


PACKS = {"sample": sample_pack(), "skill_max 9": capped_pack(9)}


# ----- the referee ------------------------------------------------------------------------
def state_of(game):
    """Everything a move could change, to prove a refused move changed nothing."""
    players = tuple(
        (p.name, p.xp, dict(p.skills), p.pending, list(p.pending_reasons), p.best_level,
         None if p.deferred is None else (p.deferred.card, p.deferred.round), p.shared)
        for p in game.players.values())
    return (game.round, game.turn, game.main_done, game.finished, len(game.moves),
            len(game.history), players)


class Referee:
    """Follows one game move by move with its own bookkeeping and checks the invariants."""

    def __init__(self, game):
        self.game = game
        self.seats = len(game.order)
        self.main_moves = Counter()  # (round, player) -> main moves made
        self.turn = None  # (round, player) of the turn in progress
        self.held = {name: [] for name in game.order}  # deferred cards: [(card, round deferred)]
        self.pending_before = dict(game.pending())
        self.check_state()

    def moved(self, move, result):
        """Check one applied move and the state after it."""
        game = self.game
        if self.pending_before:
            assert move.type in ("allocate", "adjust"), (
                f"{move.type} accepted while {self.pending_before} free SP were pending")
        expired = []
        if move.is_main:
            made = sum(self.main_moves.values())
            round_no, seat = divmod(made, self.seats)
            slot = (round_no + 1, game.order[seat])
            assert (result.round, move.player) == slot, f"main move {move.describe()} out of turn"
            self.main_moves[slot] += 1
            if self.turn is not None:  # the previous turn ends: its old deferred card expires
                ended_round, holder = self.turn
                expired = [(holder, c) for c, d in self.held[holder] if d + DEFER_WINDOW <= ended_round]
            self.turn = slot
        if move.type == "finish":
            expired = [(name, c) for name, cards in self.held.items() for c, _ in cards]
        assert sorted((n, c.label) for n, c in result.expired) == sorted((n, c.label) for n, c in expired)
        for name, card in expired:
            self.held[name] = [(c, d) for c, d in self.held[name] if c is not card]
        if move.type == "draw" and move.decision == "defer":
            self.held[move.player].append((result.card, result.round))
        if move.type == "allocate":  # all at once; SP that fit nowhere under skill_max are lost
            assert game.players[move.player].pending == 0
        if move.type == "play_deferred":
            cards = self.held[move.player]
            assert len(cards) == 1 and cards[0][1] < result.round, "played a deferred card it could not"
            assert cards[0][0] == result.card
            self.held[move.player] = []
        self.pending_before = dict(game.pending())
        self.check_state()

    def check_state(self):
        game = self.game
        top = game.pack.skill_max
        for name in game.order:
            p = game.players[name]
            for s in SKILLS:
                assert p.skills[s] >= 0, f"{name}: {s} {p.skills[s]} < 0"
                assert top is None or p.skills[s] <= top, f"{name}: {s} {p.skills[s]} > {top}"
            assert p.xp >= 0 and p.xp % 100 == 0, f"{name}: XP {p.xp}"
            assert p.pending >= 0, f"{name}: pending {p.pending}"
            assert p.best_level >= game.pack.level_for(p.xp)
            held = self.held[name]
            assert len(held) <= 1, f"{name} holds {len(held)} deferred cards"
            if held:
                card, d = held[0]
                assert p.deferred is not None and p.deferred.card == card and p.deferred.round == d
                assert game.round - DEFER_WINDOW <= d <= game.round
                if d == game.round - DEFER_WINDOW:  # its last round: the holder's turn has not ended
                    assert game.order.index(name) >= game.turn
            else:
                assert p.deferred is None, f"{name} holds {p.deferred} the referee saw expire or played"
        assert all(count == 1 for count in self.main_moves.values())

    def finished(self):
        """After finish: every player had exactly one main move in each of the 10 rounds."""
        game = self.game
        assert game.finished and game.next() is None
        expected = {(r, name): 1 for r in range(1, ROUNDS + 1) for name in game.order}
        assert dict(self.main_moves) == expected
        assert all(not cards for cards in self.held.values())
        assert all(p.deferred is None for p in game.players.values())


def assert_replays_the_same(record, game):
    """write_record -> JSON text -> read_record -> replay gives the same standings."""
    written = write_record(record)
    again = read_record(json.loads(json.dumps(written, ensure_ascii=False)))
    assert write_record(again) == written
    assert standings([replay(again)]) == standings([game])


# ----- hypothesis: setups -----------------------------------------------------------------
@st.composite
def tables(draw, pack):
    """3 or 4 players with distinct characters, 5 extra SP within skill_max, some declarations."""
    count = draw(st.sampled_from((3, 4)))
    chars = draw(st.permutations(pack.characters))[:count]
    top = pack.skill_max
    players = []
    for i, char in enumerate(chars):
        extra = Counter()
        for _ in range(5):
            room = [s for s in SKILLS if top is None or char.skills[s] + extra[s] < top]
            extra[draw(st.sampled_from(room))] += 1
        declaration = None
        if draw(st.booleans()):
            target = draw(st.sampled_from((35, 40, 45)))
            cuts = sorted(draw(st.lists(st.integers(0, target), min_size=4, max_size=4)))
            parts = [b - a for a, b in zip([0] + cuts, cuts + [target])]
            declaration = dict(zip(SKILLS, parts))
        # a few birth dates only, so energy ties are broken by age and by seat
        born = draw(st.sampled_from(("2008-11-30", "2009-03-14", "2009-03-14", "2010-01-02")))
        players.append(PlayerSetup(NAMES[i], born, char.code, dict(extra), declaration))
    return players


# ----- hypothesis: legal moves ------------------------------------------------------------
@lru_cache(maxsize=None)
def _integers(low, high):
    return st.integers(low, high)


def number(draw, low, high):
    """A whole number in low..high (shrinking towards ``low``)."""
    return draw(_integers(low, high))


def pick(draw, options):
    """One of ``options`` (shrinking towards the first); strategies are cached, as games make
    thousands of choices and building a strategy per choice would dominate the run time."""
    options = list(options)
    return options[number(draw, 0, len(options) - 1)]


def room_for_free_sp(skills, top):
    return float("inf") if top is None else sum(top - v for v in skills.values())


def split(draw, skills, amount, top):
    """``amount`` free SP spread over skills that have room under ``top``."""
    out = Counter()
    for _ in range(amount):
        room = [s for s in SKILLS if top is None or skills[s] + out[s] < top]
        out[pick(draw, room)] += 1
    return dict(out)


def redistribution(draw, after, limit, top):
    """A legal redistribution of at most ``limit`` SP from the skills ``after``, or None."""
    delta = Counter()
    for _ in range(number(draw, 0, limit)):
        now = {s: after[s] + delta[s] for s in SKILLS}
        sources = [s for s in SKILLS if now[s] > 0]
        if not sources:
            break
        src = pick(draw, sources)
        targets = [s for s in SKILLS if s != src and (top is None or now[s] < top)]
        if not targets:
            break
        delta[src] -= 1
        delta[pick(draw, targets)] += 1
    return {s: v for s, v in delta.items() if v} or None


def capped(value, top):
    return value if top is None else min(value, top)


def after_card(skills, card, top):
    """RULES.md 3.4: losses, then gains (stopping at skill_max)."""
    return {s: capped(skills[s] - card.losses.get(s, 0) + card.gains.get(s, 0), top) for s in SKILLS}


def skill_map(draw, total):
    out = Counter(pick(draw, SKILLS) for _ in range(total))
    return dict(out)


def hand_card(draw):
    """A hand-entered card object obeying the colour rules, with or without an era."""
    color = pick(draw, COLORS)
    g_min, g_max, l_min, l_max = COLOUR_RULES[color]
    g = number(draw, g_min, g_max)
    free = number(draw, 0, g)
    card = {"color": color, "title": "Карта ведущего", "text": "введена вручную",
            "conditions": skill_map(draw, number(draw, 0, 3)),
            "losses": skill_map(draw, number(draw, l_min, l_max)),
            "gains": skill_map(draw, g - free), "free": free, "special": None}
    if color == "red" and number(draw, 0, 1):
        card["special"] = {"text": "Перераспредели умения", "redistribute": number(draw, 1, 3)}
    if number(draw, 0, 1):
        card["era"] = pick(draw, ERA_KEYS)
    return card


def draw_move(draw, game, mover, era):
    """A draw: a pack card of the era (or a hand-entered card) and a decision the rules allow."""
    pack, p = game.pack, game.players[mover]
    if number(draw, 0, 9) == 9:
        card_data = hand_card(draw)
        color = card_data["color"]
    else:
        color = pick(draw, COLORS)
        card_data = pick(draw, pack.cards_of(era, color)).code
    move = {"type": "draw", "player": mover, "color": color, "card": card_data}
    card = read_move(dict(move, decision="discard")).card
    card = pack.cards_by_code[card] if isinstance(card, str) else card
    decisions = game.decisions(mover, card)
    move["decision"] = decisions[0] if number(draw, 0, 9) < 8 else pick(draw, decisions)
    if move["decision"] == "play" and card.redistribute:
        moved = redistribution(draw, after_card(p.skills, card, pack.skill_max), card.redistribute,
                               pack.skill_max)
        if moved:
            move["redistribute"] = moved
    return move


def adjust_move(draw, game):
    """A legal host correction: XP in steps of 100 and/or a skill by one, within bounds."""
    name = pick(draw, game.order)
    p, top = game.players[name], game.pack.skill_max
    move = {"type": "adjust", "player": name, "reason": "спецспособность карты"}
    xp = pick(draw, (100, 200, 500, -100))
    if p.xp + xp >= 0:
        move["xp"] = xp
    s = pick(draw, SKILLS)
    delta = pick(draw, (1, -1))
    if 0 <= p.skills[s] + delta and (top is None or p.skills[s] + delta <= top):
        move["sp"] = {s: delta}
    if "xp" not in move and "sp" not in move:
        move["xp"] = 100
    return move


def legal_move(draw, game):
    """One move the rules allow now, as the record's JSON object."""
    legal = game.legal_moves()
    kinds = {m["type"]: m for m in legal}
    top = game.pack.skill_max
    allocations = [m for m in legal if m["type"] == "allocate"]
    if allocations:
        m = pick(draw, allocations)
        p = game.players[m["player"]]
        # all pending SP, or as many as fit under skill_max (the rest are lost)
        assert (m["pending"], m["sp"]) == (p.pending, min(p.pending, room_for_free_sp(p.skills, top)))
        return {"type": "allocate", "player": p.name, "sp": split(draw, p.skills, m["sp"], top)}
    roll = number(draw, 0, 99)
    if roll >= 97:
        return adjust_move(draw, game)
    if "play_deferred" in kinds and roll < 70:
        name = kinds["play_deferred"]["player"]
        move = {"type": "play_deferred", "player": name}
        card = game.players[name].deferred.card
        if card.redistribute:
            moved = redistribution(draw, after_card(game.players[name].skills, card, top),
                                   card.redistribute, top)
            if moved:
                move["redistribute"] = moved
        return move
    if "finish" in kinds:
        return {"type": "finish"}
    mover, era = kinds["draw"]["player"], kinds["draw"]["era"]
    roll = number(draw, 0, 99)
    if roll < 60 or (roll < 90 and "share" not in kinds):
        return draw_move(draw, game, mover, era)
    if roll < 75:
        return {"type": "share", "player": mover}
    if roll < 90:
        p = game.players[mover]
        move = {"type": "rest", "player": mover}
        after = dict(p.skills, energy=capped(p.skills["energy"] + 1, top))
        moved = redistribution(draw, after, kinds["rest"]["redistribute_limit"], top)
        if moved:
            move["redistribute"] = moved
        return move
    return {"type": "pass", "player": mover}


# ----- hypothesis: random (mostly illegal) moves -----------------------------------------
def signed_map(draw):
    return {pick(draw, SKILLS): number(draw, -3, 3) for _ in range(number(draw, 0, 3))}


def random_move(draw, game):
    """Any well-formed move: a random type, player, card of any era, decision and numbers."""
    kind = pick(draw, MOVE_TYPES)
    move = {"type": kind}
    if kind != "finish":
        move["player"] = pick(draw, game.order + [STRANGER])
    if kind == "draw":
        card = pick(draw, game.pack.cards)
        move.update(color=pick(draw, COLORS), card=card.code,
                    decision=pick(draw, DECISIONS))
    if kind in ("draw", "rest", "play_deferred") and number(draw, 0, 1):
        move["redistribute"] = signed_map(draw)
    if kind == "allocate":
        move["sp"] = {s: abs(v) for s, v in signed_map(draw).items()}
    if kind == "adjust":
        move["xp"] = pick(draw, (-300, -100, 0, 50, 100, 1000))
        move["sp"] = signed_map(draw)
        move["reason"] = "проверка"
    return move


def try_random_move(draw, game, referee):
    """A refused move changes nothing; ``check`` and ``apply`` agree; an accepted one is played."""
    move = read_move(random_move(draw, game))
    before = state_of(game)
    try:
        game.check(move)
    except IllegalMoveError as refused:
        assert state_of(game) == before
        with pytest.raises(IllegalMoveError) as again:
            game.apply(move)
        assert again.value.code == refused.code
        assert state_of(game) == before, f"refused {move.describe()} ({refused.code}) changed the game"
        return
    assert state_of(game) == before, "check() changed the game"
    referee.moved(move, game.apply(move))


def play_out(data, pack, players):
    """Play a whole game chosen by hypothesis; return the record and the finished game."""
    game = Game(pack, players, table="Стол 1")
    referee = Referee(game)
    try:
        while not game.finished:
            if number(data.draw, 0, 7) == 7:
                try_random_move(data.draw, game, referee)
                continue
            move_data = legal_move(data.draw, game)
            move = read_move(move_data)
            referee.moved(move, game.apply(move))
            assert move.to_dict() == move_data
        referee.finished()
    except Exception:
        note("moves so far: " + json.dumps([m.to_dict() for m in game.moves], ensure_ascii=False))
        raise
    return Record(table="Стол 1", pack=pack, players=players, moves=list(game.moves)), game


# ----- the properties ---------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("pack_name", list(PACKS))
@examples(120)
@given(data=st.data())
def test_random_legal_games_keep_the_rules_after_every_move(pack_name, data):
    pack = PACKS[pack_name]
    record, game = play_out(data, pack, data.draw(tables(pack), label="players"))
    assert_replays_the_same(record, game)


@pytest.mark.slow
@examples(600)
@given(seed=st.integers(0, 2 ** 32 - 1), players=st.sampled_from((3, 4)),
       adjust_rate=st.sampled_from((0.0, 0.0, 0.03)))
def test_simulated_tables_keep_the_rules_after_every_move(seed, players, adjust_rate):
    record, played = random_game(sample_pack(), seed=seed, players=players, adjust_rate=adjust_rate)
    game = Game(record.pack, record.players, table=record.table)
    referee = Referee(game)
    for move in record.moves:
        referee.moved(move, game.apply(move))
    referee.finished()
    assert standings([game]) == standings([played])
    assert_replays_the_same(record, game)


def test_free_sp_beyond_skill_max_are_lost_and_the_game_goes_on():
    """Found by the random games on the skill_max 9 pack: a player with every skill at 9 who
    levels up gets 2 free SP that fit nowhere. Settled (game.py, beyond RULES.md 6.3): the
    allocation places what fits, here nothing, and the rest are lost, so the table goes on."""
    pack = capped_pack(9)
    players = [PlayerSetup(name, "2009-03-14", code, {"health": 5})
               for name, code in zip(NAMES, ("C01", "C02", "C03"))]
    game = Game(pack, players)
    name = game.order[0]
    p = game.players[name]
    game.apply(read_move({"type": "adjust", "player": name, "reason": "все умения на максимуме",
                          "sp": {s: 9 - p.skills[s] for s in SKILLS if p.skills[s] < 9}}))
    game.apply(read_move({"type": "adjust", "player": name, "xp": pack.levels[1], "reason": "уровень 2"}))
    assert p.skills == dict.fromkeys(SKILLS, 9) and p.pending == 2
    with pytest.raises(IllegalMoveError):
        game.apply(read_move({"type": "allocate", "player": name, "sp": {"health": 1}}))
    game.apply(read_move({"type": "allocate", "player": name, "sp": {}}))
    assert p.pending == 0 and p.skills == dict.fromkeys(SKILLS, 9)
    game.apply(read_move({"type": "pass", "player": game.next()["player"]}))
