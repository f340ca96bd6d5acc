"""Content packs (`alterego-pack/1`): the actives and the event deck (RULES.md 1, RECORD.md 1).

A pack is refused as a whole, with every problem listed by key, so an organizer fixes
their deck in one pass. Rules act on a card's ``effect`` and flags, never on its key:
"Työ maalla" is effect ``tyo_maalla``, "work chore" is ``work``, and so on, so a pack may
rename cards freely.

Decision beyond RECORD.md 1 (documented here, tested in ``test_ae_pack.py``): keys a pack,
an active or a card carries beyond the listed fields are kept and written back unchanged
(an optional key a newer writer adds is no new format version, RECORD.md 0); they change
nothing in the game.
"""

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

from ..errors import PackError, Problem

PACK_FORMAT = "alterego-pack/1"
RULESET = "alter-ego-3"

#: the abilities of RULES.md 1.1 the engine applies (an active's ``ability``)
ABILITIES = ("pare", "ville", "jaakko", "niksu", "kalle", "tane", "meira", "imaami", "tommi")
#: abilities that are ``ability`` moves; the others apply by themselves
USED_ABILITIES = ("pare", "jaakko", "niksu", "kalle")
CARD_TYPES = ("event", "hobby", "chore")
HOBBY_SUBTYPES = ("campaign", "athletic", "dating", "other")
REACTIONS = ("taktinen_teko", "mun_kaverit", "ei_kiinnostusta", "ei_rahaa")

#: effect -> (card type it goes on, required hobby subtype or None, {param: kind})
EFFECTS = {
    "sekoita_pakka": ("event", None, {}),
    "energiapuuska": ("event", None, {}),
    "tarkea_nakki": ("event", None, {}),
    "uusi_aktiivi": ("event", None, {}),
    "taktinen_teko": ("event", None, {}),
    "loppu": ("event", None, {}),
    "tauko": ("event", None, {}),
    "mun_kaverit": ("event", None, {}),
    "ei_kiinnostusta": ("event", None, {"cancels": "hobbies"}),
    "hahmo_kuolee": ("event", None, {"gain": "int"}),
    "uusi_tyyli": ("event", None, {"loss": "int", "faction_gain": "int"}),
    "maallepako": ("event", None, {}),
    "bile": ("event", None, {"organizer_gain": "int", "per_guest": "int", "participant_loss": "int"}),
    "ei_rahaa": ("event", None, {"gain": "int"}),
    "tyokiireita": ("event", None, {"base": "int", "min": "int"}),
    "seurustelu": ("hobby", "dating", {"breakup_gain": "int"}),
    "stressinpoistokampanja": ("hobby", "campaign", {"work_reduction": "int"}),
    "lopputyo": ("hobby", None, {"relief": "int"}),
    "tyo_maalla": ("chore", None, {}),
    "nakkikone": ("chore", None, {"gain": "int"}),
}

#: the fields of a ``play_event`` each event effect takes (RECORD.md 2, "Moves")
EVENT_FIELDS = {
    "energiapuuska": ("target",),
    "hahmo_kuolee": ("target",),
    "uusi_tyyli": ("target",),
    "maallepako": ("target",),
    "tyokiireita": ("target",),
    "tarkea_nakki": ("target", "hobby", "chore"),
    "uusi_aktiivi": ("active",),
    "loppu": ("activity",),
    "tauko": ("activity",),
    "bile": ("target", "participants"),
    None: (),
}
#: the fields of an ``ability`` move each used ability takes (RULES.md 1.1, RECORD.md 2)
ABILITY_FIELDS = {"pare": ("targets",), "niksu": ("from",), "jaakko": (), "kalle": ()}
#: the fields of a ``react`` each reaction effect takes (RULES.md 3.4, RECORD.md 2)
REACTION_FIELDS = {"taktinen_teko": ("target",), "ei_rahaa": ("target",), "mun_kaverit": ("faction",),
                   "ei_kiinnostusta": ()}
#: how many distinct actives Pare's joke names (RULES.md 1.1, decision 32)
PARE_TARGETS = 3

