"""The New Angeles tracker's game state and its moves (RULES.md §3–§8, §10, §11).

``Game.check(move)`` says whether a move is legal now, raising ``IllegalMoveError``;
``Game.apply(move)`` also carries it out and returns a ``MoveResult`` saying what changed, as
codes and numbers (no prose), so screens and the protocol can word it in any language. A
refused move leaves the game untouched: every ``_plan_*`` checks everything first and returns
the mutation to run only when all checks passed.

**Rule references.** Every refusal carries as ``rule`` the place of RULES.md it enforces:
``"§N"`` is section N (``"§3"`` the round structure, ``"§4"`` a deal, ``"§10"`` a move's
"legal when" and field ranges, ``"§2"`` the players of the setup, ``"§1"`` the pieces: resources
and the pack's card lists), ``"DN"`` is numbered decision N of §9 (``"D4"``, ``"D21"``). ``code``
is a stable snake_case key; ``template`` the English sentence, with the names and numbers as
``params``. Where §11 quotes a refusal the message reads exactly like it
(``Anna countered twice``).

**Decisions beyond RULES.md** (each tested in ``tests/newangeles/test_na_9_decisions.py``):

* Field ranges of §10 (``amount`` ≠ 0, ``cards`` ≥ 1, ``next_assets`` ≥ 1, ``event_threat``,
  ``production`` and an investment's ``capital`` ≥ 0, a transfer's ``capital`` ≥ 0) are
  refusals of the engine (``IllegalMoveError``), not malformed input: §11 lists ``cards < 1``
  among them. Shapes, types and fixed choices (``reason``, ``offer``, ``winner``) are
  ``MalformedError``.
* ``override_reason`` without a ``winner`` is refused (D7: nothing is overridden). A ``winner``
  equal to the count may carry a reason (e.g. a choice under ``active_chooses``).
* Checks of a deal run in the order of §4 (transfers, asset, main offer, counteroffers, support,
  winner), so the first refusal is the one a host entering the deal step by step meets first.
  Unknown names are refused before anything else.
* Only the winning offer's emergency card turns facedown; a losing or covered one goes back
  faceup, i.e. stays as it was (it could be proposed only faceup, D8).
* ``adjust.emergency`` may set a card to the state it already has (a no-op, like D37).
* A finish's ``rivals`` value that is none of the six corporations nor ``federalist`` is an
  unknown corporation (D34); a corporation not in play is ``rival not in play`` (D14).
* After a takeover in an end of round, the round does not advance, ``assets_left`` stays 0
  and ``deals`` of that round keep counting (D19, D25).
"""

from dataclasses import dataclass, field

from ..errors import IllegalMoveError, MalformedError
from .moves import ANYTIME, CAPITAL_REASONS, MOVE_TYPES, SUPPLY_REASONS, THREAT_REASONS, Move, read_move
from .pack import CORPORATION_KEYS, FEDERALIST
from .rounds import DEMAND, LAST_SLOT, LAST_STANDARD, SLOTS, STANDARD, label_of, round_info
from .setup import check_setup, read_setup, resolve_demand
from .winners import decide, rival_player

#: the steps of a deal screen, in the order of RULES.md §4 (``Game.preview_deal``)
DEAL_STAGES = ("asset", "offer", "counteroffers", "support", "winner")
_STAGE = {s: i for i, s in enumerate(DEAL_STAGES)}


def _illegal(rule, code, template, /, **params):
    """An ``IllegalMoveError``: ``rule`` as in the module docstring, ``template`` a literal."""
    return IllegalMoveError(rule, code, template, **params)


class PlayerState:
    """One player's tracked pieces: capital, asset cards (in the order acquired, D33), the
    emergency card and the investments scored so far."""

    __slots__ = ("name", "seat", "corp", "capital", "assets", "emergency", "investments")

    def __init__(self, name, seat, corp, capital, assets=None, emergency="faceup", investments=None):
        self.name = name
        self.seat = seat
        self.corp = corp
        self.capital = capital
        self.assets = assets if assets is not None else []
        self.emergency = emergency
        self.investments = investments if investments is not None else []  # [(round label, card, capital)]

    def copy(self):
        return PlayerState(self.name, self.seat, self.corp, self.capital, list(self.assets), self.emergency,
                           list(self.investments))

    def snapshot(self):
        return (self.name, self.capital, tuple(self.assets), self.emergency, tuple(self.investments))


class DealRecord:
    """A deal made: the move and what the engine computed, rendered on demand."""

    __slots__ = ("n", "label", "move", "support_main", "support_counter", "won_by", "winner", "tie")

    def __init__(self, n, label, move, support_main, support_counter, won_by, winner, tie):
        self.n = n
        self.label = label
        self.move = move
        self.support_main = support_main
        self.support_counter = support_counter
        self.won_by = won_by
        self.winner = winner
        self.tie = tie

    def to_dict(self):
        """The standings' ``deals`` entry (RECORD.md §4). (``Offer.public`` spelled out: the
        standings of every table write one for every deal.)"""
        m = self.move
        main = m.main
        counters = m.counteroffers or ()
        if counters:
            standing = counters[-1]
            o = standing.offer
            counter = {"player": standing.player,
                       "offer": {"card": o.card} if o.card is not None else {"emergency": o.emergency},
                       "support": self.support_counter}
            covered = [{"player": c.player, "offer": c.offer.public()} for c in counters[:-1]] \
                if len(counters) > 1 else []
        else:
            counter, covered = None, []
        return {
            "n": self.n, "round": self.label, "active": m.active, "asset": m.asset,
            "main": {"player": m.active,
                     "offer": {"card": main.card} if main.card is not None else {"emergency": main.emergency},
                     "support": self.support_main},
            "covered": covered,
            "counter": counter,
            "transfers": [t.public() for t in m.transfers] if m.transfers else [],
            "won_by": self.won_by, "winner": self.winner, "tie": self.tie,
            "override_reason": m.override_reason,
        }


