"""One life of a table, for every game (ARCHITECTURE.md decision 13): who may open it, loading
it or answering 404, a table whose log does not replay ("needs checking"), undo, and one mapping
of the refusals of a write (stale / broken / finished / nothing to undo) to their status and
wording. Each game's screens use these with their own pages (``refuse`` draws the game's screen
again with the message); the JSON API shares the wording (``games.stale_text``).
"""

import hashlib
import time
import weakref
from dataclasses import dataclass

from flask import abort, flash, redirect, render_template, request, url_for

from facilitator import games, services
from facilitator.i18n import gettext as _
from facilitator.web import db, db_session, use_locales
from facilitator.web.auth import require_table
from facilitator.web.games import screen_url, stale_text, undone_line


def guard(bp, game, own_screens=None):
    """Every view of ``bp`` (the screens of ``game``) speaks the game's languages, and one of a
    table opens only for its host or the organizer; a table of another game is sent on to its
    own game's screen of the same kind (``own_screens``: endpoint -> turn/setup/final), or 404."""
    own_screens = own_screens or {game.turn: "turn", game.setup: "setup", game.final: "final"}

    @bp.before_request
    def _check_access():
        use_locales(game.locales, game.key)
        table_id = (request.view_args or {}).get("table_id")
        if table_id is None:
            return None
        try:  # read in the request's transaction: the view goes on in it (one transaction, not two)
            table = services.get_table(db(), table_id)
        except services.TableNotFound:
            abort(404)
        require_table(table)
        if table.ruleset != game.key:
            if request.method == "GET":
                return redirect(screen_url(table, own_screens.get(request.endpoint, "turn")))
            abort(404)
        return None
    return _check_access


def load(s, table_id):
    """The loaded table, or 404."""
    try:
        return services.load(s, table_id)
    except services.TableNotFound:
        abort(404)


def needs_check(loaded, game=None, **extra):
    """The screen of a table whose log no longer replays (409): what is wrong, that nothing is
    lost, who repairs it; the same for every game, in its layout."""
    game = game or games.of_table(loaded.table)
    problem = loaded.problem
    return render_template("table/broken.html", layout=game.layout, loaded=loaded, seq=loaded.seq, problem=problem,
                           error_text=game.error_text(problem.error, loaded.pack), **extra), 409


def opening(game, s, table_id, *, bind=True, finished=True, elsewhere=None, **drawn_with):
    """The opening of a table's screen, the same for every game: ``(loaded, None)`` when the
    screen is to be drawn, else ``(None, the response to send)``. No such table: 404; a log that
    no longer replays: the needs-checking page (409); no players yet: the table's setup; a page
    drawn for another position than the table's: the page that says the table moved on (409;
    ``bind``: the page is bound, with ``drawn_with`` as ``bound`` takes them); a finished game:
    its final results (``finished=False``: the screen shows a finished game itself).
    ``elsewhere``: the one screen a table with no players or a finished game is sent to instead,
    before the binding is looked at («16/25»'s pages send both to its main screen, which
    decides). A redirect answers a POST with 303. Read in the caller's unit of work ``s``."""
    loaded = load(s, table_id)
    if loaded.broken:
        return None, needs_check(loaded, game)
    code = 303 if request.method == "POST" else 302
    if elsewhere is not None and (loaded.game is None or loaded.game.finished):
        return None, redirect(url_for(elsewhere, table_id=table_id), code)
    if loaded.game is None:
        return None, redirect(url_for(game.setup, table_id=table_id), code)
    moved_on = bound(game, loaded, **drawn_with) if bind else None
    if moved_on is not None:
        return None, moved_on
    if finished and loaded.game.finished:
        return None, redirect(url_for(game.final, table_id=table_id), code)
    return loaded, None


def setup_opening(game, s, table_id):
    """The opening of a table's setup screen, the same for every game: ``(loaded, None)``, or
    ``(None, the turn screen)`` once a move is recorded (the setup no longer changes; said so)."""
    loaded = load(s, table_id)
    if loaded.seq:
        flash(_("The setup cannot change once moves are recorded"), "error")
        return None, redirect(url_for(game.turn, table_id=table_id), 303)
    return loaded, None


