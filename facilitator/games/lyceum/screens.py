"""The host's tablet: set up a table, run every move, see the final results.

Views are thin: parse the form, call ``services``, render. Refusals re-render the screen
with the engine's message and an HTTP status that says what kind of refusal it was:
400 bad input, 409 the table moved on (stale sequence number), 422 the rules refuse the move.

Every page that leads to a move is bound to the sequence number and the player it was drawn
for (in its URL and its form): opened again from the browser's history after the table moved
on, it says what happened and offers the current turn, never a live button for someone else.
"""

import json
import random
import re
import weakref

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for

from facilitator import services
from facilitator.games.lyceum import words
from facilitator.games.lyceum.search import find_card_by_code, find_cards
from facilitator.i18n import color_name, describe_error, era_name, skill_name, translate_error
from facilitator.i18n import gettext as _
from facilitator.rules import MalformedError, RulesError, SetupError
from facilitator.rules.lyceum import COLORS, ERA_BY_KEY, age_in_round, era_of_round, turn_order_reason
from facilitator.rules.lyceum.answers import turn_answers
from facilitator.rules.lyceum.cards import allows_special
from facilitator.rules.lyceum.deck import next_card
from facilitator.rules.lyceum.odds import playable
from facilitator.rules.lyceum.pack import read_inline_card
from facilitator.rules.lyceum.setup import setup_problems
from facilitator.rules.lyceum.standings import table_standing, winners
from facilitator.safejson import JSONInputError, loads as safe_loads
from facilitator.games import FormError
from facilitator.games.lyceum import GAME
from facilitator.web import db_session, table
from facilitator.games.lyceum.describe import pending_reasons, turn_order_text
from facilitator.games.lyceum.forms import RANDOM, AdjustForm, AllocateForm, DrawForm, ManualCardForm, PlayDeferredForm, RestForm, SetupForm, SimpleMoveForm, TimerForm

#: the «16/25» screens a table of another game is sent on from, to its own game's
OWN_SCREENS = {"lyceum.turn": "turn", "lyceum.setup": "setup", "lyceum.final": "final", "lyceum.draw": "turn",
               "lyceum.draw_manual": "turn", "lyceum.finish": "turn"}

bp = Blueprint("lyceum", __name__, template_folder="templates")



table.guard(bp, GAME, OWN_SCREENS)


@bp.record_once
def _lyceum_words(state):
    """«16/25»'s skills and their short names, as globals of the app's templates: its macros
    (imported without the page's context) and its parts of the organizer's and the projector's
    pages use them."""
    from facilitator.rules.lyceum import SKILLS
    state.app.jinja_env.globals.update(SKILLS=SKILLS, skill_short=words.skill_short)


MOVE_FORMS = {
    "draw": DrawForm, "rest": RestForm, "allocate": AllocateForm, "adjust": AdjustForm,
    "play_deferred": PlayDeferredForm, "share": SimpleMoveForm, "pass": SimpleMoveForm,
    "finish": SimpleMoveForm,
}


# ----- setup --------------------------------------------------------------------------
def _character_choices(pack):
    from wtforms import SelectChoice
    return [SelectChoice("", _("— choose —")), SelectChoice(RANDOM, _("draw at random"))] + [
        SelectChoice(c.code, f"{c.name} · {c.direction}") for c in pack.characters]


@bp.route("/table/<int:table_id>/setup", methods=["GET", "POST"])
def setup(table_id):
    with db_session() as s:
        loaded, response = table.setup_opening(GAME, s, table_id)
        if response is not None:
            return response
        form = SetupForm()
        if request.method == "GET":
            form.rev.data = loaded.rev
            if loaded.table.players:
                form.fill(loaded.players)
        for entry in form.players:
            entry.form.character.choices = _character_choices(loaded.pack)
        errors = {}
        status = 200
        if request.method == "POST":
            ok = form.validate()
            errors = form.player_errors(loaded.pack)
            if ok and not errors:
                rng = random.Random()

                def pick(taken):
                    free = [c.code for c in loaded.pack.characters if c.code not in taken]
                    return rng.choice(free)
                setups = form.setups(pick)
                # every problem the rules find, at once, each next to its player (the engine's check)
                seats = [i for i, entry in enumerate(form.players) if not entry.form.is_empty()]
                for problem in setup_problems(loaded.pack, setups):
                    index = _seat_of(problem.path, seats)
                    errors.setdefault(index, []).append(translate_error(problem))
            if ok and not errors:
                try:
                    services.set_players(s, table_id, setups, rev=form.rev.data)
                except (SetupError, MalformedError) as err:
                    errors = {-1: [translate_error(err)]}
                except services.SetupLocked:
                    flash(_("A move was recorded on another device meanwhile: the setup cannot change any more. "
                            "Nothing of this form was saved."), "error")
                    return redirect(url_for("lyceum.turn", table_id=table_id), 303)
                except services.StaleSetup:
                    errors = {-1: [_("The setup was changed on another device since this form was opened. "
                                     "Nothing was saved: check the players below and save again.")]}
                    form.rev.data = services.get_table(s, table_id).rev
                    status = 409
                else:
                    flash(_("Players are seated. The era «Lyceum» begins!"), "ok")
                    return redirect(url_for("lyceum.turn", table_id=table_id), 303)
            status = status if status == 409 else 400
        return render_template("host/setup.html", loaded=loaded, form=form, errors=errors,
                               pack=loaded.pack, rules=setup_rules(), turn_order_rule=words.turn_order_rule()), status


