"""Public, read-only pages: the projector view of an event, its standings as JSON (polled
with conditional requests), and the two ways a host opens their table (link or PIN)."""

import json
import threading
import time

from flask import (Blueprint, abort, current_app, flash, make_response, redirect, render_template, request,
                   url_for)

from facilitator import services
from facilitator.i18n import gettext as _
from facilitator.web.games import screen_url
from facilitator.web import db_session
from facilitator.web.auth import client_key, grant_table, throttle

bp = Blueprint("public", __name__)


def projector_data(s, ev, tables=None):
    """What the projector shows: team ranking (with announcement mode), top players, progress,
    and the tables left out of the rankings because they need checking (``tables``: the event's
    ``services.events.progress``, read now if not given)."""
    from facilitator import games
    tables = tables if tables is not None else services.events.progress(s, ev.id)
    result = services.events.event_standings(s, ev.id, tables)
    teams = result["teams"]
    revealed = None
    if ev.announce_step:
        # announcement: one step at a time, what the game reveals (GamePackage.announced: «16/25»
        # its places from the last to the first, the other games each table's result in turn)
        game = games.get(ev.ruleset)
        order = game.announced(result)
        shown = order[:ev.announce_step]
        revealed = {"step": ev.announce_step, "total": len(order), "unit": game.announces, "items": shown,
                    # the places revealed, best first (a game announcing places)
                    "teams": list(reversed(shown)) if game.announces == "places" else [],
                    "done": ev.announce_step >= len(order)}
    extra = {k: v for k, v in result.items() if k not in ("format", "tables", "teams", "individuals", "ranked_by",
                                                           "left_out", "provisional", "ruleset")}
    return {
        # while places are being announced, nothing else of the standings is sent (a game's own
        # keys, such as each table's winners, would give them away)
        **({} if revealed else extra),
        "ruleset": ev.ruleset,
        "event": {"id": ev.id, "name": ev.name, "date": ev.date},
        "provisional": result["provisional"],
        "ranked_by": result["ranked_by"],
        # while places are being announced, the places not yet revealed are not sent at all
        "teams": revealed["teams"] if revealed else teams,
        "individuals": [] if revealed else result["individuals"][:10],
        "announcement": revealed,
        "left_out": result["left_out"],
        "tables": [{"name": t.table.name, **_progress(t.standing)} for t in tables],
    }


#: the projector's chart in its own units: 28-unit labels across a 1840-unit width fill a
#: 1920-pixel screen's width (less its margins) at 24 px or more; 760 units high, the chart view
#: (the screen less the header and the chart's caption: about 2.2:1) is filled by its width
CHART = {"width": 1840, "height": 760, "font": 28}


class _Lazy:
    """A table for the projector's chart: its row, ``seq`` and ``rev`` at once, the rest of a
    loaded table (its game, standing, pack, log) read on first use, so a game's hook that keeps
    each table's series per position (``games.walk.remembered``) loads only the tables that moved."""

    def __init__(self, s, row):
        self.table, self.seq, self.rev = row, row.seq, row.rev
        self._s, self._loaded = s, None

    def __getattr__(self, name):
        if self._loaded is None:
            self._loaded = services.load(self._s, self.table.id)
        return getattr(self._loaded, name)


def projector_charts(s, ev, rows=None):
    """The event's charts (``GamePackage.projector_chart``), each ``{"title", "svg"}`` (its
    ``<svg>`` markup): its tables that have players and replay (``rows``: the event's table rows,
    read now if not given), each loaded only if the game asks more than its row (their games
    from the process's cache)."""
    from facilitator import games
    from facilitator.reports import svgchart
    game = games.get(ev.ruleset)
    if not game.offers("projector_chart"):
        return []
    rows = rows if rows is not None else services.events.tables_of(s, ev.id)
    rows = [t for t in rows if t.players and t.status not in ("broken", "setup")]
    if not rows:
        return []
    figures = game.projector_chart([_Lazy(s, row) for row in rows])
    figures = figures if isinstance(figures, list) else [figures] if figures is not None else []
    return [{"title": f.title, "svg": svgchart.svg(f, css_class="chart projector-chart", **CHART)} for f in figures]