def main_screen(game, table_id, render):
    """A table's main screen for every game: its setup until it has players, its final results
    once finished, the needs-checking page when its log does not replay, else ``render(loaded)``
    (saying what the move its address names as ``done`` changed: ``confirm``)."""
    with db_session() as s:
        loaded, response = opening(game, s, table_id, bind=False)
        if response is not None:
            return response
        confirm(game, loaded)
        return render(loaded)


def confirm(game, loaded):
    """The confirmation of a host's move, drawn from the table's position rather than carried in
    the session: the move's POST (and the outbox, ``api._record_queued``) sends the host to the
    main screen at ``?done=<seq>``, and while the table's last move in force is that one, the
    screen shows what it changed (``narration``: kept per position and language) as the message
    of a recorded move, first among the flashed ones. Opened again later from the history, once
    the table has moved on, the address says nothing. Writing the message into the session
    cookie and taking it out again cost a tenth of a tap."""
    from flask import g
    done = request.args.get("done", type=int)
    if done is None or done != loaded.seq or loaded.last is None or loaded.last[0] != done:
        return
    # the first of the pages' messages (``templating.page_messages``)
    g.confirmed = [("ok", "\n".join(narration(game, loaded)) or _("Recorded"))]


def final_screen(game, table_id, render):
    """A table's final results for every game (shown however far the game is: a provisional
    result mid-game): the needs-checking page when its log does not replay, its setup until it
    has players, else ``render(loaded)``."""
    with db_session() as s:
        loaded, response = opening(game, s, table_id, bind=False, finished=False)
        return response if response is not None else render(loaded)


def screen_again(game, table_id, status, turn, final, no_game=None):
    """The screen a refused write returns to, at the table's real state, with ``status``: the
    needs-checking page, the final results (``final(loaded)``) of a finished game, else the
    turn screen (``turn(loaded)``); a table with no players yet gets ``no_game()`` or the status."""
    with db_session() as s:
        loaded = load(s, table_id)
        if loaded.broken:
            return needs_check(loaded, game)
        if loaded.game is None:
            return no_game() if no_game else abort(status)
        if loaded.game.finished:
            return final(loaded), status
        return turn(loaded), status


def bound(game, loaded, **drawn_with):
    """None while a page that leads to a move still matches the table: its ``after`` (its URL's,
    or its form's) is the table's position and each of its other bindings (``drawn_with``: the
    argument and the value the table has now, such as «16/25»'s player) holds; a page without
    ``after`` is for the position now. Else the page that says the table moved on (409), the
    same for every game, in its layout and words (``game.moved_on_context``)."""
    after = request.values.get("after", type=int)
    if after is None:
        return None
    if after == loaded.seq and all(request.values.get(k, v) == v for k, v in drawn_with.items()):
        return None
    with db_session() as s:
        happened = services.log_row(s, loaded.table.id, after + 1) if after < loaded.seq else None
    context = {"back_url": url_for(game.turn, table_id=loaded.table.id)}
    context.update(game.moved_on_context(loaded, happened))
    context.update(layout=game.layout, loaded=loaded, seq=loaded.seq, happened=happened, drawn_for=after)
    return render_template("table/moved_on.html", **context), 409


def form_errors(form, labels=None):
    """A form's errors as one line: ``field: error; field: error``; ``labels`` names a field
    whose form name is not a word of the screen (``{"xp": "XP change"}``)."""
    labels = labels or {}
    parts = []
    for name, errors in form.errors.items():
        if isinstance(errors, dict):
            for sub, errs in errors.items():
                parts.append(f"{_(sub)}: {'; '.join(str(e) for e in errs)}")
        else:
            parts.append(f"{_(labels.get(name, name))}: {'; '.join(str(e) for e in errors)}")
    return "; ".join(parts)


