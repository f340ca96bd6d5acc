"""Table setup (RULES.md 2; RECORD.md 2 ``players`` and ``first``).

``read_setup`` reads the record's setup keys and refuses what is wrong in them alone;
``check_setup`` adds what needs the pack (the actives exist, 2 to ⌊actives / 3⌋ players).
Every refusal is a ``SetupError`` naming the field.
"""

from dataclasses import dataclass, field
from datetime import date

from ..bounds import LINE, MAX_NAME, check_text
from ..errors import MalformedError, SetupError

MIN_PLAYERS = 2
ACTIVES_EACH = 3
_PLAYER_FIELDS = ("name", "born", "actives")


@dataclass(frozen=True)
class PlayerSetup:
    """One seat: the player's unique ``name``, optional ``born`` (ISO date, only used to propose
    the first player) and the 3 actives dealt to them. Unknown keys are kept in ``extra``."""

    name: str
    actives: tuple
    born: str | None = None
    extra: dict = field(default_factory=dict, compare=False)

    def to_dict(self):
        out = {"name": self.name}
        if self.born is not None:
            out["born"] = self.born
        out["actives"] = list(self.actives)
        out.update(self.extra)
        return out


@dataclass(frozen=True)
class Setup:
    """The players in clockwise seating order and the first player's name."""

    players: tuple
    first: str

    @property
    def names(self):
        return tuple(p.name for p in self.players)

    def turn_order(self):
        """Player names in turn order: seating order from ``first``, clockwise (RULES.md 2.3)."""
        names = self.names
        i = names.index(self.first)
        return names[i:] + names[:i]

    def to_dict(self):
        return {"players": [p.to_dict() for p in self.players], "first": self.first}


def _read_player(data, path):
    if not isinstance(data, dict):
        raise SetupError(path, "player_not_object", "a player is an object with name, born and actives")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise SetupError(f"{path}.name", "name_missing", "a player needs a non-empty name")
    try:  # bounded as a move names a player
        check_text(name, f"{path}.name", MAX_NAME, LINE)
    except MalformedError:
        raise SetupError(f"{path}.name", "name_invalid", "a player's name is one line of at most {limit} characters",
                         limit=MAX_NAME) from None
    born = data.get("born")
    if born is not None:
        if not isinstance(born, str):
            raise SetupError(f"{path}.born", "born_invalid", "born must be a date as YYYY-MM-DD, got {born!r}",
                             born=born)
        try:
            date.fromisoformat(born)
        except ValueError:
            raise SetupError(f"{path}.born", "born_invalid", "born must be a date as YYYY-MM-DD, got {born!r}",
                             born=born) from None
    actives = data.get("actives")
    if not isinstance(actives, list) or not all(isinstance(a, str) for a in actives):
        raise SetupError(f"{path}.actives", "actives_not_list", "actives must be a list of active keys")
    if len(actives) != ACTIVES_EACH:
        raise SetupError(f"{path}.actives", "actives_count", "each player is dealt exactly {need} actives, got {got}",
                         need=ACTIVES_EACH, got=len(actives))
    extra = {k: v for k, v in data.items() if k not in _PLAYER_FIELDS}
    if "born" in data and born is None:
        extra["born"] = None  # an explicit null is written back as it came
    return PlayerSetup(name=name, actives=tuple(actives), born=born, extra=extra)


def read_setup(data, path="", pack=None):
    """A ``Setup`` from ``{"players": [...], "first": name}`` (the record's top-level keys).

    Raises ``SetupError`` naming the field. With ``pack``, also checks what needs the pack
    (``check_setup``)."""
    prefix = f"{path}." if path else ""
    if not isinstance(data, dict):
        raise SetupError(path, "setup_not_object", "the setup is an object with players and first")
    raw = data.get("players")
    if not isinstance(raw, list):
        raise SetupError(f"{prefix}players", "players_not_list", "players must be a list of players")
    players = tuple(_read_player(p, f"{prefix}players[{i}]") for i, p in enumerate(raw))
    first = data.get("first")
    if not isinstance(first, str):
        raise SetupError(f"{prefix}first", "first_missing", "first must name the first player")
    setup = Setup(players=players, first=first)
    _check_table(setup, prefix)
    if pack is not None:
        check_setup(pack, setup, path)
    return setup


