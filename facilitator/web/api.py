"""The JSON API (``/api/v1``): the host's actions and the organizer's set-up for programs and
scripted clients.

A table's state is its part of the ruleset's standings (``lyceum-standings/1`` for «16/25»)
plus the legal moves and the sequence number the next write must name. A move is a record move
object. Errors are JSON with a stable ``code`` (the same in every language) and a ``message``
in the client's language: 400 malformed, 401 no credential, 403 not this table's host (or not
the organizer), 404 no such table, 409 stale sequence number (``already_recorded`` says whether
it was a repeat), 422 the rules refuse the move, 429 too many wrong passwords (``Retry-After``).

Who may call what is checked before a request body is read.
"""

import hmac

from flask import Blueprint, current_app, flash, g, jsonify, request, session, url_for

from facilitator import services
from facilitator.i18n import gettext as _
from facilitator.i18n import ALL_LOCALES, describe_error, set_locale, translate_error
from facilitator import games as games_pkg
from facilitator.rules import IllegalMoveError, MalformedError, RulesError, SetupError
from facilitator.web.table import refusal
from facilitator.safejson import JSONInputError, loads as safe_loads
from facilitator.web import db, db_session
from facilitator.web.auth import ORGANIZER, client_key, is_organizer, may_host, throttle
from facilitator.web.openapi import openapi_document

bp = Blueprint("api", __name__, url_prefix="/api/v1")
MAX_BATCH = 500


def error(status, code, message, **extra):
    return jsonify({"error": {"code": code, "message": message, **extra}}), status


@bp.before_request
def _language():
    """An answer's messages in the language asked (before a table's game narrows it: ``_speak``)."""
    _speak(ALL_LOCALES)


def _speak(locales):
    """Speak one of ``locales``: the language chosen on this browser (its switch) when it is one
    of them, else the best of ``Accept-Language`` (``fi-FI`` is ``fi``), else English when asked
    for a language not among them (a Finnish client of a table whose game speaks Russian and
    English), else the first (no language asked)."""
    wanted = session.get("lang")
    if wanted not in locales:
        wanted = request.accept_languages.best_match(locales)
    if wanted is None:
        wanted = "en" if request.accept_languages and "en" in locales else locales[0]
    set_locale(wanted)


def _as_json(value, words=None, pack=None):
    """Legal moves as JSON: a refusal an engine gives for an option (why a target is not legal)
    is said as its rule, code and message in the client's language, naming things by their names
    in the game's words (``words``: its ``GamePackage``, with the table's ``pack``)."""
    if isinstance(value, dict):
        return {k: _as_json(v, words, pack) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_as_json(v, words, pack) for v in value]
    if isinstance(value, RulesError):
        return {"rule": getattr(value, "rule", None), "code": getattr(value, "code", None),
                "message": words.error_text(value, pack) if words is not None else translate_error(value)}
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


def state(loaded):
    """What a client needs to act: the standings of the table, legal moves, seq and rev."""
    out = {"id": loaded.table.id, "seq": loaded.seq, "rev": loaded.rev, "setup_done": loaded.game is not None,
           "ruleset": loaded.table.ruleset, "needs_checking": loaded.broken}
    if loaded.game is not None and not loaded.broken:
        out.update(loaded.table_standing())
        out["legal_moves"] = _as_json(loaded.game.legal_moves(), games_pkg.get(loaded.table.ruleset), loaded.pack)
        out["players"] = _players(loaded, out.get("players", []))
    else:
        out.update({"table": loaded.table.name, "players": [], "legal_moves": []})
    return out


def _players(loaded, players):
    """The standing's players (copies: the standing is kept) with what the game adds to each
    (``GamePackage.player_extras``) and ``page``, the secret link of the player's own page."""
    from facilitator.web.seats import player_pages
    game = games_pkg.get(loaded.table.ruleset)
    extras = game.player_extras(loaded)
    pages = player_pages(loaded, game)
    return [dict(p, **extras.get(p.get("name"), {}), page=pages.get(p.get("name"))) for p in players]


