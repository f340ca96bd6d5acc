"""What the turn screen needs to go on without the server: the engine's answers for the moves a
host can enter next (ARCHITECTURE.md decision 14, issue 18 item 2).

``turn_answers(game)`` returns the positions the game can reach through the moves a screen
offers, each with what the game waits for there, and for each move that can be entered there,
the position it leads to. Every answer is the engine's own: a card's verdict and decisions are
``Game.shortfalls`` and ``Game.decisions``; a move's outcome is found by applying it
(``Game.apply``) to a copy of only what the move changes (``moved``), once per distinct
outcome (``outcome``): every discard of a turn leaves the game alike, so does every deferral (the
card held is looked at only from the next round, RULES.md 3.3), and two cards whose play
changes the player alike (losses, gains, free SP, XP; only the free SP and XP where nothing
looks at the skills next) lead to the same position. A screen looks
these up while moves wait to be sent; it computes no rule.

The answers cover one turn of every player from the position now, and name the players of as
many turns after them. They stop, and say so, where the outcome depends on something the host types that the
engine cannot know in advance:

* an allocation of free SP changes the player's skills: afterwards the answers for that
  player's cards (and whether their deferred card becomes playable) are unknown;
* a share gives every other player XP: the answers for their cards' outcomes (levels reached)
  were computed without it, so the players after a share are only named.

Positions (``{"start": key, "positions": {key: position}}``), keys are short strings:

* ``{"expects": "main", "player", "round", "era", "age", "new_era", "known": True, "colors":
  {color: [{"card", "shortfalls", "decisions": {decision: key}, "redistribute"}]}, "rest",
  "rest_limit" (the SP a rest may move), "pass", "share" (key or None), "share_refusal" (the ``IllegalMoveError`` a share
  gets, or None)}``: a main move of ``player``, every card of the round's era with this
  player's verdict;
* ``{"expects": "main", "player", "round", ..., "known": False}``: whose turn it is, without
  answers for the cards (past the horizon, or after a share or an allocation changed them);
* a main position may carry ``"deferred": {"player", "card", "redistribute_limit", "then"}``
  (the previous mover may play their deferred card first) and then ``"base"``: the key of the
  same main position without it;
* ``{"expects": "allocate", "player", "sp", "then"}``: free SP to allocate first;
* ``{"expects": "finish"}``; ``{"expects": None}`` (key ``UNKNOWN``): the engine cannot say.
"""

from .cards import COLORS
from .eras import ROUNDS, age_in_round, era_of_round
from .game import Game
from .moves import Move
from .skills import SKILLS

#: the key of the position the engine cannot know in advance
UNKNOWN = "?"
#: what every main position says, known or not
HEAD = ("expects", "player", "round", "era", "age", "new_era", "rest_limit", "known")


def turn_answers(game: Game):
    """The answers for the moves a host can enter from ``game``'s position (module docstring)."""
    return _Answers(game).build()


def _state(p):
    """What of a player the answers for their turn depend on."""
    held = (p.deferred.card.label, p.deferred.round) if p.deferred else None
    return (p.xp, tuple(p.skills[s] for s in SKILLS), p.pending, p.best_level, held, p.shared)


def moved(game, move):
    """``game`` after ``move``, leaving ``game`` as it was, without copying what the move leaves
    alone: the players it may change are copied (its player and the player whose turn ends; a
    share changes everyone), the others shared, never changed in place. What the game has
    recorded (its moves and their results) is not carried over: the answers never read it."""
    after = object.__new__(type(game))
    after.__dict__.update(game.__dict__)
    after.players = dict(game.players)
    for name in (game.order if move.type == "share" else {move.player, game.current}):
        after.players[name] = game.players[name].copy()
    after.moves, after.history = [], []
    after.apply(move)
    return after


