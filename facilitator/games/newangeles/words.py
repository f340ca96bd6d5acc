"""The New Angeles tracker's words and protocol: what a move did in a sentence, and one table's
protocol as a workbook (openpyxl) and a PDF (WeasyPrint, ``templates/print/newangeles_protocol.html``).

``table_protocol_xlsx(game, undone=None, event=None, event_date=None)`` and
``table_protocol_pdf(...)`` return bytes, as the web layer's ``downloads.table_download`` calls
them. ``game`` is a replayed ``facilitator.rules.newangeles.Game`` (finished: a final protocol;
not yet: provisional, marked so). The protocol holds the setup, every deal (offers, covered
counteroffers, support, winner, transfers), capital and threat slot by slot as charts (an
openpyxl line chart in the workbook, an SVG chart in the PDF with at most ten gridlines whatever
the numbers), the demand rounds, the move log, and after the reveal every rival and why each
player won or lost. Before the reveal no rival appears anywhere in it (D22), not even one
sealed at setup.

Every text goes through ``facilitator.i18n`` (English message ids; Swedish and Russian in
``translations/<locale>/newangeles.po``), in the current locale. The engine decides; this module
only words what the engine's ``MoveResult`` and standings say.
"""

from dataclasses import dataclass, field
from functools import lru_cache
from datetime import datetime
from io import BytesIO

from facilitator import formatting as words
from facilitator.i18n import gettext as _
from facilitator.i18n import ngettext
from facilitator.rules.newangeles.pack import FEDERALIST
from facilitator.rules.newangeles.rounds import SLOTS
from facilitator.rules.newangeles.standings import table_standing

# ----- words -------------------------------------------------------------------------------------------


def corp_label(pack, key):
    """A corporation as the pack names it (the game's card language)."""
    if key == FEDERALIST:
        return _("Federalist")
    return pack.corporation_names.get(key, key) if pack is not None else key


def rival_label(pack, key):
    return corp_label(pack, key)


def N_(message):
    return message


#: the shipped pack's resources by their names in the page's language; a pack of the
#: organizer's own names its resources as it likes, and is shown as it names them
RESOURCE_NAMES = {"energy": N_("Energy"), "entertainment": N_("Entertainment"), "tech": N_("Tech"),
                  "consumables": N_("Consumables"), "materials": N_("Materials")}


@lru_cache(maxsize=1)
def _shipped_resources():
    from facilitator.rules.newangeles.pack import default_pack_data
    return {r["key"]: r["name"] for r in default_pack_data()["resources"]}


def resource_label(pack, key):
    """A resource by its name: the shipped pack's in the current language, another pack's as it
    names it."""
    for r in pack.resources:
        if r.key == key:
            if key in RESOURCE_NAMES and r.name == _shipped_resources().get(key):
                return _(RESOURCE_NAMES[key])
            return r.name
    return key


def reason_label(reason):
    """A capital, threat or supply reason (RULES.md §10), and the engine's own ``demand``."""
    labels = {"contract": _("contract"), "action": _("action card"), "asset": _("asset card"),
              "event": _("event"), "illness": _("illness"), "other": _("other"), "demand": _("unmet demand")}
    return labels.get(reason, reason)


def _ended_by_label(key):
    return {"threat": _("the takeover of the city"), "rounds": _("the last demand round")}.get(key, key)


def _expects_label(key):
    return {"deal": _("a deal"), "end_round": _("the end of the round"), "demand_round": _("the demand round"),
            "finish": _("the reveal of the rivals")}.get(key, key)


def _card_kind_label(key):
    return {"asset": _("asset card"), "event": _("event card"), "investment": _("investment card")}.get(key, key)


def error_params(err, pack=None):
    """An engine refusal's parameters as the host reads them (issue 20): a corporation or a rival
    card by the pack's name for it («Anna spelar NBN», not «nbn»), a resource by its name, how the
    game ended, what it waits for and a kind of card in words; the lists of what is allowed by
    names too. Names of players, card codes and numbers stay as they are."""
    params = dict(getattr(err, "params", {}) or {})
    code = getattr(err, "code", None)
    for key in ("corp", "rival"):
        if isinstance(params.get(key), str):
            params[key] = corp_label(pack, params[key])
    if isinstance(params.get("resource"), str) and pack is not None:
        params["resource"] = resource_label(pack, params["resource"])
    if pack is not None and code == "unknown_corporation":
        params["allowed"] = ", ".join(corp_label(pack, k) for k in pack.corporation_keys)
    if pack is not None and code == "unknown_resource":
        params["allowed"] = ", ".join(resource_label(pack, k) for k in pack.resource_keys)
    if isinstance(params.get("ended_by"), str):
        params["ended_by"] = _ended_by_label(params["ended_by"])
    if isinstance(params.get("expects"), str):
        params["expects"] = _expects_label(params["expects"])
    if code == "unknown_code" and isinstance(params.get("card"), str):
        params["card"] = _card_kind_label(params["card"])
    return params


