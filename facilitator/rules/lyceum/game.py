"""The game state and its moves: RULES.md 3 and 4, enforced here and only here.

``Game.check(move)`` says whether a move is legal now (raising ``IllegalMoveError`` with
the rule and the numbers), ``Game.apply(move)`` also carries it out and returns a
``MoveResult`` saying what changed. A refused move leaves the game untouched: every
handler validates first and returns the mutation to run only when all checks passed.
"""

from dataclasses import dataclass, field

from .cards import COLORS, Card, colour_breaks
from .eras import ROUNDS, age_in_round, era_of_round
from ..errors import IllegalMoveError
from .fields import MAX_SP, MAX_XP
from .moves import MOVE_TYPES, Move
from .setup import DECLARATION_BONUS, check_setup, start_skills, turn_order
from .skills import SKILLS

SKILL_SET = frozenset(SKILLS)
#: each round's era and its key (``era_of_round(r)``), looked up once a move
_ERA = {r: era_of_round(r) for r in range(1, ROUNDS + 1)}
_ERA_KEY = {r: era.key for r, era in _ERA.items()}
#: the ``Game`` method that plans each type of move
_PLAN = {kind: "_plan_" + kind for kind in MOVE_TYPES}

#: RULES.md 3.5: free SP for every new level reached
LEVEL_UP_SP = 2
#: RULES.md 3.3: a deferred card is playable in the next rounds, this many
DEFER_ROUNDS = 3
#: RULES.md 3.2: a rest gives this skill +``REST_GAIN`` and ``REST_FREE_SP`` free SP
REST_SKILL, REST_GAIN, REST_FREE_SP = "energy", 1, 1
#: RULES.md 3.2 and decision 6.5: sharing needs this level and this much energy, once per game
SHARE_LEVEL, SHARE_ENERGY = 3, 1
#: RULES.md 3.7: every XP in the game is a multiple of this, so a correction is too
XP_STEP = 100


