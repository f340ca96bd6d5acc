"""The New Angeles tracker on the host's tablet (``/na/…``): setup, the table screen (a deal
walked through offer → counteroffers → support → winner, the end of a standard round, a demand
round, capital, threat, supply, transfers and adjustments), the reveal and the final results.

Views are thin, as the «16/25» screens (``host.py``): parse the form, call ``services``, render.
Refusals re-render the screen with the engine's message: 400 malformed, 409 the table moved on
(stale ``after``; a repeat is "already recorded"), 422 the rules refuse. Every move form carries
``after`` and ``csrf_token``; a page that leads to a move is bound to the position it was drawn
for (``?after=``) and, opened again after the table moved on, says what happened instead.

The deal's winner is the engine's (``compute_deal``), shown before anything is recorded; the
screens never re-derive a rule. Sealed information (rivals entered at setup) is never shown on
the tablet until the reveal.
"""

import json
import re

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for

from facilitator import services
from facilitator.i18n import gettext as _
from facilitator.i18n import ngettext
from facilitator.games.newangeles.words import (corp_label, describe_next, event_lines, move_label, reason_label,
                                                resource_label, reveal_rows)
from facilitator.rules.errors import IllegalMoveError, MalformedError, SetupError
from facilitator.rules.newangeles.answers import turn_answers
from facilitator.rules.newangeles import FEDERALIST, SLOTS, compute_deal, read_move, read_setup, table_standing
from facilitator.games import FormError
from facilitator.games.newangeles import GAME
from facilitator.web import db_session, table
from facilitator.web.forms import AfterForm
from facilitator.games.newangeles.forms import (EMPTY_DEAL, FormProblem, adjust_move, capital_move, deal_move, deal_state,
                               demand_round_move, end_round_move, finish_move, fold_deal, same_deal,
                               setup_fields, supply_move, threat_move, transfer_move)

RULESET = GAME.key
bp = Blueprint("newangeles", __name__, url_prefix="/na", template_folder="templates", static_folder="static")


MOVE_KINDS = ("deal", "end_round", "demand_round", "capital", "threat", "supply", "transfer", "adjust", "finish")
#: which screen a table of another game is sent to from each of these
OWN_SCREENS = {"newangeles.turn": "turn", "newangeles.setup": "setup", "newangeles.final": "final",
               "newangeles.deal": "turn", "newangeles.finish": "turn"}


table.guard(bp, GAME, OWN_SCREENS)


# ----- what every table screen shows ----------------------------------------------------------------
def track(game):
    """The round track: every slot with its state (done, current, to come)."""
    out = []
    for slot, (kind, label) in SLOTS.items():
        state = "done" if slot < game.slot else ("current" if slot == game.slot else "future")
        out.append({"slot": slot, "kind": kind, "label": label, "state": state})
    return out


def tracks(game):
    return {"slots": track(game), "threat": game.threat, "threat_max": game.pack.threat_max,
            "label": game.label, "ended_by": game.ended_by, "finished": game.finished}


def player_rows(game, standing):
    sealed = game.setup.sealed_rivals()
    rows = []
    for p in standing["players"]:
        rows.append({**p, "corp_name": corp_label(game.pack, p["corp"]), "first": p["name"] == game.first_player,
                     "sealed": p["name"] in sealed and not game.finished})
    return rows


def demand_rows(game):
    """Supply against the current demand card, per resource, with what is short."""
    met, short, added = game.demand_outcome()
    rows = [{"key": r, "name": resource_label(game.pack, r), "supply": game.supply[r],
             "target": game.demand.target(r), "short": short.get(r, 0)} for r in game.pack.resource_keys]
    return {"card": game.demand.code, "threat": game.demand.threat, "rows": rows, "met": met, "short": short,
            "added": added}


def _context(loaded, **extra):
    game = loaded.game
    standing = table_standing(game)
    legal = {m["type"]: m for m in game.legal_moves()}
    last = loaded.last_result()
    held = [(asset, p["name"]) for p in standing["players"] for asset in p["assets"]]
    ctx = dict(loaded=loaded, game=game, pack=loaded.pack, standing=standing, legal=legal, next=game.next(),
               seq=loaded.seq, tracks=tracks(game), players=player_rows(game, standing), demand=demand_rows(game),
               held=held, names=game.names, corporations=[(p.corp, corp_label(loaded.pack, p.corp), p.name)
                                                          for p in game.players],
               capital_reasons=[(r, reason_label(r)) for r in legal.get("capital", {}).get("reasons", ())],
               threat_reasons=[(r, reason_label(r)) for r in legal.get("threat", {}).get("reasons", ())],
               supply_reasons=[(r, reason_label(r)) for r in legal.get("supply", {}).get("reasons", ())],
               resources=[(r, resource_label(loaded.pack, r)) for r in loaded.pack.resource_keys],
               last_lines=event_lines(last, loaded.pack) if last else [], next_text=describe_next(game.next()),
               posted={}, failed=None, notice=None, error=None, deal=None)
    ctx.update(extra)
    if "deal" in legal and ctx["deal"] is None:
        ctx["deal"] = deal_view(game, legal["deal"], dict(EMPTY_DEAL))
    return ctx


