"""Moves as a `newangeles-record/1` carries them (RULES.md §10, RECORD.md §3), read and written
exactly.

``read_move`` checks the shape of a move (types, required fields, the fixed choices such as a
support's ``offer`` or a ``capital`` move's ``reason``) and raises ``MalformedError`` naming the
field. Everything that depends on the game (who is active, who holds what, whether a number
keeps a track in range) is the engine's to refuse (``Game.check``).

A move holds only its type's fields and the optional ``at`` and ``note``, each bounded (names,
texts, lists, maps and numbers). A key it does not know, on the move or on an object inside it,
is refused in a move sent by a tablet, a form or the API (``strict``) and ignored, not kept, in
a record file's move (RECORD.md: readers ignore unknown keys; whatever is kept is stored). A
``null`` given for an optional field is kept, so a valid move reads back as it came:
``read_move(m).to_dict() == m``.
"""

import marshal
from dataclasses import dataclass, field

from ..errors import MalformedError
from ..bounds import LINE, LINES, MAX_CODE, MAX_NAME, MAX_NOTE, MAX_TITLE, KeySet, check_text, only_known, shown
from .fields import (MAX_NUMBER, optional, read_choice, read_int, read_int_map, read_list, read_object, read_text,
                     require)
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
#: every key a move of the type may hold
ALLOWED = {kind: KeySet(("type",) + keys + ("at", "note")) for kind, keys in MOVE_FIELDS.items()}
_OFFER_KEYS = KeySet(("card", "emergency"))
_COUNTER_KEYS = KeySet(("player", "card", "emergency"))
_SUPPORT_KEYS = KeySet(("player", "offer", "cards"))
#: a deal's transfer may carry a ``note`` of its own (RECORD.md §5's example)
_TRANSFER_KEYS = KeySet(("from", "to", "capital", "assets", "note"))
_INVESTMENT_KEYS = KeySet(("player", "card", "capital"))
_DEMAND_KEYS = KeySet(("code", "threat", "targets"))
#: the same keys as plain sets, for the fast reader (``issuperset`` of a ``KeySet`` takes longer)
_OFFER_SET, _TRANSFER_SET = frozenset(_OFFER_KEYS), frozenset(_TRANSFER_KEYS)

# ----- bounds: what a table of 4 to 6 players can reach ------------------------------------------
#: names of players (the setup's names are held to the same); the other one-line texts (cards,
#: assets, corporations, events) and the reasons
NAME, TEXT, REASON = MAX_NAME, MAX_TITLE, MAX_NOTE
#: the most entries of a move's list or map: offers, supports, transfers, investments, a
#: player's assets, a map by player or resource (a game has 6 players, 8 corporations and a
#: few dozen asset cards)
MAX_ENTRIES = 100


def _nulls(data):
    """Known optional keys given as ``null``: written back unchanged."""
    if None not in data.values():  # the usual case, checked fast
        return {}
    return {k: v for k, v in data.items() if v is None}


def _name(value, path):
    return read_text(value, path, NAME)


def _text(value, path):
    return read_text(value, path, TEXT)


def _number(value, path, minimum=None):
    return read_int(value, path, minimum, MAX_NUMBER)


def _note(value, path, limit=MAX_NOTE, keep=LINES):
    """A move's ``note`` (or ``at``): any text within its bounds, even empty."""
    if not isinstance(value, str):
        raise MalformedError(path, "must be a text")
    return check_text(value, path, limit, keep)


def _entries(value, path):
    return read_list(value, path, MAX_ENTRIES)


def _numbers(value, path, minimum=None):
    return read_int_map(value, path, minimum, limit=MAX_ENTRIES, key_limit=TEXT, maximum=MAX_NUMBER)


def _map(value, path):
    """A map by player or corporation: at most ``MAX_ENTRIES`` keys, each a one-line text."""
    read_object(value, path)
    if len(value) > MAX_ENTRIES:
        raise MalformedError(path, "must list at most {limit} items, got {count}", limit=MAX_ENTRIES,
                             count=len(value))
    for key in value:
        check_text(key, f"{path}.{key[:40]}", TEXT)
    return value


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
        return Offer(card=_text(data["card"], f"{path}.card"))
    return Offer(emergency=_text(data["emergency"], f"{path}.emergency"))


