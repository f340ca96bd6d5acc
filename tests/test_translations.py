"""The Russian translations stay complete: every text of the app's screens (the host's tablet,
the organizer's pages, the PIN page and the projector, the pack editor) and every message of
the rules engine has a Russian translation with the same {placeholders}. The printed reports
(``templates/print/``, ``reports.po``) are checked by their own tests.

Message ids are English (facilitator/i18n.py); ``facilitator/translations/ru/*.po`` hold one
catalog per part of the app, merged at run time. These tests extract the msgids the way a
translator's tool would (Babel's Jinja2 and Python extractors, and ``ast`` for the engine's
error templates), so a text added to a template or a view without a translation fails here,
naming the file and line.
"""

import ast
import re
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po
from wtforms.fields.core import UnboundField

from facilitator import i18n
from facilitator.rules.lyceum.ruleset import sample_pack
from facilitator.rules import IllegalMoveError
from facilitator.rules.lyceum import Game, Move, PlayerSetup
from facilitator.rules.lyceum.cards import COLOUR_TEMPLATES
from facilitator.rules.lyceum.moves import MOVE_TYPES
from facilitator.rules.lyceum.skills import SKILLS

ROOT = Path(__file__).resolve().parent.parent
CATALOG_DIR = ROOT / "facilitator" / "translations" / "ru"
#: «16/25»'s own package (its screens, words, templates and catalogs: ARCHITECTURE.md decision 12)
LYCEUM = ROOT / "facilitator" / "games" / "lyceum"
#: the catalogs this test owns: their translations must keep every placeholder exactly
OWN_CATALOGS = ("rules.po", "web.po")

KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "plural_forms": (1, 2), "N_": None}
JINJA = "jinja2.ext.babel_extract"


# ----- what has to be translated ---------------------------------------------------------
TEMPLATES = ROOT / "facilitator" / "templates"
#: template folders translated elsewhere: the printed protocol and results (reports.po)
NOT_SCREENS = {"print"}


def screen_templates():
    """Every template of the screens: ``base.html`` and every folder of ``templates/`` but the
    printed reports' (a folder added later is covered without touching this test)."""
    return sorted([path for path in TEMPLATES.rglob("*.html") if path.relative_to(TEMPLATES).parts[0] not in NOT_SCREENS]
                  + [path for path in (LYCEUM / "templates").rglob("*.html")
                     if path.relative_to(LYCEUM / "templates").parts[0] not in NOT_SCREENS])


def screen_modules():
    """Every module of the web app and of the services (whose texts the screens show)."""
    return sorted((ROOT / "facilitator" / "web").glob("*.py")) + sorted((ROOT / "facilitator" / "services")
                                                                        .glob("*.py")) + [
        LYCEUM / name for name in ("__init__.py", "screens.py", "describe.py", "packs.py", "words.py", "forms.py")]


def ui_sources():
    """The screens: (extraction method, file) for every template and module of the web app."""
    return [(JINJA, f) for f in screen_templates()] + [("python", f) for f in screen_modules()]


def extract_ui_messages():
    """``{msgid: ["file:line", ...]}``, every place a text is used; a plural message's id is
    its ``(singular, plural)`` pair."""
    found = {}
    for method, path in ui_sources():
        options = {"extensions": "jinja2.ext.i18n"} if method == JINJA else {}
        for lineno, message, _comments, _context in extract_from_file(method, str(path), keywords=KEYWORDS,
                                                                       options=options):
            found.setdefault(message, []).append(f"{path.relative_to(ROOT)}:{lineno}")
    return found


#: callee -> position of its English template among the positional arguments
ERROR_TEMPLATE_ARG = {"_illegal": 2, "SetupError": 2, "MalformedError": 1}