def _seat_of(path, seats):
    """The form's seat of a setup problem's path (``players[1].extra`` -> the second filled seat);
    -1 for a problem of the whole table."""
    import re
    match = re.match(r"players\[(\d+)\]", path or "")
    if match and int(match.group(1)) < len(seats):
        return seats[int(match.group(1))]
    return -1


def setup_rules():
    """The numbers of RULES.md 2 the setup screen shows and checks live, from the engine (the
    seats past ``min_players`` are marked optional)."""
    from facilitator.rules.lyceum.setup import DECLARATION_BONUS, EXTRA_SP, MAX_PLAYERS, MIN_PLAYERS
    return {"extra_sp": EXTRA_SP, "declarations": sorted(DECLARATION_BONUS), "min_players": MIN_PLAYERS,
            "max_players": MAX_PLAYERS}


# ----- the turn screen ----------------------------------------------------------------
def turn_rules():
    """The engine's numbers the turn screens say: the rounds of a game (RULES.md 1), what a rest
    gives (3.2) and the XP step of a correction (3.7). Read from the engine when a screen is
    drawn, never written into a template."""
    from facilitator.rules.lyceum import eras, game
    return {"rounds": eras.ROUNDS, "xp_step": game.XP_STEP,
            "rest": {"skill": skill_name(game.REST_SKILL), "gain": game.REST_GAIN, "sp": game.REST_FREE_SP}}


#: why the first player goes first, by the table's pack version and setup (neither changes once
#: the game runs: the turn screen said it again on every tap)
_ORDER_REASONS = {}


def _order_reason(loaded):
    key = (loaded.table.pack_id, loaded.table.players)
    reason = _ORDER_REASONS.get(key)
    if reason is None:
        if len(_ORDER_REASONS) >= 10_000:
            _ORDER_REASONS.clear()
        reason = _ORDER_REASONS[key] = turn_order_reason(loaded.pack, loaded.game.setup)
    return reason


def _context(loaded, **extra):
    game = loaded.game
    standing = loaded.table_standing()  # the move's POST worked it out
    legal = game.legal_moves()
    kinds = {m["type"]: m for m in legal}
    nxt = game.next()
    upcoming = game.upcoming()
    last = loaded.last_result()
    # the round the next main move belongs to; while free SP of a main move wait, that move's
    # round; a correction's level-up keeps the round the table stood at (the start of round 5
    # stays round 5 while its SP are allocated)
    corrected = last is not None and last.move.type == "adjust"
    round_no = upcoming[0] if upcoming and nxt and (nxt["expects"] == "main" or corrected) else game.round
    new_era = game.new_era()
    players = []
    for row in standing["players"]:
        p = game.players[row["name"]]
        players.append({**row, "pending_reasons": pending_reasons(p),
                        "character_name": loaded.pack.characters_by_code[p.character].name,
                        "deferred_status": game.deferred_status(p.name),
                        "deferred_title": p.deferred.card.title if p.deferred else None,
                        "is_turn": nxt is not None and nxt.get("player") == row["name"]})
    order_reason = turn_order_text(*_order_reason(loaded))
    mover = game.current if game.main_done else None
    deferred = game.deferred_status(mover) if mover else None
    main = nxt["player"] if nxt and nxt["expects"] == "main" else None
    share_refusal = game.share_refusal(main) if main and "share" not in kinds else None
    ctx = dict(loaded=loaded, game=game, standing=standing, legal=legal, kinds=kinds, next=nxt,
               **turn_rules(),
               share_refusal=translate_error(share_refusal) if share_refusal is not None else None,
               round_no=round_no, era=era_of_round(round_no), age=age_in_round(round_no), new_era=new_era,
               players=players, order_reason=order_reason, seq=loaded.seq,
               last_lines=table.narration(GAME, loaded), colors=COLORS,
               deferred_prompt=deferred if deferred and request.args.get("deferred") != f"later-{loaded.seq}"
               else None, deferred_mover=mover,
               deferred_why=", ".join(_("{skill} {have} < {need}", skill=skill_name(sk), have=have, need=need)
                                      for sk, have, need in (deferred or {}).get("shortfalls", [])),
               share_preview=game.share_preview(nxt["player"]) if nxt and "share" in kinds else None,
               odds_line=words.odds_text(main, playable(game, main)) if main else None)
    ctx.update(extra)
    return ctx


