"""What a legal move does to the state: RULES.md 1.3 (gains and losses), 3.1–3.6 and 4.

A ``Resolution`` carries out one move on a ``State`` and records what happened as events
(plain dicts: a ``code`` and its numbers, no prose, so screens and the protocol can narrate
them in any language). It never refuses: the ``Game`` checks a move first.

Reactions (RULES.md 3.4) are modifiers of one resolution: the game resolves the trigger
again, from the state before it, with every reaction recorded for it so far:

* Taktinen teko on X: every gain of X is cancelled (a cancelled gain is no gain: it does
  not spend Imaami's reduction, decision 38);
* Ei rahaa on X: in the Bile, X gains the reaction's ``gain`` instead of its change, and a
  participant X is left out of n;
* Ei kiinnostusta: the placed card its ``cancels`` lists is discarded at the end of the
  trigger (the play still counts for P6–P8; Nakkikone's gain stays);
* Mun kaverit F: the faction change of the trigger ends in F (the last one counts).
"""

from .state import HAND_LIMIT, LAST_SEASON, Activity, ActiveState, Choice

SEASON_4_GAIN = 2  # RULES.md 4 step 3: every active with U = 0 gains 2 as season 4 starts
SEASON_3_LOSS = 1  # RULES.md 4 step 3: every active loses 1 as season 3 starts
PARE_GAIN = 1  # RULES.md 1.1: Pare's joke, 3 actives gain 1 each
NIKSU_AMOUNT = 1  # RULES.md 1.1: Niksu takes 1 from another active
KALLE_DRAW = 1  # RULES.md 1.1: Kalle's ability draws 1 card
DRAW = 2  # RULES.md 3.1


class Modifiers:
    """The reactions recorded for a trigger, read as modifiers (RULES.md 3.4)."""

    __slots__ = ("cancel_gains", "no_money", "not_interested", "faction")

    def __init__(self, pack, reactions=()):
        self.cancel_gains = set()  # Taktinen teko targets
        self.no_money = {}  # Ei rahaa target -> its gain
        self.not_interested = []  # Ei kiinnostusta: one set of card keys per reaction
        self.faction = None  # Mun kaverit: where the faction change ends (the last one)
        for r in reactions:
            card = pack.cards_by_key[r.card]
            if card.effect == "taktinen_teko":
                self.cancel_gains.add(r.target)
            elif card.effect == "ei_rahaa":
                self.no_money[r.target] = card.params["gain"]
            elif card.effect == "ei_kiinnostusta":
                self.not_interested.append(frozenset(card.params["cancels"]))
            elif card.effect == "mun_kaverit":
                self.faction = r.faction