def refusal_text(err, pack=None):
    """An engine refusal (illegal move or setup) in the current language, its things named by
    their names (``error_params``)."""
    return _(err.template, **error_params(err, pack))


def path_label(path):
    """Where a malformed field sits, as the host reads it: ``move.counteroffers[1].player`` is
    «Counteroffers 2, Player», ``setup.players[0].capital`` «Player 1, Capital» (the labels of the
    screens' fields, ``screens.field_label``), never the record's JSON keys."""
    import re

    from facilitator.games.newangeles.screens import field_label
    extra = {"players": _("Player"), "name": _("Name"), "corp": _("Corporation"), "rival": _("Rival card"),
             "threat": _("Threat"), "demand": _("Demand card"), "supply": _("Supply"), "winner": _("Winner"),
             "emergency": _("Emergency card"), "card": _("action card"), "cards": _("Support"),
             "offer": _("Support"), "first_player": _("First player"), "assets": _("Asset cards")}
    parts = []
    for key, index in re.findall(r"([^.\[\]]+)(?:\[(\d+)\])?", path or ""):
        if key in ("move", "setup"):
            continue
        label = field_label(key) if field_label(key) != key else extra.get(key, key)
        if parts and parts[-1].split(" ", 1)[0] == label:
            continue
        parts.append(f"{label} {int(index) + 1}" if index else label)
    return ", ".join(parts)


def offer_text(pack, offer):
    """An offer as the table said it: the action card's text, or a corporation's emergency card."""
    if not offer:
        return ""
    if offer.get("emergency"):
        return _("emergency card ({corp})", corp=corp_label(pack, offer["emergency"]))
    return offer.get("card") or ""


def describe_next(nxt):
    """What the game waits for, in a few words (the dashboard, the moved-on page)."""
    if nxt is None:
        return _("finished")
    expects = nxt.get("expects")
    if expects == "deal":
        return _("deal {n} of {of}: {player} is active", n=nxt["deal"], of=nxt["of"], player=nxt["active"])
    if expects == "end_round":
        return _("the end of the round")
    if expects == "demand_round":
        return _("the demand round")
    if expects == "finish":
        return _("the reveal of the rivals")
    return expects or ""


def _resources_text(pack, amounts, signed=True):
    fmt = words.signed if signed else words.number
    return ", ".join(f"{resource_label(pack, r)} {fmt(n)}" for r, n in amounts.items())


