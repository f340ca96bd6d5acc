"""Tally's screens on the host's tablet (``/tally/...``): the setup, the turn screen with its two
move forms (add points, pass) and undo, the final results. Built on the app's one life of a
table (``facilitator.web.table``): access, load or 404, a table that needs checking, undo, a
resent move, where the host goes after a move; what is Tally's own is its forms and pages.

Refusals: 400 a form that does not make a move (malformed), 409 the table moved on (stale
``after``), 422 the rules refuse the move, each drawn on the turn screen with the app's words.
"""

from flask import Blueprint, redirect, render_template, request, url_for
from flask_wtf import FlaskForm

from facilitator import services
from facilitator.i18n import describe_error, translate_error
from facilitator.i18n import gettext as _
from facilitator.rules.errors import IllegalMoveError, MalformedError, SetupError
from facilitator.web import db_session, table
from facilitator.web.forms import AfterForm
from facilitator.web.games import stale_text

from facilitator_tally import GAME
from facilitator_tally.engine import MAX_PLAYERS, read_move, read_setup, table_standing

bp = Blueprint("tally", __name__, url_prefix="/tally", template_folder="templates")
table.guard(bp, GAME)


def result_line(result, pack):
    """What a move changed, as the host reads it."""
    if result.type == "pass":
        return f"{result.player} passes."
    line = f"{result.player} adds {result.points}: {result.score} of {pack.target}."
    return line + (f" {result.player} wins!" if result.won else "")


def _page(loaded, template="tally/turn.html", status=200, **extra):
    game = loaded.game
    context = dict(loaded=loaded, game=game, seq=loaded.seq, standing=table_standing(game), pack=loaded.pack,
                   error=None, points=list(range(1, loaded.pack.max_add + 1)))
    context.update(extra)
    return render_template(template, **context), status


def _refuse(table_id, message, status):
    """The turn screen (or the final one) again, saying why the write was not done."""
    with db_session() as s:
        loaded = table.load(s, table_id)
        if loaded.broken:
            return table.needs_check(loaded, GAME)
        if loaded.game is None:
            return redirect(url_for("tally.setup", table_id=table_id), 303)
        return _page(loaded, "tally/final.html" if loaded.game.finished else "tally/turn.html", status,
                     error=message)


@bp.route("/table/<int:table_id>/setup", methods=["GET", "POST"])
def setup(table_id):
    with db_session() as s:
        loaded = table.load(s, table_id)
        if loaded.seq:
            return redirect(url_for("tally.turn", table_id=table_id), 303)
        names = [p for p in (loaded.setup.players if loaded.table.players else ())]
        error, status = None, 200
        if request.method == "POST":
            names = [(request.form.get(f"player-{i}") or "").strip() for i in range(MAX_PLAYERS)]
            try:
                if not FlaskForm().validate():  # the CSRF check
                    raise MalformedError("csrf_token", "the form expired or was not sent from this page")
                setup_obj = read_setup({"setup": {"players": [n for n in names if n]}})
                services.set_players(s, table_id, setup_obj, rev=request.form.get("rev", type=int))
            except (SetupError, MalformedError) as err:
                error, status = describe_error(err), 400
            except (services.SetupLocked, services.StaleSetup):
                error, status = _("The setup was changed on another device since this form was opened. "
                                  "Nothing was saved: check the players below and save again."), 409
            else:
                return redirect(url_for("tally.turn", table_id=table_id), 303)
        return render_template("tally/setup.html", loaded=loaded, seq=loaded.seq, names=names,
                               seats=range(MAX_PLAYERS), error=error, rev=loaded.rev), status


@bp.get("/table/<int:table_id>")
def turn(table_id):
    return table.main_screen(GAME, table_id, _page)


@bp.post("/table/<int:table_id>/move/<any(add, pass):kind>")
def move(table_id, kind):
    """A move form: its fields are the move's keys (``player``, ``points``), as the tablet's
    outbox sends them to the API."""
    form = AfterForm()
    if not form.validate():
        return _refuse(table_id, _("The move was not recorded: the form is missing its position (after)"), 400)
    data = {"type": kind, "player": request.form.get("player", "")}
    if kind == "add":
        raw = request.form.get("points", "")
        data["points"] = int(raw) if raw.strip().lstrip("-").isdigit() else raw
    try:
        with db_session() as s:
            loaded, result = services.record_move(s, table_id, read_move(data), form.after.data)
            finished = loaded.game.finished
            lines = GAME.narrate(loaded, result)
    except services.TableBroken:
        return _refuse(table_id, "", 409)
    except services.StaleMove as err:
        if err.already:
            return table.already_recorded(GAME, table_id)
        return _refuse(table_id, stale_text(err), 409)
    except IllegalMoveError as err:
        return _refuse(table_id, _("The move was not recorded: {error}", error=translate_error(err)), 422)
    except MalformedError as err:
        return _refuse(table_id, _("The move was not recorded: {error}", error=describe_error(err)), 400)
    return table.after_recorded(GAME, table_id, lines, finished, seq=loaded.seq)


@bp.post("/table/<int:table_id>/undo")
def undo(table_id):
    return table.undo(GAME, table_id, _refuse)


@bp.get("/table/<int:table_id>/final")
def final(table_id):
    return table.final_screen(GAME, table_id, lambda loaded: _page(loaded, "tally/final.html"))