def then_lookup(cases, short=None, fields=("event_threat", "met", "next_assets")):
    """Where an end of round leads (the engine's ``cases``) as its form looks it up
    (``data-then-by``, read by static/outbox.js): ``[node]``, the first one asked first, a node
    being ``{"on": field, "is": {value: key | node index}}``, each field's value as the form
    posts it ("" when left empty). Where a demand round follows and whether its demand is met
    changes where the end leads (``met`` of the cases), "at least" nodes ask it, one for each
    resource the engine says is short at zero production (``short``, the position's): ``{"on":
    "production-<resource>", "at_least": the shortfall, "empty": 0, "is": {"1": at least, "":
    less}}`` (an empty production field produces nothing), the demand met when every one is at
    least its shortfall. Nodes that say the same are one (every threat that takes no city over
    leads to the same next rounds). A value not listed is no answer."""
    nodes = [None]

    def put(entry, level):
        if level == 0:
            nodes[0] = entry
            return 0
        if entry not in nodes:
            nodes.append(entry)
        return nodes.index(entry)

    def node(level, rows):
        if level == len(fields):
            thens = {row["then"] for row in rows}
            return thens.pop() if len(thens) == 1 else None
        field = fields[level]
        groups = {}
        for row in rows:
            value = row[field]
            groups.setdefault(value if field == "met" else ("" if value is None else str(value)), []).append(row)
        if field == "met":
            said = {met: node(level + 1, group) for met, group in groups.items()}
            if len(set(said.values())) == 1:  # the production changes nothing here
                return next(iter(said.values()))
            if not short or level == 0:
                return None
            target = said.get(True)
            for resource, amount in reversed(list(short.items())):
                answers = {k: v for k, v in (("1", target), ("", said.get(False))) if v is not None}
                target = put({"on": f"production-{resource}", "at_least": amount, "empty": 0, "is": answers}, level)
            return target
        answers = {value: node(level + 1, group) for value, group in groups.items()}
        return put({"on": field, "is": {k: v for k, v in answers.items() if v is not None}}, level)

    node(0, cases)
    return nodes


def spend_lookup(rows, order, seat_of):
    """Whose emergency card a deal form spends (the engine's ``spend`` rows of its active player,
    ``rules/newangeles/answers.py``) as the form looks it up (``data-token-by``, static/outbox.js):
    by the main offer's emergency box, then the counteroffer rows from the last one clockwise
    (the form lists them in that order and the last one entered stands: its emergency box, else
    whether its card is filled in; an empty row passes), then the winner chosen. A leaf is the
    player whose card is spent ("" none); where it depends on the count (no winner chosen) and
    the engine's answers differ, there is no answer. ``[node]`` as ``then_lookup``'s, node 0 asked
    first; a node with ``filled`` asks whether its field holds anything ("1") or not ("")."""
    said = {(main, standing, kind, winner): spent or "" for main, standing, kind, winner, spent in rows}
    nodes = [None]

    def branch(on, values, filled=False):
        """A leaf when every value is the same leaf, else the index of the node (``None``: no answer)."""
        kept = {k: v for k, v in values.items() if v is not None}
        if len(kept) == len(values) and all(isinstance(v, str) for v in kept.values()) and len(set(kept.values())) == 1:
            return next(iter(kept.values()))
        entry = {"on": on, "is": kept, **({"filled": True} if filled else {})}
        if entry not in nodes:
            nodes.append(entry)
        return nodes.index(entry)

    def won(main, standing, kind):
        by_main, by_counter = said[(main, standing, kind, "main")], said[(main, standing, kind, "counter")]
        return branch("winner", {"main": by_main, "counter": by_counter,
                                 "": by_main if by_main == by_counter else None})

    def standing_from(main, i):
        if i < 0:
            return said[(main, None, None, "main")]
        name = order[i]
        seat = seat_of[name]
        card = branch(f"ui_counter_{seat}", {"1": won(main, name, "card"), "": standing_from(main, i - 1)},
                      filled=True)
        return branch(f"ui_counter_em_{seat}", {"1": won(main, name, "emergency"), "": card})

    top = {"on": "ui_main_kind", "is": {"emergency": standing_from("emergency", len(order) - 1),
                                        "": standing_from("card", len(order) - 1)}}
    nodes[0] = top
    return nodes