_ACTIVE_KEY = re.compile(r"[a-z0-9_]+\Z")
_ACTIVE_FIELDS = ("key", "name", "va", "bo", "ability", "ability_name", "text", "text_en")
_CARD_FIELDS = ("key", "name", "gloss", "count", "type", "subtype", "work", "influence",
                "permanent_anxiety", "reaction", "no_money_immune", "effect", "params", "text", "text_en")
_PACK_FIELDS = ("format", "ruleset", "id", "title", "source", "actives", "cards")


@dataclass(frozen=True, eq=False)
class ActiveCard:
    """An active as printed: free time ``va``, burn-out limit ``bo`` and its ability."""

    key: str
    name: str
    va: int
    bo: int
    ability: str | None
    ability_name: str | None
    text: str
    text_en: str
    extra: dict = field(default_factory=dict)

    @property
    def used_ability(self):
        """True when the ability is an ``ability`` move (Pare, Jaakko, Niksu, Kalle)."""
        return self.ability in USED_ABILITIES

    def to_dict(self):
        out = {k: getattr(self, k) for k in _ACTIVE_FIELDS}
        out.update(self.extra)
        return out


@dataclass(frozen=True, eq=False)
class Card:
    """One card of the event deck. The ``is_*`` flags are read off ``type``, ``subtype`` and
    ``effect`` once, so the rules ask a flag instead of comparing strings on every move."""

    key: str
    name: str
    gloss: str
    count: int
    type: str
    subtype: str | None
    work: bool
    influence: int
    permanent_anxiety: int
    reaction: bool
    no_money_immune: bool
    effect: str | None
    params: dict
    text: str
    text_en: str
    extra: dict = field(default_factory=dict)

    def __post_init__(self):
        flags = {
            "is_activity": self.type in ("hobby", "chore"),
            "is_hobby": self.type == "hobby",
            "is_chore": self.type == "chore",
            "is_event": self.type == "event",
            "is_campaign": self.type == "hobby" and self.subtype == "campaign",
            "is_athletic": self.type == "hobby" and self.subtype == "athletic",
            "is_dating": self.effect == "seurustelu",
            "is_tyo_maalla": self.effect == "tyo_maalla",
            "is_stress_relief": self.effect == "stressinpoistokampanja",
            "is_lopputyo": self.effect == "lopputyo",
            "is_nakkikone": self.effect == "nakkikone",
            "is_season_card": self.effect == "sekoita_pakka",
        }
        for name, value in flags.items():
            object.__setattr__(self, name, value)

    def to_dict(self):
        out = {k: getattr(self, k) for k in _CARD_FIELDS}
        out["params"] = json.loads(json.dumps(self.params))
        out.update(self.extra)
        return out


@dataclass(frozen=True, eq=False)
class Pack:
    """An `alterego-pack/1` deck: ``actives`` and ``cards`` in pack order, with lookups."""

    id: str
    title: str
    source: str
    actives: tuple
    cards: tuple
    extra: dict = field(default_factory=dict)
    ruleset: str = RULESET

    def __post_init__(self):
        object.__setattr__(self, "actives_by_key", {a.key: a for a in self.actives})
        object.__setattr__(self, "cards_by_key", {c.key: c for c in self.cards})
        object.__setattr__(self, "activity_cards", tuple(c for c in self.cards if c.is_activity))
        object.__setattr__(self, "reaction_cards", tuple(c for c in self.cards if c.reaction))
        object.__setattr__(self, "event_cards", tuple(c for c in self.cards if c.is_event and not c.reaction
                                                      and not c.is_season_card))

    def __eq__(self, other):
        return isinstance(other, Pack) and self.to_dict() == other.to_dict()

    def __hash__(self):
        return hash((self.id, self.title))

    @property
    def max_players(self):
        """RULES.md 2.1: each player needs 3 actives: ⌊actives / 3⌋ players at most."""
        return len(self.actives) // 3

    def to_dict(self):
        out = {"format": PACK_FORMAT, "ruleset": self.ruleset, "id": self.id, "title": self.title,
               "source": self.source, "actives": [a.to_dict() for a in self.actives],
               "cards": [c.to_dict() for c in self.cards]}
        out.update(self.extra)
        return out