def _card_offer(data):
    """The usual offer, ``{"card": text}``, read fast; None for anything else (read the slow way,
    which builds the paths a refusal names)."""
    card = data.get("card")
    if type(card) is str and card.strip() and len(card) <= TEXT and card.isprintable() \
            and data.get("emergency") is None:
        return Offer(card=card)
    return None


def read_offer(data, path, strict=True):
    data = only_known(read_object(data, path), _OFFER_KEYS, path, strict)
    offer = _read_offer_keys(data, path)
    return Offer(offer.card, offer.emergency, _nulls(data))


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


def read_transfer(data, path, known=_TRANSFER_KEYS, strict=True):
    """A transfer: a deal's ``transfers`` item, or a ``transfer`` move itself (``known`` then the
    move's keys; the ``null``s it was given are kept with the transfer, written back as they came)."""
    data = only_known(read_object(data, path), known, path, strict)
    giver = _name(require(data, "from", path), f"{path}.from")
    receiver = _name(require(data, "to", path), f"{path}.to")
    capital = optional(data, "capital")
    if capital is not None:
        _number(capital, f"{path}.capital")
    assets = optional(data, "assets")
    if assets is not None:
        assets = tuple(_text(a, f"{path}.assets[{i}]") for i, a in enumerate(_entries(assets, f"{path}.assets")))
    kept = _nulls(data)
    if known is _TRANSFER_KEYS and data.get("note") is not None:  # a deal's transfer's own note
        kept["note"] = _note(data["note"], f"{path}.note")
    return Transfer(giver, receiver, capital, assets, kept)


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


def _read_deal(data, path, args, partial, strict):
    args["active"] = _name(require(data, "active", path), f"{path}.active")
    args["asset"] = _text(require(data, "asset", path), f"{path}.asset")
    if not partial or data.get("main") is not None:
        args["main"] = read_offer(require(data, "main", path), f"{path}.main", strict)
    counters = data.get("counteroffers", []) if partial else require(data, "counteroffers", path)
    out = []
    for i, c in enumerate(_entries(counters, f"{path}.counteroffers")):
        player = c.get("player") if type(c) is dict else None
        if not (type(player) is str and player.strip() and len(player) <= NAME and player.isprintable()):
            where = f"{path}.counteroffers[{i}]"  # the paths are built only for a refusal
            read_object(c, where)
            player = _name(require(c, "player", where), f"{where}.player")
        c = only_known(c, _COUNTER_KEYS, f"{path}.counteroffers[{i}]", strict)
        offer = _card_offer(c) or _read_offer_keys(c, f"{path}.counteroffers[{i}]")
        out.append(Counteroffer(player, offer, _nulls(c)))
    args["counteroffers"] = tuple(out)
    supports = data.get("support", []) if partial else require(data, "support", path)
    out = []
    for i, s in enumerate(_entries(supports, f"{path}.support")):
        if type(s) is dict and type(s.get("player")) is str and s["player"].strip() and len(s["player"]) <= NAME \
                and s["player"].isprintable() and s.get("offer") in OFFERS and type(s.get("cards")) is int \
                and -MAX_NUMBER <= s["cards"] <= MAX_NUMBER:  # the usual case, checked fast
            player, offer, cards = s["player"], s["offer"], s["cards"]
        else:
            where = f"{path}.support[{i}]"
            read_object(s, where)
            player = _name(require(s, "player", where), f"{where}.player")
            offer = read_choice(require(s, "offer", where), f"{where}.offer", OFFERS)
            cards = _number(require(s, "cards", where), f"{where}.cards")
        s = only_known(s, _SUPPORT_KEYS, f"{path}.support[{i}]", strict)
        out.append(Support(player, offer, cards, _nulls(s)))
    args["support"] = tuple(out)
    extra = optional(data, "extra")
    if extra is not None:
        extra = _numbers(extra, f"{path}.extra")
        for key in extra:
            read_choice(key, f"{path}.extra.{key}", OFFERS)
        args["extra_support"] = extra
    for key in ("extra_reason", "override_reason"):
        if optional(data, key) is not None:
            args[key] = read_text(data[key], f"{path}.{key}", REASON, LINES)
    transfers = optional(data, "transfers")
    if transfers is not None:
        args["transfers"] = tuple(read_transfer(x, f"{path}.transfers[{i}]", strict=strict)
                                  for i, x in enumerate(_entries(transfers, f"{path}.transfers")))
    if optional(data, "winner") is not None:
        args["winner"] = read_choice(data["winner"], f"{path}.winner", OFFERS)