def offline_positions(game):
    """What the game waits for after each move entered offline (``rules/newangeles/answers.py``),
    with where the live screen's own form leads (``live``: its deal's or demand round's key, its
    end of round's lookup; ``live_tokens``: whose emergency card its deal spends) and the
    emergency cards as the page follows them (``tokens``: ``{"start", "states": {key: {"on":
    the players whose card a deal form offers there, "after": {player: key}}}}``)."""
    answers = turn_answers(game)
    start = answers["positions"][answers["start"]]
    if start.get("cases") is not None:
        live = {"end_round": then_lookup(start["cases"], start.get("short"))}
    else:
        live = {start["expects"]: start.get("deal_then") or start.get("then")} if start.get("expects") else {}
    cards = answers["cards"]
    tokens = {"start": cards["start"],
              "states": {k: {"on": v["faceup"], "after": v["spent"]} for k, v in cards["states"].items()}}
    live_tokens = {}
    if start.get("expects") == "deal":
        live_tokens["deal"] = token_lookup(game, cards, start["active"])
    return dict(answers, live={k: v for k, v in live.items() if v}, tokens=tokens, live_tokens=live_tokens)


def token_lookup(game, cards, active):
    """``spend_lookup`` for a deal form of ``active`` on ``game``'s table."""
    return spend_lookup(cards["spend"][active], game.clockwise_from_left(active),
                        {p.name: p.seat for p in game.players})


def _render_table(loaded, status=200, **extra):
    return render_template("newangeles/table.html", **_context(loaded, **extra)), status


def _positions(loaded):
    """The positions the moves entered offline lead to, each with the live screen's own form for
    it: the next active player's deal (empty, as the live screen draws a new deal), the end of
    a round, a demand round, the reveal. A deal form is drawn once per active player (``parts``:
    the positions of the same player differ only in their title and where they lead, which each
    position names), a demand round's once per outcome (its positions differ only in where they
    lead); an end of round leads where its numbers say (``then_by``). Their forms post the helper inputs as a
    tablet without JavaScript does (``ui``): the server folds and checks them when they are sent;
    nothing is counted offline."""
    game = loaded.game
    answers = offline_positions(game)
    every_card = {p.name: p.corp for p in game.players}
    parts, part_of, then_by, token_by = {}, {}, {}, {}
    for key, pos in answers["positions"].items():
        if key == answers["start"]:
            continue
        if pos["expects"] == "deal" and pos.get("legal"):
            # one form per active player, every emergency card in it: the page offers those
            # faceup where the position is reached (the answers' ``tokens``)
            legal = dict(pos["legal"], emergency=every_card)
            same = json.dumps({k: v for k, v in legal.items() if k not in ("deal", "of")}, sort_keys=True)
            if same not in parts:
                name = f"na-deal-{len(parts)}"
                parts[same] = (name, deal_view(game, legal, dict(EMPTY_DEAL)))
                token_by[name] = token_lookup(game, answers["cards"], legal["active"])
            part_of[key] = parts[same][0]
        elif pos["expects"] == "demand_round" and pos.get("legal"):
            # one form per outcome (met or not, a takeover or not), shared by the positions that
            # differ only in where they lead (the next round's asset cards), which each names
            shape = {k: v for k, v in pos.items() if k != "then"}
            same = json.dumps(shape, sort_keys=True)
            if same not in parts:
                parts[same] = (f"na-demand-{len(parts)}", shape)
            part_of[key] = parts[same][0]
        elif pos.get("cases"):
            then_by[key] = then_lookup(pos["cases"], pos.get("short"))
    html = render_template("newangeles/_positions.html",
                           **_context(loaded, positions=answers, parts=dict(parts.values()), part_of=part_of,
                                      then_by=then_by, token_by=token_by, choices=_rival_choices(loaded)))
    return _BLANK_LINES.sub("\n", html)  # a run of blank space holding a line break: one (no preformatted text)


_BLANK_LINES = re.compile(r"[ \t]*\n\s*")


@bp.get("/table/<int:table_id>/positions")
def positions(table_id):
    """What the game waits for after the deals entered offline (fetched by the outbox once the
    screen is idle: off the tap's path)."""
    return table.positions(GAME, table_id, _positions)


