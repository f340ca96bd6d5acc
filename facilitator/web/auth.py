"""Who may change what: the organizer (password), a table's host (link token or PIN), and
everyone else (read-only public pages).

The organizer's password is set through the CLI (``facilitator organizer-password``) or the
``FACILITATOR_ORGANIZER_PASSWORD`` environment variable and stored hashed (werkzeug's
scrypt/pbkdf2). Password and PIN attempts are rate-limited per client address.
"""

import functools
import math
import os
import threading
import time

from flask import abort, current_app, flash, redirect, request, session, url_for
from werkzeug.security import check_password_hash, generate_password_hash

from ..i18n import gettext as _
from ..storage.models import Setting

PASSWORD_KEY = "organizer_password"


# ----- the organizer's password ------------------------------------------------------------
def password_hash(s):
    row = s.get(Setting, PASSWORD_KEY)
    return row.value if row else None


def set_password(s, password):
    if len(password) < 6:
        raise ValueError("the organizer password needs at least 6 characters")
    row = s.get(Setting, PASSWORD_KEY) or Setting(key=PASSWORD_KEY, value="")
    row.value = generate_password_hash(password)
    s.add(row)


def ensure_password_from_env(s):
    """Take the password from ``FACILITATOR_ORGANIZER_PASSWORD`` when none is stored yet."""
    wanted = os.environ.get("FACILITATOR_ORGANIZER_PASSWORD")
    if wanted and not password_hash(s):
        set_password(s, wanted)


def check_password(s, password):
    stored = password_hash(s)
    return bool(stored and password and check_password_hash(stored, password))


# ----- rate limiting ---------------------------------------------------------------------
class Throttle:
    """Slows down guessing: after ``free`` failures from one address within ``window``
    seconds, each further attempt must wait, doubling up to ``max_wait`` seconds."""

    def __init__(self, free=5, window=300, base_wait=2, max_wait=300):
        self.free, self.window, self.base_wait, self.max_wait = free, window, base_wait, max_wait
        self._failures = {}
        self._lock = threading.Lock()

    def wait_left(self, key, now=None):
        """Seconds this address must still wait before its next attempt (0 = may try now)."""
        now = time.monotonic() if now is None else now
        with self._lock:
            fails = [t for t in self._failures.get(key, []) if now - t < self.window]
            self._failures[key] = fails
            if len(fails) < self.free:
                return 0
            wait = min(self.max_wait, self.base_wait * 2 ** (len(fails) - self.free))
            return max(0, math.ceil(fails[-1] + wait - now))  # never 0 before the wait is over

    def failed(self, key, now=None):
        with self._lock:
            self._failures.setdefault(key, []).append(time.monotonic() if now is None else now)

    def succeeded(self, key):
        with self._lock:
            self._failures.pop(key, None)


def client_key():
    return request.remote_addr or "unknown"


def throttle(name):
    throttles = current_app.extensions.setdefault("facilitator.throttles", {})
    if name not in throttles:
        cfg = current_app.config.get("THROTTLE", {})
        throttles[name] = Throttle(**cfg)
    return throttles[name]


# ----- who is asking ---------------------------------------------------------------------
def is_organizer():
    return bool(session.get("organizer"))


def _fingerprint(token):
    import hashlib
    return hashlib.sha256((token or "").encode()).hexdigest()[:16]


def grant_table(table):
    """Let this browser run ``table`` for as long as the table's current token stands."""
    grants = dict(session.get("tables", {}))
    grants[str(table.id)] = _fingerprint(table.token)
    session["tables"] = grants


def may_host(table):
    """The organizer runs every table; a host runs a table they opened with its current link
    or PIN (reissuing the token revokes every earlier grant)."""
    if is_organizer():
        return True
    granted = session.get("tables", {}).get(str(table.id))
    return bool(granted and table.token and granted == _fingerprint(table.token))


def granted_table_ids():
    return [int(k) for k in session.get("tables", {})]


def organizer_required(view):
    @functools.wraps(view)
    def wrapped(*args, **kwargs):
        if not is_organizer():
            if request.method == "GET":
                flash(_("Sign in as the organizer to open this page"), "error")
                return redirect(url_for("organizer.login", next=request.full_path))
            abort(403)
        return view(*args, **kwargs)
    return wrapped


def require_table(table):
    """Abort with 403 unless the current user may run this table."""
    if table is None:
        abort(404)
    if not may_host(table):
        abort(403)