def _read_end_round(data, path, args, strict):
    args["production"] = _numbers(require(data, "production", path), f"{path}.production")
    if optional(data, "event") is not None:
        args["event"] = _text(data["event"], f"{path}.event")
    for key in ("event_threat", "next_assets"):
        if optional(data, key) is not None:
            args[key] = _number(data[key], f"{path}.{key}")


def _read_demand_round(data, path, args, strict):
    out = []
    for i, x in enumerate(_entries(require(data, "investments", path), f"{path}.investments")):
        where = f"{path}.investments[{i}]"
        x = only_known(read_object(x, where), _INVESTMENT_KEYS, where, strict)
        out.append(Investment(_name(require(x, "player", where), f"{where}.player"),
                              _text(require(x, "card", where), f"{where}.card"),
                              _number(require(x, "capital", where), f"{where}.capital"),
                              _nulls(x)))
    args["investments"] = tuple(out)
    if optional(data, "next_demand") is not None:
        args["next_demand"] = _read_demand(data["next_demand"], f"{path}.next_demand", strict)


def _read_demand(value, path, strict):
    """The next demand card: a pack code, or an inline card with bounded fields (``setup``'s
    reader reads its shape)."""
    if isinstance(value, str):
        return _text(value, path)
    value = only_known(read_object(value, path), _DEMAND_KEYS, path, strict)
    _text(require(value, "code", path), f"{path}.code")
    _number(require(value, "threat", path), f"{path}.threat", 0)
    _numbers(value.get("targets", {}), f"{path}.targets", 0)
    return read_demand_card(value, path)


def _read_adjust(data, path, args, strict):
    # D37: an empty reason is a missing one
    args["reason"] = read_text(require(data, "reason", path), f"{path}.reason", REASON, LINES)
    if optional(data, "assets_left") is not None:
        args["assets_left"] = _number(data["assets_left"], f"{path}.assets_left")
    if optional(data, "first_player") is not None:
        args["first_player"] = _name(data["first_player"], f"{path}.first_player")
    if optional(data, "emergency") is not None:
        emergency = _map(data["emergency"], f"{path}.emergency")
        args["emergency"] = {corp: read_choice(state, f"{path}.emergency.{corp}", EMERGENCY_STATES)
                             for corp, state in emergency.items()}
    if optional(data, "remove_assets") is not None:
        removed = _map(data["remove_assets"], f"{path}.remove_assets")
        args["remove_assets"] = {
            player: tuple(_text(a, f"{path}.remove_assets.{player}[{i}]")
                          for i, a in enumerate(_entries(assets, f"{path}.remove_assets.{player}")))
            for player, assets in removed.items()}


# ----- the usual move, read fast ----------------------------------------------------------------
# A record is made of a few shapes of move. ``_usual_move`` reads those with plain checks and
# gives None for anything else, which ``read_move`` then reads the full way (that way also names
# what is wrong). Whatever it takes, the full way takes and reads the same; every check below
# is the full reader's own bound (a printable text holds no control character).


def _line(value, limit):
    """A non-blank one-line text within ``limit``, as ``read_text`` takes it."""
    return type(value) is str and len(value) <= limit and value.isprintable() and value.strip()


def _printable(value, limit):
    """A one-line text within ``limit``, empty or not, as ``_note`` and ``check_text`` take it."""
    return type(value) is str and len(value) <= limit and value.isprintable()


def _plain_number(value):
    return type(value) is int and -MAX_NUMBER <= value <= MAX_NUMBER


