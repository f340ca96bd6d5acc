"""Content packs (`newangeles-pack/1`, RECORD.md §2): rule parameters, resources, corporations,
rival cards and card lists.

A pack that breaks any rule of RECORD.md §2 is refused as a whole, with every problem listed
(``PackError``), so an organizer fixes a pack in one pass. Rule parameters a pack leaves out
take the sample pack's values (D35): ``SAMPLE_RULES`` below, which is the ``rules`` object of
``facilitator/rules/newangeles/sample_pack.json`` (a test keeps the two equal).
"""

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources as _resources

from ..errors import PackError, Problem
from .fields import is_int

PACK_FORMAT = "newangeles-pack/1"

#: RULES.md §1: the six corporations of the game (D34); a pack may only name these
CORPORATION_KEYS = ("haas-bioroid", "jinteki", "nbn", "weyland", "melange", "globalsec")
FEDERALIST = "federalist"
SUPPORT_TIE = ("main", "active_chooses")

#: D35: the sample pack's rule parameters, taken by every key a pack leaves out
SAMPLE_RULES = {
    "players_min": 4,
    "players_max": 6,
    "threat_max": 25,
    "federalist_capital": 25,
    "support_tie": "main",
    "self_rival_beats": {"4": 2, "5": 2, "6": 3},
}
RULE_KEYS = tuple(SAMPLE_RULES)
_KNOWN = ("format", "id", "title", "rules", "resources", "corporations", "rival_cards", "demand_cards",
          "assets", "investments", "events")
_KEY = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


@dataclass(frozen=True)
class Named:
    """A resource or corporation: its key and the name screens show."""

    key: str
    name: str
    extra: dict = field(default_factory=dict, compare=False)

    def to_dict(self):
        return {"key": self.key, "name": self.name, **self.extra}


@dataclass(frozen=True)
class Titled:
    """An asset, investment or event card of a pack's optional lists: its code and title."""

    code: str
    title: str
    extra: dict = field(default_factory=dict, compare=False)

    def to_dict(self):
        return {"code": self.code, "title": self.title, **self.extra}


@dataclass(frozen=True)
class RivalCard:
    code: str
    rival: str  # a corporation key or "federalist"
    extra: dict = field(default_factory=dict, compare=False)

    def to_dict(self):
        return {"code": self.code, "rival": self.rival, **self.extra}


@dataclass(frozen=True)
class DemandCard:
    """A demand card: its targets per resource (missing = 0) and the threat it adds when the
    demand is not met (RULES.md §6). ``targets`` is kept as written (explicit zeros included)."""

    code: str
    threat: int
    targets: dict
    extra: dict = field(default_factory=dict, compare=False)

    def target(self, resource):
        return self.targets.get(resource, 0)

    def full_targets(self, resource_keys):
        return {r: self.targets.get(r, 0) for r in resource_keys}

    def to_dict(self):
        return {"code": self.code, "threat": self.threat, "targets": dict(self.targets), **self.extra}


class PackProblem(Problem):
    """A ``Problem`` with a stable ``key``, its English ``template`` and ``params``, so the import
    screens can word it in another language; ``field`` is the path inside the pack
    (``demand_cards[0].threat``)."""

    __slots__ = ("key", "params", "template")

    def __init__(self, field_path, key, template, /, **params):
        super().__init__("pack", None, None, field_path, template.format(**params))
        self.key = key
        self.params = params
        self.template = template


