"""What Alter Ego's turn screen needs to go on without the server: where the moves a host can
enter offline lead (ARCHITECTURE.md decision 14, issue 18 item 2).

``turn_answers(game)`` says, for each move a host can enter from the position now and from the
positions those moves lead to, what the game waits for next. Every answer is the engine's own:
whether a move is legal is ``checks.check``; where it leads is found by applying it to a copy of
the game (``Game.copy``). The screen looks the answers up; it computes no rule.

**What the answers cover.** The turn's structure as far as a turn of every player (a player's
draw, the season card, the end of a turn), and the plays of the current turn, each with its
targets and choices:

1. at the current player's play step as it stands (or as this turn's draw leaves it) every
   card, ability and reaction to the last trigger, each combination of its fields legal or not
   (the target, a Seurustelu's partner, Tärkeä nakki's hobby and chore, the activity a Loppu
   ends, who reacts and onto what ...), and where each legal one leads: the position after it,
   answered in turn (2); for a Bile and Pare's joke, whose outcome depends on which members
   (guests, the three actives), each set of members ``_member_sets`` names leads to its own
   position: the smallest sets (a party without guests) to (2), the next size (one guest,
   Pare's three) to (3), any other set to the play step without answers;
2. after one play entered offline: the reactions to it, each leading to the position after it
   (3), and the player's abilities (a second play) with their legality there;
3. after a reaction entered offline: the player's abilities with their legality there;
4. after the season card of the current turn (drawn, or drawn by a Jaakko or Kalle ability
   entered offline): every card and ability with its legality there (season 2's hand),
   relative to (1), each leading to the play step without answers; its reactions need the
   server.

Where the answers go no further, a move leads to the player's play step *without answers*: the
screen names the player and offers the end of the turn. A second card of the turn goes there: its legality alone after each first play (relative, every
combination naming what the first changed asked again) would add 10,000-18,000 engine checks
and 0.4-0.8 s to a position of the sample game (benchmarks/bench_alterego_turn_page.py's cuts),
several times the answers' whole cost; every pair applied, 15,000-41,000 legal pairs. So do a
further reaction, an ability used in (2) or (3), a card played in (4), and the sets of members
past ``_member_sets``. A move that queues a pending choice (a Loppu or a Tärkeä nakki ending a
Seurustelu, a season card's discards) ends the answers: the choice needs the server. The turns
after the current one are named (draw, end of turn): their cards, and a season card drawn
there, need the server; so does whatever follows the game's end. No move of Alter Ego waits for
a draw the server makes: the host enters what the players drew.

**Unchecked.** At the current turn's play step without answers, and where the answers name the
abilities alone (after a first play or a reaction), the current player's cards and abilities
not answered there are offered *unchecked* (``_unchecked``): drawn from the same forms, with
every option, no legality asked and no verdict shown; the server checks them when the connection
returns and may refuse them. Each leads to the play step entered unchecked (``nu``), which offers
every card and ability so again, and whose end of the turn leads to ``UNKNOWN``: a move nobody
checked may have queued a choice or ended the game, so whose turn follows is the server's to
say. Reactions entered unchecked are not offered (a reaction names the number of the move it
answers, which only the queue knows).

**Cost.** Only the combinations naming an active or a card a move changed are asked again after
it (``_marks``, ``_again``), and positions alike are one: about a hundred positions, 100-300 ms
of CPU on the sample game, of which the sets of members about a third of the engine's checks
and applies, the play step after a season card a few milliseconds
(``benchmarks/bench_alterego_turn_page.py``).

**Forms and positions.** ``{"start": key, "positions": {key: position}, "forms": [form],
"reactions": [form]}``. ``forms`` are the current player's cards and abilities, each ``{"id",
"type", "card" | "active", "fields", "choose", "members", "need", "candidates"}``: ``fields`` the
move's fields after its type's own (RECORD.md 2 order); ``choose`` those chosen one value each,
whose values key the answers; ``members`` a list field whose members the answers allow one by
one (a Bile's ``participants``, Pare's ``targets``: ``need`` of them at least) or None.
``reactions`` are the reaction cards, each ``{"id", "card", "field", "candidates"}``, chosen by
who plays it and that field's value.

A form's answers are a tree keyed by each chosen value in field order whose leaves are leads:
``{"ville": key}``, ``{"pare": {"a3": {"tyo": key}}}``; a form without fields to choose has its
lead itself. A lead is a position's key, or ``[key, {members field: [allowed members]}]``, or
``[key, {members field: [allowed members]}, {members: key}]``: where each set of members named
leads (the members in candidate order joined by spaces, ``""`` none), any other set to ``key``.

Positions (keys are short strings):

* ``{"expects": "draw", "player", "season", "turn", "known", "draw": key, "season_card": key or
  None}``;
* ``{"expects": "play", "player", "season", "turn", "known", "end_turn": key, "season_card": key
  or None, "plays": plays or None, "reactions": reactions or None, "unchecked": key (where the
  forms not answered there are offered unchecked, each leading to ``key``; else absent)}``: ``known``
  False where the game is not known there (no answers for its cards). ``plays`` is either in full, ``{"leads":
  {form id: answers}, "why": {form id: refusal}}``, or relative to such a position ``{"of": key,
  "forms": [form ids answered here], "then": key, "drop": {form id: [path] or "*"}, "add": {form
  id: answers}, "why": {form id: refusal or None}}``: a form answered here has the answers it has
  there less the paths (the chosen values) of ``drop``, each leading to ``then`` (a
  member leaf's sets of members dropped), and ``add``'s
  over them (legal here only, or leading elsewhere); ``why`` the refusal of each form none of
  whose combinations is legal (relative: where it changed, None where it no longer applies); the
  forms not answered here need the server. ``reactions``: ``{"to": move number, "trigger": Move,
  "leads": {form id: answers by player, then value}}``;
* ``{"expects": "choose", "player"}``, ``{"expects": "finish"}``, ``{"expects": None}``
  (``UNKNOWN``): the answers end.
"""

