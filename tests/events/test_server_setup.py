"""Setting up the event server (issue 5, item 2): the secret key is generated once and kept in
the instance folder when none is configured (on SQLite: a shared database keeps it itself, see
test_shared_key.py), and the organizer's password is set through the
CLI (or printed by the first ``facilitator serve``) and stored hashed, never as typed."""

import re
import stat

import pytest
from werkzeug.security import check_password_hash

from facilitator.cli import main
from facilitator.storage.models import Setting
from facilitator.web.auth import PASSWORD_KEY

from .helpers import csrf_token, db

pytestmark = pytest.mark.db


def stored_hash(app):
    with db(app) as s:
        row = s.get(Setting, PASSWORD_KEY)
        return row.value if row else None


def signs_in(app, password):
    browser = app.test_client()
    token = csrf_token(browser, "/organizer/login")
    response = browser.post("/organizer/login", data={"password": password, "csrf_token": token})
    return response.status_code == 303 and browser.get("/organizer/").status_code == 200


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # a shared database keeps it: test_shared_key.py
def test_the_secret_key_is_generated_once_and_kept_in_the_instance_folder(db_url, tmp_path, monkeypatch):
    from facilitator.web import create_app
    monkeypatch.delenv("SECRET_KEY", raising=False)
    folder = tmp_path / "venue-laptop"
    config = {"TESTING": True, "DATABASE_URL": db_url, "INSTANCE_PATH": str(folder)}
    first = create_app(dict(config))
    kept = folder / "secret_key"
    assert kept.exists()
    assert first.secret_key == kept.read_text().strip() and len(first.secret_key) >= 32
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600  # readable by the server's user only

    from .helpers import organizer_of
    browser = organizer_of(first)
    assert browser.get("/organizer/").status_code == 200

    # the server restarts: the same key, so the organizer's session cookie still holds
    second = create_app(dict(config))
    assert second.secret_key == first.secret_key
    restarted = second.test_client()
    restarted.set_cookie("session", browser.get_cookie("session").value)
    assert restarted.get("/organizer/").status_code == 200

    # another instance folder (another laptop) gets a key of its own
    other = create_app(dict(config, INSTANCE_PATH=str(tmp_path / "another-laptop")))
    assert other.secret_key != first.secret_key


def test_organizer_password_stores_a_hash_and_the_password_signs_in(app, db_url, monkeypatch, capsys):
    monkeypatch.setenv("DATABASE_URL", db_url)
    assert main(["organizer-password", "--password", "Лицей-2026!"]) == 0
    assert "set" in capsys.readouterr().out
    stored = stored_hash(app)
    assert stored and "Лицей-2026!" not in stored
    assert stored.split(":")[0] in ("scrypt", "pbkdf2")
    assert check_password_hash(stored, "Лицей-2026!")
    assert signs_in(app, "Лицей-2026!")
    assert not signs_in(app, "лицей-2026!")

    # a new password replaces the old one; a too short one changes nothing
    assert main(["organizer-password", "--password", "second-password"]) == 0
    assert main(["organizer-password", "--password", "short"]) == 2
    assert "nothing changed" in capsys.readouterr().err
    assert check_password_hash(stored_hash(app), "second-password")
    assert not check_password_hash(stored_hash(app), "Лицей-2026!")


def test_organizer_password_asks_on_the_terminal_even_when_stdin_is_not_one(app, db_url, monkeypatch, capsys):
    """Issue 20 item 7: the README's ``facilitator organizer-password`` (no --password, no
    environment) asks twice on the terminal, as ``getpass`` does through /dev/tty, whatever the
    standard input is; with no terminal at all it says how else to give it."""
    import getpass

    from facilitator.web import commands
    monkeypatch.setenv("DATABASE_URL", db_url)
    monkeypatch.delenv("FACILITATOR_ORGANIZER_PASSWORD", raising=False)
    answers = iter(["typed-at-the-terminal", "typed-at-the-terminal"])
    monkeypatch.setattr(getpass, "getpass", lambda prompt="": next(answers))
    monkeypatch.setattr(commands, "has_terminal", lambda: True)
    assert not __import__("sys").stdin.isatty()  # pytest's stdin, as a pipe would be
    assert main(["organizer-password"]) == 0
    assert signs_in(app, "typed-at-the-terminal")
    monkeypatch.setattr(commands, "has_terminal", lambda: False)
    assert main(["organizer-password"]) == 2
    assert "no terminal to ask on" in capsys.readouterr().err
    assert signs_in(app, "typed-at-the-terminal")


def test_serve_help_names_the_default_port(capsys):
    import pytest as _pytest
    with _pytest.raises(SystemExit):
        main(["serve", "--help"])
    assert "default: 8000" in " ".join(capsys.readouterr().out.split())


def test_the_first_serve_prints_a_generated_password_and_later_ones_do_not(app, db_url, monkeypatch, capsys):
    from facilitator.web import server
    served = []
    monkeypatch.setattr(server, "serve", lambda app, **kw: served.append(kw))
    monkeypatch.setenv("DATABASE_URL", db_url)
    assert stored_hash(app) is None
    assert main(["serve", "--host", "127.0.0.1", "--port", "8123"]) == 0
    out = capsys.readouterr().out
    generated = re.search(r"organizer password .*: (\S+)$", out, re.M).group(1)
    assert stored_hash(app) and generated not in stored_hash(app)
    assert signs_in(app, generated)
    assert served[0]["port"] == 8123 and served[0]["host"] == "127.0.0.1"

    assert main(["serve", "--host", "127.0.0.1", "--port", "8123"]) == 0
    assert "organizer password" not in capsys.readouterr().out
    assert signs_in(app, generated)


def test_the_password_can_come_from_the_environment(db_url, tmp_path, monkeypatch):
    from facilitator.web import create_app
    monkeypatch.setenv("FACILITATOR_ORGANIZER_PASSWORD", "from-the-environment")
    app = create_app({"TESTING": True, "DATABASE_URL": db_url, "INSTANCE_PATH": str(tmp_path / "instance")})
    assert "from-the-environment" not in stored_hash(app)
    assert signs_in(app, "from-the-environment")
