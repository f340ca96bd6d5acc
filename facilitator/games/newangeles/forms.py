"""The New Angeles host's forms: read what a tablet posted into the JSON of a record move
(RULES.md §10, RECORD.md §3) or a setup, and nothing more.

Every move form names its fields exactly as the move's JSON keys (``player``, ``amount``,
``reason``, ``from``, ``to``, ``capital`` …): maps of numbers as ``key-sub`` (``production-energy``),
list fields as repeated ``name[]``, and the objects a table builds step by step (a deal's
``main``, ``counteroffers``, ``support``, ``transfers``, ``extra``, a demand round's
``investments`` and ``next_demand``) as one hidden field holding that key's JSON. The tablet's
offline queue (``static/outbox.js``) keeps the same form as it would be posted, and the server
reads it with these same readers (``screens.read_form``).

Screens that build a nested object without JavaScript carry helper inputs named ``ui_…`` and a
hidden ``ui`` marker; ``fold_deal`` and ``fold_investments`` turn them into the nested JSON, for
every tablet alike (no script puts a move together: ISSUE 18's one reading of a form); a record
holds the move, never a helper.

These readers check shapes only (a whole number is a whole number, a text is not too long);
every rule is the engine's (``read_move`` for the shape of a move, ``Game`` for the rules).
"""

from facilitator.i18n import gettext as _
from facilitator.safejson import JSONInputError, loads as safe_loads

#: no number of the game comes near this; a bigger one is a typing slip, refused at its field
MAX_NUMBER = 1_000_000
MAX_TEXT = 200
MAX_NAME = 40
MAX_REASON = 300
MAX_SEATS = 6


class FormProblem(ValueError):
    """A field that is not of the form's shape: ``field`` is its name, ``message`` the text
    (already in the screen's language)."""

    def __init__(self, field, message):
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")


def whole_number(form, name, *, minimum=None, required=False):
    """The whole number typed into ``name``; None when the field is empty or absent."""
    raw = (form.get(name) or "").strip()
    if not raw:
        if required:
            raise FormProblem(name, _("a number is needed"))
        return None
    text = raw.replace("\u2212", "-")
    try:
        value = int(text)
    except ValueError:
        raise FormProblem(name, _("“{value}” is not a whole number", value=raw[:20])) from None
    if abs(value) > MAX_NUMBER:
        raise FormProblem(name, _("{value} is out of range", value=raw[:20]))
    if minimum is not None and value < minimum:
        raise FormProblem(name, _("must be at least {minimum}", minimum=minimum))
    return value


def text(form, name, *, limit=MAX_TEXT, required=False):
    """A one-line text, trimmed; None when empty."""
    value = (form.get(name) or "").strip()
    if not value:
        if required:
            raise FormProblem(name, _("this field is required"))
        return None
    if len(value) > limit:
        raise FormProblem(name, _("at most {n} characters", n=limit))
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in value):
        raise FormProblem(name, _("one line, without control characters"))
    return value


def json_field(form, name, default=None):
    """The JSON a hidden ``data-json`` field holds; ``default`` when it is empty."""
    raw = form.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        return safe_loads(raw, what=name, max_bytes=64 * 1024)
    except JSONInputError:
        raise FormProblem(name, _("the field does not hold valid JSON")) from None


def number_map(form, prefix, keys, *, minimum=None, keep_zero=False):
    """``{key: n}`` from the ``prefix-key`` fields (empty ones left out; zeros too unless kept)."""
    out = {}
    for key in keys:
        value = whole_number(form, f"{prefix}-{key}", minimum=minimum)
        if value is not None and (value or keep_zero):
            out[key] = value
    return out


def prefixed(form, prefix):
    """``{sub: value}`` of every non-empty ``prefix-sub`` field (maps keyed by a player name)."""
    start = prefix + "-"
    return {key[len(start):]: value.strip() for key, value in form.items()
            if key.startswith(start) and value and value.strip()}