def _check_table(setup, prefix):
    """What RULES.md 2 asks of the table without the pack: 2+ players, unique names and
    actives, and a first player who sits at the table."""
    if len(setup.players) < MIN_PLAYERS:
        raise SetupError(f"{prefix}players", "player_count", "a table has at least {low} players, got {count}",
                         low=MIN_PLAYERS, count=len(setup.players))
    names, dealt = {}, {}
    for i, p in enumerate(setup.players):
        if p.name in names:
            raise SetupError(f"{prefix}players[{i}].name", "duplicate_name",
                             "name {name!r} is already used by player {other}; names must differ",
                             name=p.name, other=names[p.name] + 1)
        names[p.name] = i
        for j, key in enumerate(p.actives):
            if key in dealt:
                raise SetupError(f"{prefix}players[{i}].actives[{j}]", "active_taken",
                                 "active {active} is already dealt to {other}; actives are distinct across the table",
                                 active=key, other=dealt[key])
            dealt[key] = p.name
    if setup.first not in names:
        raise SetupError(f"{prefix}first", "first_unknown", "first player {first!r} is not at the table ({players})",
                         first=setup.first, players=", ".join(names))


def check_setup(pack, setup, path=""):
    """Raise ``SetupError`` if the setup does not fit the pack (RULES.md 2.1, 2.3)."""
    prefix = f"{path}." if path else ""
    _check_table(setup, prefix)
    high = pack.max_players
    if len(setup.players) > high:
        raise SetupError(f"{prefix}players", "player_count_pack",
                         "this pack's {actives} actives seat {low} to {high} players, got {count}",
                         actives=len(pack.actives), low=MIN_PLAYERS, high=high, count=len(setup.players))
    for i, p in enumerate(setup.players):
        for j, key in enumerate(p.actives):
            if key not in pack.actives_by_key:
                raise SetupError(f"{prefix}players[{i}].actives[{j}]", "active_unknown",
                                 "unknown active {active!r}; the pack has {allowed}",
                                 active=key, allowed=", ".join(pack.actives_by_key))


def propose_first(pack, players):
    """The first player the app proposes (RULES.md 2.3, decision 2): the oldest, i.e. the
    earliest ``born``; a tie goes to the earlier seat; players without ``born`` come last
    (the first seat if nobody gave one). The host may enter another (Kalle or Tommi, the
    game's authors, start when they play)."""
    del pack  # the proposal needs no card; the parameter keeps the registry's signature
    return _proposed(_seats(players)).name


def first_player_reason(players):
    """Why ``propose_first`` proposes its player, as ``(code, params)`` for the screens to say:
    ``("oldest", {"player", "born"})`` when a birth date decided, ``("first_seat", {"player"})``
    when nobody gave one."""
    seat = _proposed(_seats(players))
    if seat.born is not None:
        return "oldest", {"player": seat.name, "born": seat.born}
    return "first_seat", {"player": seat.name}


def _seats(players):
    players = list(players.players if isinstance(players, Setup) else players)
    players = [_read_player(p, f"players[{i}]") if isinstance(p, dict) else p for i, p in enumerate(players)]
    if not players:
        raise SetupError("players", "player_count", "a table has at least {low} players, got {count}",
                         low=MIN_PLAYERS, count=0)
    return players


def _proposed(players):
    def key(i):
        born = players[i].born
        return (born is None, date.fromisoformat(born) if born else date.max, i)

    return players[min(range(len(players)), key=key)]
