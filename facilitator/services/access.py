"""Who may change what, as stored: the organizer's password and sessions, each table's host
link and PIN, the count of wrong PINs and passwords per client, and the tables each client
created without signing in.

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
import zlib

from sqlalchemy import delete, func, text
from sqlmodel import select
from werkzeug.security import check_password_hash, generate_password_hash

from facilitator.storage.models import GameTable, LoginFailure, OrganizerSession, Setting

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
    from .tables import _write_table
    session.flush()  # a table just added is in the database before its row is updated
    _write_table(session, table, {"token": new_token(), "pin": new_pin(session)})
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
#: how long a failure is kept when its gate does not say (a day: longer than any window)
KEEP_SECONDS = 86400
#: the advisory lock (PostgreSQL) that makes one attempt's check and its record one step
_HOLD = text("SELECT pg_advisory_xact_lock(CAST(:key AS bigint))")


class MemoryFailures:
    """Failures kept in this process (for the rule's unit tests and a CLI)."""

    def __init__(self):
        self._failures = {}
        self._lock = threading.Lock()

    def hold(self, gate):
        """Nothing to hold: the rule's unit tests make one attempt at a time."""

    def recent(self, gate, key, since):
        with self._lock:
            fails = [t for t in self._failures.get((gate, key), []) if t > since]
            self._failures[(gate, key)] = fails
            return sorted(fails)

    def count(self, gate, since):
        with self._lock:
            return sum(1 for (g, _key), times in self._failures.items() if g == gate for t in times if t > since)

    def add(self, gate, key, at, keep=KEEP_SECONDS):
        with self._lock:
            self._failures.setdefault((gate, key), []).append(at)


class DatabaseFailures:
    """Failures kept in the database: shared by every server process."""

    def __init__(self, session):
        self.s = session

    def hold(self, gate):
        """Until this transaction ends, no other attempt at ``gate`` is checked: so a burst of
        requests sent at once cannot all pass one check before any of them is counted. On
        PostgreSQL a transaction-level advisory lock does it; SQLite serializes writers already
        (a request that may write takes the write lock before it reads, and a transaction
        that read before another's write is refused its own write)."""
        connection = self.s.connection()
        if connection.dialect.name == "postgresql":
            connection.execute(_HOLD, {"key": zlib.crc32(b"facilitator guessing: " + gate.encode())})

    def recent(self, gate, key, since):
        rows = self.s.exec(select(LoginFailure.at).where(LoginFailure.gate == gate, LoginFailure.client == key[:100],
                                                          LoginFailure.at > since)
                           .order_by(LoginFailure.at)).all()
        return list(rows)

    def count(self, gate, since):
        """Failures at ``gate`` from every address since ``since``."""
        return self.s.exec(select(func.count(LoginFailure.id)).where(LoginFailure.gate == gate,
                                                                     LoginFailure.at > since)).one()

    def add(self, gate, key, at, keep=KEEP_SECONDS):
        self.s.add(LoginFailure(gate=gate, client=key[:100], at=at))
        self.s.flush()
        # rows of this gate older than its window count for nothing: the server-wide count
        # stays a count of a few minutes' rows however long an attack goes on
        self.s.exec(delete(LoginFailure).where(LoginFailure.gate == gate, LoginFailure.at < at - keep))


def clock():
    """Seconds of wall-clock time: comparable between server processes, unlike a monotonic clock."""
    return time.time()


class Throttle:
    """Slows down guessing (PINs, the organizer's password), whatever is typed in between.

    * Per address: after ``free`` failures within ``window`` seconds, each further attempt must
      wait, doubling from ``base_wait`` up to ``max_wait`` seconds after the last failure. A
      right answer forgives nothing: anyone can get a right PIN (a table created on their own
      tablet), so typing one between guesses must not wipe the count.
    * Server-wide: while the gate has seen ``server_limit`` failures or more within the window
      from all addresses together (guessing spread over many addresses), an address with
      ``alarm_free`` failures or more of its own waits ``max_wait`` after its last one.
    * An address with fewer than ``alarm_free`` failures of its own (none, or one honest typo)
      is always let through: a host typing the right PIN is never locked out by someone else's
      guessing.
    """

    def __init__(self, free=5, window=300, base_wait=2, max_wait=300, server_limit=50, alarm_free=2,
                 store=None, gate="pin"):
        self.free, self.window, self.base_wait, self.max_wait = free, window, base_wait, max_wait
        self.server_limit, self.alarm_free = server_limit, min(alarm_free, free)
        self.store = store if store is not None else MemoryFailures()
        self.gate = gate

    def wait_left(self, key, now=None):
        """Seconds this address must still wait before its next attempt (0 = may try now).
        Holds the gate (see ``DatabaseFailures.hold``) until the caller's transaction ends."""
        self.store.hold(self.gate)
        now = clock() if now is None else now
        since = now - self.window
        fails = self.store.recent(self.gate, key, since)
        if len(fails) < self.alarm_free:
            return 0
        wait = 0
        if len(fails) >= self.free:
            wait = min(self.max_wait, self.base_wait * 2 ** min(len(fails) - self.free, 32))
        if wait < self.max_wait and self.server_limit and self.store.count(self.gate, since) >= self.server_limit:
            wait = self.max_wait
        return max(0, math.ceil(fails[-1] + wait - now)) if wait else 0  # never 0 before the wait is over

    def failed(self, key, now=None):
        self.store.add(self.gate, key, clock() if now is None else now, keep=self.window)


class Quota:
    """At most ``limit`` uses per address within ``window`` seconds: the tables a tablet creates
    without signing in (each comes with a PIN, and a server is not to be filled with them)."""

    def __init__(self, limit=10, window=3600, store=None, gate="lone_table"):
        self.limit, self.window = limit, window
        self.store = store if store is not None else MemoryFailures()
        self.gate = gate

    def wait_left(self, key, now=None):
        """Seconds until this address may use the quota again (0 = now); holds the gate until
        the caller's transaction ends."""
        self.store.hold(self.gate)
        now = clock() if now is None else now
        used = self.store.recent(self.gate, key, now - self.window)
        if len(used) < self.limit:
            return 0
        # the use that must leave the window to bring the count under the limit
        return max(1, math.ceil(used[len(used) - self.limit] + self.window - now))

    def used(self, key, now=None):
        self.store.add(self.gate, key, clock() if now is None else now, keep=self.window)