def engine_error_calls():
    """Every ``_illegal(rule, code, template)``, ``SetupError(path, code, template)`` and
    ``MalformedError(path, template)`` in the rules engine (and the service adapter, whose
    ``MalformedError`` reaches the screens the same way), as ``(where, template node)``."""
    modules = sorted((ROOT / "facilitator" / "rules" / "lyceum").glob("*.py")) + sorted((ROOT / "facilitator" / "rules").glob("*.py")) + sorted((ROOT / "facilitator" / "services")
                                                                             .glob("*.py"))
    for path in modules:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name not in ERROR_TEMPLATE_ARG:
                continue
            index = ERROR_TEMPLATE_ARG[name]
            if len(node.args) > index:
                template = node.args[index]
            else:
                template = next((k.value for k in node.keywords if k.arg == "template"), None)
            if template is not None:
                yield f"{path.relative_to(ROOT)}:{node.lineno}", template


def engine_templates():
    """``{template: "file:line"}`` of every literal engine error template, and the colour rules'
    templates (``COLOUR_TEMPLATES``) a card breaking RULES.md 1 is refused with."""
    found = {}
    for where, node in engine_error_calls():
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.setdefault(node.value, where)
    for key, template in COLOUR_TEMPLATES.items():
        found.setdefault(template, f"facilitator/rules/cards.py:COLOUR_TEMPLATES[{key!r}]")
    return found


def form_field_names():
    """The names of the host's form fields: form errors are shown as ``_(field): error``."""
    from facilitator.games.lyceum import forms as lyceum_forms
    from facilitator.web import forms
    names = {"csrf_token"}
    for value in list(vars(forms).values()) + list(vars(lyceum_forms).values()):
        if isinstance(value, type) and issubclass(value, forms.BaseForm):
            names.update(attr for klass in value.__mro__ for attr, field in vars(klass).items()
                         if isinstance(field, UnboundField))
    return names


def dynamic_messages():
    """Msgids passed to gettext as variables, which no extractor can see: ``{msgid: why}``."""
    from facilitator.games.lyceum.describe import REASONS
    out = {}
    out.update({s: "skill (i18n.skill_name)" for s in i18n.SKILL_LABELS.values()})
    out.update({e: "era (i18n.era_name)" for e in i18n.ERA_LABELS.values()})
    out.update({c: "colour (i18n.color_name)" for c in i18n.COLOR_LABELS.values()})
    out.update({t: "move type (host undo message, move_name)" for t in MOVE_TYPES})
    out.update({r: "pending SP reason (describe.REASONS)" for r in REASONS.values()})
    out.update({f: "form field (host._form_errors)" for f in form_field_names()})
    return out


# ----- the catalogs ------------------------------------------------------------------------
def catalog_files():
    return sorted(list(CATALOG_DIR.glob("*.po")) + list((LYCEUM / "translations" / "ru").glob("*.po")))


def read_catalog(path):
    with path.open("rb") as fh:
        return read_po(fh, locale="ru", abort_invalid=True)


def merged():
    """The merged Russian catalog the app uses, as ``{msgid: msgstr}`` (plural forms keyed
    ``(msgid, n)``, as ``gettext`` stores them)."""
    return i18n.translations("ru")._catalog


def translation_of(message):
    """The Russian text(s) of a msgid or a ``(singular, plural)`` pair; None when missing."""
    catalog = merged()
    if isinstance(message, tuple):
        forms = [catalog.get((message[0], n)) for n in range(3)]
        return None if None in forms else forms
    return catalog.get(message)


def placeholders(text):
    """The ``str.format`` fields of a text as (name, conversion, format spec)."""
    return {(name, conversion, spec) for _literal, name, spec, conversion in string.Formatter().parse(text)
            if name is not None}


def has_words(msgid):
    """True when the msgid has English words besides its placeholders and the symbols every
    language writes alike: the game's "SP"/"XP", "PIN" and the names of file formats."""
    bare = re.sub(r"\{[^{}]*\}", "", msgid)
    bare = re.sub(r"\b(sp|xp|pin|pdf|xlsx|excel|json|qr)\b", "", bare, flags=re.IGNORECASE)
    return re.search(r"[A-Za-z]", bare) is not None


