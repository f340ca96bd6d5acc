"""Moves as a `newangeles-record/1` carries them (RULES.md §10, RECORD.md §3), read and written
exactly.

``read_move`` checks the shape of a move (types, required fields, the fixed choices such as a
support's ``offer`` or a ``capital`` move's ``reason``) and raises ``MalformedError`` naming the
field. Everything that depends on the game (who is active, who holds what, whether a number
keeps a track in range) is the engine's to refuse (``Game.check``).

A move keeps its optional ``at`` and ``note``, and every key it does not know (a ``null`` given
for an optional field is kept the same way), so ``read_move(m).to_dict() == m``.
"""

from dataclasses import dataclass, field

from ..errors import MalformedError
from .fields import optional, read_choice, read_int, read_int_map, read_list, read_object, read_text, require
from .setup import read_demand_card

MOVE_TYPES = ("deal", "end_round", "demand_round", "capital", "threat", "supply", "transfer", "adjust", "finish")
#: moves accepted any time before the end (RULES.md §10), so ``next`` does not name them
ANYTIME = ("capital", "threat", "supply", "transfer", "adjust")
OFFERS = ("main", "counter")
CAPITAL_REASONS = ("contract", "action", "asset", "event", "other")
THREAT_REASONS = ("event", "illness", "action", "asset", "other")
SUPPLY_REASONS = ("action", "asset", "event", "other")
EMERGENCY_STATES = ("faceup", "facedown")

#: the keys each move type knows, besides "type", "at" and "note"
MOVE_FIELDS = {
    "deal": ("active", "asset", "main", "counteroffers", "support", "extra", "extra_reason", "transfers",
             "winner", "override_reason"),
    "end_round": ("production", "event", "event_threat", "next_assets"),
    "demand_round": ("investments", "next_demand"),
    "capital": ("player", "amount", "reason"),
    "threat": ("amount", "reason"),
    "supply": ("changes", "reason"),
    "transfer": ("from", "to", "capital", "assets"),
    "adjust": ("reason", "assets_left", "first_player", "emergency", "remove_assets"),
    "finish": ("rivals",),
}
_COMMON = ("type", "at", "note")
_KNOWN = {kind: frozenset(keys + _COMMON) for kind, keys in MOVE_FIELDS.items()}
_OFFER_KEYS = frozenset(("card", "emergency"))
_COUNTER_KEYS = frozenset(("player", "card", "emergency"))
_SUPPORT_KEYS = frozenset(("player", "offer", "cards"))
_INVESTMENT_KEYS = frozenset(("player", "card", "capital"))


def _unknown(data, known):
    """Keys to write back unchanged: unknown ones, and known optional ones given as ``null``."""
    if data.keys() <= known and None not in data.values():  # the usual case, checked fast
        return {}
    return {k: v for k, v in data.items() if k not in known or v is None}


@dataclass(frozen=True)
class Offer:
    """An offer on the table: an action card (any text) or a corporation's emergency card."""

    card: str | None = None
    emergency: str | None = None
    extra: dict = field(default_factory=dict)

    def public(self):
        """``{"card": text}`` or ``{"emergency": corp}``, as the standings print it."""
        return {"card": self.card} if self.card is not None else {"emergency": self.emergency}

    def to_dict(self):
        return {**self.public(), **self.extra}


def _read_offer_keys(data, path):
    has_card, has_emergency = data.get("card") is not None, data.get("emergency") is not None
    if has_card == has_emergency:
        raise MalformedError(path, "an offer is either a card or an emergency card: give exactly one of "
                                   "card and emergency")
    if has_card:
        return Offer(card=read_text(data["card"], f"{path}.card"))
    return Offer(emergency=read_text(data["emergency"], f"{path}.emergency"))


def _card_offer(data):
    """The usual offer, ``{"card": text}``, read fast; None for anything else (read the slow way,
    which builds the paths a refusal names)."""
    card = data.get("card")
    if type(card) is str and card.strip() and data.get("emergency") is None:
        return Offer(card=card)
    return None


def read_offer(data, path):
    read_object(data, path)
    offer = _read_offer_keys(data, path)
    return Offer(offer.card, offer.emergency, _unknown(data, _OFFER_KEYS))


@dataclass(frozen=True)
class Counteroffer:
    player: str
    offer: Offer
    extra: dict = field(default_factory=dict)

    def to_dict(self):
        return {"player": self.player, **self.offer.to_dict(), **self.extra}


