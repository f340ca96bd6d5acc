"""The table's state (RULES.md 1.3) and the quantities read from it: N, U, in force, P, A,
burn-out and influence (RULES.md 1.3, 5).

Everything a move can change lives in one ``State``; ``State.copy()`` is a cheap deep copy
(activities are never changed in place, only replaced), so the game keeps the state before
each reaction trigger and resolves the trigger again from it (RULES.md 3.4), and the app
can fork a cached game.
"""

HAND_LIMIT = 5
SEASONS = ("winter", "spring", "summer", "ropecon")
LAST_SEASON = 4


class Activity:
    """An activity instance: ``id`` (``a<k>``), its card, the season it was placed in, whether
    it is paused (and ``paused_seq``: when, to return paused activities in that order), and
    for a Seurustelu the ``partner`` Y. Treated as immutable: pausing makes a new one."""

    __slots__ = ("id", "card", "season", "paused", "paused_seq", "partner")

    def __init__(self, id, card, season, partner=None, paused=False, paused_seq=0):
        self.id = id
        self.card = card
        self.season = season
        self.partner = partner
        self.paused = paused
        self.paused_seq = paused_seq

    def with_paused(self, paused, seq=0):
        return Activity(self.id, self.card, self.season, self.partner, paused, seq if paused else 0)

    def key(self):
        return (self.id, self.card.key, self.season, self.paused, self.paused_seq, self.partner)

    def __repr__(self):
        return f"Activity({self.id}, {self.card.key}{', paused' if self.paused else ''})"


class ActiveState:
    """An active in the game: its card, owner (a player's name), temporary anxiety ``t``,
    the away flag and its activities in the order placed."""

    __slots__ = ("key", "card", "owner", "t", "away", "acts")

    def __init__(self, card, owner):
        self.key = card.key
        self.card = card
        self.owner = owner
        self.t = 0
        self.away = False
        self.acts = []

    def copy(self):
        new = ActiveState.__new__(ActiveState)
        new.key = self.key
        new.card = self.card
        new.owner = self.owner
        new.t = self.t
        new.away = self.away
        new.acts = list(self.acts)
        return new

    def find(self, activity_id):
        for act in self.acts:
            if act.id == activity_id:
                return act
        return None


class Choice:
    """A pending choice (RULES.md 3.6): ``discard_hobby`` for ``active``, or ``breakup`` of the
    couple ``holder`` and ``partner``; answered by ``player``. Immutable."""

    __slots__ = ("kind", "player", "active", "holder", "partner")

    def __init__(self, kind, player, active=None, holder=None, partner=None):
        self.kind = kind
        self.player = player
        self.active = active
        self.holder = holder
        self.partner = partner

    def key(self):
        return (self.kind, self.player, self.active, self.holder, self.partner)