# ----- who is asking ---------------------------------------------------------------------------
def _bearer():
    header = request.headers.get("Authorization", "")
    return header[7:].strip() if header.startswith("Bearer ") else None


def _has_credential():
    """A bearer token, or a browser session cookie: without either the answer is 401."""
    return _bearer() is not None or bool(request.cookies.get(current_app.config.get("SESSION_COOKIE_NAME",
                                                                                   "session")))


def _organizer():
    """The organizer: a browser session signed in, or ``Authorization: Bearer <organizer token>``
    from ``POST /api/v1/session``."""
    if is_organizer():
        return True
    token = _bearer()
    if token and token.startswith("org_"):
        with db_session() as s:
            return services.access.session_valid(s, token[4:])
    return False


def _authorize(s, table_id):
    """A table is read and changed only by its host: its token as ``Authorization: Bearer
    <token>``, a browser session that opened the table, or the organizer. Returns an error
    response or None. The answer then speaks the table's game's languages."""
    try:
        table = services.get_table(s, table_id)
    except services.TableNotFound:
        table = None
    if table is not None:
        from facilitator.rules import registry
        _speak(registry.get(table.ruleset).locales)
    token = _bearer()
    if token is not None and not token.startswith("org_"):
        if table is None:
            return error(404, "not_found", _("There is no such table"))
        if table.token and hmac.compare_digest(token.encode(), table.token.encode()):
            return None
        return error(403, "forbidden", _("This token does not open this table"))
    if not _has_credential():
        return error(401, "unauthorized", _("Send the table's host token (Authorization: Bearer …) or open the "
                                            "table in a browser first"))
    if table is None:
        return error(404, "not_found", _("There is no such table"))
    if may_host(table) or _organizer():
        return None
    return error(403, "forbidden", _("Only this table's host or the organizer may open it"))


def _require_organizer():
    if _organizer():
        return None
    if not _has_credential():
        return error(401, "unauthorized", _("Sign in as the organizer first (POST /api/v1/session)"))
    return error(403, "forbidden", _("Only the organizer may do this"))


def _json_body():
    if not request.is_json:
        return None, error(415, "json_required", _("Send the body as application/json"))
    try:
        body = safe_loads(request.get_data(cache=False), what="body")
    except JSONInputError as err:
        return None, error(400, "malformed", describe_error(err))
    if not isinstance(body, dict):
        return None, error(400, "malformed", _("The body must be a JSON object"))
    return body, None


def _after(body, key="after"):
    after = body.get(key)
    if not isinstance(after, int) or isinstance(after, bool) or not 0 <= after < 2 ** 31:
        return None, error(400, "malformed", _("{key}: the sequence number this write follows, a whole number >= 0",
                                               key=key), path=key)
    return after, None


def _stale(err):
    # the same words as the host's screen says them
    if err.already:
        return error(409, "already_recorded", _("This move was already recorded; nothing was added."),
                     already_recorded=True, seq=err.actual, recorded_seq=err.recorded_seq)
    return error(409, "stale", refusal(err).message, already_recorded=False, seq=err.actual)


def _broken(err):
    return error(409, "needs_checking", refusal(err).message,
                 problem=err.problem.to_json() if hasattr(err.problem, "to_json") else None)


def _refused(err, loaded=None, undo=False):
    """A refused write as JSON, in the words the host's screens use (``web.table.refusal``):
    the game's own names of things, in the language asked."""
    game = games_pkg.get(loaded.table.ruleset) if loaded is not None else None
    why = refusal(err, game, loaded.pack if loaded is not None else None, undo=undo, with_path=False)
    extra = {"rule": why.rule} if why.code not in ("malformed", "stale", "finished", "nothing_to_undo") else {}
    if why.code == "malformed":
        extra = {"path": why.path}
    return error(why.status, why.code, why.message, **extra)


# ----- the document and the organizer's session ----------------------------------------------------
@bp.get("/openapi.json")
def openapi():
    return jsonify(openapi_document(url_for("api.openapi", _external=False)))


