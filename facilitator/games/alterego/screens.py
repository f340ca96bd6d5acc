"""The host's screens for Alter Ego (3rd edition), under ``/ae``: setup, the turn screen, the
pages that lead to a move (a card and its targets, an ability, a reaction, a correction, the
end of the game), the final screen, the protocol files, and the organizer's deck import.

Views are thin, as the «16/25» host's: read the form, call ``services``, render. Everything a
screen says about the game comes from the engine: ``Game.legal_moves()`` and
``Game.options(move, field, candidates)`` say which cards, targets and answers are legal now
and why the others are not; ``Game.next()`` and ``Game.pending`` what the game waits for;
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
from io import BytesIO

from flask import Blueprint, abort, flash, redirect, render_template, request, send_file, url_for

from facilitator import services
from facilitator.i18n import describe_error, get_locale
from facilitator.i18n import gettext as _
from facilitator.games.alterego import words
from facilitator.formatting import format_date
from facilitator.rules.alterego import Move, propose_first, read_move, read_setup, table_standing
from facilitator.rules.alterego.moves import CHANGE_KINDS, MOVE_TYPES
from facilitator.rules.alterego.pack import EVENT_FIELDS, USED_ABILITIES
from facilitator.rules.alterego.state import LAST_SEASON
from facilitator.rules.errors import MalformedError, SetupError
from facilitator.safejson import JSONInputError
from facilitator.games import FormError
from facilitator.games.alterego import GAME
from facilitator.web import db_session, games, table
from facilitator.games.alterego.forms import MAX_SEATS, SetupForm, move_data, seat_errors
from facilitator.web.auth import organizer_required
from facilitator.web.forms import AfterForm

RULESET = GAME.key

bp = Blueprint("alterego", __name__, url_prefix="/ae", template_folder="templates")



@bp.context_processor
def _words():
    return {"words": words, "last_season": LAST_SEASON}


table.guard(bp, GAME)


def _load(s, table_id):
    return table.load(s, table_id)


def _needs_check(loaded):
    return table.needs_check(loaded, GAME)


# ----- setup ----------------------------------------------------------------------------------
def _active_choices(pack):
    from wtforms import SelectChoice
    return [SelectChoice("", _("— choose —"))] + [
        SelectChoice(a.key, f"{a.name} · VA {a.va} · BO {a.bo}") for a in pack.actives]


def _seat_count(pack, form=None):
    seats = min(max(pack.max_players, 2), MAX_SEATS)
    return seats


@bp.route("/table/<int:table_id>/setup", methods=["GET", "POST"])
def setup(table_id):
    with db_session() as s:
        loaded = _load(s, table_id)
        if loaded.seq:
            flash(_("The setup cannot change once moves are recorded"), "error")
            return redirect(url_for("alterego.turn", table_id=table_id), 303)
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
            if not 2 <= len(filled) <= pack.max_players:
                general.append(_("A table of this deck has 2 to {high} players; fill in {count}",
                                 high=pack.max_players, count=len(filled)))
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
                        proposal = _proposal_reason(pack, setup_obj, proposed)
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
            proposal = _proposal_reason(pack, setup_obj, propose_first(pack, setup_obj))
        return render_template("alterego/setup.html", loaded=loaded, form=form, errors=errors, general=general,
                               pack=pack, proposal=proposal, confirm=False, seq=loaded.seq), status


def _proposal_reason(pack, setup, proposed):
    """Why the app proposes ``proposed`` to start (RULES.md 2.3, decision 2)."""
    seat = next(p for p in setup.players if p.name == proposed)
    if seat.born:
        text = _("The app proposes {player}: the oldest player (born {born}).", player=proposed,
                 born=format_date(seat.born))
    elif any(p.born for p in setup.players):
        text = _("The app proposes {player}.", player=proposed)
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
    by_owner = {}
    for row in standing["actives"]:
        card = pack.actives_by_key[row["key"]]
        acts = []
        for act in row["activities"]:
            c = pack.cards_by_key[act["card"]]
            acts.append(dict(act, name=c.name, gloss=c.gloss, type=c.type, subtype=c.subtype, work=c.work,
                             influence=c.influence, perm=c.permanent_anxiety))
        by_owner.setdefault(row["owner"], []).append(dict(
            row, name=card.name, ability_name=card.ability_name, used_ability=card.used_ability,
            activities=acts, near=row["anxiety"] >= row["bo"] - 1,
            meter=[("perm" if i < row["anxiety_perm"] else "temp") if i < row["anxiety"] else "free"
                   for i in range(max(row["bo"], row["anxiety"]))]))
    out = []
    for p in standing["players"]:
        out.append(dict(p, actives=by_owner.get(p["name"], []), is_current=p["name"] == game.current,
                        is_next=nxt is not None and nxt.get("player") == p["name"]))
    return out


def _card_entries(game, pack, kinds, me, kind):
    """The cards of one kind (activities or events) with whether the host can play one now,
    and the engine's reason when not."""
    cards = pack.activity_cards if kind == "play_activity" else pack.event_cards
    entry = kinds.get(kind)
    base = {"type": kind, "player": me}
    card_refusals = game.options(base, "card", [c.key for c in cards]) if entry is None else {}
    out = []
    for card in cards:
        info = entry["cards"].get(card.key) if entry is not None else None
        refusal = info["refusal"] if info is not None else card_refusals.get(card.key)
        playable = False
        if info is not None and refusal is None:
            if kind == "play_activity":
                if card.is_dating:
                    playable = any(r is None for ps in info.get("partners", {}).values() for r in ps.values())
                else:
                    playable = any(r is None for r in info["targets"].values())
            else:
                playable = all(any(r is None for r in opts.values()) for name, opts in info["fields"].items()
                               if name not in ("participants", "hobby"))
        out.append({"card": card, "refusal": words.error_text(refusal, pack) if refusal is not None else None,
                    "playable": playable})
    return out


