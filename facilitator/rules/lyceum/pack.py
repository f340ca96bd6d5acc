"""Content packs (`lyceum-pack/1`): characters, cards and level thresholds (RULES.md 1, RECORD.md 1).

A pack that breaks any rule is refused as a whole with every problem listed, so an
organizer fixes their deck in one pass instead of one error at a time.
"""

from bisect import bisect_right
from dataclasses import dataclass, field

from .cards import CARD_KEYS, SPECIAL_KEYS, colour_breaks, read_card
from ..errors import MalformedError, PackError, Problem
from .fields import (LABEL, MAX_CARDS, MAX_CHARACTERS, MAX_CODE, MAX_ID, MAX_LEVELS, MAX_NAME, MAX_SP, MAX_TEXT,
                     MAX_TITLE, MAX_XP, PRINTED, FieldErrors, check_text, is_int, only_known, read_object, read_skill_map,
                     read_text, require, shown)
from .skills import SKILLS

PACK_FORMAT = "lyceum-pack/1"


@dataclass(frozen=True)
class Character:
    code: str
    name: str
    direction: str
    skills: dict

    def to_dict(self):
        return {"code": self.code, "name": self.name, "direction": self.direction,
                "skills": {s: self.skills.get(s, 0) for s in SKILLS}}


@dataclass(frozen=True, eq=False)
class ContentPack:
    id: str
    title: str
    levels: tuple
    characters: tuple
    cards: tuple
    skill_max: int | None = None
    description: str = ""
    cards_by_code: dict = field(default_factory=dict, repr=False)
    characters_by_code: dict = field(default_factory=dict, repr=False)

    def __post_init__(self):
        self.cards_by_code.update({c.code: c for c in self.cards})
        self.characters_by_code.update({c.code: c for c in self.characters})

    def __eq__(self, other):
        return isinstance(other, ContentPack) and self.to_dict() == other.to_dict()

    def __hash__(self):
        return hash((self.id, self.title, self.levels))

    def level_for(self, xp):
        """The highest level whose threshold ``xp`` has reached (levels start at 1)."""
        return max(1, bisect_right(self.levels, xp))

    @property
    def max_level(self):
        return len(self.levels)

    def cards_of(self, era, color):
        return [c for c in self.cards if c.era == era and c.color == color]

    def to_dict(self):
        out = {"format": PACK_FORMAT, "id": self.id, "title": self.title}
        if self.description:
            out["description"] = self.description
        out.update({
            "levels": list(self.levels),
            "skill_max": self.skill_max,
            "characters": [c.to_dict() for c in self.characters],
            "cards": [c.to_dict() for c in self.cards],
        })
        return out


class PackProblem(Problem):
    """A ``Problem`` that also carries a stable machine ``key`` (``"losses_exact"``), its numbers
    (``params``) and the English ``template`` they fill, so the import screens and the pack
    editor can say it in Russian; ``message`` stays the English sentence."""

    __slots__ = ("key", "params", "template")

    def __init__(self, item, index, code, field, key, template, /, **params):
        super().__init__(item, index, code, field, template.format(**params))
        self.key = key
        self.params = params
        self.template = template


#: the key of each ``MalformedError`` template the field readers raise
MALFORMED_KEYS = {
    "is missing": "missing",
    "must be a non-empty text": "missing_text",
    "must be a text": "not_text",
    "must be an object": "not_object",
    "must be an object, got {value!r}": "not_object",
    "must be a whole number, got {value!r}": "not_whole_number",
    "must be at least {minimum}, got {value}": "below_minimum",
    "must be a map of skills to numbers, got {value!r}": "not_skill_map",
    "unknown skill {key!r}; the skills are {allowed}": "unknown_skill",
    "unknown era {era!r}; the eras are {allowed}": "unknown_era",
    "unknown colour {color!r}; the colours are {allowed}": "unknown_color",
    "must be at most {maximum}, got {value}": "above_maximum",
    "must be at most {limit} characters long, got {length}": "too_long",
    "must be one line of text without control characters; found {char} at character {position}": "not_one_line",
    "must not contain control characters; found {char} at character {position}": "control_character",
    "must list at most {limit} items, got {count}": "too_many",
}


