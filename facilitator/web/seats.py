"""A seat for every player (issue 21): a read-only page of the player's own, on their phone, opened
by a secret link of its own (``/p/<secret>``), no sign-in. The host's screen shows each
player's link as a QR code (``/table/<id>/seats``); the organizer revokes a link there (it then
answers 410 Gone, and the page offers a new one).

Game-agnostic: what a player's page shows is the game's (``GamePackage.player_view``, its own
template), and its personal PDF too (``player_sheet``). A page polls itself with its ETag: the
answer is 304 from the table's row alone (its ``seq`` and ``rev``, one indexed lookup with the
seat) while nothing changed, so a room of phones costs the server next to nothing between moves.
"""

from urllib.parse import quote

from flask import Blueprint, abort, current_app, flash, make_response, redirect, render_template, request, send_file, url_for

from facilitator import games, services
from facilitator.games import GamePackage
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
    return type(game).player_view is not GamePackage.player_view


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
    from facilitator.web.organizer import public_base
    game = game or games.of_table(loaded.table)
    if loaded.game is None or loaded.broken or not has_player_pages(game):
        return {}
    seats = services.seats.ensure_seats(db(), loaded.table.id, game.player_names(loaded))
    query = {"lang": lang} if lang else {}
    # one address built, each link its secret put in it (as url_for puts a path's part)
    head, tail = (public_base() + url_for("seats.page", token=_SECRET, **query)).split(_SECRET, 1)
    return {name: head + quote(seat.token, safe=_PATH_SAFE) + tail for name, seat in seats.items()}


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
        abort(make_response(render_template("seat/gone.html"), 410))
    return seat, row, game


def _etag(seat, row):
    return f"seat-{seat.id}-{row.seq}-{row.rev}-{get_locale()}"


@bp.get("/p/<token>")
def page(token):
    """The player's page, or 304 when the table has not moved since the ETag the page holds (one
    indexed row read: ``services.seats.change_check``)."""
    if request.if_none_match:
        found = services.seats.change_check(current_app.extensions["facilitator.engine"], token)
        if found is not None and not found[1]:
            seat_id, _revoked, _table, seq, rev, ruleset = found
            game = games.get(ruleset)
            use_locales(game.locales, game.key)
            etag = f"seat-{seat_id}-{seq}-{rev}-{get_locale()}"
            if request.if_none_match.contains_weak(etag):
                response = make_response("", 304)
                response.set_etag(etag, weak=True)
                response.headers["Cache-Control"] = "no-cache"
                return response
    seat, row, game = _seat(token)
    etag = _etag(seat, row)
    if request.if_none_match.contains_weak(etag):
        response = make_response("", 304)
    else:
        with db_session() as s:
            loaded = services.load(s, row.id)
            if loaded.game is None or loaded.broken:
                html = render_template("seat/waiting.html", seat=seat, table=loaded.table, broken=loaded.broken,
                                       poll=POLL_SECONDS, etag=etag)
            else:
                if seat.player not in game.player_names(loaded):
                    abort(404)
                template, context = game.player_view(loaded, seat.player)
                html = render_template(template, seat=seat, table=loaded.table, poll=POLL_SECONDS, etag=etag,
                                       sheet_url=url_for("seats.sheet", token=token, lang=get_locale())
                                       if type(game).player_sheet is not GamePackage.player_sheet else None,
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


__all__ = ["bp", "player_pages", "has_player_pages", "seat_locale", "qr_svg"]
