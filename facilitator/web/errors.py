"""Error pages in the screen's language, each with a way on (issue 9.5): a tablet that has no
access to a table is offered the PIN page, a page that does not exist the start page, a table
that moved on its current turn. The JSON API answers JSON instead."""

import logging

from flask import make_response, render_template, request
from werkzeug.exceptions import HTTPException, InternalServerError

from ..i18n import gettext as _

log = logging.getLogger("facilitator")

TITLES = {
    400: "The request was not understood",
    401: "Sign in first",
    403: "This device has no access here",
    404: "There is no such page",
    405: "This page cannot do that",
    409: "The table has moved on",
    413: "The file is too large",
    422: "The rules do not allow this",
    429: "Too many attempts",
    500: "Something went wrong on the server",
}
EXPLANATIONS = {
    400: "Something in the form or link was not as expected. Go back and try again.",
    401: "Sign in as the organizer, or open your table with its link or PIN.",
    403: "A table opens with its host link (QR code) or its PIN. Ask the organizer for the PIN if you do not "
         "have it.",
    404: "The link may be mistyped or the table may have been removed.",
    405: "Go back to the previous screen and use its buttons.",
    409: "Another device changed the table since this screen was drawn. Nothing was recorded: open the table "
         "again and repeat the move if it is still needed.",
    413: "Upload a smaller file. An event backup written by this app always fits.",
    422: "The move was not recorded. Open the table again to see what is possible now.",
    429: "Wait a little and try again.",
    500: "Nothing you entered before this is lost. Go back to the table and try again; if it happens again, "
         "tell the organizer.",
}


def _table_id():
    args = request.view_args or {}
    return args.get("table_id")


def error_page(code, detail=None):
    """The page for an HTTP error ``code`` in the current language."""
    if request.path.startswith("/api/"):
        from .api import error as api_error
        return api_error(code, {401: "unauthorized", 403: "forbidden", 404: "not_found", 405: "method_not_allowed",
                                409: "conflict", 413: "too_large", 429: "too_many_requests"}
                         .get(code, "server_error" if code >= 500 else "bad_request"),
                         _(TITLES.get(code, TITLES[500] if code >= 500 else TITLES[400])))
    title = _(TITLES.get(code, TITLES[500] if code >= 500 else TITLES[400]))
    explanation = _(EXPLANATIONS.get(code, EXPLANATIONS[500] if code >= 500 else EXPLANATIONS[400]))
    return make_response(render_template("errors/error.html", code=code, title=title, explanation=explanation,
                                         detail=detail, table_id=_table_id()), code)


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
        log.exception("unexpected error on %s %s", request.method, request.path)
        return error_page(InternalServerError.code)
