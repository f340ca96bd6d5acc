"""Action cards (карты действий): their fields, colour rules and eligibility (RULES.md 1, 3.1)."""

from dataclasses import dataclass, field
from functools import cached_property

from ..errors import MalformedError
from .fields import (LABEL, MAX_CODE, MAX_SP, MAX_TEXT, MAX_TITLE, PRINTED, FieldErrors, check_text, read_int,
                     read_object, read_skill_map, read_text, require, shown)
from .eras import ERA_KEYS
from .skills import SKILLS, compact, total

COLORS = ("green", "yellow", "red")
COLOR_XP = {"green": 100, "yellow": 200, "red": 500}

#: colour -> (min G, max G, min L, max L, special allowed); G = gains + free, L = losses
COLOR_RULES = {
    "green": (1, 1, 0, 0, False),
    "yellow": (1, 3, 1, 1, False),
    "red": (0, 6, 0, 3, True),
}


def allows_special(color):
    """Whether a card of ``color`` may carry a special ability (RULES.md 1: red cards only)."""
    return color in COLOR_RULES and COLOR_RULES[color][4]


@dataclass(frozen=True)
class Special:
    text: str
    redistribute: int | None = None

    def to_dict(self):
        out = {"text": self.text}
        if self.redistribute is not None:
            out["redistribute"] = self.redistribute
        return out


#: the keys of a card object (RECORD.md 1) and of its special
CARD_KEYS = frozenset(("code", "era", "color", "title", "text", "conditions", "losses", "gains", "free", "special"))
SPECIAL_KEYS = frozenset(("text", "redistribute"))


@dataclass(frozen=True)
class Card:
    code: str | None
    era: str | None
    color: str
    title: str
    text: str = ""
    conditions: dict = field(default_factory=dict)
    losses: dict = field(default_factory=dict)
    gains: dict = field(default_factory=dict)
    free: int = 0
    special: Special | None = None

    @property
    def xp(self):
        return COLOR_XP[self.color]

    @property
    def label(self):
        """How the card is named in standings: its code, or its title for a hand-entered card."""
        return self.code or self.title

    @property
    def redistribute(self):
        return self.special.redistribute if self.special else None

    def requirements(self):
        """What eligibility asks per skill: at least the condition and at least the loss."""
        return dict(self._needs)

    @cached_property
    def _needs(self):
        """``requirements()`` as ``((skill, need), ...)``, worked out once (a card never changes)."""
        return tuple((s, max(self.conditions.get(s, 0), self.losses.get(s, 0))) for s in SKILLS
                     if self.conditions.get(s, 0) or self.losses.get(s, 0))

    def shortfalls(self, skills):
        """Every unmet skill as ``(skill, have, need)``; empty when the player is eligible."""
        return [(s, skills[s], need) for s, need in self._needs if skills[s] < need]

    def eligible(self, skills):
        """Whether ``skills`` meet every requirement (RULES.md 3.1): no shortfall."""
        for s, need in self._needs:
            if skills[s] < need:
                return False
        return True

    def to_dict(self, with_era=True):
        out = {}
        if self.code is not None:
            out["code"] = self.code
        if with_era and self.era is not None:
            out["era"] = self.era
        out.update({
            "color": self.color,
            "title": self.title,
            "text": self.text,
            "conditions": compact(self.conditions),
            "losses": compact(self.losses),
            "gains": compact(self.gains),
            "free": self.free,
            "special": self.special.to_dict() if self.special else None,
        })
        return out


#: the English templates of the colour rules; ``{color}`` is the colour's key
COLOUR_TEMPLATES = {
    "gains_exact": "a {color} card gives exactly {need} SP (gains + free), this one gives {got}",
    "gains_range": "a {color} card gives {min} to {max} SP (gains + free), this one gives {got}",
    "losses_exact": "a {color} card costs exactly {need} SP in losses, this one costs {got}",
    "losses_range": "a {color} card costs {min} to {max} SP in losses, this one costs {got}",
    "special_not_red": "only red cards have a special, this is a {color} card",
}


@dataclass(frozen=True)
class ColourBreak:
    """One colour rule a card breaks: the field, a stable ``key``, and the numbers (``params``),
    so a screen can say it in Russian while ``message`` stays the English sentence."""

    field: str
    key: str
    params: dict

    @property
    def template(self):
        return COLOUR_TEMPLATES[self.key]

    @property
    def message(self):
        return self.template.format(**self.params)