@dataclass(frozen=True, eq=False)
class Pack:
    id: str
    title: str
    players_min: int
    players_max: int
    threat_max: int
    federalist_capital: int
    support_tie: str
    self_rival_beats: dict  # player count -> k(n) (D15)
    resources: tuple
    corporations: tuple
    rival_cards: tuple
    demand_cards: tuple
    assets: tuple = ()
    investments: tuple = ()
    events: tuple = ()
    extra: dict = field(default_factory=dict)  # unknown top-level keys, kept
    rules_extra: dict = field(default_factory=dict)  # unknown keys of ``rules``, kept

    def __post_init__(self):
        put = object.__setattr__
        put(self, "resource_keys", tuple(r.key for r in self.resources))
        put(self, "corporation_keys", tuple(c.key for c in self.corporations))
        put(self, "corporation_names", {c.key: c.name for c in self.corporations})
        put(self, "demand_by_code", {d.code: d for d in self.demand_cards})
        put(self, "codes", {kind: frozenset(c.code for c in getattr(self, kind)) or None
                            for kind in ("assets", "investments", "events")})

    def __eq__(self, other):
        return isinstance(other, Pack) and self.to_dict() == other.to_dict()

    def __hash__(self):
        return hash((self.id, self.title))

    def k(self, players):
        """k(n) of D15: how many other players an own rival card must beat."""
        return self.self_rival_beats[players]

    def accepts(self, kind, code):
        """Whether a record may name this asset / investment / event: a code of the pack's list,
        or any non-empty text when the list is empty (RECORD.md §2)."""
        codes = self.codes[kind]
        return codes is None or code in codes

    def rules(self):
        return {
            "players_min": self.players_min,
            "players_max": self.players_max,
            "threat_max": self.threat_max,
            "federalist_capital": self.federalist_capital,
            "support_tie": self.support_tie,
            "self_rival_beats": {str(n): k for n, k in self.self_rival_beats.items()},
            **self.rules_extra,
        }

    def to_dict(self):
        """The pack as `newangeles-pack/1`, with every rule parameter written out (the ones a
        pack left out carry the sample's values, D35), unknown keys kept."""
        return {
            "format": PACK_FORMAT,
            "id": self.id,
            "title": self.title,
            "rules": self.rules(),
            "resources": [r.to_dict() for r in self.resources],
            "corporations": [c.to_dict() for c in self.corporations],
            "rival_cards": [c.to_dict() for c in self.rival_cards],
            "demand_cards": [d.to_dict() for d in self.demand_cards],
            "assets": [a.to_dict() for a in self.assets],
            "investments": [i.to_dict() for i in self.investments],
            "events": [e.to_dict() for e in self.events],
            **self.extra,
        }


class _Reader:
    """Reads a pack object and notes every problem instead of stopping at the first."""

    def __init__(self):
        self.problems = []

    def problem(self, where, key, template, **params):
        self.problems.append(PackProblem(where, key, template, **params))

    def text(self, obj, key, where):
        value = obj.get(key)
        if not isinstance(value, str) or not value.strip():
            self.problem(where, "missing_text", "must be a non-empty text")
            return None
        return value

    def key_text(self, obj, key, where):
        value = self.text(obj, key, where)
        if value is not None and not _KEY.match(value):
            self.problem(where, "bad_key", "must be a lower-case ASCII key, got {value!r}", value=value)
            return None
        return value

    def integer(self, value, where, minimum):
        if not is_int(value):
            self.problem(where, "not_whole_number", "must be a whole number, got {value!r}", value=value)
            return None
        if value < minimum:
            self.problem(where, "below_minimum", "must be at least {minimum}, got {value}",
                         minimum=minimum, value=value)
            return None
        return value

    def objects(self, data, key, *, required=True):
        """The list under ``key`` as ``(index, object)`` pairs, noting a non-list or non-object."""
        value = data.get(key)
        if value is None and not required:
            return []
        if not isinstance(value, list):
            self.problem(key, "not_list", "must be a list")
            return []
        out = []
        for i, item in enumerate(value):
            if not isinstance(item, dict):
                self.problem(f"{key}[{i}]", "not_object", "must be an object, got {value!r}", value=item)
            else:
                out.append((i, item))
        return out

    def duplicate(self, seen, value, where, index):
        if value is None:
            return
        if value in seen:
            self.problem(where, "duplicate", "{value!r} is listed twice (also #{first})",
                         value=value, first=seen[value] + 1)
        else:
            seen[value] = index