def _plain_numbers(value):
    """A copy of a map ``_numbers`` reads as it is, else None."""
    if type(value) is not dict or len(value) > MAX_ENTRIES:
        return None
    for key, amount in value.items():
        if not (_printable(key, TEXT) and _plain_number(amount)):
            return None
    return dict(value)


def _plain_list(value):
    return type(value) is list and len(value) <= MAX_ENTRIES


def _made(cls, fields):
    """A frozen dataclass of these fields (all of them given), made as its ``__init__`` makes it
    but without its per-field ``object.__setattr__``: a deal makes several."""
    made = object.__new__(cls)
    made.__dict__.update(fields)
    return made


# A record names the same few offers, supports and investments again and again (six players,
# a few cards, support of 1 to 3 cards). Each is immutable, so one object serves every move that
# names it: one read in its plainest shape (its own keys only, none of them null) is kept by its
# values, and a later one of the same values, checked to be of the same types, is that object
# (the checks its values passed are the same). Each map is emptied when it is full.
_OFFERS, _COUNTERS, _SUPPORTS, _INVESTMENTS = {}, {}, {}, {}
#: the most values each map keeps
KNOWN_LIMIT = 4096


def forget_known():
    """Empty the maps of values read before (a benchmark times a first read with them empty)."""
    for values in (_OFFERS, _COUNTERS, _SUPPORTS, _INVESTMENTS, _MOVES, _RECORDS):
        values.clear()


def _known(values, key, made):
    """Keep ``made`` in ``values`` by ``key``; give it back."""
    if len(values) >= KNOWN_LIMIT:
        values.clear()
    values[key] = made
    return made


def _plain_offer(data, nulls=True):
    """The offer of a card or of an emergency card as ``_read_offer_keys`` reads it, else None;
    ``nulls``: with the nulls ``data`` was given (``read_offer``'s; a counteroffer keeps its own).
    (``_line``, ``_nulls`` and ``_made`` spelled out: a deal has several offers.)"""
    card, emergency = data.get("card"), data.get("emergency")
    text = card if emergency is None else emergency if card is None else None
    if type(text) is not str:
        return None
    plain = nulls and len(data) == 1  # {"card": text} or {"emergency": text}
    if plain:
        offer = _OFFERS.get((card, emergency))
        if offer is not None:
            return offer
    if len(text) > TEXT or not text.isprintable() or not text.strip():
        return None
    offer = object.__new__(Offer)
    offer.__dict__.update(card=card, emergency=emergency,
                          extra=_nulls(data) if nulls and None in data.values() else {})
    return _known(_OFFERS, (card, emergency), offer) if plain else offer


def _counteroffer(c):
    """A deal's counteroffer as ``_read_deal`` reads it, else None."""
    player = c.get("player") if type(c) is dict else None
    if type(player) is not str:
        return None
    plain = len(c) == 2  # the player and a card or an emergency card
    if plain:
        card, emergency = c.get("card"), c.get("emergency")
        made = _COUNTERS.get((player, card, emergency)) if type(card or emergency) is str else None
        if made is not None:
            return made
    if not c.keys() <= _COUNTER_KEYS or len(player) > NAME or not player.isprintable() or not player.strip():
        return None
    offer = _plain_offer(c, nulls=False)
    if offer is None:
        return None
    made = object.__new__(Counteroffer)
    made.__dict__.update(player=player, offer=offer, extra={} if None not in c.values() else _nulls(c))
    return _known(_COUNTERS, (player, offer.card, offer.emergency), made) if plain and not made.extra else made


def _support(s):
    """A deal's support as ``_read_deal`` reads it, else None."""
    if type(s) is not dict or len(s) != 3:  # player, offer and cards, none of them null
        return None
    player, offer, cards = s.get("player"), s.get("offer"), s.get("cards")
    if type(player) is not str or type(offer) is not str or type(cards) is not int:
        return None
    made = _SUPPORTS.get((player, offer, cards))
    if made is not None:
        return made
    if not s.keys() <= _SUPPORT_KEYS or len(player) > NAME or not player.isprintable() or not player.strip() \
            or offer not in OFFERS or not -MAX_NUMBER <= cards <= MAX_NUMBER:
        return None
    made = object.__new__(Support)
    made.__dict__.update(player=player, offer=offer, cards=cards, extra={})
    return _known(_SUPPORTS, (player, offer, cards), made)