class PackProblem(Problem):
    """A ``Problem`` of an Alter Ego pack, with a stable ``key``, its English ``template`` and
    ``params`` so a screen can word it in another language. ``item`` is ``pack``, ``active``
    or ``card``; ``code`` the active's or card's key when known."""

    __slots__ = ("key", "params", "template")

    def __init__(self, item, index, code, field, key, template, /, **params):
        super().__init__(item, index, code, field, template.format(**params))
        self.key = key
        self.params = params
        self.template = template

    def where(self):
        if self.item in ("active", "card"):
            label = self.code if isinstance(self.code, str) and self.code else f"#{(self.index or 0) + 1}"
            head = f"{self.item} {label}"
            return f"{head}: {self.field}" if self.field else head
        return f"{self.item}: {self.field}" if self.field else self.item


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


class _Reader:
    """Reads one pack item field by field, noting every problem instead of stopping."""

    def __init__(self, problems, item, index, data):
        self.problems = problems
        self.item = item
        self.index = index
        self.data = data
        key = data.get("key") if isinstance(data, dict) else None
        self.code = key if isinstance(key, str) else None
        self.ok = True

    def problem(self, field_name, problem_key, template, /, **params):
        self.ok = False
        self.problems.append(PackProblem(self.item, self.index, self.code, field_name, problem_key, template,
                                         **params))

    def get(self, name):
        if name not in self.data:
            self.problem(name, "missing", "is missing")
            return None, False
        return self.data[name], True

    def text(self, name, nullable=False, nonempty=False):
        value, present = self.get(name)
        if not present:
            return None
        if value is None and nullable:
            return None
        if not isinstance(value, str) or (nonempty and not value.strip()):
            self.problem(name, "not_text", "must be a text" if not nonempty else "must be a non-empty text")
            return None
        return value

    def integer(self, name, minimum):
        value, present = self.get(name)
        if not present:
            return None
        if not _is_int(value):
            self.problem(name, "not_whole_number", "must be a whole number, got {value!r}", value=value)
            return None
        if value < minimum:
            self.problem(name, "below_minimum", "must be at least {minimum}, got {value}", minimum=minimum,
                         value=value)
            return None
        return value

    def boolean(self, name):
        value, present = self.get(name)
        if not present:
            return None
        if not isinstance(value, bool):
            self.problem(name, "not_boolean", "must be true or false, got {value!r}", value=value)
            return None
        return value

    def choice(self, name, allowed, nullable=False):
        value, present = self.get(name)
        if not present:
            return None
        if value is None and nullable:
            return None
        if value not in allowed:
            self.problem(name, "unknown_value", "must be one of {allowed}, got {value!r}",
                         allowed=", ".join(allowed) + (" or null" if nullable else ""), value=value)
            return None
        return value


def _read_active(problems, index, data):
    if not isinstance(data, dict):
        problems.append(PackProblem("active", index, None, "", "not_object", "must be an object"))
        return None
    r = _Reader(problems, "active", index, data)
    key = r.text("key")
    if key is not None and not _ACTIVE_KEY.match(key):
        r.problem("key", "bad_key", "a key is lower-case ASCII letters, digits and _, got {key!r}", key=key)
    values = dict(key=key, name=r.text("name"), va=r.integer("va", 1), bo=r.integer("bo", 1),
                  ability=r.choice("ability", ABILITIES, nullable=True),
                  ability_name=r.text("ability_name", nullable=True),
                  text=r.text("text"), text_en=r.text("text_en"))
    if not r.ok:
        return None
    return ActiveCard(**values, extra={k: v for k, v in data.items() if k not in _ACTIVE_FIELDS})


def _read_params(r, effect, params, hobby_keys):
    if not isinstance(params, dict):
        r.problem("params", "not_object", "must be an object, got {value!r}", value=params)
        return
    wanted = EFFECTS[effect][2] if effect in EFFECTS else {}
    for name in params:
        if name not in wanted:
            r.problem(f"params.{name}", "param_extra",
                      "effect {effect} takes no parameter {name!r}; it takes {allowed}",
                      effect=effect, name=name, allowed=", ".join(wanted) or "none")
    for name, kind in wanted.items():
        if name not in params:
            r.problem(f"params.{name}", "param_missing", "effect {effect} needs the parameter {name!r}",
                      effect=effect, name=name)
            continue
        value = params[name]
        if kind == "int":
            if not _is_int(value) or value < 0:
                r.problem(f"params.{name}", "param_not_number",
                          "must be a whole number of at least 0, got {value!r}", value=value)
        elif not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
            r.problem(f"params.{name}", "cancels_not_list", "must be a non-empty list of hobby keys, got {value!r}",
                      value=value)
        else:
            for v in value:
                if v not in hobby_keys:
                    r.problem(f"params.{name}", "cancels_not_hobby",
                              "{key!r} is no hobby of this pack; cancels names hobbies of the pack", key=v)


