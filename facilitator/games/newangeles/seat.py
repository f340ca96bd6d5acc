"""New Angeles for its players (issue 21): a player's own page (their corporation, capital, assets
and investments as the standings give them, their capital round by round, the moves that
concern them), their one-page sheet and the projector's charts of capital per corporation and the threat track.

Hidden information (D22): everything here is read from the standings and the move results,
which name no rival before ``finish``; a sealed rival reaches no player's page. After the
reveal a player's page and sheet name their own rival only."""

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


#: the narrated events whose ``player`` is the one the line is about; another's stays off a page
PERSONAL = {"rival_revealed"}
#: the parameters of a narrated event that name a player taking part in it
TAKING_PART = ("player", "winner", "from", "to")


def _concerns(result, name):
    """Whether a move concerns the player: theirs, their capital changed, or it names them."""
    if getattr(result.move, "player", None) == name or result.capital.get(name):
        return True
    return any(params.get(key) == name for _code, params in result.events for key in TAKING_PART)


def my_moves(game, pack, name):
    """The moves that concern the player, oldest first, each as its narrated lines; after the
    reveal another player's rival stays off (only the player's own is theirs to see)."""
    out = []
    for result in game.history:
        if _concerns(result, name):
            out.append([words.event_line(code, params, pack) for code, params in result.events
                        if code not in PERSONAL or params.get("player") == name])
    return out


def _position(loaded):
    """The table's standing and every player's capital round by round, worked out once per
    position (``LoadedTable.kept``) however many of its players' pages ask."""
    game = loaded.game
    return (loaded.kept("standing", lambda: table_standing(game)),
            loaded.kept("newangeles-series", lambda: words._series(game))[0])


def player_state(loaded, name):
    """What the player's page shows (``GamePackage.player_state``): their standing (corporation,
    capital, assets, investments; their rival only once the game has revealed it), the round,
    the threat, their capital round by round and how many moves concern them."""
    game = loaded.game
    standing, capital = _position(loaded)
    me = next(p for p in standing["players"] if p["name"] == name)
    return {"me": me, "finished": game.finished, "round": standing["round"], "threat": standing["threat"],
            "threat_max": standing["threat_max"], "capital": capital[name],
            "moves": sum(1 for r in game.history if _concerns(r, name))}


def player_view(loaded, name):
    game, pack = loaded.game, loaded.pack
    standing, capital = _position(loaded)
    me = next(p for p in standing["players"] if p["name"] == name)
    figure = _figure(_("My capital by round"), [svgchart.Series(name, capital[name])], "capital", _("capital"))
    moves = my_moves(game, pack, name)
    return "newangeles/seat.html", {
        "me": me, "corp": words.corp_label(pack, me["corp"]), "finished": game.finished,
        "round_label": standing["round"]["label"], "threat": standing["threat"], "threat_max": standing["threat_max"],
        "rival": words.rival_label(pack, me["rival"]) if game.finished and me["rival"] else None,
        "chart": svgchart.svg(figure, width=640, height=300, font=16, css_class="chart capital"),
        "moves": moves[::-1]}


def player_sheet(loaded, name):
    """The HTML of the player's one-page sheet (``GamePackage.player_sheet``), in the current
    language: their corporation, capital and result, their capital round by round and the moves
    that concern them. Before the reveal no rival is on it (the standings and the move results
    name none, D22); after it, only the player's own rival and why they won or lost."""
    from facilitator.reports.pdf import render_html
    game, pack = loaded.game, loaded.pack
    standing = loaded.standing or table_standing(game)
    me = next(p for p in standing["players"] if p["name"] == name)
    capital, _threats = words._series(game)
    figure = _figure(_("My capital by round"), [svgchart.Series(name, capital[name])], "capital", _("capital"))
    reveal = next((r for r in words.reveal_rows(game) if r["name"] == name), None) if game.finished else None
    moves = [lines for lines in my_moves(game, pack, name) if lines]
    left_out = len(moves) - sheet_fits([" · ".join(lines) for lines in moves])
    return render_html(
        "newangeles_player.html", table=loaded.table, player=name, me=me, corp=words.corp_label(pack, me["corp"]),
        finished=game.finished, status=words.game_status(game), round_label=standing["round"]["label"],
        threat=standing["threat"], threat_max=standing["threat_max"], reveal=reveal,
        chart=svgchart.svg(figure, width=1000, height=260, font=14), moves=moves[left_out:], left_out=left_out)


#: the rows of moves a player's sheet holds below its figures and chart (two columns of about
#: ``ROW_CHARS`` characters fill the rest of its one page; measured with a margin)
SHEET_ROWS, ROW_CHARS = 100, 70


def sheet_fits(lines):
    """How many of the latest ``lines`` fit on a player's sheet."""
    from facilitator.reports.pdf import lines_that_fit
    return lines_that_fit(lines, SHEET_ROWS, ROW_CHARS)


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


__all__ = ["player_state", "player_view", "player_sheet", "my_moves", "projector_chart"]