def _investment(x):
    """A demand round's investment as ``_read_demand_round`` reads it, else None."""
    if type(x) is not dict or len(x) != 3:  # player, card and capital, none of them null
        return None
    player, card, capital = x.get("player"), x.get("card"), x.get("capital")
    if type(player) is not str or type(card) is not str or type(capital) is not int:
        return None
    made = _INVESTMENTS.get((player, card, capital))
    if made is not None:
        return made
    if not x.keys() <= _INVESTMENT_KEYS or not _line(player, NAME) or not _line(card, TEXT) \
            or not _plain_number(capital):
        return None
    return _known(_INVESTMENTS, (player, card, capital),
                  _made(Investment, {"player": player, "card": card, "capital": capital, "extra": {}}))


def _plain_map(value):
    """A map by player or corporation as ``_map`` takes it (its keys one-line texts)."""
    return type(value) is dict and len(value) <= MAX_ENTRIES and all(_printable(k, TEXT) for k in value)


def _plain_texts(value):
    """A list of asset cards as ``read_transfer`` and ``_read_adjust`` read it, as a tuple; else None."""
    if not _plain_list(value) or not all(_line(a, TEXT) for a in value):
        return None
    return tuple(value)


def _usual_transfer(x, known=_TRANSFER_SET):
    """A deal's transfer (or, ``known`` the move's keys, a ``transfer`` move's) as
    ``read_transfer`` reads it, else None. (``_line``, ``_plain_texts``, ``_nulls`` and ``_made``
    spelled out: a record holds a transfer every few moves.)"""
    if type(x) is not dict or not known.issuperset(x):
        return None
    giver, receiver, capital, assets = x.get("from"), x.get("to"), x.get("capital"), x.get("assets")
    if type(giver) is not str or len(giver) > NAME or not giver.isprintable() or not giver.strip() \
            or type(receiver) is not str or len(receiver) > NAME or not receiver.isprintable() \
            or not receiver.strip():
        return None
    if capital is not None and (type(capital) is not int or not -MAX_NUMBER <= capital <= MAX_NUMBER):
        return None
    if assets is not None:
        if type(assets) is not list or len(assets) > MAX_ENTRIES:
            return None
        for a in assets:
            if type(a) is not str or len(a) > TEXT or not a.isprintable() or not a.strip():
                return None
        assets = tuple(assets)
    kept = {} if None not in x.values() else {k: v for k, v in x.items() if v is None}
    if known is _TRANSFER_SET:
        note = x.get("note")
        if note is not None:  # a deal's transfer's own note
            if type(note) is not str or len(note) > MAX_NOTE or not note.isprintable():
                return None
            kept["note"] = note
    made = object.__new__(Transfer)
    made.__dict__.update(giver=giver, receiver=receiver, capital=capital, assets=assets, extra=kept)
    return made


