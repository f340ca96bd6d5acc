"""The host's screens for Alter Ego (3rd edition), under ``/ae``: setup, the turn screen, the
pages that lead to a move (a card and its targets, an ability, a reaction, a correction, the
end of the game), the final screen, the protocol files, and the organizer's deck import.

Views are thin, as the «16/25» host's: read the form, call ``services``, render. Everything a
screen says about the game comes from the engine, which these views ask and never re-derive:
``Game.offers()`` lists every card, ability and reaction with whether it can be played now
(``legal``) and the engine's reason when not; ``Game.offer(move)`` gives the next field a move
being entered takes and its options, each legal or refused with its reason; the choices come
with their answers; ``Game.next()`` and ``Game.pending`` say what the game waits for;
``MoveResult`` what a move did (narrated by ``facilitator.games.alterego.words``).

Refusals re-render the turn screen with the engine's message and a status that says what kind
of refusal it was: 400 malformed, 409 the table moved on (the form's ``after`` is no longer the
table's sequence number), 422 the rules refuse the move. A page that leads to a move is bound
to the sequence number it was drawn for (``?after=``): opened again after the table moved on it
says what happened and offers the current turn, never a live button.

Move forms carry ``data-move="<type>"``, the hidden ``after`` and ``csrf_token``, and name their
fields as the move JSON names them (``participants[]`` repeated, ``changes`` as JSON text with
``data-json``), so the tablet's offline queue and this module read the same form.
"""

import json
import weakref
from io import BytesIO

from flask import Blueprint, abort, flash, redirect, render_template, request, send_file, url_for

from facilitator import services
from facilitator.i18n import describe_error, get_locale
from facilitator.i18n import gettext as _
from facilitator.formatting import N_
from facilitator.games.alterego import words
from facilitator.formatting import format_date
from facilitator.rules.alterego import Move, propose_first, read_move, read_setup, table_standing
from facilitator.rules.alterego.answers import turn_answers
from facilitator.rules.alterego.moves import CHANGE_KINDS, MOVE_TYPES
from facilitator.rules.alterego.checks import LIST_NEEDS, card_fields
from facilitator.rules.alterego.effects import DRAW, NIKSU_AMOUNT, PARE_GAIN
from facilitator.rules.alterego.setup import MIN_PLAYERS, first_player_reason
from facilitator.rules.alterego.state import LAST_SEASON
from facilitator.rules.errors import MalformedError, SetupError
from facilitator.safejson import JSONInputError
from facilitator.games import FormError
from facilitator.games.alterego import GAME
from facilitator.web import db_session, table
from facilitator.games.alterego.forms import MAX_SEATS, SetupForm, move_data, seat_errors
from facilitator.web.auth import organizer_required
from facilitator.web.forms import AfterForm

RULESET = GAME.key

bp = Blueprint("alterego", __name__, url_prefix="/ae", template_folder="templates", static_folder="static")



@bp.context_processor
def _words():
    """The words, and the engine's numbers the screens say (seasons, cards drawn, Pare's and
    Niksu's amounts), so no template writes a rule's number itself."""
    return {"words": words, "last_season": LAST_SEASON, "cards_drawn": DRAW, "pare_gain": PARE_GAIN,
            "niksu_amount": NIKSU_AMOUNT}


table.guard(bp, GAME)


# ----- setup ----------------------------------------------------------------------------------
def _active_choices(pack):
    from wtforms import SelectChoice
    return [SelectChoice("", _("— choose —"))] + [
        SelectChoice(a.key, f"{a.name} · VA {a.va} · BO {a.bo}") for a in pack.actives]


def _seat_count(pack):
    """The seats the setup form offers: as many as the deck seats (RULES.md 2.1), at most
    ``MAX_SEATS``."""
    return min(max(pack.max_players, MIN_PLAYERS), MAX_SEATS)


