"""The New Angeles tracker speaks English (its cards' language), Swedish and Russian: every text
of its screens, its printed protocol, its web module and every refusal of its engine has a
Swedish and a Russian translation with the same {placeholders}, and every event of a
``MoveResult`` the screens narrate is worded (never shown as its code).

Msgids are extracted as a translator's tool would (Babel's Jinja2 and Python extractors, ``ast``
for the engine's ``_illegal``/``SetupError``/``MalformedError`` templates), so a text added
without a translation fails here, naming its file and line."""

import ast
import re
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

from facilitator import i18n
from facilitator.games.newangeles import GAME as GAME_PACKAGE
from facilitator.games.newangeles.words import event_line
from facilitator.rules.newangeles import default_pack

import conftest as root  # tests/conftest.py: how a fresh database is made


@pytest.fixture
def db_url(tmp_path, tmp_path_factory):
    """SQLite only: nothing here is about the storage (the tracker's words in each language)."""
    return root.sqlite_database(tmp_path, tmp_path_factory)

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "facilitator" / "games" / "newangeles"  # the game's package
TEMPLATES = GAME / "templates"
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2)}
JINJA = "jinja2.ext.babel_extract"
LOCALES = ("sv", "ru")
OWN = {"sv": GAME / "translations/sv/newangeles.po",
       "ru": GAME / "translations/ru/newangeles.po"}


def sources():
    out = [(JINJA, p) for p in sorted(TEMPLATES.rglob("*.html"))]
    out += [("python", p) for p in sorted(GAME.glob("*.py"))]
    return out


def ui_messages():
    found = {}
    for method, path in sources():
        options = {"extensions": "jinja2.ext.i18n"} if method == JINJA else {}
        for lineno, message, _c, _x in extract_from_file(method, str(path), keywords=KEYWORDS, options=options):
            found.setdefault(message, f"{path.relative_to(ROOT)}:{lineno}")
    return found


ERROR_TEMPLATE_ARG = {"_illegal": 2, "SetupError": 2, "MalformedError": 1}


