"""The JSON API (``/api/v1``): the host's actions for programs and scripted clients.

A table's state is the table part of `lyceum-standings/1` plus the legal moves and the
sequence number the next write must name. A move is a `lyceum-record/1` move object.
Errors are JSON with the same messages as the screens: 400 malformed, 404 no such table,
409 stale sequence number (``already_recorded`` says whether it was a repeat), 422 the
rules refuse the move.
"""

import hmac

from flask import Blueprint, jsonify, request, url_for

from .. import services
from ..i18n import gettext as _
from ..i18n import translate_error
from ..rules import IllegalMoveError, MalformedError, read_move
from ..rules.standings import table_standing
from . import db_session
from .openapi import openapi_document

bp = Blueprint("api", __name__, url_prefix="/api/v1")


def error(status, code, message, **extra):
    return jsonify({"error": {"code": code, "message": message, **extra}}), status


def state(loaded):
    """What a client needs to act: the standings of the table, legal moves and the seq."""
    out = {"id": loaded.table.id, "seq": loaded.seq, "setup_done": loaded.game is not None}
    if loaded.game is not None:
        out.update(table_standing(loaded.game))
        out["legal_moves"] = loaded.game.legal_moves()
    else:
        out.update({"table": loaded.table.name, "players": [], "legal_moves": []})
    return out


def _authorize(s, table_id):
    """A table is read and changed only by its host: its token as ``Authorization: Bearer
    <token>``, or a browser session that opened the table (or the organizer's). Returns an
    error response or None. Runs in the request's own database session."""
    from ..storage.models import GameTable
    from .auth import may_host
    table = s.get(GameTable, table_id)
    if table is None:
        return error(404, "not_found", f"no table {table_id}")
    header = request.headers.get("Authorization", "")
    if header.startswith("Bearer ") and table.token:
        if hmac.compare_digest(header[7:].strip().encode(), table.token.encode()):
            return None
        return error(403, "forbidden", "this token does not open this table")
    if may_host(table):
        return None
    return error(403, "forbidden", "only this table's host or the organizer may open it")


def _json_body():
    if not request.is_json:
        return None, error(415, "json_required", "send the body as application/json")
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        return None, error(400, "malformed", "the body must be a JSON object")
    return body, None


def _after(body):
    after = body.get("after")
    if not isinstance(after, int) or isinstance(after, bool) or after < 0:
        return None, error(400, "malformed", "after: the sequence number this move follows, a whole number >= 0",
                           path="after")
    return after, None


@bp.get("/openapi.json")
def openapi():
    return jsonify(openapi_document(url_for("api.openapi", _external=False)))


@bp.get("/tables")
def tables():
    from sqlmodel import select

    from ..storage.models import GameTable
    from .auth import may_host
    with db_session() as s:
        rows = [t for t in s.exec(select(GameTable).order_by(GameTable.id)).all() if may_host(t)]
        return jsonify({"tables": [{"id": t.id, "name": t.name,
                                    "url": url_for("api.table", table_id=t.id)} for t in rows]})


@bp.get("/tables/<int:table_id>")
def table(table_id):
    with db_session() as s:
        err = _authorize(s, table_id)  # also the 404 of an unknown table
        if err:
            return err
        loaded = services.load(s, table_id)
        response = jsonify(state(loaded))
    response.headers["ETag"] = f'W/"{table_id}-{loaded.seq}"'
    return response


@bp.post("/tables/<int:table_id>/moves")
def post_move(table_id):
    body, err = _json_body()
    if err:
        return err
    after, err = _after(body)
    if err:
        return err
    try:
        move = read_move(body.get("move"), "move")
    except MalformedError as e:
        return error(400, "malformed", translate_error(e), path=e.path)
    try:
        with db_session() as s:
            err = _authorize(s, table_id)
            if err:
                return err
            loaded, result = services.record_move(s, table_id, move, after, author="api")
            out = state(loaded)
    except services.TableNotFound:
        return error(404, "not_found", f"no table {table_id}")
    except services.StaleMove as e:
        # the same words as the host's screen says them
        return error(409, "already_recorded" if e.already else "stale",
                     _("This move was already recorded; nothing was added.") if e.already else
                     _("The table has changed on another device since this screen was drawn "
                       "(move #{expected}, now #{actual}). The move was NOT recorded: check the "
                       "screen and repeat it if needed.", expected=e.expected, actual=e.actual),
                     already_recorded=e.already, seq=e.actual)
    except IllegalMoveError as e:
        return error(422, e.code, translate_error(e), rule=e.rule)
    except MalformedError as e:
        return error(400, "malformed", translate_error(e), path=e.path)
    out["recorded"] = {"seq": out["seq"], "move": move.to_dict()}
    return jsonify(out), 201


@bp.post("/tables/<int:table_id>/undo")
def undo(table_id):
    body, err = _json_body()
    if err:
        return err
    after, err = _after(body)
    if err:
        return err
    try:
        with db_session() as s:
            err = _authorize(s, table_id)
            if err:
                return err
            target = services.undo(s, table_id, after, author="api")
            loaded = services.load(s, table_id)
            out = state(loaded)
    except services.TableNotFound:
        return error(404, "not_found", f"no table {table_id}")
    except services.StaleMove as e:
        return error(409, "stale", _("The table has changed on another device (move #{expected}, now #{actual}); "
                                     "nothing was undone.", expected=e.expected, actual=e.actual),
                     already_recorded=False, seq=e.actual)
    except LookupError:
        return error(409, "nothing_to_undo", _("There is no move to undo"))
    out["undone"] = {"seq": target.seq}
    return jsonify(out), 200


@bp.get("/tables/<int:table_id>/record")
def record(table_id):
    with db_session() as s:
        err = _authorize(s, table_id)  # also the 404 of an unknown table
        if err:
            return err
        loaded = services.load(s, table_id)
        if loaded.game is None:
            return error(409, "no_setup", "the table has no players yet")
        return jsonify(loaded.record().to_dict())