# ----- moves any time before the end ---------------------------------------------------------
def capital_move(form):
    return {"type": "capital", "player": text(form, "player", limit=MAX_NAME, required=True),
            "amount": whole_number(form, "amount", required=True),
            "reason": text(form, "reason", limit=20, required=True)}


def threat_move(form):
    return {"type": "threat", "amount": whole_number(form, "amount", required=True),
            "reason": text(form, "reason", limit=20, required=True)}


def supply_move(form, resources):
    return {"type": "supply", "changes": number_map(form, "changes", resources),
            "reason": text(form, "reason", limit=20, required=True)}


def transfer_move(form):
    move = {"type": "transfer", "from": text(form, "from", limit=MAX_NAME, required=True),
            "to": text(form, "to", limit=MAX_NAME, required=True)}
    capital = whole_number(form, "capital")
    if capital is not None:
        move["capital"] = capital
    assets = [a.strip() for a in form.getlist("assets[]") if a and a.strip()]
    if assets:
        move["assets"] = assets
    return move


def adjust_move(form, corporations):
    move = {"type": "adjust", "reason": text(form, "reason", limit=MAX_REASON, required=True)}
    delta = whole_number(form, "assets_left")
    if delta:
        move["assets_left"] = delta
    first = text(form, "first_player", limit=MAX_NAME)
    if first:
        move["first_player"] = first
    flips = {corp: state for corp, state in prefixed(form, "emergency").items() if corp in corporations}
    if flips:
        move["emergency"] = flips
    removals = json_field(form, "remove_assets")
    if removals:
        move["remove_assets"] = removals
    return move


def end_round_move(form, resources):
    move = {"type": "end_round", "production": number_map(form, "production", resources)}
    event = text(form, "event")
    if event:
        move["event"] = event
    threat = whole_number(form, "event_threat")
    if threat:
        move["event_threat"] = threat
    assets = whole_number(form, "next_assets")
    if assets is not None:
        move["next_assets"] = assets
    return move


def finish_move(form, names):
    rivals = {}
    for name in names:
        value = (form.get(f"rivals-{name}") or "").strip()
        if value:
            rivals[name] = value
    return {"type": "finish", "rivals": rivals}


# ----- the demand round ------------------------------------------------------------------------
def fold_investments(form, names, resources):
    """The demand round's ``investments`` and ``next_demand`` from the helper inputs (one row
    per player, the next card chosen or typed), when the screen posted them (``ui``)."""
    investments = []
    for i, name in enumerate(names):
        card = text(form, f"ui_inv_card_{i}")
        capital = whole_number(form, f"ui_inv_capital_{i}")
        if card is None and capital is None:
            continue
        entry = {"player": name, "card": card or ""}
        entry["capital"] = capital if capital is not None else 0
        investments.append(entry)
    choice = (form.get("ui_nd_code") or "").strip()
    next_demand = None
    if choice == "__other__":
        code = text(form, "ui_nd_other_code")
        if code:
            next_demand = {"code": code, "threat": whole_number(form, "ui_nd_threat", minimum=0) or 0,
                           "targets": number_map(form, "ui_nd_target", resources, minimum=0)}
    elif choice:
        next_demand = choice
    return investments, next_demand


def demand_round_move(form, names, resources):
    if form.get("ui"):
        investments, next_demand = fold_investments(form, names, resources)
    else:
        investments = json_field(form, "investments", [])
        next_demand = json_field(form, "next_demand")
    move = {"type": "demand_round", "investments": investments}
    if next_demand not in (None, ""):
        move["next_demand"] = next_demand
    return move


# ----- the deal ----------------------------------------------------------------------------------
EMPTY_DEAL = {"asset": "", "main": None, "counteroffers": [], "support": [], "extra": {}, "extra_reason": "",
              "transfers": [], "winner": "", "override_reason": ""}


