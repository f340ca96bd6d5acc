"""The stylesheet, scripts and icon named by their content: pages link ``app.css?v=<hash>``, and
a file asked for by its current hash may be kept by the browser for a year.

Why: without it every tap on a tablet loaded the new screen and then asked again for the
stylesheet and both scripts (Flask sends static files as ``no-cache``): four requests instead
of one on venue Wi-Fi, each one more chance to hang. A new release changes the files' hashes,
so no tablet keeps an old script; a link without the hash (or with an old one) is answered as
before, ``no-cache``.
"""

import hashlib
import os
from functools import lru_cache

from flask import request
from werkzeug.security import safe_join

#: how long a browser may keep a file asked for by its current hash
KEEP_SECONDS = 365 * 24 * 3600


@lru_cache(maxsize=256)
def _digest(path, mtime_ns, size):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:12]


def version(folder, filename):
    """The file's content hash (12 hex digits), or None for a file that is not there."""
    path = safe_join(folder, filename)
    if path is None:
        return None
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return _digest(path, stat.st_mtime_ns, stat.st_size)


def folder_of(app, endpoint):
    """The folder an endpoint serves static files from: the app's ``static``, or a blueprint's
    ``<name>.static`` (a game's own files, ``games/<game>/static``); None for any other endpoint."""
    if endpoint == "static":
        return app.static_folder
    name, dot, rest = (endpoint or "").rpartition(".")
    if dot and rest == "static" and name in app.blueprints:
        return app.blueprints[name].static_folder
    return None


def install(app):
    """Every ``url_for('static', ...)`` (or a game's ``url_for('<game>.static', ...)``) carries
    the file's hash; the file asked for by it is kept."""

    @app.url_defaults
    def _versioned(endpoint, values):
        if "filename" in values and "v" not in values and (folder := folder_of(app, endpoint)):
            current = version(folder, values["filename"])
            if current:
                values["v"] = current

    @app.after_request
    def _kept(response):
        folder = folder_of(app, request.endpoint)
        if (folder and response.status_code in (200, 304) and request.args.get("v")
                and request.args["v"] == version(folder, (request.view_args or {}).get("filename", ""))):
            response.headers["Cache-Control"] = f"public, max-age={KEEP_SECONDS}, immutable"
        return response


__all__ = ["install", "version", "folder_of", "KEEP_SECONDS"]