def _rules(r, data):
    raw = data.get("rules", {})
    if not isinstance(raw, dict):
        r.problem("rules", "not_object", "must be an object, got {value!r}", value=raw)
        raw = {}
    given = {k: raw[k] for k in RULE_KEYS if k in raw}
    values = dict(SAMPLE_RULES, **given)
    out = {"rules_extra": {k: v for k, v in raw.items() if k not in RULE_KEYS}}
    out["players_min"] = r.integer(values["players_min"], "rules.players_min", 2)
    out["players_max"] = r.integer(values["players_max"], "rules.players_max", 2)
    out["threat_max"] = r.integer(values["threat_max"], "rules.threat_max", 1)
    out["federalist_capital"] = r.integer(values["federalist_capital"], "rules.federalist_capital", 0)
    tie = values["support_tie"]
    if tie not in SUPPORT_TIE:
        r.problem("rules.support_tie", "bad_choice", "must be one of {allowed}, got {value!r}",
                  allowed=", ".join(SUPPORT_TIE), value=tie)
    out["support_tie"] = tie
    lo, hi = out["players_min"], out["players_max"]
    if lo is not None and hi is not None and lo > hi:
        r.problem("rules.players_min", "min_above_max", "players_min {min} is above players_max {max}",
                  min=lo, max=hi)
    beats = {}
    raw_beats = values["self_rival_beats"]
    if not isinstance(raw_beats, dict):
        r.problem("rules.self_rival_beats", "not_object", "must be an object, got {value!r}", value=raw_beats)
    else:
        for count, k in raw_beats.items():
            where = f"rules.self_rival_beats.{count}"
            if not (isinstance(count, str) and count.isdigit()):
                r.problem(where, "bad_player_count", "keys are player counts, got {value!r}", value=count)
                continue
            n = int(count)
            if lo is not None and hi is not None and not lo <= n <= hi:
                r.problem(where, "count_outside", "{n} players is outside players_min..players_max ({min}..{max})",
                          n=n, min=lo, max=hi)
                continue
            if r.integer(k, where, 1) is None:
                continue
            if k > n - 1:
                r.problem(where, "beats_too_many", "k({n}) = {k} but a player has only {others} others",
                          n=n, k=k, others=n - 1)
                continue
            beats[n] = k
        if lo is not None and hi is not None and lo <= hi:
            for n in range(lo, hi + 1):
                if str(n) not in raw_beats:
                    r.problem("rules.self_rival_beats", "count_missing", "no entry for {n} players", n=n)
    out["self_rival_beats"] = dict(sorted(beats.items()))
    return out


def _named(r, data, key, check_key):
    out, seen = [], {}
    for i, item in r.objects(data, key):
        k = r.key_text(item, "key", f"{key}[{i}].key")
        name = r.text(item, "name", f"{key}[{i}].name")
        r.duplicate(seen, k, f"{key}[{i}].key", i)
        if k is not None and check_key is not None:
            check_key(k, f"{key}[{i}].key")
        if k is not None and name is not None:
            out.append(Named(k, name, {x: v for x, v in item.items() if x not in ("key", "name")}))
    return out


def _titled(r, data, key):
    out, seen = [], {}
    for i, item in r.objects(data, key, required=False):
        code = r.text(item, "code", f"{key}[{i}].code")
        title = r.text(item, "title", f"{key}[{i}].title")
        r.duplicate(seen, code, f"{key}[{i}].code", i)
        if code is not None and title is not None:
            out.append(Titled(code, title, {x: v for x, v in item.items() if x not in ("code", "title")}))
    return out


def read_targets(r, value, where, resource_keys):
    """A demand card's ``targets``: resources of the pack, whole numbers ≥ 0."""
    if not isinstance(value, dict):
        r.problem(where, "not_object", "must be an object, got {value!r}", value=value)
        return None
    ok = True
    for res, amount in value.items():
        if resource_keys is not None and res not in resource_keys:
            r.problem(f"{where}.{res}", "unknown_resource", "unknown resource {resource!r}; the resources are {allowed}",
                      resource=res, allowed=", ".join(resource_keys))
            ok = False
        elif r.integer(amount, f"{where}.{res}", 0) is None:
            ok = False
    return dict(value) if ok else None