@dataclass
class DealPreview:
    """A deal checked up to ``stage`` (``DEAL_STAGES``): what a deal screen shows live.

    ``may_counter`` are the players who may still counter (clockwise, after the last
    counteroffer); ``supporters`` everyone allowed to support (all but the active player and
    the standing counteroffer's owner, clockwise from the active player's left);
    ``may_support`` those of them still to come after the last support entered. ``support``
    is S(main) and S(counter) of §4 (counter None without a counteroffer); ``computed`` the
    count's winner (None for a tie under ``active_chooses``), ``won_by`` the recorded one."""

    stage: str
    active: str
    asset: str
    order: list
    main: dict | None = None
    counter: dict | None = None
    covered: list = field(default_factory=list)
    may_counter: list = field(default_factory=list)
    supporters: list = field(default_factory=list)
    may_support: list = field(default_factory=list)
    support: dict = field(default_factory=dict)
    computed: str | None = None
    tie: bool = False
    won_by: str | None = None
    winner: str | None = None
    emergency_faceup: dict = field(default_factory=dict)

    def to_dict(self):
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


class _DealEntry:
    """``MoveResult.deal``: the standings' entry of the deal a move made, written from its
    ``DealRecord`` (``_deal``) when first read (a replay reads none of them; nothing of a deal
    changes after it is made, so the entry reads the same whenever it is written). A result's
    own ``deal`` (a value set) hides this; a result of no deal reads None."""

    def __get__(self, result, owner=None):
        if result is None:
            return None  # the field's default
        record = result.__dict__.get("_deal")
        if record is None:
            return None
        entry = result.__dict__["deal"] = record.to_dict()  # two threads: equal entries
        return entry


# ----- a move's events, told when first read -------------------------------------------------
# ``MoveResult.events`` of a replayed move is written only when read (a replay reads none), from
# what the result and its move keep and the few numbers its move's ``run`` left in ``_told``
# (``(teller, *values)``, values of the moment, never the game's state, which goes on changing).
# Each teller gives the events in the order the move made its changes.


def _threat_told(result, out, threat, threat_max):
    """A threat change and the takeover it brought (``Game._add_threat``)."""
    if result.threat is not None:
        out.append(("threat", dict(result.threat)))
    if result.ended_by == "threat":
        out.append(("takeover", {"threat": threat, "threat_max": threat_max}))


def _deal_told(result):
    move, record = result.move, result.__dict__["_deal"]
    out = [("transfer", t.public()) for t in move.transfers] if move.transfers else []
    out.append(("deal_won", {"n": record.n, "won_by": record.won_by, "winner": record.winner, "tie": record.tie,
                             "main": record.support_main, "counter": record.support_counter,
                             "overridden": move.override_reason is not None}))
    out.append(("asset_taken", {"player": record.winner, "asset": move.asset}))
    offer = move.main if record.won_by == "main" else move.counteroffers[-1].offer
    if offer.emergency is not None:
        out.append(("emergency_spent", {"player": record.winner, "corp": offer.emergency}))
    return out


def _end_round_told(result, threat, threat_max):
    move = result.move
    added = move.event_threat or 0
    out = [("production", {r: a for r, a in (move.production or {}).items() if a})]
    if move.event is not None or added:
        out.append(("event", {"event": move.event, "threat": added}))
    _threat_told(result, out, threat, threat_max)
    if result.advanced is not None:
        out.append(("round_advanced", dict(result.advanced)))
    return out


def _demand_round_told(result, scored, met, card, short, added, new_card, keys, threat, threat_max):
    out = [("investment_scored", dict(s)) for s in scored]
    out.append(("demand_met" if met else "demand_missed", {"card": card, "short": dict(short), "threat_added": added}))
    _threat_told(result, out, threat, threat_max)
    if result.ended_by == "rounds":
        out.append(("rounds_over", {"threat": threat, "threat_max": threat_max}))
    if result.advanced is not None:
        out.append(("demand_revealed", {"card": new_card.code, "threat": new_card.threat,
                                        "targets": new_card.full_targets(keys)}))
        out.append(("round_advanced", dict(result.advanced)))
    return out


def _capital_told(result, capital):
    move = result.move
    return [("capital", {"player": move.player, "amount": move.amount, "capital": capital, "reason": move.reason})]


def _threat_move_told(result, threat, threat_max):
    out = []
    _threat_told(result, out, threat, threat_max)
    return out


def _supply_told(result, supply):
    reason = result.move.reason
    return [("supply", {"resource": r, "amount": delta, "supply": supply[r], "reason": reason})
            for r, delta in result.supply.items()]


def _transfer_told(result):
    return [("transfer", result.move.transfer.public())]


@dataclass
class MoveResult:
    """What one move did, as codes and numbers for the host's screen and the protocol.

    ``capital`` and ``supply`` map a player / resource to its change (non-zero only);
    ``threat`` is ``{"before", "after", "added", "capped", "reason"}`` when threat changed (the
    reason is the move's, ``"event"`` for an end of round, ``"demand"`` for unmet demand);
    ``assets`` lists asset cards that changed hands as ``{"asset", "from", "to"}`` (``from``
    None: revealed in a deal; ``to`` None: removed by ``adjust``); ``deal`` is the standings'
    deal entry and ``demand`` the demand-history entry plus the scored ``investments``;
    ``ended_by`` is set by the move that ended the game; ``outcome`` by ``finish``.
    ``events`` narrates the move in order as ``(code, params)`` pairs. Before finish nothing
    here names a rival (D22). A result is read, never changed, by the screens: ``round``,
    ``deal`` and ``events`` of a replayed move are written when first read, from what it keeps."""

    index: int
    move: Move
    round: dict
    capital: dict = field(default_factory=dict)
    threat: dict | None = None
    supply: dict = field(default_factory=dict)
    assets: list = field(default_factory=list)
    emergency: dict = field(default_factory=dict)
    first_player: dict | None = None
    assets_left: dict | None = None
    deal: dict | None = _DealEntry()  # a DealRecord set as ``_deal`` is read as its entry
    demand: dict | None = None
    advanced: dict | None = None
    ended_by: str | None = None
    outcome: dict | None = None
    events: list = field(default_factory=list)

    def note(self, code, **params):
        self.events.append((code, params))

    def __getattr__(self, name):
        """A field ``new`` left unwritten (the others of its kind read their class's default):
        ``round`` from the move's slot, ``events`` told from ``_told`` (none: no event yet), an
        empty ``capital``, ``supply``, ``emergency`` or ``assets`` made when first read or
        written (most moves change none of them)."""
        fields = self.__dict__
        if name in _CHANGES:
            made = fields[name] = [] if name == "assets" else {}  # two threads: equal, empty
            return made
        if name == "events":
            told = fields.get("_told")
            events = fields["events"] = [] if told is None else told[0](self, *told[1:])  # two threads: equal
            return events
        if name == "round" and "_slot" in fields:
            info = fields["round"] = round_info(fields["_slot"])
            return info
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @classmethod
    def new(cls, index, move, slot):
        """``MoveResult(index, move, round_info(slot))``, made without the dataclass's
        ``__init__`` (one is made for every move of every replay): its ``round`` and ``events``
        are written when first read, and a field whose default is None reads the class's;
        ``tests/newangeles/test_na_replay_fast_paths.py`` holds the two the same."""
        result = object.__new__(cls)
        result.__dict__.update(index=index, move=move, _slot=slot)
        return result


