"""The organizer's side of access control (issue 5, item 2): the organizer's pages refuse
anyone who has not signed in (a GET goes to the sign-in page, a POST is refused with 403),
a table's host included; every state-changing form refuses a post without its CSRF token
with 400 and changes nothing; signing in sets an HttpOnly, SameSite=Lax session cookie
(Secure over HTTPS) and never redirects off the site."""

import io
import json
import random
from urllib.parse import parse_qs, urljoin, urlparse

import pytest
from sqlmodel import select

from facilitator.services import events
from facilitator.rules.lyceum.simulate import random_setup
from facilitator.storage.models import Event, GameTable

from .helpers import (PACK, PASSWORD, csrf_token, db, english, everything, flashes, game_record, host_browser,
                      move_forms, new_event, post, seated_table, set_password)

pytestmark = pytest.mark.db


@pytest.fixture
def event(app):
    """An event with two tables two moves into their games."""
    event_id = new_event(app)
    first = seated_table(app, event_id, "Стол А", seed=1)
    second = seated_table(app, event_id, "Стол Б", seed=2)
    return event_id, first, second


def organizer_pages(event_id, table_id):
    base = f"/organizer/events/{event_id}"
    return ["/organizer/", base, f"{base}/status.json", f"{base}/access.pdf", f"{base}/backup.json",
            f"{base}/download/workbook", f"{base}/download/results"]


def organizer_forms(app, event_id, table_id):
    """Every form of the organizer's pages with fields that would be accepted."""
    base = f"/organizer/events/{event_id}"
    record = json.dumps(game_record(5, 3)[0]).encode()
    with db(app) as s:
        backup = json.dumps(events.backup(s, event_id)).encode()
    return [
        ("create an event", "/organizer/events", {"name": "Второй тур", "date": "2026-11-30", "tables": "2", "game": "lyceum-16-25"}),
        ("add a table", f"{base}/tables", {"name": "Стол В", "host_name": "Маша"}),
        ("rename a table", f"{base}/tables/{table_id}/rename", {"name": "Стол Z"}),
        ("reissue a table's access", f"{base}/tables/{table_id}/reissue", {}),
        ("import a game record", f"{base}/import", {"record": (io.BytesIO(record), "record.json")}),
        ("restore a backup", "/organizer/restore", {"backup": (io.BytesIO(backup), "backup.json"),
                                                    "name": "Копия"}),
        ("announce", f"{base}/announce", {"action": "start"}),
    ]


def granted(app, table_id):
    """A browser that holds a table's host link, and nothing more."""
    return host_browser(app, table_id)


ROLES = {"anonymous": lambda app, table_id: english(app.test_client()), "a table's host": granted}


@pytest.mark.parametrize("role", ROLES)
def test_the_organizer_pages_send_others_to_the_sign_in_page(app, event, role):
    event_id, table_id, _ = event
    browser = ROLES[role](app, table_id)
    for url in organizer_pages(event_id, table_id):
        response = browser.get(url)
        assert response.status_code in (302, 303), (url, response.status_code)
        location = urlparse(response.headers["Location"])
        assert location.path == "/organizer/login", url
        assert parse_qs(location.query)["next"][0].startswith(url.split("?")[0]), url


@pytest.mark.parametrize("role", ROLES)
def test_the_organizer_forms_refuse_others_with_403_and_change_nothing(app, event, role):
    event_id, table_id, _ = event
    browser = ROLES[role](app, table_id)
    token = csrf_token(browser)  # a valid token: the refusal is the role's, not the CSRF check's
    before = everything(app)
    for label, url, fields in organizer_forms(app, event_id, table_id):
        response = post(browser, url, fields, token=token, content_type="multipart/form-data")
        assert response.status_code == 403, (label, response.status_code)
    assert everything(app) == before


def test_the_organizer_forms_work_when_signed_in(app, event, client):
    """The other side of the refusals above: the same posts with the organizer's session."""
    event_id, table_id, _ = event
    organizer = english(client)
    token = csrf_token(organizer)
    for label, url, fields in organizer_forms(app, event_id, table_id):
        response = post(organizer, url, fields, token=token, content_type="multipart/form-data")
        assert response.status_code == 303, (label, response.status_code)
        assert not flashes(organizer.get(response.headers["Location"]), "error"), label
    with db(app) as s:
        names = sorted(e.name for e in s.exec(select(Event)).all())
        assert names == ["Второй тур", "Копия", "Кубок лицея"]
        assert "Стол Z" in [t.name for t in s.exec(select(GameTable)).all()]


