"""Who may change what, as stored: the organizer's password and sessions, each table's host
link and PIN, and the count of wrong PINs and passwords per client.

Everything here lives in the database, so every server process sees the same: a session ended
by signing out is ended for every copy of its cookie, a password change ends every organizer
session, and five wrong PINs are five whichever worker answered them.
"""

import hashlib
import math
import os
import secrets
import threading
import time

from sqlalchemy import delete, func
from sqlmodel import select
from werkzeug.security import check_password_hash, generate_password_hash

from ..storage.models import GameTable, LoginFailure, OrganizerSession, Setting

PASSWORD_KEY = "organizer_password"
PIN_DIGITS = 6
MIN_PASSWORD = 6


# ----- the organizer's password and sessions -----------------------------------------------------
def password_hash(s):
    row = s.get(Setting, PASSWORD_KEY)
    return row.value if row else None


def set_password(s, password):
    """Store a new password (hashed) and end every organizer session signed in with the old one."""
    if len(password) < MIN_PASSWORD:
        raise ValueError(f"the organizer password needs at least {MIN_PASSWORD} characters")
    row = s.get(Setting, PASSWORD_KEY) or Setting(key=PASSWORD_KEY, value="")
    row.value = generate_password_hash(password)
    s.add(row)
    end_all_sessions(s)


def ensure_password_from_env(s):
    """Take the password from ``FACILITATOR_ORGANIZER_PASSWORD`` when none is stored yet."""
    wanted = os.environ.get("FACILITATOR_ORGANIZER_PASSWORD")
    if wanted and not password_hash(s):
        set_password(s, wanted)


def check_password(s, password):
    stored = password_hash(s)
    return bool(stored and password and check_password_hash(stored, password))


def _session_key(secret):
    return hashlib.sha256(secret.encode()).hexdigest()


def start_session(s):
    """A new organizer session; returns the secret the browser's cookie keeps."""
    secret = secrets.token_urlsafe(32)
    s.add(OrganizerSession(id=_session_key(secret)))
    s.flush()
    return secret


def session_valid(s, secret):
    return bool(secret) and isinstance(secret, str) and s.get(OrganizerSession, _session_key(secret)) is not None


def end_session(s, secret):
    if secret and isinstance(secret, str):
        s.exec(delete(OrganizerSession).where(OrganizerSession.id == _session_key(secret)))


def end_all_sessions(s):
    s.exec(delete(OrganizerSession))


# ----- host links and PINs --------------------------------------------------------------------------
def new_token():
    return secrets.token_urlsafe(24)


def new_pin(session):
    """A six-digit PIN no other table has."""
    while True:
        pin = f"{secrets.randbelow(10 ** PIN_DIGITS):0{PIN_DIGITS}d}"
        if session.exec(select(GameTable).where(GameTable.pin == pin)).first() is None:
            return pin


def reissue_access(session, table):
    """Revoke a table's host link and PIN and issue new ones."""
    table.token = new_token()
    table.pin = new_pin(session)
    session.add(table)
    session.flush()
    return table


def ensure_access(session, table):
    """Give a table created without them its host link and PIN."""
    if not table.token or not table.pin:
        reissue_access(session, table)
    return table


def fingerprint(token):
    """What a browser keeps of a table's token: reissuing the token revokes every grant."""
    return hashlib.sha256((token or "").encode()).hexdigest()[:16]


# ----- slowing down guessing ------------------------------------------------------------------------
class MemoryFailures:
    """Failures kept in this process (for the rule's unit tests and a CLI)."""

    def __init__(self):
        self._failures = {}
        self._lock = threading.Lock()

    def recent(self, gate, key, since):
        with self._lock:
            fails = [t for t in self._failures.get((gate, key), []) if t > since]
            self._failures[(gate, key)] = fails
            return sorted(fails)

    def add(self, gate, key, at):
        with self._lock:
            self._failures.setdefault((gate, key), []).append(at)

    def clear(self, gate, key):
        with self._lock:
            self._failures.pop((gate, key), None)


class DatabaseFailures:
    """Failures kept in the database: shared by every server process."""

    def __init__(self, session):
        self.s = session

    def recent(self, gate, key, since):
        rows = self.s.exec(select(LoginFailure.at).where(LoginFailure.gate == gate, LoginFailure.client == key,
                                                          LoginFailure.at > since)
                           .order_by(LoginFailure.at)).all()
        return list(rows)

    def add(self, gate, key, at):
        self.s.add(LoginFailure(gate=gate, client=key[:100], at=at))
        self.s.flush()
        # old rows of this gate are of no use once out of every window
        self.s.exec(delete(LoginFailure).where(LoginFailure.gate == gate, LoginFailure.at < at - 86400))

    def clear(self, gate, key):
        self.s.exec(delete(LoginFailure).where(LoginFailure.gate == gate, LoginFailure.client == key))

    def count(self):
        return self.s.exec(select(func.count(LoginFailure.id))).one()


def clock():
    """Seconds of wall-clock time: comparable between server processes, unlike a monotonic clock."""
    return time.time()


class Throttle:
    """Slows down guessing: after ``free`` failures from one address within ``window``
    seconds, each further attempt must wait, doubling up to ``max_wait`` seconds."""

    def __init__(self, free=5, window=300, base_wait=2, max_wait=300, store=None, gate="pin"):
        self.free, self.window, self.base_wait, self.max_wait = free, window, base_wait, max_wait
        self.store = store if store is not None else MemoryFailures()
        self.gate = gate

    def wait_left(self, key, now=None):
        """Seconds this address must still wait before its next attempt (0 = may try now)."""
        now = clock() if now is None else now
        fails = self.store.recent(self.gate, key, now - self.window)
        if len(fails) < self.free:
            return 0
        wait = min(self.max_wait, self.base_wait * 2 ** (len(fails) - self.free))
        return max(0, math.ceil(fails[-1] + wait - now))  # never 0 before the wait is over

    def failed(self, key, now=None):
        self.store.add(self.gate, key, clock() if now is None else now)

    def succeeded(self, key):
        self.store.clear(self.gate, key)
