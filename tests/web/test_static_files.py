"""Static files named by their content (facilitator/web/static_files.py): a tap on venue Wi-Fi
loads the new screen only, not the screen and a revalidation of every script and stylesheet;
a new release's files get new names, so no tablet keeps an old script."""

import re

import pytest

from facilitator.web.static_files import KEEP_SECONDS, version

LINKED = ("app.css", "app.js", "outbox.js")


def linked(html):
    """The static files a page links, with the version each link names."""
    return dict(re.findall(r'/static/([\w./-]+)\?v=([0-9a-f]+)"', html))


def test_every_page_links_its_scripts_and_stylesheet_by_their_content(app, client):
    links = linked(client.get("/pin").get_data(as_text=True))
    assert set(LINKED) <= set(links), links
    for name in LINKED:
        assert links[name] == version(app.static_folder, name) and len(links[name]) == 12


@pytest.mark.parametrize("name", LINKED)
def test_a_file_asked_for_by_its_current_name_is_kept_a_year(app, client, name):
    response = client.get(f"/static/{name}?v={version(app.static_folder, name)}")
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == f"public, max-age={KEEP_SECONDS}, immutable"


@pytest.mark.parametrize("query", ["", "?v=0123456789ab", "?v="])
def test_a_file_asked_for_without_or_by_an_old_name_is_checked_again_each_time(client, query):
    response = client.get(f"/static/app.js{query}")
    assert response.status_code == 200
    assert "max-age=31536000" not in response.headers.get("Cache-Control", "")
    assert "no-cache" in response.headers.get("Cache-Control", "")


def test_a_missing_file_is_a_404_and_links_without_a_version(app, client):
    assert client.get("/static/nothing.js?v=0123456789ab").status_code == 404
    with app.test_request_context():
        from flask import url_for
        assert url_for("static", filename="nothing.js") == "/static/nothing.js"
        assert version(app.static_folder, "../__init__.py") is None  # never outside the folder


def test_the_name_changes_with_the_content(tmp_path):
    script = tmp_path / "app.js"
    script.write_text("let a = 1;")
    before = version(str(tmp_path), "app.js")
    script.write_text("let a = 2; // a new release")
    assert version(str(tmp_path), "app.js") not in (None, before)