def _usual_deal(data, args):
    """A whole deal read into ``args``; False when any of it is not that plain.

    (The offers, counteroffers and supports read before are looked up here, ``_plain_offer``,
    ``_counteroffer`` and ``_support`` asked only for one not read before; ``_line`` spelled out.
    The keys are known to be a deal's own, so once its five required keys are read, the count of
    the keys says whether any optional one is there.)"""
    active, asset, main = data.get("active"), data.get("asset"), data.get("main")
    if type(active) is not str or len(active) > NAME or not active.isprintable() or not active.strip() \
            or type(asset) is not str or len(asset) > TEXT or not asset.isprintable() or not asset.strip() \
            or type(main) is not dict or not _OFFER_SET.issuperset(main):
        return False
    offer = None
    if len(main) == 1:  # {"card": text} or {"emergency": text}, as ``_plain_offer`` looks it up
        card, emergency = main.get("card"), main.get("emergency")
        if type(card if emergency is None else emergency if card is None else None) is str:
            offer = _OFFERS.get((card, emergency))
    if offer is None:
        offer = _plain_offer(main)
        if offer is None:
            return False
    args["active"], args["asset"], args["main"] = active, asset, offer
    counters, supports = data.get("counteroffers"), data.get("support")
    if type(counters) is not list or type(supports) is not list or len(counters) > MAX_ENTRIES \
            or len(supports) > MAX_ENTRIES:  # _plain_list spelled out
        return False
    out = []
    for c in counters:
        made = None
        if type(c) is dict and len(c) == 2:  # the player and a card or an emergency card
            player, card, emergency = c.get("player"), c.get("card"), c.get("emergency")
            if type(player) is str and type(card or emergency) is str:
                made = _COUNTERS.get((player, card, emergency))
        if made is None:
            made = _counteroffer(c)
            if made is None:
                return False
        out.append(made)
    args["counteroffers"] = tuple(out)
    out = []
    for s in supports:
        made = None
        if type(s) is dict and len(s) == 3:  # player, offer and cards, none of them null
            player, offer, cards = s.get("player"), s.get("offer"), s.get("cards")
            if type(player) is str and type(offer) is str and type(cards) is int:
                made = _SUPPORTS.get((player, offer, cards))
        if made is None:
            made = _support(s)
            if made is None:
                return False
        out.append(made)
    args["support"] = tuple(out)
    if len(data) == 6:  # type and the five required keys: nothing optional
        return True
    extra = data.get("extra")
    if extra is not None:
        extra = _plain_numbers(extra)
        if extra is None or not all(type(k) is str and k in OFFERS for k in extra):
            return False
        args["extra_support"] = extra
    for key in ("extra_reason", "override_reason"):
        if data.get(key) is not None:
            if not _line(data[key], REASON):
                return False
            args[key] = data[key]
    transfers = data.get("transfers")
    if transfers is not None:
        if type(transfers) is not list or len(transfers) > MAX_ENTRIES:  # _plain_list spelled out
            return False
        out = []
        for x in transfers:
            made = _usual_transfer(x)
            if made is None:
                return False
            out.append(made)
        args["transfers"] = tuple(out)
    winner = data.get("winner")
    if winner is not None:
        if type(winner) is not str or winner not in OFFERS:
            return False
        args["winner"] = winner
    return True


# A table's moves are read again and again: every screen of the table replays its log, every
# export and report its record. A usual move read before is found by the ``marshal`` bytes of its
# JSON object: the same bytes are the same object, value for value, type for type and key for key
# in order (``marshal.loads`` gives it back from them), and a ``Move`` never changes, so the move
# read then is the move. The bytes of one object may differ from one reading to the next (a text
# held elsewhere too is written once and referred to after), so one move may be kept twice, never
# mistaken for another. The map is emptied when full, as the maps of values above are.
_MOVES = {}
#: the most moves kept (a table of six players makes about sixty; a day's event a few thousand)
MOVES_LIMIT = 16384


def _usual_move(data):
    """The ``Move`` of a usual record move, or None (see above): the one read before from the
    same JSON object (``_MOVES``), else read by ``_plain_move``."""
    try:
        key = marshal.dumps(data, 4)
    except ValueError:  # not plain JSON data: read, never kept
        return _plain_move(data)
    move = _MOVES.get(key)
    if move is None:
        move = _plain_move(data)
        if move is not None:
            if len(_MOVES) >= MOVES_LIMIT:
                _MOVES.clear()
            _MOVES[key] = move
    return move


