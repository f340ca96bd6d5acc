"""Error pages in the screen's language, each with a way on (issue 9.5): a tablet that has no
access to a table is offered the PIN page, a page that does not exist the start page, a table
that moved on its current turn. The JSON API answers JSON instead."""

import logging

from flask import make_response, render_template, request
from werkzeug.exceptions import HTTPException, InternalServerError

from facilitator.i18n import gettext as _
from facilitator.formatting import N_

log = logging.getLogger("facilitator")
BUSY = 503

TITLES = {
    400: N_("The request was not understood"),
    401: N_("Sign in first"),
    403: N_("This device has no access here"),
    404: N_("There is no such page"),
    405: N_("This page cannot do that"),
    409: N_("The table has moved on"),
    413: N_("The file is too large"),
    422: N_("The rules do not allow this"),
    429: N_("Too many attempts"),
    500: N_("Something went wrong on the server"),
    503: N_("The server is busy"),
}
EXPLANATIONS = {
    400: N_("Something in the form or link was not as expected. Go back and try again."),
    401: N_("Sign in as the organizer, or open your table with its link or PIN."),
    403: N_("A table opens with its host link (QR code) or its PIN. Ask the organizer for the PIN if you do not "
         "have it."),
    404: N_("The link may be mistyped or the table may have been removed."),
    405: N_("Go back to the previous screen and use its buttons."),
    409: N_("Another device changed the table since this screen was drawn. Nothing was recorded: open the table "
         "again and repeat the move if it is still needed."),
    413: N_("Upload a smaller file. An event backup written by this app always fits."),
    422: N_("The move was not recorded. Open the table again to see what is possible now."),
    429: N_("Wait a little and try again."),
    500: N_("Nothing you entered before this is lost. Go back to the table and try again; if it happens again, "
         "tell the organizer."),
    503: N_("Nothing was recorded and nothing is lost: send it again in a moment."),
}


def _table_id():
    args = request.view_args or {}
    return args.get("table_id")


def _table_url():
    """Back to the table of the page that failed: its game's own screen when the page was one of
    that game's (the blueprint says which), else the table's generic address."""
    from flask import url_for

    from facilitator import games
    table_id = _table_id()
    if table_id is None:
        return None
    for game in games.registered():
        if request.blueprint and game.turn.split(".")[0] == request.blueprint:
            return url_for(game.turn, table_id=table_id)
    return url_for("host.open_table", table_id=table_id)


def error_page(code, detail=None):
    """The page for an HTTP error ``code`` in the current language."""
    if request.path.startswith("/api/"):
        from facilitator.web.api import error as api_error
        return api_error(code, {401: "unauthorized", 403: "forbidden", 404: "not_found", 405: "method_not_allowed",
                                409: "conflict", 413: "too_large", 429: "too_many_requests", 503: "busy"}
                         .get(code, "server_error" if code >= 500 else "bad_request"),
                         _(TITLES.get(code, TITLES[500] if code >= 500 else TITLES[400])))
    title = _(TITLES.get(code, TITLES[500] if code >= 500 else TITLES[400]))
    explanation = _(EXPLANATIONS.get(code, EXPLANATIONS[500] if code >= 500 else EXPLANATIONS[400]))
    return make_response(render_template("errors/error.html", code=code, title=title, explanation=explanation,
                                         detail=detail, table_id=_table_id(), table_url=_table_url()), code)


def register(app):
    @app.errorhandler(HTTPException)
    def _http(err):
        if err.code is None or err.code < 400:
            return err
        from flask_wtf.csrf import CSRFError
        detail = _(err.description) if isinstance(err, CSRFError) else None  # e.g. "The CSRF token is missing."
        response = make_response(error_page(err.code, detail))
        if getattr(err, "retry_after", None):
            response.headers["Retry-After"] = str(err.retry_after)
        return response

    @app.errorhandler(Exception)
    def _unexpected(err):
        if isinstance(err, HTTPException):
            return _http(err)
        from facilitator import services
        if services.db.lock_conflict(err):
            # the database stayed locked past its busy timeout: the write was rolled back whole;
            # a tablet's outbox sends it again (a 5xx is never taken for a refusal)
            log.warning("database busy on %s %s: %s", request.method, request.path, err)
            response = make_response(error_page(BUSY))
            response.headers["Retry-After"] = "2"
            return response
        log.exception("unexpected error on %s %s", request.method, request.path)
        return error_page(InternalServerError.code)