# ----- the deal -------------------------------------------------------------------------------------
def _preview(game, state, active):
    """The engine's live view of the deal (``compute_deal``), from the furthest stage it
    accepts, and its first refusal (translated) if any."""
    if not state.get("asset"):
        return None, None
    data = deal_move(state, active)
    stages = ("winner", "support", "counteroffers", "offer", "asset") if data.get("main") is not None else ("asset",)
    first_error = None
    for stage in stages:
        try:
            return compute_deal(game, data, stage), first_error
        except IllegalMoveError as err:
            first_error = first_error or GAME.error_text(err, game.pack)
        except MalformedError as err:
            first_error = first_error or GAME.error_text(err)  # the field by its label
    return None, first_error


def shaped(state):
    """A deal state whose nested keys have the shapes the screen draws (a hand-made post may
    hold anything: the engine names what is wrong, the screen still draws)."""
    out = dict(state)
    for key, kind in (("main", dict), ("counteroffers", list), ("support", list), ("extra", dict),
                      ("transfers", list)):
        if out.get(key) is not None and not isinstance(out[key], kind):
            out[key] = None if kind is dict else []
    for key in ("counteroffers", "support", "transfers"):
        out[key] = [x for x in out.get(key) or [] if isinstance(x, dict)]
    return out


def deal_view(game, legal, state, error=None):
    """What the deal screen shows: the offers in the order the table makes them, the support
    steppers, and the engine's preview (who wins, by how much)."""
    active = legal["active"]
    order = legal["order"]
    faceup = legal["emergency"]
    state = shaped(state)
    seat_of = {p.name: p.seat for p in game.players}
    corp_of = {p.name: p.corp for p in game.players}
    preview, preview_error = _preview(game, state, active)
    counters = {c.get("player"): c for c in state.get("counteroffers") or [] if isinstance(c, dict)}
    standing = preview.counter["player"] if preview is not None and preview.counter else None
    covered = {c["player"] for c in preview.covered} if preview is not None else set()
    may_counter = set(preview.may_counter) if preview is not None and preview.stage != "asset" else set(order)
    counter_rows = []
    for name in order:
        c = counters.get(name) or {}
        if name == standing:
            status = "standing"
        elif name in covered:
            status = "covered"
        elif preview is not None and preview.stage != "asset" and name not in may_counter:
            status = "passed"
        else:
            status = "open"
        counter_rows.append({"name": name, "seat": seat_of[name], "corp": corp_of[name],
                             "corp_name": corp_label(game.pack, corp_of[name]),
                             "faceup": name in faceup, "card": c.get("card") or "",
                             "emergency": bool(c.get("emergency")), "status": status})
    supports = {}
    for s in state.get("support") or []:
        if isinstance(s, dict) and s.get("offer") in ("main", "counter"):
            supports.setdefault(s.get("player"), {})[s["offer"]] = s.get("cards")
    supporters = set(preview.supporters) if preview is not None else set(order)
    support_rows = [{"name": name, "seat": seat_of[name], "main": supports.get(name, {}).get("main"),
                     "counter": supports.get(name, {}).get("counter"), "holder": name == standing,
                     "may": name in supporters} for name in order]
    main = state.get("main") or {}
    extra = state.get("extra") or {}
    transfers = [t for t in state.get("transfers") or [] if isinstance(t, dict)]

    def dump(value):  # an empty optional key is an empty field, read as absent
        return json.dumps(value, ensure_ascii=False) if value else ""
    json_fields = {"main": dump(state.get("main")),
                   "counteroffers": json.dumps(state.get("counteroffers") or [], ensure_ascii=False),
                   "support": json.dumps(state.get("support") or [], ensure_ascii=False),
                   "extra": dump(extra), "transfers": dump(transfers),
                   "transfer_list": json.dumps(transfers, ensure_ascii=False)}
    verdict = None
    if preview is not None and preview.stage in ("support", "winner"):
        verdict = {"main": preview.support.get("main"), "counter": preview.support.get("counter"),
                   "computed": preview.computed, "won_by": preview.won_by, "winner": preview.winner,
                   "tie": preview.tie, "counter_player": standing,
                   "computed_player": active if preview.computed == "main" else standing,
                   "overridden": bool(state.get("winner")) and state.get("winner") != preview.computed}
    return {"active": active, "order": order, "n": legal["deal"], "of": legal["of"],
            "support_tie": legal["support_tie"], "state": state, "json": json_fields,
            "main_card": main.get("card") or "", "main_emergency": bool(main.get("emergency")),
            "active_faceup": active in faceup, "active_corp": corp_label(game.pack, corp_of[active]),
            "active_corp_key": corp_of[active],
            "counter_rows": counter_rows, "support_rows": support_rows, "standing": standing,
            "extra_main": extra.get("main"), "extra_counter": extra.get("counter"),
            "transfers": transfers, "pending": state.get("pending") or {},
            "preview": preview, "verdict": verdict, "error": error or preview_error}