class Resolution:
    """One move carried out on ``st``: ``number`` is its 1-based move number (activity ids),
    ``prev`` the move before it, ``mods`` the reactions modifying it; ``events`` what happened."""

    __slots__ = ("st", "number", "prev", "mods", "events", "placed", "step", "quiet")

    def __init__(self, st, number, prev=None, mods=None, quiet=False):
        self.st = st
        self.quiet = quiet  # no events recorded (a replay that knows nobody will read them)
        self.number = number
        self.prev = prev
        self.mods = mods
        self.events = []
        self.placed = []  # [(holder key, Activity)] placed by this move
        self.step = None  # the RULES.md 4 step of a season change under way: its events carry it

    def emit(self, code, **params):
        if self.quiet:
            return
        params["code"] = code
        if self.step is not None:
            params.setdefault("step", self.step)
        self.events.append(params)

    def run(self, move):
        getattr(self, "_" + move.type)(move)
        return self.events

    # ----- RULES.md 1.3: gains and losses ---------------------------------------------------
    def gain(self, key, amount, cause):
        """``key`` gains ``amount``: none while away or for 0 (decision 38); Taktinen teko may
        cancel it; then Imaami's first gain in a turn is 1 smaller (even down to 0)."""
        a = self.st.actives[key]
        if amount <= 0:
            return
        if a.away:
            self.emit("unaffected_away", active=key, change="gain", amount=amount, cause=cause)
            return
        mods = self.mods
        if mods is not None and key in mods.cancel_gains:
            self.emit("gain", active=key, amount=amount, applied=0, cancelled=True, reduced=False, cause=cause,
                      anxiety_temp=a.t)
            return
        applied = amount
        reduced = False
        if a.card.ability == "imaami" and key not in self.st.imaami_used:
            self.st.imaami_used.add(key)
            applied -= 1
            reduced = True
        a.t += applied
        self.emit("gain", active=key, amount=amount, applied=applied, cancelled=False, reduced=reduced,
                  cause=cause, anxiety_temp=a.t)

    def lose(self, key, amount, cause):
        """``key`` loses ``amount``: T never below 0; none while away."""
        a = self.st.actives[key]
        if amount <= 0:
            return
        if a.away:
            self.emit("unaffected_away", active=key, change="loss", amount=amount, cause=cause)
            return
        applied = min(amount, a.t)
        a.t -= applied
        self.emit("loss", active=key, amount=amount, applied=applied, cause=cause, anxiety_temp=a.t)

    def set_hand(self, player, value, cause):
        before = self.st.hands[player]
        self.st.hands[player] = value
        self.emit("hand", player=player, before=before, after=value, cause=cause)

    # ----- activities ------------------------------------------------------------------------
    def place(self, key, card, partner=None):
        """A new unpaused instance ``a<move number>`` onto ``key``; it gains 1 per in-force
        Nakkikone it held before (RULES.md 3.2). A play counts for P6–P8."""
        st = self.st
        a = st.actives[key]
        machines = [act for act in st.in_force(a) if act.card.is_nakkikone] if a.acts else ()
        act = Activity(f"a{self.number}", card, st.season, partner)
        st.hold(a, act)
        self.placed.append((key, act))
        self.emit("placed", id=act.id, card=card.key, active=key, partner=partner)
        st.played_turn[key] = act.id
        st.last_onto[key] = (self.number, act.id)
        for machine in machines:
            self.gain(key, machine.card.params["gain"], "nakkikone")
        return act

    def discard(self, key, act, cause):
        """The instance leaves its holder; a Seurustelu leaving is a break-up (RULES.md 3.3)."""
        self.st.release(self.st.actives[key], act)
        self.emit("discarded", id=act.id, card=act.card.key, active=key, cause=cause)
        if act.card.is_dating:
            self.breakup(key, act)

    def breakup(self, holder, act):
        """RULES.md 3.3: holder X and partner Y each gain ``breakup_gain``, X first; then X's
        owner gets a ``breakup`` choice, unless both are away."""
        st = self.st
        partner = act.partner
        amount = act.card.params["breakup_gain"]
        self.emit("breakup", holder=holder, partner=partner, id=act.id)
        self.gain(holder, amount, "breakup")
        if partner in st.actives:
            self.gain(partner, amount, "breakup")
        movable = [k for k in (holder, partner) if k in st.actives and not st.actives[k].away]
        if movable:
            self.queue(Choice("breakup", st.actives[holder].owner, holder=holder, partner=partner))

    def queue(self, choice):
        self.st.pending.append(choice)
        if not self.quiet:
            self.emit("choice_queued", **self.st.choice_dict(choice))

    def pause(self, key, act):
        st = self.st
        st.pause_seq += 1
        a = st.actives[key]
        a.acts[a.acts.index(act)] = act.with_paused(True, st.pause_seq)
        self.emit("paused", id=act.id, card=act.card.key, active=key)

    def move_to(self, key, player, cause):
        """``key`` joins ``player``'s faction (at its end), leaving its old one."""
        st = self.st
        a = st.actives[key]
        before = a.owner
        if before == player:
            return
        st.factions[before].remove(key)
        st.factions[player].append(key)
        a.owner = player
        self.emit("moved", active=key, before=before, after=player, cause=cause)

    def end_of_trigger(self):
        """Ei kiinnostusta: each discards the placed card its ``cancels`` lists, still held."""
        mods = self.mods
        if mods is None or not mods.not_interested:
            return
        for cancels in mods.not_interested:
            for key, act in self.placed:
                if act.card.key in cancels and act in self.st.actives[key].acts:
                    self.discard(key, act, "ei_kiinnostusta")
                    break

    # ----- RULES.md 3.1: draw, and the season card (4) ----------------------------------
    def _draw(self, move):
        st = self.st
        self.set_hand(move.player, st.hands[move.player] + DRAW, "draw")
        st.step = "play"

    def _season(self, move):
        """RULES.md 4: the season card drawn in season s."""
        st = self.st
        s = st.season
        prev = self.prev
        if prev is not None and prev.type == "ability" and prev.player == move.player:
            if st.actives[prev.active].card.ability == "kalle":
                st.kalle_season.add(prev.active)  # decision 31: no activity onto him this turn
        self.emit("season_card", player=move.player, season=s)
        if s >= LAST_SEASON:
            self.step = "2a"
            self._lopputyo(s)
            self.step = None
            st.finished = True
            st.ended_by = "season"
            self.emit("game_ended", step="end", ended_by="season")
            return
        noted = dict(st.hands)
        self.emit("hands_discarded", step="1", hands=noted)
        for name in st.order:
            st.hands[name] = 0
        self.step = "2a"
        self._lopputyo(s)
        self.step = "2b"
        self._stress_relief_discarded()
        order = st.in_turn_order()
        self.step = "2c"
        for key in order:
            a = st.actives[key]
            if a.away:
                a.away = False
                a.t = 0
                self.emit("returned", active=key)
        self.step = "2d"
        for key in order:
            a = st.actives[key]
            for act in sorted((x for x in a.acts if x.paused), key=lambda x: x.paused_seq):
                if st.u(a) >= 1:
                    a.acts[a.acts.index(act)] = act.with_paused(False)
                    self.emit("unpaused", id=act.id, card=act.card.key, active=key)
                else:
                    self.emit("no_free_time", id=act.id, active=key)
                    self.discard(key, act, "season_2d")
        new = s + 1
        self.step = "3"
        self.emit("season_start", season=new)
        if new == 2:
            for key in order:
                self._season_discard(key)
        elif new == 3:
            for key in order:
                self.lose(key, SEASON_3_LOSS, "season_3")
            for key in order:
                a = st.actives[key]
                if any(act.card.is_athletic for act in st.in_force(a)):
                    self.emit("spared", active=key)
                    continue
                self._season_discard(key)
        else:
            for key in order:
                if st.u(st.actives[key]) == 0:
                    self.gain(key, SEASON_4_GAIN, "season_4")
        self.step = "5"
        for name in st.order:
            if name == st.order[st.current] or new == LAST_SEASON:
                st.hands[name] = HAND_LIMIT
            else:
                st.hands[name] = noted[name]
        self.emit("hands_dealt", hands=dict(st.hands))
        st.season = new
        st.step = "play"
        self.step = "6"
        self.emit("season_changed", season=new)
        self.step = None

    def _lopputyo(self, s):
        """Step 2a: each Lopputyö in force placed before season s is discarded; its holder
        loses ``relief`` (decision 27)."""
        st = self.st
        for key in st.in_turn_order():
            a = st.actives[key]
            for act in [x for x in st.in_force(a) if x.card.is_lopputyo and x.season < s]:
                self.discard(key, act, "lopputyo")
                self.lose(key, act.card.params["relief"], "lopputyo")

    def _stress_relief_discarded(self):
        """Step 2b: every Stressinpoistokampanja, paused or not, is discarded."""
        st = self.st
        for key in st.in_turn_order():
            a = st.actives[key]
            for act in [x for x in a.acts if x.card.is_stress_relief]:
                self.discard(key, act, "season_2b")

    def _season_discard(self, key):
        """Season 2 and 3: one hobby held is discarded; with more, the owner chooses."""
        st = self.st
        a = st.actives[key]
        hobbies = [act for act in a.acts if act.card.is_hobby]
        if len(hobbies) == 1:
            self.discard(key, hobbies[0], "season_start")
        elif hobbies:
            self.queue(Choice("discard_hobby", a.owner, active=key))

    # ----- RULES.md 3.2: play ---------------------------------------------------------------
    def _play_activity(self, move):
        st = self.st
        card = st.pack.cards_by_key[move.card]
        self.set_hand(move.player, st.hands[move.player] - 1, "play_activity")
        x = move.target
        self.place(x, card, partner=move.partner)
        if card.is_dating:
            y = move.partner
            to = self.mods.faction if self.mods is not None and self.mods.faction is not None else None
            if to is not None:
                self.move_to(x, to, "mun_kaverit")
                self.move_to(y, to, "mun_kaverit")
            else:
                owner = st.actives[y].owner
                if owner != st.actives[x].owner:
                    self.move_to(x, owner, "seurustelu")
        self.end_of_trigger()

    def _play_event(self, move):
        st = self.st
        card = st.pack.cards_by_key[move.card]
        effect = card.effect
        cost = 2 if effect == "tarkea_nakki" else 1
        self.set_hand(move.player, st.hands[move.player] - cost, "play_event")
        self.emit("event", card=card.key, effect=effect)
        if effect is not None:
            getattr(self, "_event_" + effect)(move, card)
        self.end_of_trigger()

    def _event_energiapuuska(self, move, card):
        self.st.boosted.add(move.target)
        self.emit("p6_lifted", active=move.target)

    def _event_tarkea_nakki(self, move, card):
        st = self.st
        a = st.actives[move.target]
        hobby = a.find(move.hobby)
        self.discard(move.target, hobby, "tarkea_nakki")
        self.place(move.target, st.pack.cards_by_key[move.chore])

    def _event_uusi_aktiivi(self, move, card):
        st = self.st
        st.actives[move.active] = ActiveState(st.pack.actives_by_key[move.active], move.player)
        st.factions[move.player].append(move.active)
        self.emit("joined", active=move.active, player=move.player)

    def _event_loppu(self, move, card):
        a, act = self.st.find_activity(move.activity)
        self.discard(a.key, act, "loppu")

    def _event_tauko(self, move, card):
        a, act = self.st.find_activity(move.activity)
        self.pause(a.key, act)

    def _event_hahmo_kuolee(self, move, card):
        self.gain(move.target, card.params["gain"], "hahmo_kuolee")

    def _event_uusi_tyyli(self, move, card):
        st = self.st
        self.lose(move.target, card.params["loss"], "uusi_tyyli")
        for key in list(st.factions[st.actives[move.target].owner]):
            if key != move.target:
                self.gain(key, card.params["faction_gain"], "uusi_tyyli")

    def _event_maallepako(self, move, card):
        self.st.actives[move.target].away = True
        self.emit("away", active=move.target)

    def _event_bile(self, move, card):
        """Organizer: one change of ``organizer_gain`` − ``per_guest``·n; then each participant
        loses ``participant_loss``. Ei rahaa: its target gains instead (and leaves n)."""
        st = self.st
        params = card.params
        no_money = self.mods.no_money if self.mods is not None else {}
        organizer = move.target
        host = st.actives[organizer].owner
        guests = sum(1 for p in move.participants if st.actives[p].owner != host and p not in no_money)
        self.emit("party", organizer=organizer, participants=list(move.participants), guests=guests)
        if organizer in no_money:
            self.gain(organizer, no_money[organizer], "ei_rahaa")
        else:
            change = params["organizer_gain"] - params["per_guest"] * guests
            if change > 0:
                self.gain(organizer, change, "bile")
            elif change < 0:
                self.lose(organizer, -change, "bile")
        for p in move.participants:
            if p in no_money:
                self.gain(p, no_money[p], "ei_rahaa")
            else:
                self.lose(p, params["participant_loss"], "bile")

    def _event_tyokiireita(self, move, card):
        a = self.st.actives[move.target]
        amount = max(card.params["min"], card.params["base"] - self.st.u(a))
        self.gain(move.target, amount, "tyokiireita")

    # ----- abilities (RULES.md 1.1) ----------------------------------------------------------
    def _ability(self, move):
        st = self.st
        a = st.actives[move.active]
        st.abilities[move.active] = self.number
        ability = a.card.ability
        self.emit("ability", active=move.active, ability=ability)
        if ability == "pare":
            for t in move.targets:
                self.gain(t, PARE_GAIN, "pare")
        elif ability == "niksu":
            self.lose(move.from_, NIKSU_AMOUNT, "niksu")
            self.gain(move.active, NIKSU_AMOUNT, "niksu")
        elif ability == "kalle":
            self.set_hand(move.player, st.hands[move.player] + KALLE_DRAW, "kalle")
        # jaakko: a hand card is swapped at the table; the hand size stays

    # ----- RULES.md 3.6: choices ---------------------------------------------------------------
    def _choose(self, move):
        st = self.st
        choice = st.pending.pop(0)
        self.emit("answered", choice=choice.kind, player=move.player, active=move.active)
        if choice.kind == "discard_hobby":
            a = st.actives[move.active]
            self.discard(move.active, a.find(move.activity), "discard_hobby")
        else:
            to = self.mods.faction if self.mods is not None and self.mods.faction is not None else move.faction
            self.move_to(move.active, to, "breakup" if to == move.faction else "mun_kaverit")
        self.end_of_trigger()

    # ----- RULES.md 3.5: the end of a turn -----------------------------------------------------
    def _end_turn(self, move):
        st = self.st
        name = move.player
        say = not self.quiet  # the check lines are for the protocol; a quiet replay skips them
        relief = None  # S, looked up once if some active's work anxiety needs it
        for key in st.factions[name]:  # gains and losses move nobody between factions
            a = st.actives[key]
            if a.away:
                if say:
                    self.emit("check", active=key, outcome="away")
                continue
            n = 0
            for act in a.acts:
                if not act.paused:
                    n += 1
            u = a.card.va - n
            t = a.t
            if n >= 1:
                if t >= 1 and u < 1 and relief is None:
                    relief = st.stress_relief()
                if t >= 1 and (u >= 1 or not st.burned_out(a, relief)):
                    amount = u if a.card.ability == "tommi" else 1
                    if say:
                        self.emit("check", active=key, outcome="relief", amount=amount, unused=u)
                    self.lose(key, amount, "check")
                elif say:
                    self.emit("check", active=key, outcome="no_change",
                              reason="no_anxiety" if t == 0 else "burned_out_no_free_time")
                continue
            if a.card.ability == "tane":
                if say:
                    self.emit("check", active=key, outcome="no_change", reason="tane")
                continue
            # idle: no unpaused activities, so no permanent anxiety: A = T
            if t + 1 < a.card.bo:
                if say:
                    self.emit("check", active=key, outcome="idle_gain", anxiety=t, bo=a.card.bo)
                self.gain(key, 1, "idle")
            elif say:
                self.emit("check", active=key, outcome="no_change", reason="would_burn_out", anxiety=t,
                          bo=a.card.bo)
        if st.hands[name] > HAND_LIMIT:
            self.set_hand(name, HAND_LIMIT, "hand_limit")
        st.turn_end[name] = self.number
        st.current = (st.current + 1) % len(st.order)
        st.turn += 1
        st.step = "draw"
        st.abilities.clear()
        st.boosted.clear()
        st.played_turn.clear()
        st.imaami_used.clear()
        st.kalle_season.clear()
        self.emit("turn_started", turn=st.turn, player=st.order[st.current])

    # ----- host moves --------------------------------------------------------------------------
    def adjust_change(self, i, change):
        """One change of an ``adjust`` (RULES.md 7), in order, with no side effects: no gains,
        Imaami, Nakkikone, break-up or copy check. The game applies them to a copy of the
        state while checking them, so an ``adjust`` never runs through ``run``."""
        st = self.st
        if "anxiety" in change:
            a = st.actives[change["active"]]
            a.t += change["anxiety"]
            self.emit("adjusted", index=i, kind="anxiety", active=a.key, delta=change["anxiety"], anxiety_temp=a.t)
        elif "hand" in change:
            p = change["player"]
            self.set_hand(p, st.hands[p] + change["hand"], "adjust")
        elif "owner" in change:
            self.move_to(change["active"], change["owner"], "adjust")
        elif "away" in change:
            st.actives[change["active"]].away = change["away"]
            self.emit("adjusted", index=i, kind="away", active=change["active"], away=change["away"])
        elif "add" in change:
            card = st.pack.cards_by_key[change["add"]]
            act = Activity(f"a{self.number}", card, st.season, change.get("partner"))
            st.hold(st.actives[change["active"]], act)
            self.emit("placed", id=act.id, card=card.key, active=change["active"], partner=act.partner,
                      cause="adjust")
        elif "remove" in change:
            a, act = st.find_activity(change["remove"])
            st.release(a, act)
            self.emit("discarded", id=act.id, card=act.card.key, active=a.key, cause="adjust")
        else:
            a, act = st.find_activity(change["activity"])
            if act.paused == change["paused"]:
                return
            if change["paused"]:
                self.pause(a.key, act)
            else:
                a.acts[a.acts.index(act)] = act.with_paused(False)
                self.emit("unpaused", id=act.id, card=act.card.key, active=a.key, cause="adjust")

    def _finish(self, move):
        st = self.st
        st.finished = True
        st.ended_by = "host"
        st.pending.clear()  # decision 36: pending choices lapse
        self.emit("game_ended", ended_by="host", reason=move.reason)