def _collect(problems, item, index, code, fn):
    """Run a parser that notes every bad field in a ``FieldErrors``; turn each into a
    ``Problem``. Returns the parsed item, or None when any field was bad."""
    errors = FieldErrors()
    result = errors.take(lambda: fn(errors))
    for err in errors.errors:
        field_path = err.path.split(".", 1)[1] if "." in err.path else ""
        problems.append(PackProblem(item, index, code, field_path,
                                    MALFORMED_KEYS.get(err.template, "malformed"), err.template, **err.params))
    return None if errors.errors else result


def _read_character(data, path, errors):
    if not isinstance(data, dict):
        raise MalformedError(path, "must be an object")
    take = errors.take
    skills = take(lambda: read_skill_map(require(data, "skills", path), f"{path}.skills"), {})
    code = take(lambda: read_text(require(data, "code", path), f"{path}.code", limit=MAX_CODE, keep=LABEL))
    name = take(lambda: read_text(require(data, "name", path), f"{path}.name", limit=MAX_NAME, keep=LABEL))
    direction = take(lambda: read_text(data.get("direction", ""), f"{path}.direction", required=False,
                                       limit=MAX_TITLE, keep=PRINTED) or "", "")
    return Character(code=code, name=name, direction=direction, skills={s: skills.get(s, 0) for s in SKILLS})


def _setting(problems, name, read):
    """A pack setting (``id``, ``title``, ``description``) read by ``read``; a refusal is noted
    as the pack's problem and None returned."""
    try:
        return read()
    except MalformedError as err:
        problems.append(PackProblem("pack", None, None, name, MALFORMED_KEYS.get(err.template, "malformed"),
                                    err.template, **err.params))
        return None


