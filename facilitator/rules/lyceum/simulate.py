"""Random legal games: for property tests, benchmarks, demos and tuning a pack's levels.

A simulated table plays like a plausible (not clever) table: it prefers cards it can play,
rests when short of energy, shares once when it can, and allocates free SP at random.
"""

import random

from ..errors import IllegalMoveError
from .game import Game
from .moves import Move
from .record import Record
from .setup import PlayerSetup
from .skills import SKILLS

NAMES = ("Аня", "Борис", "Вика", "Гоша")


def random_setup(pack, rng, count=4):
    """``count`` players with distinct characters, random extra SP and sometimes a declaration."""
    chars = rng.sample([c.code for c in pack.characters], count)
    players = []
    for i in range(count):
        extra = {}
        for _ in range(5):
            s = rng.choice(SKILLS)
            extra[s] = extra.get(s, 0) + 1
        declaration = None
        if rng.random() < 0.7:
            target = rng.choice((35, 40, 45))
            declaration = {s: target // 5 for s in SKILLS}
        born = f"2009-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        players.append(PlayerSetup(NAMES[i], born, chars[i], extra, declaration))
    return players


def _random_fill(game, rng, name, total):
    """``total`` free SP spread at random over skills that still have room under skill_max."""
    skills = dict(game.players[name].skills)
    mx = game.pack.skill_max
    out = {}
    for _ in range(total):
        room = [s for s in SKILLS if mx is None or skills[s] < mx]
        s = rng.choice(room)
        skills[s] += 1
        out[s] = out.get(s, 0) + 1
    return out


def _random_redistribution(rng, skills, limit):
    """A small legal shuffle of SP between two skills, or None."""
    if rng.random() < 0.6 or not limit:
        return None
    give = [s for s in SKILLS if skills[s] > 0]
    if not give:
        return None
    src = rng.choice(give)
    dst = rng.choice([s for s in SKILLS if s != src])
    amount = rng.randint(1, min(limit, skills[src]))
    return {src: -amount, dst: amount}


def _pick_color(game, rng, name, era):
    """Weigh each deck by the XP the player can expect from it, as a sensible player would."""
    weights = []
    for color in ("green", "yellow", "red"):
        cards = game.pack.cards_of(era, color)
        playable = sum(1 for c in cards if game.eligible(name, c)) / len(cards) if cards else 0
        weights.append(0.05 + playable * (cards[0].xp if cards else 0))
    return rng.choices(("green", "yellow", "red"), weights=weights)[0]


def choose_move(game, rng, adjust_rate=0.0):
    """One legal move for the game's current position (the game is not finished)."""
    legal = game.legal_moves()
    kinds = {m["type"]: m for m in legal}
    if "allocate" in kinds:
        m = kinds["allocate"]
        return Move("allocate", player=m["player"], sp=_random_fill(game, rng, m["player"], m["sp"]))
    if rng.random() < adjust_rate:
        name = rng.choice(game.order)
        return Move("adjust", player=name, xp=100, reason="спецспособность карты")
    if "play_deferred" in kinds and rng.random() < 0.9:
        m = kinds["play_deferred"]
        return Move("play_deferred", player=m["player"])
    if "finish" in kinds:
        return Move("finish")
    mover = kinds["draw"]["player"]
    p = game.players[mover]
    roll = rng.random()
    if "share" in kinds and roll < 0.25:
        return Move("share", player=mover)
    if p.skills["energy"] < 2 and roll < 0.5 or roll < 0.08:
        return Move("rest", player=mover,
                    redistribute=_random_redistribution(rng, dict(p.skills, energy=p.skills["energy"] + 1),
                                                        kinds["rest"]["redistribute_limit"]))
    if roll < 0.1:
        return Move("pass", player=mover)
    era = kinds["draw"]["era"]
    color = _pick_color(game, rng, mover, era)
    card = rng.choice(game.pack.cards_of(era, color))
    decisions = game.decisions(mover, card)
    decision = decisions[0] if rng.random() < 0.9 else rng.choice(decisions)
    redistribute = None
    if decision == "play" and card.redistribute:
        redistribute = _random_redistribution(rng, game._after_card(p, card), card.redistribute)
    return Move("draw", player=mover, color=color, card=card.code, decision=decision,
                redistribute=redistribute)


def random_game(pack, seed=0, players=4, adjust_rate=0.0, finish=True, table="Стол 1"):
    """A complete random legal game as a ``Record``, and the ``Game`` it leaves."""
    rng = random.Random(seed)
    setup = random_setup(pack, rng, players)
    game = Game(pack, setup, table=table)
    while not game.finished:
        move = choose_move(game, rng, adjust_rate)
        if move.type == "finish" and not finish:
            break
        try:
            game.apply(move)
        except IllegalMoveError:  # a random redistribution may be refused; try another move
            continue
    return Record(table=table, pack=pack, players=setup, moves=list(game.moves)), game