CYRILLIC = re.compile(r"[А-Яа-яЁё]")

UI_PLACES = extract_ui_messages()
UI_MESSAGES = {message: places[0] for message, places in UI_PLACES.items()}  # named on a failure
ENGINE_TEMPLATES = engine_templates()
DYNAMIC = dynamic_messages()


def check_translated(message, where):
    text = translation_of(message)
    assert text, f"{where}: no Russian translation of {message!r}"
    for form in (text if isinstance(text, list) else [text]):
        assert form.strip(), f"{where}: empty Russian translation of {message!r}"
        if has_words(message if isinstance(message, str) else message[0]):
            assert CYRILLIC.search(form), f"{where}: {message!r} is 'translated' as {form!r}, not into Russian"


# ----- the catalogs parse and are final ----------------------------------------------------
def test_the_russian_catalogs_are_there():
    names = {p.name for p in catalog_files()}
    assert set(OWN_CATALOGS) <= names


@pytest.mark.parametrize("path", catalog_files(), ids=lambda p: p.name)
def test_catalog_parses_without_fuzzy_or_duplicate_entries(path):
    catalog = read_catalog(path)
    assert len(catalog) > 0
    fuzzy = [m.id for m in catalog if m.id and m.fuzzy]
    assert not fuzzy, f"{path.name}: fuzzy entries are not used by the app: {fuzzy}"
    # read_po folds a repeated msgid into one entry, silently dropping a translation
    entries = sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("msgid "))
    assert entries - 1 == len(catalog), f"{path.name}: a msgid is defined twice"


@pytest.mark.parametrize("path", catalog_files(), ids=lambda p: p.name)
def test_a_translation_uses_only_placeholders_it_is_given(path):
    """A field the code does not pass would raise KeyError on the screen. (A catalog may
    format a field its own way, e.g. a date as ``{date:%d.%m.%Y}``; in the catalogs this test
    owns every field is kept exactly, format spec included.)"""
    for message in read_catalog(path):
        if not message.id or not message.string:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        given = set().union(*(placeholders(i) for i in ids))
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        for form in forms:
            assert {p[0] for p in placeholders(form)} <= {p[0] for p in given}, \
                f"{path.name}: {message.id!r} -> {form!r}"
            if path.name in OWN_CATALOGS and not isinstance(message.id, tuple):
                assert placeholders(form) == given, f"{path.name}: {message.id!r} -> {form!r}"


def test_a_msgid_in_two_catalogs_has_one_translation():
    """The merged catalog keeps only one translation of a msgid: two different ones would
    make one part of the app silently say the other part's words."""
    seen = {}
    clashes = []
    for path in catalog_files():
        for message in read_catalog(path):
            if not message.id or not message.string:
                continue
            if message.id in seen and seen[message.id][1] != message.string:
                clashes.append(f"{message.id!r}: {seen[message.id][0]} {seen[message.id][1]!r} "
                               f"vs {path.name} {message.string!r}")
            seen.setdefault(message.id, (path.name, message.string))
    assert not clashes, "\n".join(clashes)


# ----- the screens ----------------------------------------------------------------------------
def test_the_extraction_covers_every_screen_and_no_printed_report():
    folders = {path.relative_to(TEMPLATES if TEMPLATES in path.parents else LYCEUM / "templates").parts[0]
               for path in screen_templates()}
    assert {"base.html", "host", "organizer", "public", "packs"} <= folders
    assert not folders & NOT_SCREENS
    names = {path.name for path in screen_modules()}
    assert {"host.py", "organizer.py", "public.py", "packs.py", "auth.py", "api.py", "commands.py",
            "tables.py", "events.py", "access.py"} <= names