def event_line(code, params, pack):
    """One narrated event of a ``MoveResult`` (``(code, params)``) in the current locale."""
    p = params
    if code == "transfer":
        assets = ", ".join(p.get("assets") or [])
        if p.get("capital") and assets:
            return _("{giver} gives {receiver} {capital} capital and {assets}", giver=p["from"], receiver=p["to"],
                     capital=words.number(p["capital"]), assets=assets)
        if assets:
            return _("{giver} gives {receiver} {assets}", giver=p["from"], receiver=p["to"], assets=assets)
        return _("{giver} gives {receiver} {capital} capital", giver=p["from"], receiver=p["to"],
                 capital=words.number(p["capital"]))
    if code == "deal_won":
        if p.get("counter") is None:
            text = _("Deal {n}: {player}'s offer wins unopposed", n=p["n"], player=p["winner"])
        elif p.get("tie"):
            text = _("Deal {n}: a tie, main {main} : {counter} counter; {player}'s offer wins", n=p["n"],
                     main=p["main"], counter=p["counter"], player=p["winner"])
        else:
            text = _("Deal {n}: {player}'s offer wins, main {main} : {counter} counter", n=p["n"],
                     player=p["winner"], main=p["main"], counter=p["counter"])
        if p.get("overridden"):
            text += " " + _("(the host overrode the count)")
        return text
    if code == "asset_taken":
        return _("{player} takes the asset {asset}", player=p["player"], asset=p["asset"])
    if code == "emergency_spent":
        return _("{player}'s emergency card is spent (facedown)", player=p["player"])
    if code == "production":
        produced = {k: v for k, v in p.items() if v}
        if not produced:
            return _("Production: nothing")
        return _("Production: {resources}", resources=_resources_text(pack, produced))
    if code == "event":
        if p.get("event"):
            return _("Event {event}: threat {amount}", event=p["event"], amount=words.signed(p.get("threat") or 0))
        return _("Event: threat {amount}", amount=words.signed(p.get("threat") or 0))
    if code == "threat":
        return _("Threat {before} → {after} ({reason})", before=p["before"], after=p["after"],
                 reason=reason_label(p.get("reason")))
    if code == "takeover":
        return _("Threat reached {max}: the U.S. government takes over. The game is over.", max=p["threat_max"])
    if code == "rounds_over":
        return _("The last demand round is over: the game is over.")
    if code == "round_advanced":
        return _("Round {done} is over; now {now}", done=p["from"], now=p["to"])
    if code == "investment_scored":
        return _("{player} scores the investment {card}: {amount} capital", player=p["player"], card=p["card"],
                 amount=words.signed(p["capital"]))
    if code == "demand_met":
        return _("Demand {card} met", card=p["card"])
    if code == "demand_missed":
        return _("Demand {card} not met (short: {short}): threat {amount}", card=p["card"],
                 short=_resources_text(pack, p.get("short") or {}, signed=False),
                 amount=words.signed(p["threat_added"]))
    if code == "demand_revealed":
        return _("New demand card {card} (threat {threat})", card=p["card"], threat=p["threat"])
    if code == "capital":
        return _("{player} {amount} capital → {capital} ({reason})", player=p["player"],
                 amount=words.signed(p["amount"]), capital=words.number(p["capital"]),
                 reason=reason_label(p.get("reason")))
    if code == "supply":
        return _("Supply {resource} {amount} → {supply} ({reason})", resource=resource_label(pack, p["resource"]),
                 amount=words.signed(p["amount"]), supply=p["supply"], reason=reason_label(p.get("reason")))
    if code == "adjust":
        return _("Adjustment: {reason}", reason=p["reason"])
    if code == "assets_left":
        return _("Asset cards left: {before} → {after}", before=p["before"], after=p["after"])
    if code == "first_player":
        return _("First-player token: {before} → {after}", before=p["before"], after=p["after"])
    if code == "emergency":
        if p["state"] == "faceup":
            return _("{player}'s emergency card is faceup again", player=p["player"])
        return _("{player}'s emergency card is turned facedown", player=p["player"])
    if code == "asset_removed":
        return _("{player} loses the asset {asset}", player=p["player"], asset=p["asset"])
    if code == "rival_revealed":
        return _("{player}'s rival: {rival}", player=p["player"], rival=corp_label(pack, p["rival"]))
    if code == "game_over":
        if p.get("winners"):
            return ngettext("Winner: {names}", "Winners: {names}", len(p["winners"]), names=", ".join(p["winners"]))
        return _("Nobody won: every corporation lost.")
    return code


def event_lines(result, pack):
    """What a move did, one line per event, in order (the host's flash, the protocol's log)."""
    if result is None:
        return []
    return [event_line(code, params, pack) for code, params in result.events]


def reveal_rows(game):
    """After the reveal: every player's rival, the numbers the engine compared and its result
    (RULES.md §8). The result is the engine's; the numbers say why."""
    if not game.finished:
        return []
    pack = game.pack
    capital = {p.name: p.capital for p in game.players}
    n = len(game.players)
    rows = []
    for p in game.players:
        rival = game.rivals[p.name]
        won = game.results[p.name]
        rival_player = game.rival_player(p.name)
        if game.ended_by == "threat":
            if rival == FEDERALIST:
                why = _("Federalist and the city was taken over: {capital} capital, {need} needed",
                        capital=words.number(p.capital), need=words.number(pack.federalist_capital))
            else:
                why = _("the city was taken over: only a Federalist can win")
        elif rival == FEDERALIST:
            why = _("Federalist, but the city held: the Federalist loses")
        elif rival == p.corp:
            beaten = sum(1 for other, cap in capital.items() if other != p.name and p.capital > cap)
            why = _("own corporation: more capital than {beaten} of {others} others ({need} needed)",
                    beaten=beaten, others=n - 1, need=pack.k(n))
        else:
            why = _("{capital} capital against {rival_capital} of {player}", capital=words.number(p.capital),
                    rival_capital=words.number(capital.get(rival_player, 0)), player=rival_player)
        rows.append({"name": p.name, "corp": p.corp, "corp_name": corp_label(pack, p.corp), "capital": p.capital,
                     "rival": rival, "rival_name": corp_label(pack, rival), "rival_player": rival_player,
                     "won": won, "why": why, "investments": [{"round": r, "card": c, "capital": k}
                                                             for r, c, k in p.investments]})
    return rows


