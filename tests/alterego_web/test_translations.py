"""Alter Ego speaks Finnish (the game's own language), English (the msgids) and Russian: every
text of its screens, its protocol and deck workbook, every refusal the engine can give
(``facilitator/rules/alterego``) and every word of the "what changed" lines has a Finnish and a
Russian translation with the same {placeholders}.

The msgids are extracted as a translator's tool would (Babel's Jinja2 and Python extractors,
``N_`` marking ids defined in one place), the engine's templates with ``ast``: a text added
without its translations fails here, naming its file and line."""

import ast
import re
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

from facilitator import i18n

ROOT = Path(__file__).resolve().parents[2]
PKG = ROOT / "facilitator"
KEYWORDS = {"_": None, "gettext": None, "N_": None, "ngettext": (1, 2)}
JINJA = "jinja2.ext.babel_extract"
GAME = PKG / "games" / "alterego"  # the game's package: its screens, words, templates, catalogs
CATALOGS = {"fi": GAME / "translations" / "fi" / "alterego.po", "ru": GAME / "translations" / "ru" / "alterego.po"}

TEMPLATES = sorted((GAME / "templates").rglob("*.html"))
MODULES = sorted(GAME.glob("*.py"))
ENGINE = sorted((PKG / "rules" / "alterego").glob("*.py"))
#: callee -> position of its English template among the positional arguments
TEMPLATE_ARG = {"_illegal": 2, "IllegalMoveError": 2, "SetupError": 2, "MalformedError": 1, "PackProblem": 5,
                "problem": 2}
#: the setup form's field names, shown before a form error (``_(name)``)
FORM_FIELDS = ("name", "born", "actives", "first", "rev", "csrf_token", "after")


def extract():
    found = {}
    for path in TEMPLATES:
        for lineno, message, _c, _x in extract_from_file(JINJA, str(path), keywords=KEYWORDS,
                                                         options={"extensions": "jinja2.ext.i18n"}):
            found.setdefault(message, f"{path.relative_to(ROOT)}:{lineno}")
    for path in MODULES:
        for lineno, message, _c, _x in extract_from_file("python", str(path), keywords=KEYWORDS):
            found.setdefault(message, f"{path.relative_to(ROOT)}:{lineno}")
    for name in FORM_FIELDS:
        found.setdefault(name, "form field (alterego._form_errors)")
    return found


def engine_templates():
    """``{template: "file:line"}`` of every literal refusal template of the Alter Ego engine."""
    found = {}
    for path in ENGINE:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            index = TEMPLATE_ARG.get(name)
            if index is None or len(node.args) <= index:
                continue
            arg = node.args[index]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found.setdefault(arg.value, f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


MESSAGES = extract()
ENGINE_TEMPLATES = engine_templates()
ALL = {**ENGINE_TEMPLATES, **MESSAGES}


def fields(text):
    return {(name, conversion, spec) for _l, name, spec, conversion in string.Formatter().parse(text)
            if name is not None}


def catalog(locale):
    return i18n.translations(locale)._catalog


def translated(locale, message):
    cat = catalog(locale)
    if isinstance(message, tuple):
        forms = [cat.get((message[0], n)) for n in range(3 if locale == "ru" else 2)]
        return None if None in forms else forms
    return cat.get(message)


def test_the_extraction_finds_every_kind_of_source():
    assert "Draw {n} cards" in MESSAGES  # a template
    assert "The move was not recorded: {error}" in MESSAGES  # the web module
    assert "Spring fatigue" in MESSAGES  # marked with N_ in the words of the reports
    assert "{column} must be a whole number ≥ {minimum}" in MESSAGES  # the deck workbook
    assert "Season changes and their start effects" in MESSAGES  # the printed protocol
    assert ("Winner: {names}", "Winners: {names}") in MESSAGES  # ngettext
    assert "P6: {target} already received an activity this turn ({activity})" in ENGINE_TEMPLATES  # _illegal
    assert "each player is dealt exactly {need} actives, got {got}" in ENGINE_TEMPLATES  # SetupError
    assert "must be a whole number, got {value!r}" in ENGINE_TEMPLATES  # a pack problem (_Reader.problem)
    assert "a pack needs at least 6 actives (2 players of 3), got {count}" in ENGINE_TEMPLATES
    assert len(MESSAGES) > 250 and len(ENGINE_TEMPLATES) > 100


@pytest.mark.parametrize("locale", ["fi", "ru"])
@pytest.mark.parametrize("message", sorted(ALL, key=str), ids=str)
def test_every_text_is_translated_with_the_same_placeholders(locale, message):
    where = ALL[message]
    text = translated(locale, message)
    assert text, f"{where}: no {locale} translation of {message!r}"
    ids = message if isinstance(message, tuple) else (message,)
    for form in (text if isinstance(text, list) else [text]):
        assert form.strip(), f"{where}: empty {locale} translation of {message!r}"
        assert fields(form) == fields(ids[0]) or fields(form) <= set().union(*(fields(i) for i in ids)), \
            f"{where}: {message!r} -> {form!r}"
        # words, not symbols every language writes alike (file formats; the cards' VA, BO, U)
        bare = re.sub(r"\b(pdf|xlsx|excel|json)\b", "", re.sub(r"\{[^{}]*\}", "", ids[0]), flags=re.IGNORECASE)
        if locale == "ru" and re.search(r"[A-Za-z]{3}", bare):
            assert re.search(r"[А-Яа-яЁё]", form), f"{where}: {message!r} is not translated into Russian: {form!r}"


@pytest.mark.parametrize("locale", ["fi", "ru"])
def test_the_catalogs_parse_without_fuzzy_or_duplicate_entries(locale):
    path = CATALOGS[locale]
    with path.open("rb") as fh:
        cat = read_po(fh, locale=locale, abort_invalid=True)
    assert not [m.id for m in cat if m.id and m.fuzzy]
    entries = sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("msgid "))
    assert entries - 1 == len(cat), f"{path.name}: a msgid is defined twice"
    for m in cat:
        if m.id and m.string and not isinstance(m.id, tuple):
            assert fields(m.string) == fields(m.id), (m.id, m.string)