def _read_card(problems, index, data, hobby_keys):
    if not isinstance(data, dict):
        problems.append(PackProblem("card", index, None, "", "not_object", "must be an object"))
        return None
    r = _Reader(problems, "card", index, data)
    key = r.text("key", nonempty=True)
    if key is not None and not key.isascii():
        r.problem("key", "bad_key", "a card key is ASCII, got {key!r}", key=key)
    kind = r.choice("type", CARD_TYPES)
    subtype, _ = r.get("subtype")
    if kind == "hobby" and subtype not in HOBBY_SUBTYPES:
        r.problem("subtype", "bad_subtype", "a hobby's subtype is one of {allowed}, got {value!r}",
                  allowed=", ".join(HOBBY_SUBTYPES), value=subtype)
    elif kind in ("event", "chore") and subtype is not None and "subtype" in data:
        r.problem("subtype", "subtype_not_null", "only hobbies have a subtype; a {type} has null, got {value!r}",
                  type=kind, value=subtype)
    work = r.boolean("work")
    if work and kind in ("event", "hobby"):
        r.problem("work", "work_not_chore", "only chores can be work; this card is a {type}", type=kind)
    influence = r.integer("influence", 0)
    permanent = r.integer("permanent_anxiety", 0)
    if kind == "event":
        for name, value in (("influence", influence), ("permanent_anxiety", permanent)):
            if value:
                r.problem(name, "event_value", "an event has {name} 0, got {value}", name=name, value=value)
    reaction = r.boolean("reaction")
    immune = r.boolean("no_money_immune")
    if immune and kind == "event":
        r.problem("no_money_immune", "immune_event", "only activities can be immune to Ei rahaa")
    effect, present = r.get("effect")
    if present and effect is not None:
        if effect not in EFFECTS:
            r.problem("effect", "unknown_effect", "unknown effect {effect!r}; the effects are {allowed}",
                      effect=effect, allowed=", ".join(EFFECTS))
            effect = "?"
        else:
            on_type, on_subtype, _params = EFFECTS[effect]
            if kind is not None and (kind != on_type or (on_subtype is not None and subtype != on_subtype)):
                r.problem("effect", "effect_wrong_type", "effect {effect} goes on a {needed}, not on a {got}",
                          effect=effect, needed=f"{on_subtype} {on_type}" if on_subtype else on_type,
                          got=f"{subtype} {kind}" if subtype else kind)
    if reaction is not None and present and effect != "?" and reaction != (effect in REACTIONS):
        r.problem("reaction", "reaction_flag",
                  "reaction is true exactly for the effects {allowed}; effect {effect!r} has {reaction}",
                  allowed=", ".join(REACTIONS), effect=effect, reaction=reaction)
    params, params_present = r.get("params")
    if params_present and effect != "?":
        _read_params(r, effect, params, hobby_keys)
    values = dict(key=key, name=r.text("name"), gloss=r.text("gloss"), count=r.integer("count", 1),
                  type=kind, subtype=subtype, work=work, influence=influence, permanent_anxiety=permanent,
                  reaction=reaction, no_money_immune=immune, effect=effect,
                  params=json.loads(json.dumps(params)) if isinstance(params, dict) else params,
                  text=r.text("text"), text_en=r.text("text_en"))
    if not r.ok:
        return None
    return Card(**values, extra={k: v for k, v in data.items() if k not in _CARD_FIELDS})


