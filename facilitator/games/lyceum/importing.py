"""Importing a «16/25» content pack: the refusal that lists every problem, in the user's language.

An organizer's deck is refused as a whole (RECORD.md 1): nothing is half-imported. The
refusal, ``PackImportError``, carries one ``ImportProblem`` per thing wrong, each with where
it is (a workbook cell such as ``Карты!E14``, or a card's code and field for JSON), a stable
machine ``key`` with its numbers, and the sentence in the current locale. The sentences are
the rules engine's English templates translated through ``facilitator.i18n`` (catalog
``translations/ru/content.po``), so English stays available.

This module also reads and writes the JSON form (`lyceum-pack/1`); ``excel.py`` reads the
workbook and reuses the problem texts from here.
"""

from facilitator import safejson
from facilitator.content.importing import ImportProblem, PackImportError  # noqa: F401 (re-exported)
from facilitator.i18n import gettext, skill_name
from facilitator.rules.lyceum import ERA_KEYS, SKILLS, pack_problems
from facilitator.rules.lyceum.cards import COLORS


def color_name(key):
    """A colour as an adjective agreeing with «карта» (``yellow`` -> ``жёлтая``)."""
    return gettext({"green": "green", "yellow": "yellow", "red": "red"}[key])


def era_name(key):
    """An era's name (``lyceum`` -> ``Лицей``)."""
    return gettext({"lyceum": "Lyceum", "university": "University", "adult": "Adult life"}[key])


#: a pack field in words (msgids of content.po)
FIELD_NAMES = {
    "code": "the code", "name": "the name", "direction": "the direction", "skills": "the skills",
    "title": "the title", "era": "the era", "color": "the colour", "text": "the text",
    "conditions": "the conditions", "losses": "the losses", "gains": "the gains", "free": "the free SP",
    "special": "the special ability", "redistribute": "the redistribution",
    "id": "the pack code", "format": "the format", "description": "the description",
    "skill_max": "the skill maximum", "characters": "the characters", "cards": "the cards",
}


def field_name(path):
    """A pack field path in words: ``losses.energy`` -> ``потери: энергия``."""
    parts = [p for p in path.split(".") if p and not p.startswith("[")]
    words = [skill_name(p) if p in SKILLS else gettext(FIELD_NAMES[p]) if p in FIELD_NAMES else p
             for p in parts]
    return ": ".join(words)


def localize_params(params):
    """The numbers of a problem with the game's keys (skill, era, colour) in words."""
    out = dict(params)
    if out.get("color") in COLORS:
        out["color"] = color_name(out["color"])
    if out.get("skill") in SKILLS:
        out["skill"] = skill_name(out["skill"])
    if out.get("era") in ERA_KEYS:
        out["era"] = era_name(out["era"])
    return out


#: how an import states each problem the rules engine finds, by its ``key`` (English msgids,
#: translated in content.po); a key not listed keeps the engine's own sentence
IMPORT_TEMPLATES = {
    "missing": "must be filled in",
    "missing_text": "must be filled in",
    "not_text": "must be text",
    "not_object": "must be a JSON object",
    "not_whole_number": "must be a whole number, not {value!r}",
    "below_minimum": "must be {minimum} or more, got {value}",
    "not_skill_map": "must list skills with numbers, not {value!r}",
    "unknown_skill": "there is no skill {key!r}; the skills are {allowed}",
    "unknown_era": "there is no era {era!r}; the eras are {allowed}",
    "unknown_color": "there is no colour {color!r}; the colours are {allowed}",
    "wrong_format": "must be {expected!r}, not {got!r}",
    "bad_skill_max": "must be empty or a whole number of 1 or more, not {value!r}",
    "levels_missing": "there must be at least one level",
    "level_not_number": "must be a whole number of XP, 0 or more, not {value!r}",
    "level_1_not_zero": "level 1 must begin at 0 XP, not {value}",
    "levels_not_increasing": ("levels must begin ever higher: level {level} at {xp} XP is not above "
                              "level {previous} at {previous_xp} XP"),
    "above_skill_max": "{value} is more than the skill maximum {skill_max}",
    "gains_exact": "a {color} card must give exactly {need} SP (gains + free), got {got}",
    "gains_range": "a {color} card must give {min} to {max} SP (gains + free), got {got}",
    "losses_exact": "a {color} card must cost exactly {need} SP, got {got}",
    "losses_range": "a {color} card must cost {min} to {max} SP, got {got}",
    "special_not_red": "only red cards have a special ability; this is a {color} card",
    "above_maximum": "must be {maximum} or less, got {value}",
    "too_long": "must be at most {limit} characters long, got {length}",
    "not_one_line": "must be one line of text without control characters; found {char} at character {position}",
    "control_character": "must not contain control characters (found {char} at character {position})",
    "too_many": "may list at most {limit}, got {count}",
}
#: the same, where the sentence depends on the item (``card``/``character``) or field
ITEM_TEMPLATES = {
    ("duplicate_code", "card"): "the code is already used by card #{first}",
    ("duplicate_code", "character"): "the code is already used by character #{first}",
    ("empty_list", "characters"): "the pack needs at least one character",
    ("empty_list", "cards"): "the pack needs at least one card",
    ("too_many", "characters"): "a pack holds at most {limit} characters, got {count}",
    ("too_many", "cards"): "a pack holds at most {limit} cards, got {count}",
    ("too_many", "levels"): "a pack lists at most {limit} levels, got {count}",
}