def deal_state(form):
    """The deal as the form holds it: the move keys, nested ones from their JSON fields."""
    state = dict(EMPTY_DEAL)
    state["asset"] = text(form, "asset") or ""
    state["main"] = json_field(form, "main")
    state["counteroffers"] = json_field(form, "counteroffers", []) or []
    state["support"] = json_field(form, "support", []) or []
    state["extra"] = json_field(form, "extra", {}) or {}
    state["transfers"] = json_field(form, "transfers", []) or []
    state["extra_reason"] = text(form, "extra_reason", limit=MAX_REASON) or ""
    state["override_reason"] = text(form, "override_reason", limit=MAX_REASON) or ""
    winner = (form.get("winner") or "").strip()
    state["winner"] = winner if winner in ("main", "counter") else ""
    return state


def _offer(card, emergency):
    if emergency:
        return {"emergency": emergency}
    if card:
        return {"card": card}
    return None


def fold_deal(form, state, active, order, seat_of, corp_of, step=None):
    """The deal after the helper inputs of the deal screen (``ui_…``) and the step tapped:
    the main offer, one counteroffer field per player (clockwise, so the list is in the order
    made), two support steppers per player, extra support, a pending transfer. Returns a new
    state; the rules are the engine's to check."""
    state = dict(state)
    card = text(form, "ui_main_card")
    emergency = corp_of[active] if form.get("ui_main_kind") == "emergency" else None
    state["main"] = _offer(card, emergency)
    counters, support = [], []
    for name in order:
        seat = seat_of[name]
        offer = _offer(text(form, f"ui_counter_{seat}"),
                       corp_of[name] if form.get(f"ui_counter_em_{seat}") else None)
        if offer is not None:
            counters.append({"player": name, **offer})
    for name in order:
        seat = seat_of[name]
        for which in ("main", "counter"):
            field = f"ui_sup_{which}_{seat}"
            cards = whole_number(form, field) or 0
            if step == f"inc:{field}":
                cards += 1
            elif step == f"dec:{field}":
                cards = max(cards - 1, 0)
            if cards:
                support.append({"player": name, "offer": which, "cards": cards})
    state["counteroffers"], state["support"] = counters, support
    extra = {}
    for which in ("main", "counter"):
        field = f"ui_extra_{which}"
        value = whole_number(form, field) or 0
        if step == f"inc:{field}":
            value += 1
        elif step == f"dec:{field}":
            value -= 1
        if value:
            extra[which] = value
    state["extra"] = extra
    committed = json_field(form, "ui_tr_list", None) if "ui_tr_list" in form else state.get("transfers")
    transfers = [t for t in committed or [] if isinstance(t, dict)]
    if step and step.startswith("transfer_remove:"):
        index = step.split(":", 1)[1]
        if index.isdigit() and int(index) < len(transfers):
            transfers.pop(int(index))
    giver, receiver = text(form, "ui_tr_from", limit=MAX_NAME), text(form, "ui_tr_to", limit=MAX_NAME)
    amount = whole_number(form, "ui_tr_capital", minimum=0)
    asset = text(form, "ui_tr_asset")
    if giver and receiver and (amount or asset):
        transfer = {"from": giver, "to": receiver, "capital": amount or 0, "assets": [asset] if asset else []}
        transfers.append(transfer)
        state["pending"] = None
    else:
        state["pending"] = {"from": giver or "", "to": receiver or "", "capital": amount, "asset": asset or ""}
    state["transfers"] = transfers
    return state


def deal_move(state, active):
    """The record's deal object for a deal state (optional keys only when they say something)."""
    move = {"type": "deal", "active": active, "asset": state.get("asset") or ""}
    if state.get("main") is not None:
        move["main"] = state["main"]
    # nested keys go as they came: ``read_move`` names any of the wrong shape
    move["counteroffers"] = state.get("counteroffers") if state.get("counteroffers") is not None else []
    move["support"] = state.get("support") if state.get("support") is not None else []
    if state.get("extra"):
        move["extra"] = state["extra"]
    if state.get("extra_reason"):
        move["extra_reason"] = state["extra_reason"]
    if state.get("transfers"):
        move["transfers"] = state["transfers"]
    if state.get("winner"):
        move["winner"] = state["winner"]
    if state.get("override_reason"):
        move["override_reason"] = state["override_reason"]
    return move