@dataclass(frozen=True)
class Support:
    """A supporter's facedown action cards by one offer (D4): 1 support per card."""

    player: str
    offer: str  # "main" or "counter"
    cards: int
    extra: dict = field(default_factory=dict)

    def to_dict(self):
        return {"player": self.player, "offer": self.offer, "cards": self.cards, **self.extra}


@dataclass(frozen=True)
class Transfer:
    """Capital and asset cards given from one player to another (D9). ``capital`` and ``assets``
    are None when the record leaves them out (they default to 0 and [])."""

    giver: str
    receiver: str
    capital: int | None = None
    assets: tuple | None = None
    extra: dict = field(default_factory=dict)

    @property
    def amount(self):
        return self.capital or 0

    @property
    def asset_list(self):
        return self.assets or ()

    def public(self):
        return {"from": self.giver, "to": self.receiver, "capital": self.amount, "assets": list(self.asset_list)}

    def to_dict(self):
        out = {"from": self.giver, "to": self.receiver}
        if self.capital is not None:
            out["capital"] = self.capital
        if self.assets is not None:
            out["assets"] = list(self.assets)
        out.update(self.extra)
        return out


def read_transfer(data, path, known=frozenset(("from", "to", "capital", "assets"))):
    read_object(data, path)
    giver = read_text(require(data, "from", path), f"{path}.from")
    receiver = read_text(require(data, "to", path), f"{path}.to")
    capital = optional(data, "capital")
    if capital is not None:
        read_int(capital, f"{path}.capital")
    assets = optional(data, "assets")
    if assets is not None:
        assets = tuple(read_text(a, f"{path}.assets[{i}]") for i, a in enumerate(read_list(assets, f"{path}.assets")))
    return Transfer(giver, receiver, capital, assets, _unknown(data, known))


@dataclass(frozen=True)
class Investment:
    player: str
    card: str
    capital: int
    extra: dict = field(default_factory=dict)

    def to_dict(self):
        return {"player": self.player, "card": self.card, "capital": self.capital, **self.extra}


@dataclass(frozen=True)
class Move:
    """One move of the record. Only the fields of its ``type`` are set (RULES.md §10).

    ``player`` is who the move is by, for error lines (``deal by Dmitri``): the active player
    of a deal, the player of a ``capital`` move, the giver of a ``transfer``; None otherwise.
    """

    type: str
    player: str | None = None
    # deal
    active: str | None = None
    asset: str | None = None
    main: Offer | None = None
    counteroffers: tuple | None = None
    support: tuple | None = None
    extra_support: dict | None = None  # the deal's "extra": {"main": n, "counter": n} (D27)
    extra_reason: str | None = None
    transfers: tuple | None = None
    winner: str | None = None
    override_reason: str | None = None
    # end_round
    production: dict | None = None
    event: str | None = None
    event_threat: int | None = None
    next_assets: int | None = None
    # demand_round
    investments: tuple | None = None
    next_demand: object = None  # a pack code or an inline DemandCard
    # capital, threat, supply
    amount: int | None = None
    reason: str | None = None
    changes: dict | None = None
    # transfer
    transfer: Transfer | None = None
    # adjust
    assets_left: int | None = None
    first_player: str | None = None
    emergency: dict | None = None
    remove_assets: dict | None = None
    # finish
    rivals: dict | None = None
    at: str | None = None
    note: str | None = None
    extra: dict = field(default_factory=dict)  # unknown keys, kept as they came

    def __post_init__(self):
        if self.player is None:
            if self.type == "deal":
                object.__setattr__(self, "player", self.active)
            elif self.type == "transfer" and self.transfer is not None:
                object.__setattr__(self, "player", self.transfer.giver)

    def describe(self):
        """``deal by Dmitri`` or ``end_round``: how error lines name a move (D38)."""
        return f"{self.type} by {self.player}" if self.player is not None else self.type

    @property
    def extra_main(self):
        return (self.extra_support or {}).get("main", 0)

    @property
    def extra_counter(self):
        return (self.extra_support or {}).get("counter", 0)

    def to_dict(self):
        out = {"type": self.type}
        put = out.__setitem__
        t = self.type
        if t == "deal":
            put("active", self.active)
            put("asset", self.asset)
            if self.main is not None:
                put("main", self.main.to_dict())
            if self.counteroffers is not None:
                put("counteroffers", [c.to_dict() for c in self.counteroffers])
            if self.support is not None:
                put("support", [s.to_dict() for s in self.support])
            if self.extra_support is not None:
                put("extra", dict(self.extra_support))
            if self.extra_reason is not None:
                put("extra_reason", self.extra_reason)
            if self.transfers is not None:
                put("transfers", [x.to_dict() for x in self.transfers])
            if self.winner is not None:
                put("winner", self.winner)
            if self.override_reason is not None:
                put("override_reason", self.override_reason)
        elif t == "end_round":
            put("production", dict(self.production or {}))
            for key in ("event", "event_threat", "next_assets"):
                if getattr(self, key) is not None:
                    put(key, getattr(self, key))
        elif t == "demand_round":
            put("investments", [i.to_dict() for i in self.investments or ()])
            if self.next_demand is not None:
                nd = self.next_demand
                put("next_demand", nd if isinstance(nd, str) else nd.to_dict())
        elif t == "capital":
            put("player", self.player)
            put("amount", self.amount)
            put("reason", self.reason)
        elif t == "threat":
            put("amount", self.amount)
            put("reason", self.reason)
        elif t == "supply":
            put("changes", dict(self.changes or {}))
            put("reason", self.reason)
        elif t == "transfer":
            out.update(self.transfer.to_dict())
        elif t == "adjust":
            put("reason", self.reason)
            if self.assets_left is not None:
                put("assets_left", self.assets_left)
            if self.first_player is not None:
                put("first_player", self.first_player)
            if self.emergency is not None:
                put("emergency", dict(self.emergency))
            if self.remove_assets is not None:
                put("remove_assets", {p: list(a) for p, a in self.remove_assets.items()})
        elif t == "finish":
            if self.rivals is not None:
                put("rivals", dict(self.rivals))
        if self.at is not None:
            put("at", self.at)
        if self.note is not None:
            put("note", self.note)
        out.update(self.extra)
        return out