@bp.post("/session")
def sign_in():
    """The organizer's password for a token to send as ``Authorization: Bearer <token>``."""
    body, err = _json_body()
    if err:
        return err
    with db_session() as s:
        gate = throttle("password")
        wait = gate.wait_left(client_key())
        if wait:
            response, status = error(429, "too_many_attempts", _("Too many wrong passwords. Try again in {seconds} s.",
                                                                 seconds=wait), retry_after=wait)
            response.headers["Retry-After"] = str(wait)
            return response, status
        password = body.get("password")
        if not isinstance(password, str) or not services.access.check_password(s, password[:1000]):
            gate.failed(client_key())
            return error(401, "wrong_password", _("Wrong password"))
        secret = services.access.start_session(s)
    return jsonify({"token": "org_" + secret}), 201


@bp.delete("/session")
def sign_out():
    token = _bearer()
    with db_session() as s:
        if token and token.startswith("org_"):
            services.access.end_session(s, token[4:])
        elif session.get(ORGANIZER):
            services.access.end_session(s, session.pop(ORGANIZER))
    return "", 204


# ----- events (the organizer) ---------------------------------------------------------------------
def _table_json(t, with_access=True):
    from facilitator.web.organizer import public_url_for
    out = {"id": t.id, "name": t.name, "host_name": t.host_name, "ruleset": t.ruleset, "seq": t.seq, "rev": t.rev,
           "status": t.status, "url": url_for("api.table", table_id=t.id)}
    if with_access:
        out.update(pin=t.pin, token=t.token,
                   link=public_url_for("public.host_link", token=t.token) if t.token else None)
    return out


def _event_json(s, ev):
    from facilitator.i18n import event_locale
    return {"id": ev.id, "name": ev.name, "date": ev.date, "ruleset": ev.ruleset, "pack_id": ev.pack_id,
            "language": event_locale(ev), "tables": [_table_json(t) for t in services.events.tables_of(s, ev.id)]}


@bp.get("/events")
def list_events():
    err = _require_organizer()
    if err:
        return err
    with db_session() as s:
        return jsonify({"events": [{"id": e.id, "name": e.name, "date": e.date, "ruleset": e.ruleset,
                                    "url": url_for("api.get_event", event_id=e.id)} for e in services.events.events(s)]})


@bp.post("/events")
def create_event():
    err = _require_organizer()
    if err:
        return err
    body, err = _json_body()
    if err:
        return err
    from facilitator.web.forms import EventForm
    from werkzeug.datastructures import MultiDict
    with db_session() as s:
        form = EventForm(formdata=MultiDict({k: str(v) for k, v in body.items()
                                             if k in ("name", "date", "pack", "game", "language", "tables")
                                             and v is not None}),
                         meta={"csrf": False})
        from facilitator.web.organizer import event_from_form, prepare_event_form
        prepare_event_form(s, form)
        if not form.validate():
            return error(400, "malformed", "; ".join(form.messages()))
        ev = event_from_form(s, form)
        out = _event_json(s, ev)
    return jsonify(out), 201


@bp.get("/events/<int:event_id>")
def get_event(event_id):
    err = _require_organizer()
    if err:
        return err
    with db_session() as s:
        ev = services.events.get_event(s, event_id)
        if ev is None:
            return error(404, "not_found", _("There is no such event"))
        return jsonify(_event_json(s, ev))


@bp.post("/events/<int:event_id>/tables")
def add_table(event_id):
    err = _require_organizer()
    if err:
        return err
    body, err = _json_body()
    if err:
        return err
    from facilitator.web.forms import TableForm
    from werkzeug.datastructures import MultiDict
    form = TableForm(formdata=MultiDict({k: str(v) for k, v in body.items() if k in ("name", "host_name") and v}),
                     meta={"csrf": False})
    if not form.validate():
        return error(400, "malformed", "; ".join(form.messages()))
    with db_session() as s:
        ev = services.events.get_event(s, event_id)
        if ev is None:
            return error(404, "not_found", _("There is no such event"))
        try:
            table = services.events.add_table(s, ev, form.name.data.strip(),
                                              (form.host_name.data or "").strip() or None)
        except services.tables.EventFull as e:
            return error(409, "event_full", describe_error(e), limit=e.params["limit"])
        out = _table_json(table)
    return jsonify(out), 201


