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
from .checks import LIST_NEEDS, TRIGGERS, card_fields, check, no_option
from .effects import Modifiers, Resolution
from .moves import Move, read_move, with_field
from .pack import USED_ABILITIES
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

    def near_burnout(self):
        """The actives one anxiety from burning out (``State.near_burnout``: A = BO − 1), in
        seating order: what the host's screen warns of."""
        st = self._s
        relief = st.stress_relief()
        return [k for k in st.in_seat_order() if st.near_burnout(st.actives[k], relief)]

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
        try:
            base = read_move(data, partial=True)
        except MalformedError as err:
            return {c: err for c in candidates}
        out = {}
        for c in candidates:
            try:
                m = with_field(base, field_name, c)
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

    def offer(self, move):
        """What the host can do with a move being entered (``move``: the fields given so far, a
        dict or a ``Move``), as ``{"legal", "refusal", "reason", "field", "options"}``:

        * ``refusal``: the move as given so far is refused (None when it fits);
        * ``field``: the next field its card or ability takes that is not given yet (RECORD.md 2
          order, ``checks.card_fields``), None when none is left; ``options``: its candidates
          (the ones a host is offered, in seat order), each None (legal) or its refusal; a
          candidate is legal only when the move can still be completed with it (a Seurustelu's
          target needs a partner as well);
        * ``legal``: the move can be completed now (a list field has enough legal members:
          Pare names 3); ``reason``: None when legal, else the refusal or why no candidate fits
          (``checks.no_option``).

        Screens show a card, an ability or a reaction, and each field's candidates, from this
        answer alone; ``options`` answers for any candidates a caller names."""
        data = move.to_dict() if isinstance(move, Move) else dict(move)
        out = {"legal": False, "refusal": None, "reason": None, "field": None, "options": {}}
        refusal = self._refusal(data)
        if refusal is not None:
            out.update(refusal=refusal, reason=refusal)
            return out
        missing = [f for f in card_fields(self.pack, data) if data.get(f) is None]
        if not missing:
            out["legal"] = True
            return out
        name = missing[0]
        opts = self._field_options(data, name, missing[1:])
        legal = sum(1 for r in opts.values() if r is None)
        out.update(field=name, options=opts)
        if legal >= LIST_NEEDS.get(name, 1):
            out["legal"] = True
        else:
            out["reason"] = no_option(data, name, legal)
        return out

    def _refusal(self, data):
        try:
            move = read_move(data, partial=True)
        except MalformedError as err:
            return err
        return self._try(move)

    def _field_options(self, data, name, rest):
        """The offered candidates of field ``name``, each legal only when the fields ``rest``
        (still to come) can be filled after it; else refused with why none of the next fits."""
        opts = self.options(data, name, self._offered(data, name))
        if rest and name not in LIST_NEEDS:
            after = rest[0]
            for candidate, refusal in opts.items():
                if refusal is None:
                    given = dict(data, **{name: candidate})
                    sub = self._field_options(given, after, rest[1:])
                    legal = sum(1 for r in sub.values() if r is None)
                    if legal < LIST_NEEDS.get(after, 1):
                        opts[candidate] = no_option(given, after, legal)
        return opts

    def _offered(self, data, name):
        """The candidates a host is offered for one field of a move being entered: the actives
        in the game in seat order (a partner or a guest other than the target), the target's
        hobbies, the active deck, the activities held; the refusals say why others are not."""
        st = self._s
        in_game = st.in_seat_order()
        if name in ("partner", "participants"):
            return [k for k in in_game if k != data.get("target")]
        if name in ("target", "targets", "from"):
            return in_game
        if name == "hobby":
            holder = st.actives.get(data.get("target"))
            return [x.id for x in holder.acts if x.card.is_hobby] if holder is not None else []
        if name == "active":
            return self.active_deck
        if name == "activity":
            return [x.id for k in in_game for x in st.actives[k].acts]
        return self._candidates(data, name)

    def offers(self):
        """Everything a screen offers now, legal or not: the move types of the position, in the
        play step every activity card, event card and ability of the current player, after a
        trigger every reaction; each card, ability and reaction is an ``offer`` (``legal``, its
        ``reason``, its first field's options), and its type carries ``legal`` too (some option
        of it is). A pending choice comes with its ``answers``."""
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
                out.append(self._cards_offer("play_activity", me, self.pack.activity_cards))
                out.append(self._cards_offer("play_event", me, self.pack.event_cards))
                abilities = self._abilities_offer(me)
                if abilities["actives"]:
                    out.append(abilities)
                out.append({"type": "end_turn", "player": me})
        react = self._reactions_offer()
        if react is not None:
            out.append(react)
        out.append({"type": "adjust"})
        out.append({"type": "finish"})
        return out

    def legal_moves(self):
        """The move types possible now: ``offers`` without the types none of whose options is
        legal. A card, active or field whose every option is refused still shows, with
        ``legal`` false and its reason."""
        return [entry for entry in self.offers() if entry.get("legal", True)]

    def _choose_options(self, choice):
        st = self._s
        entry = {"type": "choose", "player": choice.player, "choice": st.choice_dict(choice)}
        if choice.kind == "discard_hobby":
            entry["answers"] = [{"active": choice.active, "activity": i} for i in st.choice_options(choice)]
        else:
            entry["answers"] = [{"active": k, "faction": p} for k in st.choice_options(choice)
                                for p in st.order if p != st.actives[k].owner]
        return entry

    def _cards_offer(self, kind, me, cards):
        offers = {card.key: self.offer({"type": kind, "player": me, "card": card.key}) for card in cards}
        return {"type": kind, "player": me, "legal": any(o["legal"] for o in offers.values()), "cards": offers}

    def _abilities_offer(self, me):
        """The player's actives whose ability is a move (RULES.md 1.1); the others apply by
        themselves and are no option."""
        st = self._s
        actives = {}
        for key in st.factions[me]:
            ability = st.actives[key].card.ability
            if ability in USED_ABILITIES:
                actives[key] = dict(self.offer({"type": "ability", "player": me, "active": key}), ability=ability)
        return {"type": "ability", "player": me, "legal": any(o["legal"] for o in actives.values()),
                "actives": actives}

    def _reactions_offer(self):
        """The reactions to the trigger (RULES.md 3.4), asked of the first player holding a card
        (any may play one: hands are hidden); None without a trigger or a card in any hand."""
        st = self._s
        if self._trigger is None:
            return None
        number, trig = self._trigger[:2]
        players = [p for p in st.order if st.hands[p] >= 1]
        if not players:
            return None
        cards = {card.key: self.offer({"type": "react", "player": players[0], "card": card.key, "to": number})
                 for card in self.pack.reaction_cards}
        return {"type": "react", "to": number, "trigger": trig.type, "players": players,
                "legal": any(o["legal"] for o in cards.values()), "cards": cards}


__all__ = ["Game", "MoveResult"]