@bp.route("/table/<int:table_id>/setup", methods=["GET", "POST"])
def setup(table_id):
    with db_session() as s:
        loaded, response = table.setup_opening(GAME, s, table_id)
        if response is not None:
            return response
        pack = loaded.pack
        seats = _seat_count(pack)
        form = SetupForm()
        while len(form.players) < seats:
            form.players.append_entry()
        if request.method == "GET":
            form.rev.data = loaded.rev
            if loaded.table.players:
                form.fill(loaded.setup)
        for entry in form.players:
            for field in entry.form.actives:
                field.choices = _active_choices(pack)
        errors, general, proposal, status = {}, [], None, 200
        if request.method == "POST":
            ok = form.validate()
            errors = seat_errors(form, pack)
            filled = form.seats()
            if not MIN_PLAYERS <= len(filled) <= pack.max_players:
                general.append(_("A table of this deck has {low} to {high} players; fill in {count}",
                                 low=MIN_PLAYERS, high=pack.max_players, count=len(filled)))
            if not ok:
                for name, errs in form.errors.items():
                    if name != "players":
                        general.append(f"{_(name)}: {'; '.join(str(e) for e in errs)}")
                for i, entry in enumerate(form.players):
                    for name, errs in entry.form.errors.items():
                        errors.setdefault(i, []).append(f"{_(name)}: {'; '.join(str(e) for e in errs)}")
            if not errors and not general:
                data = form.setup_data()
                chosen = data["first"]
                data["first"] = chosen or data["players"][0]["name"]
                try:
                    setup_obj = read_setup(data, pack=pack)
                    proposed = propose_first(pack, setup_obj)
                except SetupError as err:
                    _place_setup_error(err, form, errors, general, pack)
                else:
                    if chosen is None:
                        # the engine's proposal preselected, with its reason: the host confirms it
                        index = [p["name"] for p in data["players"]].index(proposed)
                        form.first.data = str(filled[index][0])
                        proposal = _proposal_reason(setup_obj)
                        return render_template("alterego/setup.html", loaded=loaded, form=form, errors=errors,
                                               general=general, pack=pack, proposal=proposal, confirm=True,
                                               seq=loaded.seq)
                    try:
                        services.set_players(s, table_id, setup_obj, rev=form.rev.data)
                    except SetupError as err:
                        _place_setup_error(err, form, errors, general, pack)
                    except services.SetupLocked:
                        flash(_("A move was recorded on another device meanwhile: the setup cannot change any "
                                "more. Nothing of this form was saved."), "error")
                        return redirect(url_for("alterego.turn", table_id=table_id), 303)
                    except services.StaleSetup:
                        general.append(_("The setup was changed on another device since this form was opened. "
                                         "Nothing was saved: check the players below and save again."))
                        form.rev.data = services.get_table(s, table_id).rev
                        status = 409
                    else:
                        flash(_("Players are seated. The first season, «{season}», begins: {player} starts.",
                                season=words.season_name(1), player=setup_obj.first), "ok")
                        return redirect(url_for("alterego.turn", table_id=table_id), 303)
            status = status if status == 409 else 400
        elif loaded.table.players:
            setup_obj = loaded.setup
            proposal = _proposal_reason(setup_obj)
        return render_template("alterego/setup.html", loaded=loaded, form=form, errors=errors, general=general,
                               pack=pack, proposal=proposal, confirm=False, seq=loaded.seq), status


def _proposal_reason(setup):
    """Why the app proposes its first player (the engine's ``first_player_reason``, RULES.md
    2.3, decision 2), in this language."""
    code, params = first_player_reason(setup)
    proposed = params["player"]
    if code == "oldest":
        text = _("The app proposes {player}: the oldest player (born {born}).", player=proposed,
                 born=format_date(params["born"]))
    else:
        text = _("Nobody gave a birth date: the app proposes the first seat, {player}.", player=proposed)
    return {"player": proposed, "text": text,
            "authors": _("Kalle or Tommi, the game's authors, start when one of them plays: then choose them.")}


def _place_setup_error(err, form, errors, general, pack):
    """An engine ``SetupError`` next to the seat it names (``players[1].actives[2]``)."""
    text = words.error_text(err, pack)
    path = err.path or ""
    if path.startswith("players[") and "]" in path:
        index = int(path[len("players["):path.index("]")])
        seats = [i for i, _s in form.seats()]
        if index < len(seats):
            errors.setdefault(seats[index], []).append(text)
            return
    general.append(text)


# ----- what a turn screen shows ------------------------------------------------------------------
def _factions(loaded, standing, nxt):
    """The players in turn order, each with their actives (faction order) and what they hold."""
    pack = loaded.pack
    game = loaded.game
    by_owner, near = {}, set(game.near_burnout())
    for row in standing["actives"]:
        card = pack.actives_by_key[row["key"]]
        acts = []
        for act in row["activities"]:
            c = pack.cards_by_key[act["card"]]
            acts.append(dict(act, name=c.name, gloss=c.gloss, type=c.type, subtype=c.subtype, work=c.work,
                             influence=c.influence, perm=c.permanent_anxiety))
        by_owner.setdefault(row["owner"], []).append(dict(
            row, name=card.name, ability_name=card.ability_name, used_ability=card.used_ability,
            activities=acts, near=row["key"] in near,
            meter=[("perm" if i < row["anxiety_perm"] else "temp") if i < row["anxiety"] else "free"
                   for i in range(max(row["bo"], row["anxiety"]))]))
    out = []
    for p in standing["players"]:
        out.append(dict(p, actives=by_owner.get(p["name"], []), is_current=p["name"] == game.current,
                        is_next=nxt is not None and nxt.get("player") == p["name"]))
    return out


