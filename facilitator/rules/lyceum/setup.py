"""Table setup (RULES.md 2): players, characters, the 5 extra SP, declarations, turn order."""

from dataclasses import dataclass, field
from datetime import date

from ..errors import MalformedError, SetupError
from .fields import MAX_CODE, MAX_NAME, read_object, read_skill_map, read_text, require, shown
from .skills import SKILLS, compact

MIN_PLAYERS, MAX_PLAYERS = 3, 4
EXTRA_SP = 5
DECLARATION_BONUS = {35: 300, 40: 400, 45: 500}
#: RULES.md 2: the player with the most of this skill after the extra SP goes first
TURN_ORDER_SKILL = "energy"


@dataclass(frozen=True)
class PlayerSetup:
    name: str
    born: str  # ISO date, YYYY-MM-DD
    character: str
    extra: dict = field(default_factory=dict)
    declaration: dict | None = None

    @property
    def declared(self):
        """35, 40 or 45 when a future image is declared, else None."""
        return sum(self.declaration.values()) if self.declaration else None

    def to_dict(self):
        return {"name": self.name, "born": self.born, "character": self.character,
                "extra": compact(self.extra),
                "declaration": compact(self.declaration) if self.declaration else None}


def read_player(data, path):
    data = read_object(data, path)
    born = read_text(require(data, "born", path), f"{path}.born", limit=MAX_CODE)
    try:
        date.fromisoformat(born)
    except ValueError:
        raise MalformedError(f"{path}.born", "must be a date as YYYY-MM-DD, got {born!r}", born=shown(born)) from None
    declaration = data.get("declaration")
    if declaration is not None:
        declaration = read_skill_map(declaration, f"{path}.declaration")
    return PlayerSetup(
        name=read_text(require(data, "name", path), f"{path}.name", limit=MAX_NAME).strip(),
        born=born,
        character=read_text(require(data, "character", path), f"{path}.character", limit=MAX_CODE),
        extra=read_skill_map(data.get("extra"), f"{path}.extra"),
        declaration=declaration,
    )


def check_setup(pack, players):
    """Raise ``SetupError`` for the first player setup that breaks RULES.md 2."""
    for problem in setup_problems(pack, players):
        raise problem


def setup_problems(pack, players):
    """Every way the setup breaks RULES.md 2, each a ``SetupError`` whose path names the player
    and the field (``players[1].extra``): the setup screen shows them all at once, each next to
    its player."""
    problems = []
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        problems.append(SetupError("players", "player_count",
                                   "a table has {low} or {high} players, got {count}",
                                   low=MIN_PLAYERS, high=MAX_PLAYERS, count=len(players)))
    names, characters = {}, {}
    for i, p in enumerate(players):
        path = f"players[{i}]"
        if p.name in names:
            problems.append(SetupError(f"{path}.name", "duplicate_name",
                                       "name {name!r} is already used by player {other}; names must differ",
                                       name=p.name, other=names[p.name] + 1))
        else:
            names[p.name] = i
        known = p.character in pack.characters_by_code
        if not known:
            problems.append(SetupError(f"{path}.character", "unknown_character",
                                       "unknown character {character!r}; the pack has {allowed}",
                                       character=p.character, allowed=", ".join(pack.characters_by_code)))
        elif p.character in characters:
            problems.append(SetupError(f"{path}.character", "character_taken",
                                       "character {character} is already taken by {other}",
                                       character=p.character, other=players[characters[p.character]].name))
        else:
            characters[p.character] = i
        negative = False
        for s, v in p.extra.items():
            if s not in SKILLS or v < 0:
                negative = True
                problems.append(SetupError(f"{path}.extra.{s}", "extra_negative",
                                           "extra SP go to the skills as non-negative numbers, got {skill} {value}",
                                           skill=s, value=v))
        extra = sum(p.extra.values())
        if extra != EXTRA_SP and not negative:
            problems.append(SetupError(f"{path}.extra", "extra_sum",
                                       "the extra SP must sum to exactly {need}, got {got}", need=EXTRA_SP, got=extra))
        if pack.skill_max is not None and known:
            base = pack.characters_by_code[p.character].skills
            for s in SKILLS:
                if base[s] + p.extra.get(s, 0) > pack.skill_max:
                    problems.append(SetupError(f"{path}.extra.{s}", "above_max",
                                               "{skill} would be {value}, above the pack's skill_max {max}",
                                               skill=s, value=base[s] + p.extra.get(s, 0), max=pack.skill_max))
        if p.declaration is not None and p.declared not in DECLARATION_BONUS:
            problems.append(SetupError(f"{path}.declaration", "declaration_sum",
                                       "a future image sums to 35, 40 or 45, got {got}", got=p.declared))
    return problems


def start_skills(pack, player):
    base = pack.characters_by_code[player.character].skills
    return {s: base[s] + player.extra.get(s, 0) for s in SKILLS}


def turn_order(pack, players):
    """Seat indexes in turn order: most energy first; tie -> younger (later birth date); then
    seated earlier. Play goes clockwise (seating order, wrapping) from the first player."""
    def key(i):
        return (-start_skills(pack, players[i])[TURN_ORDER_SKILL],
                -date.fromisoformat(players[i].born).toordinal(), i)
    first = min(range(len(players)), key=key)
    return [(first + k) % len(players) for k in range(len(players))]


def turn_order_reason(pack, players):
    """Why the first player goes first, as (code, params): for screens and the protocol."""
    order = turn_order(pack, players)
    first = order[0]
    energy = start_skills(pack, players[first])[TURN_ORDER_SKILL]
    tied = [i for i in range(len(players)) if start_skills(pack, players[i])[TURN_ORDER_SKILL] == energy]
    if len(tied) == 1:
        return "most_energy", {"player": players[first].name, "energy": energy}
    same_born = [i for i in tied if players[i].born == players[first].born]
    if len(same_born) > 1:
        return "seated_earlier", {"player": players[first].name, "energy": energy}
    return "younger", {"player": players[first].name, "energy": energy}
