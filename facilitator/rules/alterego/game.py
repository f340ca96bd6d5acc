"""One table's game of Alter Ego: RULES.md enforced here and only here.

``Game.check(move)`` raises if a move is not legal now and changes nothing;
``Game.apply(move)`` carries it out and returns a ``MoveResult`` saying what changed (as
codes and numbers, for screens and the protocol to narrate in any language). A move is
checked completely before anything changes (an ``adjust`` is even applied to a copy first),
so a refused move leaves the game as it was.

Reactions (RULES.md 3.4): before each trigger (``play_event``, ``play_activity``,
``ability``, ``season``, ``choose``) the game keeps a copy of the state; a ``react`` resolves
the trigger again from that copy with every reaction recorded for it so far as modifiers,
then takes the reaction cards from their players' hands. Nothing else is ever replayed:
applying a move costs that move (and, for a reaction, its one trigger).
"""

from collections import Counter
from dataclasses import dataclass, field

from ..errors import IllegalMoveError, MalformedError
from .checks import TRIGGERS, check
from .effects import Modifiers, Resolution
from .moves import Move, read_move
from .pack import EVENT_FIELDS, USED_ABILITIES
from .setup import check_setup, read_setup
from .state import SEASONS, State


@dataclass
class MoveResult:
    """What one move changed.

    ``actives``: per active whose values changed, ``{"anxiety_temp": [before, after],
    "influence": [...], "owner": [...], "away": [...]}`` (only the changed keys);
    ``hands``: ``{player: [before, after]}``; ``placed``, ``discarded``, ``paused``,
    ``unpaused``: ``[{"id", "card", "active"}]``; ``joined``: actives that came into the
    game; ``queued``: pending choices added (as the standings list them); ``season_change``:
    the events of a season change, each with its RULES.md 4 ``step``; ``checks``: the
    end-of-turn anxiety check, one line per active; ``events``: everything in order."""

    number: int
    move: Move
    turn: int
    season: int
    step: str
    current: str
    finished: bool
    events: list = field(default_factory=list)
    actives: dict = field(default_factory=dict)
    hands: dict = field(default_factory=dict)
    placed: list = field(default_factory=list)
    discarded: list = field(default_factory=list)
    paused: list = field(default_factory=list)
    unpaused: list = field(default_factory=list)
    joined: list = field(default_factory=list)
    queued: list = field(default_factory=list)
    season_change: list = field(default_factory=list)
    checks: list = field(default_factory=list)

    def to_dict(self):
        out = {k: getattr(self, k) for k in ("number", "turn", "season", "step", "current", "finished", "events",
                                               "actives", "hands", "placed", "discarded", "paused", "unpaused",
                                               "joined", "queued", "season_change", "checks")}
        out["move"] = self.move.to_dict()
        return out