#: the fields of a ``MoveResult`` that say what a move changed, made when first asked for
_CHANGES = frozenset(("capital", "supply", "assets", "emergency"))
#: the ``Game`` method that plans each type of move
_PLAN = {kind: "_plan_" + kind for kind in MOVE_TYPES}


class Game:
    """One table's game from setup to finish (RULES.md), replayed move by move."""

    def __init__(self, pack, setup, table=""):
        if isinstance(setup, dict):
            setup = read_setup(setup)
        demand = check_setup(pack, setup)
        self.pack = pack
        self.setup = setup
        self.table = table
        self.players = [PlayerState(p.name, i, p.corp, p.capital) for i, p in enumerate(setup.players)]
        self.by_name = {p.name: p for p in self.players}
        self.by_corp = {p.corp: p for p in self.players}
        self.holder = {}  # asset -> name of the player holding it
        self.threat = setup.threat
        given = setup.supply or {}
        self.supply = {r: given.get(r, 0) for r in pack.resource_keys}
        self.demand = demand
        self.slot = 1
        self.assets_left = setup.assets
        self.deals_in_round = 0
        self.first = self.by_name[setup.first_player].seat
        self.ended_by = None  # "threat" or "rounds" once the game has ended (§8)
        self.finished = False
        self.rivals = None  # {name: rival} after finish
        self.results = None  # {name: won} after finish
        self.deals = []  # DealRecord
        self.demand_history = []  # standings' demand_history entries
        self.moves = []
        self.history = []  # MoveResult per move

    def copy(self):
        """An independent game in the same position (the app applies a new move to a copy of a
        cached game instead of replaying the record). Immutable parts are shared."""
        g = Game.__new__(Game)
        g.__dict__.update(self.__dict__)
        g.players = [p.copy() for p in self.players]
        g.by_name = {p.name: p for p in g.players}
        g.by_corp = {p.corp: p for p in g.players}
        g.holder = dict(self.holder)
        g.supply = dict(self.supply)
        g.rivals = None if self.rivals is None else dict(self.rivals)
        g.results = None if self.results is None else dict(self.results)
        g.deals = list(self.deals)
        g.demand_history = list(self.demand_history)
        g.moves = list(self.moves)
        g.history = list(self.history)
        return g

    # ----- where the game is ------------------------------------------------------------
    @property
    def ended(self):
        return self.ended_by is not None

    @property
    def kind(self):
        return SLOTS[self.slot][0]

    @property
    def label(self):
        return SLOTS[self.slot][1]

    @property
    def round(self):
        return round_info(self.slot)

    @property
    def first_player(self):
        """The token holder: the active player of the next deal (D21)."""
        return self.players[self.first].name

    @property
    def names(self):
        return [p.name for p in self.players]

    def clockwise_from_left(self, name):
        """The other players, clockwise from ``name``'s left: the order of counteroffers and
        support when ``name`` is active (§4)."""
        seat, n = self.by_name[name].seat, len(self.players)
        return [self.players[(seat + i) % n].name for i in range(1, n)]

    def next(self):
        """What the game waits for: `newangeles-standings/1`'s ``next`` (RECORD.md §4)."""
        if self.finished:
            return None
        if self.ended:
            return {"expects": "finish"}
        if self.kind == DEMAND:
            return {"expects": "demand_round"}
        if self.assets_left >= 1:
            return {"expects": "deal", "active": self.first_player, "deal": self.deals_in_round + 1,
                    "of": self.deals_in_round + self.assets_left}
        return {"expects": "end_round"}

    def demand_outcome(self):
        """Step 2 of a demand round as it would go now: ``(met, short, threat_added)`` (§6, D24).
        Investments change only capital, so this is known before the round is entered."""
        short = {}
        supply, targets = self.supply, self.demand.targets
        for r in self.pack.resource_keys:
            target = targets.get(r, 0)  # ``self.demand.target(r)``
            if supply[r] < target:
                short[r] = target - supply[r]
        met = not short
        return met, short, 0 if met else self.demand.threat

    def legal_moves(self):
        """The move types the rules allow now, with what a screen needs to enter them."""
        if self.finished:
            return []
        if self.ended:
            sealed = self.setup.sealed_rivals()
            return [{"type": "finish", "required": [n for n in self.names if n not in sealed],
                     "sealed": [n for n in self.names if n in sealed]}]
        out = []
        if self.kind == STANDARD and self.assets_left >= 1:
            active = self.first_player
            out.append({"type": "deal", "active": active, "order": self.clockwise_from_left(active),
                        "deal": self.deals_in_round + 1, "of": self.deals_in_round + self.assets_left,
                        "emergency": {p.name: p.corp for p in self.players if p.emergency == "faceup"},
                        "support_tie": self.pack.support_tie})
        elif self.kind == STANDARD and self.deals_in_round >= 1:
            last = self.slot == LAST_STANDARD
            out.append({"type": "end_round", "next_assets": "absent" if last else "unless_takeover",
                        "threat": self.threat, "threat_max": self.pack.threat_max,
                        "resources": list(self.pack.resource_keys)})
        elif self.kind == DEMAND:
            met, short, added = self.demand_outcome()
            takeover = self.threat + added >= self.pack.threat_max
            out.append({"type": "demand_round", "players": self.names, "met": met, "short": short,
                        "threat_added": added, "takeover": takeover,
                        "next_demand": "required" if self.slot != LAST_SLOT and not takeover else "absent"})
        reasons = {"capital": CAPITAL_REASONS, "threat": THREAT_REASONS, "supply": SUPPLY_REASONS}
        out += [{"type": t, "reasons": list(reasons[t])} if t in reasons else {"type": t} for t in ANYTIME]
        return out

    # ----- checking and applying moves --------------------------------------------------
    def check(self, move):
        """Raise ``IllegalMoveError`` if ``move`` is not legal now; change nothing."""
        self._plan(move)

    def apply(self, move):
        """Carry out a legal move and return what it changed; an illegal one changes nothing."""
        run = self._plan(move)
        result = object.__new__(MoveResult)  # ``MoveResult.new``
        result.index = len(self.moves)
        result.move = move
        result._slot = self.slot
        run(result)
        self.moves.append(move)
        self.history.append(result)
        return result

    def preview_deal(self, move, stage="winner"):
        """Check a deal up to ``stage`` (``DEAL_STAGES``) and return its ``DealPreview``: the
        support counts, the computed winner and the tie flag, live on a deal screen before the
        deal is recorded. Raises like ``check``; later fields are ignored."""
        if stage not in _STAGE:
            raise ValueError(f"unknown deal stage {stage!r}; the stages are {', '.join(DEAL_STAGES)}")
        self._before_the_end()
        return self._plan_deal(move, _STAGE[stage], preview=True)[1]

    def _before_the_end(self):
        if self.finished:
            raise _illegal("D19", "after_finish", "move after finish: the game is finished")
        if self.ended:
            raise _illegal("D19", "after_end", "move after the end: the game ended by {ended_by}; only finish "
                           "is accepted", ended_by=self.ended_by)

    def _plan(self, move):
        if move.type == "finish":
            if self.finished:
                raise _illegal("D19", "after_finish", "move after finish: the game is finished")
            return self._plan_finish(move)
        if self.finished or self.ended_by is not None:
            self._before_the_end()  # refuses
        if move.type == "deal":
            return self._plan_deal(move, 4)[0]  # every stage, up to the winner
        return getattr(self, _PLAN.get(move.type) or "_plan_" + move.type)(move)

    # ----- names ------------------------------------------------------------------------
    def _known(self, name):
        if name not in self.by_name:
            raise _illegal("§2", "unknown_player", "unknown player {player}; the players are {allowed}",
                           player=name, allowed=", ".join(self.names))
        return self.by_name[name]

    def _check_code(self, kind, code):
        """An asset, investment or event must be a code of the pack's list, if it has one."""
        if not self.pack.accepts(kind, code):
            raise _illegal("§1", "unknown_code", "unknown {card} code {code}: the pack lists its {card} cards",
                           card=kind[:-1], code=code)

    def _check_resource(self, resource):
        if resource not in self.supply:
            raise _illegal("§1", "unknown_resource", "unknown resource {resource}; the resources are {allowed}",
                           resource=resource, allowed=", ".join(self.pack.resource_keys))

    def _corp_in_play(self, corp):
        if corp not in CORPORATION_KEYS:
            raise _illegal("D34", "unknown_corporation", "unknown corporation {corp}; the corporations are "
                           "{allowed}", corp=corp, allowed=", ".join(CORPORATION_KEYS))
        if corp not in self.by_corp:
            raise _illegal("D34", "corporation_not_in_play", "corporation {corp} is not in play", corp=corp)
        return self.by_corp[corp]

    # ----- transfers (D9) ---------------------------------------------------------------
    def _check_transfers(self, transfers, capital, owner):
        """Check transfers one after the other on scratch ``capital`` {name: n} and ``owner``
        {asset: name} maps, which they update (a later transfer may pass on what an earlier one
        gave)."""
        by_name = self.by_name
        for t in transfers:
            giver, receiver = t.giver, t.receiver
            if giver not in by_name:
                self._known(giver)  # refuses
            if receiver not in by_name:
                self._known(receiver)  # refuses
            if giver == receiver:
                raise _illegal("§10", "transfer_same_player", "a transfer needs two different players, got "
                               "{player} to {player}", player=giver)
            amount, assets = t.capital or 0, t.assets or ()  # ``t.amount``, ``t.asset_list``
            if amount < 0:
                raise _illegal("§10", "transfer_capital_negative", "a transfer's capital must be at least 0, got "
                               "{capital}", capital=amount)
            if not amount and not assets:
                raise _illegal("§10", "transfer_empty", "a transfer from {player} gives neither capital nor assets",
                               player=giver)
            held = capital.get(giver, by_name[giver].capital)
            if amount > held:
                raise _illegal("D9", "gives_too_much", "{player} gives more capital than held: {capital} > {held}",
                               player=giver, capital=amount, held=held)
            capital[giver] = held - amount
            capital[receiver] = capital.get(receiver, by_name[receiver].capital) + amount
            for asset in assets:
                if owner.get(asset, self.holder.get(asset)) != giver:
                    raise _illegal("D9", "asset_not_held", "asset not held: {player} does not hold {asset}",
                                   player=giver, asset=asset)
                owner[asset] = receiver

    def _run_transfer(self, t, result):
        giver, receiver = self.by_name[t.giver], self.by_name[t.receiver]
        amount = t.capital or 0  # ``t.amount``
        if amount:
            giver.capital -= amount
            receiver.capital += amount
            changes = result.capital
            changes[giver.name] = changes.get(giver.name, 0) - amount
            changes[receiver.name] = changes.get(receiver.name, 0) + amount
        for asset in t.assets or ():  # ``t.asset_list``
            giver.assets.remove(asset)
            receiver.assets.append(asset)
            self.holder[asset] = receiver.name
            result.assets.append({"asset": asset, "from": giver.name, "to": receiver.name})

    # ----- deal (§4) ---------------------------------------------------------------------
    def _check_offer(self, offer, owner):
        if offer.emergency is None:
            return
        corp = offer.emergency
        if corp not in CORPORATION_KEYS:
            raise _illegal("D34", "unknown_corporation", "unknown corporation {corp}; the corporations are "
                           "{allowed}", corp=corp, allowed=", ".join(CORPORATION_KEYS))
        if corp != owner.corp:
            raise _illegal("D8", "emergency_other", "emergency card of another corporation: {player} plays {corp}, "
                           "whose card is not {player}'s", player=owner.name, corp=corp)
        if owner.emergency != "faceup":
            raise _illegal("D8", "emergency_facedown", "emergency card facedown: {player}'s {corp} card is spent",
                           player=owner.name, corp=corp)

    def _plan_deal(self, move, upto, preview=False):
        """Check a deal up to step ``upto`` (index into ``DEAL_STAGES``); return ``(run, preview)``:
        ``run`` only for a whole deal, the ``DealPreview`` only when asked for (a screen's)."""
        if SLOTS[self.slot][0] != STANDARD:
            raise _illegal("§3", "not_standard_round", "not a standard round: {label} is a demand round",
                           label=self.label)
        if self.assets_left < 1:
            raise _illegal("D2", "no_asset_left", "no asset card left (assets_left = {assets_left})",
                           assets_left=self.assets_left)
        counters = (move.counteroffers or ()) if upto >= 2 else ()
        supports = (move.support or ()) if upto >= 3 else ()
        transfers = move.transfers or ()
        by_name = self.by_name
        active = by_name.get(move.active) or self._known(move.active)
        for c in counters:
            if c.player not in by_name:
                self._known(c.player)
        for s in supports:
            if s.player not in by_name:
                self._known(s.player)
        if active.seat != self.first:
            raise _illegal("D21", "wrong_active", "wrong active player: expected {expected}",
                           expected=self.first_player, active=active.name)
        asset = move.asset
        owner = None
        if transfers:
            owner = {}
            self._check_transfers(transfers, {}, owner)
        codes = self.pack.codes["assets"]  # ``pack.accepts``
        if codes is not None and asset not in codes:
            self._check_code("assets", asset)  # refuses
        holder = owner.get(asset) if owner else None
        if holder is None:
            holder = self.holder.get(asset)
        if holder is not None:
            raise _illegal("D29", "asset_held", "asset already held by {holder}", holder=holder, asset=asset)
        if upto >= 1:
            if move.main is None:
                raise MalformedError("move.main", "is missing")
            if move.main.emergency is not None:
                self._check_offer(move.main, active)
        # counteroffers: one opportunity each, clockwise from the active player's left (§4, D3)
        n = len(self.players)
        name, seat = active.name, active.seat
        seen, last = set(), 0
        for c in counters:
            player = c.player
            if player == name:
                raise _illegal("§4", "active_countered", "the active player countered", player=player)
            if player in seen:
                raise _illegal("§4", "countered_twice", "{player} countered twice", player=player)
            offset = (by_name[player].seat - seat) % n
            if offset < last:
                raise _illegal("§4", "counter_order", "counteroffers out of clockwise order from the active "
                               "player's left: {player} after {previous}", player=player,
                               previous=self.players[(seat + last) % n].name)
            if c.offer.emergency is not None:
                self._check_offer(c.offer, by_name[player])
            seen.add(player)
            last = offset
        standing = counters[-1] if counters else None
        countered = None if standing is None else standing.player
        last_counter = last
        # support: players without a standing offer, once each, clockwise (§4, D3, D4)
        s_main, s_counter, seen, last = 0, 0, set(), 0
        for s in supports:
            player = s.player
            if player == name or player == countered:
                raise _illegal("D3", "supports_with_offer", "{player} supports while holding an offer",
                               player=player)
            if player in seen:
                raise _illegal("D4", "supports_twice", "{player} supports twice", player=player)
            offset = (by_name[player].seat - seat) % n
            if offset < last:
                raise _illegal("§4", "support_order", "supports out of clockwise order from the active player's "
                               "left: {player} after {previous}", player=player,
                               previous=self.players[(seat + last) % n].name)
            cards = s.cards
            if cards < 1:
                raise _illegal("D4", "support_cards", "cards < 1: {player} supports with {cards} cards",
                               player=player, cards=cards)
            if s.offer == "main":
                s_main += cards
            else:
                if standing is None and s.offer == "counter":
                    raise _illegal("D4", "counter_missing", "counter with no counteroffer: {player} supports it",
                                   player=player)
                s_counter += cards
            seen.add(player)
            last = offset
        if upto >= 3:
            extra = move.extra_support  # ``move.extra_main`` and ``move.extra_counter``
            extra_main, extra_counter = (extra.get("main", 0), extra.get("counter", 0)) if extra else (0, 0)
            if (extra_main or extra_counter) and move.extra_reason is None:
                raise _illegal("D27", "extra_reason_missing", "extra support without extra_reason (main {main}, "
                               "counter {counter})", main=extra_main, counter=extra_counter)
            if extra_counter and standing is None:
                raise _illegal("D27", "extra_counter_missing", "counter with no counteroffer: extra support "
                               "{extra} for it", extra=extra_counter)
            s_main += extra_main
            s_counter += extra_counter
        # resolution (§4 Computation, D5–D7, D32)
        tie = standing is not None and s_main == s_counter
        if standing is None or s_main > s_counter:
            computed = "main"
        elif s_counter > s_main:
            computed = "counter"
        else:
            computed = "main" if self.pack.support_tie == "main" else None
        won_by = computed
        if upto >= 4:
            if move.winner == "counter" and standing is None:
                raise _illegal("D32", "winner_counter_missing", "counter with no counteroffer: the winner cannot "
                               "be counter")
            if move.override_reason is not None and move.winner is None:
                raise _illegal("D7", "override_without_winner", "override_reason without a winner: name the "
                               "winner it overrides the count with")
            if computed is None and move.winner is None:
                raise _illegal("D6", "tie_needs_winner", "a tie (main {main} vs counter {counter}) needs a "
                               "winner: the pack's support_tie is active_chooses", main=s_main, counter=s_counter)
            if move.winner is not None and computed is not None and move.winner != computed \
                    and move.override_reason is None:
                raise _illegal("D7", "winner_differs", "winner differs from the count (main {main} vs counter "
                               "{counter}) without override_reason", main=s_main, counter=s_counter,
                               winner=move.winner)
            won_by = move.winner or computed
        winner = None
        if won_by is not None and upto >= 3:
            winner = active.name if won_by == "main" else standing.player
        shown = None
        if preview:
            shown = self._preview(move, upto, active, counters, last_counter, last, (s_main, s_counter),
                                  (computed, tie, won_by, winner))
        if upto < 4:
            return None, shown

        def run(result):
            for t in transfers:
                self._run_transfer(t, result)
            asset = move.asset
            taker = self.by_name[winner]
            taker.assets.append(asset)
            self.holder[asset] = winner
            offer = move.main if won_by == "main" else standing.offer
            record = DealRecord(len(self.deals) + 1, SLOTS[self.slot][1], move, s_main,
                                None if standing is None else s_counter, won_by, winner, tie)
            self.deals.append(record)
            result._deal, result._told = record, (_deal_told,)  # its entry and events written when read
            revealed = {"asset": asset, "from": None, "to": winner}
            if transfers:  # after the assets the transfers gave
                result.assets.append(revealed)
            else:
                result.assets = [revealed]
            if offer.emergency is not None:  # D8: a winning emergency card is spent
                taker.emergency = "facedown"
                result.emergency = {offer.emergency: "facedown"}
            left = self.assets_left = self.assets_left - 1
            self.deals_in_round += 1
            players = self.players
            before = players[self.first].name  # the token holder (first_player)
            self.first = (active.seat + 1) % len(players)  # D21
            result.first_player = {"before": before, "after": players[self.first].name}
            result.assets_left = {"before": left + 1, "after": left}
        return run, shown

    def _preview(self, move, upto, active, counters, last_counter, last_support, support, outcome):
        """The ``DealPreview`` of a deal checked up to step ``upto`` (``_plan_deal``'s findings)."""
        order = self.clockwise_from_left(active.name)
        out = DealPreview(stage=DEAL_STAGES[upto], active=active.name, asset=move.asset, order=order,
                          may_counter=list(order), supporters=list(order), may_support=list(order),
                          emergency_faceup={p.name: p.corp for p in self.players if p.emergency == "faceup"})
        if upto >= 1:
            out.main = {"player": active.name, "offer": move.main.public()}
        if upto >= 2:
            standing = counters[-1] if counters else None
            out.may_counter = order[last_counter:]
            out.covered = [{"player": c.player, "offer": c.offer.public()} for c in counters[:-1]]
            if standing is not None:
                out.counter = {"player": standing.player, "offer": standing.offer.public()}
            out.supporters = [name for name in order if standing is None or name != standing.player]
            out.may_support = list(out.supporters)
        if upto >= 3:
            out.may_support = [name for name in out.supporters if order.index(name) >= last_support]
            out.support = {"main": support[0], "counter": support[1] if counters else None}
            out.computed, out.tie, out.won_by, out.winner = outcome
        return out

    # ----- end of a standard round (§5) ---------------------------------------------------
    def _plan_end_round(self, move):
        kind, label = SLOTS[self.slot]  # ``self.kind``, ``self.label``
        if kind != STANDARD:
            raise _illegal("§3", "not_standard_round", "not a standard round: {label} is a demand round",
                           label=label)
        if self.assets_left > 0:
            raise _illegal("D2", "assets_left", "end_round with assets left: {assets_left} asset card(s) still "
                           "need a deal", assets_left=self.assets_left)
        if self.deals_in_round < 1:
            raise _illegal("D36", "no_deal_made", "end_round with no deal made in {label}: correct assets_left "
                           "with an adjust", label=label)
        production = move.production or {}
        supply = self.supply
        for res, amount in production.items():
            if res not in supply:
                self._check_resource(res)  # refuses
            if amount < 0:
                raise _illegal("§10", "production_negative", "production of {resource} must be at least 0, got "
                               "{amount}", resource=res, amount=amount)
        if move.event is not None:
            codes = self.pack.codes["events"]  # ``pack.accepts``
            if codes is not None and move.event not in codes:
                self._check_code("events", move.event)  # refuses
        added = move.event_threat or 0
        if added < 0:
            raise _illegal("§10", "event_threat_negative", "event_threat must be at least 0, got {amount}",
                           amount=added)
        takeover = self.threat + added >= self.pack.threat_max
        last = self.slot == LAST_STANDARD
        if takeover and move.next_assets is not None:
            raise _illegal("D19", "next_assets_not_allowed", "next_assets present although the event brings "
                           "threat to {threat_max}: the game ends", threat_max=self.pack.threat_max)
        if last and move.next_assets is not None:
            raise _illegal("D36", "next_assets_after_last", "next_assets present after {label}: no standard "
                           "round follows", label=self.label)
        if not takeover and not last:
            if move.next_assets is None:
                raise _illegal("D2", "next_assets_missing", "next_assets missing: the asset cards for {next} are "
                               "needed", next=label_of(self.slot + 2 if self.slot in (2, 5) else self.slot + 1))
            if move.next_assets < 1:
                raise _illegal("§10", "next_assets_below_1", "next_assets must be at least 1, got {next_assets}",
                               next_assets=move.next_assets)

        def run(result):
            for res, amount in production.items():  # production comes before the event (§5, D25)
                if amount:
                    supply[res] += amount
                    result.supply[res] = amount
            if added:
                self._add_threat(added, "event", result)
            result._told = (_end_round_told, self.threat, self.pack.threat_max)
            if self.ended_by is not None:  # ``self.ended``
                return
            self._advance(result)
            before = self.assets_left
            self.assets_left = move.next_assets or 0  # D36: none after S6
            self.deals_in_round = 0
            result.assets_left = {"before": before, "after": self.assets_left}
        return run

    def _add_threat(self, added, reason, result):
        """Raise threat by ``added``, stopping at the maximum, which ends the game (D11, D24)."""
        if not added:
            return
        before = self.threat
        self.threat = min(before + added, self.pack.threat_max)
        capped = before + added > self.pack.threat_max
        result.threat = {"before": before, "after": self.threat, "added": added, "capped": capped, "reason": reason}
        if self.threat >= self.pack.threat_max:
            self._end("threat", result)

    def _end(self, how, result):
        self.ended_by = how
        result.ended_by = how

    def _advance(self, result):
        before = SLOTS[self.slot][1]  # ``self.label``
        self.slot += 1
        result.advanced = {"from": before, "to": SLOTS[self.slot][1]}

    # ----- demand rounds (§6) -------------------------------------------------------------
    def _plan_demand_round(self, move):
        kind, label = SLOTS[self.slot]  # ``self.kind``, ``self.label``
        if kind != DEMAND:
            raise _illegal("§3", "not_demand_round", "not a demand round: {label} is a standard round",
                           label=label)
        investments = move.investments or ()
        by_name, codes = self.by_name, self.pack.codes["investments"]  # ``pack.accepts``
        by_player, cards = {}, set()
        for inv in investments:
            player, card = inv.player, inv.card
            if player not in by_name:
                self._known(player)  # refuses
            if player in by_player:
                raise _illegal("D13", "investment_repeated", "investments repeating a player: {player}",
                               player=player)
            if codes is not None and card not in codes:
                self._check_code("investments", card)  # refuses
            if card in cards:
                raise _illegal("D28", "investment_card_reused", "investments reusing a card: {card}", card=card)
            if inv.capital < 0:
                raise _illegal("D13", "investment_capital_negative", "investment capital must be at least 0: "
                               "{player} {capital}", player=player, capital=inv.capital)
            by_player[player] = inv
            cards.add(card)
        for p in self.players:
            if p.name not in by_player:
                raise _illegal("D13", "investment_missing", "investments missing a player: {player}", player=p.name)
        met, short, added = self.demand_outcome()
        takeover = self.threat + added >= self.pack.threat_max
        last = self.slot == LAST_SLOT
        new_card = None
        if takeover and move.next_demand is not None:
            raise _illegal("D19", "next_demand_not_allowed", "next_demand present although unmet demand brings "
                           "threat to {threat_max}: the game ends", threat_max=self.pack.threat_max)
        if last and move.next_demand is not None:
            raise _illegal("D1", "next_demand_after_last", "next_demand present in {label}: the last demand round "
                           "stops after Pay Demand", label=self.label)
        if not takeover and not last:
            if move.next_demand is None:
                raise _illegal("D20", "next_demand_missing", "next_demand missing: {label} reveals the next "
                               "demand card", label=self.label)
            new_card, problem = resolve_demand(self.pack, move.next_demand)
            if problem is not None:
                code, params = problem
                if code == "unknown_demand":
                    raise _illegal("D20", "unknown_demand", "unknown demand card {code}; the pack's are {allowed}",
                                   **params)
                raise _illegal("§1", "unknown_resource", "unknown resource {resource}; the resources are {allowed}",
                               **params)

        def run(result):
            scored = []
            for p in self.players:  # step 1: score investments
                inv = by_player[p.name]
                p.capital += inv.capital
                p.investments.append((label, inv.card, inv.capital))
                if inv.capital:
                    result.capital[p.name] = inv.capital
                scored.append({"player": p.name, "card": inv.card, "capital": inv.capital})
            keys = self.pack.resource_keys
            entry = {"round": label, "card": self.demand.code, "supply": dict(self.supply),
                     "targets": self.demand.full_targets(keys), "short": short, "met": met, "threat_added": added}
            self.demand_history.append(entry)
            result.demand = dict(entry, supply=dict(entry["supply"]), targets=dict(entry["targets"]),
                                 short=dict(short), investments=scored)
            if added:
                self._add_threat(added, "demand", result)  # step 2
            if self.ended_by is None and last:
                self._end("rounds", result)
            result._told = (_demand_round_told, scored, met, self.demand.code, short, added, new_card, keys,
                            self.threat, self.pack.threat_max)
            if self.ended_by is not None:  # ``self.ended``
                return
            for r in keys:  # step 3: every supply track returns to 0, the next card is revealed
                if self.supply[r]:
                    result.supply[r] = -self.supply[r]
                    self.supply[r] = 0
            self.demand = new_card
            self._advance(result)
            self.deals_in_round = 0
        return run

    # ----- moves any time before the end (§7, §10) ------------------------------------------
    def _plan_capital(self, move):
        p = self.by_name.get(move.player) or self._known(move.player)
        if move.amount == 0:
            raise _illegal("§10", "capital_amount_zero", "a capital move needs an amount other than 0")
        after = p.capital + move.amount
        if after < 0:
            raise _illegal("D10", "capital_negative", "capital {player} would be {capital}", player=p.name,
                           capital=after)

        def run(result):
            p.capital = after
            result.capital[p.name] = move.amount
            result._told = (_capital_told, after)
        return run

    def _plan_threat(self, move):
        if move.amount == 0:
            raise _illegal("§10", "threat_amount_zero", "a threat move needs an amount other than 0")
        after = self.threat + move.amount
        if after < 0:
            raise _illegal("D11", "threat_negative", "threat below 0: {threat} {amount:+d} = {after}",
                           threat=self.threat, amount=move.amount, after=after)

        def run(result):
            if move.amount > 0:
                self._add_threat(move.amount, move.reason, result)
            else:
                result.threat = {"before": self.threat, "after": after, "added": move.amount, "capped": False,
                                 "reason": move.reason}
                self.threat = after
            result._told = (_threat_move_told, self.threat, self.pack.threat_max)
        return run

    def _plan_supply(self, move):
        changes = move.changes or {}
        if not any(changes.values()):
            raise _illegal("D31", "supply_nothing", "a supply move must change at least one resource")
        for res, delta in changes.items():
            if res not in self.supply:
                self._check_resource(res)  # refuses
            if self.supply[res] + delta < 0:
                raise _illegal("D11", "supply_negative", "supply below 0: {resource} {supply} {delta:+d} = {after}",
                               resource=res, supply=self.supply[res], delta=delta, after=self.supply[res] + delta)

        def run(result):
            for res, delta in changes.items():
                if delta:
                    self.supply[res] += delta
                    result.supply[res] = delta
            result._told = (_supply_told, dict(self.supply))
        return run

    def _plan_transfer(self, move):
        self._check_transfers((move.transfer,), {}, {})

        def run(result):
            self._run_transfer(move.transfer, result)
            result._told = (_transfer_told,)
        return run

    def _plan_adjust(self, move):
        if not (move.reason or "").strip():
            raise _illegal("D37", "adjust_reason", "an adjust needs a reason; it is printed in the protocol")
        delta = move.assets_left or 0
        if self.assets_left + delta < 0:
            raise _illegal("§10", "assets_left_negative", "assets_left would be {after}: {assets_left} {delta:+d}",
                           after=self.assets_left + delta, assets_left=self.assets_left, delta=delta)
        first = self._known(move.first_player) if move.first_player is not None else None
        flips = {}
        for corp, state in (move.emergency or {}).items():
            flips[self._corp_in_play(corp)] = state
        removals = []
        for name, assets in (move.remove_assets or {}).items():
            p = self._known(name)
            for asset in assets:
                if self.holder.get(asset) != p.name or (p, asset) in removals:
                    raise _illegal("D9", "asset_not_held", "asset not held: {player} does not hold {asset}",
                                   player=p.name, asset=asset)
                removals.append((p, asset))

        def run(result):
            result.note("adjust", reason=move.reason)
            if delta:
                before = self.assets_left
                self.assets_left += delta
                result.assets_left = {"before": before, "after": self.assets_left}
                result.note("assets_left", **result.assets_left)
            if first is not None and first.seat != self.first:
                result.first_player = {"before": self.first_player, "after": first.name}
                self.first = first.seat
                result.note("first_player", **result.first_player)
            for p, state in flips.items():
                if p.emergency != state:
                    p.emergency = state
                    result.emergency[p.corp] = state
                    result.note("emergency", player=p.name, corp=p.corp, state=state)
            for p, asset in removals:  # D29: a removed asset may be revealed again
                p.assets.remove(asset)
                del self.holder[asset]
                result.assets.append({"asset": asset, "from": p.name, "to": None})
                result.note("asset_removed", player=p.name, asset=asset)
        return run

    # ----- the end (§8) -----------------------------------------------------------------
    def _plan_finish(self, move):
        if not self.ended:
            raise _illegal("§8", "finish_early", "finish before the end: the game waits for {expects}",
                           expects=self.next()["expects"])
        sealed = self.setup.sealed_rivals()
        rivals = dict(sealed)
        for name, rival in (move.rivals or {}).items():
            p = self._known(name)
            if rival != FEDERALIST and rival not in CORPORATION_KEYS:
                raise _illegal("D34", "unknown_corporation", "unknown corporation {corp}; the corporations are "
                               "{allowed}", corp=rival, allowed=", ".join(CORPORATION_KEYS))
            if rival != FEDERALIST and rival not in self.by_corp:
                raise _illegal("D14", "rival_not_in_play", "rival not in play: {player}'s rival {rival}",
                               player=p.name, rival=rival)
            if name in sealed and sealed[name] != rival:  # the sealed card stays sealed (D22)
                raise _illegal("D22", "rival_contradicts_setup", "rival contradicting setup: {player}'s rival "
                               "{rival} in finish is not the card sealed at setup", player=name, rival=rival)
            rivals[name] = rival
        seen = {}
        for p in self.players:
            if p.name not in rivals:
                raise _illegal("D30", "rival_missing", "finish misses the rival of {player}", player=p.name)
            rival = rivals[p.name]
            if rival in seen:
                hidden = [n for n in (seen[rival], p.name) if n in sealed and n not in (move.rivals or {})]
                if hidden:  # one of the two is a card sealed at setup: whose it is stays sealed (D22)
                    named = p.name if hidden == [seen[rival]] else seen[rival]
                    raise _illegal("D14", "rival_repeated", "rival repeated: {player}'s rival {rival} is sealed "
                                   "at setup for another player", player=named, rival=rival)
                raise _illegal("D14", "rival_repeated", "rival repeated: {rival} for {other} and {player}",
                               rival=rival, other=seen[rival], player=p.name)
            seen[rival] = p.name
        table = [(p.name, p.corp, p.capital) for p in self.players]
        results = decide(self.ended_by, table, rivals, self.pack.k(len(self.players)),
                         self.pack.federalist_capital)

        def run(result):
            self.rivals = {p.name: rivals[p.name] for p in self.players}
            self.results = results
            self.finished = True
            for name, rival in self.rivals.items():
                result.note("rival_revealed", player=name, rival=rival, rival_player=rival_player(name, rival, table))
            result.outcome = {"ended_by": self.ended_by, "rivals": dict(self.rivals), "results": dict(results),
                              "winners": self.winners(), "losers": self.losers()}
            result.note("game_over", ended_by=self.ended_by, winners=self.winners(), losers=self.losers())
        return run

    def winners(self):
        """Names of the players who won, in seating order; empty until finish."""
        return [p.name for p in self.players if self.results and self.results[p.name]]

    def losers(self):
        return [p.name for p in self.players if self.results and not self.results[p.name]]

    def rival_player(self, name):
        """After finish: the player of ``name``'s rival corporation (himself for his own card,
        None for the Federalist); None before finish (D22)."""
        if self.rivals is None:
            return None
        return rival_player(name, self.rivals[name], [(p.name, p.corp, p.capital) for p in self.players])


def compute_deal(game, deal, stage="winner"):
    """The live result of a deal being entered: ``game.preview_deal`` for a ``Move`` or for the
    deal's JSON object, which may stop at any step (``main``, ``counteroffers`` and ``support``
    may be missing before their stage)."""
    if isinstance(deal, dict):
        deal = read_move(dict(deal, type="deal"), "move", partial=True)
    return game.preview_deal(deal, stage)


__all__ = ["DEAL_STAGES", "DealPreview", "Game", "MoveResult", "PlayerState", "compute_deal"]