def pack_problems(data):
    """Every problem of a pack object, and the pack when there are none: ``(pack, problems)``."""
    problems = []
    if not isinstance(data, dict):
        return None, [PackProblem("pack", None, None, "", "not_object", "a content pack must be a JSON object")]
    if data.get("format") != PACK_FORMAT:
        problems.append(PackProblem("pack", None, None, "format", "wrong_format", "must be {expected!r}, got {got!r}",
                                    expected=PACK_FORMAT, got=shown(data.get("format"))))
    pack_id = _setting(problems, "id", lambda: read_text(data.get("id"), "pack.id", limit=MAX_ID, keep=LABEL))
    title = _setting(problems, "title", lambda: read_text(data.get("title"), "pack.title", limit=MAX_TITLE, keep=LABEL))
    description = data.get("description") or ""
    if not isinstance(description, str):
        problems.append(PackProblem("pack", None, None, "description", "not_text", "must be a text"))
        description = ""
    description = _setting(problems, "description",
                           lambda: check_text(description, "pack.description", MAX_TEXT, PRINTED)) or ""

    skill_max = data.get("skill_max")
    if skill_max is not None and (not is_int(skill_max) or skill_max < 1):
        problems.append(PackProblem("pack", None, None, "skill_max", "bad_skill_max",
                                    "must be null or a whole number of at least 1, got {value!r}",
                                    value=shown(skill_max)))
        skill_max = None
    elif skill_max is not None and skill_max > MAX_SP:
        problems.append(PackProblem("pack", None, None, "skill_max", "above_maximum",
                                    "must be at most {maximum}, got {value}", maximum=MAX_SP, value=shown(skill_max)))
        skill_max = None

    levels = data.get("levels")
    if not isinstance(levels, list) or not levels:
        problems.append(PackProblem("levels", None, None, "", "levels_missing",
                                    "must be a non-empty list of XP thresholds"))
        levels = [0]
    elif len(levels) > MAX_LEVELS:
        problems.append(PackProblem("levels", None, None, "", "too_many",
                                    "must list at most {limit} items, got {count}", limit=MAX_LEVELS,
                                    count=len(levels)))
        levels = [0]
    else:
        for i, value in enumerate(levels):
            if not is_int(value) or value < 0:
                problems.append(PackProblem("levels", i, None, f"[{i}]", "level_not_number",
                                            "must be a non-negative whole number, got {value!r}", value=shown(value)))
            elif value > MAX_XP:
                problems.append(PackProblem("levels", i, None, f"[{i}]", "above_maximum",
                                            "must be at most {maximum}, got {value}", maximum=MAX_XP,
                                            value=shown(value)))
            elif i == 0 and value != 0:
                problems.append(PackProblem("levels", 0, None, "[0]", "level_1_not_zero",
                                            "level 1 begins at 0 XP, got {value}", value=value))
            elif i > 0 and is_int(levels[i - 1]) and levels[i - 1] <= MAX_XP and value <= levels[i - 1]:
                problems.append(PackProblem("levels", i, None, f"[{i}]", "levels_not_increasing",
                                            "thresholds must increase: level {level} at {xp} XP "
                                            "is not above level {previous} at {previous_xp} XP",
                                            level=i + 1, xp=value, previous=i, previous_xp=levels[i - 1]))

    characters = []
    raw_chars = data.get("characters")
    if not isinstance(raw_chars, list) or not raw_chars:
        problems.append(PackProblem("pack", None, None, "characters", "empty_list", "must be a non-empty list"))
        raw_chars = []
    elif len(raw_chars) > MAX_CHARACTERS:
        problems.append(PackProblem("pack", None, None, "characters", "too_many",
                                    "must list at most {limit} items, got {count}", limit=MAX_CHARACTERS,
                                    count=len(raw_chars)))
        raw_chars = []
    seen = {}
    for i, raw in enumerate(raw_chars):
        code = raw.get("code") if isinstance(raw, dict) else None
        char = _collect(problems, "character", i, code, lambda errors: _read_character(raw, f"characters[{i}]", errors))
        if char is None:
            continue
        if char.code in seen:
            problems.append(PackProblem("character", i, char.code, "code", "duplicate_code",
                                        "duplicate code, also used by character #{first}", first=seen[char.code] + 1))
        seen.setdefault(char.code, i)
        if skill_max is not None:
            for s, v in char.skills.items():
                if v > skill_max:
                    problems.append(PackProblem("character", i, char.code, f"skills.{s}", "above_skill_max",
                                                "{value} is above skill_max {skill_max}",
                                                value=v, skill_max=skill_max, skill=s))
        characters.append(char)

    cards = []
    raw_cards = data.get("cards")
    if not isinstance(raw_cards, list) or not raw_cards:
        problems.append(PackProblem("pack", None, None, "cards", "empty_list", "must be a non-empty list"))
        raw_cards = []
    elif len(raw_cards) > MAX_CARDS:
        problems.append(PackProblem("pack", None, None, "cards", "too_many",
                                    "must list at most {limit} items, got {count}", limit=MAX_CARDS,
                                    count=len(raw_cards)))
        raw_cards = []
    seen = {}
    for i, raw in enumerate(raw_cards):
        code = raw.get("code") if isinstance(raw, dict) else None
        card = _collect(problems, "card", i, code, lambda errors: read_card(raw, f"cards[{i}]", errors=errors))
        if card is None:
            continue
        if card.code in seen:
            problems.append(PackProblem("card", i, card.code, "code", "duplicate_code",
                                        "duplicate code, also used by card #{first}", first=seen[card.code] + 1))
        seen.setdefault(card.code, i)
        for b in colour_breaks(card):
            problems.append(PackProblem("card", i, card.code, b.field, b.key, b.template, **b.params))
        cards.append(card)

    if problems:
        return None, problems
    pack = ContentPack(
        id=pack_id, title=title, levels=tuple(levels), characters=tuple(characters),
        cards=tuple(cards), skill_max=skill_max, description=description,
    )
    return pack, []


def read_pack(data):
    """A ``ContentPack`` from its JSON object; raises ``PackError`` listing every problem."""
    pack, problems = pack_problems(data)
    if problems:
        raise PackError(problems)
    return pack


def write_pack(pack):
    """The pack's `lyceum-pack/1` JSON object."""
    return pack.to_dict()


def check_inline_card(card, path):
    """A hand-entered card must obey the colour rules like any pack card. The refusal carries
    the colour rule's own template (``COLOUR_TEMPLATES``) so a screen can word it in Russian."""
    for broken in colour_breaks(card):
        raise MalformedError(f"{path}.{broken.field}", broken.template, **broken.params)
    return card


def read_inline_card(data, path, strict=True):
    """A card typed in by hand (a draw's ``card`` object). ``strict``: a key a card does not
    have is refused (a move sent by a tablet or the API); else ignored (a record file)."""
    data = only_known(read_object(data, path), CARD_KEYS, path, strict)
    special = data.get("special")
    if isinstance(special, dict):
        special = only_known(special, SPECIAL_KEYS, f"{path}.special", strict)
        data = dict(data, special=special)
    return check_inline_card(read_card(data, path, require_code=False, require_era=False), path)

