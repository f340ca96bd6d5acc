"""The host's tablet: set up a table, run every move, see the final results.

Views are thin: parse the form, call ``services``, render. Refusals re-render the screen
with the engine's message and an HTTP status that says what kind of refusal it was:
400 bad input, 409 the table moved on (stale sequence number), 422 the rules refuse the move.
"""

import json
import random
from datetime import date
from io import BytesIO

from flask import Blueprint, abort, flash, redirect, render_template, request, send_file, url_for
from wtforms import SelectChoice

from .. import services
from ..content.library import list_packs
from ..content.search import find_cards
from ..i18n import gettext as _
from ..i18n import describe_error, era_name, skill_name, translate_error
from ..rules import (COLORS, ERA_BY_KEY, SKILLS, IllegalMoveError, MalformedError, ReplayError, RulesError,
                     SetupError,
                     age_in_round, era_of_round, turn_order_reason)
from ..rules.deck import next_card
from ..rules.pack import read_inline_card
from ..rules.standings import table_standing
from ..storage.models import ContentPackRow, GameTable
from . import db_session
from .auth import granted_table_ids, is_organizer, may_host, require_table
from .describe import pending_reasons, result_lines, turn_order_text
from .forms import (RANDOM, AdjustForm, AfterForm, AllocateForm, DrawForm, NewTableForm, PlayDeferredForm, RestForm,
                    SetupForm, SimpleMoveForm, TimerForm)

bp = Blueprint("host", __name__)


@bp.before_request
def _check_access():
    """The organizer runs every table; a host only the table opened with its link or PIN;
    creating or importing a table is the organizer's."""
    table_id = (request.view_args or {}).get("table_id")
    if table_id is not None:
        with db_session() as s:
            require_table(s.get(GameTable, table_id))
    elif request.endpoint in ("host.new_table", "host.import_table") and not is_organizer():
        abort(403)

MOVE_FORMS = {
    "draw": DrawForm, "rest": RestForm, "allocate": AllocateForm, "adjust": AdjustForm,
    "play_deferred": PlayDeferredForm, "share": SimpleMoveForm, "pass": SimpleMoveForm,
    "finish": SimpleMoveForm,
}


def _load(s, table_id):
    try:
        return services.load(s, table_id)
    except services.TableNotFound:
        abort(404)


# ----- tables -------------------------------------------------------------------------
@bp.get("/")
def index():
    from sqlmodel import select
    with db_session() as s:
        query = select(GameTable).order_by(GameTable.id.desc())
        if not is_organizer():
            query = query.where(GameTable.id.in_(granted_table_ids() or [-1]))
        tables = [t for t in s.exec(query).all() if may_host(t)]
        rows = []
        for t in tables:
            loaded = services.load(s, t.id)
            rows.append((t, loaded.game))
        form = NewTableForm()
        form.pack.choices = [SelectChoice(p.id, f"{p.title} (v{p.version})") for p in list_packs(s)]
    return render_template("host/index.html", rows=rows, form=form)


@bp.post("/tables")
def new_table():
    with db_session() as s:
        form = NewTableForm()
        form.pack.choices = [SelectChoice(p.id, p.title) for p in list_packs(s)]
        if not form.validate():
            for field, errors in form.errors.items():
                flash(f"{_(field)}: {'; '.join(errors)}", "error")
            return redirect(url_for("host.index"))
        pack_row = s.get(ContentPackRow, form.pack.data)
        table = services.create_table(s, form.name.data, pack_row)
        table_id = table.id
    return redirect(url_for("host.setup", table_id=table_id), 303)