# ----- the protocol as data --------------------------------------------------------------------------------
@dataclass
class Protocol:
    table: str
    event: str | None
    event_date: str | None
    generated_at: datetime
    final: bool
    ended_by: str | None
    round_label: str
    threat: int
    threat_max: int
    setup: dict
    slots: list  # labels: start, S1 … D3
    capital: dict  # name -> [value or None per slot]
    threat_series: list
    deals: list
    demand: list
    log: list
    undone: list
    players: list
    reveal: list
    winners: list
    status: str
    next_text: str
    resources: list = field(default_factory=list)


def _series(game):
    """Capital of every player and threat after each slot (None for slots not reached)."""
    caps = {p.name: p.capital for p in game.setup.players}
    threat = game.setup.threat
    by_slot = {}
    for result in game.history:
        for name, delta in result.capital.items():
            caps[name] = caps.get(name, 0) + delta
        if result.threat:
            threat = result.threat["after"]
        by_slot[result.round["slot"]] = (dict(caps), threat)
    names = game.names
    capital = {n: [p.capital for p in game.setup.players if p.name == n][:1] for n in names}
    threats = [game.setup.threat]
    last = ({p.name: p.capital for p in game.setup.players}, game.setup.threat)
    for slot in SLOTS:
        if slot > game.slot:
            for n in names:
                capital[n].append(None)
            threats.append(None)
            continue
        last = by_slot.get(slot, last)
        for n in names:
            capital[n].append(last[0][n])
        threats.append(last[1])
    return capital, threats


def _read_undone(undone):
    """Moves taken back as ``(move dict, row)`` pairs (``LoadedTable.undone_moves()``) or dicts."""
    out = []
    for entry in undone or ():
        if isinstance(entry, dict):
            move, kind, at, who = entry.get("move") or {}, entry.get("kind") or "undo", entry.get("undone_at"), \
                entry.get("undone_by")
        else:
            move, row = entry
            kind, at, who = getattr(row, "kind", None) or "undo", getattr(row, "created_at", None), \
                getattr(row, "author", None)
        if isinstance(at, datetime):
            at = at.isoformat()
        if hasattr(move, "to_dict"):
            move = move.to_dict()
        out.append({"type": move_label(move.get("type", "")), "player": move.get("player") or move.get("active")
                    or move.get("from"), "how": words.take_back_text(kind, words.format_time(at) if at else None,
                                                                     who)})
    return out


def move_label(kind):
    """A move's type as the host reads it (the protocol's log, the outbox's waiting list, an undone
    move, the moved-on page): a capital move is a «capital change», never its key «capital»."""
    labels = {"deal": _("deal"), "end_round": _("end of round"), "demand_round": _("demand round"),
              "capital": _("capital change"), "threat": _("threat change"), "supply": _("supply change"),
              "transfer": _("transfer"), "adjust": _("adjustment"), "finish": _("the reveal"), "undo": _("undo"),
              "void": _("void"), "reopen": _("reopen")}
    return labels.get(kind, kind)


def game_status(game):
    """Whether a table's result is final (the rivals revealed), in words (the protocol, a sheet)."""
    if game.finished:
        return _("final: the rivals are revealed")
    if game.ended:
        return _("provisional: the game is over, the rivals are not revealed yet")
    return _("provisional: the game is on")


