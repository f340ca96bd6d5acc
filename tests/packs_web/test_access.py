"""Only the organizer edits content packs. Anyone else on the venue's Wi-Fi, and a host who
opened their own table with its link, is sent to sign in (a page) or refused with 403 (a form
post, even with a valid CSRF token), and nothing is stored."""

from io import BytesIO
from urllib.parse import quote

import pytest

from facilitator.rules.lyceum.ruleset import sample_pack
from facilitator.games.lyceum.importing import pack_to_json

from .helpers import PACKS, csrf_token, everything

SAMPLE = PACKS + "/sample"
PAGES = [PACKS + "/", SAMPLE, SAMPLE + "?q=олимп&era=lyceum", SAMPLE + "/cards/new", SAMPLE + "/cards/L-G-01",
         SAMPLE + "/characters/new", SAMPLE + "/characters/C01", SAMPLE + "/export.json",
         SAMPLE + "/export.xlsx?version=1", PACKS + "/template.xlsx"]
#: (address, the form's fields): every change the editor offers, filled in as it would be accepted
POSTS = [
    (SAMPLE + "/levels", {"levels": "0, 100, 200"}),
    (SAMPLE + "/cards/new", {"code": "L-G-10", "era": "lyceum", "color": "green", "title": "Чужая карта",
                             "gains_health": 1}),
    (SAMPLE + "/cards/L-G-01", {"code": "L-G-01", "era": "lyceum", "color": "green", "title": "Подмена",
                                "gains_health": 1}),
    (SAMPLE + "/cards/L-G-01", {"delete": 1}),
    (SAMPLE + "/characters/new", {"code": "C99", "name": "Чужой"}),
    (SAMPLE + "/characters/C01", {"code": "C01", "name": "Подмена"}),
    (SAMPLE + "/characters/C01", {"delete": 1}),
]


@pytest.fixture(params=["anonymous", "host of one table"])
def outsider(request, anon_client, app):
    return anon_client if request.param == "anonymous" else request.getfixturevalue("host_only")


def test_pack_pages_send_an_outsider_to_sign_in(outsider):
    for url in PAGES:
        response = outsider.get(url)
        assert response.status_code == 302, (url, response.status_code)
        location = response.headers["Location"]
        assert location.startswith("/organizer/login?next="), (url, location)
        assert quote(url.split("?")[0], safe="") in location or url.split("?")[0] in location, (url, location)
    login = outsider.get(PACKS + "/", follow_redirects=True).get_data(as_text=True)
    assert "Чтобы открыть эту страницу, войдите как организатор" in login


def test_pack_changes_by_an_outsider_are_refused_and_store_nothing(outsider, app):
    stored = everything(app)
    token = csrf_token(outsider, "/organizer/login")
    for url, fields in POSTS:
        response = outsider.post(url, data=dict(fields, csrf_token=token))
        assert response.status_code == 403, (url, fields, response.status_code)
    for name, body in (("deck.json", pack_to_json(sample_pack()).replace("sample", "stolen").encode()),):
        response = outsider.post(PACKS + "/upload", data={"csrf_token": token, "pack": (BytesIO(body), name)},
                                 content_type="multipart/form-data")
        assert response.status_code == 403
    assert everything(app) == stored


def test_a_post_without_the_csrf_token_is_refused_even_for_the_organizer(client, app):
    stored = everything(app)
    for url, fields in POSTS:
        response = client.post(url, data=fields)
        assert response.status_code == 400, (url, response.status_code)
    assert everything(app) == stored