def _read_deal(data, path, args, partial):
    args["active"] = read_text(require(data, "active", path), f"{path}.active")
    args["asset"] = read_text(require(data, "asset", path), f"{path}.asset")
    if not partial or data.get("main") is not None:
        args["main"] = read_offer(require(data, "main", path), f"{path}.main")
    counters = data.get("counteroffers", []) if partial else require(data, "counteroffers", path)
    out = []
    for i, c in enumerate(read_list(counters, f"{path}.counteroffers")):
        player = c.get("player") if type(c) is dict else None
        if not (type(player) is str and player.strip()):  # the paths are built only for a refusal
            where = f"{path}.counteroffers[{i}]"
            read_object(c, where)
            player = read_text(require(c, "player", where), f"{where}.player")
        offer = _card_offer(c) or _read_offer_keys(c, f"{path}.counteroffers[{i}]")
        out.append(Counteroffer(player, offer, _unknown(c, _COUNTER_KEYS)))
    args["counteroffers"] = tuple(out)
    supports = data.get("support", []) if partial else require(data, "support", path)
    out = []
    for i, s in enumerate(read_list(supports, f"{path}.support")):
        if type(s) is dict and type(s.get("player")) is str and s["player"].strip() and s.get("offer") in OFFERS \
                and type(s.get("cards")) is int:  # the usual case, checked fast
            player, offer, cards = s["player"], s["offer"], s["cards"]
        else:
            where = f"{path}.support[{i}]"
            read_object(s, where)
            player = read_text(require(s, "player", where), f"{where}.player")
            offer = read_choice(require(s, "offer", where), f"{where}.offer", OFFERS)
            cards = read_int(require(s, "cards", where), f"{where}.cards")
        out.append(Support(player, offer, cards, _unknown(s, _SUPPORT_KEYS)))
    args["support"] = tuple(out)
    extra = optional(data, "extra")
    if extra is not None:
        extra = read_int_map(extra, f"{path}.extra")
        for key in extra:
            read_choice(key, f"{path}.extra.{key}", OFFERS)
        args["extra_support"] = extra
    for key in ("extra_reason", "override_reason"):
        if optional(data, key) is not None:
            args[key] = read_text(data[key], f"{path}.{key}")
    transfers = optional(data, "transfers")
    if transfers is not None:
        args["transfers"] = tuple(read_transfer(x, f"{path}.transfers[{i}]")
                                  for i, x in enumerate(read_list(transfers, f"{path}.transfers")))
    if optional(data, "winner") is not None:
        args["winner"] = read_choice(data["winner"], f"{path}.winner", OFFERS)