def _deal_from_form(loaded, form, step=None):
    """The deal a deal form holds (its JSON fields), folded with the screen's helper inputs
    when it posted them. Returns ``(posted state, folded state)``."""
    game = loaded.game
    legal = {m["type"]: m for m in game.legal_moves()}["deal"]
    state = deal_state(form)
    if not form.get("ui"):
        return state, state
    seat_of = {p.name: p.seat for p in game.players}
    corp_of = {p.name: p.corp for p in game.players}
    return state, fold_deal(form, state, legal["active"], legal["order"], seat_of, corp_of, step)


def moved_on_context(loaded, happened):
    """New Angeles' words on the page that says a screen is out of date (``GAME.moved_on_context``):
    the move recorded meanwhile by its type and player, what the game waits for now; the tracks."""
    game = loaded.game
    return dict(game=game, tracks=tracks(game) if game else None, happened_move=_happened_text(happened),
                now_text=describe_next(game.next()) if game else "", back_label=_("Go to the current step"))


def _happened_text(row):
    if not row:
        return ""
    move = row.get("move") or {}
    who = move.get("player") or move.get("active") or move.get("from")
    kind = move_type_label(move.get("type", row.get("kind", "")))
    return f"{kind} · {who}" if who else kind


move_type_label = move_label


@bp.route("/table/<int:table_id>/deal", methods=["GET", "POST"])
def deal(table_id):
    """The deal screen drawn again with the deal entered so far and the engine's preview (the
    "compute" of a tablet without JavaScript; the deal script asks the same)."""
    with db_session() as s:
        loaded, response = table.opening(GAME, s, table_id, finished=False)  # a finished game has no deal
        if response is not None:
            return response
        legal = {m["type"]: m for m in loaded.game.legal_moves()}
        if "deal" not in legal:
            return redirect(url_for("newangeles.turn", table_id=table_id))
        if request.method == "GET":
            return _render_table(loaded)
        try:
            _posted, state = _deal_from_form(loaded, request.form, request.form.get("step"))
        except FormProblem as err:
            view = deal_view(loaded.game, legal["deal"], deal_state_safe(request.form), error=err.message)
            return _render_table(loaded, 400, deal=view)
        return _render_table(loaded, deal=deal_view(loaded.game, legal["deal"], state))


def deal_state_safe(form):
    try:
        return deal_state(form)
    except FormProblem:
        return dict(EMPTY_DEAL)


# ----- the table screen -----------------------------------------------------------------------------
@bp.get("/table/<int:table_id>")
def turn(table_id):
    return table.main_screen(GAME, table_id, _render_table)


def _refuse(table_id, message, status, **extra):
    """The screen a refused write returns to, with why (``table.screen_again``): the reveal
    again for a refused reveal, else the table screen with the deal or form as entered (a
    refusal by the rules or of a field: the host corrects it; a stale one: the screen now)."""
    def turn(loaded):
        if extra.get("kind") == "finish" and loaded.game.ended:
            ctx = dict(_finish_context(loaded), error=message, posted=extra.get("posted") or {})
            return render_template("newangeles/finish.html", **ctx)
        legal = {m["type"]: m for m in loaded.game.legal_moves()}
        shown = dict(extra)
        state = shown.pop("deal_state", None)
        if state is not None and "deal" in legal and status != 409:
            shown["deal"] = deal_view(loaded.game, legal["deal"], state)
        if status == 409:
            shown.pop("posted", None)
        return _render_table(loaded, status, error=message, **shown)[0]
    return table.screen_again(
        GAME, table_id, status, turn=turn,
        final=lambda loaded: render_template("newangeles/final.html", **_final_context(loaded), error=message))


def _build(kind, form, loaded):
    """The move's JSON from its form (``FormProblem`` for a field of the wrong shape)."""
    game = loaded.game
    pack = loaded.pack
    if kind == "capital":
        return capital_move(form)
    if kind == "threat":
        return threat_move(form)
    if kind == "supply":
        return supply_move(form, pack.resource_keys)
    if kind == "transfer":
        return transfer_move(form)
    if kind == "adjust":
        return adjust_move(form, {p.corp for p in game.players})
    if kind == "end_round":
        return end_round_move(form, pack.resource_keys)
    if kind == "demand_round":
        return demand_round_move(form, game.names, pack.resource_keys)
    if kind == "finish":
        return finish_move(form, game.names)
    raise FormProblem("type", _("The form does not match the move"))