def _abilities(game, pack, kinds, me):
    """The player's actives with an ability to use: one tap for Jaakko and Kalle, a page of
    targets for Pare and Niksu; the engine's reason when it cannot be used now."""
    entry = kinds.get("ability")
    out = []
    for key in game.faction(me):
        card = pack.actives_by_key[key]
        if card.ability not in USED_ABILITIES:
            continue
        info = entry["actives"].get(key) if entry is not None else None
        if info is None:
            refusal = game.options({"type": "ability", "player": me}, "active", [key])[key]
        else:
            refusal = info["refusal"]
        usable = refusal is None
        if usable and card.ability == "pare":
            usable = sum(1 for r in (info or {}).get("targets", {}).values() if r is None) >= 3
        elif usable and card.ability == "niksu":
            usable = any(r is None for r in (info or {}).get("from", {}).values())
        out.append({"key": key, "card": card, "ability": card.ability, "usable": usable,
                    "needs_page": card.ability in ("pare", "niksu"),
                    "refusal": words.error_text(refusal, pack) if refusal is not None else
                    (None if usable else _("no legal target now"))})
    return out


def _reactions(game, pack, kinds):
    entry = kinds.get("react")
    if entry is None:
        return None
    cards = []
    for key, info in entry["cards"].items():
        legal = info["refusal"] is None
        targets = []
        if legal and "target" in info:
            targets = [words.active_name(pack, k) for k, r in info["target"].items() if r is None]
            legal = bool(targets)
        elif legal and "faction" in info:
            targets = [k for k, r in info["faction"].items() if r is None]
            legal = bool(targets)
        cards.append({"card": pack.cards_by_key[key], "legal": legal, "targets": targets,
                      "refusal": words.error_text(info["refusal"], pack) if info["refusal"] is not None else None})
    return {"to": entry["to"], "trigger": entry["trigger"], "players": entry["players"], "cards": cards,
            "trigger_line": words.move_line(game.moves[entry["to"] - 1], pack, entry["to"])}