@bp.post("/tables/import")
def import_table():
    upload = request.files.get("record")
    if upload is None or not upload.filename:
        flash(_("Choose a game record file (.json) to import"), "error")
        return redirect(url_for("host.index"), 303)
    try:
        data = json.loads(upload.read().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        flash(_("Not a game record: the file is not valid JSON ({error})", error=str(err)), "error")
        return redirect(url_for("host.index"), 303)
    try:
        with db_session() as s:
            table_id = services.import_record(s, data).id
    except (RulesError, ReplayError) as err:  # malformed, or a move breaking the rules: nothing written
        flash(_("The game record was not imported: {error}", error=describe_error(err)), "error")
        return redirect(url_for("host.index"), 303)
    flash(_("Game record imported"), "ok")
    return redirect(url_for("host.turn", table_id=table_id), 303)


@bp.get("/table/<int:table_id>/record.json")
def export_record(table_id):
    with db_session() as s:
        loaded = _load(s, table_id)
        if loaded.game is None:
            abort(404)
        data = loaded.record().to_dict()
    body = json.dumps(data, ensure_ascii=False, indent=2).encode("utf-8")
    name = f"record-{loaded.table.name}.json".replace(" ", "_")
    return send_file(BytesIO(body), mimetype="application/json", as_attachment=True, download_name=name)


@bp.get("/table/<int:table_id>/<any('protocol.xlsx', 'protocol.pdf', 'blank.pdf'):kind>")
def protocol(table_id, kind):
    """The table's protocol as Excel or PDF, or a blank paper protocol with the names filled."""
    from .downloads import table_download
    with db_session() as s:
        return table_download(s, table_id, kind)


# ----- setup --------------------------------------------------------------------------
def _character_choices(pack):
    return [SelectChoice("", _("— choose —")), SelectChoice(RANDOM, _("draw at random"))] + [
        SelectChoice(c.code, f"{c.name} · {c.direction}") for c in pack.characters]


@bp.route("/table/<int:table_id>/setup", methods=["GET", "POST"])
def setup(table_id):
    with db_session() as s:
        loaded = _load(s, table_id)
        if loaded.log:
            flash(_("The setup cannot change once moves are recorded"), "error")
            return redirect(url_for("host.turn", table_id=table_id), 303)
        form = SetupForm()
        if request.method == "GET" and loaded.table.players:
            for entry, p in zip(form.players, loaded.players):
                entry.form.name.data = p.name
                entry.form.born.data = date.fromisoformat(p.born)
                entry.form.character.data = p.character
                for sk, v in p.extra.items():
                    entry.form.extra[sk].data = v
                for sk, v in (p.declaration or {}).items():
                    entry.form.declaration[sk].data = v
        for entry in form.players:
            entry.form.character.choices = _character_choices(loaded.pack)
        errors = {}
        status = 200
        if request.method == "POST":
            ok = form.validate()
            errors = form.player_errors()
            if ok and not errors:
                rng = random.Random()

                def pick(taken):
                    free = [c.code for c in loaded.pack.characters if c.code not in taken]
                    return rng.choice(free)
                try:
                    services.set_players(s, table_id, form.setups(pick))
                except SetupError as err:
                    errors = {-1: [translate_error(err)]}
                else:
                    flash(_("Players are seated. The era «Lyceum» begins!"), "ok")
                    return redirect(url_for("host.turn", table_id=table_id), 303)
            status = 400
        return render_template("host/setup.html", loaded=loaded, form=form, errors=errors,
                               pack=loaded.pack), status


# ----- the turn screen ----------------------------------------------------------------
def _context(loaded, **extra):
    game = loaded.game
    standing = table_standing(game)
    legal = game.legal_moves()
    kinds = {m["type"]: m for m in legal}
    nxt = game.next()
    round_no = game.round
    upcoming = game.upcoming()
    new_era = None
    if upcoming and nxt and nxt["expects"] == "main":
        r, t = upcoming
        if t == 0 and era_of_round(r).first_round == r:
            new_era = era_of_round(r)
        round_no = r
    players = []
    for row in standing["players"]:
        p = game.players[row["name"]]
        players.append({**row, "pending_reasons": pending_reasons(p),
                        "character_name": loaded.pack.characters_by_code[p.character].name,
                        "rounds_left": (p.deferred.expires_after_round - round_no + 1) if p.deferred else None,
                        "deferred_title": p.deferred.card.title if p.deferred else None,
                        "is_turn": nxt is not None and nxt.get("player") == row["name"]})
    order_reason = turn_order_text(*turn_order_reason(loaded.pack, game.setup))
    last = loaded.results[loaded.active[-1].seq] if loaded.active else None
    ctx = dict(loaded=loaded, game=game, standing=standing, legal=legal, kinds=kinds, next=nxt,
               round_no=round_no, era=era_of_round(round_no), age=age_in_round(round_no), new_era=new_era,
               players=players, order_reason=order_reason, seq=loaded.seq,
               last_lines=result_lines(last) if last else [], colors=COLORS,
               share_preview=game.share_preview(nxt["player"]) if nxt and "share" in kinds else None)
    ctx.update(extra)
    return ctx


@bp.get("/table/<int:table_id>")
def turn(table_id):
    with db_session() as s:
        loaded = _load(s, table_id)
        if loaded.game is None:
            return redirect(url_for("host.setup", table_id=table_id))
        if loaded.game.finished:
            return redirect(url_for("host.final", table_id=table_id))
        return render_template("host/turn.html", **_context(loaded))


def _refuse(table_id, message, status, form=None):
    with db_session() as s:
        loaded = _load(s, table_id)
        if loaded.game is None:
            abort(status)
        return render_template("host/turn.html", **_context(loaded, error=message, failed_form=form)), status


def _form_errors(form):
    parts = []
    for name, errors in form.errors.items():
        if isinstance(errors, dict):
            for sub, errs in errors.items():
                parts.append(f"{_(sub)}: {'; '.join(str(e) for e in errs)}")
        else:
            parts.append(f"{_(name)}: {'; '.join(str(e) for e in errors)}")
    return "; ".join(parts)


@bp.post("/table/<int:table_id>/move/<kind>")
def move(table_id, kind):
    form_class = MOVE_FORMS.get(kind)
    if form_class is None:
        abort(404)
    form = form_class()
    if kind == "adjust":
        form.player.choices = None
    if form_class is SimpleMoveForm and request.form.get("type") != kind:
        return _refuse(table_id, _("The form does not match the move"), 400)
    if not form.validate():
        return _refuse(table_id, _("The move was not recorded: {errors}", errors=_form_errors(form)), 400, form)
    try:
        card_object = None
        if kind == "draw" and form.manual.data:
            card_object = read_inline_card(json.loads(form.manual.data), "card")
        move = form.move(card_object) if kind == "draw" else form.move()
        with db_session() as s:
            loaded, result = services.record_move(s, table_id, move, form.after.data)
            finished = loaded.game.finished
    except services.TableNotFound:
        abort(404)
    except services.StaleMove as err:
        if err.already:
            flash(_("This move was already recorded; nothing was added."), "ok")
            return redirect(url_for("host.turn", table_id=table_id), 303)
        return _refuse(table_id, _("The table has changed on another device since this screen was drawn "
                                   "(move #{expected}, now #{actual}). The move was NOT recorded: check the "
                                   "screen and repeat it if needed.", expected=err.expected, actual=err.actual), 409)
    except IllegalMoveError as err:
        return _refuse(table_id, _("The move was not recorded: {error}", error=translate_error(err)), 422, form)
    except (MalformedError, ValueError) as err:
        text = translate_error(err) if isinstance(err, RulesError) else str(err)
        return _refuse(table_id, _("The move was not recorded: {error}", error=text), 400, form)
    flash("\n".join(result_lines(result)), "ok")
    return redirect(url_for("host.final" if finished else "host.turn", table_id=table_id), 303)


@bp.post("/table/<int:table_id>/undo")
def undo(table_id):
    form = AfterForm()
    if not form.validate():
        return _refuse(table_id, _("The undo was not done: {errors}", errors=_form_errors(form)), 400)
    try:
        with db_session() as s:
            target = services.undo(s, table_id, form.after.data)
            data = json.loads(target.data)
    except services.StaleMove as err:
        return _refuse(table_id, _("The table has changed on another device (move #{expected}, now #{actual}); "
                                   "nothing was undone.", expected=err.expected, actual=err.actual), 409)
    except LookupError:
        return _refuse(table_id, _("There is no move to undo"), 409)
    flash(_("Move #{seq} ({type}) was undone; it stays in the history, marked undone.",
            seq=target.seq, type=_(data["type"])), "ok")
    return redirect(url_for("host.turn", table_id=table_id), 303)


@bp.post("/table/<int:table_id>/timer")
def timer(table_id):
    form = TimerForm()
    if not form.validate():
        return _refuse(table_id, _("The timer was not set: {errors}", errors=_form_errors(form)), 400)
    with db_session() as s:
        table = s.get(GameTable, table_id) or abort(404)
        table.timer_seconds = form.seconds.data or None
        s.add(table)
    return redirect(url_for("host.turn", table_id=table_id), 303)


# ----- drawing a card -------------------------------------------------------------------
@bp.get("/table/<int:table_id>/draw")
def draw(table_id):
    color = request.args.get("color")
    if color not in COLORS:
        return _refuse(table_id, _("Choose the colour of the deck: green, yellow or red"), 400)
    with db_session() as s:
        loaded = _load(s, table_id)
        game = loaded.game
        if game is None or game.finished:
            return redirect(url_for("host.turn", table_id=table_id))
        nxt = game.next()
        if nxt["expects"] != "main":
            return redirect(url_for("host.turn", table_id=table_id))
        player = nxt["player"]
        round_no = game.upcoming()[0]
        era = era_of_round(round_no)
        card = None
        source = ""
        if request.args.get("random"):
            card = next_card(game, loaded.table.deck_seed, era.key, color)
            source = "deck"
        elif request.args.get("card"):
            card = loaded.pack.cards_by_code.get(request.args["card"])
            if card is None or card.era != era.key or card.color != color:
                return _refuse(table_id, _("No {color} card {code} in the era «{era}»", color=_(color),
                                           code=request.args["card"], era=era_name(era.key)), 400)
        query = request.args.get("q", "")
        cards = find_cards(loaded.pack, era.key, color, query) if card is None else []
        ctx = _context(loaded)
        ctx.update(color=color, player=player, card=card, cards=cards, query=query, source=source,
                   draw_form=DrawForm(formdata=None, after=loaded.seq, player=player, color=color,
                                      card=card.code if card else ""))
        if card is not None:
            ctx.update(card_view(game, player, card))
        return render_template("host/draw.html", **ctx)


def card_view(game, player, card, manual_json=""):
    p = game.players[player]
    rows = []
    for skill in SKILLS:
        need = max(card.conditions.get(skill, 0), card.losses.get(skill, 0))
        rows.append({"skill": skill, "have": p.skills[skill], "condition": card.conditions.get(skill, 0),
                     "loss": card.losses.get(skill, 0), "gain": card.gains.get(skill, 0),
                     "short": p.skills[skill] < need})
    return {"card_rows": rows, "shortfalls": game.shortfalls(player, card),
            "decisions": game.decisions(player, card), "manual_json": manual_json}


@bp.route("/table/<int:table_id>/draw/manual", methods=["GET", "POST"])
def draw_manual(table_id):
    color = request.values.get("color")
    if color not in COLORS:
        return _refuse(table_id, _("Choose the colour of the deck: green, yellow or red"), 400)
    with db_session() as s:
        loaded = _load(s, table_id)
        game = loaded.game
        if game is None or game.finished or game.next()["expects"] != "main":
            return redirect(url_for("host.turn", table_id=table_id))
        player = game.next()["player"]
        ctx = _context(loaded)
        ctx.update(color=color, player=player, error=None, values=request.form)
        if request.method == "POST":
            try:
                data = _manual_card_data(request.form, color)
                card = read_inline_card(data, "card")
            except (MalformedError, ValueError) as err:
                text = str(err)
                if isinstance(err, MalformedError):  # name the field: "title: must be a non-empty text"
                    where = err.path.split(".", 1)[1] if "." in err.path else ""
                    text = f"{_(where)}: {translate_error(err)}" if where else translate_error(err)
                ctx["error"] = _("The card is not valid: {error}", error=text)
                return render_template("host/manual.html", **ctx), 400
            ctx.update(card=card, cards=[], query="", source="",
                       draw_form=DrawForm(formdata=None, after=loaded.seq, player=player, color=color,
                                          manual=json.dumps(data, ensure_ascii=False)))
            ctx.update(card_view(game, player, card, json.dumps(data, ensure_ascii=False)))
            return render_template("host/draw.html", **ctx)
        return render_template("host/manual.html", **ctx)


def _manual_card_data(form, color):
    """A hand-entered card's record object from the manual form; numbers must be whole numbers."""
    def label(name):
        """``conditions_health`` -> ``Conditions: health``, in the current language."""
        group, _sep, skill = name.partition("_")
        names = {"conditions": _("Conditions"), "losses": _("Losses"), "gains": _("Gains"), "free": _("Free SP"),
                 "redistribute": _("Redistribute up to")}
        return f"{names.get(group, group)}: {skill_name(skill)}" if skill else names.get(group, group)

    def number(name):
        raw = (form.get(name) or "").strip()
        if not raw:
            return 0
        try:
            value = int(raw)
        except ValueError:
            raise ValueError(_("{field}: “{value}” is not a whole number", field=label(name), value=raw)) from None
        if value < 0:
            raise ValueError(_("{field}: cannot be negative", field=label(name)))
        return value
    skills = SKILLS
    data = {"color": color, "title": (form.get("title") or "").strip(), "text": form.get("text") or "",
            "conditions": {k: number(f"conditions_{k}") for k in skills if number(f"conditions_{k}")},
            "losses": {k: number(f"losses_{k}") for k in skills if number(f"losses_{k}")},
            "gains": {k: number(f"gains_{k}") for k in skills if number(f"gains_{k}")},
            "free": number("free"), "special": None}
    code = (form.get("code") or "").strip()
    if code:
        data["code"] = code
    if color == "red" and (form.get("special") or "").strip():
        data["special"] = {"text": form["special"].strip()}
        if number("redistribute"):
            data["special"]["redistribute"] = number("redistribute")
    return data


# ----- the final screen -----------------------------------------------------------------
@bp.get("/table/<int:table_id>/final")
def final(table_id):
    with db_session() as s:
        loaded = _load(s, table_id)
        if loaded.game is None:
            return redirect(url_for("host.setup", table_id=table_id))
        standing = table_standing(loaded.game)
        best = min(p["place"] for p in standing["players"])
        winners = [p["name"] for p in standing["players"] if p["place"] == best]
        checks = {}
        for p in loaded.game.players_in_order():
            if p.declaration:
                checks[p.name] = [(sk, p.declaration.get(sk, 0), p.skills[sk]) for sk in SKILLS]
        ranked = sorted(standing["players"], key=lambda r: r["place"])
        return render_template("host/final.html", loaded=loaded, game=loaded.game, standing=standing,
                               ranked=ranked, winners=winners, checks=checks, seq=loaded.seq,
                               era=ERA_BY_KEY[standing["era"]])