def problem_template(problem):
    """The English template an import uses for an engine ``Problem``."""
    return (ITEM_TEMPLATES.get((problem.key, problem.item)) or ITEM_TEMPLATES.get((problem.key, problem.field))
            or IMPORT_TEMPLATES.get(problem.key) or problem.template)


def problem_text(template, params):
    """A template, translated and filled in with the problem's numbers."""
    return gettext(template, **localize_params(params))


def problem_message(problem):
    """An engine ``Problem`` as an import states it, in the current locale."""
    return problem_text(problem_template(problem), problem.params)


def item_label(problem):
    """Which item of a pack a problem is about, in words (``карта L-G-01``, ``уровень 3``)."""
    if problem.item in ("card", "character"):
        label = problem.code if isinstance(problem.code, str) and problem.code else f"#{(problem.index or 0) + 1}"
        return gettext("card {code}", code=label) if problem.item == "card" else gettext(
            "character {code}", code=label)
    if problem.item == "levels":
        if problem.index is None:
            return gettext("the levels")
        return gettext("level {level}", level=problem.index + 1)
    return gettext("the pack")


def from_pack_problem(problem):
    """An engine ``Problem`` (with ``key``/``params``/``template``) as an ``ImportProblem``
    located by the item's code and field, as a JSON pack is."""
    where = item_label(problem)
    fname = field_name(problem.field or "")
    if fname:
        where = f"{where}, {fname}"
    return ImportProblem(where=where, message=problem_message(problem),
                         key=problem.key, params=dict(problem.params), item=problem.item,
                         index=problem.index, code=problem.code, field=problem.field)


# ----- JSON --------------------------------------------------------------------------------
def json_to_pack(data, pack_id=None, title=None):
    """A ``ContentPack`` from `lyceum-pack/1` JSON text or bytes; raises ``PackImportError``
    listing every problem by card or character code and field. ``pack_id``/``title``, when
    given, replace the file's."""
    try:
        obj = safejson.loads(data, what="JSON")
    except safejson.JSONInputError as err:
        raise PackImportError([_json_problem(err)]) from None
    if isinstance(obj, dict):
        obj.update({k: v for k, v in (("id", pack_id), ("title", title)) if v is not None})
    pack, problems = pack_problems(obj)
    if problems:
        raise PackImportError([from_pack_problem(p) for p in problems])
    return pack


def _json_problem(err):
    """A refusal of ``safejson`` as the one problem of a JSON pack, in the user's language."""
    if err.key == "not_utf8":
        return ImportProblem("", gettext("the file is not UTF-8 text"), "not_utf8")
    if err.key == "not_json":
        return ImportProblem("JSON", gettext("not valid JSON: line {line}, column {column}: {error}", **err.params),
                             "not_json", {"line": err.params["line"], "column": err.params["column"]})
    return ImportProblem("JSON", gettext(err.template, **err.params), err.key, dict(err.params))


def load_pack_bytes(data, filename="", pack_id=None, title=None):
    """A ``ContentPack`` from an uploaded or read file: a workbook or `lyceum-pack/1` JSON, told
    apart by the name (``.xlsx``/``.xlsm``/``.json``), else by the first bytes (a workbook is a
    zip file); raises ``PackImportError``. ``pack_id``/``title`` replace the file's."""
    suffix = filename.lower().rpartition(".")[2] if "." in filename else ""
    if suffix in ("xlsx", "xlsm") or (suffix != "json" and bytes(data[:2]) == b"PK"):
        from facilitator.games.lyceum.excel import workbook_to_pack  # excel.py builds on this module
        return workbook_to_pack(data, pack_id=pack_id, title=title)
    return json_to_pack(data, pack_id=pack_id, title=title)


def pack_to_json(pack):
    """The pack's `lyceum-pack/1` JSON text (UTF-8 letters as they are, indented)."""
    return safejson.dumps_safe(pack.to_dict(), indent=2) + "\n"