def _posted_deal(loaded, form):
    """The deal a deal form holds: its JSON fields, folded with the screen's helper inputs when
    it posted them for the table's position (a tablet without JavaScript); ``FormProblem`` for
    a field of the wrong shape."""
    after = (form.get("after") or "").strip()
    legal = {m["type"] for m in loaded.game.legal_moves()}
    if "deal" in legal and after == str(loaded.seq):
        return _deal_from_form(loaded, form)[1]
    return deal_state(form)


def read_form(kind, formdata, loaded):
    """The one reading of a New Angeles move form (``GAME.read_move_form``: the screen's POST and
    a tablet's queued form alike): the form's readers check shapes and bounds (a number within
    ``forms.MAX_NUMBER``, a reason's length), the engine reads the move. Raises the engine's
    ``MalformedError``, or a ``FormError`` naming the field as the host reads it."""
    if loaded.game is None:
        raise MalformedError("players", "the table has no players yet: finish the setup first")
    try:
        if kind == "deal":
            data = deal_move(_posted_deal(loaded, formdata), (formdata.get("active") or "").strip())
        else:
            data = _build(kind, formdata, loaded)
    except FormProblem as err:
        raise FormError(err.field, f"{field_label(err.field)}: {err.message}") from err
    return read_move(data)


@bp.post("/table/<int:table_id>/move/<kind>")
def move(table_id, kind):
    if kind not in MOVE_KINDS:
        abort(404)
    after_form = AfterForm()
    if not after_form.validate():
        return _refuse(table_id, _("The move was not recorded: the form is missing its position (after)"), 400)
    after = after_form.after.data
    posted = {k: v for k, v in request.form.items() if k != "csrf_token"}
    state = None
    with db_session() as s:
        loaded, response = table.opening(GAME, s, table_id, bind=False, finished=False)  # record() checks both
    if response is not None:
        return response
    if kind == "deal":
        # the deal as the screen shows it again if it is refused; one whose helper fields say more
        # than its last count is counted first, not recorded (the host sees the winner first)
        legal = {m["type"]: m for m in loaded.game.legal_moves()}
        try:
            state = deal_state(request.form)
            if "deal" in legal and after == loaded.seq:
                posted_state, state = _deal_from_form(loaded, request.form)
                if not same_deal(posted_state, state):
                    view = deal_view(loaded.game, legal["deal"], state)
                    return _render_table(loaded, deal=view, notice=_(
                        "The deal was counted again with what was entered: check the winner, then record "
                        "the deal."))
        except FormProblem:
            pass  # the reading below names the field
    try:
        move_obj = GAME.read_move_form(kind, request.form, loaded)
    except MalformedError as err:
        why = table.refusal(err, GAME, loaded.pack)
        return _refuse(table_id, _("The move was not recorded: {error}", error=why.message), 400,
                       deal_state=state, posted=posted, failed=kind, kind=kind)
    return table.record(GAME, table_id, move_obj, after, _refuse, pack=loaded.pack, deal_state=state, posted=posted,
                        failed=kind, kind=kind)


def field_label(name):
    """A form field's name as the host reads it."""
    base = name.split("-", 1)[0].split("[", 1)[0]
    labels = {"player": _("Player"), "amount": _("Amount"), "reason": _("Reason"), "from": _("From"),
              "to": _("To"), "capital": _("Capital"), "changes": _("Supply change"), "production": _("Production"),
              "event": _("Event card"), "event_threat": _("Threat from the event"), "next_assets": _("Asset cards"),
              "assets_left": _("Asset cards left"), "first_player": _("First player"), "asset": _("Asset card"),
              "extra_reason": _("Reason for the extra support"), "override_reason": _("Reason for the override"),
              "main": _("Main offer"), "counteroffers": _("Counteroffers"), "support": _("Support"),
              "extra": _("Extra support"), "transfers": _("Transfers"), "investments": _("Investments"),
              "next_demand": _("Next demand card")}
    if base.startswith("ui_sup"):
        return _("Support")
    if base.startswith("ui_inv"):
        return _("Investments")
    if base.startswith("ui_tr"):
        return _("Transfers")
    if base.startswith("ui_extra"):
        return _("Extra support")
    if base.startswith("ui_nd"):
        return _("Next demand card")
    if base.startswith("ui_counter"):
        return _("Counteroffers")
    if base.startswith("ui_main"):
        return _("Main offer")
    return labels.get(base, base)


@bp.post("/table/<int:table_id>/undo")
def undo(table_id):
    return table.undo(GAME, table_id, _refuse)


