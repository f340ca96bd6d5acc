"""The setup a host enters (RULES.md §2, RECORD.md §3): players in clockwise seating order with
their corporations and starting capital, the first player, threat, the asset cards of S1, the
revealed demand card, optional starting supply and optional sealed rival cards.

``read_setup`` reads the shape of the JSON (``MalformedError`` naming the field); ``check_setup``
holds it against the pack and the rules (``SetupError``, whose line reads ``file: setup: …``,
D38). Each ``SetupError`` carries as ``rule`` the RULES.md reference it breaks.
"""

from dataclasses import dataclass, field

from ..bounds import MAX_NAME
from ..errors import SetupError
from .fields import optional, read_int, read_int_map, read_list, read_object, read_text, require, sub
from .pack import FEDERALIST, DemandCard

_PLAYER_KEYS = ("name", "corp", "capital", "rival")
_SETUP_KEYS = ("players", "first_player", "threat", "assets", "demand", "supply")


@dataclass(frozen=True)
class SetupPlayer:
    name: str
    corp: str
    capital: int
    rival: str | None = None  # sealed until finish (D22)
    extra: dict = field(default_factory=dict)

    def to_dict(self):
        out = {"name": self.name, "corp": self.corp, "capital": self.capital}
        if self.rival is not None:
            out["rival"] = self.rival
        out.update(self.extra)
        return out


@dataclass(frozen=True)
class Setup:
    players: tuple
    first_player: str
    threat: int
    assets: int
    demand: "str | DemandCard"  # a pack code or an inline card (D20)
    supply: dict | None = None  # None when the record leaves it out
    extra: dict = field(default_factory=dict)

    @property
    def names(self):
        return [p.name for p in self.players]

    def sealed_rivals(self):
        """``{player: rival}`` of the rivals entered at setup (hidden until finish, D22)."""
        return {p.name: p.rival for p in self.players if p.rival is not None}

    def to_dict(self):
        """``{"setup": {...}}``: the record's setup key, as it was read."""
        out = {"players": [p.to_dict() for p in self.players], "first_player": self.first_player,
               "threat": self.threat, "assets": self.assets,
               "demand": self.demand if isinstance(self.demand, str) else self.demand.to_dict()}
        if self.supply is not None:
            out["supply"] = dict(self.supply)
        out.update(self.extra)
        return {"setup": out}


def read_demand_card(value, path):
    """A demand card given as a pack code (text) or inline ``{"code", "threat", "targets"}``."""
    if isinstance(value, str):
        return read_text(value, path)
    read_object(value, path)
    code = read_text(require(value, "code", path), f"{path}.code")
    threat = read_int(require(value, "threat", path), f"{path}.threat", 0)
    targets = read_int_map(value.get("targets", {}), f"{path}.targets", 0)
    extra = {k: v for k, v in value.items() if k not in ("code", "threat", "targets")}
    return DemandCard(code, threat, targets, extra)


def _read_player(data, path):
    if type(data) is dict:  # the usual player, read with plain checks (a printable text holds no control character)
        name, corp, capital, rival = data.get("name"), data.get("corp"), data.get("capital"), data.get("rival")
        if type(name) is str and len(name) <= MAX_NAME and name.isprintable() and name.strip() \
                and type(corp) is str and corp.strip() and type(capital) is int \
                and (rival is None or type(rival) is str and rival.strip()):
            if len(data) == 3 or len(data) == 4 and rival is not None:  # its own keys only
                return SetupPlayer(name, corp, capital, rival, {})
    read_object(data, path)
    name = read_text(require(data, "name", path), f"{path}.name", MAX_NAME)  # as a move names a player
    corp = read_text(require(data, "corp", path), f"{path}.corp")
    capital = read_int(require(data, "capital", path), f"{path}.capital")
    rival = optional(data, "rival")
    if rival is not None:
        read_text(rival, f"{path}.rival")
    extra = {k: v for k, v in data.items() if k not in _PLAYER_KEYS or (k == "rival" and v is None)}
    return SetupPlayer(name, corp, capital, rival, extra)


def read_setup(data, path=""):
    """A ``Setup`` from ``{"setup": {...}}`` (the record's setup key); raises ``MalformedError``
    naming the bad field. The rules are checked against the pack by ``check_setup``."""
    read_object(data, path or "setup")
    where = sub(path, "setup")
    raw = read_object(require(data, "setup", path), where)
    players = read_list(require(raw, "players", where), f"{where}.players")
    players = tuple(_read_player(p, f"{where}.players[{i}]") for i, p in enumerate(players))
    first = read_text(require(raw, "first_player", where), f"{where}.first_player", MAX_NAME)
    threat = read_int(require(raw, "threat", where), f"{where}.threat")
    assets = read_int(require(raw, "assets", where), f"{where}.assets")
    demand = read_demand_card(require(raw, "demand", where), f"{where}.demand")
    supply = raw.get("supply")
    if supply is not None:
        supply = read_int_map(supply, f"{where}.supply")
    extra = {k: v for k, v in raw.items() if k not in _SETUP_KEYS or (k == "supply" and v is None)}
    return Setup(players, first, threat, assets, demand, supply, extra)


