"""Random legal games of Alter Ego: for property tests, benchmarks and demos.

A simulated table plays like a plausible (not clever) one: each turn it draws (or, now and
then, finds the season card), plays activities mostly onto its own actives, plays events
with fields picked among sensible candidates, uses abilities, ends its turn when its hand
runs low; any player reacts to a trigger now and then, pending choices are answered at
random, and the host corrects something with an ``adjust`` once in a while. Every move is
checked by the game before it is made, so every move of the record is legal; the season
card comes often enough that a game goes through all four seasons.
"""

import random

from .game import Game
from .moves import Move, read_move
from .pack import USED_ABILITIES, default_pack
from .record import Record
from .setup import PlayerSetup, Setup

NAMES = ("Aino", "Bertta", "Cecilia")
_ATTEMPTS = 10


def random_setup(pack, rng, players=2):
    """``players`` players with 3 random actives each and a random first player."""
    keys = rng.sample([a.key for a in pack.actives], 3 * players)
    seats = tuple(PlayerSetup(name=NAMES[i], actives=tuple(keys[3 * i:3 * i + 3]),
                              born=f"19{rng.randint(80, 99)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}")
                  for i in range(players))
    return Setup(players=seats, first=rng.choice(NAMES[:players]))


class Player:
    """Picks moves for a table; ``rates`` say how often the rarer things happen."""

    def __init__(self, game, rng, adjust_rate=0.02, react_rate=0.3, season_rate=0.1, finish_rate=0.0):
        self.game = game
        self.rng = rng
        self.adjust_rate = adjust_rate
        self.react_rate = react_rate
        self.season_rate = season_rate
        self.finish_rate = finish_rate

    def legal(self, move):
        return move is not None and self.game._try(move, partial=False) is None

    def first_legal(self, make):
        for _ in range(_ATTEMPTS):
            move = make()
            if self.legal(move):
                return move
        return None

    def choose(self):
        """One legal move for the position (the game is not finished)."""
        game, rng = self.game, self.rng
        st = game.state
        if game.trigger is not None and rng.random() < self.react_rate:
            move = self.first_legal(self.react)
            if move is not None:
                return move
        if rng.random() < self.adjust_rate:
            move = self.first_legal(self.adjust)
            if move is not None:
                return move
        if rng.random() < self.finish_rate:
            return Move("finish", reason="time limit")
        if st.pending:
            return self.answer()
        me = game.current
        if st.step == "draw":
            return Move("season" if rng.random() < self.season_rate else "draw", player=me)
        last = game.moves[-1] if game.moves else None
        if (last is not None and last.type == "ability" and last.player == me
                and st.actives[last.active].card.ability in ("jaakko", "kalle") and rng.random() < 0.2):
            return Move("season", player=me)
        hand = st.hands[me]
        end_weight = 0.15 + (0.5 if hand <= 1 else 0)
        kind = rng.choices(("activity", "event", "ability", "end"), weights=(0.4, 0.3, 0.15, end_weight))[0]
        if kind != "end":
            move = self.first_legal(getattr(self, kind))
            if move is not None:
                return move
        return Move("end_turn", player=me)

    # ----- the candidates --------------------------------------------------------------------
    def in_game(self, away=False):
        st = self.game.state
        return [k for k in st.in_seat_order() if away or not st.actives[k].away]

    def activity(self):
        game, rng = self.game, self.rng
        st = game.state
        me = game.current
        card = rng.choice(game.pack.activity_cards)
        own = st.factions[me]
        targets = self.in_game()
        if card.is_dating:
            others = [k for k in targets if st.actives[k].owner != me]
            if len(others) < 2:
                return None
            x, y = rng.sample(others, 2)
            return Move("play_activity", player=me, card=card.key, target=x, partner=y)
        pool = [k for k in own if k in targets] if rng.random() < 0.7 else targets
        if not pool:
            return None
        return Move("play_activity", player=me, card=card.key, target=rng.choice(pool))

    def event(self):
        game, rng = self.game, self.rng
        st = game.state
        me = game.current
        card = rng.choice(game.pack.event_cards)
        effect = card.effect
        targets = self.in_game()
        if not targets:
            return None
        m = {"type": "play_event", "player": me, "card": card.key}
        if effect in ("energiapuuska", "hahmo_kuolee", "uusi_tyyli"):
            m["target"] = rng.choice(targets)
        elif effect == "maallepako":
            own = [k for k in st.factions[me] if not st.actives[k].away]
            m["target"] = rng.choice(own or targets)
        elif effect == "tyokiireita":
            workers = [k for k in targets if any(x.card.work and not x.paused for x in st.actives[k].acts)]
            m["target"] = rng.choice(workers or targets)
        elif effect == "tarkea_nakki":
            holders = [k for k in targets if any(x.card.is_hobby and not x.paused for x in st.actives[k].acts)]
            if not holders:
                return None
            x = rng.choice(holders)
            m["target"] = x
            m["hobby"] = rng.choice([a.id for a in st.actives[x].acts if a.card.is_hobby and not a.paused])
            m["chore"] = rng.choice([c.key for c in game.pack.activity_cards if c.is_chore])
        elif effect == "uusi_aktiivi":
            deck = game.active_deck
            if not deck:
                return None
            m["active"] = rng.choice(deck)
        elif effect in ("loppu", "tauko"):
            held = [a.id for k in targets for a in st.actives[k].acts]
            if not held:
                return None
            m["activity"] = rng.choice(held)
        elif effect == "bile":
            m["target"] = rng.choice(targets)
            others = [k for k in targets if k != m["target"]]
            m["participants"] = rng.sample(others, rng.randint(0, min(3, len(others))))
        return _move(m)

    def ability(self):
        game, rng = self.game, self.rng
        st = game.state
        me = game.current
        mine = [k for k in st.factions[me] if st.actives[k].card.ability in USED_ABILITIES]
        if not mine:
            return None
        key = rng.choice(mine)
        ability = st.actives[key].card.ability
        m = {"type": "ability", "player": me, "active": key}
        if ability == "pare":
            targets = self.in_game()
            if len(targets) < 3:
                return None
            m["targets"] = rng.sample(targets, 3)
        elif ability == "niksu":
            sources = [k for k in self.in_game() if k != key and st.actives[k].t >= 1]
            if not sources:
                return None
            m["from"] = rng.choice(sources)
        return _move(m)

    def react(self):
        game, rng = self.game, self.rng
        st = game.state
        number, trig = game.trigger
        players = [p for p in st.order if st.hands[p] >= 1]
        if not players:
            return None
        card = rng.choice(game.pack.reaction_cards)
        m = {"type": "react", "player": rng.choice(players), "card": card.key, "to": number}
        if card.effect == "taktinen_teko":
            gained = [e["active"] for e in game._trace if e["code"] == "gain" and not e["cancelled"]]
            if not gained:
                return None
            m["target"] = rng.choice(gained)
        elif card.effect == "ei_rahaa":
            if trig.type != "play_event" or trig.participants is None:
                return None
            m["target"] = rng.choice((trig.target,) + trig.participants)
        elif card.effect == "mun_kaverit":
            m["faction"] = rng.choice(st.order)
        return _move(m)

    def answer(self):
        game, rng = self.game, self.rng
        st = game.state
        choice = st.pending[0]
        options = st.choice_options(choice)
        if choice.kind == "discard_hobby":
            return Move("choose", player=choice.player, choice="discard_hobby", active=choice.active,
                        activity=rng.choice(options)) if options else self.stuck()
        if not options:
            return self.stuck()
        mover = rng.choice(options)
        faction = rng.choice([p for p in st.order if p != st.actives[mover].owner])
        return Move("choose", player=choice.player, choice="breakup", active=mover, faction=faction)

    def stuck(self):
        """A choice left without options (an adjust took them): the host ends the game."""
        return Move("finish", reason="a choice has no options left")

    def adjust(self):
        game, rng = self.game, self.rng
        st = game.state
        keys = self.in_game(away=True)
        held = [(k, a) for k in keys for a in st.actives[k].acts]
        kind = rng.choice(("anxiety", "hand", "owner", "away", "add", "remove", "paused"))
        key = rng.choice(keys)
        a = st.actives[key]
        if kind == "anxiety":
            change = {"active": key, "anxiety": rng.randint(-a.t, 2)}
        elif kind == "hand":
            p = rng.choice(st.order)
            change = {"player": p, "hand": rng.randint(-st.hands[p], 2)}
        elif kind == "owner":
            change = {"active": key, "owner": rng.choice(st.order)}
        elif kind == "away":
            change = {"active": key, "away": rng.random() < 0.3}
        elif kind == "add":
            free = [c for c in game.pack.activity_cards if st.copies_held(c.key) < c.count]
            if not free:
                return None
            card = rng.choice(free)
            change = {"active": key, "add": card.key}
            if card.is_dating:
                change["partner"] = rng.choice([k for k in keys if k != key])
        elif not held:
            return None
        elif kind == "remove":
            change = {"remove": rng.choice(held)[1].id}
        else:
            change = {"activity": rng.choice(held)[1].id, "paused": rng.random() < 0.5}
        return Move("adjust", changes=(change,), reason="host correction")


def _move(data):
    return read_move(data)


def play_random(rng, pack=None, players=2, max_moves=600, table="Pöytä 1", **rates):
    """``(record, game)``: a random legal game; it ends with the 4th season card, or with a
    host ``finish`` after ``max_moves`` moves."""
    rng = rng if isinstance(rng, random.Random) else random.Random(rng)
    pack = pack or default_pack()
    setup = random_setup(pack, rng, players)
    game = Game(pack, setup, table=table)
    player = Player(game, rng, **rates)
    while not game.finished:
        if len(game.moves) >= max_moves - 1:
            game._apply_fast(Move("finish", reason="time limit"))
            break
        game._apply_fast(player.choose())
    return Record(table=table, pack=pack, setup=setup, moves=list(game.moves)), game


def random_game(rng, pack=None, players=2, max_moves=600, **rates):
    """A random legal game as a ``Record`` (see ``play_random``)."""
    return play_random(rng, pack, players, max_moves, **rates)[0]
