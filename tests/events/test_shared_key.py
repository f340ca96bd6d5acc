"""Several app servers on one database (issue 22, item 1): every server signs browser sessions
and form tokens with the one key the database keeps, made by the first to start, so a tablet
whose requests a proxy sends now to one machine, now to another, keeps its session and its
forms; ``SECRET_KEY`` still overrides it; ``facilitator secret-key --rotate`` puts a new key in
place, which ends every session and form token made with the old one.

(The key kept in the instance folder on SQLite: test_server_setup.py. Two real servers racing
their start, and a tablet's whole game through two servers: test_two_servers.py.)"""

import pytest

from facilitator import services
from facilitator.cli import main
from facilitator.storage.models import Setting
from facilitator.web import create_app
from tests.conftest import BACKENDS

from .helpers import csrf_token, db

pytestmark = pytest.mark.db
POSTGRES = [BACKENDS[1]]  # skipped when no PostgreSQL server is reachable
PASSWORD = "shared-key-password"


def laptop(db_url, folder):
    """An app server as ``facilitator serve`` builds it, with an instance folder of its own."""
    return create_app({"TESTING": True, "DATABASE_URL": db_url, "INSTANCE_PATH": str(folder),
                       "PREPARE_PROTOCOLS": False})


def carried(browser, other_app):
    """The same browser, its next request sent by the proxy to ``other_app``: its cookie goes along."""
    moved = other_app.test_client()
    cookie = browser.get_cookie("session")
    if cookie is not None:
        moved.set_cookie("session", cookie.value)
    return moved


def stored_key(app):
    with db(app) as s:
        row = s.get(Setting, services.keys.SETTING)
        return row.value if row else None


@pytest.mark.parametrize("db_url", POSTGRES, indirect=True)
def test_two_instances_on_one_database_sign_with_the_key_it_keeps(db_url, tmp_path, monkeypatch):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    a = laptop(db_url, tmp_path / "laptop-a")
    b = laptop(db_url, tmp_path / "laptop-b")
    assert a.secret_key == b.secret_key == stored_key(a) and len(a.secret_key) >= 32
    assert not (tmp_path / "laptop-a" / "secret_key").exists()  # nothing per machine to copy around
    assert not (tmp_path / "laptop-b" / "secret_key").exists()
    with db(a) as s:
        services.access.set_password(s, PASSWORD)

    # the sign-in form drawn by A, sent to B: its token holds, and B's session cookie opens A's pages
    browser = a.test_client()
    token = csrf_token(browser, "/organizer/login")
    browser = carried(browser, b)
    response = browser.post("/organizer/login", data={"password": PASSWORD, "csrf_token": token})
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    assert carried(browser, a).get("/organizer/").status_code == 200

    # a restarted server finds the same key
    assert laptop(db_url, tmp_path / "laptop-a").secret_key == a.secret_key


@pytest.mark.parametrize("db_url", POSTGRES, indirect=True)
def test_secret_key_in_the_environment_overrides_the_shared_one(db_url, tmp_path, monkeypatch):
    monkeypatch.setenv("SECRET_KEY", "given-to-every-server-by-the-organizer")
    app = laptop(db_url, tmp_path / "laptop")
    assert app.secret_key == "given-to-every-server-by-the-organizer"
    assert stored_key(app) not in (None, app.secret_key)  # the shared key is still made, for later


def test_a_rotated_key_ends_every_session_and_form_token(db_url, tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    folder = tmp_path / "instance"
    monkeypatch.setenv("FACILITATOR_INSTANCE", str(folder))
    monkeypatch.setenv("DATABASE_URL", db_url)
    app = laptop(db_url, folder)
    with db(app) as s:
        services.access.set_password(s, PASSWORD)
    organizer = app.test_client()
    organizer.post("/organizer/login", data={"password": PASSWORD, "csrf_token": csrf_token(organizer,
                                                                                            "/organizer/login")})
    assert organizer.get("/organizer/").status_code == 200
    tablet = app.test_client()
    token = csrf_token(tablet, "/pin")

    assert main(["secret-key"]) == 0  # only says where the key is kept
    same = laptop(db_url, folder)
    assert same.secret_key == app.secret_key
    # before a rotation, a restarted server takes the form (and says the PIN is wrong)
    assert carried(tablet, same).post("/pin", data={"pin": "123456", "csrf_token": token}).status_code == 401
    assert main(["secret-key", "--rotate"]) == 0
    said = capsys.readouterr().out
    assert "Every browser session and form token made with the old key has ended" in said
    assert "Restart every app server" in said

    restarted = laptop(db_url, folder)
    assert restarted.secret_key != app.secret_key
    if db_url.startswith("postgresql"):
        assert stored_key(restarted) == restarted.secret_key
    else:
        assert (folder / "secret_key").read_text() == restarted.secret_key
    # the old cookie no longer opens the dashboard; the old form token is refused
    assert carried(organizer, restarted).get("/organizer/").status_code == 302
    assert carried(tablet, restarted).post("/pin", data={"pin": "123456", "csrf_token": token}).status_code == 400


def test_rotating_is_refused_while_secret_key_is_set(db_url, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("FACILITATOR_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.setenv("DATABASE_URL", db_url)
    monkeypatch.delenv("SECRET_KEY", raising=False)
    app = laptop(db_url, tmp_path / "instance")
    monkeypatch.setenv("SECRET_KEY", "given-to-every-server")
    assert main(["secret-key", "--rotate"]) == 2
    assert "SECRET_KEY is set" in capsys.readouterr().err
    monkeypatch.delenv("SECRET_KEY")
    assert laptop(db_url, tmp_path / "instance").secret_key == app.secret_key  # nothing changed