class Game:
    """A table's game from setup to the end. ``setup`` is a ``Setup`` (or its dict)."""

    def __init__(self, pack, setup, table=""):
        if isinstance(setup, dict):
            setup = read_setup(setup, pack=pack)
        check_setup(pack, setup)
        self.pack = pack
        self.setup = setup
        self.table = table
        self.order = setup.turn_order()
        self._s = State.start(pack, setup, self.order)
        self.moves = []
        self._trigger = None  # (move number, trigger move, state before it or None)
        self._reactions = []  # the reactions recorded for the trigger, in order
        self._trace = []  # the events of the trigger's latest resolution

    # ----- where the game is ---------------------------------------------------------------
    @property
    def state(self):
        """The current ``State`` (read it, never change it)."""
        return self._s

    @property
    def season(self):
        return self._s.season

    @property
    def season_key(self):
        return SEASONS[self._s.season - 1]

    @property
    def turn(self):
        return self._s.turn

    @property
    def current(self):
        """The player whose turn it is."""
        return self._s.order[self._s.current]

    @property
    def step(self):
        """``draw`` or ``play``."""
        return self._s.step

    @property
    def finished(self):
        return self._s.finished

    @property
    def ended_by(self):
        """None, ``"season"`` (the 4th season card) or ``"host"`` (``finish``)."""
        return self._s.ended_by

    @property
    def hands(self):
        return dict(self._s.hands)

    @property
    def pending(self):
        """The queued choices, in order, as `alterego-standings/1` lists them."""
        return [self._s.choice_dict(c) for c in self._s.pending]

    @property
    def active_deck(self):
        """The pack's actives not in the game, in pack order."""
        return [a.key for a in self.pack.actives if a.key not in self._s.actives]

    @property
    def trigger(self):
        """``(move number, move)`` a ``react`` may answer now, or None."""
        return None if self._trigger is None else self._trigger[:2]

    def faction(self, player):
        return list(self._s.factions[player])

    def next(self):
        """What the game waits for, exactly as `alterego-standings/1`'s ``next``."""
        st = self._s
        if st.finished:
            return None
        if st.pending:
            choice = st.choice_dict(st.pending[0])
            return {"player": choice["player"], "expects": "choose", "choice": choice}
        return {"player": st.order[st.current], "expects": st.step}

    def copy(self):
        """An independent game in the same position (cheap: the state is copied once)."""
        new = Game.__new__(Game)
        new.pack = self.pack
        new.setup = self.setup
        new.table = self.table
        new.order = self.order
        new._s = self._s.copy()
        new.moves = list(self.moves)
        new._trigger = self._trigger  # the state kept before a trigger is never changed
        new._reactions = list(self._reactions)
        new._trace = None if self._trace is None else list(self._trace)
        return new

    # ----- checking and applying moves -----------------------------------------------------
    def check(self, move):
        """Raise ``IllegalMoveError`` (or ``MalformedError``) if ``move`` is not legal now;
        change nothing."""
        check(self, move)

    def apply(self, move):
        """Carry out a legal move; return the ``MoveResult``. An illegal one changes nothing."""
        plan = check(self, move)
        before = self._summary()
        events = self._run(move, plan, True)
        return self._result(move, before, events)

    def _apply_fast(self, move, keep_state_before=True):
        """``apply`` without the ``MoveResult`` (replay). ``keep_state_before=False`` skips
        the copy kept for reactions when the caller knows no ``react`` follows."""
        self._run(move, check(self, move), keep_state_before)

    def _run(self, move, plan, keep_state_before):
        number = len(self.moves) + 1
        kind = move.type
        if kind == "react":
            events = self._react(move)
        elif kind == "adjust":
            self._s, events = plan
            self._trigger, self._reactions, self._trace = None, [], []
        else:
            trigger = kind in TRIGGERS
            before = self._s.copy() if keep_state_before and trigger else None
            # without a reaction to come (replay knows), nobody reads the events: skip them
            res = Resolution(self._s, number, self.moves[-1] if self.moves else None, quiet=not keep_state_before)
            events = res.run(move)
            if trigger:
                self._trigger, self._reactions = (number, move, before), []
                self._trace = events if keep_state_before else None
            else:
                self._trigger, self._reactions, self._trace = None, [], []
        self.moves.append(move)
        return events

    def _trigger_state(self):
        """The state before the trigger, and its trace. Both are kept unless ``_apply_fast``
        was told no reaction follows; then a reaction that comes anyway rebuilds them by
        replaying the moves before the trigger (rare: only a caller that lied pays)."""
        number, trig, before = self._trigger
        if before is None:
            rebuilt = Game(self.pack, self.setup, self.table)
            for move in self.moves[:number - 1]:
                rebuilt._apply_fast(move, False)
            before = rebuilt._s
            self._trigger = (number, trig, before)
        if self._trace is None:
            prev = self.moves[number - 2] if number >= 2 else None
            res = Resolution(before.copy(), number, prev, Modifiers(self.pack, self._reactions))
            self._trace = res.run(trig)
        return before

    def _react(self, move):
        """RULES.md 3.4: resolve the trigger again from the state before it with every reaction
        so far as modifiers; then the reaction cards leave their players' hands."""
        number, trig, _ = self._trigger
        before = self._trigger_state()
        reactions = self._reactions + [move]
        st = before.copy()
        prev = self.moves[number - 2] if number >= 2 else None
        res = Resolution(st, number, prev, Modifiers(self.pack, reactions))
        res.emit("reaction", player=move.player, card=move.card, to=move.to, target=move.target,
                 faction=move.faction, reactions=len(reactions))
        res.run(trig)
        for r in reactions:
            res.set_hand(r.player, st.hands[r.player] - 1, "react")
        self._s = st
        self._reactions = reactions
        self._trace = res.events
        return res.events

    # ----- what changed --------------------------------------------------------------------
    def _summary(self):
        st = self._s
        relief = st.stress_relief()
        actives = {k: (a.t, a.owner, a.away, st.influence(a, relief), {x.id: x for x in a.acts})
                   for k, a in st.actives.items()}
        return actives, dict(st.hands), [c.key() for c in st.pending]

    def _result(self, move, before, events):
        st = self._s
        actives_before, hands_before, pending_before = before
        actives_after, hands_after, pending_after = self._summary()
        result = MoveResult(number=len(self.moves), move=move, turn=st.turn, season=st.season, step=st.step,
                            current=st.order[st.current], finished=st.finished, events=events)
        names = ("anxiety_temp", "owner", "away", "influence")
        for key, now in actives_after.items():
            was = actives_before.get(key)
            if was is None:
                result.joined.append(key)
                was = (0, None, False, 0, {})
            changed = {names[i]: [was[i], now[i]] for i in range(4) if was[i] != now[i]}
            if changed:
                result.actives[key] = changed
            for act_id, act in now[4].items():
                old = was[4].get(act_id)
                row = {"id": act_id, "card": act.card.key, "active": key}
                if old is None:
                    result.placed.append(row)
                elif old.paused != act.paused:
                    (result.paused if act.paused else result.unpaused).append(row)
            for act_id, act in was[4].items():
                if act_id not in now[4]:
                    result.discarded.append({"id": act_id, "card": act.card.key, "active": key})
        result.hands = {p: [hands_before[p], n] for p, n in hands_after.items() if hands_before[p] != n}
        added = Counter(pending_after) - Counter(pending_before)
        for choice in st.pending:
            if added[choice.key()] > 0:
                added[choice.key()] -= 1
                result.queued.append(st.choice_dict(choice))
        result.season_change = [e for e in events if "step" in e]
        result.checks = [e for e in events if e["code"] == "check"]
        return result

    # ----- what a screen may offer ---------------------------------------------------------
    def _try(self, move, partial=True):
        try:
            check(self, move, partial)
        except (IllegalMoveError, MalformedError) as err:
            return err
        return None

    def options(self, move, field_name, candidates=None):
        """``{candidate: None or the refusal}`` for one field of a move being entered: the
        other fields as given so far (``move`` is a dict or ``Move``), fields not given yet
        are no error. For ``participants`` and ``targets`` each candidate is tried as one
        more key of the list. ``candidates`` default to every value the field can name
        (actives of the pack, activities held, players, cards of the right kind)."""
        data = move.to_dict() if isinstance(move, Move) else dict(move)
        if candidates is None:
            candidates = self._candidates(data, field_name)
        out = {}
        for c in candidates:
            d = dict(data)
            if field_name in ("participants", "targets"):
                d[field_name] = list(d.get(field_name) or ()) + [c]
            else:
                d[field_name] = c
            try:
                m = read_move(d, partial=True)
            except MalformedError as err:
                out[c] = err
                continue
            out[c] = self._try(m)
        return out

    def _candidates(self, data, name):
        st = self._s
        if name in ("target", "partner", "from", "active", "participants", "targets"):
            return [a.key for a in self.pack.actives]
        if name in ("activity", "hobby"):
            return [x.id for k in st.in_seat_order() for x in st.actives[k].acts]
        if name in ("faction", "player"):
            return list(st.order)
        if name == "chore":
            return [c.key for c in self.pack.cards if c.is_chore]
        if name == "card":
            kind = data.get("type")
            if kind == "play_activity":
                return [c.key for c in self.pack.activity_cards]
            if kind == "react":
                return [c.key for c in self.pack.reaction_cards]
            return [c.key for c in self.pack.event_cards]
        raise ValueError(f"no candidates for field {name!r}; pass them")

    def legal_moves(self):
        """The move types possible now, each with the options of its finite fields: a dict
        per type; an option maps to None (legal) or its refusal. A card, active or field
        whose every option is refused still shows, with the refusals; a type shows only
        when some option of it is legal."""
        st = self._s
        if st.finished:
            return []
        out = []
        me = st.order[st.current]
        if st.pending:
            out.append(self._choose_options(st.pending[0]))
        else:
            if st.step == "draw":
                out.append({"type": "draw", "player": me})
            if self._try(Move("season", player=me)) is None:
                out.append({"type": "season", "player": me})
            if st.step == "play":
                for entry in (self._activity_options(me), self._event_options(me), self._ability_options(me)):
                    if entry is not None:
                        out.append(entry)
                out.append({"type": "end_turn", "player": me})
        react = self._react_options()
        if react is not None:
            out.append(react)
        out.append({"type": "adjust"})
        out.append({"type": "finish"})
        return out

    def _choose_options(self, choice):
        st = self._s
        entry = {"type": "choose", "player": choice.player, "choice": st.choice_dict(choice)}
        if choice.kind == "discard_hobby":
            entry["answers"] = [{"active": choice.active, "activity": i} for i in st.choice_options(choice)]
        else:
            entry["answers"] = [{"active": k, "faction": p} for k in st.choice_options(choice)
                                for p in st.order if p != st.actives[k].owner]
        return entry

    def _activity_options(self, me):
        cards = {}
        in_game = self._s.in_seat_order()
        any_legal = False
        for card in self.pack.activity_cards:
            base = {"type": "play_activity", "player": me, "card": card.key}
            refusal = self._try(read_move(base, partial=True))
            entry = {"refusal": refusal, "targets": {}}
            if refusal is None:
                entry["targets"] = self.options(base, "target", in_game)
                if card.is_dating:
                    entry["partners"] = {x: self.options(dict(base, target=x), "partner",
                                                         [k for k in in_game if k != x])
                                         for x, r in entry["targets"].items() if r is None}
                    legal = any(r is None for ps in entry["partners"].values() for r in ps.values())
                else:
                    legal = any(r is None for r in entry["targets"].values())
                any_legal = any_legal or legal
            cards[card.key] = entry
        return {"type": "play_activity", "player": me, "cards": cards} if any_legal else None

    def _event_options(self, me):
        st = self._s
        in_game = st.in_seat_order()
        held = [x.id for k in in_game for x in st.actives[k].acts]
        cards = {}
        any_legal = False
        for card in self.pack.event_cards:
            base = {"type": "play_event", "player": me, "card": card.key}
            refusal = self._try(read_move(base, partial=True))
            entry = {"refusal": refusal, "fields": {}}
            legal = refusal is None
            if refusal is None:
                for name in EVENT_FIELDS.get(card.effect, ()):
                    if name == "target":
                        opts = self.options(base, "target", in_game)
                    elif name == "participants":
                        opts = self.options(base, "participants", in_game)
                        entry["fields"][name] = opts
                        continue  # an empty party is a party
                    elif name == "hobby":
                        opts = {x: [a.id for a in st.actives[x].acts if a.card.is_hobby and not a.paused]
                                for x, r in entry["fields"]["target"].items() if r is None}
                        entry["fields"][name] = opts
                        continue
                    elif name == "chore":
                        opts = self.options(base, "chore")
                    elif name == "active":
                        opts = self.options(base, "active", self.active_deck)
                    else:
                        opts = self.options(base, "activity", held)
                    entry["fields"][name] = opts
                    legal = legal and any(r is None for r in opts.values())
            any_legal = any_legal or legal
            cards[card.key] = entry
        return {"type": "play_event", "player": me, "cards": cards} if any_legal else None

    def _ability_options(self, me):
        st = self._s
        actives = {}
        any_legal = False
        for key in st.factions[me]:
            ability = st.actives[key].card.ability
            if ability not in USED_ABILITIES:
                continue
            base = {"type": "ability", "player": me, "active": key}
            refusal = self._try(read_move(base, partial=True))
            entry = {"ability": ability, "refusal": refusal}
            legal = refusal is None
            if refusal is None and ability == "pare":
                entry["targets"] = self.options(base, "targets", st.in_seat_order())
                legal = sum(1 for r in entry["targets"].values() if r is None) >= 3
            elif refusal is None and ability == "niksu":
                entry["from"] = self.options(base, "from", st.in_seat_order())
                legal = any(r is None for r in entry["from"].values())
            any_legal = any_legal or legal
            actives[key] = entry
        return {"type": "ability", "player": me, "actives": actives} if any_legal else None

    def _react_options(self):
        st = self._s
        if self._trigger is None:
            return None
        number, trig = self._trigger[:2]
        players = [p for p in st.order if st.hands[p] >= 1]
        if not players:
            return None
        cards = {}
        any_legal = False
        for card in self.pack.reaction_cards:
            base = {"type": "react", "player": players[0], "card": card.key, "to": number}
            refusal = self._try(read_move(base, partial=True))
            entry = {"refusal": refusal, "players": players}
            legal = refusal is None
            if refusal is None and card.effect in ("taktinen_teko", "ei_rahaa"):
                entry["target"] = self.options(base, "target", st.in_seat_order())
                legal = any(r is None for r in entry["target"].values())
            elif refusal is None and card.effect == "mun_kaverit":
                entry["faction"] = self.options(base, "faction", list(st.order))
                legal = any(r is None for r in entry["faction"].values())
            any_legal = any_legal or legal
            cards[card.key] = entry
        if not any_legal:
            return None
        return {"type": "react", "to": number, "trigger": trig.type, "players": players, "cards": cards}


__all__ = ["Game", "MoveResult"]