def _choice_answers(game, pack, nxt):
    """The first pending choice and its answers, each one tap."""
    if nxt is None or nxt.get("expects") != "choose":
        return None
    choice = nxt["choice"]
    answers = []
    if choice["choice"] == "discard_hobby":
        for act_id in choice["options"]:
            answers.append({"active": choice["active"], "activity": act_id,
                            "label": words.activity_label(pack, game, act_id)})
    else:
        for key in choice["partners"]:
            for p in game.order:
                if p != game.state.actives[key].owner:
                    answers.append({"active": key, "faction": p,
                                    "label": _("{active} → {player}'s faction", active=words.active_name(pack, key),
                                               player=p)})
    return {"choice": choice, "answers": answers, "text": words.choice_text(choice, pack, game)}


def _context(loaded, **extra):
    game = loaded.game
    pack = loaded.pack
    standing = table_standing(game)
    legal = game.legal_moves()
    kinds = {m["type"]: m for m in legal}
    nxt = game.next()
    me = game.current
    ctx = dict(loaded=loaded, game=game, pack=pack, standing=standing, kinds=kinds, next=nxt, seq=loaded.seq,
               me=me, factions=_factions(loaded, standing, nxt), season=game.season,
               season_name=words.season_name(game.season), words=words,
               pending=[words.choice_text(c, pack, game) for c in game.pending],
               choice=_choice_answers(game, pack, nxt), reactions=_reactions(game, pack, kinds),
               active_deck=[words.active_name(pack, k) for k in game.active_deck],
               last_lines=[], activities=[], events=[], abilities=[])
    if nxt is not None and nxt["expects"] == "play":
        ctx.update(activities=_card_entries(game, pack, kinds, me, "play_activity"),
                   events=_card_entries(game, pack, kinds, me, "play_event"),
                   abilities=_abilities(game, pack, kinds, me))
    last = loaded.last_result()
    if last is not None:
        ctx["last_lines"] = words.result_lines(last, pack)
    ctx.update(extra)
    return ctx


@bp.get("/table/<int:table_id>")
def turn(table_id):
    with db_session() as s:
        loaded = _load(s, table_id)
        if loaded.broken:
            return _needs_check(loaded)
        if loaded.game is None:
            return redirect(url_for("alterego.setup", table_id=table_id))
        if loaded.game.finished:
            return redirect(url_for("alterego.final", table_id=table_id))
        return render_template("alterego/turn.html", **_context(loaded))


def _refuse(table_id, message, status):
    with db_session() as s:
        loaded = _load(s, table_id)
        if loaded.broken:
            return _needs_check(loaded)
        if loaded.game is None:
            flash(message, "error")
            return redirect(url_for("alterego.setup", table_id=table_id), 303)
        if loaded.game.finished:
            return render_template("alterego/final.html", **_final_context(loaded), error=message), status
        return render_template("alterego/turn.html", **_context(loaded, error=message)), status


def _form_errors(form):
    return "; ".join(f"{_(name)}: {'; '.join(str(e) for e in errs)}" for name, errs in form.errors.items())


def stale_text(err):
    return games.stale_text(err)


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
        return _refuse(table_id, _("The move was not recorded: {errors}", errors=_form_errors(form)), 400)
    with db_session() as s:
        loaded = _load(s, table_id)
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
def _bound(loaded):
    """None when a page drawn for move ``after`` (its URL's ``after``) still matches the table;
    else the page that says what happened instead (409)."""
    after = request.args.get("after", type=int)
    if after is None or after == loaded.seq:
        return None
    with db_session() as s:
        happened = services.log_row(s, loaded.table.id, after + 1) if after < loaded.seq else None
    line = None
    if happened is not None and happened.get("move"):
        line = words.move_line(happened["move"], loaded.pack, happened["seq"])
    ctx = _context(loaded) if loaded.game is not None and not loaded.game.finished else \
        dict(loaded=loaded, game=loaded.game, seq=loaded.seq, next=None)
    return render_template("alterego/moved_on.html", **ctx, happened=happened, happened_line=line,
                           drawn_for=after), 409