# ----- tables (their host, or the organizer) ---------------------------------------------------------
@bp.get("/tables")
def tables():
    with db_session() as s:
        rows = [t for t in services.list_tables(s) if may_host(t) or _organizer()]
        return jsonify({"tables": [{"id": t.id, "name": t.name, "url": url_for("api.table", table_id=t.id)}
                                   for t in sorted(rows, key=lambda t: t.id)]})


@bp.get("/tables/<int:table_id>")
def table(table_id):
    with db_session() as s:
        err = _authorize(s, table_id)  # also the 404 of an unknown table
        if err:
            return err
        loaded = services.load(s, table_id)
        response = jsonify(state(loaded))
    response.headers["ETag"] = f'W/"{table_id}-{loaded.seq}-{loaded.rev}"'
    return response


@bp.put("/tables/<int:table_id>/players")
def seat_players(table_id):
    """Seat the players (before the first move): ``{"rev": n, "players": [record players]}``."""
    with db_session() as s:
        err = _authorize(s, table_id)
    if err:
        return err
    body, err = _json_body()
    if err:
        return err
    rev, err = _after(body, "rev")
    if err:
        return err
    loaded = None
    try:
        with db_session() as s:
            loaded = services.load(s, table_id)
            setup = loaded.ruleset.read_setup(body.get("players"), "players")
            services.set_players(s, table_id, setup, rev=rev)
            out = state(services.load(s, table_id))
    except services.SetupLocked:
        return error(409, "setup_locked", _("The setup cannot change once moves are recorded"))
    except services.StaleSetup:
        return error(409, "stale", _("The setup was changed on another device since this form was opened. "
                                     "Nothing was saved: check the players below and save again."))
    except SetupError as e:
        return error(422, e.code, _setup_refusal(e, loaded), rule=e.rule, path=e.path)
    except (MalformedError, RulesError) as e:
        return error(400, "malformed", translate_error(e), path=getattr(e, "path", None))
    return jsonify(out), 200


def _setup_refusal(err, loaded):
    """A setup the rules refuse, said as the game's setup screen says it (``GamePackage.error_text``
    with the table's pack: New Angeles' corporations, Alter Ego's actives by their names in the
    language asked, never by their keys). The path is the answer's own field, not in the text."""
    if loaded is None:
        return translate_error(err)
    path, err.path = err.path, None
    try:
        return games_pkg.get(loaded.table.ruleset).error_text(err, loaded.pack)
    finally:
        err.path = path


@bp.post("/tables/<int:table_id>/moves")
def post_move(table_id):
    err = _authorize(db(), table_id)  # read in the request's session; the write below commits it
    if err:
        return err
    body, err = _json_body()
    if err:
        return err
    after, err = _after(body)
    if err:
        return err
    client_id = body.get("client_id")
    if client_id is not None and (not isinstance(client_id, str) or not 0 < len(client_id) <= 64):
        return error(400, "malformed", _("client_id: a text of at most 64 characters"), path="client_id")
    loaded = None
    try:
        with db_session() as s:
            loaded = services.load(s, table_id)
            move = loaded.ruleset.read_move(body.get("move"), "move")
            loaded, _result = services.record_move(s, table_id, move, after, author="api", client_id=client_id)
            out = state(loaded)
            finished = loaded.game is not None and loaded.game.finished
    except services.TableNotFound:
        return error(404, "not_found", _("There is no such table"))
    except services.StaleMove as e:
        return _stale(e)
    except services.TableBroken as e:
        return _broken(e)
    except (IllegalMoveError, MalformedError) as e:
        return _refused(e, loaded)
    out["recorded"] = {"seq": out["seq"], "move": move.to_dict()}
    if finished:
        _prepare_protocol(table_id)
    return jsonify(out), 201


