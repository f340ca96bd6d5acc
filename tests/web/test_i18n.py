"""Russian by default, English selectable (issue 3, item 8): every screen of the host's tablet
renders in both, the choice sticks for the browser, the engine's refusals are translated, and
every message the host's screens use has a Russian translation in the catalogs."""

import glob
import re
from importlib import resources
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from facilitator.i18n import gettext, translate_error, use_locale
from facilitator.rules import IllegalMoveError
from facilitator.rules.lyceum import Move

from .helpers import THREE, create_table, get, load, move_form, pass_until, record, seated_table

import conftest as root  # tests/conftest.py: how a fresh database is made


@pytest.fixture
def db_url(tmp_path, tmp_path_factory):
    """SQLite only: nothing here is about the storage (the screens' words in each language)."""
    return root.sqlite_database(tmp_path, tmp_path_factory)

ROOT = Path(__file__).resolve().parents[2]

# one phrase per screen that only that screen's own text contains
SCREENS = [
    ("tables", lambda t: "/", "New table"),
    ("setup", lambda t: f"/table/{t['new']}/setup", "Seat the players and start"),
    ("turn", lambda t: f"/table/{t['seated']}", "Turn timer"),
    ("draw: choose a card", lambda t: f"/table/{t['seated']}/draw?color=green", "Enter a card by hand"),
    ("draw: the card", lambda t: f"/table/{t['seated']}/draw?color=green&after=0&player=Аня&card=L-G-01", "Discard"),
    ("draw: the app's deck", lambda t: f"/table/{t['seated']}/draw?color=red&after=0&player=Аня&random=1", "from the app's deck"),
    ("a card by hand", lambda t: f"/table/{t['seated']}/draw/manual?color=yellow", "Check the card"),
    ("provisional results", lambda t: f"/table/{t['seated']}/final", "Provisional results"),
    ("final results", lambda t: f"/table/{t['finished']}/final", "Final results"),
]


@pytest.fixture
def tables(client):
    """A table in setup, one seated, one finished."""
    new = create_table(client, "Стол A")
    seated = seated_table(client, THREE, "Стол B")
    finished = seated_table(client, THREE, "Стол C")
    pass_until(client.application, finished, lambda g: g.next()["expects"] == "finish")
    record(client.application, finished, Move("finish"))
    return {"new": new, "seated": seated, "finished": finished}


@pytest.mark.db
def test_every_screen_renders_in_russian_by_default_and_in_english_on_request(client, tables):
    for name, url_of, phrase in SCREENS:
        with use_locale("ru"):
            russian = gettext(phrase)
        assert russian != phrase, f"{phrase!r} has no Russian translation"
        page = get(client, url_of(tables))
        assert page.status == 200, name
        assert '<html lang="ru">' in page.html, name
        assert russian in page.text and phrase not in page.text, name
    for name, url_of, phrase in SCREENS:
        url = url_of(tables)
        page = get(client, url + ("&" if "?" in url else "?") + "lang=en")
        assert page.status == 200, name
        assert '<html lang="en">' in page.html, name
        assert phrase in page.text, name


@pytest.mark.db
def test_the_language_chosen_sticks_to_the_browser(client, tables):
    get(client, "/?lang=en")
    assert "Turn of Аня" in get(client, f"/table/{tables['seated']}")
    get(client, "/?lang=ru")
    page = get(client, f"/table/{tables['seated']}")
    with use_locale("ru"):
        assert gettext("Turn of {player}", player="Аня") in page
    assert "здоровье" in page and "энергия" in page  # the skills by their Russian names


@pytest.mark.db
def test_an_unknown_language_falls_back_to_russian(client, tables):
    page = get(client, "/?lang=de")
    assert '<html lang="ru">' in page.html


@pytest.mark.db
def test_the_engines_refusals_are_shown_in_russian(client, tables):
    page = move_form(client, tables["seated"], "draw", after=0, player="Аня", color="red", card="L-R-05",
                     decision="play")
    assert page.status == 422
    game = load(client.application, tables["seated"]).game
    with pytest.raises(IllegalMoveError) as refusal:
        game.check(Move("draw", player="Аня", color="red", card="L-R-05", decision="play"))
    with use_locale("ru"):
        expected = gettext("The move was not recorded: {error}", error=translate_error(refusal.value))
    assert page.error == expected
    assert "коммуникация 2 < 7" in page.error and "not eligible" not in page.error


@pytest.mark.db
def test_form_errors_are_shown_in_russian(client, tables):
    page = move_form(client, tables["seated"], "rest", after=0, player="Аня", **{"redistribute-health": "два"})
    assert page.status == 400
    assert re.search("[а-яё]", page.error.split(":", 1)[1]), page.error
    assert "Not a valid integer" not in page.error


# ----- the catalogs --------------------------------------------------------------------------------
def _catalog():
    messages = {}
    folders = [resources.files("facilitator").joinpath("translations", "ru"),
               resources.files("facilitator").joinpath("games", "lyceum", "translations", "ru")]
    for entry in (e for folder in folders for e in folder.iterdir()):
        if entry.name.endswith(".po"):
            with entry.open("rb") as fh:
                for message in read_po(fh, locale="ru"):
                    if message.id:
                        messages[message.id if isinstance(message.id, str) else message.id[0]] = message
    return messages


_STRING = r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\''
_CALL = re.compile(r"(?<![\w.])(?:_|gettext|ngettext)\(\s*((?:(?:%s)\s*)+)" % _STRING)


def used_messages():
    """Every literal message id the host's screens pass to the translation layer."""
    files = sorted(glob.glob(str(ROOT / "facilitator/templates/host/*.html"))) + [str(ROOT / "facilitator/templates/base.html")] + [
        str(ROOT / "facilitator" / name) for name in ("web/host.py", "games/lyceum/screens.py", "games/lyceum/describe.py",
                                                      "web/table.py", "web/forms.py", "games/lyceum/forms.py", "web/api.py")]
    found = {}
    for path in files:
        source = Path(path).read_text(encoding="utf-8")
        for match in _CALL.finditer(source):
            text = "".join(s[1:-1] for s in re.findall(_STRING, match.group(1)))
            found.setdefault(text.replace('\\"', '"').replace("\\'", "'"), Path(path).name)
    return found


def test_every_message_of_the_host_screens_has_a_russian_translation():
    catalog = _catalog()
    used = used_messages()
    assert len(used) > 100
    missing = sorted(f"{where}: {msgid}" for msgid, where in used.items()
                     if msgid not in catalog or not catalog[msgid].string)
    assert missing == []