def undo(game, table_id, refuse):
    """The host's undo of the last move in force, bound to the position its form names
    (``after``); ``refuse(table_id, message, status)`` draws the game's screen with why not."""
    from facilitator.web.forms import AfterForm
    form = AfterForm()
    if not form.validate():
        return refuse(table_id, _("The undo was not done: {errors}", errors=form_errors(form)), 400)
    try:
        with db_session() as s:
            target = services.undo(s, table_id, form.after.data)
            line = undone_line(services.load(s, table_id), target)
    except services.TableBroken:
        return refuse(table_id, "", 409)  # the screen is the needs-checking page
    except (services.StaleMove, services.FinishedTable, LookupError) as err:
        return refuse(table_id, refusal(err, game, undo=True).message, 409)
    flash(line, "ok")
    return redirect(url_for(game.turn, table_id=table_id), 303)


@dataclass(frozen=True)
class Refusal:
    """Why a write was not done, the same for the host's screens and the JSON API: the HTTP
    status (409 the table is not where the write says, 422 the rules refuse it, 400 malformed),
    a code for scripts, the message in the current language, the rule and the field."""
    status: int
    code: str
    message: str
    rule: str = None
    path: str = None


def refusal(err, game=None, pack=None, undo=False, with_path=True):
    """The one mapping of a refused write to its ``Refusal`` (ARCHITECTURE.md decision 13):
    names things by their names in the game's words (``game.error_text`` with the table's
    ``pack``: Alter Ego's cards and actives, not their keys). A malformed field's message
    starts with its path on a screen; the API (``with_path=False``) gives the path apart."""
    from facilitator.games import FormError
    from facilitator.rules.errors import IllegalMoveError, RulesError
    from facilitator.safejson import JSONInputError
    if isinstance(err, FormError):  # a move form's field, worded by the form (it names the field itself)
        return Refusal(400, "malformed", err.text, path=err.path)
    if isinstance(err, services.StaleMove):
        return Refusal(409, "stale", stale_text(err, undo=undo))
    if isinstance(err, services.TableBroken):
        return Refusal(409, "needs_checking", _("The table's log does not replay; the organizer must repair it first"))
    if isinstance(err, services.FinishedTable):
        return Refusal(409, "finished", _("The game is finished: only the organizer can reopen it for a correction."))
    if isinstance(err, IllegalMoveError):
        return Refusal(422, err.code, _words(game).error_text(err, pack), rule=err.rule)
    if isinstance(err, (RulesError, JSONInputError)):
        from facilitator.i18n import translate_error
        text = _words(game).error_text(err, pack) if with_path or not isinstance(err, RulesError) else translate_error(err)
        return Refusal(400, "malformed", text, path=getattr(err, "path", None))
    if isinstance(err, LookupError):
        return Refusal(409, "nothing_to_undo", _("There is no move to undo"))
    raise err


def _words(game):
    from facilitator.games import GamePackage
    return game or GamePackage()


def record(game, table_id, move, after, refuse, pack=None, **extra):
    """The host's move POST after its form was read into ``move``: recorded after ``after``, or
    refused with the screen drawn again (``refuse(table_id, message, status, **extra)``; the
    ``extra`` of the form only where the host is to correct it: a rule or a malformed field).
    A repeat of a recorded move adds nothing; a finished game goes to its final screen."""
    try:
        with db_session() as s:
            loaded, result = services.record_move(s, table_id, move, after)
            finished, seq = loaded.game.finished, loaded.seq
            lines = narration(game, loaded) if finished else []
    except services.TableNotFound:
        abort(404)
    except services.StaleMove as err:
        if err.already:
            return already_recorded(game, table_id)
        return refuse(table_id, refusal(err).message, 409)
    except services.TableBroken:
        return refuse(table_id, "", 409)  # the screen is the needs-checking page
    except Exception as err:  # noqa: BLE001 - refusal() raises again what is not a refusal
        why = refusal(err, game, pack)
        return refuse(table_id, _("The move was not recorded: {error}", error=why.message), why.status, **extra)
    return after_recorded(game, table_id, lines, finished, seq)


def narration(game, loaded):
    """What the table's last move in force changed, as the host's lines in the current language
    (``game.narrate``), worked out once per position and language (``LoadedTable.kept``): the
    screen a recorded move leads to says them as its confirmation (``confirm``), and looked at
    again, as its "last move"."""
    from facilitator.i18n import get_locale
    if loaded.last is None:
        return []
    return loaded.kept(("narration", get_locale()), lambda: game.narrate(loaded, loaded.last[1]))