def test_a_refusal_reads_in_finnish_russian_and_english():
    from facilitator.games.alterego.words import error_text
    from facilitator.rules.alterego import Game, IllegalMoveError, Move, default_pack, read_setup
    pack = default_pack()
    game = Game(pack, read_setup({"players": [{"name": "Aino", "actives": ["pare", "ville", "meira"]},
                                              {"name": "Bertta", "actives": ["niksu", "tommi", "imaami"]}],
                                  "first": "Aino"}))
    game.apply(Move("draw", player="Aino"))
    game.apply(Move("play_activity", player="Aino", card="pelikampanja", target="meira"))
    with pytest.raises(IllegalMoveError) as refused:
        game.check(Move("play_activity", player="Aino", card="tyo", target="meira"))
    texts = {}
    for locale in ("fi", "en", "ru"):
        with i18n.use_locale(locale):
            texts[locale] = error_text(refused.value, pack)
    # the activity by its card, not by its id (a2), which a host never sees
    assert texts["en"] == "P6: Meira already received an activity this turn (Pelikampanja)"
    assert texts["fi"].startswith("P6: Meira") and "Pelikampanja" in texts["fi"] and "a2" not in texts["fi"]
    assert texts["fi"] != texts["en"]
    assert texts["ru"].startswith("P6: Meira") and re.search(r"[А-Яа-я]", texts["ru"])


def test_the_move_lines_are_in_the_pages_language():
    from facilitator.games.alterego.words import result_lines
    from facilitator.rules.alterego import Game, Move, default_pack, read_setup
    pack = default_pack()
    game = Game(pack, read_setup({"players": [{"name": "Aino", "actives": ["pare", "ville", "meira"]},
                                              {"name": "Bertta", "actives": ["niksu", "tommi", "imaami"]}],
                                  "first": "Aino"}))
    game.apply(Move("draw", player="Aino"))
    result = game.apply(Move("play_event", player="Aino", card="hahmo_kuolee", target="tommi"))
    with i18n.use_locale("fi"):
        fi = result_lines(result, pack)
    with i18n.use_locale("ru"):
        ru = result_lines(result, pack)
    assert "Hahmo kuolee" in fi[0] and "Tommi" in fi[0] and fi[0] != "#2 Aino plays Hahmo kuolee → Tommi"
    assert re.search(r"[А-Яа-я]", ru[0]) and "Hahmo kuolee" in ru[0]


def test_a_refusal_lists_the_actives_one_may_choose_by_their_names():
    """The options and allowed values a refusal lists are actives by their printed names, never
    their keys (issue 20: no key on a screen)."""
    from facilitator.games.alterego.words import active_name, error_text
    from facilitator.rules.alterego import IllegalMoveError, default_pack
    from facilitator.rules.errors import MalformedError
    pack = default_pack()
    couple = IllegalMoveError("§3.6", "choose_not_partner", "§3.6: {given} is not one of the couple that may move "
                              "({options})", given="tommi", options="pare, jaakko")
    unknown = MalformedError("move.target", "unknown active {active!r}; the pack has {allowed}", active="x",
                             allowed="pare, jaakko")
    with i18n.use_locale("fi"):
        text = error_text(couple, pack)
        listed = error_text(unknown, pack)
    names = f"{active_name(pack, 'pare')}, {active_name(pack, 'jaakko')}"
    assert names in text and "pare, jaakko" not in text and active_name(pack, "tommi") in text
    assert names in listed and "pare, jaakko" not in listed