# ----- the setup ------------------------------------------------------------------------------------
def _setup_values(setup):
    """The setup form's values for a table set up before (never its sealed rivals)."""
    values = {}
    if setup is None:
        return values
    for i, p in enumerate(setup.players):
        values[f"players-{i}-name"] = p.name
        values[f"players-{i}-corp"] = p.corp
        values[f"players-{i}-capital"] = str(p.capital)
        if p.name == setup.first_player:
            values["first_player"] = str(i)
    values["threat"] = str(setup.threat)
    values["assets"] = str(setup.assets)
    if isinstance(setup.demand, str):
        values["demand"] = setup.demand
    else:
        values["demand"] = "__other__"
        values["demand_code"] = setup.demand.code
        values["demand_threat"] = str(setup.demand.threat)
        for res, n in setup.demand.targets.items():
            values[f"demand-{res}"] = str(n)
    for res, n in (setup.supply or {}).items():
        values[f"supply-{res}"] = str(n)
    return values


SETUP_FIELD = {"name_twice": "name", "unknown_corporation": "corp", "corporation_twice": "corp",
               "capital_negative": "capital", "rival_not_in_play": "rival", "rival_repeated": "rival"}


def _setup_error_field(err, data, seats):
    """The field a ``SetupError`` or a malformed setup is shown next to."""
    names = [p["name"] for p in data["setup"]["players"]]
    code = getattr(err, "code", None)
    params = getattr(err, "params", {})
    if isinstance(err, MalformedError):
        path = err.path or ""
        if ".players[" in path:
            index = int(path.split(".players[", 1)[1].split("]", 1)[0])
            field = path.rsplit(".", 1)[1] if "]." in path else "name"
            if index < len(seats):
                return f"players-{seats[index]}-{field}"
        for key in ("first_player", "threat", "assets", "demand", "supply"):
            if f".{key}" in path:
                return key
        return "players"
    if code in SETUP_FIELD:
        who = params.get("player") or params.get("name")
        if code == "name_twice":
            positions = [i for i, n in enumerate(names) if n == who]
            index = positions[-1] if positions else None
        else:
            index = names.index(who) if who in names else None
        if index is not None:
            return f"players-{seats[index]}-{SETUP_FIELD[code]}"
    return {"players_count": "players", "first_player_unknown": "first_player", "threat_range": "threat",
            "assets_below_1": "assets", "unknown_demand": "demand", "supply_negative": "supply",
            "unknown_resource": "supply" if "supply" in err.template else "demand"}.get(code, "players")


def _sealed_conflict(err, data, seats, kept):
    """A setup refusal about rival cards that involves a card sealed before and kept (D22): the
    seats whose card was typed now among those involved (empty: only sealed ones), or None when
    no sealed card is involved (the engine's own words may then be shown)."""
    code = getattr(err, "code", None)
    if code not in ("rival_repeated", "rival_not_in_play"):
        return None
    names = [p["name"] for p in data["setup"]["players"]]
    params = getattr(err, "params", {})
    involved = [seats[names.index(n)] for n in (params.get("other"), params.get("player")) if n in names]
    if not any(seat in kept for seat in involved):
        return None
    return [seat for seat in involved if seat not in kept]


def _setup_context(loaded, values, problems, sealed, dropped=()):
    pack = loaded.pack
    bad_seats = {int(k.split("-")[1]) for k in problems if k.startswith("players-")}
    corps = [(c.key, c.name) for c in pack.corporations]
    rivals = corps + [(FEDERALIST, _("Federalist"))]
    return dict(loaded=loaded, pack=pack, seq=loaded.seq, game=None, tracks=None, values=values, problems=problems,
                sealed=sealed, corporations=corps, rivals=rivals,
                resources=[(r, resource_label(pack, r)) for r in pack.resource_keys],
                demand_cards=pack.demand_cards, seats=range(pack.players_max), players_min=pack.players_min,
                players_max=pack.players_max, threat_max=pack.threat_max, bad_seats=bad_seats,
                dropped_rivals=set(dropped))