#: the engine's answers for the next moves, per game object: a cached position's game is only
#: read, never moved (services.tables), so a screen drawn again asks the engine once
_ANSWERS = weakref.WeakKeyDictionary()


def offline_positions(game):
    """The engine's answers for the moves the host can enter next (``rules/lyceum/answers.py``),
    as the turn screen draws them while moves wait: a share's refusal in the screen's language,
    and the ``then`` keys of the live screen's own forms."""
    answers = _ANSWERS.get(game)
    if answers is None:
        answers = _ANSWERS[game] = turn_answers(game)
    positions = {}
    for key, pos in answers["positions"].items():
        refusal = pos.get("share_refusal")
        positions[key] = dict(pos, share_refusal=translate_error(refusal)) if refusal is not None else pos
    start = positions[answers["start"]]
    main = positions.get(start.get("base"), start)
    live = {"allocate": start.get("then"), "play_deferred": (start.get("deferred") or {}).get("then"),
            "rest": main.get("rest"), "pass": main.get("pass"), "share": main.get("share")}
    return {"start": answers["start"], "positions": positions, "live": live}


def _turn_screen(loaded, **extra):
    return render_template("host/turn.html", **_context(loaded, **extra))


@bp.get("/table/<int:table_id>")
def turn(table_id):
    return table.main_screen(GAME, table_id, _turn_screen)


def _positions(loaded):
    """The positions' fragment; a run of blank space holding a line break is one line break (the
    same page: no fragment holds preformatted text), so it travels smaller."""
    move_url = {kind: url_for("lyceum.move", table_id=loaded.table.id, kind=kind)
                for kind in ("draw", "rest", "share", "pass", "play_deferred", "allocate")}
    html = render_template("host/_positions.html", loaded=loaded, game=loaded.game, seq=loaded.seq, colors=COLORS,
                           positions=offline_positions(loaded.game), move_url=move_url, **turn_rules())
    return _BLANK_LINES.sub("\n", html)


_BLANK_LINES = re.compile(r"[ \t]*\n\s*")


@bp.get("/table/<int:table_id>/positions")
def positions(table_id):
    """The screens the moves entered offline lead to (fetched by the outbox once the turn
    screen is idle: off the tap's path)."""
    return table.positions(GAME, table_id, _positions)


def _refuse(table_id, message, status, form=None):
    """The turn screen (or the final one) again, with why the write was refused."""
    return table.screen_again(
        GAME, table_id, status,
        turn=lambda loaded: _turn_screen(loaded, error=message, failed_form=form),
        final=lambda loaded: render_template("host/final.html", **_final_context(loaded), error=message))


#: how a refused field is named to the host, where its form name is not a word of the screen
FIELD_LABELS = {"xp": "XP change"}


def _form_errors(form):
    return table.form_errors(form, FIELD_LABELS)


def read_form(kind, formdata):
    """The one reading of a «16/25» move form (``GAME.read_move_form``: the screen's POST and a
    tablet's queued form alike): its WTForms class checks the shape and the form's bounds (SP
    and XP within the game's, the reason's length, ``after``), a hand-entered card is read by
    the engine. Returns ``(form, move)``; raises ``FormError`` naming the field, the form kept
    for the screen to show it again as typed. CSRF is the app's check of the request, not the
    form's (a queued form is sent without its token, through the JSON API)."""
    form_class = MOVE_FORMS.get(kind)
    if form_class is None:
        raise FormError("type", _("The form does not match the move"))
    form = form_class(formdata=formdata, meta={"csrf": False})
    if kind == "adjust":
        form.player.choices = None
    if form_class is SimpleMoveForm and formdata.get("type") != kind:
        raise FormError("type", _("The form does not match the move"), form)
    if not form.validate():
        raise FormError(next(iter(form.errors)), _form_errors(form), form)
    try:
        card_object = None
        if kind == "draw" and form.manual.data:
            card_object = read_inline_card(safe_loads(form.manual.data, what="card"), "card")
        move = form.move(card_object) if kind == "draw" else form.move()
    except (MalformedError, JSONInputError, ValueError) as err:
        text = describe_error(err) if isinstance(err, (RulesError, JSONInputError)) else str(err)
        raise FormError(getattr(err, "path", None) or "card", text, form) from err
    return form, move


