"""Who may change what: the organizer (password), a table's host (link token or PIN), and
everyone else (read-only public pages).

The organizer's password is set through the CLI (``facilitator organizer-password``) or the
``FACILITATOR_ORGANIZER_PASSWORD`` environment variable and stored hashed. A signed-in
organizer's cookie holds a session secret stored (hashed) by ``services.access``: signing out
ends that session for every copy of the cookie, a password change ends them all. Password and
PIN attempts are rate-limited per client address (a right answer forgives no wrong one) and
server-wide, counted in the database (every server process sees the same count); so are the
tables an address creates without signing in. Behind the reverse proxy the address is the
forwarded one (``TrustedProxyFix``, or waitress's trusted-proxy options).
"""

import functools

from flask import abort, current_app, flash, g, redirect, request, session, url_for

from facilitator.i18n import gettext as _
from facilitator.services import access
from facilitator.services.access import PASSWORD_KEY, Throttle, check_password, password_hash, set_password  # noqa: F401

ORGANIZER = "organizer"


# ----- rate limiting ---------------------------------------------------------------------
def client_key():
    return request.remote_addr or "unknown"


def throttle(name):
    """The throttle of a gate ("pin", "password"), its failures kept in the request's session
    (the app's ``THROTTLE`` setting tunes it: ``Throttle``'s arguments)."""
    from facilitator.web import db
    cfg = current_app.config.get("THROTTLE", {})
    return Throttle(**cfg, store=access.DatabaseFailures(db()), gate=name)


def lone_tables():
    """The quota of tables one address may create without signing in (the app's
    ``LONE_TABLES`` setting tunes it: ``limit`` tables per ``window`` seconds)."""
    from facilitator.web import db
    cfg = current_app.config.get("LONE_TABLES", {})
    return access.Quota(**cfg, store=access.DatabaseFailures(db()), gate="lone_table")


# ----- who is asking ---------------------------------------------------------------------
def is_organizer():
    """Whether this browser holds a live organizer session (checked once per request)."""
    if "is_organizer" not in g:
        secret = session.get(ORGANIZER)
        if not secret:
            g.is_organizer = False
        else:
            from facilitator.web import db
            g.is_organizer = access.session_valid(db(), secret)
    return g.is_organizer


def sign_in(s):
    """Start an organizer session for this browser (after the password was checked): a fresh
    session, so nothing set before the password counts, but the language chosen is kept."""
    lang = session.get("lang")
    session.clear()
    if lang:
        session["lang"] = lang
    session[ORGANIZER] = access.start_session(s)
    session.permanent = True
    g.is_organizer = True


def sign_out(s):
    access.end_session(s, session.get(ORGANIZER))
    session.pop(ORGANIZER, None)
    g.is_organizer = False


def grant_table(table):
    """Let this browser run ``table`` for as long as the table's current token stands."""
    grants = dict(session.get("tables", {}))
    grants[str(table.id)] = access.fingerprint(table.token)
    session["tables"] = grants


def may_host(table):
    """The organizer runs every table; a host runs a table they opened with its current link
    or PIN (reissuing the token revokes every earlier grant)."""
    if is_organizer():
        return True
    granted = session.get("tables", {}).get(str(table.id))
    return bool(granted and table.token and granted == access.fingerprint(table.token))


def granted_table_ids():
    out = []
    for key in session.get("tables", {}):
        try:
            out.append(int(key))
        except ValueError:
            continue
    return out


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