@bp.route("/table/<int:table_id>/setup", methods=["GET", "POST"])
def setup(table_id):
    with db_session() as s:
        loaded, response = table.setup_opening(GAME, s, table_id)
        if response is not None:
            return response
        current = loaded.setup if loaded.table.players else None
        sealed = {i: p.rival for i, p in enumerate(current.players) if p.rival} if current else {}
        if request.method == "GET":
            values = _setup_values(current)
            values["rev"] = str(loaded.rev)
            return render_template("newangeles/setup.html", **_setup_context(loaded, values, {}, sealed))
        values = {k: v for k, v in request.form.items() if k != "csrf_token" and not k.endswith("-rival")}
        values.setdefault("rev", str(loaded.rev))
        data, problems, seats = setup_fields(request.form, loaded.pack.resource_keys, sealed)
        kept = {seat for seat in seats if not request.form.get(f"players-{seat}-rival")
                and request.form.get(f"players-{seat}-keep_rival") and sealed.get(seat)}
        status = 400
        if not problems:
            rev = request.form.get("rev", type=int)
            try:
                setup_obj = read_setup(data)
                services.set_players(s, table_id, setup_obj, rev=rev)
            except (SetupError, MalformedError) as err:
                field = _setup_error_field(err, data, seats)
                involved = _sealed_conflict(err, data, seats, kept)
                if involved is None:
                    message = GAME.error_text(err, loaded.pack)
                elif involved:  # a card typed now meets a sealed one: said at the typed seat, never whose
                    field = f"players-{involved[-1]}-rival"
                    message = _("This rival card conflicts with a card sealed for another seat (sealed cards "
                                "are not shown)")
                else:  # a sealed card no longer fits the setup: not said which, nor whose
                    field = "players"
                    message = _("The setup conflicts with a rival card sealed before. Nothing was saved. Sealed "
                                "cards are not shown: change the setup back, or enter every rival card again.")
                problems = {field: [message]}
            except services.SetupLocked:
                flash(_("A move was recorded on another device meanwhile: the setup cannot change any more. "
                        "Nothing of this form was saved."), "error")
                return redirect(url_for("newangeles.turn", table_id=table_id), 303)
            except services.StaleSetup:
                problems = {"players": [_("The setup was changed on another device since this form was opened. "
                                          "Nothing was saved: check the players below and save again.")]}
                values["rev"] = str(services.get_table(s, table_id).rev)
                status = 409
            else:
                flash(_("The corporations are seated. {player} holds the first-player token.",
                        player=data["setup"]["first_player"]), "ok")
                return redirect(url_for("newangeles.turn", table_id=table_id), 303)
        dropped = {i for i in range(loaded.pack.players_max) if request.form.get(f"players-{i}-rival")}
        return render_template("newangeles/setup.html", **_setup_context(loaded, values, problems, sealed,
                                                                         dropped)), status


# ----- the reveal and the results ----------------------------------------------------------------------
def _finish_context(loaded):
    game = loaded.game
    sealed = game.setup.sealed_rivals()
    legal = {m["type"]: m for m in game.legal_moves()}
    choices = _rival_choices(loaded)
    standing = table_standing(game)
    return dict(loaded=loaded, game=game, seq=loaded.seq, tracks=tracks(game), standing=standing,
                players=player_rows(game, standing), required=legal.get("finish", {}).get("required", []),
                sealed=[n for n in game.names if n in sealed], choices=choices, posted={},
                ended_text=ended_text(game))


def _rival_choices(loaded):
    """The rival cards a reveal's select offers: every corporation in play and the Federalist
    (the same for every player: nothing of a sealed card shows in it)."""
    return [(p.corp, corp_label(loaded.pack, p.corp)) for p in loaded.game.players] + [(FEDERALIST, _("Federalist"))]


def ended_text(game):
    if game.ended_by == "threat":
        return _("Threat reached {max}: the U.S. government takes over New Angeles.", max=game.pack.threat_max)
    if game.ended_by == "rounds":
        return _("The last demand round is over with threat {threat} below {max}: the city held.",
                 threat=game.threat, max=game.pack.threat_max)
    return ""


@bp.get("/table/<int:table_id>/finish")
def finish(table_id):
    """The reveal: every rival card not sealed at setup, then ``finish``."""
    with db_session() as s:
        loaded, response = table.opening(GAME, s, table_id)
        if response is not None:
            return response
        if not loaded.game.ended:
            return redirect(url_for("newangeles.turn", table_id=table_id))
        return render_template("newangeles/finish.html", **_finish_context(loaded))


def _final_context(loaded):
    game = loaded.game
    standing = table_standing(game)
    return dict(loaded=loaded, game=game, seq=loaded.seq, tracks=tracks(game), standing=standing,
                players=player_rows(game, standing), reveal=reveal_rows(game) if game.finished else [],
                ended_text=ended_text(game), winners=standing["winners"],
                winners_title=ngettext("Winner: {names}", "Winners: {names}", len(standing["winners"]),
                                       names=", ".join(standing["winners"])) if standing["winners"] else
                _("Nobody won: every corporation lost."),
                ranked=sorted(standing["players"], key=lambda p: -p["capital"]))


@bp.get("/table/<int:table_id>/final")
def final(table_id):
    return table.final_screen(GAME, table_id, lambda loaded: render_template("newangeles/final.html", **_final_context(loaded)))


__all__ = ["bp", "RULESET", "deal_view", "track"]