def _progress(standing):
    """Where a table's game stands, for the projector's progress line: «16/25» its round, Alter
    Ego its season and turn, New Angeles its round slot."""
    if not standing:
        return {"round": None, "finished": False}
    out = {"round": standing.get("round"), "finished": standing["finished"]}
    for key in ("season", "turn"):
        if key in standing:
            out[key] = standing[key]
    return out


@bp.get("/e/<int:event_id>")
def projector(event_id):
    """The page a hall's screen opens once; it then polls ``standings.json`` by itself. It shows
    the standings and the game's chart in turn (``projector.js``); ``?view=standings`` or
    ``?view=chart`` pins one of them (a second screen in the hall). Without JavaScript the page
    shows the standings, or the chart when asked for with ``?view=chart``."""
    entry = _standings_entry(event_id)
    data = json.loads(entry["body"])
    _speak(entry["locale"])
    view = request.args.get("view")
    return render_template("public/projector.html", data=data, etag=entry["etag"],
                           view=view if view in ("standings", "chart") else "auto",
                           fresh=current_app.config["PROJECTOR_FRESH_SECONDS"])


def _speak(locale):
    """This page speaks only ``locale`` (the event's: a hall's screen is read by all its players)."""
    from flask import g

    from facilitator.i18n import set_locale
    set_locale(locale)
    g.page_locales = (locale,)


def _standings_entry(event_id):
    """The event's current projector body and ETag, shared by every projector polling it, in
    the event's language (``i18n.event_locale``): drawn once per change of the event (its
    version is one row: O(1) however many moves the event holds) and language, whichever
    projector asks first; the others are handed the same. A drawing stands for
    ``PROJECTOR_FRESH_SECONDS`` after it was made while the games go on (``stands``)."""
    cache = current_app.extensions.setdefault("facilitator.projector_cache", {})
    locale = _projector_locale(cache, event_id)
    key = (event_id, locale)
    entry = cache.get(key)
    version = services.events.version_check(current_app.extensions["facilitator.engine"], event_id)
    if version is None:
        abort(404)
    if entry is not None and stands(entry, version, current_app.config["PROJECTOR_FRESH_SECONDS"]):
        return entry
    lock = cache.setdefault(("lock",) + key, threading.Lock())
    # while one request draws the new standings, the others are answered from the last ones
    if lock.acquire(blocking=entry is None):
        try:
            entry = cache.get(key)
            if entry is None or entry["version"] != version.tag:
                entry = cache[key] = _draw(event_id, version, locale)
        finally:
            lock.release()
    return entry


def stands(entry, version, fresh):
    """Whether the projector's drawing ``entry`` still stands for the event at ``version`` (its
    ``services.events.Version`` now): it was drawn at this version; or the event moved on less
    than ``fresh`` seconds after it was drawn while its games go on — a screen in a hall need not
    be drawn again more often than that (``PROJECTOR_FRESH_SECONDS``; 0: at every change), and
    the moves of those seconds show at the next drawing. Never held back: the final rankings
    (every table finished, at the drawing or now) nor an announcement."""
    if entry["version"] == version.tag:
        return True
    return (fresh > 0 and entry["playing"] and version.playing and not version.announcing
            and time.monotonic() - entry["drawn"] < fresh)


def _projector_locale(cache, event_id):
    """The projector's language: the event's (``i18n.event_locale``), or one of its game's asked
    for in the address (``?lang=en``) by a screen that wants another."""
    known = _languages(cache, event_id)
    if known is None:
        abort(404)
    asked = request.args.get("lang")
    return asked if asked in known[1] else known[0]


def _languages(cache, event_id, read=True):
    """``(the event's language, its game's languages)``, kept with the projector's cache: they
    never change, and a poll reads no row for them. None for an unknown event (or, with
    ``read`` false, one not read yet)."""
    from facilitator.i18n import event_locale, game_locales
    known = cache.get(("languages", event_id))
    if known is None and read:
        with db_session() as s:
            ev = services.events.get_event(s, event_id)
            if ev is None:
                return None
            known = cache[("languages", event_id)] = (event_locale(ev), game_locales(ev.ruleset))
    return known