import json
from dataclasses import replace
from itertools import combinations, product
from math import comb

from ..errors import IllegalMoveError, MalformedError
from .checks import LIST_NEEDS, check
from .moves import Move
from .pack import ABILITY_FIELDS, EVENT_FIELDS, REACTION_FIELDS, USED_ABILITIES

UNKNOWN = "?"
#: the refusal code of a card played without enough cards in hand (``checks._no_card``)
NO_CARD = "no_card"


def turn_answers(game):
    """The answers for the moves a host can enter offline from ``game``'s position (module
    docstring)."""
    return _Answers(game).build()


def tree(leads):
    """``[(path, lead)]`` as the answers give them: a tree keyed by each chosen value in field
    order (``{"pare": {"a3": {"tyo": key}}}``); a form without fields to choose has its lead
    itself."""
    if leads and leads[0][0] == ():
        return leads[0][1]
    out = {}
    for path, lead in leads:
        node = out
        for value in path[:-1]:
            node = node.setdefault(value, {})
        node[path[-1]] = lead
    return out


def _refusal(g, move, partial=False):
    try:
        check(g, move, partial)
    except (IllegalMoveError, MalformedError) as err:
        return err
    return None


def _after(g, move):
    """``g`` after the legal ``move`` (checked already), ``g`` left as it was; the move's events."""
    after = g.copy()
    events = after._run(move, None, True)
    return after, events


def _frozen(position):
    """A position as a comparable text (its refusals and moves by what they say)."""
    def plain(value):
        if isinstance(value, Move):
            return value.to_dict()
        if isinstance(value, Exception):
            return [getattr(value, "code", None), getattr(value, "template", None), getattr(value, "params", None)]
        raise TypeError(type(value))
    return json.dumps(position, default=plain, sort_keys=True)


def _code(err):
    return getattr(err, "code", None)


