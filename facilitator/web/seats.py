"""A seat for every player (issue 21): a read-only page of the player's own, on their phone, opened
by a secret link of its own (``/p/<secret>``), no sign-in. The host's screen shows each
player's link as a QR code (``/table/<id>/seats``); the organizer revokes a link there (it then
answers 410 Gone, and the page offers a new one).

Game-agnostic: what a player's page shows is the game's (``GamePackage.player_view``, its own
template), and its personal PDF too (``player_sheet``). A page polls itself with its ETag: the
answer is 304 while nothing of the player's changed — from the table's row alone (one indexed
lookup with the seat) while the table has not moved, answered in front of the app
(``web.polls``); from the player's own state (``GamePackage.player_state``) when the table moved
without changing it — so a room of phones costs the server next to nothing between moves, and a
move redraws the pages of the players it changed only.
"""

import hashlib
import json
import re
import threading
from collections import OrderedDict
from typing import NamedTuple
from urllib.parse import quote

from flask import Blueprint, abort, current_app, flash, make_response, redirect, render_template, request, send_file, url_for

from facilitator import games, services
from facilitator.i18n import get_locale, spoken
from facilitator.i18n import gettext as _
from facilitator.web import db, db_session, use_locales
from facilitator.web.auth import is_organizer, require_table

bp = Blueprint("seats", __name__)

#: how often a player's page asks whether something changed (seconds): a table's moves come
#: tens of seconds apart, and 200 phones at this pace cost the server a few per cent of a core
#: (benchmarks/bench_seats.py)
POLL_SECONDS = 10


def has_player_pages(game):
    """Whether ``game`` gives its players pages of their own."""
    return game.offers("player_view")


def seat_locale(game, event=None):
    """The language a player's link opens their page in (the QR codes carry it as ``?lang=``):
    the event's when it has one its game speaks (``event.language``), else this page's when the
    game speaks it (the host's, the organizer's), else the game's first. The player's page then
    offers every language of the game."""
    chosen = getattr(event, "language", None)
    if chosen in game.locales:
        return chosen
    return spoken(get_locale(), game.locales)


def event_of(row):
    """The event of a table row (None for a lone table), for its language."""
    return services.events.get_event(db(), row.event_id) if row.event_id else None


def player_pages(loaded, game=None, lang=None):
    """``{player: the absolute link of their page}`` of a table with players (its seats made
    now if missing), or {} when the game has no player pages or the table no players. With
    ``lang`` each link opens the page in that language (``?lang=``)."""
    game = game or games.of_table(loaded.table)
    if loaded.game is None or loaded.broken or not has_player_pages(game):
        return {}
    secrets = services.seats.links(db(), loaded.table, game.player_names(loaded))
    head, tail = _link_parts(lang)
    return {name: head + quote(secret, safe=_PATH_SAFE) + tail for name, secret in secrets.items()}


def _link_parts(lang):
    """A player's link before and after its secret: one address built per address the server is
    reached at and language, each link its secret put in it (as url_for puts a path's part). A
    move's answer names every player's link: building the address was a twentieth of its work."""
    from facilitator.web.organizer import public_base
    environ = request.environ
    key = (current_app.config.get("PUBLIC_URL"), environ.get("wsgi.url_scheme"), environ.get("HTTP_HOST"),
           environ.get("SERVER_NAME"), environ.get("SERVER_PORT"), environ.get("SCRIPT_NAME"), lang)
    kept = current_app.extensions.setdefault("facilitator.player_link_parts", {})
    parts = kept.get(key)
    if parts is None:
        query = {"lang": lang} if lang else {}
        parts = tuple((public_base() + url_for("seats.page", token=_SECRET, **query)).split(_SECRET, 1))
        if len(kept) >= 64:  # a server is reached at a few addresses; a flood of Host headers starts it again
            kept.clear()
        kept[key] = parts
    return parts