def _read_end_round(data, path, args):
    args["production"] = read_int_map(require(data, "production", path), f"{path}.production")
    if optional(data, "event") is not None:
        args["event"] = read_text(data["event"], f"{path}.event")
    for key in ("event_threat", "next_assets"):
        if optional(data, key) is not None:
            args[key] = read_int(data[key], f"{path}.{key}")


def _read_demand_round(data, path, args):
    out = []
    for i, x in enumerate(read_list(require(data, "investments", path), f"{path}.investments")):
        where = f"{path}.investments[{i}]"
        read_object(x, where)
        out.append(Investment(read_text(require(x, "player", where), f"{where}.player"),
                              read_text(require(x, "card", where), f"{where}.card"),
                              read_int(require(x, "capital", where), f"{where}.capital"),
                              _unknown(x, _INVESTMENT_KEYS)))
    args["investments"] = tuple(out)
    if optional(data, "next_demand") is not None:
        args["next_demand"] = read_demand_card(data["next_demand"], f"{path}.next_demand")


def _read_adjust(data, path, args):
    args["reason"] = read_text(require(data, "reason", path), f"{path}.reason")  # D37: an empty one is missing
    if optional(data, "assets_left") is not None:
        args["assets_left"] = read_int(data["assets_left"], f"{path}.assets_left")
    if optional(data, "first_player") is not None:
        args["first_player"] = read_text(data["first_player"], f"{path}.first_player")
    if optional(data, "emergency") is not None:
        emergency = read_object(data["emergency"], f"{path}.emergency")
        args["emergency"] = {corp: read_choice(state, f"{path}.emergency.{corp}", EMERGENCY_STATES)
                             for corp, state in emergency.items()}
    if optional(data, "remove_assets") is not None:
        removed = read_object(data["remove_assets"], f"{path}.remove_assets")
        args["remove_assets"] = {
            player: tuple(read_text(a, f"{path}.remove_assets.{player}[{i}]")
                          for i, a in enumerate(read_list(assets, f"{path}.remove_assets.{player}")))
            for player, assets in removed.items()}


def read_move(data, path="move", *, partial=False):
    """A ``Move`` from its JSON object; raises ``MalformedError`` naming the bad field.

    ``partial=True`` (deals only) reads a deal still being entered: ``main``, ``counteroffers``
    and ``support`` may be missing (see ``Game.preview_deal``)."""
    read_object(data, path)
    kind = require(data, "type", path)
    if kind not in MOVE_TYPES:
        raise MalformedError(f"{path}.type", "unknown move type {kind!r}; the types are {allowed}",
                             kind=kind, allowed=", ".join(MOVE_TYPES))
    args = {"type": kind}
    if kind == "deal":
        _read_deal(data, path, args, partial)
    elif kind == "end_round":
        _read_end_round(data, path, args)
    elif kind == "demand_round":
        _read_demand_round(data, path, args)
    elif kind == "capital":
        args["player"] = read_text(require(data, "player", path), f"{path}.player")
        args["amount"] = read_int(require(data, "amount", path), f"{path}.amount")
        args["reason"] = read_choice(require(data, "reason", path), f"{path}.reason", CAPITAL_REASONS)
    elif kind == "threat":
        args["amount"] = read_int(require(data, "amount", path), f"{path}.amount")
        args["reason"] = read_choice(require(data, "reason", path), f"{path}.reason", THREAT_REASONS)
    elif kind == "supply":
        args["changes"] = read_int_map(require(data, "changes", path), f"{path}.changes")
        args["reason"] = read_choice(require(data, "reason", path), f"{path}.reason", SUPPLY_REASONS)
    elif kind == "transfer":
        args["transfer"] = read_transfer(data, path, _KNOWN["transfer"])
    elif kind == "adjust":
        _read_adjust(data, path, args)
    elif kind == "finish":
        if optional(data, "rivals") is not None:
            rivals = read_object(data["rivals"], f"{path}.rivals")
            args["rivals"] = {p: read_text(r, f"{path}.rivals.{p}") for p, r in rivals.items()}
    for key in ("at", "note"):
        if optional(data, key) is not None:
            if not isinstance(data[key], str):
                raise MalformedError(f"{path}.{key}", "must be a text")
            args[key] = data[key]
    args["extra"] = _unknown(data, _KNOWN[kind])
    if kind == "transfer":  # the transfer's own reader kept the unknown keys
        args["extra"] = {}
    return Move(**args)


def write_move(move):
    return move.to_dict()