def _reason(offer, pack):
    """An engine ``offer`` (``Game.offer``) as a screen shows it: whether it can be completed
    now, whether the card or active itself is refused (a disabled button) or only none of its
    options fits (a page that says why for each), and the engine's reason in this language."""
    return {"legal": offer["legal"], "refused": offer["refusal"] is not None,
            "reason": words.error_text(offer["reason"], pack) if offer["reason"] is not None else None}


def _card_entries(pack, kinds, kind):
    """The cards of one kind (activities or events), each as the engine offers it."""
    entry = kinds.get(kind)
    if entry is None:
        return []
    return [dict(_reason(offer, pack), card=pack.cards_by_key[key]) for key, offer in entry["cards"].items()]


def _abilities(pack, kinds):
    """The player's actives with an ability to use: one tap when it takes no field (Jaakko,
    Kalle), a page of options when it does (Pare, Niksu); the engine's reason when not now."""
    entry = kinds.get("ability")
    if entry is None:
        return []
    return [dict(_reason(offer, pack), key=key, card=pack.actives_by_key[key], ability=offer["ability"],
                 needs_page=offer["field"] is not None)
            for key, offer in entry["actives"].items()]


def _option_label(pack, field, key):
    """How one candidate of a field is named: an active by its name, a faction by its player."""
    return _("{player}'s faction", player=key) if field == "faction" else words.active_name(pack, key)


def _reactions(game, pack, kinds):
    """The reactions to the trigger, shown only when one of them can be played now."""
    entry = kinds.get("react")
    if entry is None or not entry["legal"]:
        return None
    cards = []
    for key, offer in entry["cards"].items():
        targets = [_option_label(pack, offer["field"], k) for k, r in offer["options"].items() if r is None]
        cards.append(dict(_reason(offer, pack), card=pack.cards_by_key[key], targets=targets))
    return {"to": entry["to"], "trigger": entry["trigger"], "players": entry["players"], "cards": cards,
            "trigger_line": words.move_line(game.moves[entry["to"] - 1], pack, entry["to"])}


def _choice_answers(game, pack, kinds):
    """The first pending choice and the engine's answers to it, each one tap."""
    entry = kinds.get("choose")
    if entry is None:
        return None
    answers = []
    for answer in entry["answers"]:
        if "activity" in answer:
            label = words.activity_label(pack, game, answer["activity"])
        else:
            label = _("{active} → {player}'s faction", active=words.active_name(pack, answer["active"]),
                      player=answer["faction"])
        answers.append(dict(answer, label=label))
    return {"choice": entry["choice"], "answers": answers, "text": words.choice_text(entry["choice"], pack, game)}


def _context(loaded, **extra):
    game = loaded.game
    pack = loaded.pack
    standing = table_standing(game)
    kinds = {m["type"]: m for m in game.offers()}
    nxt = game.next()
    me = game.current
    ctx = dict(loaded=loaded, game=game, pack=pack, standing=standing, kinds=kinds, next=nxt, seq=loaded.seq,
               me=me, factions=_factions(loaded, standing, nxt), season=game.season,
               season_name=words.season_name(game.season), words=words,
               pending=[words.choice_text(c, pack, game) for c in game.pending],
               choice=_choice_answers(game, pack, kinds), reactions=_reactions(game, pack, kinds),
               active_deck=[words.active_name(pack, k) for k in game.active_deck],
               last_lines=[], activities=[], events=[], abilities=[])
    if nxt is not None and nxt["expects"] == "play":
        ctx.update(activities=_card_entries(pack, kinds, "play_activity"),
                   events=_card_entries(pack, kinds, "play_event"), abilities=_abilities(pack, kinds))
    last = loaded.last_result()
    if last is not None:
        ctx["last_lines"] = words.result_lines(last, pack)
    ctx.update(extra)
    return ctx