class State:
    """Everything a move can change. ``pack`` and ``order`` (player names in turn order) are
    shared, never changed.

    Per-turn markers (reset when a turn ends, RULES.md 3.5): ``abilities`` (active -> move
    number of its ability this turn), ``boosted`` (Energiapuuska targets), ``played_turn``
    (active -> id of the last activity played onto it this turn), ``imaami_used`` (actives
    whose first-gain reduction is spent), ``kalle_season`` (actives whose ability drew the
    season card). Across turns: ``last_onto`` (active -> (move number, id) of the last
    activity played onto it, for P7) and ``turn_end`` (player -> number of the move that
    ended their last turn)."""

    __slots__ = ("pack", "order", "season", "turn", "current", "step", "finished", "ended_by", "hands",
                 "actives", "factions", "pending", "abilities", "boosted", "played_turn", "imaami_used",
                 "kalle_season", "last_onto", "turn_end", "pause_seq", "held")

    @classmethod
    def start(cls, pack, setup, order):
        """RULES.md 2.4: season 1, turn 1, every hand 5, every T 0, no activities."""
        st = cls.__new__(cls)
        st.pack = pack
        st.order = tuple(order)
        st.season = 1
        st.turn = 1
        st.current = 0
        st.step = "draw"
        st.finished = False
        st.ended_by = None
        st.hands = {name: HAND_LIMIT for name in order}
        st.actives = {}
        st.factions = {name: [] for name in order}
        seats = {p.name: p for p in setup.players}
        for name in order:
            for key in seats[name].actives:
                st.actives[key] = ActiveState(pack.actives_by_key[key], name)
                st.factions[name].append(key)
        st.pending = []
        st.abilities = {}
        st.boosted = set()
        st.played_turn = {}
        st.imaami_used = set()
        st.kalle_season = set()
        st.last_onto = {}
        st.turn_end = {}
        st.pause_seq = 0
        st.held = {}  # card key -> instances held in the game (paused included): P1, kept by hold/release
        return st

    def copy(self):
        new = State.__new__(State)
        new.pack = self.pack
        new.order = self.order
        new.season = self.season
        new.turn = self.turn
        new.current = self.current
        new.step = self.step
        new.finished = self.finished
        new.ended_by = self.ended_by
        new.hands = dict(self.hands)
        new.actives = {k: a.copy() for k, a in self.actives.items()}
        new.factions = {p: list(keys) for p, keys in self.factions.items()}
        new.pending = list(self.pending)
        new.abilities = dict(self.abilities)
        new.boosted = set(self.boosted)
        new.played_turn = dict(self.played_turn)
        new.imaami_used = set(self.imaami_used)
        new.kalle_season = set(self.kalle_season)
        new.last_onto = dict(self.last_onto)
        new.turn_end = dict(self.turn_end)
        new.pause_seq = self.pause_seq
        new.held = dict(self.held)
        return new

    def key(self):
        """Everything in the state as plain comparable values (tests: a refused move changes
        nothing; a copy equals its original)."""
        return (self.season, self.turn, self.current, self.step, self.finished, self.ended_by,
                tuple(sorted(self.hands.items())),
                tuple((k, a.owner, a.t, a.away, tuple(x.key() for x in a.acts)) for k, a in self.actives.items()),
                tuple((p, tuple(v)) for p, v in self.factions.items()),
                tuple(c.key() for c in self.pending), tuple(sorted(self.abilities.items())),
                tuple(sorted(self.boosted)), tuple(sorted(self.played_turn.items())),
                tuple(sorted(self.imaami_used)), tuple(sorted(self.kalle_season)),
                tuple(sorted(self.last_onto.items())), tuple(sorted(self.turn_end.items())), self.pause_seq)

    # ----- where the game is ------------------------------------------------------------
    def in_turn_order(self):
        """Actives by player in turn order from the current player, each faction in order
        (RULES.md 4: the order of the season steps)."""
        order = self.order
        i = self.current
        out = []
        for name in order[i:] + order[:i]:
            out.extend(self.factions[name])
        return out

    def in_seat_order(self):
        """Actives by player in turn order from the first player (the standings' order)."""
        out = []
        for name in self.order:
            out.extend(self.factions[name])
        return out

    def find_activity(self, activity_id):
        """``(holder, activity)`` of an activity id held by any active, or ``(None, None)``."""
        for a in self.actives.values():
            for act in a.acts:
                if act.id == activity_id:
                    return a, act
        return None, None

    def copies_held(self, card_key):
        """How many instances of a card are held in the game, paused included (P1)."""
        return self.held.get(card_key, 0)

    def hold(self, a, act):
        """``act`` goes onto ``a`` (the one way an activity enters the game)."""
        a.acts.append(act)
        key = act.card.key
        self.held[key] = self.held.get(key, 0) + 1

    def release(self, a, act):
        """``act`` leaves ``a`` and the game (the one way an activity leaves it)."""
        a.acts.remove(act)
        self.held[act.card.key] -= 1

    def count_held(self):
        """The instances held, counted afresh (tests compare it with ``held``)."""
        out = {}
        for a in self.actives.values():
            for act in a.acts:
                out[act.card.key] = out.get(act.card.key, 0) + 1
        return out

    # ----- RULES.md 1.3: N, U, in force, P, A --------------------------------------------
    @staticmethod
    def n(a):
        """N: the number of its unpaused activities."""
        return sum(1 for act in a.acts if not act.paused)

    @staticmethod
    def u(a):
        """U: unused free time, VA − N."""
        return a.card.va - sum(1 for act in a.acts if not act.paused)

    @staticmethod
    def tyo_maalla(a):
        """The unpaused Työ maalla it holds, or None."""
        for act in a.acts:
            if not act.paused and act.card.is_tyo_maalla:
                return act
        return None

    @staticmethod
    def in_force(a):
        """Its activities in force: unpaused, and while it holds an unpaused Työ maalla only
        the Työ maalla itself."""
        acts = [act for act in a.acts if not act.paused]
        for act in acts:
            if act.card.is_tyo_maalla:
                return [x for x in acts if x.card.is_tyo_maalla]
        return acts

    def stress_relief(self):
        """S: the ``work_reduction`` of every in-force Stressinpoistokampanja in the game."""
        s = 0
        for a in self.actives.values():
            for act in a.acts:
                if act.card.is_stress_relief and not act.paused:
                    if act.card.is_tyo_maalla or self.tyo_maalla(a) is None:
                        s += act.card.params["work_reduction"]
        return s

    def perm(self, a, relief=None):
        """P: permanent anxiety of its in-force non-work activities + max(0, W − S). S is only
        looked up (or taken from ``relief``) when W > 0."""
        other = work = 0
        for act in self.in_force(a):
            if act.card.work:
                work += act.card.permanent_anxiety
            else:
                other += act.card.permanent_anxiety
        if work:
            if relief is None:
                relief = self.stress_relief()
            return other + max(0, work - relief)
        return other

    def anxiety(self, a, relief=None):
        """A = T + P."""
        return a.t + self.perm(a, relief)

    def burned_out(self, a, relief=None):
        """Burned out while A ≥ BO (read at every moment)."""
        return a.t + self.perm(a, relief) >= a.card.bo

    def near_burnout(self, a, relief=None):
        """One anxiety from burning out: A + 1 ≥ BO but not yet A ≥ BO (so A = BO − 1). The next
        anxiety it takes burns it out, and while it stays so an idle turn end gains it nothing
        (RULES.md 3.5, step 2)."""
        anxiety = a.t + self.perm(a, relief)
        return anxiety + 1 >= a.card.bo > anxiety

    # ----- RULES.md 5: influence ----------------------------------------------------------
    def influence_base(self, a):
        """B: influence of its in-force activities; Ville +1 per in-force campaign; Meira + U."""
        forces = self.in_force(a)
        b = sum(act.card.influence for act in forces)
        ability = a.card.ability
        if ability == "ville":
            b += sum(1 for act in forces if act.card.is_campaign)
        elif ability == "meira":
            b += self.u(a)
        return b

    def influence(self, a, relief=None):
        """B, or ⌊B / 2⌋ while burned out; away actives count."""
        b = self.influence_base(a)
        return b // 2 if self.burned_out(a, relief) else b

    # ----- pending choices ------------------------------------------------------------------
    def choice_options(self, choice):
        """What a pending choice may be answered with, from the state now (decision 42):
        ``discard_hobby``: ids of the active's hobbies in the order held; ``breakup``: the
        couple's keys, holder first, leaving out away actives (decision 37)."""
        if choice.kind == "discard_hobby":
            return [act.id for act in self.actives[choice.active].acts if act.card.is_hobby]
        return [k for k in (choice.holder, choice.partner) if k in self.actives and not self.actives[k].away]

    def choice_dict(self, choice):
        """A pending choice as `alterego-standings/1` lists it."""
        if choice.kind == "discard_hobby":
            return {"choice": "discard_hobby", "player": choice.player, "active": choice.active,
                    "options": self.choice_options(choice)}
        return {"choice": "breakup", "player": choice.player, "partners": self.choice_options(choice)}