@bp.post("/table/<int:table_id>/move/<kind>")
def move(table_id, kind):
    if kind not in MOVE_FORMS:
        abort(404)
    try:
        form, move = read_form(kind, request.form)
    except FormError as err:
        return _refuse(table_id, _("The move was not recorded: {error}", error=err.text), 400, err.form)
    return table.record(GAME, table_id, move, form.after.data, _refuse, form=form)


@bp.post("/table/<int:table_id>/undo")
def undo(table_id):
    return table.undo(GAME, table_id, _refuse)


@bp.post("/table/<int:table_id>/timer")
def timer(table_id):
    form = TimerForm()
    if not form.validate():
        return _refuse(table_id, _("The timer was not set: {errors}", errors=_form_errors(form)), 400)
    with db_session() as s:
        services.set_timer(s, table_id, form.seconds.data or None)
    return redirect(url_for("lyceum.turn", table_id=table_id), 303)


# ----- a page bound to the position it was drawn for -------------------------------------------
def _main_move_page(s, table_id):
    """The opening of a page that leads to a main move (a card drawn, by hand or not):
    ``(loaded, player, None)`` while the table waits for ``player``'s main move and the page
    was drawn for it (its URL's or form's ``after`` and ``player``), else ``(None, None, the
    response)``: a table not set up or finished goes to the main screen; a page drawn for
    another position or player says what happened instead (``table.bound``)."""
    loaded, response = table.opening(GAME, s, table_id, elsewhere=GAME.turn, bind=False)
    if response is not None:
        return None, None, response
    nxt = loaded.game.next()
    if nxt["expects"] != "main":
        return None, None, table.bound(GAME, loaded, player=None) or redirect(url_for(GAME.turn, table_id=table_id))
    player = nxt["player"]
    stale = table.bound(GAME, loaded, player=player)
    return (None, None, stale) if stale is not None else (loaded, player, None)


def moved_on_context(loaded, happened):
    """«16/25»'s words on the page that says a screen is out of date (``GAME.moved_on_context``):
    a card drawn meanwhile by what became of it (the card the page was drawn for, ``?card=``),
    another move by its type and player; what the game waits for now."""
    ctx = _context(loaded)
    move = happened.get("move") if happened and happened.get("kind") == "move" else None
    line = what = None
    card_code = request.values.get("card")
    if move and move.get("type") == "draw" and (card_code is None or move.get("card") == card_code):
        card = move.get("card")
        code = card if isinstance(card, str) else ((card or {}).get("title") or "")
        said = dict(card=code, player=move.get("player"), seq=happened["seq"])
        if move.get("decision") == "play":
            line = _("Card {card} was already played by {player}, move #{seq}.", **said)
        elif move.get("decision") == "defer":
            line = _("Card {card} was already deferred by {player}, move #{seq}.", **said)
        else:
            line = _("Card {card} was already discarded by {player}, move #{seq}.", **said)
    elif move:
        what = _(move.get("type", "")) + (f" · {move['player']}" if move.get("player") else "")
    nxt = ctx.get("next")
    now = None
    if nxt and nxt.get("player"):
        now = {"main": _("turn of {player}", player=nxt["player"]),
               "allocate": _("{player} allocates free SP", player=nxt["player"])}.get(nxt.get("expects"),
                                                                                       _("finish the game"))
    return dict(ctx, happened_line=line, happened_move=what, now_text=now)


def _colour_needed():
    return _("Choose the colour of the deck: {colors}", colors=words.or_list(color_name(c) for c in COLORS))


def draw_url(table_id, seq, player, **args):
    return url_for("lyceum.draw", table_id=table_id, after=seq, player=player, **args)