def _bounds_break(field_name, kind, color, low, high, got):
    if low <= got <= high:
        return []
    if low == high:
        return [ColourBreak(field_name, f"{kind}_exact", {"color": color, "need": low, "got": got})]
    return [ColourBreak(field_name, f"{kind}_range", {"color": color, "min": low, "max": high, "got": got})]


def colour_breaks(card):
    """Every way the card breaks the colour rules of RULES.md 1, as ``ColourBreak``s."""
    g_min, g_max, l_min, l_max, special_ok = COLOR_RULES[card.color]
    out = _bounds_break("gains", "gains", card.color, g_min, g_max, total(card.gains) + card.free)
    out += _bounds_break("losses", "losses", card.color, l_min, l_max, total(card.losses))
    if card.special is not None and not special_ok:
        out.append(ColourBreak("special", "special_not_red", {"color": card.color}))
    return out


def colour_problems(card):
    """Every way the card breaks the colour rules of RULES.md 1, as ``(field, message)``."""
    return [(b.field, b.message) for b in colour_breaks(card)]


def read_card(data, path, require_code=True, require_era=True, errors=None):
    """Parse one card object. Every bad field is noted in ``errors`` (a ``FieldErrors``) and the
    card is None; without ``errors`` the first bad field raises ``MalformedError``.

    Colour rules are not checked here (see ``colour_problems``) so a pack can list them all.
    """
    own = errors is None
    errors = FieldErrors() if own else errors
    data = read_object(data, path)
    before = len(errors.errors)
    take = errors.take

    def era_of():
        era = require(data, "era", path)
        if not isinstance(era, str):
            raise MalformedError(f"{path}.era", "must be one of {allowed}, got {value!r}",
                                 allowed=", ".join(ERA_KEYS), value=shown(era))
        if era not in ERA_KEYS:
            raise MalformedError(f"{path}.era", "unknown era {era!r}; the eras are {allowed}",
                                 era=shown(era), allowed=", ".join(ERA_KEYS))
        return era

    def color_of():
        color = require(data, "color", path)
        if not isinstance(color, str):
            raise MalformedError(f"{path}.color", "must be one of {allowed}, got {value!r}",
                                 allowed=", ".join(COLORS), value=shown(color))
        if color not in COLORS:
            raise MalformedError(f"{path}.color", "unknown colour {color!r}; the colours are {allowed}",
                                 color=shown(color), allowed=", ".join(COLORS))
        return color

    def text_of():
        text = data.get("text")
        if text is None:
            return ""
        if not isinstance(text, str):
            raise MalformedError(f"{path}.text", "must be a text")
        return check_text(text, f"{path}.text", MAX_TEXT, PRINTED)

    def special_of():
        special = data.get("special")
        if special is None:
            return None
        special = read_object(special, f"{path}.special")
        redistribute = special.get("redistribute")
        if redistribute is not None:
            redistribute = read_int(redistribute, f"{path}.special.redistribute", minimum=1, maximum=MAX_SP)
        text = read_text(special.get("text", ""), f"{path}.special.text", required=False, limit=MAX_TEXT,
                         keep=PRINTED)
        return Special(text=text or "", redistribute=redistribute)

    code = data.get("code")
    if require_code or code is not None:
        code = take(lambda: read_text(require(data, "code", path), f"{path}.code", limit=MAX_CODE, keep=LABEL))
    era = data.get("era")
    if require_era or era is not None:
        era = take(era_of)
    fields = dict(
        color=take(color_of),
        title=take(lambda: read_text(require(data, "title", path), f"{path}.title", limit=MAX_TITLE, keep=LABEL)),
        text=take(text_of, ""),
        special=take(special_of),
        conditions=take(lambda: read_skill_map(data.get("conditions"), f"{path}.conditions"), {}),
        losses=take(lambda: read_skill_map(data.get("losses"), f"{path}.losses"), {}),
        gains=take(lambda: read_skill_map(data.get("gains"), f"{path}.gains"), {}),
        free=take(lambda: read_int(_or_zero(data.get("free")), f"{path}.free", minimum=0, maximum=MAX_SP), 0),
    )
    if own:
        errors.raise_first()
    if len(errors.errors) > before:
        return None
    return Card(code=code, era=era, **fields)


def _or_zero(value):
    """``free`` may be left out or null (0); anything else must be a whole number."""
    return 0 if value is None else value
