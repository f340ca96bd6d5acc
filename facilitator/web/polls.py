"""Polls answered before the app (issue 21): a room of phones and projectors asks every few
seconds whether anything changed, and nearly always nothing did. Such a poll — a conditional
GET (``If-None-Match``) of a player's page (``/p/<secret>``) or of a projector's standings
(``/e/<id>/standings.json``) — is answered 304 here, in front of Flask, from its change check
alone: one indexed row read on a driver connection the thread keeps (``services.db.read_row``),
no request context, no session cookie read or written, no ORM; on a server alone on its SQLite
file not even that read while no write since touched the row (``storage.changes``). A projector whose event changed
is handed the standings another projector's poll had drawn already, as they are. Anything else,
and any poll this cannot answer so (a page to draw, an unknown or revoked link, a language its
address does not name, an event whose languages this process has not read yet), goes on to the
app, which answers it as it answers every request. What an answer means is decided by the
views' own modules (``seats.unchanged``, ``public.poll_answer``); this only routes.
``benchmarks/bench_seats.py`` shows what a poll costs.
"""

import re
from urllib.parse import unquote

_SEAT = re.compile(r"/p/([A-Za-z0-9_-]{1,64})")
_STANDINGS = re.compile(r"/e/([1-9][0-9]{0,8})/standings\.json")
_TAGS = re.compile(r'"([^"]*)"')


class Polls:
    """WSGI middleware: ``Polls(app.wsgi_app, app)``."""

    def __init__(self, wsgi_app, app):
        self.wsgi_app, self.app = wsgi_app, app

    def __call__(self, environ, start_response):
        inm = environ.get("HTTP_IF_NONE_MATCH")
        if inm and inm.strip() != "*" and environ.get("REQUEST_METHOD") in ("GET", "HEAD"):
            answer = self.answer(environ.get("PATH_INFO", ""), environ.get("QUERY_STRING", ""), inm)
            if answer is not None:
                status, headers, body = answer
                start_response(status, headers)
                return [body] if body and environ["REQUEST_METHOD"] == "GET" else []
        return self.wsgi_app(environ, start_response)

    def answer(self, path, query, inm):
        """``(status, headers, body)`` of this poll's answer, or None when the app is to answer."""
        seat = _SEAT.fullmatch(path)
        standings = None if seat else _STANDINGS.fullmatch(path)
        if seat is None and standings is None:
            return None
        lang = _lang(query)
        if seat is not None:
            etag, body = _seats().unchanged(self.app, seat.group(1), lang, inm), None
            if etag is None:
                return None
            extra = [("Referrer-Policy", "no-referrer")]
        else:
            found = _public().poll_answer(self.app, int(standings.group(1)), lang, set(_TAGS.findall(inm)))
            if found is None:
                return None
            etag, body = found
            extra = [("Content-Type", "application/json"), ("Content-Length", str(len(body)))] if body else []
        headers = [("ETag", f'W/"{etag}"'), ("Cache-Control", "no-cache"), ("X-Content-Type-Options", "nosniff"),
                   *extra]
        return ("200 OK" if body else "304 NOT MODIFIED"), headers, body


def _seats():
    from facilitator.web import seats
    return seats


def _public():
    from facilitator.web import public
    return public


def _lang(query):
    """The first ``lang`` of a query string (as ``request.args.get("lang")`` reads it), or None."""
    if "lang=" not in query:
        return None
    for part in query.split("&"):
        if part.startswith("lang="):
            return unquote(part[5:].replace("+", " "))
    return None


__all__ = ["Polls"]