# ----- CSRF -------------------------------------------------------------------------------------
def test_every_organizer_form_refuses_a_post_without_its_csrf_token(app, event, client):
    event_id, table_id, _ = event
    before = everything(app)
    for label, url, fields in organizer_forms(app, event_id, table_id):
        response = post(client, url, fields, token=False, content_type="multipart/form-data")
        assert response.status_code == 400, (label, response.status_code)
    assert everything(app) == before
    # signing out is a form too: without the token the organizer stays signed in
    assert post(client, "/organizer/logout", token=False).status_code == 400
    assert client.get(f"/organizer/events/{event_id}").status_code == 200


def setup_fields(players):
    """The setup screen's fields for these players."""
    fields = {}
    for i, p in enumerate(players):
        fields.update({f"players-{i}-name": p.name, f"players-{i}-born": p.born, f"players-{i}-character": p.character})
        fields.update({f"players-{i}-extra-{skill}": v for skill, v in p.extra.items()})
    return fields


def test_every_host_form_refuses_a_post_without_its_csrf_token(app, event, client):
    event_id, table_id, _ = event
    with db(app) as s:
        waiting = events.add_table(s, s.get(Event, event_id), "Стол 3").id
    seating = setup_fields(random_setup(PACK, random.Random(3), 3))
    record = json.dumps(game_record(5, 3)[0]).encode()
    host, newcomer = granted(app, table_id), granted(app, waiting)
    before = everything(app)
    for browser in (host, client):
        for label, url, fields in move_forms(app, table_id):
            assert post(browser, url, fields, token=False).status_code == 400, label
    for browser in (newcomer, client):
        assert post(browser, f"/table/{waiting}/setup", seating, token=False).status_code == 400
    assert post(client, "/tables", {"name": "Новый стол", "pack": 1}, token=False).status_code == 400
    assert post(client, "/tables/import", {"record": (io.BytesIO(record), "record.json")}, token=False,
                content_type="multipart/form-data").status_code == 400
    assert everything(app) == before
    # the same setup with the form's token seats the table: only the token was missing
    assert post(newcomer, f"/table/{waiting}/setup", seating).status_code == 303


def test_no_post_of_the_app_outside_the_token_api_goes_without_a_csrf_token(app, event, client):
    """A sweep of every route that takes a POST, so a form added later is covered too; the JSON
    API is exempt because it authenticates each write by the table's token instead."""
    event_id, table_id, _ = event
    values = {"event_id": event_id, "table_id": table_id, "key": "sample", "code": PACK.characters[0].code,
              "kind": "pass"}
    before = everything(app)
    posts = [rule for rule in app.url_map.iter_rules() if "POST" in rule.methods and not rule.rule.startswith("/api/")]
    assert len(posts) >= 15
    for rule in posts:
        url = rule.build({name: values[name] for name in rule.arguments}, append_unknown=False)[1]
        assert client.post(url, data={}).status_code == 400, url
    assert everything(app) == before


def test_the_pin_and_sign_in_forms_refuse_a_post_without_its_csrf_token(app, event):
    """Even the right PIN and the right password: nothing opens."""
    event_id, table_id, _ = event
    set_password(app)
    with db(app) as s:
        pin = s.get(GameTable, table_id).pin
    browser = english(app.test_client())
    assert post(browser, "/pin", {"pin": pin}, token=False).status_code == 400
    assert browser.get(f"/table/{table_id}").status_code == 403
    assert post(browser, "/organizer/login", {"password": PASSWORD}, token=False).status_code == 400
    assert browser.get("/organizer/").status_code == 302
    # a forged token is no better than none
    assert post(browser, "/pin", {"pin": pin}, token="forged").status_code == 400
    assert browser.get(f"/table/{table_id}").status_code == 403