#: the engine's answers for the moves entered offline, per game object (a cached position's
#: game is only read, never moved: a screen drawn again asks the engine once)
_ANSWERS = weakref.WeakKeyDictionary()


def offline_positions(game):
    """Where the moves the host can enter offline lead (``rules/alterego/answers.py``), with the
    ``then`` keys of the live screen's own draw, end-of-turn and season forms (by their move)."""
    answers = _ANSWERS.get(game)
    if answers is None:
        answers = _ANSWERS[game] = turn_answers(game)
    start = answers["positions"][answers["start"]]
    return dict(answers, live={"draw": start.get("draw"), "end_turn": start.get("end_turn"),
                               "season": start.get("season_card")})


#: what a form of the offline screens asks for each field
_QUESTIONS = {
    "target": N_("Which active?"), "partner": N_("Who is the partner?"),
    "hobby": N_("Which hobby goes? Its owner chooses."), "chore": N_("Which chore is played with it?"),
    "active": N_("Which active was drawn from the active deck?"), "activity": N_("Which activity?"),
    "participants": N_("Who comes to the party?"), "from": N_("From which active does Niksu take {n} anxiety?"),
    "targets": N_("Pare tells a bad joke, for real. Which {n} actives gain {gain} anxiety?"),
    "faction": N_("To which faction?"), "player": N_("Who plays it?"),
}


def _question(form, field):
    if field == "target" and form["type"] == "play_activity":
        return _("Onto which active?")
    if field == "target" and form.get("members") == "participants":
        return _("Who throws the party?")
    return _(_QUESTIONS[field], n=NIKSU_AMOUNT if field == "from" else form.get("need"), gain=PARE_GAIN)


def _offline_label(pack, game, field, value):
    """How an option of an offline form is named: an active, a faction or a player by name, an
    activity by its card's name and its holder's, a chore by its card's name."""
    if field in ("hobby", "activity"):
        holder, act = game.state.find_activity(value)
        return f"{act.card.name} · {words.active_name(pack, holder.key)}" if act is not None else value
    if field == "chore":
        return words.card_name(pack, value)
    if field == "faction":
        return _("{player}'s faction", player=value)
    if field == "player":
        return value
    return words.active_name(pack, value)


def _offline_view(loaded, answers):
    """The engine's answers as the positions fragment draws them: the forms with their options
    named, each position's answers as the data its forms look up (the refusals in this language,
    the trigger a reaction answers as its line)."""
    game, pack = loaded.game, loaded.pack

    def options(fields, candidates):
        return {f: [(v, _offline_label(pack, game, f, v)) for v in candidates[f]] for f in fields}
    forms = []
    for form in answers["forms"]:
        if "card" in form:
            card = pack.cards_by_key[form["card"]]
            view = dict(title=card, label=None, submit=_("Play {card}", card=card.name))
        else:
            active = pack.actives_by_key[form["active"]]
            view = dict(title=None, label=f"{active.name}: {active.ability_name or ''}",
                        submit=_("The joke was told") if form["members"] else _("Use the ability"))
        if form["members"] == "participants":
            view["submit"] = _("Throw the party")
        forms.append(dict(form, **view, options=options(form["fields"], form["candidates"]),
                          questions={f: _question(form, f) for f in form["fields"]}))
    reactions = []
    for form in answers["reactions"]:
        card = pack.cards_by_key[form["card"]]
        fields = ["player"] + ([form["field"]] if form["field"] else [])
        candidates = {"player": list(game.order), form["field"]: form["candidates"]}
        reactions.append(dict(form, title=card, label=None, fields=fields, choose=fields, members=None,
                              submit=_("Play {card}", card=card.name), options=options(fields, candidates),
                              questions={f: _(_QUESTIONS[f]) for f in fields}))
    positions = {}
    for key, pos in answers["positions"].items():
        pos = dict(pos)
        plays, unchecked = pos.get("plays"), pos.get("unchecked")
        if plays is not None or unchecked:
            # the forms entered unchecked (no verdict: the server checks them) go with the answers
            data = dict(plays or {"leads": {}, "why": {}}, **({"unchecked": unchecked} if unchecked else {}))
            data["why"] = {f: words.error_text(err, pack) if err is not None else None
                           for f, err in data["why"].items()}
            pos["plays"] = dict(plays or {}, json=_attr_json(data))
        if pos.get("reactions") is not None:
            r = pos["reactions"]
            pos["reactions"] = {"line": words.move_line(r["trigger"], pack, r["to"]),
                                "json": _attr_json({"leads": r["leads"]}), "fields": _attr_json({"to": str(r["to"])})}
        positions[key] = pos
    return dict(answers, positions=positions, forms=forms, reactions=reactions)