#: the most fields one queued form may hold (a form of the app holds at most a few dozen)
MAX_QUEUED_FIELDS = 2000


#: the most queued forms' addresses an app keeps matched (then it starts again)
MAX_ACTIONS_KEPT = 10_000


def form_action(game, table_id, action):
    """What a queued form's action (its address, as the page's form names it) posts to, when it
    is this table's move or undo form of ``game``: ``("move", kind)``, ``("undo", None)``; else
    None (another table's, another game's, or no move form at all)."""
    from urllib.parse import urlsplit

    from flask import current_app
    from werkzeug.exceptions import HTTPException
    from werkzeug.routing import RequestRedirect
    if not isinstance(action, str) or not 0 < len(action) <= 500:
        return None
    path = urlsplit(action).path
    root = request.script_root
    if root and path.startswith(root + "/"):
        path = path[len(root):]
    # what an address matched, by host and path, kept per app (its routes are fixed once it
    # runs): ``(endpoint, arguments)``, or ``(None, {})`` for no POST route; read, never changed
    kept = current_app.extensions.setdefault("facilitator.form_actions", {})
    key = (request.host, path)
    found = kept.get(key)
    if found is None:
        try:
            found = current_app.url_map.bind(request.host).match(path, method="POST")
        except (HTTPException, RequestRedirect):
            found = (None, {})
        if len(kept) >= MAX_ACTIONS_KEPT:
            kept.clear()
        kept[key] = found
    endpoint, args = found
    if endpoint is None or args.get("table_id") != table_id:
        return None
    if endpoint == game.move_endpoint and "kind" in args and reads_move_forms(game):
        return "move", args["kind"]
    if endpoint == game.undo_endpoint:
        return "undo", None
    return None


def reads_move_forms(game):
    """Whether ``game`` reads its move forms itself (``GamePackage.read_move_form``): a game that
    does not has no form a tablet may queue (its forms are then refused as no move form, never
    failing the request)."""
    from facilitator.games import GamePackage
    return getattr(type(game), "read_move_form", None) is not GamePackage.read_move_form


def queued_forms(game, table_id, raw, path="moves", start=0):
    """Move forms a tablet queued (``[{"action", "fields", "after", "client_id"}]``, each as the
    form would have posted it) as ``services.record_batch`` items: a move form is read by
    ``game.read_move_form`` when its turn comes, against the table as it stands then (its
    ``after`` put in the form, its ``csrf_token`` left out: the request is checked otherwise);
    the undo form is an undo. Returns ``(items, malformed)``: ``malformed`` None, or
    ``(index, client_id, MalformedError)`` for the first entry that is no queued form of this
    table (the items stop before it); ``start``: the first entry's index in ``path``."""
    from functools import partial

    from werkzeug.datastructures import MultiDict

    from facilitator.rules.errors import MalformedError
    items = []
    for i, item in enumerate(raw, start):
        at = f"{path}[{i}]"
        client_id = item.get("client_id") if isinstance(item, dict) else None
        try:
            if not isinstance(item, dict):
                raise MalformedError(at, "must be an object")
            after = item.get("after")
            if not isinstance(after, int) or isinstance(after, bool) or not 0 <= after < 2 ** 31:
                raise MalformedError(f"{at}.after", "the sequence number this write follows, a whole number >= 0")
            if client_id is not None and (not isinstance(client_id, str) or not 0 < len(client_id) <= 64):
                raise MalformedError(f"{at}.client_id", "a text of at most 64 characters")
            target = form_action(game, table_id, item.get("action"))
            if target is None:
                raise MalformedError(f"{at}.action", "not a move form of this table")
            fields = item.get("fields", [])
            if not isinstance(fields, list) or len(fields) > MAX_QUEUED_FIELDS or not all(
                    isinstance(f, list) and len(f) == 2 and all(isinstance(x, str) for x in f) for f in fields):
                raise MalformedError(f"{at}.fields", "the form's fields, [name, value] pairs of texts")
            if target[0] == "undo":
                items.append({"after": after, "undo": True, "client_id": client_id})
                continue
            form = MultiDict([(name, value) for name, value in fields if name not in ("csrf_token", "after")]
                             + [("after", str(after))])
            items.append({"after": after, "client_id": client_id,
                          "read": partial(game.read_move_form, target[1], form)})
        except MalformedError as err:
            return items, (i - start, client_id if isinstance(client_id, str) else None, err)
    return items, None