def _draw(event_id, version, locale):
    """The projector's body for the event now, in ``locale``: its standings and chart
    (``version``: the event's ``Version``, read before)."""
    from facilitator.i18n import use_locale
    with db_session() as s:
        ev = services.events.get_event(s, event_id) or abort(404)
        with use_locale(locale):
            tables = services.events.progress(s, ev.id)  # every table's row and kept standing, read once
            data = projector_data(s, ev, tables)
            # the game's picture (issue 21), drawn here as SVG; not while places are announced
            charts = [] if data["announcement"] else projector_charts(s, ev, [t.table for t in tables])
            data["rendered"] = render_template("public/_standings.html", data=data, charts=charts)
    return {"version": version.tag, "etag": f"{version.tag}-{locale}", "locale": locale,
            "playing": version.playing and not version.announcing, "drawn": time.monotonic(),
            "body": json.dumps(data, ensure_ascii=False).encode("utf-8")}


def poll_answer(app, event_id, lang, tags):
    """For a projector's poll answered before the app (``web.polls``): ``(etag, None)`` for a
    304 while the drawing its poll holds still stands (``stands``: the event has not changed
    since, or changed within the freshness window of the last drawing; the change check is one
    row read by its key, or none on a server alone on its SQLite file); ``(etag, body)`` for a
    projector holding an earlier drawing than the one that stands (the shared drawing, handed
    over as it is); None when the app is to answer (to draw it)."""
    cache = app.extensions.get("facilitator.projector_cache", {})
    known = _languages(cache, event_id, read=False)
    if known is None:
        return None
    version = services.events.version_check(app.extensions["facilitator.engine"], event_id)
    if version is None:
        return None
    locale = lang if lang in known[1] else known[0]
    entry = cache.get((event_id, locale))
    if entry is not None and stands(entry, version, app.config["PROJECTOR_FRESH_SECONDS"]):
        return (entry["etag"], None) if entry["etag"] in tags else (entry["etag"], entry["body"])
    etag = f"{version.tag}-{locale}"
    if etag in tags:
        return etag, None
    return None


@bp.get("/e/<int:event_id>/standings.json")
def standings_json(event_id):
    """The projector's data with an ETag: 304 when nothing changed. However many projectors
    poll, the standings are drawn once per change, and while the games go on at most once per
    ``PROJECTOR_FRESH_SECONDS``."""
    entry = _standings_entry(event_id)
    if request.if_none_match.contains_weak(entry["etag"]):
        response = make_response("", 304)
    else:
        response = current_app.response_class(entry["body"], mimetype="application/json")
    response.set_etag(entry["etag"], weak=True)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/events")
def event_list():
    with db_session() as s:
        rows = services.events.events(s)
    return render_template("public/events.html", events=rows)


@bp.get("/t/<token>")
def host_link(token):
    with db_session() as s:
        table = services.table_by_token(s, token)
        if table is None:
            flash(_("This table link is not valid (it may have been reissued). Ask the organizer for "
                    "a new one, or enter the table's PIN."), "error")
            return redirect(url_for("public.pin"), 303)
        grant_table(table)
        _event_language(s, table)
        where = screen_url(table, "turn")
    return redirect(where, 303)


def _event_language(s, table):
    """A table of an event opens in the event's language (the organizer chose it for the event),
    by its QR link or its PIN, unless the host chose another on this browser's switch."""
    from flask import session

    from facilitator.i18n import event_locale
    if table.event_id is None or session.get("lang"):
        return
    ev = services.events.get_event(s, table.event_id)
    if ev is not None:
        session["lang"] = event_locale(ev)


@bp.route("/pin", methods=["GET", "POST"])
def pin():
    from flask_wtf import FlaskForm
    status = 200
    if request.method == "POST":
        if not FlaskForm().validate():
            flash(_("The form expired or was not sent from this page; try again"), "error")
            return render_template("public/pin.html"), 400
        with db_session() as s:
            gate = throttle("pin")
            wait = gate.wait_left(client_key())
            if wait:
                flash(_("Too many wrong PINs. Try again in {seconds} s.", seconds=wait), "error")
                response = make_response(render_template("public/pin.html"), 429)
                response.headers["Retry-After"] = str(wait)
                return response
            code = "".join(ch for ch in request.form.get("pin", "")[:40] if ch.isdigit())
            table = services.table_by_pin(s, code) if code else None
            if table is not None:  # the wrong PINs before it still count (Throttle)
                grant_table(table)
                _event_language(s, table)
                return redirect(screen_url(table, "turn"), 303)
            gate.failed(client_key())
        flash(_("No table has this PIN"), "error")
        status = 401
    return render_template("public/pin.html"), status