@pytest.mark.parametrize("message, where", [
    ("Share experience", "facilitator/games/lyceum/templates/host/turn.html"),
    (("Winner: {names}", "Winners: {names}"), "facilitator/games/lyceum/templates/host/final.html"),  # ngettext
    ("The move was not recorded: {error}", "facilitator/games/lyceum/screens.py"),
    ("Sign out", "facilitator/templates/organizer/_signout.html"),  # an included partial
    ("Open the projector view", "facilitator/templates/organizer/event.html"),
    ("Rename, new PIN, waiting moves, reopen", "facilitator/templates/organizer/event.html"),
    ("provisional: the games are still on", "facilitator/games/lyceum/templates/public/games/lyceum-16-25.html"),
    ("No connection to the server: showing the last known results", "facilitator/templates/public/projector.html"),
    ("Enter your table's PIN", "facilitator/templates/public/pin.html"),
    ("Upload your deck", "facilitator/games/lyceum/templates/packs/index.html"),
    ("Special (red cards only)", "facilitator/games/lyceum/templates/packs/card.html"),
    ("Wrong password", "facilitator/web/organizer.py"),
    ("No table has this PIN", "facilitator/web/public.py"),
    ("Pack «{title}» imported (version {v})", "facilitator/games/lyceum/packs.py"),
    ("Sign in as the organizer to open this page", "facilitator/web/auth.py"),
    ("There is no move to undo", "facilitator/web/table.py"),  # the one refusal wording of every table
])
def test_the_extractors_find_the_screens_texts(message, where):
    """Guards the extraction itself: a known text of each kind of source is found where it is."""
    assert message in UI_PLACES, f"{message!r} is not extracted from {where}"
    assert any(place.startswith(where + ":") for place in UI_PLACES[message]), UI_PLACES[message]


def test_the_extraction_finds_many_texts():
    assert len(UI_MESSAGES) > 250


@pytest.mark.parametrize("message", sorted(UI_MESSAGES, key=str), ids=str)
def test_every_screen_text_has_a_russian_translation(message):
    check_translated(message, UI_MESSAGES[message])


@pytest.mark.parametrize("message", sorted(DYNAMIC), ids=str)
def test_every_word_passed_to_gettext_as_a_variable_is_translated(message):
    check_translated(message, DYNAMIC[message])


# ----- the rules engine's messages --------------------------------------------------------------
def test_the_engine_templates_are_found():
    assert "not eligible: {shortfalls}" in ENGINE_TEMPLATES  # _illegal
    assert "the extra SP must sum to exactly {need}, got {got}" in ENGINE_TEMPLATES  # SetupError
    assert "must be a whole number, got {value!r}" in ENGINE_TEMPLATES  # MalformedError
    assert "{skill} cannot go below 0: it would be {have} {delta:+d}" in ENGINE_TEMPLATES
    assert len(ENGINE_TEMPLATES) > 50


@pytest.mark.parametrize("template", sorted(ENGINE_TEMPLATES), ids=str)
def test_every_engine_message_is_translated_with_the_same_placeholders(template):
    where = ENGINE_TEMPLATES[template]
    check_translated(template, where)
    russian = translation_of(template)
    assert placeholders(russian) == placeholders(template), f"{where}: {template!r} -> {russian!r}"


def test_every_engine_error_carries_a_literal_template():
    # a colour rule's template comes from COLOUR_TEMPLATES (checked below like any literal)
    computed = [where for where, node in engine_error_calls()
                if not (isinstance(node, ast.Constant) and isinstance(node.value, str))
                and not (isinstance(node, ast.Attribute) and node.attr == "template")]
    assert not computed, f"templates computed at run time cannot be translated: {computed}"


# ----- the messages as the host reads them ------------------------------------------------------
def sample_game():
    pack = sample_pack()
    players = [PlayerSetup(name=name, born=born, character=code, extra={"health": 5})
               for name, born, code in (("Аня", "2009-01-01", "C01"), ("Борис", "2009-02-01", "C02"),
                                        ("Вика", "2009-03-01", "C03"))]
    return Game(pack, players)


