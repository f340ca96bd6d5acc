"""The secret key: what signs every browser's session cookie and the CSRF tokens of its forms.

Every app server answering the same tablets must sign with the same key, or a tablet whose
request a reverse proxy sends to the other machine loses its session (its PIN is asked again)
and its forms «expire». Where the key lives, first found first:

* ``SECRET_KEY`` in the environment (the same value given to every server) overrides the rest;
* on a database several app servers can share (PostgreSQL), in the database (the ``Setting``
  row ``secret_key``): made once, under the start-up lock, by the first server to start on it
  (``services.db.startup``), and read by every server at its start — nothing to configure;
* on SQLite, the instance's own database, in the instance folder's ``secret_key`` file (made
  once, readable by the server's user only), as the one laptop always kept it.

A new key (``facilitator secret-key --rotate``) ends every browser's session and every form
token: tablets open their table again (QR code or PIN), organizers sign in again. Servers read
the key when they start, so every app server is restarted after it.
"""

import os
import secrets
import time
from pathlib import Path

from facilitator.storage.models import Setting

SETTING = "secret_key"  # the Setting row of a shared database's key
FILE = "secret_key"  # the file of an instance folder's key


def new_key():
    return secrets.token_hex(32)


def shared(engine):
    """Whether app servers on other machines may use this database (anything but SQLite)."""
    return engine.dialect.name != "sqlite"


def from_environment():
    return os.environ.get("SECRET_KEY") or None


# ----- a shared database's key ---------------------------------------------------------------------
def stored(s):
    row = s.get(Setting, SETTING)
    return row.value if row else None


def ensure_stored(s):
    """The database's key, made now if it has none; a database only the instance uses (SQLite)
    keeps none. Run under the start-up lock, so servers starting at the same moment agree."""
    if not shared(s.get_bind()):
        return None
    key = stored(s)
    if key is None:
        key = new_key()
        s.add(Setting(key=SETTING, value=key))
        s.flush()
    return key


def rotate_stored(s):
    """A new key in the database in place of the old one; returns it."""
    row = s.get(Setting, SETTING) or Setting(key=SETTING, value="")
    row.value = new_key()
    s.add(row)
    s.flush()
    return row.value


# ----- an instance folder's key ----------------------------------------------------------------------
def instance_key(folder):
    """The key kept in the instance folder, made there once (atomically, so workers starting
    together agree on it) if it is not there yet."""
    path = Path(folder) / FILE
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "w") as fh:
                fh.write(new_key())
    for _attempt in range(50):
        key = path.read_text().strip()
        if key:
            return key
        time.sleep(0.02)  # another worker is writing it right now
    raise RuntimeError(f"the secret key file {path} is empty")


def rotate_instance_key(folder):
    """A new key in the instance folder's file, put in place at once (never half-written)."""
    path = Path(folder) / FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{FILE}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    key = new_key()
    with os.fdopen(fd, "w") as fh:
        fh.write(key)
    os.replace(tmp, path)
    return key


# ----- the server's key ------------------------------------------------------------------------------
def app_key(engine, folder):
    """The key an app server signs with: ``SECRET_KEY``, else the shared database's (made by
    ``services.db.startup``, which has run), else the instance folder's."""
    key = from_environment()
    if key:
        return key
    if shared(engine):
        from facilitator.services.db import session_scope
        with session_scope(engine) as s:
            key = stored(s)
        if key is None:
            raise RuntimeError("the database holds no secret key: services.db.startup() makes it")
        return key
    return instance_key(folder)


def rotate(engine, folder):
    """A new key where the servers on ``engine`` read theirs; returns where it was put."""
    if shared(engine):
        from facilitator.services.db import session_scope
        with session_scope(engine) as s:
            rotate_stored(s)
        return "the database"
    rotate_instance_key(folder)
    return str(Path(folder) / FILE)