def already_recorded(game, table_id):
    """A resent move the table already holds: nothing added, the turn screen again."""
    flash(_("This move was already recorded; nothing was added."), "ok")
    return redirect(url_for(game.turn, table_id=table_id), 303)


def after_recorded(game, table_id, lines, finished, seq=None):
    """Where the host goes after a recorded move (``seq``): the turn screen, which says what it
    changed (``confirm``); when the game ended, the final screen, its ``lines`` flashed and its
    protocol PDF started in the background. Without ``seq`` (a game's own move view written
    before it was asked for) the lines are flashed to the turn screen as well."""
    if finished or seq is None:
        flash("\n".join(lines) or _("Recorded"), "ok")
    if finished:  # the protocol PDF is made now, in the background: ready when the host asks for it
        from facilitator.web.downloads import start_protocol
        with db_session() as s:
            start_protocol(s, table_id)
        return redirect(url_for(game.final, table_id=table_id), 303)
    return redirect(url_for(game.turn, table_id=table_id, done=seq), 303)


# ----- the offline positions: a resource of their own, off the tap's path -----------------------
#: the rendered positions per game object (a cached position's game is only read, never moved:
#: the fragment lives as long as the game the process keeps for the table's newest position)
_FRAGMENTS = weakref.WeakKeyDictionary()
#: this process's templates: a fragment cached by a browser before a restart is drawn again
_STAMP = format(int(time.time()), "x")


def positions_etag(table):
    """The ETag of a table's offline positions: everything they depend on (the table, its
    position: ``seq`` and ``rev``, its setup and pack; the screen's language; these templates)."""
    from facilitator.i18n import get_locale
    state = repr((table.created_at, table.seq, table.rev, table.pack_id, table.players))
    digest = hashlib.sha1(state.encode()).hexdigest()[:12]
    return f"p{table.id}-{table.seq}-{digest}-{get_locale()}-{_STAMP}"


def positions(game, table_id, render):
    """``GET <the game's table>/positions?after=<seq>``: the screens the moves a host enters
    offline lead to (ARCHITECTURE.md decision 14), drawn from the engine's answers by
    ``render(loaded)``, apart from the turn screen so that a tap never waits for them: the
    tablet's outbox fetches them once the screen is idle. 409 (empty) when the table is no
    longer at ``after`` (the screen is behind), has no game, is finished or needs checking:
    the screen then says the answers are missing. An ETag per (table, position, language)
    answers a page drawn again with 304; the fragment is kept with the cached game, so asking
    twice costs the engine nothing. The session's CSRF token is not in it (the fragment is the
    same for every host of the table): the outbox puts the page's own token into its forms."""
    from flask import make_response
    from flask_wtf.csrf import generate_csrf
    s = db()
    table = services.get_table(s, table_id)
    if request.args.get("after", type=int) != table.seq:
        return "", 409
    etag = positions_etag(table)
    if request.if_none_match.contains(etag):
        response = make_response("", 304)
    else:
        loaded = load(s, table_id)
        if loaded.broken or loaded.game is None or loaded.game.finished:
            return "", 409
        kept = _FRAGMENTS.setdefault(loaded.game, {})
        body = kept.get(etag)
        if body is None:
            body = kept[etag] = render(loaded).replace(generate_csrf(), "")
        response = make_response(body)
    response.set_etag(etag)
    response.headers["Cache-Control"] = "private, no-cache"
    return response


__all__ = ["guard", "load", "narration", "needs_check", "bound", "opening", "setup_opening", "main_screen", "confirm", "final_screen", "screen_again", "form_errors", "undo", "Refusal", "refusal",
           "record", "already_recorded", "after_recorded", "form_action", "reads_move_forms", "queued_forms", "positions", "positions_etag", "games"]
