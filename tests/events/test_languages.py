"""The language of its users, everywhere (issue 20, items 1 and 2): every shared page negotiates
the browser's language among ru, en, fi and sv and its switch offers all four; a game's screens
speak one of its game's languages; an event speaks the language chosen at its creation (by
default its game's first) on its projector, access sheet and QR link and in its tables' names;
the game is the first choice of a new table or event, then that game's packs by their names."""

import re
import subprocess
from html import unescape

import pytest

from facilitator import games, services
from facilitator.i18n import ALL_LOCALES, gettext, use_locale
from facilitator.storage.models import GameTable
from tests.pages import db, organizer_browser, send

import conftest as root  # tests/conftest.py: how a fresh database is made


@pytest.fixture
def db_url(tmp_path, tmp_path_factory):
    """SQLite only: nothing here is about the storage (the language of every page)."""
    return root.sqlite_database(tmp_path, tmp_path_factory)

LYCEUM, ALTER_EGO, NEW_ANGELES = "lyceum-16-25", "alter-ego-3", "new-angeles"


def lang_of(response):
    match = re.search(r'<html lang="(\w+)">', response.get_data(as_text=True))
    return match and match.group(1)


def words(locale, message):
    with use_locale(locale):
        return gettext(message)


@pytest.mark.parametrize("asked, speaks", [
    (None, "ru"), ("fi-FI,fi;q=0.9", "fi"), ("sv", "sv"), ("en-GB,en;q=0.8", "en"),
    ("de-DE,de;q=0.9,sv;q=0.5", "sv"),  # the best the app speaks
    ("de", "en"),  # nothing it speaks: English
])
def test_every_shared_page_speaks_the_browsers_language(app, asked, speaks):
    browser = app.test_client()
    headers = {"Accept-Language": asked} if asked else {}
    for url, phrase in (("/", "New table"), ("/pin", "Enter your table's PIN"), ("/organizer/login", "Password"),
                        ("/events", "Results on the projector"), ("/no-such-page", "Start page")):
        page = browser.get(url, headers=headers)
        assert lang_of(page) == speaks, (url, asked)
        html = unescape(page.get_data(as_text=True))
        assert words(speaks, phrase) in html, (url, speaks, phrase)
        switch = re.search(r'<nav class="lang">(.*?)</nav>', html, re.S).group(1)
        assert re.findall(r'href="\?lang=(\w+)"', switch) == list(ALL_LOCALES), url
    # a choice on the switch outweighs the browser's wish, on every page after it
    browser.get("/?lang=fi", headers=headers)
    assert lang_of(browser.get("/pin", headers=headers)) == "fi"


def test_a_game_screen_speaks_one_of_its_games_languages(app):
    """A Swedish browser: New Angeles in Swedish; «16/25» (ru, en) in English, not Russian."""
    with db(app) as s:
        ids = {key: services.create_table(s, "T", services.packs.ensure_sample(s, key)).id
               for key in (LYCEUM, NEW_ANGELES)}
    organizer = organizer_browser(app)
    swedish = {"Accept-Language": "sv-SE,sv;q=0.9"}
    with app.test_request_context():
        from facilitator.web.games import screen_url
        with db(app) as s:
            urls = {key: screen_url(s.get(GameTable, table_id), "setup") for key, table_id in ids.items()}
    na = organizer.get(urls[NEW_ANGELES], headers=swedish)
    assert na.status_code == 200 and lang_of(na) == "sv"
    html = na.get_data(as_text=True)
    # the shipped pack's resources by their Swedish names, no placeholder of the pack's file
    assert "Konsumtionsvaror" in html and "Material" in html and "placeholder name" not in html
    lyceum = organizer.get(urls[LYCEUM], headers=swedish)
    assert lyceum.status_code == 200 and lang_of(lyceum) == "en"
    switch = re.search(r'<nav class="lang">(.*?)</nav>', lyceum.get_data(as_text=True), re.S).group(1)
    assert re.findall(r'href="\?lang=(\w+)"', switch) == ["ru", "en"]
    assert lang_of(organizer.get(urls[LYCEUM])) == "ru"  # no wish at all: the game's own language


def test_the_game_is_the_first_choice_then_its_packs_by_their_names(app):
    organizer = organizer_browser(app, lang="sv")
    for url in ("/", "/organizer/"):
        first = organizer.get(url).get_data(as_text=True)
        names = re.findall(r'data-game="([^"]+)">([^<]+)</a>', first)
        assert sorted(names) == sorted((g.key, g.name) for g in games.registered()), url
        assert 'name="pack"' not in first, f"{url}: a pack before the game"
        chosen = organizer.get(f"{url}?game={NEW_ANGELES}").get_data(as_text=True)
        packs = re.findall(r"<option value=\"\d+\">([^<]*)</option>", chosen)
        assert packs == ["Exempelpaket (påhittade kravkort, inte originalspelets)"], url
        assert "placeholder name" not in chosen and "RULES.md" not in chosen
    languages = re.search(r'<select name="language">(.*?)</select>', chosen, re.S).group(1)
    assert re.findall(r'value="(\w+)"', languages) == ["en", "sv", "ru"]
    assert 'value="sv" selected' in languages  # the organizer's own, as the game speaks it
    finnish = organizer_browser(app, lang="fi").get(f"/organizer/?game={ALTER_EGO}").get_data(as_text=True)
    assert "Alter Ego, 3. painos" in finnish and "non-collectible" not in finnish