def pack_problems(data):
    """Every problem of a pack object, and the pack when there are none: ``(pack, problems)``."""
    problems = []
    if not isinstance(data, dict):
        return None, [PackProblem("pack", None, None, "", "not_object", "a content pack must be a JSON object")]
    top = _Reader(problems, "pack", None, data)
    top.code = None
    if data.get("format") != PACK_FORMAT:
        top.problem("format", "wrong_format", "must be {expected!r}, got {got!r}", expected=PACK_FORMAT,
                    got=data.get("format"))
    if data.get("ruleset") != RULESET:
        top.problem("ruleset", "unknown_ruleset", "ruleset {got!r} is not implemented; this engine plays {expected!r}",
                    got=data.get("ruleset"), expected=RULESET)
    pack_id = top.text("id", nonempty=True)
    title = top.text("title", nonempty=True)
    source = top.text("source")

    raw_actives = data.get("actives")
    if not isinstance(raw_actives, list):
        top.problem("actives", "not_list", "must be a list of actives")
        raw_actives = []
    actives, seen = [], {}
    for i, raw in enumerate(raw_actives):
        active = _read_active(problems, i, raw)
        if active is None:
            continue
        if active.key in seen:
            problems.append(PackProblem("active", i, active.key, "key", "duplicate_key",
                                        "duplicate key, also used by active #{first}", first=seen[active.key] + 1))
        seen.setdefault(active.key, i)
        actives.append(active)
    if isinstance(data.get("actives"), list) and len(raw_actives) < 6:
        top.problem("actives", "too_few_actives", "a pack needs at least 6 actives (2 players of 3), got {count}",
                    count=len(raw_actives))

    raw_cards = data.get("cards")
    if not isinstance(raw_cards, list):
        top.problem("cards", "not_list", "must be a list of cards")
        raw_cards = []
    hobby_keys = {c.get("key") for c in raw_cards if isinstance(c, dict) and c.get("type") == "hobby"}
    cards, seen = [], {}
    for i, raw in enumerate(raw_cards):
        card = _read_card(problems, i, raw, hobby_keys)
        if card is None:
            continue
        if card.key in seen:
            problems.append(PackProblem("card", i, card.key, "key", "duplicate_key",
                                        "duplicate key, also used by card #{first}", first=seen[card.key] + 1))
        seen.setdefault(card.key, i)
        cards.append(card)
    season_cards = [c for c in raw_cards if isinstance(c, dict) and c.get("effect") == "sekoita_pakka"]
    if len(season_cards) != 1 or season_cards[0].get("count") != 1:
        top.problem("cards", "season_card", "a pack has exactly one sekoita_pakka card, with count 1; "
                    "got {cards} such card(s) with counts {counts}", cards=len(season_cards),
                    counts=", ".join(str(c.get("count")) for c in season_cards) or "none")
    if problems:
        return None, problems
    pack = Pack(id=pack_id, title=title, source=source, actives=tuple(actives), cards=tuple(cards),
                extra={k: v for k, v in data.items() if k not in _PACK_FIELDS})
    return pack, []


_PACKS = {}  # JSON text of a valid pack -> its Pack: the records of one event share their pack
_PACKS_KEPT = 8


def read_pack(data):
    """A ``Pack`` from its `alterego-pack/1` JSON object; raises ``PackError`` listing every problem.

    Every record carries its pack inline, so the same pack is read again and again (each
    replay of each table): a pack read before is recognised by its JSON text (exact: ``1``
    and ``true`` differ there) and the same immutable ``Pack`` is returned."""
    try:
        text = json.dumps(data, ensure_ascii=False)
    except (TypeError, ValueError):
        text = None
    pack = _PACKS.get(text) if text is not None else None
    if pack is not None:
        return pack
    pack, problems = pack_problems(data)
    if problems:
        raise PackError(problems)
    if text is not None:
        if len(_PACKS) >= _PACKS_KEPT:
            del _PACKS[next(iter(_PACKS))]
        _PACKS[text] = pack
    return pack


def write_pack(pack):
    return pack.to_dict()


def default_pack_data():
    """The 3rd-edition pack the app ships (``facilitator/rules/alterego/sample_pack.json``), a fresh copy."""
    text = resources.files(__package__).joinpath("sample_pack.json").read_text("utf-8")
    return json.loads(text)


@lru_cache(maxsize=1)
def default_pack():
    """The shipped 3rd-edition pack, validated (one shared, immutable object)."""
    return read_pack(default_pack_data())