def _ruled(rule, error):
    """Give a ``SetupError`` the RULES.md reference it breaks (the class defaults to "2")."""
    error.rule = rule
    return error


def resolve_demand(pack, demand):
    """The ``DemandCard`` a setup or ``next_demand`` names: a pack code, or the inline card.
    Returns ``(card, problem)``: ``problem`` is ``(code, params)`` of what is wrong, else None."""
    if isinstance(demand, str):
        card = pack.demand_by_code.get(demand)
        if card is None:
            return None, ("unknown_demand", {"code": demand,
                                             "allowed": ", ".join(pack.demand_by_code) or "(none)"})
        return card, None
    for res in demand.targets:
        if res not in pack.resource_keys:
            return None, ("unknown_resource", {"resource": res, "allowed": ", ".join(pack.resource_keys)})
    return demand, None


def check_setup(pack, setup):
    """Hold a setup against the pack and RULES.md §2; raise ``SetupError`` on the first break.
    Returns the revealed ``DemandCard``."""
    count = len(setup.players)
    if not pack.players_min <= count <= pack.players_max:
        raise _ruled("§2", SetupError("setup", "players_count", "{count} players; the pack allows {min} to {max}",
                                      count=count, min=pack.players_min, max=pack.players_max))
    seen_names, seen_corps, seen_rivals = {}, {}, {}
    corps_in_play = {p.corp for p in setup.players}
    for p in setup.players:
        if p.name in seen_names:
            raise _ruled("§2", SetupError("setup", "name_twice", "player name {name} is used twice", name=p.name))
        seen_names[p.name] = p
        if p.corp not in pack.corporation_keys:
            raise _ruled("D34", SetupError("setup", "unknown_corporation",
                                           "unknown corporation {corp} for {player}; the pack's corporations are "
                                           "{allowed}", corp=p.corp, player=p.name,
                                           allowed=", ".join(pack.corporation_keys)))
        if p.corp in seen_corps:
            raise _ruled("§2", SetupError("setup", "corporation_twice", "corporation {corp} is played by {other} "
                                          "and {player}", corp=p.corp, other=seen_corps[p.corp], player=p.name))
        seen_corps[p.corp] = p.name
        if p.capital < 0:
            raise _ruled("D12", SetupError("setup", "capital_negative", "capital {player} is {capital}, below 0",
                                           player=p.name, capital=p.capital))
        if p.rival is not None:
            if p.rival != FEDERALIST and p.rival not in corps_in_play:
                raise _ruled("D14", SetupError("setup", "rival_not_in_play", "rival not in play: {player}'s rival "
                                               "{rival}", player=p.name, rival=p.rival))
            if p.rival in seen_rivals:  # rivals are sealed (D22): the text names no holder (its fields do)
                raise _ruled("D14", SetupError("setup", "rival_repeated", "rival repeated: {rival} is dealt to two "
                                               "players", rival=p.rival, other=seen_rivals[p.rival], player=p.name))
            seen_rivals[p.rival] = p.name
    if setup.first_player not in seen_names:
        raise _ruled("§2", SetupError("setup", "first_player_unknown", "first player {player} is not at the table",
                                      player=setup.first_player))
    if not 0 <= setup.threat < pack.threat_max:
        raise _ruled("D12", SetupError("setup", "threat_range", "threat {threat} must be 0 to {last}",
                                       threat=setup.threat, last=pack.threat_max - 1))
    if setup.assets < 1:
        raise _ruled("D2", SetupError("setup", "assets_below_1", "asset cards for S1 must be at least 1, got {assets}",
                                      assets=setup.assets))
    card, problem = resolve_demand(pack, setup.demand)
    if problem is not None:
        code, params = problem
        if code == "unknown_demand":
            raise _ruled("D20", SetupError("setup", "unknown_demand", "unknown demand card {code}; the pack's are "
                                           "{allowed}", **params))
        raise _ruled("§1", SetupError("setup", "unknown_resource", "unknown resource {resource} in the demand card; "
                                      "the resources are {allowed}", **params))
    for res, value in (setup.supply or {}).items():
        if res not in pack.resource_keys:
            raise _ruled("§1", SetupError("setup", "unknown_resource", "unknown resource {resource} in supply; the "
                                          "resources are {allowed}", resource=res,
                                          allowed=", ".join(pack.resource_keys)))
        if value < 0:
            raise _ruled("§2", SetupError("setup", "supply_negative", "supply {resource} is {value}, below 0",
                                          resource=res, value=value))
    return card


__all__ = ["Setup", "SetupPlayer", "read_setup", "check_setup", "read_demand_card", "resolve_demand"]