def build_protocol(game, undone=None, event=None, event_date=None, now=None):
    pack = game.pack
    standing = table_standing(game)
    setup = game.setup
    demand = setup.demand if not isinstance(setup.demand, str) else pack.demand_by_code.get(setup.demand)
    setup_rows = {
        "players": [{"seat": i + 1, "name": p.name, "corp": corp_label(pack, p.corp), "capital": p.capital,
                     "first": p.name == setup.first_player,
                     "rival": corp_label(pack, game.rivals[p.name]) if game.finished else None}
                    for i, p in enumerate(setup.players)],
        "first_player": setup.first_player, "threat": setup.threat, "assets": setup.assets,
        "demand": {"card": demand.code if demand else str(setup.demand), "threat": demand.threat if demand else 0,
                   "targets": demand.full_targets(pack.resource_keys) if demand else {}},
        "supply": {r: (setup.supply or {}).get(r, 0) for r in pack.resource_keys},
        "sealed": len(setup.sealed_rivals()),
    }
    targets = setup_rows["demand"]["targets"]
    setup_rows["demand"]["targets_text"] = ", ".join(f"{resource_label(pack, r)} {n}" for r, n in targets.items())
    capital, threats = _series(game)
    deals = []
    for d in standing["deals"]:
        counter = d["counter"]
        deals.append({"n": d["n"], "round": d["round"], "active": d["active"], "asset": d["asset"],
                      "main": offer_text(pack, d["main"]["offer"]), "main_support": d["main"]["support"],
                      "covered": [f"{c['player']}: {offer_text(pack, c['offer'])}" for c in d["covered"]],
                      "counter_player": counter["player"] if counter else None,
                      "counter": offer_text(pack, counter["offer"]) if counter else None,
                      "counter_support": counter["support"] if counter else None,
                      "won_by": d["won_by"], "winner": d["winner"], "tie": d["tie"],
                      "override_reason": d["override_reason"],
                      "transfers": [event_line("transfer", t, pack) for t in d["transfers"]]})
    for d, record in zip(deals, game.deals):
        move = record.move
        offers = {"main": _("main"), "counter": _("counter")}
        d["support"] = ["{} {}→{}".format(s.player, s.cards, offers[s.offer]) for s in move.support or ()]
        if move.extra_support:
            d["extra"] = _("extra support: main {main}, counter {counter} ({reason})",
                           main=words.signed(move.extra_main), counter=words.signed(move.extra_counter),
                           reason=move.extra_reason or "")
    demand_rows = []
    for h, result in zip(standing["demand_history"], [r for r in game.history if r.demand]):
        demand_rows.append({"round": h["round"], "card": h["card"], "met": h["met"], "threat_added": h["threat_added"],
                            "rows": [{"resource": resource_label(pack, r), "supply": h["supply"][r],
                                      "target": h["targets"][r], "short": h["short"].get(r, 0)}
                                     for r in pack.resource_keys],
                            "investments": [f"{i['player']} {i['card']} {words.signed(i['capital'])}"
                                            for i in result.demand.get("investments", [])]})
    log = []
    for i, (move, result) in enumerate(zip(game.moves, game.history), start=1):
        who = move.player
        log.append({"number": i, "round": result.round["label"], "type": move_label(move.type), "player": who,
                    "lines": event_lines(result, pack), "at": words.format_time(move.at) if move.at else "",
                    "note": move.note})
    status = game_status(game)
    return Protocol(
        table=game.table, event=event, event_date=event_date,
        generated_at=now or datetime.now().astimezone(), final=game.finished, ended_by=game.ended_by,
        round_label=game.label, threat=game.threat, threat_max=pack.threat_max, setup=setup_rows,
        slots=[_("start")] + [label for _kind, label in SLOTS.values()], capital=capital, threat_series=threats,
        deals=deals, demand=demand_rows, log=log, undone=_read_undone(undone),
        players=[{**p, "corp_name": corp_label(pack, p["corp"])} for p in standing["players"]],
        reveal=reveal_rows(game), winners=standing["winners"], status=status,
        next_text=describe_next(game.next()),
        resources=[resource_label(pack, r) for r in pack.resource_keys])


def ended_line(p):
    if p.ended_by == "threat":
        return _("The game ended by a takeover: threat reached {max}.", max=p.threat_max)
    if p.ended_by == "rounds":
        return _("The game ended after the last demand round, threat {threat} of {max}.", threat=p.threat,
                 max=p.threat_max)
    return _("The game is on: {round}, threat {threat} of {max}; next: {next}.", round=p.round_label,
             threat=p.threat, max=p.threat_max, next=p.next_text)