def _prepare_protocol(table_id):
    """A game just finished: its protocol PDF is started in the background, as the host's own
    finish screen does, so that it is ready when someone downloads it."""
    from facilitator.web.downloads import start_protocol
    with db_session() as s:
        start_protocol(s, table_id)


def _queued(table_id):
    """``(body, its queued list, None)`` of a batch a client sends, or ``(None, None, error)``:
    who may send it checked in the request's session (the write after it commits it)."""
    err = _authorize(db(), table_id)
    if err:
        return None, None, err
    body, err = _json_body()
    if err:
        return None, None, err
    raw = body.get("moves")
    if not isinstance(raw, list) or not 0 < len(raw) <= MAX_BATCH:
        return None, None, error(400, "malformed", _("moves: a list of 1 to {max} queued moves", max=MAX_BATCH),
                                 path="moves")
    return body, raw, None


@bp.post("/tables/<int:table_id>/moves/batch")
def post_batch(table_id):
    """Record moves queued while a client had no connection, in order: ``{"moves": [{"after": n,
    "move": {...}, "client_id": "..."}]}`` (a script's record moves; the host's tablet queues
    its forms instead: ``post_queued``). The longest valid run is recorded (moves already
    recorded count as recorded); the first move refused is named with why, and nothing after
    it is looked at."""
    body, raw, err = _queued(table_id)
    if err:
        return err
    before = services.load(db(), table_id)
    rules = before.ruleset
    game = games_pkg.get(before.table.ruleset)
    items, refused = [], None
    for i, item in enumerate(raw):
        path = f"moves[{i}]"
        try:
            if not isinstance(item, dict):
                raise MalformedError(path, "must be an object")
            after, err = _after(item)
            if err:
                raise MalformedError(f"{path}.after", "the sequence number this write follows, a whole number >= 0")
            client_id = item.get("client_id")
            if client_id is not None and (not isinstance(client_id, str) or not 0 < len(client_id) <= 64):
                raise MalformedError(f"{path}.client_id", "a text of at most 64 characters")
            if item.get("undo") is True:
                items.append({"after": after, "undo": True, "client_id": client_id})
            else:
                items.append({"after": after, "move": rules.read_move(item.get("move"), f"{path}.move"),
                              "client_id": client_id})
        except MalformedError as e:
            refused = {"index": i, "client_id": item.get("client_id") if isinstance(item, dict) else None,
                       "code": "malformed", "message": translate_error(e), "path": e.path}
            break
    return _record_queued(table_id, game, items, refused, author="api", flash_lines=body.get("flash") is True)


def _record_queued(table_id, game, items, refused, author, flash_lines, with_path=False, full=True):
    """Record a tablet's queued run (``services.record_batch``) and answer with the table's
    state, what was recorded and the first refusal (``refused``: one found before, when none
    of the run is); ``flash_lines``: a browser's outbox, whose next screen says what the moves
    changed; ``with_path``: a malformed move's message names its field as the screen's does.
    When the only move that changed something is the table's last (a tap sent at once), nothing
    is flashed: the answer's ``done`` is its ``seq``, and the screen at ``?done=<seq>`` says what
    it changed (``table.confirm``). ``full`` False: the table's state is only its id, ``seq`` and ``rev`` (the outbox's answer,
    ``Batch``: the screen it goes to next draws the table; its standing, legal moves and the
    players' links were a sixth of a tap's work, read by nobody)."""
    done = None
    with db_session() as s:
        recorded, stop = services.record_batch(s, table_id, items, author=author)
        loaded = services.load(s, table_id)
        out = state(loaded) if full else {"id": loaded.table.id, "seq": loaded.seq, "rev": loaded.rev}
    if any(not r["already"] for r in recorded) and loaded.game is not None and loaded.game.finished:
        _prepare_protocol(table_id)
    changed = [r for r in recorded if r.get("result") is not None or r.get("undone") is not None]
    if flash_lines and len(changed) == 1 and loaded.last is not None and changed[0].get("result") is loaded.last[1] \
            and loaded.last[0] == loaded.seq and not loaded.game.finished:
        done = loaded.seq  # the table's last move alone: the screen at ?done=<seq> says it (``table.confirm``)
    elif flash_lines:
        from facilitator.web.games import narrate, undone_line
        from facilitator.web.table import narration
        lines = []
        for r in changed:
            if r.get("result") is not None and loaded.last is not None and r["result"] is loaded.last[1]:
                lines += narration(game, loaded)  # the table's last move: kept, its screen says it again
            elif r.get("result") is not None:
                lines += narrate(loaded, r["result"])
            else:
                lines.append(undone_line(loaded, r["undone"]))
        if lines:
            flash("\n".join(lines), "ok")
    recorded = [{k: v for k, v in r.items() if k not in ("result", "undone")} for r in recorded]
    if stop is not None:
        e = stop["error"]
        why = refusal(e, game, loaded.pack, undo=bool(items[stop["index"]].get("undo")), with_path=with_path)
        refused = {"index": stop["index"], "client_id": stop["client_id"], "code": why.code, "message": why.message,
                   "rule": why.rule}
        if why.path:
            refused["path"] = why.path
    out["recorded"] = recorded
    out["refused"] = refused
    if done is not None:
        out["done"] = done
    return jsonify(out), 200 if refused is None else 207