# ----- the forms --------------------------------------------------------------------------------
def play_forms(game, player):
    """The cards and abilities ``player`` may play at ``game``'s position, as forms (module
    docstring): every activity and event card of the pack, and ``player``'s actives whose ability
    is a move; each field's candidates are the ones a host is offered (the actives in the game in
    seat order, the hobbies and activities held, the chores, the active deck)."""
    st = game.state
    pack = game.pack
    in_game = st.in_seat_order()
    candidates = {"target": in_game, "partner": in_game, "from": in_game, "targets": in_game,
                  "participants": in_game, "chore": [c.key for c in pack.activity_cards if c.is_chore],
                  "hobby": [x.id for k in in_game for x in st.actives[k].acts if x.card.is_hobby],
                  "activity": [x.id for k in in_game for x in st.actives[k].acts], "active": game.active_deck}
    forms = []

    def add(spec, fields):
        members = next((f for f in fields if f in LIST_NEEDS), None)
        spec.update(id=f"f{len(forms)}", fields=list(fields), choose=[f for f in fields if f != members],
                    members=members, need=LIST_NEEDS.get(members, 0),
                    candidates={f: list(candidates[f]) for f in fields})
        forms.append(spec)
    for card in pack.activity_cards:
        add({"type": "play_activity", "card": card.key}, ("target", "partner") if card.is_dating else ("target",))
    for card in pack.event_cards:
        add({"type": "play_event", "card": card.key}, EVENT_FIELDS.get(card.effect, ()))
    for key in st.factions[player]:
        ability = st.actives[key].card.ability
        if ability in USED_ABILITIES:
            add({"type": "ability", "active": key}, ABILITY_FIELDS[ability])
    return forms


def reaction_forms(game):
    """The reaction cards as forms: the field each takes (a target, a faction, or none) and its
    candidates; a reaction is keyed by who plays it and that field's value."""
    st = game.state
    out = []
    for card in game.pack.reaction_cards:
        fields = REACTION_FIELDS.get(card.effect, ())
        name = fields[0] if fields else None
        values = list(st.order) if name == "faction" else st.in_seat_order() if name else []
        out.append({"id": f"r{len(out)}", "card": card.key, "field": name, "candidates": values})
    return out


class _Row:
    """One combination of a form at the answered position: its ``path`` (the chosen values in
    field order) and, for one member of a member field alone, that ``member``; ``key`` both;
    the move (complete, or as far as given: ``partial``), the actives and cards it names, its
    refusal there (None: legal), whether it discarded an activity there (it may end a
    Seurustelu)."""

    __slots__ = ("path", "member", "key", "move", "partial", "actives", "cards", "refusal", "discards")

    def __init__(self, path, member, move, partial, actives, cards):
        self.path, self.member, self.key = path, member, (path, member)
        self.move, self.partial, self.actives, self.cards = move, partial, actives, cards
        self.refusal, self.discards = None, False


def _rows(g, form, player):
    """Every combination of a form a host can pick at ``g`` (a partner other than the target, a
    hobby of the target; a member field's members one by one), as ``_Row``s; what each names is
    what its legality reads of the actives and cards (besides the player's hand and the game's
    totals: ``_marks``)."""
    st = g.state
    cand = form["candidates"]
    base = {"type": form["type"], "player": player}
    names, cards = set(), set()
    if "card" in form:
        base["card"] = form["card"]
        cards.add(form["card"])
    if "active" in form:
        base["active"] = form["active"]
        names.add(form["active"])

    def holder(activity_id):
        a, _act = st.find_activity(activity_id)
        return a.key if a is not None else None

    def attr(name):
        return "from_" if name == "from" else name

    choose, members = form["choose"], form["members"]
    out = []
    for values in product(*(cand[f] for f in choose)):
        if len(values) == 2 and values[0] == values[1]:  # a partner is another active than the target
            continue
        chosen = dict(zip(choose, values))
        if "hobby" in chosen and holder(chosen["hobby"]) != chosen.get("target"):
            continue  # Tärkeä nakki replaces a hobby of its target
        refs, used = set(names), set(cards)
        for f, v in chosen.items():
            if f in ("activity", "hobby"):
                refs.add(holder(v))
            elif f == "chore":
                used.add(v)
            else:
                refs.add(v)
        fields_of = {attr(f): v for f, v in chosen.items()}
        if members is None:
            out.append(_Row(values, None, Move(**base, **fields_of), False, frozenset(refs), frozenset(used)))
            continue
        partial = form["need"] > 0  # Pare's joke names its three one by one: a move being entered
        out.append(_Row(values, None, Move(**base, **fields_of, **{members: ()}), partial, frozenset(refs),
                        frozenset(used)))
        for m in cand[members]:
            if m not in chosen.values():
                out.append(_Row(values, m, Move(**base, **fields_of, **{members: (m,)}), True, frozenset(refs | {m}),
                                frozenset(used)))
    return out