# ----- the charts (SVG for the PDF) -------------------------------------------------------------------------
def line_chart_svg(title, slots, series, *, least_top=10, limit=None, width=1000, height=260):
    """A line chart over the round track, drawn by the toolkit's SVG charts in the printed sheets'
    colours: ``series`` = ``[(name, [value or None per slot])]``, the deal slots shaded, a
    ``limit`` (the threat maximum) a red dashed line."""
    from facilitator.reports import svgchart
    figure = svgchart.Figure(
        title=title, x_labels=list(slots), series=[svgchart.Series(name, list(values)) for name, values in series],
        least_top=least_top, show_title=True, guides=[(limit, "limit")] if limit is not None else [],
        bands=[(i - 0.5, i + 0.5, "", True) for i, label in enumerate(slots) if label.startswith("D")])
    return svgchart.svg(figure, width=width, height=height, **svgchart.PRINT)


def capital_chart_svg(p, **kwargs):
    return line_chart_svg(_("Capital by round"), p.slots, list(p.capital.items()), least_top=10, **kwargs)


def threat_chart_svg(p, **kwargs):
    return line_chart_svg(_("Threat by round"), p.slots, [(_("Threat"), p.threat_series)],
                          least_top=p.threat_max, limit=p.threat_max, **kwargs)


# ----- the PDF -----------------------------------------------------------------------------------------------
def protocol_html(p):
    from markupsafe import Markup

    from facilitator.reports.pdf import render_html
    return render_html("newangeles_protocol.html", p=p, capital_chart=Markup(capital_chart_svg(p)),
                       threat_chart=Markup(threat_chart_svg(p, height=200)), ended=ended_line(p))


def table_protocol_pdf(game, undone=None, event=None, event_date=None, now=None):
    """One New Angeles table's protocol as PDF bytes (A4 landscape)."""
    from facilitator.reports.pdf import html_to_pdf
    p = game if isinstance(game, Protocol) else build_protocol(game, undone, event, event_date, now)
    return html_to_pdf(protocol_html(p))


# ----- the workbook ------------------------------------------------------------------------------------------
def table_protocol_xlsx(game, undone=None, event=None, event_date=None, now=None):
    """One New Angeles table's protocol as an Excel workbook (bytes): Setup, Deals, Rounds
    (capital and threat by slot, with two line charts), Demand, Log and Result sheets."""
    from openpyxl import Workbook

    p = game if isinstance(game, Protocol) else build_protocol(game, undone, event, event_date, now)
    wb = Workbook()
    wb.remove(wb.active)
    add_protocol_sheets(wb, p, lambda text: text[:31])
    wb.properties.title = _("New Angeles · protocol: {table}", table=p.table)
    wb.properties.creator = "facilitator"
    out = BytesIO()
    wb.save(out)
    return out.getvalue()