@bp.post("/tables/<int:table_id>/queued")
def post_queued(table_id):
    """Move forms a tablet's outbox queued, each as the form would have posted it: ``{"moves":
    [{"action": "<the form's action>", "fields": [[name, value], ...], "after": n, "client_id":
    "..."}], "flash": true}``. Each form is read by its game's ``read_move_form`` (the one
    reading of a form: the bounds and refusals of the screen's POST without JavaScript) as the
    table stands just before it, and recorded after ``after``; the undo form's action queues an
    undo. The longest valid run is recorded (forms already recorded, by their client id, count
    as recorded); the first refused is named with why in the screen's words (``table.refusal``)
    and nothing after it is looked at. The answer is ``moves/batch``'s without the table's
    standing, legal moves and players (``Batch``: the table's id, ``seq`` and ``rev``, what was
    recorded, the first refused): the outbox reads ``seq`` and goes to the screen. Who may post is checked
    as for ``moves/batch`` (the table's host session, the organizer, or the table's token), and
    the body must be JSON, which no page of another site can send with this browser's cookie."""
    body, raw, err = _queued(table_id)
    if err:
        return err
    from facilitator.web.table import queued_forms
    game = games_pkg.get(services.get_table(db(), table_id).ruleset)
    items, malformed = queued_forms(game, table_id, raw)
    refused = None
    if malformed is not None:
        index, client_id, e = malformed
        refused = {"index": index, "client_id": client_id, "code": "malformed", "message": translate_error(e),
                   "path": e.path}
    return _record_queued(table_id, game, items, refused, author=None, flash_lines=body.get("flash") is True,
                          with_path=True, full=False)


@bp.post("/tables/<int:table_id>/undo")
def undo(table_id):
    with db_session() as s:
        err = _authorize(s, table_id)
    if err:
        return err
    body, err = _json_body()
    if err:
        return err
    after, err = _after(body)
    if err:
        return err
    try:
        with db_session() as s:
            target = services.undo(s, table_id, after, author="api")
            out = state(services.load(s, table_id))
    except services.TableNotFound:
        return error(404, "not_found", _("There is no such table"))
    except services.StaleMove as e:
        return error(409, "stale", refusal(e, undo=True).message, already_recorded=False, seq=e.actual)
    except services.TableBroken as e:
        return _broken(e)
    except (services.FinishedTable, LookupError) as e:
        return _refused(e, undo=True)
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
            return error(409, "no_setup", _("The table has no players yet"))
        if loaded.broken:
            return error(409, "needs_checking", _("The table's log does not replay; the organizer must repair it first"))
        return jsonify(loaded.public_record())


__all__ = ["bp", "error", "state", "g"]