#: a secret's place in a player's link while it is built, and what a path's part keeps unquoted
#: (werkzeug's converters: https://url.spec.whatwg.org/#url-path-segment-string)
_SECRET = "~~secret~~"  # a host name never holds "~"
_PATH_SAFE = "!$&'()*+,/:;=@"


def _seat(token):
    """``(seat, table row, game)`` of a live link, the page speaking the game's languages; 404
    for an unknown secret, 410 for a revoked one."""
    found = services.seats.by_token(db(), token)
    if found is None:
        abort(404)
    seat, row = found
    game = games.of_table(row)
    use_locales(game.locales, game.key)
    if seat.revoked_at is not None:
        _gone()
    return seat, row, game


def _gone():
    abort(make_response(render_template("seat/gone.html"), 410))


# ----- the change check ------------------------------------------------------------------------
# A page's ETag names its seat, the position of its table it was drawn at (``seq``, ``rev`` and
# ``line``: ``services.seats.Check``), its language and the digest of the player's own state
# there (``GamePackage.player_state``; "-" when the game gives none, or for a page waiting for
# the game). A poll is answered 304 when the table has not moved since (one indexed read), or
# when it has moved on in the same game and the player's state is still the one the page holds:
# the digests of a position are worked out once per process for all its players together, by
# the first of their pages to ask after the move.

_ETAG = re.compile(r"^s(\d+)\.(\d+)\.(\d+)\.(\d+)\.([A-Za-z_]{2,12})\.([0-9a-f]{18}|-)$")


class Held(NamedTuple):
    """A page's ETag as its poll sends it back (``If-None-Match``)."""
    seat: int
    seq: int
    rev: int
    line: int
    locale: str
    state: str

    def __str__(self):
        return f"s{self.seat}.{self.seq}.{self.rev}.{self.line}.{self.locale}.{self.state}"


def held(values):
    """The page ETags among ``values`` (the opaque tags of an ``If-None-Match``)."""
    out = []
    for value in values:
        found = _ETAG.match(value)
        if found:
            seat, seq, rev, line, locale, state = found.groups()
            out.append(Held(int(seat), int(seq), int(rev), int(line), locale, state))
    return out


