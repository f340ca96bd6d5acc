"""Static files named by their content (facilitator/web/static_files.py): a tap on venue Wi-Fi
loads the new screen only, not the screen and a revalidation of every script and stylesheet;
a new release's files get new names, so no tablet keeps an old script."""

import re
from pathlib import Path

import pytest

from facilitator.web.static_files import KEEP_SECONDS, version

import conftest as root  # tests/conftest.py: how a fresh database is made


@pytest.fixture
def db_url(tmp_path, tmp_path_factory):
    """SQLite only: nothing here is about the storage (the static files' names and caching)."""
    return root.sqlite_database(tmp_path, tmp_path_factory)

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


def test_a_games_own_files_are_served_from_its_package_by_their_content(app, client):
    """Each game's stylesheets and scripts live in its package (``games/<game>/static``, served by
    its blueprint); facilitator/static keeps only what every page shares."""
    from facilitator import games
    from facilitator.web import PACKAGE
    from facilitator.web.static_files import folder_of
    shared = {p.name for p in (PACKAGE / "static").iterdir()}
    served = 0
    for game in games.registered():
        own = Path(game.folder) / "static" if game.folder else None
        if not own or not own.is_dir():
            continue
        blueprint = next(bp for bp in app.blueprints.values() if bp.static_folder and Path(bp.static_folder) == own)
        for path in own.iterdir():
            assert path.name not in shared, f"{path.name} is both {game.key}'s and shared"
            with app.test_request_context():
                from flask import url_for
                url = url_for(f"{blueprint.name}.static", filename=path.name)
            assert url.endswith(f"/static/{path.name}?v={version(str(own), path.name)}")
            response = client.get(url)
            assert response.status_code == 200 and response.data == path.read_bytes()
            assert response.headers["Cache-Control"] == f"public, max-age={KEEP_SECONDS}, immutable"
            assert folder_of(app, f"{blueprint.name}.static") == str(own)
            served += 1
    assert served >= 3  # Alter Ego's stylesheet, New Angeles' stylesheet and script at least
    assert not {"alterego.css", "newangeles.css", "newangeles.js"} & shared