def engine_templates():
    found = {}
    for path in sorted((ROOT / "facilitator/rules/newangeles").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name in ERROR_TEMPLATE_ARG and len(node.args) > ERROR_TEMPLATE_ARG[name]:
                template = node.args[ERROR_TEMPLATE_ARG[name]]
                assert isinstance(template, ast.Constant), f"{path.name}:{node.lineno}: a computed template"
                found.setdefault(template.value, f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def engine_event_codes():
    """Every code the engine's ``MoveResult.note`` is called with (``game.py``)."""
    codes = set()
    tree = ast.parse((ROOT / "facilitator/rules/newangeles/game.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "note" and node.args:
            arg = node.args[0]
            if isinstance(arg, ast.Constant):
                codes.add(arg.value)
            elif isinstance(arg, ast.IfExp):
                codes.update(x.value for x in (arg.body, arg.orelse) if isinstance(x, ast.Constant))
    return codes


UI = ui_messages()
ENGINE = engine_templates()
ALL = {**{m: w for m, w in UI.items()}, **ENGINE}


def placeholders(text):
    return {(name, conversion, spec) for _lit, name, spec, conversion in string.Formatter().parse(text)
            if name is not None}


def translation(locale, message):
    catalog = i18n.translations(locale)._catalog
    if isinstance(message, tuple):
        forms = [catalog.get((message[0], n)) for n in range(3 if locale == "ru" else 2)]
        return None if None in forms else forms
    return catalog.get(message)


def test_the_extraction_finds_the_screens_the_protocol_and_the_engine():
    assert "Record the deal" in UI and "Capital by round" in UI and "Winners per table" in UI
    assert ("Winner: {names}", "Winners: {names}") in UI
    assert "{player} countered twice" in ENGINE and "the active player countered" in ENGINE
    assert "corporation {corp} is played by {other} and {player}" in ENGINE  # SetupError
    assert "must be a whole number, got {value!r}" in ENGINE  # MalformedError
    assert len(UI) > 250 and len(ENGINE) > 70


@pytest.mark.parametrize("locale", LOCALES)
def test_every_text_has_a_translation_with_the_same_placeholders(locale):
    problems = []
    for message, where in sorted(ALL.items(), key=lambda kv: str(kv[0])):
        text = translation(locale, message)
        if not text:
            problems.append(f"{where}: no {locale} translation of {message!r}")
            continue
        ids = message if isinstance(message, tuple) else (message,)
        for form in (text if isinstance(text, list) else [text]):
            if not form.strip():
                problems.append(f"{where}: empty {locale} translation of {message!r}")
            elif placeholders(form) not in [placeholders(i) for i in ids]:
                problems.append(f"{where}: {message!r} -> {form!r} ({locale}) changes the placeholders")
    assert not problems, "\n".join(problems)


def test_russian_translations_are_russian():
    cyrillic = re.compile(r"[А-Яа-яЁё]")
    bare = [m for m in ALL if isinstance(m, str) and re.search(r"[A-Za-z]{3,}", re.sub(r"\{[^{}]*\}", "", m))]
    not_russian = [m for m in bare if not cyrillic.search(translation("ru", m) or "")
                   and m not in ("Federalist",) and not m.startswith(("next_", "end_round", "event_threat"))]
    assert not not_russian, not_russian


@pytest.mark.parametrize("locale", LOCALES)
def test_the_own_catalog_parses_without_fuzzy_or_duplicate_entries(locale):
    path = OWN[locale]
    with path.open("rb") as fh:
        catalog = read_po(fh, locale=locale, abort_invalid=True)
    assert not [m.id for m in catalog if m.id and m.fuzzy]
    entries = sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("msgid "))
    assert entries - 1 == len(catalog), f"{path.name}: a msgid is defined twice"
    for m in catalog:
        if m.id and m.string and isinstance(m.id, str):
            assert placeholders(m.string) == placeholders(m.id), (m.id, m.string)


@pytest.mark.parametrize("locale", ("en",) + LOCALES)
def test_every_event_the_engine_notes_is_worded(locale):
    params = {"from": "Anna", "to": "Vera", "capital": 2, "assets": ["A05"], "n": 1, "won_by": "main",
              "winner": "Anna", "tie": False, "main": 2, "counter": 1, "overridden": True, "player": "Anna",
              "asset": "A05", "corp": "jinteki", "event": "E07", "threat": 3, "before": 12, "after": 15,
              "added": 3, "capped": False, "reason": "event", "threat_max": 25, "card": "I04", "short": {"tech": 1},
              "threat_added": 6, "targets": {"energy": 4}, "resource": "energy", "amount": 2, "supply": 3,
              "state": "facedown", "rival": "federalist", "rival_player": None, "ended_by": "threat",
              "winners": ["Vera"], "losers": ["Anna"], "energy": 2}
    pack = default_pack()
    with i18n.use_locale(locale):
        for code in sorted(engine_event_codes()):
            given = dict(params, **({"from": "S1", "to": "S2"} if code == "round_advanced" else {}))
            if code == "production":
                given = {"energy": 2, "tech": 1}
            text = event_line(code, given, pack)
            assert text and text != code and "{" not in text, (code, text)


def test_a_refusal_and_a_screen_in_swedish_and_in_russian(app):
    from facilitator.rules.newangeles import IllegalMoveError, read_move
    from tests.conftest import organizer_browser
    from tests.newangeles_web.helpers import load, seated
    client = organizer_browser(app, lang="sv")
    table_id = seated(app, client)
    page = client.get(f"/na/table/{table_id}").get_data(as_text=True)
    assert "Affär 1 av 3" in page and "Hot" in page and 'lang="sv"' in page
    game = load(app, table_id).game
    move = read_move({"type": "deal", "active": "Anna", "asset": "A1", "main": {"card": "X"},
                      "counteroffers": [{"player": "Boris", "card": "Y"}, {"player": "Boris", "card": "Z"}],
                      "support": []})
    with pytest.raises(IllegalMoveError) as caught:
        game.check(move)
    with i18n.use_locale("sv"):
        assert i18n.translate_error(caught.value) == "Boris lade motförslag två gånger"
    with i18n.use_locale("ru"):
        assert i18n.translate_error(caught.value) == "Boris сделал контрпредложение дважды"
    ru = organizer_browser(app, lang="ru")
    page = ru.get(f"/na/table/{table_id}").get_data(as_text=True)
    assert "Сделка 1 из 3" in page and 'lang="ru"' in page
    # an unknown language falls back to the game's own, English
    other = organizer_browser(app, lang="fi")
    assert 'lang="en"' in other.get(f"/na/table/{table_id}").get_data(as_text=True)


#: the record's keys a refusal used to show on the screens (issue 20): the fields' labels stand there
JSON_KEYS = re.compile(r"\b(assets_left|override_reason|extra_reason|next_assets|next_demand|event_threat|"
                       r"first_player|remove_assets|end_round|demand_round|support_tie|active_chooses|finish)\b")


@pytest.mark.parametrize("locale", ("en",) + LOCALES)
def test_no_engine_refusal_shows_a_records_key_on_the_screens(locale):
    """Every engine refusal in every language of the game words its fields by their labels on the
    screens (English too: ``translations/en`` words the engine's English for the screens)."""
    leaks = []
    with i18n.use_locale(locale):
        for template, where in engine_templates().items():
            text = i18n.gettext(template)
            if JSON_KEYS.search(re.sub(r"\{[^}]*\}", "", text)):  # the words, not the {placeholders}
                leaks.append(f"{where}: {text!r}")
    assert not leaks, "\n".join(leaks)


def test_swedish_refusals_name_the_fields_by_their_labels_with_the_numbers(app):
    from tests.conftest import organizer_browser
    from tests.newangeles_web.helpers import deal_json, move_post, seated
    client = organizer_browser(app, lang="sv")
    table_id = seated(app, client)
    negative = move_post(client, table_id, "adjust", {"after": 0, "reason": "korteffekt", "assets_left": -9})
    assert negative.status == 422
    assert "Tillgångskort kvar skulle bli -6: 3 kvar, ändrat med -9; det kan inte bli under 0" in negative.error
    override = move_post(client, table_id, "deal", deal_json("Anna", counters=["Boris"], support=[("Vera", "main", 2)],
                                                             after=0, winner="counter"))
    assert override.status == 422
    assert "utan skäl för ändringen" in override.error and "override_reason" not in override.error
    # a field that is not there is named by its label, not left as a bare «saknas»
    missing = move_post(client, table_id, "capital", {"after": 0, "player": "Anna", "reason": "event"})
    assert missing.status == 400 and "Belopp: ett tal behövs" in missing.error
    errors = GAME_PACKAGE.error_text
    with i18n.use_locale("sv"):
        from facilitator.rules.errors import MalformedError
        assert errors(MalformedError("move.counteroffers[1].player", "is missing")) == "Motförslag 2, Spelare: saknas"
        assert errors(MalformedError("move.asset", "is missing")) == "Tillgångskort: saknas"


def test_refusals_name_corporations_resources_and_moves_by_their_names(app):
    """A refusal names a corporation by the pack's name for it, in the screen's language («Anna
    spelar NBN», never the key «nbn»); how a game ended, what it waits for and a kind of card in
    words; the outbox names a capital move «capital change», not by its key (issue 20)."""
    from facilitator.rules.errors import IllegalMoveError, SetupError
    from tests.conftest import organizer_browser
    from tests.newangeles_web.helpers import deal_json, move_post, seated
    client = organizer_browser(app, lang="sv")
    table_id = seated(app, client)
    other = move_post(client, table_id, "deal", deal_json("Anna", main={"emergency": "nbn"}, after=0))
    assert other.status == 422
    assert "Anna spelar NBN, vars kort inte är Annas" in other.error and "nbn" not in other.error
    pack = default_pack()
    errors = GAME_PACKAGE.error_text
    twice = SetupError("setup", "corporation_twice", "corporation {corp} is played by {other} and {player}",
                       corp="weyland", other="Anna", player="Leo")
    early = IllegalMoveError("§8", "finish_early", "finish before the end: the game waits for {expects}",
                             expects="end_round")
    code = IllegalMoveError("§1", "unknown_code", "unknown {card} code {code}: the pack lists its {card} cards",
                            card="asset", code="A99")
    ended = IllegalMoveError("D19", "after_end", "move after the end: the game ended by {ended_by}; only finish "
                             "is accepted", ended_by="threat")
    resource = IllegalMoveError("D11", "supply_negative", "supply below 0: {resource} {supply} {delta:+d} = {after}",
                                resource="tech", supply=1, delta=-2, after=-1)
    with i18n.use_locale("sv"):
        assert errors(twice, pack) == "korporationen Weyland Consortium spelas av Anna och Leo"
        assert errors(early, pack) == "avslöjandet före slutet: spelet väntar på rundans slut"
        assert errors(code, pack) == "okänt tillgångskort A99: paketet har inget sådant kort"
        assert errors(ended, pack) == ("drag efter slutet: spelet slutade genom stadens övertagande; bara "
                                       "avslöjandet av agendorna tas emot")
        assert GAME_PACKAGE.move_names()["capital"] == "kapitaländring"
    with i18n.use_locale("ru"):
        assert errors(resource, pack).startswith("запасы ниже 0: Технологии 1 -2")
    with i18n.use_locale("en"):
        assert errors(twice, pack) == "corporation Weyland Consortium is played by Anna and Leo"
        assert GAME_PACKAGE.move_names() == {**GAME_PACKAGE.move_names(), "capital": "capital change",
                                             "threat": "threat change", "supply": "supply change"}