def _attr_json(data):
    """``data`` as compact JSON for a single-quoted HTML attribute (``data-answers='…'``): its
    quotes kept, ``&``, ``<``, ``>`` and ``'`` written as JSON escapes."""
    from markupsafe import Markup
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for char, escape in (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e"), ("'", "\\u0027")):
        text = text.replace(char, escape)
    return Markup(text)


def _turn_screen(loaded, **extra):
    return render_template("alterego/turn.html", **_context(loaded, **extra))


@bp.get("/table/<int:table_id>")
def turn(table_id):
    return table.main_screen(GAME, table_id, _turn_screen)


def _positions(loaded):
    return render_template("alterego/_positions.html", loaded=loaded, seq=loaded.seq, game=loaded.game,
                           pack=loaded.pack, positions=_offline_view(loaded, offline_positions(loaded.game)))


@bp.get("/table/<int:table_id>/positions")
def positions(table_id):
    """The screens the moves entered offline lead to (fetched by the outbox once the turn
    screen is idle: off the tap's path)."""
    return table.positions(GAME, table_id, _positions)


def _refuse(table_id, message, status):
    """The turn screen (or the final one) again, with why the write was refused; a table with no
    players yet: its setup, with the message."""
    def no_game():
        flash(message, "error")
        return redirect(url_for("alterego.setup", table_id=table_id), 303)
    return table.screen_again(
        GAME, table_id, status, no_game=no_game,
        turn=lambda loaded: _turn_screen(loaded, error=message),
        final=lambda loaded: render_template("alterego/final.html", **_final_context(loaded), error=message))


# ----- recording a move ------------------------------------------------------------------------------
def read_form(kind, formdata, pack):
    """The one reading of an Alter Ego move form (``GAME.read_move_form``: the screen's POST and
    a tablet's queued form alike): the fields named as the move JSON names them
    (``forms.move_data``: a Bile's empty guest list is a party nobody attends), read by the
    engine. Raises the engine's ``MalformedError``, or a ``FormError`` for a JSON field that
    cannot be read."""
    if kind not in MOVE_TYPES:
        raise FormError("type", _("The form does not match the move"))
    try:
        return read_move(move_data(kind, formdata, pack))
    except JSONInputError as err:
        raise FormError(getattr(err, "path", None) or "changes", describe_error(err)) from err


@bp.post("/table/<int:table_id>/move/<kind>")
def move(table_id, kind):
    if kind not in MOVE_TYPES:
        abort(404)
    form = AfterForm()
    if not form.validate():
        return _refuse(table_id, _("The move was not recorded: {errors}", errors=table.form_errors(form)), 400)
    with db_session() as s:
        loaded = table.load(s, table_id)
    try:
        move = GAME.read_move_form(kind, request.form, loaded)
    except MalformedError as err:
        why = table.refusal(err, GAME, loaded.pack)
        return _refuse(table_id, _("The move was not recorded: {error}", error=why.message), 400)
    return table.record(GAME, table_id, move, form.after.data, _refuse, pack=loaded.pack)


@bp.post("/table/<int:table_id>/undo")
def undo(table_id):
    return table.undo(GAME, table_id, _refuse)


# ----- pages bound to the position they were drawn for ---------------------------------------------
def moved_on_context(loaded, happened):
    """Alter Ego's words on the page that says a screen is out of date (``GAME.moved_on_context``):
    the move recorded meanwhile as its line, what the game waits for now; its layout's banner."""
    ctx = _context(loaded) if loaded.game is not None and not loaded.game.finished else \
        dict(game=loaded.game, next=None)
    line = words.move_line(happened["move"], loaded.pack, happened["seq"]) if happened and happened.get("move") else None
    nxt, now = ctx.get("next"), None
    if nxt and nxt.get("player"):
        now = {"choose": _("{player} answers a choice", player=nxt["player"]),
               "draw": _("{player} draws", player=nxt["player"])}.get(nxt.get("expects"),
                                                                      _("{player} plays", player=nxt["player"]))
    return dict(ctx, happened_move=line, now_text=now)


def _page(table_id):
    """The loaded table for a page that leads to a move (bound to the position it was drawn
    for), or the response to send instead (``table.opening``)."""
    with db_session() as s:
        return table.opening(GAME, s, table_id)


def _rows(offer, pack):
    """The options of an offer's field: ``[(key, legal, reason or None)]``."""
    return [(key, refusal is None, words.error_text(refusal, pack) if refusal is not None else None)
            for key, refusal in offer["options"].items()]


def _by_faction(game, pack, rows):
    """Active options grouped by the faction that holds the active now."""
    groups = []
    owners = {k: a.owner for k, a in game.state.actives.items()}
    for player in game.order:
        mine = [dict(key=k, name=words.active_name(pack, k), legal=ok, reason=why) for k, ok, why in rows
                if owners.get(k) == player]
        if mine:
            groups.append((player, mine))
    rest = [dict(key=k, name=words.active_name(pack, k), legal=ok, reason=why) for k, ok, why in rows
            if k not in owners]
    if rest:
        groups.append((None, rest))
    return groups


def _activity_groups(game, pack, offer):
    """The activities an offer's field may name, grouped by holder in seat order."""
    st = game.state
    options = offer["options"]
    groups = []
    for key in st.in_seat_order():
        a = st.actives[key]
        rows = [dict(key=x.id, name=f"{x.card.name} ({x.id})", paused=x.paused, legal=options[x.id] is None,
                     reason=words.error_text(options[x.id], pack) if options[x.id] is not None else None)
                for x in a.acts if x.id in options]
        if rows:
            groups.append((words.active_name(pack, key), a.owner, rows))
    return groups


def _card_step(game, pack, offer, needs):
    """What a card's page asks next: the step of the template and its options, from the
    engine's offer (a target links on to a page of its own when another field follows)."""
    field = offer["field"]
    rows = _rows(offer, pack)
    if field is None:
        return {"step": "confirm"}
    if field == "target":
        linked = needs.index("target") < len(needs) - 1
        return {"step": "target_link" if linked else "target", "groups": _by_faction(game, pack, rows)}
    if field in ("partner", "participants"):
        return {"step": field, "groups": _by_faction(game, pack, rows)}
    if field == "active":
        listed = [dict(key=k, name=words.active_name(pack, k), legal=ok, reason=why) for k, ok, why in rows]
        return {"step": "active", "groups": [(None, listed)] if listed else []}
    if field == "activity":
        return {"step": "activity", "activity_groups": _activity_groups(game, pack, offer)}
    name = (lambda k: words.activity_label(pack, game, k)) if field == "hobby" else \
        (lambda k: words.card_name(pack, k))
    listed = [dict(key=k, name=name(k), legal=ok, reason=why) for k, ok, why in rows]
    return {"step": field, "hobbies" if field == "hobby" else "chores": listed}


@bp.get("/table/<int:table_id>/card/<card>")
def card(table_id, card):
    """A card the current player plays: the options of the next field it takes (the engine's
    ``Game.offer`` for the fields given so far), only the legal ones as buttons, the others
    shown with the engine's reason."""
    loaded, response = _page(table_id)
    if response is not None:
        return response
    game, pack = loaded.game, loaded.pack
    c = pack.cards_by_key.get(card)
    if c is None or c.reaction or c.is_season_card:
        abort(404)
    me = game.current
    if game.next()["expects"] != "play":
        return redirect(url_for("alterego.turn", table_id=table_id))
    kind = "play_activity" if c.is_activity else "play_event"
    base = {"type": kind, "player": me, "card": c.key}
    given = {name: request.args[name] for name in ("target", "hobby") if request.args.get(name)}
    offer = game.offer(dict(base, **given))
    needs = card_fields(pack, base)
    ctx = _context(loaded)
    ctx.update(card=c, kind=kind, base=base, given=given, step=None, groups=[], activity_groups=[], hobbies=[],
               chores=[], needs=needs,
               card_refusal=words.error_text(offer["refusal"], pack) if offer["refusal"] is not None else None)
    if offer["refusal"] is None:
        ctx.update(_card_step(game, pack, offer, needs))
    return render_template("alterego/card.html", **ctx)


@bp.get("/table/<int:table_id>/ability/<active>")
def ability(table_id, active):
    """An ability that takes a field: Pare's joke (its actives) or Niksu's comfort (the active
    to take from), as the engine offers them; one tap for the others."""
    loaded, response = _page(table_id)
    if response is not None:
        return response
    game, pack = loaded.game, loaded.pack
    card_ = pack.actives_by_key.get(active)
    if card_ is None or not card_.used_ability:  # an ability that applies by itself is no move
        abort(404)
    if game.next()["expects"] != "play":
        return redirect(url_for("alterego.turn", table_id=table_id))
    base = {"type": "ability", "player": game.current, "active": active}
    offer = game.offer(base)
    ctx = _context(loaded)
    ctx.update(active=card_, base=base, field=offer["field"], need=LIST_NEEDS.get(offer["field"]),
               groups=_by_faction(game, pack, _rows(offer, pack)),
               refusal=words.error_text(offer["refusal"], pack) if offer["refusal"] is not None else None)
    return render_template("alterego/ability.html", **ctx)


@bp.get("/table/<int:table_id>/react/<card>")
def react(table_id, card):
    """A reaction to the trigger (RULES.md 3.4): who plays it and onto what, each one tap."""
    loaded, response = _page(table_id)
    if response is not None:
        return response
    game, pack = loaded.game, loaded.pack
    c = pack.cards_by_key.get(card)
    if c is None or not c.reaction:
        abort(404)
    trigger = game.trigger
    ctx = _context(loaded)
    ctx.update(card=c, trigger=trigger, rows=[], refusal=None)
    if trigger is None:
        ctx["refusal"] = _("Nothing to react to now: the last move is no trigger.")
        return render_template("alterego/react.html", **ctx)
    number = trigger[0]
    ctx["to"] = number
    ctx["trigger_line"] = words.move_line(trigger[1], pack, number)
    entry = ctx["kinds"].get("react")
    players = entry["players"] if entry is not None else []  # none when no hand holds a card
    hands = game.hands
    rows = []
    for player in players:
        offer = game.offer({"type": "react", "player": player, "card": c.key, "to": number})
        field = offer["field"]
        rows.append({"player": player, "hand": hands[player], "field": field,
                     "options": [dict(key=k, name=_option_label(pack, field, k), legal=ok, reason=why)
                                 for k, ok, why in _rows(offer, pack)],
                     "refusal": words.error_text(offer["refusal"], pack) if offer["refusal"] is not None else None})
    ctx["rows"] = rows
    ctx["no_hand"] = [p for p in game.order if p not in players]
    return render_template("alterego/react.html", **ctx)


# ----- corrections ---------------------------------------------------------------------------------
def _composed_change(args, game):
    """One ``adjust`` change from the correction builder's fields (a GET form), or None."""
    kind = args.get("kind")
    if kind not in CHANGE_KINDS:
        return None
    change = {}

    def number(name):
        raw = (args.get(name) or "").strip()
        try:
            return int(raw)
        except ValueError:
            return None
    if kind == "anxiety":
        change = {"active": args.get("active"), "anxiety": number("amount")}
    elif kind == "hand":
        change = {"player": args.get("player"), "hand": number("amount")}
    elif kind == "owner":
        change = {"active": args.get("active"), "owner": args.get("player")}
    elif kind == "away":
        change = {"active": args.get("active"), "away": args.get("value") == "1"}
    elif kind == "add":
        change = {"active": args.get("active"), "add": args.get("card")}
        if args.get("partner"):
            change["partner"] = args.get("partner")
    elif kind == "remove":
        change = {"remove": args.get("activity")}
    elif kind == "paused":
        change = {"activity": args.get("activity"), "paused": args.get("value") == "1"}
    if any(v is None or v == "" for v in change.values()):
        return None
    return change


@bp.get("/table/<int:table_id>/adjust")
def adjust(table_id):
    """The host's correction: build a change with the selects, check it in words, give the
    reason (required) and record it; or paste the changes as JSON."""
    loaded, response = _page(table_id)
    if response is not None:
        return response
    game, pack = loaded.game, loaded.pack
    change = _composed_change(request.args, game)
    changes = [change] if change is not None else []
    st = game.state
    ctx = _context(loaded)
    held = [(x.id, f"{x.card.name} ({x.id}) · {words.active_name(pack, k)}" + (" · " + _("paused") if x.paused
                                                                                  else ""))
            for k in st.in_seat_order() for x in st.actives[k].acts]
    ctx.update(changes=changes, changes_json=json.dumps(changes, ensure_ascii=False) if changes else "",
               change_lines=[words.change_text(c, pack) for c in changes], held=held,
               actives_in_game=[(k, words.active_name(pack, k)) for k in st.in_seat_order()],
               activity_cards=[(c.key, c.name) for c in pack.activity_cards])
    return render_template("alterego/adjust.html", **ctx)


# ----- the end --------------------------------------------------------------------------------------
@bp.get("/table/<int:table_id>/finish")
def finish(table_id):
    """Ending the game early is confirmed on a page that shows the final influence and places."""
    loaded, response = _page(table_id)
    if response is not None:
        return response
    preview = loaded.game.copy()
    preview.apply(Move("finish"))
    ctx = _final_context(loaded, preview)
    ctx.update(pending=[words.choice_text(c, loaded.pack, loaded.game) for c in loaded.game.pending])
    return render_template("alterego/finish.html", **ctx)


def _final_context(loaded, game=None):
    game = game or loaded.game
    pack = loaded.pack
    standing = table_standing(game)
    order = list(game.order)
    ranked = sorted(standing["players"], key=lambda r: (r["place"], order.index(r["name"])))
    by_owner = {}
    for row in standing["actives"]:
        by_owner.setdefault(row["owner"], []).append(dict(row, name=words.active_name(pack, row["key"])))
    winners = [r["name"] for r in ranked if r["place"] == 1]
    return dict(loaded=loaded, game=game, pack=pack, standing=standing, ranked=ranked, by_owner=by_owner,
                winners=winners, seq=loaded.seq, season_name=words.season_name(game.season))


@bp.get("/table/<int:table_id>/final")
def final(table_id):
    return table.final_screen(GAME, table_id, lambda loaded: render_template("alterego/final.html", **_final_context(loaded)))


@bp.get("/table/<int:table_id>/<any('protocol.xlsx', 'protocol.pdf'):kind>")
def protocol(table_id, kind):
    """The table's protocol in this page's language (Finnish unless another was chosen)."""
    from facilitator.web.downloads import table_download
    with db_session() as s:
        return table_download(s, table_id, kind)


# ----- the organizer's decks ---------------------------------------------------------------------------
@bp.get("/packs")
@organizer_required
def packs():
    with db_session() as s:
        services.packs.ensure_sample(s, RULESET)
        rows = services.packs.list_packs(s, RULESET)
        items = [(row, services.packs.pack_of(row)) for row in rows]
    return render_template("alterego/packs.html", packs=items, problems=[])


@bp.post("/packs/upload")
@organizer_required
def pack_upload():
    from facilitator.games.alterego.excel import PackImportError, load_pack_bytes
    from flask_wtf import FlaskForm
    if not FlaskForm().validate():
        abort(400)
    upload = request.files.get("pack")
    if upload is None or not upload.filename:
        flash(_("Choose a deck file (.xlsx or .json) to upload"), "error")
        return redirect(url_for("alterego.packs"), 303)
    body = upload.read()
    try:
        pack = load_pack_bytes(body, upload.filename)
    except PackImportError as err:
        with db_session() as s:
            rows = services.packs.list_packs(s, RULESET)
            items = [(row, services.packs.pack_of(row)) for row in rows]
        return render_template("alterego/packs.html", packs=items, problems=err.lines()[:100],
                               refused=upload.filename), 400
    with db_session() as s:
        row = services.packs.store_pack(s, pack, RULESET)
        moved = services.packs.adopt_version(s, row)
        title, version = row.title, row.version
    flash(_("Deck «{title}» imported (version {v}); tables that have not started play with it ({n}).",
            title=title, v=version, n=moved), "ok")
    return redirect(url_for("alterego.packs"), 303)


@bp.get("/packs/template.xlsx")
@organizer_required
def pack_template():
    from facilitator.games.alterego.excel import XLSX_MIME, template_workbook
    return send_file(BytesIO(template_workbook()), mimetype=XLSX_MIME, as_attachment=True,
                     download_name=f"alterego-deck-template-{get_locale()}.xlsx")


@bp.get("/packs/<key>/export.<any('json', 'xlsx'):fmt>")
@organizer_required
def pack_export(key, fmt):
    from facilitator.games.alterego.excel import XLSX_MIME, pack_to_workbook
    version = request.args.get("version", type=int)
    with db_session() as s:
        row = services.packs.get_row(s, key, version, ruleset=RULESET)
        if row is None:
            abort(404)
        pack = services.packs.pack_of(row)
    name = f"alterego-{row.key}-v{row.version}"
    if fmt == "json":
        body = json.dumps(pack.to_dict(), ensure_ascii=False, indent=2).encode("utf-8")
        return send_file(BytesIO(body), mimetype="application/json", as_attachment=True,
                         download_name=name + ".json")
    return send_file(BytesIO(pack_to_workbook(pack)), mimetype=XLSX_MIME, as_attachment=True,
                     download_name=name + ".xlsx")


__all__ = ["bp"]