def refusal(game, move):
    with pytest.raises(IllegalMoveError) as caught:
        game.check(move)
    return caught.value


def test_an_engine_refusal_reads_in_russian_and_in_english():
    game = sample_game()
    first, second = game.order[0], game.order[1]
    level = game.level(first)
    health = game.players[first].skills["health"]
    cases = [
        (Move("share", player=first),
         f"поделиться опытом можно с 3-го уровня, а у игрока {first} уровень {level}",
         f"sharing needs level 3 or higher; {first} is level {level}"),
        (Move("pass", player=second),
         f"сейчас ходит {first} (раунд 1), а не {second}",
         f"it is {first}'s turn (round 1), not {second}'s"),
        (Move("adjust", player=first, sp={"health": -(health + 1)}, reason="проверка"),
         f"здоровье не может стать меньше 0: у игрока {first} {health}, изменение {-(health + 1)}",
         f"health cannot go below 0: {first} has {health}, change {-(health + 1)}"),
    ]
    for move, russian, english in cases:
        err = refusal(game, move)
        with i18n.use_locale("ru"):
            assert i18n.translate_error(err) == russian
        with i18n.use_locale("en"):
            assert i18n.translate_error(err) == english


def test_a_signed_change_keeps_its_sign_in_russian():
    game = sample_game()
    first = game.order[0]
    after = dict(game.players[first].skills, energy=game.players[first].skills["energy"] + 1)
    skill = min((s for s in SKILLS if s != "energy"), key=after.get)
    other = next(s for s in SKILLS if s not in (skill, "energy"))
    delta = -(after[skill] + 1)
    limit = game.rest_limit(1)
    if -delta > limit:
        pytest.skip("the sample characters have no skill low enough for a Lyceum rest")
    err = refusal(game, Move("rest", player=first, redistribute={skill: delta, other: -delta}))
    with i18n.use_locale("ru"):
        assert i18n.translate_error(err) == (
            f"{i18n.skill_name(skill)} не может стать меньше 0: получится {after[skill]} {delta:+d}")


@pytest.mark.parametrize("key, russian", [("lyceum", "Лицей"), ("university", "Универ"),
                                          ("adult", "Взрослая жизнь")])
def test_eras_have_their_rulebook_names(key, russian):
    with i18n.use_locale("ru"):
        assert i18n.era_name(key) == russian


@pytest.mark.parametrize("key, russian", [("green", "зелёная"), ("yellow", "жёлтая"), ("red", "красная")])
def test_colours_read_as_adjectives_of_a_card(key, russian):
    with i18n.use_locale("ru"):
        assert i18n.color_name(key) == russian
        assert i18n.gettext("{player} draws a {color} card", player="Аня",
                            color=i18n.color_name(key)) == f"Аня: {russian} карта"


def test_a_refusal_names_eras_and_colours_in_russian():
    game = sample_game()
    first = game.order[0]
    wrong_era = refusal(game, Move("draw", player=first, color="green", card="U-G-01", decision="discard"))
    wrong_colour = refusal(game, Move("draw", player=first, color="yellow", card="L-G-01", decision="discard"))
    with i18n.use_locale("ru"):
        assert i18n.translate_error(wrong_era) == "карта U-G-01 из эпохи «Универ», а раунд 1 — в эпохе «Лицей»"
        assert i18n.translate_error(wrong_colour) == "карта L-G-01 — зелёная, а выбрана жёлтая колода"


def test_plurals_follow_the_russian_rule():
    rule = i18n.translations("ru").plural
    forms = {1: 0, 3: 1, 5: 2, 11: 2, 21: 0, 24: 1}  # победитель, победителя, победителей
    assert {n: rule(n) for n in forms} == forms