def _allowed(form, legal):
    """A member form's legal rows as ``{path: [members]}``: the combinations whose move is legal
    with ``need`` of its legal members or more."""
    out, bases = {}, {r.path for r in legal if r.member is None}
    for r in legal:
        if r.member is not None and r.path in bases:
            out.setdefault(r.path, []).append(r.member)
    return {b: out.get(b, []) for b in bases if len(out.get(b, [])) >= form["need"]}


def _complete(form, row, allowed):
    """The complete move of a member form's combination with its first ``need`` allowed members."""
    return replace(row.move, **{form["members"]: tuple(allowed[:form["need"]])})


#: how many sets of members (a Bile's guests, the three actives of Pare's joke) of one form
#: are answered with the reactions to the move and the abilities after it (``_after_play``),
#: and how many more with the abilities alone (``_after_abilities``): whole sizes, smallest first
MEMBER_FULL = 12
MEMBER_ABILITIES = 96


def _member_sets(form, allowed_by):
    """``{path: [(members, full)]}``: the sets of members of a member form answered at each of
    its combinations (``allowed_by``: ``_allowed``), in candidate order. Sizes are taken whole,
    smallest first (a party without guests first): a size goes with the reactions answered
    (``full``) while the form's sets so answered stay within ``MEMBER_FULL``, else with the
    abilities alone within ``MEMBER_ABILITIES`` more; the first size past both ends them (any
    larger set leads to the play step without answers)."""
    need = form["need"]
    top = max((len(a) for a in allowed_by.values()), default=0)
    out, full, more = {}, 0, 0
    for size in range(need, top + 1):
        count = sum(comb(len(a), size) for a in allowed_by.values())
        if full + count <= MEMBER_FULL:
            full, tier = full + count, True
        elif more + count <= MEMBER_ABILITIES:
            more, tier = more + count, False
        else:
            break
        for path, allowed in allowed_by.items():
            out.setdefault(path, []).extend((members, tier) for members in combinations(allowed, size))
    return out


# ----- what changed between two positions (which answers to ask again) ---------------------------
def _marks(st, player):
    """What the legality of ``player``'s plays reads of a position: per active its own state and
    the per-turn markers kept for it; per card the copies held; the player's hand; the game's
    totals (the turn and step, a pending choice, the stress relief every anxiety counts, the
    actives in the game, the ends of the players' turns P7 reads)."""
    actives = {k: (a.owner, a.t, a.away, tuple((x.id, x.card.key, x.paused) for x in a.acts),
                   st.played_turn.get(k), k in st.boosted, st.last_onto.get(k), st.abilities.get(k),
                   k in st.kalle_season)
               for k, a in st.actives.items()}
    totals = (st.season, st.turn, st.current, st.step, st.finished, tuple(c.key() for c in st.pending),
              st.stress_relief(), tuple(sorted(st.turn_end.items())), tuple(sorted(st.actives)))
    return actives, dict(st.held), st.hands[player], totals


def _changed(a, b):
    """``None`` when every play must be asked again (the game's totals differ between the marks
    ``a`` and ``b``), else ``(actives, cards, hand)``: the actives and cards whose state differs,
    and whether the player's hand does."""
    if a[3] != b[3]:
        return None
    actives = {k for k, v in b[0].items() if a[0].get(k) != v}
    cards = {c for c in set(a[1]) | set(b[1]) if a[1].get(c, 0) != b[1].get(c, 0)}
    return actives, cards, a[2] != b[2]