def share_amount(xp):
    """30% of the sharer's XP rounded to the nearest 100, halves up: 1500 -> 500, 1400 -> 400."""
    return ((3 * xp + 500) // 1000) * 100


def last_playable_round(deferred_in):
    """RULES.md 3.3: a card deferred in round *d* is playable in rounds d+1 .. d+3, and the
    game ends with round 10."""
    return min(deferred_in + DEFER_ROUNDS, ROUNDS)


@dataclass
class Deferred:
    card: Card
    round: int

    @property
    def expires_after_round(self):
        """``d + 3`` as `lyceum-standings/1` writes it (RECORD.md 3), even past round 10."""
        return self.round + DEFER_ROUNDS

    @property
    def last_round(self):
        """The last round the card can really be played in: ``d + 3``, but never past the
        game's last round (a card deferred in round 9 can be played in round 10 only). Every
        screen and sheet shows this number."""
        return last_playable_round(self.round)

    def to_dict(self):
        return {"card": self.card.label, "round": self.round,
                "expires_after_round": self.expires_after_round}


@dataclass
class PlayerState:
    name: str
    seat: int
    character: str
    born: str
    skills: dict
    declaration: dict | None = None
    xp: int = 0
    best_level: int = 1  # highest level ever reached: level-up SP are given once per level
    pending: int = 0
    pending_reasons: list = field(default_factory=list)  # [(reason, amount)]: level/card/rest/share
    deferred: Deferred | None = None
    shared: bool = False

    @property
    def declared(self):
        return sum(self.declaration.values()) if self.declaration else None

    def declaration_met(self):
        if not self.declaration:
            return False
        return all(self.skills[s] >= self.declaration.get(s, 0) for s in SKILLS)

    def bonus(self):
        """The bonus this player gets if the game ended now (RULES.md 4)."""
        return DECLARATION_BONUS[self.declared] if self.declaration_met() else 0

    def snapshot(self):
        return (self.xp, dict(self.skills), self.pending, self.best_level)

    def copy(self):
        """An independent copy: the mutable parts (skills, reasons) are copied, the card of a
        deferred card and the declaration are shared (never changed in place). Every field as
        it is, without ``__init__`` (``dataclasses.replace`` was most of a move's copy of the game)."""
        other = object.__new__(PlayerState)
        other.__dict__.update(self.__dict__)
        other.skills, other.pending_reasons = dict(self.skills), list(self.pending_reasons)
        return other


@dataclass
class MoveResult:
    """What one move did: for the host's "what changed" line and the protocol's log.

    A result of ``Game.apply`` works out its ``changes`` when first read (a replay reads none of
    them; the screens read them after it): ``apply`` keeps, for each player the move can change,
    the numbers before and after it and the skills dict of each side. The engine never changes
    a skills dict in place once a move has run on it (``apply`` hands the move a copy), so the
    changes read the same whenever they are worked out."""

    index: int  # 0-based position among applied moves
    move: Move
    round: int
    era: str
    card: Card | None = None
    changes: dict = field(default_factory=dict)  # name -> {"xp", "skills", "pending", "levels"}
    expired: list = field(default_factory=list)  # [(player, card)] deferred cards discarded
    deferred_until: int | None = None  # a deferral: the last round it may really be played in
    shared_xp: int | None = None
    after: dict = field(default_factory=dict)  # name -> (xp, level) after the move

    @classmethod
    def new(cls, index, move):
        """``MoveResult(index, move, round=0, era="")``, made without the dataclass's ``__init__``
        (one is made for every move of every replay); ``tests/rules/test_replay_fast_paths.py``
        holds the two the same."""
        result = object.__new__(cls)
        result.__dict__.update(index=index, move=move, round=0, era="", card=None, changes={}, expired=[],
                               deferred_until=None, shared_xp=None, after={})
        return result

    def __getattr__(self, name):
        """``changes`` of a result ``Game.apply`` made, worked out from what it kept (``_diff``)
        when first read; nothing else is ever missing."""
        if name == "changes":
            diff = self.__dict__.get("_diff")
            if diff is not None:
                changes = self.__dict__["changes"] = _changes(diff)  # two threads: equal dicts
                return changes
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


def _changes(diff):
    """A move's ``changes`` from ``(name, xp, skills, pending, best level)`` before and after it,
    one entry per player it could change, in seat order: only what changed, and only the
    players something changed for."""
    changes = {}
    for n, xp, skills, pending, best, xp_now, now, pending_now, best_now in diff:
        change = {}
        if xp_now != xp:
            change["xp"] = xp_now - xp
        if now != skills:
            delta_skills = {}
            for s in SKILLS:
                if now[s] != skills[s]:
                    delta_skills[s] = now[s] - skills[s]
            if delta_skills:
                change["skills"] = delta_skills
        if pending_now != pending:
            change["pending"] = pending_now - pending
        if best_now != best:
            change["levels"] = list(range(best + 1, best_now + 1))
        if change:
            changes[n] = change
    return changes


def _illegal(rule, code, template, **params):
    return IllegalMoveError(rule, code, template, **params)


class Game:
    """One table's game from setup to finish, replayed move by move."""

    def __init__(self, pack, players, table=""):
        check_setup(pack, players)
        self.pack = pack
        self.table = table
        self.setup = list(players)
        self.order = [players[i].name for i in turn_order(pack, players)]
        self.players = {}
        for seat, p in enumerate(players):
            self.players[p.name] = PlayerState(
                name=p.name, seat=seat, character=p.character, born=p.born,
                skills=start_skills(pack, p), declaration=dict(p.declaration) if p.declaration else None)
        self.round = 1
        self.turn = 0  # index into self.order of the player whose turn it is
        self.main_done = False  # has that player made this turn's main move
        self.finished = False
        self.moves = []
        self.history = []

    def copy(self):
        """A game that moves independently of this one, without replaying anything: the app
        keeps the game of each table's newest position and applies a new move to a copy of it,
        so a write costs the same in round 10 as in round 1. The pack, the setup and past move
        results are shared (never changed in place)."""
        other = object.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.players = {n: p.copy() for n, p in self.players.items()}
        other.moves = list(self.moves)
        other.history = list(self.history)
        return other

    # ----- where the game is ------------------------------------------------------------
    @property
    def era(self):
        return era_of_round(self.round)

    @property
    def age(self):
        return age_in_round(self.round)

    @property
    def current(self):
        """The player whose turn it is (who made, or is to make, the current main move)."""
        return self.order[self.turn]

    def players_in_order(self):
        return [self.players[n] for n in self.order]

    def level(self, name):
        return self.pack.level_for(self.players[name].xp)

    def pending(self):
        """Players with free SP to allocate, in turn order: ``{name: count}``."""
        return {n: self.players[n].pending for n in self.order if self.players[n].pending}

    def _next_turn(self):
        """(round, turn) of the next main move, or None once round 10's last turn has begun."""
        if not self.main_done:
            return self.round, self.turn
        if self.turn + 1 < len(self.order):
            return self.round, self.turn + 1
        if self.round < ROUNDS:
            return self.round + 1, 0
        return None

    def upcoming(self):
        """``(round, turn index)`` of the next main move, or None once round 10's last turn
        has begun: where a screen's banner and draw deck belong."""
        return self._next_turn()

    def next(self):
        """What the game waits for, as in `lyceum-standings/1`'s ``next``."""
        if self.finished:
            return None
        pending = self.pending()
        if pending:
            return {"player": next(iter(pending)), "expects": "allocate"}
        nxt = self._next_turn()
        if nxt is None:
            return {"player": None, "expects": "finish"}
        return {"player": self.order[nxt[1]], "expects": "main"}

    # ----- questions the host's screens ask ---------------------------------------------
    def shortfalls(self, name, card):
        """Every skill in which ``name`` falls short of ``card``: ``[(skill, have, need)]``."""
        return card.shortfalls(self.players[name].skills)

    def eligible(self, name, card):
        return card.eligible(self.players[name].skills)

    def card_check(self, name, card):
        """RULES.md 3.1 as a host reads it off the card, one row per skill: what the player
        has, the card's condition, loss and gain, and whether the player falls short there."""
        skills = self.players[name].skills
        return [{"skill": s, "have": skills[s], "condition": card.conditions.get(s, 0),
                 "loss": card.losses.get(s, 0), "gain": card.gains.get(s, 0),
                 "short": skills[s] < max(card.conditions.get(s, 0), card.losses.get(s, 0))}
                for s in SKILLS]

    def deferred_status(self, name):
        """What a player's deferred card can do now: ``None`` when none is held, else
        ``{"card", "round", "last_round", "playable_now", "shortfalls", "from_round"}`` — playable
        now when it is this player's turn after their main move, in a later round than it was
        deferred in, and they are eligible (RULES.md 3.3)."""
        p = self.players[name]
        held = p.deferred
        if held is None:
            return None
        short = held.card.shortfalls(p.skills)
        now = (self.main_done and self.current == name and held.round < self.round and not short
               and not self.finished and not self.pending())
        return {"card": held.card, "round": held.round, "last_round": held.last_round, "playable_now": now,
                "shortfalls": short, "from_round": held.round + 1}

    def new_era(self):
        """The era that begins with the next main move, when that move opens it (the host
        announces it and changes the decks), else None."""
        nxt = self._next_turn()
        if nxt is None or self.pending():
            return None
        round_no, turn = nxt
        era = era_of_round(round_no)
        return era if turn == 0 and era.first_round == round_no and (round_no, turn) != (self.round, self.turn) \
            else None

    def declaration_checks(self, name):
        """A declared future image against the player's skills: ``[(skill, target, have)]``
        (RULES.md 4), or [] when nothing was declared."""
        p = self.players[name]
        if not p.declaration:
            return []
        return [(s, p.declaration.get(s, 0), p.skills[s]) for s in SKILLS]

    def finish_preview(self):
        """The game as finishing it now would leave it (final bonuses, places), without
        finishing this one: what the host confirms before the game is closed."""
        preview = self.copy()
        preview.apply(Move("finish"))
        return preview

    def decisions(self, name, card):
        """Which of play / defer / discard the rules allow for this drawn card."""
        out = []
        if self.eligible(name, card):
            out.append("play")
        elif self.players[name].deferred is None:
            out.append("defer")
        out.append("discard")
        return out

    def share_preview(self, name):
        """What a share by ``name`` would give every other player: ``{other: xp}``."""
        amount = share_amount(self.players[name].xp)
        return {n: amount for n in self.order if n != name}

    def can_share(self, name):
        return self.share_refusal(name) is None

    def share_refusal(self, name):
        """Why ``name`` may not share now (the ``IllegalMoveError`` a share would get), or None."""
        try:
            self._check_share(self.players[name])
        except IllegalMoveError as err:
            return err
        return None

    def allocatable(self, name):
        """How many of a player's pending free SP can be placed: all of them, unless the pack's
        ``skill_max`` leaves less room; SP that fit nowhere are forfeited by the allocation
        (a decision beyond RULES.md 6.3, so a table never gets stuck)."""
        p = self.players[name]
        mx = self.pack.skill_max
        if mx is None:
            return p.pending
        return min(p.pending, sum(max(0, mx - p.skills[s]) for s in SKILLS))

    def rest_limit(self, round_no=None):
        """How many SP a rest may redistribute in this (or the given) round's era."""
        return era_of_round(round_no or self.round).rest_limit

    def card_by_code(self, code):
        return self.pack.cards_by_code.get(code)

    def legal_moves(self):
        """The moves the rules allow now, as dicts a screen or the API can offer."""
        if self.finished:
            return []
        out = []
        pending = self.pending()
        if pending:
            out += [{"type": "allocate", "player": n, "sp": self.allocatable(n), "pending": k}
                    for n, k in pending.items()]
            out.append({"type": "adjust"})
            return out
        nxt = self._next_turn()
        if self.main_done:
            p = self.players[self.current]
            if p.deferred and p.deferred.round < self.round and self.eligible(p.name, p.deferred.card):
                out.append({"type": "play_deferred", "player": p.name, "card": p.deferred.card.label,
                            "redistribute_limit": p.deferred.card.redistribute})
        if nxt is not None:
            round_no, turn = nxt
            mover = self.order[turn]
            out.append({"type": "draw", "player": mover, "colors": list(COLORS),
                        "era": era_of_round(round_no).key})
            out.append({"type": "rest", "player": mover, "redistribute_limit": self.rest_limit(round_no)})
            if self.can_share(mover):
                out.append({"type": "share", "player": mover, "gives": share_amount(self.players[mover].xp)})
            out.append({"type": "pass", "player": mover})
        else:
            out.append({"type": "finish"})
        out.append({"type": "adjust"})
        return out

    # ----- checking and applying moves --------------------------------------------------
    def check(self, move):
        """Raise ``IllegalMoveError`` if ``move`` is not legal now; change nothing."""
        self._plan(move)

    def apply(self, move):
        """Carry out a legal move and return what it changed; an illegal one changes nothing."""
        run = self._plan(move)
        players = self.players
        # what a move changes is its player's, but for a share's XP given to every other player
        # (and a finish's, which names no player); each of them gets a copy of their skills to
        # change, their skills before the move kept unchanged for the result's ``changes``
        everyone = move.player is None or move.type == "share"
        if everyone:
            touched = tuple(players.values())
            before = []
            for p in touched:
                skills = p.skills
                p.skills = skills.copy()
                before.append((p.xp, skills, p.pending, p.best_level))
        else:
            p = players[move.player]
            skills = p.skills
            p.skills = skills.copy()
            xp, pending, best = p.xp, p.pending, p.best_level
        # ``MoveResult.new`` but for ``changes``, worked out when read (and ``card``, ``deferred_until``
        # and ``shared_xp`` left to their class's None unless the move sets them)
        result = object.__new__(MoveResult)
        result.index = len(self.moves)
        result.move = move
        result.expired = []
        run(result)
        round_no = result.round = self.round
        result.era = _ERA_KEY.get(round_no) or era_of_round(round_no).key
        level_for = self.pack.level_for
        history = self.history
        if history:  # only the move's players can have moved on since the last move
            after = dict(history[-1].after)
        else:
            after = {n: (q.xp, level_for(q.xp)) for n, q in players.items()}
        if everyone:
            diff = []
            for p, (xp, skills, pending, best) in zip(touched, before):
                if p.xp != xp:
                    after[p.name] = (p.xp, level_for(p.xp))
                diff.append((p.name, xp, skills, pending, best, p.xp, p.skills, p.pending, p.best_level))
            result._diff = tuple(diff)
        else:
            if p.xp != xp:
                after[p.name] = (p.xp, level_for(p.xp))
            result._diff = ((p.name, xp, skills, pending, best, p.xp, p.skills, p.pending, p.best_level),)
        result.after = after
        self.moves.append(move)
        history.append(result)
        return result

    def _plan(self, move):
        if self.finished:
            raise _illegal("6.6", "finished", "the game is finished; no more moves are accepted")
        if move.player is not None and move.player not in self.players:
            raise _illegal("2.1", "unknown_player", "unknown player {player!r}; the players are {allowed}",
                           player=move.player, allowed=", ".join(self.order))
        if move.type not in ("allocate", "adjust"):
            players = self.players
            for p in players.values():  # anyone's pending SP at all (the usual answer: nobody's)
                if p.pending:
                    for who in self.order:  # the first of ``pending()``
                        count = players[who].pending
                        if count:
                            raise _illegal("3.6", "pending_sp",
                                           "{who} has {count} free SP to allocate first; until then only "
                                           "allocate and adjust are accepted", who=who, count=count)
        handler = getattr(self, _PLAN.get(move.type) or "_plan_" + move.type)
        return handler(move)

    # main moves ------------------------------------------------------------------------
    def _main_turn(self, move):
        """Check it is ``move.player``'s turn for a main move; return its (round, turn)."""
        # ``_next_turn`` spelled out (every main move asks)
        round_no, turn = self.round, self.turn
        if self.main_done:
            if turn + 1 < len(self.order):
                turn += 1
            elif round_no < ROUNDS:
                round_no, turn = round_no + 1, 0
            else:
                raise _illegal("4", "round10_over",
                               "every player has had their turn in round {rounds}; the game waits for finish",
                               rounds=ROUNDS)
        expected = self.order[turn]
        if move.player != expected:
            raise _illegal("3.8", "not_your_turn",
                           "it is {expected}'s turn (round {round}), not {player}'s",
                           expected=expected, round=round_no, player=move.player)
        return round_no, turn

    def _begin_turn(self, round_no, turn, result):
        """End the previous turn (expiring its deferred card) and start the next one."""
        if self.main_done:
            p = self.players[self.order[self.turn]]  # the player whose turn ends
            held = p.deferred
            if held and held.round + DEFER_ROUNDS <= self.round:  # ``held.expires_after_round``
                result.expired.append((p.name, held.card))
                p.deferred = None
        self.round, self.turn, self.main_done = round_no, turn, True

    def _plan_draw(self, move):
        round_no, turn = self._main_turn(move)
        p = self.players[move.player]
        era = _ERA.get(round_no) or era_of_round(round_no)
        if isinstance(move.card, str):
            card = self.pack.cards_by_code.get(move.card)
            if card is None:
                raise _illegal("1", "unknown_card",
                               "unknown card {card!r}: the pack has no such card", card=move.card)
            if card.era != era.key:
                raise _illegal("3.2", "wrong_era",
                               "card {card} is of the era {card_era}, but round {round} is in the era {era}",
                               card=card.code, card_era=card.era, round=round_no, era=era.key)
        else:
            card = move.card
            for broken in colour_breaks(card):  # a hand-entered card obeys RULES.md 1 too
                raise _illegal("1", "card_colour", "card {card}: {problem}", card=card.label,
                               problem=broken.message,
                               colour_break={"template": broken.template, "params": broken.params})
        if card.color != move.color:
            raise _illegal("3.2", "wrong_color",
                           "card {card} is {card_color}, but the player drew from the {color} deck",
                           card=card.label, card_color=card.color, color=move.color)
        if move.decision != "play" and move.redistribute is not None:
            raise _illegal("3.4", "redistribute_not_allowed",
                           "a redistribution goes only with playing a card whose special allows it")
        short = card.shortfalls(p.skills) if move.decision != "discard" else None  # a discard asks nothing
        redistribute = None
        if move.decision == "play":
            if short:
                raise self._not_eligible(short)
            redistribute = None if move.redistribute is None else \
                self._check_card_redistribution(card, move.redistribute, self._after_card(p, card))
        elif move.decision == "defer":
            if not short:
                raise _illegal("3.2", "defer_eligible",
                               "a card can be deferred only when the player is not eligible for it, "
                               "and {player} is eligible for {card}", player=p.name, card=card.label)
            held = p.deferred  # the mover's own deferred card expires only when this turn ends
            if held is not None:
                raise _illegal("3.2", "already_deferred",
                               "{player} already holds a deferred card ({card}, deferred in round {round}); "
                               "only one card can be deferred at a time",
                               player=p.name, card=held.card.label, round=held.round)

        def run(result):
            self._begin_turn(round_no, turn, result)
            result.card = card
            if move.decision == "play":
                self._apply_card(p, card, redistribute)
            elif move.decision == "defer":
                p.deferred = Deferred(card, round_no)
                result.deferred_until = last_playable_round(round_no)
        return run

    def _plan_rest(self, move):
        round_no, turn = self._main_turn(move)
        p = self.players[move.player]
        limit = era_of_round(round_no).rest_limit
        after = dict(p.skills)
        after[REST_SKILL] = self._capped(after[REST_SKILL] + REST_GAIN)
        redistribute = self._check_redistribution(move.redistribute, limit, after, "3.2")

        def run(result):
            self._begin_turn(round_no, turn, result)
            p.skills[REST_SKILL] = self._capped(p.skills[REST_SKILL] + REST_GAIN)
            self._add_pending(p, REST_FREE_SP, "rest")
            self._redistribute(p, redistribute)
        return run

    def _check_share(self, p):
        level = self.pack.level_for(p.xp)
        if level < SHARE_LEVEL:
            raise _illegal("3.2", "share_level", "sharing needs level {need} or higher; {player} is level {level}",
                           need=SHARE_LEVEL, player=p.name, level=level)
        if p.shared:
            raise _illegal("3.2", "share_twice", "{player} has already shared once in this game",
                           player=p.name)
        if p.skills["energy"] < SHARE_ENERGY:
            raise _illegal("6.5", "share_energy", "sharing needs energy at least {need}; {player} has {energy}",
                           need=SHARE_ENERGY, player=p.name, energy=p.skills["energy"])

    def _plan_share(self, move):
        round_no, turn = self._main_turn(move)
        p = self.players[move.player]
        self._check_share(p)
        amount = share_amount(p.xp)

        def run(result):
            self._begin_turn(round_no, turn, result)
            result.shared_xp = amount
            for other in self.players_in_order():
                if other is not p and amount:
                    self._gain_xp(other, amount)
            p.skills["communication"] = self._capped(p.skills["communication"] + 1)
            p.skills["energy"] -= 1
            self._add_pending(p, 1, "share")
            p.shared = True
        return run

    def _plan_pass(self, move):
        round_no, turn = self._main_turn(move)

        def run(result):
            self._begin_turn(round_no, turn, result)
        return run

    # the rest of a turn ----------------------------------------------------------------
    def _plan_play_deferred(self, move):
        if not self.main_done or move.player != self.current:
            if self.main_done:  # a turn lasts until the next main move (3.8)
                raise _illegal("3.3", "deferred_after_main",
                               "a deferred card is played by the player whose turn it is, after their main "
                               "move; now it is {player}'s turn", player=self.current)
            raise _illegal("3.3", "deferred_after_main",
                           "a deferred card is played by the player whose turn it is, after their main "
                           "move; now it is {player}'s turn and the main move is still to come",
                           player=self.current)
        p = self.players[move.player]
        held = p.deferred
        if held is None:
            raise _illegal("3.3", "no_deferred", "{player} holds no deferred card", player=p.name)
        if held.round >= self.round:
            raise _illegal("3.3", "deferred_same_round",
                           "card {card} was deferred in this round ({round}); it can be played from "
                           "round {first}", card=held.card.label, round=held.round, first=held.round + 1)
        short = held.card.shortfalls(p.skills)
        if short:
            raise self._not_eligible(short)
        redistribute = None if move.redistribute is None else \
            self._check_card_redistribution(held.card, move.redistribute, self._after_card(p, held.card))

        def run(result):
            result.card = held.card
            p.deferred = None
            self._apply_card(p, held.card, redistribute)
        return run

    def _plan_allocate(self, move):
        p = self.players[move.player]
        if not p.pending:
            raise _illegal("3.6", "nothing_pending", "{player} has no free SP to allocate", player=p.name)
        for s, v in move.sp.items():  # free SP are added, never taken: no hidden redistribution
            if s not in SKILL_SET or v < 0:
                raise _illegal("3.6", "allocate_negative",
                               "free SP are added to skills, so {skill} {value} cannot be allocated",
                               skill=s, value=v)
        given = sum(move.sp.values())
        due = self.allocatable(p.name)
        if given != due:
            if due < p.pending:
                raise _illegal("3.6", "allocate_room",
                               "{player} has {pending} free SP but only {room} fit under the pack's maximum; "
                               "allocate exactly {room}, got {given}",
                               player=p.name, pending=p.pending, room=due, given=given)
            raise _illegal("3.6", "allocate_sum",
                           "{player} must allocate exactly {pending} free SP at once, got {given}",
                           player=p.name, pending=p.pending, given=given)
        after = p.skills.copy()  # every skill, the SP added
        for s, v in move.sp.items():
            after[s] += v
        self._check_max(after, "3.6")

        def run(result):
            for s, v in move.sp.items():
                p.skills[s] += v
            p.pending = 0
            p.pending_reasons = []
        return run

    def _plan_adjust(self, move):
        if move.player is None:
            raise _illegal("3.7", "adjust_player", "an adjust names the player it corrects")
        if not (move.reason or "").strip():
            raise _illegal("3.7", "adjust_reason", "an adjust needs a reason; it is printed in the protocol")
        p = self.players[move.player]
        xp = move.xp or 0
        sp = move.sp or {}
        if not xp and not any(sp.values()):
            raise _illegal("3.7", "adjust_nothing", "an adjust must change XP or at least one skill")
        if xp % XP_STEP:
            raise _illegal("3.7", "adjust_xp_step", "XP changes in steps of {step}, got {xp}", step=XP_STEP, xp=xp)
        if p.xp + xp < 0:
            raise _illegal("3.7", "adjust_xp_negative", "XP cannot go below 0: {player} has {have}, change {xp}",
                           player=p.name, have=p.xp, xp=xp)
        if p.xp + xp > MAX_XP:
            raise _illegal("3.7", "adjust_xp_max", "XP can be at most {max}: {player} has {have}, change {xp}",
                           max=MAX_XP, player=p.name, have=p.xp, xp=xp)
        after = {s: p.skills[s] + sp.get(s, 0) for s in SKILLS}
        for s in SKILLS:
            if after[s] < 0:
                raise _illegal("3.7", "skill_negative", "{skill} cannot go below 0: {player} has {have}, "
                               "change {delta}", skill=s, player=p.name, have=p.skills[s], delta=sp[s])
        self._check_max(after, "3.7")

        def run(result):
            p.skills.update(after)
            if xp > 0:
                self._gain_xp(p, xp)
            else:
                p.xp += xp
        return run

    def _plan_finish(self, move):
        if self._next_turn() is not None:
            nxt = self._next_turn()
            raise _illegal("4", "finish_early",
                           "the game can be finished only after the last turn of round {rounds}; "
                           "next is {player}'s turn in round {round}",
                           rounds=ROUNDS, player=self.order[nxt[1]], round=nxt[0])

        def run(result):
            for p in self.players_in_order():
                if p.deferred:
                    result.expired.append((p.name, p.deferred.card))
                    p.deferred = None
            self.finished = True
        return run

    # helpers -------------------------------------------------------------------------
    def _not_eligible(self, short):
        text = ", ".join(f"{s} {have} < {need}" for s, have, need in short)
        return _illegal("3.1", "not_eligible", "not eligible: {shortfalls}", shortfalls=text,
                        missing=[{"skill": s, "have": have, "need": need} for s, have, need in short])

    def _capped(self, value):
        """A fixed gain stops at the pack's ``skill_max`` (RULES.md 6.3), and at ``MAX_SP`` in
        any pack: no skill of a real game comes near it, and nothing entered may pass it."""
        mx = self.pack.skill_max
        return min(value, MAX_SP if mx is None else min(mx, MAX_SP))

    def _after_card(self, p, card):
        return {s: self._capped(p.skills[s] - card.losses.get(s, 0) + card.gains.get(s, 0)) for s in SKILLS}

    def _check_card_redistribution(self, card, redistribute, after):
        if redistribute is None:
            return None
        if not card.redistribute:
            raise _illegal("3.4", "redistribute_not_allowed",
                           "card {card} has no redistribution special; only such a card may redistribute",
                           card=card.label)
        return self._check_redistribution(redistribute, card.redistribute, after, "3.4")

    def _check_redistribution(self, redistribute, limit, after, rule):
        if not redistribute:
            return None
        if sum(redistribute.values()) != 0:
            raise _illegal(rule, "redistribute_sum",
                           "a redistribution moves SP between skills, its changes must sum to 0, got {sum}",
                           sum=sum(redistribute.values()))
        moved = sum(v for v in redistribute.values() if v > 0)
        if moved > limit:
            raise _illegal(rule, "redistribute_limit",
                           "at most {limit} SP may be redistributed here, got {moved}", limit=limit, moved=moved)
        for s, v in redistribute.items():
            if after[s] + v < 0:
                raise _illegal(rule, "skill_negative",
                               "{skill} cannot go below 0: it would be {have} {delta:+d}",
                               skill=s, have=after[s], delta=v)
        self._check_max({s: after[s] + redistribute.get(s, 0) for s in SKILLS}, rule)
        return redistribute

    def _check_max(self, skills, rule):
        """Refuse the first skill of ``skills`` (every skill's value) above the pack's maximum
        (above ``MAX_SP`` in a pack without one)."""
        mx = self.pack.skill_max
        if max(skills.values()) <= (MAX_SP if mx is None else mx):  # the usual case, checked at once
            return
        if mx is None:
            for s in SKILLS:
                if skills[s] > MAX_SP:
                    raise _illegal(rule, "above_sp_limit", "{skill} would be {value}, above {max}: no skill of "
                                   "the game goes that high", skill=s, value=skills[s], max=MAX_SP)
            return
        for s in SKILLS:
            if skills[s] > mx:
                raise _illegal(rule, "above_max", "{skill} would be {value}, above the pack's maximum {max}",
                               skill=s, value=skills[s], max=mx)

    def _apply_card(self, p, card, redistribute):
        skills = p.skills
        for s, v in card.losses.items():
            skills[s] -= v
        if card.gains:
            mx = self.pack.skill_max  # ``_capped`` spelled out
            cap = MAX_SP if mx is None else min(mx, MAX_SP)
            for s, v in card.gains.items():
                skills[s] = min(skills[s] + v, cap)
        if card.free:
            self._add_pending(p, card.free, "card")
        self._gain_xp(p, card.xp)
        if redistribute:
            self._redistribute(p, redistribute)

    def _redistribute(self, p, redistribute):
        for s, v in (redistribute or {}).items():
            p.skills[s] += v

    def _add_pending(self, p, amount, reason):
        p.pending += amount
        p.pending_reasons.append((reason, amount))

    def _gain_xp(self, p, amount):
        p.xp += amount
        level = self.pack.level_for(p.xp)
        if level > p.best_level:
            self._add_pending(p, LEVEL_UP_SP * (level - p.best_level), "level")
            p.best_level = level