# ----- signing in -------------------------------------------------------------------------------
def session_cookie(response):
    cookies = [h for h in response.headers.getlist("Set-Cookie") if h.startswith("session=")]
    assert cookies, response.headers
    return [part.strip() for part in cookies[-1].split(";")]


@pytest.mark.parametrize("base_url, secure", [("http://localhost", False), ("https://localhost", True)])
def test_signing_in_sets_an_httponly_samesite_session_cookie_secure_over_https(app, base_url, secure):
    set_password(app)
    browser = app.test_client()
    token = csrf_token(browser, f"{base_url}/organizer/login?lang=en")
    # over HTTPS the CSRF check also wants the Referer a browser sends with a same-site form
    headers = {"Referer": f"{base_url}/organizer/login"}
    wrong = browser.post("/organizer/login", base_url=base_url, headers=headers,
                         data={"password": "not it", "csrf_token": token})
    assert wrong.status_code == 401
    assert flashes(wrong, "error") == ["Wrong password"]
    assert browser.get("/organizer/", base_url=base_url).status_code == 302

    response = browser.post("/organizer/login", base_url=base_url, headers=headers,
                            data={"password": PASSWORD, "csrf_token": token})
    assert response.status_code == 303
    assert urlparse(response.headers["Location"]).path == "/organizer/"
    cookie = session_cookie(response)
    assert "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie
    assert ("Secure" in cookie) is secure
    with browser.session_transaction(base_url=base_url) as session:
        assert isinstance(session["organizer"], str) and len(session["organizer"]) >= 32  # a live session's secret
    assert browser.get("/organizer/", base_url=base_url).status_code == 200


NEXT_TARGETS = [  # what ?next= asks for -> where signing in lands (None: the organizer's home)
    ("/organizer/events/1", "/organizer/events/1"),
    ("/e/1?lang=en", "/e/1?lang=en"),
    ("https://evil.example/organizer/", None),
    ("http://localhost.evil.example/", None),
    ("//evil.example/organizer/", None),
    ("/\\evil.example/organizer/", None),
    ("/\t/evil.example/", None),
    ("javascript:alert(1)", None),
    ("organizer/", None),
    ("", None),
]


def as_a_browser_reads(location):
    """The address a browser goes to for a Location header: it drops tabs and newlines and
    reads a backslash as a slash."""
    cleaned = location.replace("\t", "").replace("\n", "").replace("\\", "/")
    return urlparse(urljoin("http://localhost/organizer/login", cleaned))


def test_signing_in_follows_next_only_to_a_page_of_this_site(app):
    from facilitator.web.organizer import _safe_next
    for target, lands_on in NEXT_TARGETS:
        with app.test_request_context("/organizer/login"):
            location = _safe_next(target)
        assert location == (lands_on or "/organizer/"), target
        assert as_a_browser_reads(location).netloc == "localhost", target


def test_the_sign_in_page_refuses_to_send_the_organizer_elsewhere(app):
    set_password(app)
    browser = app.test_client()
    token = csrf_token(browser, "/organizer/login")
    response = browser.post("/organizer/login", query_string={"next": "//evil.example/organizer/"},
                            data={"password": PASSWORD, "csrf_token": token})
    assert response.status_code == 303
    assert as_a_browser_reads(response.headers["Location"]).netloc == "localhost"
    assert response.headers["Location"] == "/organizer/"


def test_the_sign_in_page_returns_to_the_page_that_asked_for_it(app, event):
    event_id, _, _ = event
    set_password(app)
    browser = app.test_client()
    response = browser.get(f"/organizer/events/{event_id}")
    form_page = browser.get(response.headers["Location"])
    assert form_page.status_code == 200
    token = csrf_token(browser, response.headers["Location"])
    signed_in = browser.post(response.headers["Location"], data={"password": PASSWORD, "csrf_token": token})
    assert signed_in.status_code == 303
    assert urlparse(signed_in.headers["Location"]).path == f"/organizer/events/{event_id}"
    assert browser.get(signed_in.headers["Location"]).status_code == 200


def test_signing_out_ends_the_organizer_session(app, client):
    assert client.get("/organizer/").status_code == 200
    assert post(client, "/organizer/logout").status_code == 303
    assert client.get("/organizer/").status_code == 302