def _demand_cards(r, data, resource_keys):
    out, seen = [], {}
    for i, item in r.objects(data, "demand_cards", required=False):
        where = f"demand_cards[{i}]"
        code = r.text(item, "code", f"{where}.code")
        r.duplicate(seen, code, f"{where}.code", i)
        threat = r.integer(item.get("threat"), f"{where}.threat", 0)
        targets = read_targets(r, item.get("targets", {}), f"{where}.targets", resource_keys)
        if None not in (code, threat, targets):
            extra = {x: v for x, v in item.items() if x not in ("code", "threat", "targets")}
            out.append(DemandCard(code, threat, targets, extra))
    return out


def pack_problems(data):
    """``(pack, [])`` for a good pack object, ``(None, problems)`` listing every problem."""
    r = _Reader()
    if not isinstance(data, dict):
        r.problem("", "not_object", "a content pack must be a JSON object")
        return None, r.problems
    if data.get("format") != PACK_FORMAT:
        r.problem("format", "wrong_format", "must be {expected!r}, got {got!r}", expected=PACK_FORMAT,
                  got=data.get("format"))
    pack_id = r.text(data, "id", "id")
    title = r.text(data, "title", "title")
    rules = _rules(r, data)

    resources = _named(r, data, "resources", None)
    if isinstance(data.get("resources"), list) and not data["resources"]:
        r.problem("resources", "empty", "must list at least one resource")

    def known_corporation(key, where):
        if key not in CORPORATION_KEYS:
            r.problem(where, "unknown_corporation", "unknown corporation {corp!r}; the corporations are {allowed}",
                      corp=key, allowed=", ".join(CORPORATION_KEYS))

    corporations = _named(r, data, "corporations", known_corporation)
    corp_keys = [c.key for c in corporations]
    if rules["players_max"] is not None and len(corp_keys) < rules["players_max"]:
        r.problem("corporations", "too_few", "{count} corporations for up to {max} players",
                  count=len(corp_keys), max=rules["players_max"])

    rival_cards, seen_codes, seen_rivals = [], {}, {}
    for i, item in r.objects(data, "rival_cards"):
        where = f"rival_cards[{i}]"
        code = r.text(item, "code", f"{where}.code")
        r.duplicate(seen_codes, code, f"{where}.code", i)
        rival = item.get("rival")
        if rival != FEDERALIST and rival not in corp_keys:
            r.problem(f"{where}.rival", "unknown_rival", "must be a corporation of the pack or {federalist!r}, got {value!r}",
                      federalist=FEDERALIST, value=rival)
            continue
        r.duplicate(seen_rivals, rival, f"{where}.rival", i)
        if code is not None:
            rival_cards.append(RivalCard(code, rival, {x: v for x, v in item.items() if x not in ("code", "rival")}))
    for wanted in corp_keys + [FEDERALIST]:
        if isinstance(data.get("rival_cards"), list) and wanted not in seen_rivals:
            r.problem("rival_cards", "rival_missing", "no rival card for {rival!r}", rival=wanted)

    demand_cards = _demand_cards(r, data, [x.key for x in resources])
    lists = {kind: _titled(r, data, kind) for kind in ("assets", "investments", "events")}

    if r.problems:
        return None, r.problems
    pack = Pack(id=pack_id, title=title, resources=tuple(resources), corporations=tuple(corporations),
                rival_cards=tuple(rival_cards), demand_cards=tuple(demand_cards),
                assets=tuple(lists["assets"]), investments=tuple(lists["investments"]),
                events=tuple(lists["events"]), extra={k: v for k, v in data.items() if k not in _KNOWN},
                **rules)
    return pack, []


def read_pack(data):
    """A ``Pack`` from its JSON object; raises ``PackError`` listing every problem."""
    pack, problems = pack_problems(data)
    if problems:
        raise PackError(problems)
    return pack


def write_pack(pack):
    return pack.to_dict()


def default_pack_data():
    """The pack the app ships (`facilitator/rules/newangeles/sample_pack.json`), a fresh copy."""
    text = _resources.files(__package__).joinpath("sample_pack.json").read_text("utf-8")
    return json.loads(text)


@lru_cache(maxsize=1)
def default_pack():
    """The shipped sample pack, validated (packs are immutable, so one copy is shared)."""
    return read_pack(default_pack_data())