def _plain_move(data):
    """The ``Move`` of a usual record move read with plain checks, or None (see above)."""
    kind = data.get("type")
    if type(kind) is not str:
        return None
    known = _USUAL_KEYS.get(kind)
    if known is None or not known.issuperset(data):
        return None
    args = {"type": kind}
    if kind == "deal":
        if not _usual_deal(data, args):
            return None
        if len(data) == 6:  # no optional key (``_usual_deal``): no ``at``, ``note`` nor null
            args["player"] = args["active"]
            args["extra"] = {}
            move = object.__new__(Move)
            move.__dict__.update(args)
            return move
    elif kind == "end_round":
        production, event = _plain_numbers(data.get("production")), data.get("event")
        if production is None or (event is not None and not _line(event, TEXT)):
            return None
        args["production"] = production
        if event is not None:
            args["event"] = event
        for key in ("event_threat", "next_assets"):
            if data.get(key) is not None:
                if not _plain_number(data[key]):
                    return None
                args[key] = data[key]
    elif kind == "transfer":
        transfer = _usual_transfer(data, known)
        if transfer is None:
            return None
        args["transfer"] = transfer
    elif kind == "demand_round":
        investments, next_demand = data.get("investments"), data.get("next_demand")
        if not _plain_list(investments):
            return None
        if type(next_demand) is dict:  # an inline card: read by its own reader, any refusal named the full way
            try:
                next_demand = _read_demand(next_demand, "next_demand", True)
            except MalformedError:
                return None
        elif next_demand is not None and not _line(next_demand, TEXT):
            return None
        out = tuple(map(_investment, investments))
        if not all(out):
            return None
        args["investments"] = out
        if next_demand is not None:
            args["next_demand"] = next_demand
    elif kind == "finish":
        rivals = data.get("rivals")
        if rivals is not None:
            if not _plain_map(rivals) or not all(_line(r, TEXT) for r in rivals.values()):
                return None
            args["rivals"] = dict(rivals)
    elif kind == "adjust":
        reason, left, first = data.get("reason"), data.get("assets_left"), data.get("first_player")
        emergency, removed = data.get("emergency"), data.get("remove_assets")
        if not _line(reason, REASON) or (left is not None and not _plain_number(left)) \
                or (first is not None and not _line(first, NAME)):
            return None
        args["reason"] = reason
        if left is not None:
            args["assets_left"] = left
        if first is not None:
            args["first_player"] = first
        if emergency is not None:
            if not _plain_map(emergency) or not all(type(v) is str and v in EMERGENCY_STATES
                                                    for v in emergency.values()):
                return None
            args["emergency"] = dict(emergency)
        if removed is not None:
            if not _plain_map(removed):
                return None
            args["remove_assets"] = {player: _plain_texts(assets) for player, assets in removed.items()}
            if None in args["remove_assets"].values():
                return None
    elif kind == "supply":
        changes, reason = _plain_numbers(data.get("changes")), data.get("reason")
        if changes is None or type(reason) is not str or reason not in SUPPLY_REASONS:
            return None
        args["changes"], args["reason"] = changes, reason
    else:  # capital, threat
        amount, reason = data.get("amount"), data.get("reason")
        if not _plain_number(amount) or type(reason) is not str \
                or reason not in (CAPITAL_REASONS if kind == "capital" else THREAT_REASONS):
            return None
        if kind == "capital":
            if not _line(data.get("player"), NAME):
                return None
            args["player"] = data["player"]
        args["amount"], args["reason"] = amount, reason
    at, note = data.get("at"), data.get("note")
    if at is not None:
        if not _printable(at, MAX_CODE):
            return None
        args["at"] = at
    if note is not None:
        if not _printable(note, MAX_NOTE):
            return None
        args["note"] = note
    # a frozen dataclass made without its __init__: a field left at its default (None) reads the
    # class's, and ``player`` is set as ``__post_init__`` sets it
    if kind == "deal":
        args["player"] = args["active"]
    elif kind == "transfer":
        args["player"] = args["transfer"].giver
    args["extra"] = {} if kind == "transfer" or None not in data.values() else _nulls(data)  # a transfer's: its own
    move = object.__new__(Move)
    move.__dict__.update(args)
    return move


def usual_moves(raw):
    """A record's moves (a list) when every one of them is a usual move, read fast; else None
    (``read_record`` then reads them one by one, which names the first that is no move). The
    moves of a record read before are found by the ``marshal`` bytes of its list, as a move is
    (``_MOVES``): a report or an export reads the same records again and again."""
    try:
        key = marshal.dumps(raw, 4)
    except ValueError:  # not plain JSON data: read, never kept
        key = None
    if key is not None:
        known = _RECORDS.get(key)
        if known is not None:
            return list(known)
    out = []
    append = out.append
    for data in raw:  # (``_plain_move``: its bytes would cost a record read once what they can save)
        move = _plain_move(data) if type(data) is dict else None
        if move is None:
            return None
        append(move)
    if key is not None:
        if len(_RECORDS) >= RECORDS_LIMIT:
            _RECORDS.clear()
        _RECORDS[key] = tuple(out)
    return out