# ----- drawing a card -------------------------------------------------------------------
@bp.get("/table/<int:table_id>/draw")
def draw(table_id):
    color = request.args.get("color")
    if color not in COLORS:
        return _refuse(table_id, _colour_needed(), 400)
    with db_session() as s:
        loaded, player, response = _main_move_page(s, table_id)
        if response is not None:
            return response
        game = loaded.game
        if request.args.get("after") is None and (request.args.get("card") or request.args.get("random")):
            # a card chosen on a page that does not say for whom (an old bookmark, a typed or
            # stale link): never offered live to whoever's turn it is now; chosen again instead
            flash(_("The link did not say whose turn it was for, so its card was not taken: "
                    "choose the {color} card for {player} again.", color=_(color), player=player), "info")
            return redirect(draw_url(table_id, loaded.seq, player, color=color), 303)
        round_no = game.upcoming()[0]
        era = era_of_round(round_no)
        card = None
        source = ""
        query = request.args.get("q", "")
        if request.args.get("random"):
            card = next_card(game, loaded.table.deck_seed, era.key, color)
            source = "deck"
        elif request.args.get("card"):
            card = loaded.pack.cards_by_code.get(request.args["card"])
            if card is None or card.era != era.key or card.color != color:
                return _refuse(table_id, _("No {color} card {code} in the era «{era}»", color=_(color),
                                           code=request.args["card"][:40], era=era_name(era.key)), 400)
        elif query:
            exact = find_card_by_code(loaded.pack, era.key, color, query)
            if exact is not None:  # an exact code typed: straight to the card
                return redirect(draw_url(table_id, loaded.seq, player, color=color, card=exact.code), 303)
        cards = find_cards(loaded.pack, era.key, color, query) if card is None else []
        ctx = _context(loaded)
        ctx.update(color=color, player=player, card=card, cards=cards, query=query, source=source,
                   draw_form=DrawForm(formdata=None, after=loaded.seq, player=player, color=color,
                                      card=card.code if card else ""))
        if card is not None:
            ctx.update(card_view(game, player, card))
        return render_template("host/draw.html", **ctx)


def card_view(game, player, card, manual_json=""):
    return {"card_rows": game.card_check(player, card), "shortfalls": game.shortfalls(player, card),
            "decisions": game.decisions(player, card), "manual_json": manual_json}


@bp.route("/table/<int:table_id>/draw/manual", methods=["GET", "POST"])
def draw_manual(table_id):
    color = request.values.get("color")
    if color not in COLORS:
        return _refuse(table_id, _colour_needed(), 400)
    with db_session() as s:
        loaded, player, response = _main_move_page(s, table_id)  # the link, or the form, drawn for it
        if response is not None:
            return response
        game = loaded.game
        form = ManualCardForm(color=color)
        ctx = _context(loaded)
        ctx.update(color=color, player=player, error=None, form=form, special_allowed=allows_special(color))
        if request.method == "POST":
            data = form.card_data() if form.validate() else None
            card = None
            if data is not None:
                try:
                    card = read_inline_card(data, "card")
                except MalformedError as err:
                    form.engine_error(err)
            if card is None:
                ctx["error"] = _("The card is not valid: {error}", error=form.error_text())
                return render_template("host/manual.html", **ctx), 400
            manual = json.dumps(data, ensure_ascii=False)
            ctx.update(card=card, cards=[], query="", source="",
                       draw_form=DrawForm(formdata=None, after=loaded.seq, player=player, color=color, manual=manual))
            ctx.update(card_view(game, player, card, manual))
            return render_template("host/draw.html", **ctx)
        return render_template("host/manual.html", **ctx)


# ----- finishing --------------------------------------------------------------------------
@bp.get("/table/<int:table_id>/finish")
def finish(table_id):
    """Finishing is confirmed on a page that shows the final bonuses and places first."""
    with db_session() as s:
        loaded, response = table.opening(GAME, s, table_id, elsewhere=GAME.turn, player=None)
        if response is not None:
            return response
        game = loaded.game
        if "finish" not in {m["type"] for m in game.legal_moves()}:
            return redirect(url_for("lyceum.turn", table_id=table_id))
        preview = game.finish_preview()
        standing = table_standing(preview)
        ranked = sorted(standing["players"], key=lambda r: r["place"])
        checks = {p.name: preview.declaration_checks(p.name) for p in preview.players_in_order() if p.declaration}
        expiring = [(name, p.deferred.card) for name, p in game.players.items() if p.deferred]
        return render_template("host/finish.html", loaded=loaded, game=game, standing=standing, ranked=ranked,
                               winners=winners(standing), checks=checks, expiring=expiring, seq=loaded.seq)


# ----- the final screen -----------------------------------------------------------------
def _final_context(loaded):
    standing = table_standing(loaded.game)
    checks = {p.name: loaded.game.declaration_checks(p.name) for p in loaded.game.players_in_order()
              if p.declaration}
    ranked = sorted(standing["players"], key=lambda r: r["place"])
    return dict(loaded=loaded, game=loaded.game, standing=standing, ranked=ranked, winners=winners(standing),
                checks=checks, seq=loaded.seq, era=ERA_BY_KEY[standing["era"]])


@bp.get("/table/<int:table_id>/final")
def final(table_id):
    return table.final_screen(GAME, table_id, lambda loaded: render_template("host/final.html", **_final_context(loaded)))