def _page(table_id):
    """The loaded table for a page that leads to a move, or the response to send instead."""
    with db_session() as s:
        loaded = _load(s, table_id)
    if loaded.broken:
        return None, _needs_check(loaded)
    if loaded.game is None:
        return None, redirect(url_for("alterego.setup", table_id=table_id))
    stale = _bound(loaded)
    if stale is not None:
        return None, stale
    if loaded.game.finished:
        return None, redirect(url_for("alterego.final", table_id=table_id))
    return loaded, None


def _options(game, pack, base, field, candidates):
    """Candidates of one field: ``[(key, label, reason or None)]`` from ``Game.options``."""
    out = []
    for key, refusal in game.options(base, field, candidates).items():
        out.append((key, refusal is None, words.error_text(refusal, pack) if refusal is not None else None))
    return out


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


def _activity_groups(game, pack, base, field):
    """Activities held in the game as options of ``field``, grouped by holder."""
    st = game.state
    held = [x.id for k in st.in_seat_order() for x in st.actives[k].acts]
    refusals = game.options(base, field, held)
    groups = []
    for key in st.in_seat_order():
        a = st.actives[key]
        rows = [dict(key=x.id, name=f"{x.card.name} ({x.id})", paused=x.paused, legal=refusals[x.id] is None,
                     reason=words.error_text(refusals[x.id], pack) if refusals[x.id] is not None else None)
                for x in a.acts]
        if rows:
            groups.append((words.active_name(pack, key), a.owner, rows))
    return groups


@bp.get("/table/<int:table_id>/card/<card>")
def card(table_id, card):
    """A card the current player plays: its targets (and the next field the card needs), only
    the legal ones as buttons, the others shown with the engine's reason."""
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
    st = game.state
    in_game = st.in_seat_order()
    given = {}
    for name in ("target", "hobby"):
        value = request.args.get(name)
        if value:
            given[name] = value
    card_refusal = game.options({"type": kind, "player": me}, "card", [c.key])[c.key]
    ctx = _context(loaded)
    ctx.update(card=c, kind=kind, base=base, given=given, step=None, groups=[], activity_groups=[],
               card_refusal=words.error_text(card_refusal, pack) if card_refusal is not None else None,
               fields=EVENT_FIELDS.get(c.effect, ()) if kind == "play_event" else ("target",))
    if card_refusal is None:
        if kind == "play_activity":
            if c.is_dating and "target" in given:
                ctx.update(step="partner", groups=_by_faction(game, pack, _options(
                    game, pack, dict(base, target=given["target"]), "partner",
                    [k for k in in_game if k != given["target"]])))
            elif c.is_dating:
                # a target is offered only when some partner is legal with it (P9), else with the
                # partners' first refusal
                rows = []
                for key, ok, why in _options(game, pack, base, "target", in_game):
                    if ok:
                        partners = game.options(dict(base, target=key), "partner", [k for k in in_game if k != key])
                        if all(r is not None for r in partners.values()):
                            first = next(iter(partners.values()), None)
                            ok, why = False, words.error_text(first, pack) if first is not None else \
                                _("no legal target now")
                    rows.append((key, ok, why))
                ctx.update(step="target_link", groups=_by_faction(game, pack, rows))
            else:
                ctx.update(step="target", groups=_by_faction(game, pack, _options(game, pack, base, "target",
                                                                                  in_game)))
        else:
            fields = EVENT_FIELDS.get(c.effect, ())
            if not fields:
                ctx.update(step="confirm")
            elif c.effect == "tarkea_nakki":
                if "target" not in given:
                    ctx.update(step="target_link", groups=_by_faction(game, pack, _options(game, pack, base, "target",
                                                                                          in_game)))
                elif "hobby" not in given:
                    holder = st.actives.get(given["target"])
                    hobbies = [x.id for x in holder.acts if x.card.is_hobby] if holder is not None else []
                    refusals = game.options(dict(base, target=given["target"]), "hobby", hobbies)
                    ctx.update(step="hobby", hobbies=[
                        dict(key=h, name=words.activity_label(pack, game, h), legal=r is None,
                             reason=words.error_text(r, pack) if r is not None else None)
                        for h, r in refusals.items()])
                else:
                    chores = [x.key for x in pack.cards if x.is_chore]
                    refusals = game.options(dict(base, **given), "chore", chores)
                    ctx.update(step="chore", chores=[
                        dict(key=k, name=words.card_name(pack, k), legal=r is None,
                             reason=words.error_text(r, pack) if r is not None else None)
                        for k, r in refusals.items()])
            elif c.effect == "bile":
                if "target" not in given:
                    ctx.update(step="target_link", groups=_by_faction(game, pack, _options(game, pack, base, "target",
                                                                                          in_game)))
                else:
                    ctx.update(step="participants", groups=_by_faction(game, pack, _options(
                        game, pack, dict(base, target=given["target"]), "participants",
                        [k for k in in_game if k != given["target"]])))
            elif "active" in fields:
                deck = game.active_deck
                ctx.update(step="active", groups=[(None, [
                    dict(key=k, name=words.active_name(pack, k), legal=ok, reason=why)
                    for k, ok, why in _options(game, pack, base, "active", deck)])] if deck else [])
            elif "activity" in fields:
                ctx.update(step="activity", activity_groups=_activity_groups(game, pack, base, "activity"))
            else:
                ctx.update(step="target", groups=_by_faction(game, pack, _options(game, pack, base, "target",
                                                                                  in_game)))
    return render_template("alterego/card.html", **ctx)