def add_protocol_sheets(wb, p, sheet_title):
    """The protocol ``p``'s sheets added to the workbook ``wb`` (a table's own workbook, or the
    event workbook): ``sheet_title(text)`` names each sheet from its translated name."""
    from openpyxl.chart import LineChart, Reference
    from openpyxl.styles import Alignment, Font, PatternFill
    from openpyxl.utils import get_column_letter

    from facilitator.reports.cells import put  # every value through the one safe writer: a name is never a formula

    sheets = []
    head_font = Font(bold=True, color="FFFFFF")
    head_fill = PatternFill("solid", fgColor="1F3864")
    title_font = Font(bold=True, size=14, color="1F3864")
    wrap = Alignment(wrap_text=True, vertical="top")

    def header(ws, row, labels):
        for col, label in enumerate(labels, start=1):
            cell = put(ws, row, col, label)
            cell.font, cell.fill = head_font, head_fill
            cell.alignment = Alignment(horizontal="center", vertical="center", wrap_text=True)

    def widths(ws, values):
        for col, w in enumerate(values, start=1):
            ws.column_dimensions[get_column_letter(col)].width = w

    def title(ws, text):
        put(ws, 1, 1, text).font = title_font
        meta = " · ".join(x for x in (p.event, words.format_date(p.event_date) if p.event_date else "", p.table,
                                      p.status) if x)
        put(ws, 2, 1, meta)
        ws.page_setup.orientation = "landscape"
        ws.page_setup.paperSize = ws.PAPERSIZE_A4
        ws.page_setup.fitToWidth = 1
        ws.sheet_properties.pageSetUpPr.fitToPage = True

    # Setup
    ws = wb.create_sheet(sheet_title(_("Setup")))
    sheets.append(ws)
    title(ws, _("New Angeles · protocol: {table}", table=p.table))
    put(ws, 3, 1, ended_line(p))
    labels = [_("Seat"), _("Player"), _("Corporation"), _("Starting capital"), _("First player")]
    if p.final:
        labels.append(_("Rival"))
    header(ws, 5, labels)
    row = 6
    for pl in p.setup["players"]:
        values = [pl["seat"], pl["name"], pl["corp"], pl["capital"], "✓" if pl["first"] else ""]
        if p.final:
            values.append(pl["rival"])
        for col, value in enumerate(values, start=1):
            put(ws, row, col, value)
        row += 1
    row += 1
    facts = [(_("Threat after setup"), p.setup["threat"]), (_("Asset cards for S1"), p.setup["assets"]),
             (_("Demand card"), p.setup["demand"]["card"]),
             (_("Threat of the demand card"), p.setup["demand"]["threat"])]
    if not p.final and p.setup["sealed"]:
        facts.append((_("Rival cards sealed at setup"), p.setup["sealed"]))
    for label, value in facts:
        put(ws, row, 1, label).font = Font(bold=True)
        put(ws, row, 3, value)
        row += 1
    row += 1
    header(ws, row, [_("Resource"), _("Demand target"), _("Starting supply")])
    for res_key, res_name in zip(p.setup["demand"]["targets"], p.resources):
        row += 1
        put(ws, row, 1, res_name)
        put(ws, row, 2, p.setup["demand"]["targets"][res_key])
        put(ws, row, 3, p.setup["supply"].get(res_key, 0))
    widths(ws, [8, 20, 24, 14, 12, 20])
    ws.freeze_panes = "A6"

    # Deals
    ws = wb.create_sheet(sheet_title(_("Deals")))
    sheets.append(ws)
    deals = ws
    title(ws, _("Deals"))
    header(ws, 4, [_("Deal"), _("Round"), _("Active player"), _("Asset"), _("Main offer"), _("Support"),
                   _("Covered counteroffers"), _("Counteroffer by"), _("Counteroffer"), _("Support"),
                   _("Support cards"), _("Winner"), _("Tie"), _("Override reason"), _("Transfers")])
    for i, d in enumerate(p.deals, start=5):
        values = [d["n"], d["round"], d["active"], d["asset"], d["main"], d["main_support"],
                  "; ".join(d["covered"]), d["counter_player"] or "", d["counter"] or "",
                  d["counter_support"] if d["counter_support"] is not None else "",
                  "; ".join(d["support"] + ([d["extra"]] if d.get("extra") else [])), d["winner"],
                  "✓" if d["tie"] else "", d["override_reason"] or "", "; ".join(d["transfers"])]
        for col, value in enumerate(values, start=1):
            put(ws, i, col, value).alignment = wrap
    widths(ws, [6, 7, 14, 12, 26, 9, 26, 14, 26, 9, 24, 14, 6, 20, 26])
    ws.freeze_panes = "A5"

    # Rounds: the data of the charts, and the charts
    ws = wb.create_sheet(sheet_title(_("Rounds")))
    sheets.append(ws)
    title(ws, _("Capital and threat by round"))
    names = list(p.capital)
    header(ws, 4, [_("Round")] + names + [_("Threat")])
    for i, label in enumerate(p.slots):
        r = 5 + i
        put(ws, r, 1, label)
        for col, name in enumerate(names, start=2):
            put(ws, r, col, p.capital[name][i])
        put(ws, r, 2 + len(names), p.threat_series[i])
    last_row = 4 + len(p.slots)
    cats = Reference(ws, min_col=1, min_row=5, max_row=last_row)
    chart = LineChart()
    chart.title = _("Capital by round")
    chart.y_axis.title = _("Capital")
    chart.x_axis.title = _("Round")
    chart.add_data(Reference(ws, min_col=2, max_col=1 + len(names), min_row=4, max_row=last_row),
                   titles_from_data=True)
    chart.set_categories(cats)
    chart.height, chart.width = 9, 18
    ws.add_chart(chart, f"{get_column_letter(len(names) + 4)}4")
    threat = LineChart()
    threat.title = _("Threat by round")
    threat.y_axis.title = _("Threat")
    threat.x_axis.title = _("Round")
    threat.y_axis.scaling.min = 0
    threat.y_axis.scaling.max = p.threat_max
    threat.add_data(Reference(ws, min_col=2 + len(names), min_row=4, max_row=last_row), titles_from_data=True)
    threat.set_categories(cats)
    threat.height, threat.width = 7, 18
    ws.add_chart(threat, f"{get_column_letter(len(names) + 4)}23")
    widths(ws, [10] + [14] * (len(names) + 1))
    ws.freeze_panes = "B5"

    # Demand rounds
    ws = wb.create_sheet(sheet_title(_("Demand")))
    sheets.append(ws)
    title(ws, _("Demand rounds"))
    row = 4
    if not p.demand:
        put(ws, row, 1, _("No demand round yet."))
    for d in p.demand:
        put(ws, row, 1, f"{d['round']} · {d['card']}").font = Font(bold=True)
        put(ws, row, 3, _("met") if d["met"] else _("not met"))
        put(ws, row, 4, _("threat {amount}", amount=words.signed(d["threat_added"])))
        row += 1
        header(ws, row, [_("Resource"), _("Supply"), _("Target"), _("Short")])
        for r in d["rows"]:
            row += 1
            for col, value in enumerate((r["resource"], r["supply"], r["target"], r["short"] or None), start=1):
                put(ws, row, col, value)
        row += 1
        put(ws, row, 1, _("Investments"))
        put(ws, row, 2, "; ".join(d["investments"]))
        row += 2
    widths(ws, [22, 40, 12, 14])

    # Log
    ws = wb.create_sheet(sheet_title(_("Log")))
    sheets.append(ws)
    title(ws, _("Move log"))
    header(ws, 4, ["#", _("Round"), _("Move"), _("Player"), _("What happened"), _("Time"), _("Note")])
    r = 4
    for entry in p.log:
        r += 1
        for col, value in enumerate((entry["number"], entry["round"], entry["type"], entry["player"] or "",
                                     "\n".join(entry["lines"]), entry["at"], entry["note"] or ""), start=1):
            put(ws, r, col, value).alignment = wrap
    for entry in p.undone:
        r += 1
        for col, value in enumerate(("", "", entry["type"], entry["player"] or "",
                                     entry["how"], "", ""), start=1):
            cell = put(ws, r, col, value)
            cell.font = Font(strike=col in (3, 4), color="808080")
    widths(ws, [5, 7, 14, 14, 60, 8, 20])
    ws.freeze_panes = "A5"

    # Result
    ws = wb.create_sheet(sheet_title(_("Result")))
    sheets.append(ws)
    title(ws, _("Result"))
    put(ws, 3, 1, ended_line(p))
    if p.final:
        put(ws, 4, 1, (ngettext("Winner: {names}", "Winners: {names}", len(p.winners),
                                                 names=", ".join(p.winners)) if p.winners
                                        else _("Nobody won: every corporation lost."))).font = Font(bold=True)
        header(ws, 6, [_("Player"), _("Corporation"), _("Capital"), _("Rival"), _("Rival's player"), _("Why"),
                       _("Result"), _("Investments")])
        for i, rv in enumerate(p.reveal, start=7):
            values = [rv["name"], rv["corp_name"], rv["capital"], rv["rival_name"], rv["rival_player"] or "",
                      rv["why"], _("won") if rv["won"] else _("lost"),
                      "; ".join(f"{x['round']} {x['card']} {words.signed(x['capital'])}" for x in rv["investments"])]
            for col, value in enumerate(values, start=1):
                put(ws, i, col, value).alignment = wrap
    else:
        put(ws, 4, 1, _("Provisional: the rival cards stay sealed until the reveal."))
        header(ws, 6, [_("Player"), _("Corporation"), _("Capital"), _("Assets"), _("Emergency card")])
        for i, pl in enumerate(p.players, start=7):
            values = [pl["name"], pl["corp_name"], pl["capital"], ", ".join(pl["assets"]),
                      _("faceup") if pl["emergency"] == "faceup" else _("facedown")]
            for col, value in enumerate(values, start=1):
                put(ws, i, col, value)
    widths(ws, [16, 22, 10, 20, 16, 48, 10, 30])
    for sheet in sheets:
        for row_cells in sheet.iter_rows():
            for cell in row_cells:
                if isinstance(cell.value, int) and cell.column > 1 and sheet is not deals:
                    cell.number_format = "#,##0"


__all__ = ["table_protocol_xlsx", "table_protocol_pdf", "build_protocol", "add_protocol_sheets", "Protocol",
           "event_lines", "event_line",
           "reveal_rows", "game_status", "describe_next", "corp_label", "rival_label", "resource_label", "reason_label",
           "offer_text", "capital_chart_svg", "threat_chart_svg", "line_chart_svg", "protocol_html"]