def test_an_event_speaks_its_language_on_its_projector_access_sheet_qr_link_and_tables(app):
    organizer = organizer_browser(app, lang="en")
    with db(app) as s:
        pack = services.packs.ensure_sample(s, NEW_ANGELES).id
    created = send(organizer, "/organizer/events", {"name": "Kväll", "game": NEW_ANGELES, "pack": pack,
                                                    "language": "sv", "tables": 2})
    assert created.status_code == 303, created.get_data(as_text=True)[:500]
    event_id = int(created.headers["Location"].rsplit("/", 1)[1])
    with db(app) as s:
        ev = services.events.get_event(s, event_id)
        assert ev.language == "sv"
        tables = services.events.tables_of(s, event_id)
        token = tables[0].token
    assert [t.name for t in tables] == ["Bord 1", "Bord 2"]
    # the organizer's own pages stay in the organizer's language
    assert lang_of(organizer.get(f"/organizer/events/{event_id}")) == "en"
    hall = app.test_client()
    projector = hall.get(f"/e/{event_id}", headers={"Accept-Language": "ru"})
    assert lang_of(projector) == "sv"
    sheet = organizer.get(f"/organizer/events/{event_id}/access.pdf")
    assert sheet.status_code == 200
    text = subprocess.run(["pdftotext", "-", "-"], input=sheet.data, capture_output=True, check=True).stdout.decode()
    assert "Skanna QR-koden med bordets surfplatta" in text and "Bord 1" in text
    # the QR link opens the table in the event's language, whatever the tablet's browser asks
    tablet = app.test_client()
    opened = tablet.get(f"/t/{token}", headers={"Accept-Language": "en"}, follow_redirects=True)
    assert opened.status_code == 200 and lang_of(opened) == "sv"
    # a wrong language for the game is refused, in the organizer's words, and nothing is created
    refused = send(organizer, "/organizer/events", {"name": "Ilta", "game": ALTER_EGO, "language": "sv",
                                                    "tables": 1}, follow_redirects=True)
    assert "The event's language is one of its game's: fi, en, ru" in unescape(refused.get_data(as_text=True))
    with db(app) as s:
        assert [e.name for e in services.events.events(s)] == ["Kväll"]


def test_an_events_language_defaults_to_its_games_first_and_is_chosen_in_the_api(app):
    organizer = organizer_browser(app)
    answer = organizer.post("/api/v1/events", json={"name": "AE-ilta", "game": ALTER_EGO, "tables": 2})
    assert answer.status_code == 201, answer.get_json()
    assert answer.get_json()["language"] == "fi"
    assert [t["name"] for t in answer.get_json()["tables"]] == ["Pöytä 1", "Pöytä 2"]
    answer = organizer.post("/api/v1/events", json={"name": "Kväll", "game": NEW_ANGELES, "language": "sv",
                                                    "tables": 1})
    assert answer.status_code == 201 and answer.get_json()["language"] == "sv"
    assert [t["name"] for t in answer.get_json()["tables"]] == ["Bord 1"]
    refused = organizer.post("/api/v1/events", json={"name": "Кубок", "game": LYCEUM, "language": "fi"})
    assert refused.status_code == 400 and "ru, en" in refused.get_json()["error"]["message"]
    # an event of before the events had languages: its game's first
    with db(app) as s:
        ev = services.events.create_event(s, "Old", ruleset=NEW_ANGELES)
        ev.language = None
        s.add(ev)
    from facilitator.i18n import event_locale
    assert event_locale(ev) == "en"


def test_every_text_of_the_shared_pages_and_file_names_is_in_finnish_and_swedish():
    """The shared pages (their templates, the views and services that word them) speak all four
    languages: no English left on a Finnish or Swedish organizer's dashboard (its announcement
    line, «less than a minute ago», the warning about the machine's own address), and the words
    of an output's file name («results», «certificates», …) are the organizer's too, read in a
    context of their own (a game's «event» card is not an event)."""
    from pathlib import Path

    from babel.messages.extract import extract_from_file

    from facilitator.i18n import pgettext, translations
    from facilitator.reports.files import FILE_NAME, KINDS, export_name
    root = Path(__file__).resolve().parents[2] / "facilitator"
    sources = [("jinja2.ext.babel_extract", p) for p in sorted((root / "templates").rglob("*.html"))]
    sources += [("python", p) for p in sorted((root / "web").glob("*.py")) + sorted((root / "services").glob("*.py"))]
    keywords = {"_": None, "gettext": None, "ngettext": (1, 2), "plural_forms": (1, 2), "N_": None}
    found = {}
    for method, path in sources:
        options = {"extensions": "jinja2.ext.i18n"} if method.startswith("jinja2") else {}
        for lineno, message, _c, _x in extract_from_file(method, str(path), keywords=keywords, options=options):
            # a counted message is kept by its singular and its first form
            found.setdefault(message if isinstance(message, str) else (message[0], 0), f"{path.relative_to(root)}:{lineno}")
    assert len(found) > 200
    for locale in ("fi", "sv"):
        catalog = translations(locale)._catalog
        missing = [f"{where}: {message!r}" for message, where in sorted(found.items(), key=lambda kv: kv[1])
                   if message not in catalog]
        assert not missing, f"no {locale} translation of:\n" + "\n".join(missing)
        with use_locale(locale):
            words = {kind: pgettext(FILE_NAME, message) for kind, message in KINDS.items()}
        assert all(words[kind] != message for kind, message in KINDS.items()), (locale, words)
    with use_locale("sv"):
        assert export_name("event", "xlsx", event="Kväll").startswith("Kväll_evenemang_")
        assert export_name("certificates", "pdf", table=None).startswith("evenemang_diplom_")
    with use_locale("fi"):
        assert export_name("blank", "pdf", event="Ilta", table="Pöytä 2").startswith("Ilta_Pöytä-2_tyhjä-pöytäkirja_")
