"""New Angeles for its players (issue 21): a player's own page (their corporation, capital, assets
and investments as the standings give them, their capital round by round, the moves that
concern them) and the projector's charts of capital per corporation and the threat track.

Hidden information (D22): everything here is read from the standings and the move results,
which name no rival before ``finish``; a sealed rival reaches no player's page."""

from facilitator.games.newangeles import words
from facilitator.games.walk import remembered
from facilitator.i18n import gettext as _
from facilitator.reports import svgchart
from facilitator.rules.newangeles.rounds import SLOTS
from facilitator.rules.newangeles.standings import table_standing


def _x_labels():
    return [_("start")] + [SLOTS[slot][1] for slot in SLOTS]


def _figure(title, series, key, y_label):
    return svgchart.Figure(title=title, x_labels=_x_labels(), series=series, y_label=y_label, least_top=10, key=key)


def player_view(loaded, name):
    game, pack = loaded.game, loaded.pack
    standing = loaded.standing or table_standing(game)
    me = next(p for p in standing["players"] if p["name"] == name)
    capital, _threats = words._series(game)
    figure = _figure(_("My capital by round"), [svgchart.Series(name, capital[name])], "capital", _("capital"))
    moves = []
    for result in game.history:
        if getattr(result.move, "player", None) == name or result.capital.get(name):
            moves.append(words.event_lines(result, pack))
    return "newangeles/seat.html", {
        "me": me, "corp": words.corp_label(pack, me["corp"]), "finished": game.finished,
        "round_label": standing["round"]["label"], "threat": standing["threat"], "threat_max": standing["threat_max"],
        "rival": words.rival_label(pack, me["rival"]) if game.finished and me["rival"] else None,
        "chart": svgchart.svg(figure, width=640, height=300, font=16, css_class="chart capital"),
        "moves": moves[::-1]}


def _table_part(t):
    """One table's part of the projector's charts (remembered per position)."""
    capital, threats = words._series(t.game)
    return {"players": [(p.name, words.corp_label(t.pack, p.corp), capital[p.name]) for p in t.game.players],
            "threat": threats}


def projector_chart(tables):
    """Capital per corporation round by round (one table: each player's; several: each
    corporation's average over the tables it plays at) and each table's threat track."""
    parts = [remembered(t, "newangeles-chart", _table_part) for t in tables]
    per_corp = {}
    for part in parts:
        for name, label, curve in part["players"]:
            per_corp.setdefault(f"{label} ({name})" if len(tables) == 1 else label, []).append(curve)
    series = []
    for name, curves in per_corp.items():
        values = []
        for i in range(len(curves[0])):
            column = [c[i] for c in curves if c[i] is not None]
            values.append(round(sum(column) / len(column)) if column else None)
        series.append(svgchart.Series(name, values))
    threat = [svgchart.Series(t.table.name, part["threat"]) for t, part in zip(tables, parts)]
    title = _("Capital by round") if len(tables) == 1 else _("Average capital per corporation by round")
    return [_figure(title, series, "capital", _("capital")), _figure(_("Threat by round"), threat, "threat", _("threat"))]


__all__ = ["player_view", "projector_chart"]