def outcome(game, move, card=None):
    """What decides where ``move`` leads from ``game`` (module docstring): moves of one outcome
    lead to the same position, so the engine is asked once for all of them. A played card's
    skills matter only where the answers look at them next: a deferred card the player holds
    (playable after this move or not) and the pack's skill maximum (the free SP that fit);
    without either, the free SP it gives and its XP (the levels reached) decide."""
    if move.type != "draw":
        return (move.type,)
    if move.decision != "play":
        return ("draw", move.decision)
    if game.players[move.player].deferred is None and game.pack.skill_max is None:
        return ("draw", "play", card.free, card.xp)
    return ("draw", "play", tuple(sorted(card.losses.items())), tuple(sorted(card.gains.items())), card.free,
            card.xp)


def fill_allocation(game, name):
    """Some allocation of ``name``'s free SP that the engine accepts (the first skills with
    room first): the answers use it only to find what follows an allocation, never its skills."""
    left, mx, sp = game.allocatable(name), game.pack.skill_max, {}
    for s in SKILLS:
        room = left if mx is None else min(left, max(0, mx - game.players[name].skills[s]))
        if room:
            sp[s], left = room, left - room
    return sp


class _Answers:
    def __init__(self, game):
        self.game = game
        self.order = game.order
        self.positions = {}
        self.keys = {}  # canonical tuple -> key
        self.todo = []
        self.built = set()
        # the horizon: one main turn of every player from now with answers, and as many more
        # named (whose turn comes next after a pass there)
        self.turns = []
        nxt = game.upcoming()
        if nxt is not None:
            round_no, turn = nxt
            for _ in range(2 * len(self.order)):
                if round_no > ROUNDS:
                    break
                self.turns.append((round_no, turn))
                turn += 1
                if turn == len(self.order):
                    round_no, turn = round_no + 1, 0
        self.known_turns = len(self.order)
        self.original = {n: _state(p) for n, p in game.players.items()}
        self.refs = {}  # turn index -> the game before that turn's main move (free SP allocated)
        self.tainted = frozenset()

    # ----- building -----------------------------------------------------------------------
    def build(self):
        self._references()
        start = self.key_of(self.game, frozenset())
        while self.todo:
            kind, t = self.todo.pop(0)
            if (kind, t) not in self.built:
                self.built.add((kind, t))
                self.positions[f"{kind}{t}"].update(self._main(t) if kind == "m" else self._names(t))
        self._add(("unknown",), UNKNOWN, {"expects": None})  # where a move without an answer leads
        return {"start": start, "positions": self.positions}

    def _references(self):
        """The game before each turn of the horizon, reached by passes (a pass changes nothing
        but the turn), the free SP waiting now allocated (those players' skills then unknown)."""
        ref = self.game
        tainted = set()
        while ref.next() and ref.next()["expects"] == "allocate":
            name = ref.next()["player"]
            ref = moved(ref, Move("allocate", player=name, sp=fill_allocation(ref, name)))
            tainted.add(name)
        self.tainted = frozenset(tainted)
        for t, (round_no, turn) in enumerate(self.turns):
            self.refs[t] = ref
            ref = moved(ref, Move("pass", player=self.order[turn]))

    def _add(self, canonical, key, position):
        if canonical in self.keys:
            return self.keys[canonical]
        self.keys[canonical] = key
        self.positions[key] = position
        return key

    def key_of(self, g, tainted):
        """The key of the position ``g`` waits in (adding it, and what follows it, to the answers)."""
        if g.finished:
            return self._add(("unknown",), UNKNOWN, {"expects": None})
        nxt = g.next()
        if nxt["expects"] == "allocate":
            name = nxt["player"]
            after = moved(g, Move("allocate", player=name, sp=fill_allocation(g, name)))
            then = self.key_of(after, tainted | {name})
            sp = g.allocatable(name)
            return self._add(("allocate", name, sp, g.players[name].pending, then), f"a{len(self.positions)}",
                             {"expects": "allocate", "player": name, "sp": sp, "pending": g.players[name].pending,
                              "then": then})
        if nxt["expects"] == "finish":
            return self._add(("finish",), "f", {"expects": "finish"})
        upcoming = g.upcoming()
        if upcoming not in self.turns:
            return self._add(("unknown",), UNKNOWN, {"expects": None})
        t = self.turns.index(upcoming)
        deferred = None
        if g.main_done:
            mover = g.players[g.current]
            if mover.deferred and mover.deferred.round < g.round:
                if mover.name in tainted:
                    # the skills are unknown after the allocation: whether the card can be played
                    # now too; the form is offered, the server checks it, what follows is unknown
                    deferred = {"player": mover.name, "card": mover.deferred.card.label,
                                "redistribute_limit": mover.deferred.card.redistribute, "unchecked": True,
                                "then": self._add(("unknown",), UNKNOWN, {"expects": None})}
                elif any(m["type"] == "play_deferred" for m in g.legal_moves()):
                    after = moved(g, Move("play_deferred", player=mover.name))
                    deferred = {"player": mover.name, "card": mover.deferred.card.label,
                                "redistribute_limit": mover.deferred.card.redistribute,
                                "then": self.key_of(after, tainted)}
        base = self._main_key(g, t, tainted)
        if deferred is None:
            return base
        return self._add(("deferred", base, deferred["player"], deferred["then"]), f"{base}d{len(self.positions)}",
                         {k: v for k, v in self.positions[base].items() if k in HEAD} | {"deferred": deferred,
                                                                                         "base": base})

    def _main_key(self, g, t, tainted):
        round_no, turn = self.turns[t]
        name = self.order[turn]
        era = era_of_round(round_no)
        head = {"expects": "main", "player": name, "round": round_no, "era": era.key, "age": age_in_round(round_no),
                "new_era": turn == 0 and round_no > 1 and era.first_round == round_no,
                "rest_limit": g.rest_limit(round_no)}
        # the answers for this turn hold while everyone still to move in this cycle is as now
        later = [self.order[i] for _, i in self.turns[t:self.known_turns]]
        known = t < self.known_turns and not any(
            n in tainted or n in self.tainted or _state(g.players[n]) != self.original[n] for n in later)
        kind = "m" if known else "n"
        key = self._add((kind, t), f"{kind}{t}", dict(head, known=known))
        if (kind, t) not in self.built and (kind, t) not in self.todo:
            self.todo.append((kind, t))
        return key

    def _names(self, t):
        """A turn whose player is only named: what a pass leads to (a pass changes nothing, so
        the engine can say it from the turn's reference game; whoever comes next is only named
        too, and a deferred card is offered unchecked)."""
        g = self.refs[t]
        after = moved(g, Move("pass", player=self.order[self.turns[t][1]]))
        return {"pass": self.key_of(after, frozenset(self.order))}

    def _main(self, t):
        """The answers of the ``t``-th main move of the horizon (its player's fresh state)."""
        g = self.refs[t]
        round_no, turn = self.turns[t]
        name = self.order[turn]
        era = era_of_round(round_no)
        tainted = self.tainted

        seen = {}

        def then(move, card=None):
            # the moves of one outcome leave the game alike: the engine is asked once for them
            kind = outcome(g, move, card)
            if kind not in seen:
                seen[kind] = self.key_of(moved(g, move), tainted)
            return seen[kind]

        colors = {}
        for color in COLORS:
            rows = []
            for card in sorted(g.pack.cards_of(era.key, color), key=lambda c: c.code):
                decisions = {d: then(Move("draw", player=name, color=color, card=card.code, decision=d), card)
                             for d in g.decisions(name, card)}
                rows.append({"card": card.code, "shortfalls": g.shortfalls(name, card), "decisions": decisions,
                             "redistribute": card.redistribute if "play" in decisions else 0})
            colors[color] = rows
        refusal = g.share_refusal(name)
        return {"colors": colors, "rest": then(Move("rest", player=name)),
                "pass": then(Move("pass", player=name)),
                "share": then(Move("share", player=name)) if refusal is None else None,
                "share_refusal": refusal}