#: the moves of the records read before, by the bytes of their lists of moves (``usual_moves``)
_RECORDS = {}
#: the most records kept (an event has a few dozen tables)
RECORDS_LIMIT = 256


#: the keys ``_usual_move`` reads, by move type (a key added to a type's fields is read the full way)
_USUAL = {kind: KeySet(("type",) + keys + ("at", "note")) for kind, keys in (
    ("deal", ("active", "asset", "main", "counteroffers", "support", "extra", "extra_reason", "transfers", "winner",
              "override_reason")),
    ("end_round", ("production", "event", "event_threat", "next_assets")), ("demand_round", ("investments",
                                                                                           "next_demand")),
    ("capital", ("player", "amount", "reason")), ("threat", ("amount", "reason")), ("supply", ("changes", "reason")),
    ("transfer", ("from", "to", "capital", "assets")),
    ("adjust", ("reason", "assets_left", "first_player", "emergency", "remove_assets")), ("finish", ("rivals",)))}
_USUAL_KEYS = {kind: frozenset(keys) for kind, keys in _USUAL.items()}


def read_move(data, path="move", *, partial=False, strict=True):
    """A ``Move`` from its JSON object; raises ``MalformedError`` naming the bad field.

    ``partial=True`` (deals only) reads a deal still being entered: ``main``, ``counteroffers``
    and ``support`` may be missing (see ``Game.preview_deal``). ``strict`` (a move from a
    tablet, a form or the API): a key the move or an object in it does not take is refused;
    else (a record file, a stored log) it is ignored and dropped."""
    if type(data) is dict:
        move = _usual_move(data)  # the usual move, read fast
        if move is not None:
            return move
    read_object(data, path)
    kind = require(data, "type", path)
    if not isinstance(kind, str) or kind not in MOVE_TYPES:
        raise MalformedError(f"{path}.type", "unknown move type {kind!r}; the types are {allowed}",
                             kind=shown(kind), allowed=", ".join(MOVE_TYPES))
    data = only_known(data, ALLOWED[kind], path, strict)
    args = {"type": kind}
    if kind == "deal":
        _read_deal(data, path, args, partial, strict)
    elif kind == "end_round":
        _read_end_round(data, path, args, strict)
    elif kind == "demand_round":
        _read_demand_round(data, path, args, strict)
    elif kind == "capital":
        args["player"] = _name(require(data, "player", path), f"{path}.player")
        args["amount"] = _number(require(data, "amount", path), f"{path}.amount")
        args["reason"] = read_choice(require(data, "reason", path), f"{path}.reason", CAPITAL_REASONS)
    elif kind == "threat":
        args["amount"] = _number(require(data, "amount", path), f"{path}.amount")
        args["reason"] = read_choice(require(data, "reason", path), f"{path}.reason", THREAT_REASONS)
    elif kind == "supply":
        args["changes"] = _numbers(require(data, "changes", path), f"{path}.changes")
        args["reason"] = read_choice(require(data, "reason", path), f"{path}.reason", SUPPLY_REASONS)
    elif kind == "transfer":
        args["transfer"] = read_transfer(data, path, ALLOWED["transfer"], strict)
    elif kind == "adjust":
        _read_adjust(data, path, args, strict)
    elif kind == "finish":
        if optional(data, "rivals") is not None:
            rivals = _map(data["rivals"], f"{path}.rivals")
            args["rivals"] = {p: _text(r, f"{path}.rivals.{p}") for p, r in rivals.items()}
    if optional(data, "at") is not None:
        args["at"] = _note(data["at"], f"{path}.at", MAX_CODE, LINE)
    if optional(data, "note") is not None:
        args["note"] = _note(data["note"], f"{path}.note")
    # the nulls given for optional keys (a transfer's reader kept its own)
    args["extra"] = {} if kind == "transfer" else _nulls(data)
    return Move(**args)


def write_move(move):
    return move.to_dict()