@bp.get("/table/<int:table_id>/ability/<active>")
def ability(table_id, active):
    """Pare's joke (3 actives) or Niksu's comfort (one active to take from)."""
    loaded, response = _page(table_id)
    if response is not None:
        return response
    game, pack = loaded.game, loaded.pack
    card_ = pack.actives_by_key.get(active)
    if card_ is None or card_.ability not in USED_ABILITIES:
        abort(404)
    if game.next()["expects"] != "play":
        return redirect(url_for("alterego.turn", table_id=table_id))
    me = game.current
    base = {"type": "ability", "player": me, "active": active}
    refusal = game.options({"type": "ability", "player": me}, "active", [active])[active]
    in_game = game.state.in_seat_order()
    ctx = _context(loaded)
    ctx.update(active=card_, base=base, groups=[],
               refusal=words.error_text(refusal, pack) if refusal is not None else None)
    if refusal is None and card_.ability == "pare":
        ctx["groups"] = _by_faction(game, pack, _options(game, pack, base, "targets", in_game))
    elif refusal is None and card_.ability == "niksu":
        ctx["groups"] = _by_faction(game, pack, _options(game, pack, base, "from", in_game))
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
    st = game.state
    players = [p for p in game.order if st.hands[p] >= 1]
    rows = []
    for player in players:
        base = {"type": "react", "player": player, "card": c.key, "to": number}
        refusal = game.options({"type": "react", "player": player, "to": number}, "card", [c.key])[c.key]
        row = {"player": player, "hand": st.hands[player], "options": [], "field": None,
               "refusal": words.error_text(refusal, pack) if refusal is not None else None}
        if refusal is None and c.effect in ("taktinen_teko", "ei_rahaa"):
            row["field"] = "target"
            row["options"] = [dict(key=k, name=words.active_name(pack, k), legal=ok, reason=why)
                              for k, ok, why in _options(game, pack, base, "target", st.in_seat_order())]
        elif refusal is None and c.effect == "mun_kaverit":
            row["field"] = "faction"
            row["options"] = [dict(key=p, name=_("{player}'s faction", player=p), legal=ok, reason=why)
                              for p, ok, why in _options(game, pack, base, "faction", list(game.order))]
        rows.append(row)
    ctx["rows"] = rows
    ctx["no_hand"] = [p for p in game.order if st.hands[p] < 1]
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
    with db_session() as s:
        loaded = _load(s, table_id)
        if loaded.broken:
            return _needs_check(loaded)
        if loaded.game is None:
            return redirect(url_for("alterego.setup", table_id=table_id))
        return render_template("alterego/final.html", **_final_context(loaded))


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