def digest(state):
    """A player's state (``GamePackage.player_state``) as the few characters an ETag carries;
    "-" for None (no state: the page follows every move of its table)."""
    if state is None:
        return "-"
    text = json.dumps(state, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.blake2b(text.encode("utf-8"), digest_size=9).hexdigest()


#: positions whose players' digests a process keeps (a few short strings each)
KEEP_STATES = 4096


class States:
    """``{player: digest}`` of each table position, kept by ``(table, seq, rev, line)``."""

    def __init__(self):
        self._items, self._lock = OrderedDict(), threading.Lock()

    def get(self, check):
        with self._lock:
            return self._items.get((check.table, check.seq, check.rev, check.line))

    def of(self, loaded, game):
        """Every player's digest at the position ``loaded`` (worked out now if not kept)."""
        table = loaded.table
        key = (table.id, table.seq, table.rev, table.seq - (table.move_count or 0))
        with self._lock:
            known = self._items.get(key)
        if known is None:
            known = {name: digest(game.player_state(loaded, name)) for name in game.player_names(loaded)}
            with self._lock:
                self._items[key] = known
                while len(self._items) > KEEP_STATES:
                    self._items.popitem(last=False)
        return known


def states(app=None):
    """The app's ``States``."""
    extensions = (app or current_app).extensions
    kept = extensions.get("facilitator.seat_states")
    if kept is None:
        kept = extensions.setdefault("facilitator.seat_states", States())
    return kept


_locales = {}  # ruleset -> its game's languages (a poll before the app asks them of no registry)


def _game_locales(ruleset):
    known = _locales.get(ruleset)
    if known is None:
        try:
            known = _locales[ruleset] = tuple(games.get(ruleset).locales)
        except KeyError:
            return ()
    return known


def still_current(check, locale, tags, kept):
    """The ETag of the page a poll holds (one of ``tags``), moved on to the table's position now
    (``check``), when that page is still the player's page in ``locale``; else None. ``kept``:
    the app's ``States`` (a position whose digests are not kept yet answers None)."""
    for tag in tags:
        if tag.seat != check.seat or tag.locale != locale:
            continue
        if (tag.seq, tag.rev, tag.line) == (check.seq, check.rev, check.line):
            return str(tag)
        if tag.state != "-" and tag.rev == check.rev and tag.line == check.line and tag.seq < check.seq:
            digests = kept.get(check)
            if digests is not None and digests.get(check.player) == tag.state:
                return str(tag._replace(seq=check.seq))
    return None


def _same_game(check, locale, tags):
    """Whether one of ``tags`` was drawn earlier in the game the table plays now (the player's
    state then may still be the state now)."""
    return any(t.seat == check.seat and t.locale == locale and t.state != "-" and t.rev == check.rev
               and t.line == check.line and t.seq < check.seq for t in tags)


#: poll answers a process keeps (see ``unchanged``)
KEEP_ANSWERS = 20_000


def unchanged(app, token, lang, inm):
    """For a poll answered before the app (``web.polls``): the ETag to answer 304 with, or None
    (the app answers: a page to draw, an unknown or revoked link, a language the link does not
    name). ``inm``: the poll's ``If-None-Match`` as sent. One indexed read (none on a server
    alone on its SQLite file while nothing touched the seat or its table: ``storage.changes``);
    the digests of a position only as this process keeps them. The answer is kept with the
    ``Check`` it was worked out from: while the change check hands back that very ``Check``,
    the same poll gets the same answer without parsing its ETag again."""
    check = services.seats.change_check(app.extensions["facilitator.engine"], token)
    if check is None or check.revoked:
        return None
    answers = app.extensions.get("facilitator.seat_answers")
    if answers is None:
        answers = app.extensions.setdefault("facilitator.seat_answers", {})
    key = (token, lang, inm)
    kept = answers.get(key)
    if kept is not None and kept[0] is check:
        return kept[1]
    tags = held(_TAGS.findall(inm))
    if not tags or lang not in _game_locales(check.ruleset):
        return None
    etag = still_current(check, lang, tags, states(app))
    if etag is not None:
        if len(answers) >= KEEP_ANSWERS:
            answers.clear()
        answers[key] = (check, etag)
    return etag


_TAGS = re.compile(r'"([^"]*)"')


def _not_modified(etag):
    response = make_response("", 304)
    response.set_etag(etag, weak=True)
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@bp.get("/p/<token>")
def page(token):
    """The player's page, or 304 while the page its poll holds is still theirs: the table has not
    moved (one indexed read: ``services.seats.change_check``), or it has moved on without
    changing anything of this player's (``GamePackage.player_state``). A revoked link answers
    410 at its next poll, whatever ETag it holds."""
    check = services.seats.change_check(current_app.extensions["facilitator.engine"], token)
    if check is None:
        abort(404)
    try:
        game = games.get(check.ruleset)
    except KeyError:
        abort(404)
    use_locales(game.locales, game.key)
    if check.revoked:
        _gone()
    locale, kept = get_locale(), states()
    tags = held(request.if_none_match.as_set(include_weak=True)) if request.if_none_match else []
    with db_session() as s:
        loaded = None
        etag = still_current(check, locale, tags, kept) if tags else None
        if etag is None and _same_game(check, locale, tags) and kept.get(check) is None:
            # the first of the table's pages to ask since it moved: its players' states now
            loaded = services.load(s, check.table)
            if loaded.game is not None and not loaded.broken:
                kept.of(loaded, game)
                etag = still_current(check, locale, tags, kept)
        if etag is not None:
            return _not_modified(etag)
        loaded = loaded or services.load(s, check.table)
        table = loaded.table
        position = (check.seat, table.seq, table.rev, table.seq - (table.move_count or 0), locale)
        if loaded.game is None or loaded.broken:
            etag = str(Held(*position, "-"))
            html = render_template("seat/waiting.html", seat=check, table=table, broken=loaded.broken,
                                   poll=POLL_SECONDS, etag=etag)
        else:
            if check.player not in game.player_names(loaded):
                abort(404)
            etag = str(Held(*position, kept.of(loaded, game)[check.player]))
            template, context = game.player_view(loaded, check.player)
            html = render_template(template, seat=check, table=table, poll=POLL_SECONDS, etag=etag,
                                   sheet_url=url_for("seats.sheet", token=token, lang=locale)
                                   if game.offers("player_sheet") else None,
                                   **context)
    response = make_response(html)
    response.set_etag(etag, weak=True)
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Referrer-Policy"] = "no-referrer"  # the link is a secret: never sent on
    return response


@bp.get("/p/<token>/sheet.pdf")
def sheet(token):
    """The player's one-page PDF of their game (their curve, moves and place), in the page's
    language (its link carries it)."""
    from io import BytesIO

    from facilitator.web.downloads import safe_filename
    seat, row, game = _seat(token)
    with db_session() as s:
        loaded = services.load(s, row.id)
        if loaded.game is None or loaded.broken or seat.player not in game.player_names(loaded):
            abort(404)
        html = game.player_sheet(loaded, seat.player)
    if html is None:
        abort(404)
    # laid out in the printing worker: a room of players asking at the end never stalls the tablets
    data = services.exports.in_worker("facilitator.reports.pdf", "html_to_pdf", html,
                                      inline=current_app.config.get("PRINT_INLINE", False))
    return send_file(BytesIO(data), mimetype="application/pdf", as_attachment=False,
                     download_name=safe_filename(f"{loaded.table.name} {seat.player}") + ".pdf")


# ----- the host's QR codes and the organizer's revocation ---------------------------------------
def _host_table(table_id):
    try:
        row = services.get_table(db(), table_id)
    except services.TableNotFound:
        abort(404)
    require_table(row)
    game = games.of_table(row)
    use_locales(game.locales, game.key)
    return row, game


def qr_svg(url):
    """The QR code of ``url`` as an inline SVG element (scaled by its box)."""
    import segno
    return segno.make(url, error="m").svg_inline(scale=1, border=2, omitsize=True)


@bp.get("/table/<int:table_id>/seats")
def host_seats(table_id):
    """Every player's link as a QR code to scan at the table; the organizer may revoke one."""
    row, game = _host_table(table_id)
    with db_session() as s:
        loaded = services.load(s, table_id)
        pages = player_pages(loaded, game, lang=seat_locale(game, event_of(row)))
        names = game.player_names(loaded) if loaded.game is not None and not loaded.broken else []
    players = [{"name": n, "url": pages[n], "qr": qr_svg(pages[n])} for n in names if n in pages]
    from facilitator.web.games import screen_url
    return render_template("seat/host.html", table=row, players=players,
                           offered=has_player_pages(game), back=screen_url(row, "turn"))


@bp.post("/table/<int:table_id>/seats/revoke")
def revoke(table_id):
    """The organizer revokes a player's link: it answers 410 from now on; a new one is shown."""
    row, game = _host_table(table_id)
    if not is_organizer():
        abort(403)
    player = request.form.get("player", "")[:200]
    with db_session() as s:
        done = services.seats.revoke(s, table_id, player)
    if done:
        flash(_("{player}'s old link no longer opens their page; here is a new one.", player=player), "ok")
    else:
        flash(_("{player} has no link to revoke", player=player), "error")
    return redirect(url_for("seats.host_seats", table_id=table_id), 303)


__all__ = ["bp", "player_pages", "has_player_pages", "seat_locale", "qr_svg", "unchanged", "digest", "held"]