def same_deal(a, b):
    keys = ("main", "counteroffers", "support", "extra", "transfers")
    return all((a.get(k) or None) == (b.get(k) or None) for k in keys)


# ----- the setup -----------------------------------------------------------------------------------
def setup_fields(form, resources, sealed):
    """The setup's JSON (``{"setup": {...}}``) and the problems found next to their fields
    (``{field name: [message]}``). ``sealed`` are the rivals sealed before, kept when the host
    leaves the rival unchanged: they are never shown again."""
    problems = {}

    def note(field, message):
        problems.setdefault(field, []).append(message)

    def attempt(fn, *args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except FormProblem as err:
            note(err.field, err.message)
            return None

    players = []
    for i in range(MAX_SEATS):
        prefix = f"players-{i}-"
        name = attempt(text, form, prefix + "name", limit=MAX_NAME)
        corp = (form.get(prefix + "corp") or "").strip()
        capital = attempt(whole_number, form, prefix + "capital")
        rival = (form.get(prefix + "rival") or "").strip()
        if not name:
            if corp or capital is not None or rival:
                if not problems.get(prefix + "name"):
                    note(prefix + "name", _("a seat with a corporation or capital needs the player's name"))
            continue
        if not corp:
            note(prefix + "corp", _("choose the corporation"))
        if capital is None and not problems.get(prefix + "capital"):
            note(prefix + "capital", _("enter the capital read off the board"))
        player = {"name": name, "corp": corp, "capital": capital if capital is not None else 0, "seat": i}
        if rival and sealed.get(i) and not form.get(prefix + "replace_rival"):
            # a card sealed for this seat is never overwritten by a choice alone (nor is it said
            # whether the choice was the sealed card)
            note(prefix + "rival", _("A rival card is sealed for this seat: tick «Replace the sealed card» to "
                                     "replace it, or leave the choice empty to keep it"))
            player["rival"] = sealed[i]
        elif rival:
            player["rival"] = rival
        elif form.get(prefix + "keep_rival") and sealed.get(i):
            player["rival"] = sealed[i]
        players.append(player)
    first = (form.get("first_player") or "").strip()
    first_name = next((p["name"] for p in players if str(p["seat"]) == first), None)
    if first_name is None:
        note("first_player", _("tap the player who holds the first-player token"))
    threat = attempt(whole_number, form, "threat", required=True)
    assets = attempt(whole_number, form, "assets", required=True)
    choice = (form.get("demand") or "").strip()
    demand = None
    if choice == "__other__":
        code = attempt(text, form, "demand_code", limit=40)
        if not code:
            note("demand_code", _("name the demand card (its code)"))
        threat_value = attempt(whole_number, form, "demand_threat", minimum=0)
        targets = attempt(number_map, form, "demand", resources, minimum=0) or {}
        demand = {"code": code or "", "threat": threat_value or 0, "targets": targets}
    elif choice:
        demand = choice
    else:
        note("demand", _("choose the revealed demand card, or type its targets"))
    supply = attempt(number_map, form, "supply", resources, minimum=0) or {}
    setup = {"players": [{k: v for k, v in p.items() if k != "seat"} for p in players],
             "first_player": first_name or "", "threat": threat if threat is not None else 0,
             "assets": assets if assets is not None else 0, "demand": demand if demand is not None else ""}
    if supply:
        setup["supply"] = supply
    seats = [p["seat"] for p in players]
    return {"setup": setup}, problems, seats


__all__ = ["FormProblem", "whole_number", "text", "json_field", "number_map", "capital_move", "threat_move",
           "supply_move", "transfer_move", "adjust_move", "end_round_move", "finish_move", "demand_round_move",
           "fold_investments", "deal_state", "fold_deal", "deal_move", "same_deal", "setup_fields", "EMPTY_DEAL"]