class _Plays:
    """A play position answered in full: its ``key``, game ``g`` and ``marks``; ``rows`` per form
    id, and its legal ones; ``why`` the refusal of each form none of whose combinations is legal."""

    def __init__(self, key, g, marks):
        self.key, self.g, self.marks, self.rows, self.why = key, g, marks, {}, {}
        self.legal, self.allowed = {}, {}  # form id -> its legal rows; a member form's ``_allowed``
        self.hand = {}  # (form id, hand) -> whether the form's card has enough cards in hand


class _Answers:
    def __init__(self, game):
        self.game = game
        self.order = game.order
        self.player = game.current
        self.positions = {}
        self.keys = {}  # canonical tuple -> key
        self.limit = game.turn + len(game.order)
        self.forms = None
        self.full = None  # the play position answered in full (``_Plays``), once answered
        self.reactions = reaction_forms(game)

    def build(self):
        start = self.key_of(self.game, answer=True)
        self._unknown()
        self._unchecked()
        return {"start": start, "positions": self.positions, "forms": self.forms or [],
                "reactions": self.reactions}

    def _unchecked(self):
        """The current player's cards and abilities a host may enter *unchecked* where the
        answers name none of them (the current turn's play step without answers) or the
        abilities alone (after a first play, a reaction): ``"unchecked": key`` on those
        positions, the forms not answered there leading to ``key``. No legality is asked: each
        leads to the play step
        entered unchecked (``nu``), which offers them all again and ends its turn at ``UNKNOWN``
        (a move not checked may have queued a choice or ended the game: whose turn follows is
        the server's to say)."""
        if not self.forms:
            return
        ids = [f["id"] for f in self.forms]
        turn = self.game.turn
        for key, position in list(self.positions.items()):
            if position.get("expects") != "play" or position.get("turn") != turn or position["player"] != self.player:
                continue
            plays = position.get("plays")
            if plays is None and not position["known"]:
                missing = ids
            elif plays is not None and "of" in plays:
                missing = [f for f in ids if f not in plays["forms"]]
            else:
                continue
            if missing:
                position["unchecked"] = self._entered_unchecked(position["season"])

    def _entered_unchecked(self, season):
        """The current player's play step after a card or ability entered unchecked: every card
        and ability offered unchecked again, the end of the turn leading to ``UNKNOWN``."""
        canonical = ("unchecked", self.game.turn, season)
        if canonical in self.keys:
            return self.keys[canonical]
        key = f"nu{self.game.turn}s{season}"
        return self._add(canonical, key, {
            "expects": "play", "player": self.player, "season": season, "turn": self.game.turn, "known": False,
            "end_turn": self._unknown(), "season_card": None, "plays": None, "reactions": None,
            "unchecked": key})

    def _add(self, canonical, key, position):
        if canonical in self.keys:
            return self.keys[canonical]
        self.keys[canonical] = key
        self.positions[key] = position
        return key

    def _unknown(self):
        return self._add(("unknown",), UNKNOWN, {"expects": None})

    def _ended(self, g):
        """The key of a finished game or of a pending choice at ``g`` (the answers end there), or
        None when ``g`` waits for neither."""
        if g.finished:
            return self._add(("finish",), "f", {"expects": "finish"})
        nxt = g.next()
        if nxt["expects"] == "choose":
            return self._add(("choose", nxt["player"]), f"c{len(self.positions)}",
                             {"expects": "choose", "player": nxt["player"]})
        return None

    # ----- the turn's structure --------------------------------------------------------------
    def key_of(self, g, answer=False):
        """The key of the position ``g`` waits in, reached by no play entered offline (the game
        known there exactly); its plays answered when it is a play step and ``answer`` says so
        (the position now, or the current turn's draw). Adds it, and what follows it."""
        ended = self._ended(g)
        if ended is not None:
            return ended
        if g.turn > self.limit:
            return self._unknown()
        step, player = g.next()["expects"], g.next()["player"]
        canonical = (step, g.turn, g.season)
        if canonical in self.keys:
            return self.keys[canonical]
        key = self._add(canonical, f"{step[0]}{g.turn}s{g.season}",
                        {"expects": step, "player": player, "season": g.season, "turn": g.turn, "known": True})
        position = self.positions[key]
        current = g.turn == self.game.turn
        if step == "draw":
            position["draw"] = self.key_of(_after(g, Move("draw", player=player))[0], answer=current)
        else:
            position["end_turn"] = self.key_of(_after(g, Move("end_turn", player=player))[0])
            position["plays"], position["reactions"] = None, None
            if answer:
                self._answer(key, g)
        season = Move("season", player=player)
        position["season_card"] = None
        if _refusal(g, season) is None:
            after = _after(g, season)[0]
            # the current turn goes on after its season card: its plays answered relative to the
            # turn's own (every combination asked again), when those are answered
            position["season_card"] = (self._after_season(self.full, after) if current and self.full is not None
                                       else self.key_of(after))
        return key

    def _after_season(self, plays, after):
        """The play step after a season card turned in the current turn: every card and ability
        answered there relative to ``plays``' position (each leading to the play step without
        answers, or where it ends them), its reactions needing the server; a choice the card
        queues (a hobby to discard) or the game's end ends the answers."""
        ended = self._ended(after)
        if ended is not None:
            return ended
        if after.next()["expects"] != "play" or after.turn != self.game.turn:
            return self.key_of(after)
        return self._relative(plays, after, self.forms, None)

    def named(self, step, turn, season):
        """The draw or play step of ``turn`` where the game is not known (moves entered offline
        changed it in ways the answers do not follow): whose turn it is and what ends it, from the
        turn order alone; its cards, and a season card, need the server."""
        if turn > self.limit:
            return self._unknown()
        canonical = ("named", step, turn, season)
        if canonical in self.keys:
            return self.keys[canonical]
        player = self.order[(self.order.index(self.player) + turn - self.game.turn) % len(self.order)]
        key = self._add(canonical, f"n{step[0]}{turn}s{season}",
                        {"expects": step, "player": player, "season": season, "turn": turn, "known": False,
                         "season_card": None})
        if step == "draw":
            self.positions[key]["draw"] = self.named("play", turn, season)
        else:
            self.positions[key].update(end_turn=self.named("draw", turn + 1, season), plays=None, reactions=None)
        return key

    def _lead(self, g):
        """Where a move entered offline leads when the answers go no further: a pending choice,
        the game's end, or the player's play step without answers."""
        ended = self._ended(g)
        if ended is not None:
            return ended
        if g.next()["expects"] != "play" or g.turn != self.game.turn:
            return self._unknown()
        return self.named("play", g.turn, g.season)

    # ----- the plays of the current turn ----------------------------------------------------
    def _answer(self, key, g):
        """The plays at ``g`` (no play entered offline yet) answered in full, each legal one
        leading to the position after it (``_after_play``), and the reactions to its trigger."""
        if self.forms is None:
            self.forms = play_forms(g, self.player)
        plays = self.full = _Plays(key, g, _marks(g.state, self.player))
        leads = {}
        for form in self.forms:  # every refusal first: the positions after a play compare with them
            rows = plays.rows[form["id"]] = _rows(g, form, self.player)
            for r in rows:
                r.refusal = _refusal(g, r.move, r.partial)
            legal = plays.legal[form["id"]] = self._legal(form, rows)
            if form["members"]:
                plays.allowed[form["id"]] = _allowed(form, legal)
            if not legal:
                plays.why[form["id"]] = self._form_refusal(g, form, rows)
        for form in self.forms:
            legal = plays.legal[form["id"]]
            if not legal:
                continue
            mine = []
            if form["members"]:
                # its outcome depends on which members: the sets of members ``_member_sets``
                # answers lead where each goes, any other to the play step without answers
                allowed_by = plays.allowed[form["id"]]
                sets = _member_sets(form, allowed_by)
                for path, allowed in allowed_by.items():
                    row = next(r for r in legal if r.key == (path, None))
                    by = {}
                    for members, full in sets.get(path, ()):
                        move = replace(row.move, **{form["members"]: members})
                        if _refusal(g, move) is None:
                            after = _after(g, move)[0]
                            by[" ".join(members)] = (self._after_play(plays, after) if full
                                                     else self._after_abilities(plays, after))
                    lead = [self._lead(_after(g, _complete(form, row, allowed))[0]), {form["members"]: allowed}]
                    mine.append((path, lead + [by] if by else lead))
            else:
                for row in legal:
                    after, events = _after(g, row.move)
                    row.discards = any(e["code"] == "discarded" for e in events)
                    mine.append((row.path, self._after_play(plays, after)))
            leads[form["id"]] = tree(mine)
        self.positions[key]["plays"] = {"leads": leads, "why": dict(plays.why)}
        self.positions[key]["reactions"] = self._reactions(g, lambda after: self._after_reaction(plays, after))

    @staticmethod
    def _legal(form, rows, status=None):
        """A form's legal rows (``status``: refusals asked again, by combination); a member form
        has none unless some combination has enough legal members."""
        legal = [r for r in rows if (status[r.key] if status is not None and r.key in status else r.refusal) is None]
        if form["members"] and not _allowed(form, legal):
            return []
        return legal

    def _form_refusal(self, g, form, rows):
        """Why no combination of a form is legal: the engine's refusal of its card or ability, or
        why none of its options fits (``Game.offer``)."""
        data = {"type": form["type"], "player": self.player}
        data.update({k: form[k] for k in ("card", "active") if k in form})
        reason = g.offer(data)["reason"]
        return reason if reason is not None else next((r.refusal for r in rows if r.refusal is not None), None)

    def _reactions(self, g, follow):
        """The reactions to ``g``'s trigger: ``{"to", "trigger", "leads": {form id: {player|value:
        lead}}}``, or None when none can be played (no trigger, no card in any hand, none legal).
        Whether a reaction is legal does not depend on who plays it, only that they hold a card
        (RULES.md 3.4): it is asked of the first player holding one, its card alone first."""
        trigger = g.trigger
        if trigger is None:
            return None
        st = g.state
        players = [p for p in st.order if st.hands[p] >= 1]
        if not players:
            return None
        number = trigger[0]
        leads = {}  # form id -> [(path, lead)]
        for form in self.reactions:
            card = Move("react", player=players[0], card=form["card"], to=number)
            if _refusal(g, card, partial=True) is not None:
                continue
            for value in form["candidates"] if form["field"] else [None]:
                fields = {form["field"]: value} if form["field"] else {}
                if form["field"] and _refusal(g, Move("react", player=players[0], card=form["card"], to=number,
                                                      **fields)) is not None:
                    continue
                for player in players:
                    after, _events = _after(g, Move("react", player=player, card=form["card"], to=number, **fields))
                    path = (player, value) if form["field"] else (player,)
                    leads.setdefault(form["id"], []).append((path, follow(after)))
        if not leads:
            return None
        return {"to": number, "trigger": trigger[1], "leads": {f: tree(mine) for f, mine in leads.items()}}

    def _after_play(self, plays, after):
        """The position after one play entered offline from ``plays``' position: its reactions
        answered (each leading to ``_after_reaction``), the player's abilities with their
        legality there. A choice or the game's end ends the answers."""
        ended = self._ended(after)
        if ended is not None:
            return ended
        abilities = [f for f in self.forms if f["type"] == "ability"]
        return self._relative(plays, after, abilities, lambda a: self._after_reaction(plays, a))

    def _after_reaction(self, plays, after):
        """The position after a reaction entered offline: the player's abilities with their
        legality there."""
        return self._after_abilities(plays, after)

    def _after_abilities(self, plays, after):
        """A play position reached offline answered for the player's abilities alone (its
        reactions need the server): after a reaction, or after a member form's set of members
        past ``MEMBER_FULL``."""
        ended = self._ended(after)
        if ended is not None:
            return ended
        return self._relative(plays, after, [f for f in self.forms if f["type"] == "ability"], None)

    def _relative(self, plays, g, forms, follow):
        """A play position ``g`` reached by moves entered offline from ``plays``' position:
        ``forms`` answered there relative to those, each leading to the play step without answers
        (``_lead``); its reactions, each leading where ``follow`` says (None: not answered); the
        end of its turn named. Its key."""
        then = self.named("play", g.turn, g.season)
        position = {"expects": "play", "player": self.player, "season": g.season, "turn": g.turn, "known": True,
                    "end_turn": self.named("draw", g.turn + 1, g.season), "season_card": None}
        season = Move("season", player=self.player)
        if _refusal(g, season) is None:  # right after a Jaakko or Kalle ability
            position["season_card"] = self._after_season(plays, _after(g, season)[0])
        changed = _changed(plays.marks, _marks(g.state, self.player)) if forms else None
        drop, add, why = {}, {}, {}
        for form in forms:
            fid = form["id"]
            rows = plays.rows[fid]
            status = self._again(plays, g, form, rows, changed)
            legal_before = plays.legal[fid]
            if not status:  # nothing it reads changed
                if fid in plays.why:
                    continue
                legal_now = legal_before
            else:
                legal_now = self._legal(form, rows, status)
            extra = []
            if form["members"]:
                before, now = plays.allowed[fid], _allowed(form, legal_now)
                gone = sorted(set(before) - set(now))
                for path, allowed in now.items():
                    if before.get(path) != allowed:
                        row = next(r for r in legal_now if r.key == (path, None))
                        extra.append((path, [self._lead(_after(g, _complete(form, row, allowed))[0]),
                                             {form["members"]: allowed}]))
            else:
                now = {r.path for r in legal_now}
                gone = sorted(r.path for r in legal_before if r.path not in now)
                for r in legal_now:
                    newly = r.refusal is not None
                    if newly or r.discards:  # legal here only, or a play that discarded: a choice?
                        lead = self._lead(_after(g, r.move)[0])
                        if newly or lead != then:
                            extra.append((r.path, lead))
            if legal_before and not legal_now:
                drop[fid] = "*"
            elif gone:
                drop[fid] = [list(path) for path in gone]
            if extra:
                add[fid] = tree(extra)
            if not legal_now:
                err = next((e for e in status.values() if e is not None), None)
                if err is not None and (fid not in plays.why or _code(err) == NO_CARD):
                    why[fid] = err
            elif fid in plays.why:
                why[fid] = None
        position["plays"] = {"of": plays.key, "forms": [f["id"] for f in forms], "then": then, "drop": drop,
                             "add": add, "why": why}
        position["reactions"] = self._reactions(g, follow) if follow is not None else None
        # positions alike are one (a play that changes nothing the screen shows next)
        return self._add(("relative", _frozen(position)), f"b{len(self.positions)}", position)

    def _again(self, plays, g, form, rows, changed):
        """``{combination: refusal or None}`` of a form's rows asked again at ``g``: the ones naming
        an active or a card whose state changed since ``plays``' position (what ``_marks``
        keeps); when the player's hand changed, whether the form's card still has enough cards
        in hand (one legal row not asked again says it: a card needs as many whatever its
        fields), and the rows refused for want of a card; every row when the totals changed."""
        if changed is None:
            return {r.key: _refusal(g, r.move, r.partial) for r in rows}
        actives, cards, hand = changed
        again = [r for r in rows if r.actives & actives or r.cards & cards]
        if hand:
            asked = {r.key for r in again}
            probe = next((r for r in rows if r.refusal is None and r.key not in asked), None)
            if probe is not None:
                mark = (form["id"], g.state.hands[self.player])
                if mark not in plays.hand:
                    plays.hand[mark] = _refusal(g, probe.move, probe.partial)
                err = plays.hand[mark]
                if err is not None and _code(err) == NO_CARD:
                    return {r.key: err for r in rows}
                if err is not None:  # not the hand after all: everything asked again
                    return {r.key: _refusal(g, r.move, r.partial) for r in rows}
            again += [r for r in rows if r.key not in asked and _code(r.refusal) == NO_CARD]
        return {r.key: _refusal(g, r.move, r.partial) for r in again}
