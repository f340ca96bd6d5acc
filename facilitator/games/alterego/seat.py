"""Alter Ego for its players (issue 21): a player's own page (their actives with anxiety and
influence, their influence season by season, which cards they could play now and why not, the
moves that concern them), their one-page sheet and the projector's chart of influence season by season."""

from facilitator.games.alterego import words
from facilitator.games.walk import remembered, walk
from facilitator.i18n import gettext as _
from facilitator.reports import svgchart
from facilitator.rules.alterego.state import SEASONS
from facilitator.rules.alterego.standings import table_standing

#: the rows of moves a player's sheet holds below its figures and chart (three narrow columns of
#: about ``ROW_CHARS`` characters fill the rest of its one page; measured with a margin)
SHEET_ROWS, ROW_CHARS = 136, 50
#: tables the projector draws one chart each for; beyond, one chart of each table's leader
EACH_TABLE_UP_TO = 2


def _influence(game):
    return {p["name"]: p["influence"] for p in table_standing(game)["players"]}


def _walked(loaded):
    """Influence of every player at the end of each season reached (the season's last position),
    and the move lines concerning each player: one replay of the table, remembered."""
    seasons = {}
    moves = {name: [] for name in loaded.game.order}
    for game, move in walk(loaded):
        season = game.season
        # a season card ends the season: its influence is the one just before (RULES.md 4)
        before = _influence(game) if move.type == "season" else None
        result = game.apply(move)
        if game.season != season:
            seasons[season] = before if before is not None else _influence(game)
        owners = {game.state.actives[k].owner for k in result.actives if k in game.state.actives}
        for name in moves:
            if getattr(move, "player", None) == name or name in result.hands or name in owners:
                moves[name].append({"season": result.season, "lines": words.result_lines(result, loaded.pack)})
    seasons[loaded.game.season] = _influence(loaded.game)
    return {"seasons": seasons, "moves": moves}


def walked(loaded):
    from facilitator.i18n import get_locale
    return remembered(loaded, ("alterego-seat", get_locale()), _walked)  # its move lines are in words


def _figure(title, series):
    return svgchart.Figure(title=title, x_labels=[words.season_name(s) for s in range(1, len(SEASONS) + 1)],
                           series=series, y_label=_("influence"), least_top=10, key="influence")


def influence_series(loaded, names=None):
    seasons = walked(loaded)["seasons"]
    names = names or list(seasons[max(seasons)])
    return [svgchart.Series(n, [seasons[s][n] if s in seasons else None for s in range(1, len(SEASONS) + 1)])
            for n in names]


def _cards(game, pack, name):
    """Every activity and event card with whether ``name`` could play it now, and why not."""
    out = []
    for kind, cards in (("play_activity", pack.activity_cards), ("play_event", pack.event_cards)):
        for card in cards:
            offer = game.offer({"type": kind, "player": name, "card": card.key})
            out.append({"name": words.card_name(pack, card.key), "kind": kind, "legal": offer["legal"],
                        "why": None if offer["legal"] or offer["reason"] is None
                        else words.error_text(offer["reason"], pack)})
    return out


def player_view(loaded, name):
    game, pack = loaded.game, loaded.pack
    standing = loaded.standing or table_standing(game)
    me = next(p for p in standing["players"] if p["name"] == name)
    actives = [dict(a, name=words.active_name(pack, a["key"])) for a in standing["actives"] if a["owner"] == name]
    cards = _cards(game, pack, name) if not game.finished else []
    my_turn = game.current == name and not game.finished
    figure = _figure(_("My influence by season"), influence_series(loaded, [name]))
    return "alterego/seat.html", {
        "me": me, "actives": actives, "places": len(standing["players"]), "finished": game.finished,
        "season_name": words.season_name(game.season), "my_turn": my_turn,
        "playable": [c for c in cards if c["legal"]], "not_playable": [c for c in cards if not c["legal"]],
        "chart": svgchart.svg(figure, width=640, height=300, font=16, css_class="chart influence"),
        "moves": walked(loaded)["moves"].get(name, [])[::-1]}


def sheet_fits(lines):
    """How many of the latest ``lines`` fit on a player's sheet (a long line takes two rows)."""
    rows = 0
    for n, line in enumerate(reversed(lines)):
        rows += -(-len(line) // ROW_CHARS)
        if rows > SHEET_ROWS:
            return n
    return len(lines)


def player_sheet(loaded, name):
    """The HTML of the player's one-page sheet (``GamePackage.player_sheet``), in the current
    language: their place and influence, their actives, their influence season by season and
    the moves that concern them, season by season (each by its line; of a very long game the
    latest that fit, the earlier ones counted)."""
    from facilitator.reports.pdf import render_html
    game, pack = loaded.game, loaded.pack
    standing = loaded.standing or table_standing(game)
    me = next(p for p in standing["players"] if p["name"] == name)
    actives = [dict(a, name=words.active_name(pack, a["key"])) for a in standing["actives"] if a["owner"] == name]
    moves = walked(loaded)["moves"].get(name, [])
    left_out = len(moves) - sheet_fits([m["lines"][0] for m in moves])
    seasons = []
    for move in moves[left_out:]:  # each by its first line, the move itself (what it did: on the page)
        if not seasons or seasons[-1]["season"] != move["season"]:
            seasons.append({"season": move["season"], "name": words.season_name(move["season"]), "lines": []})
        seasons[-1]["lines"].append(move["lines"][0])
    figure = _figure(_("My influence by season"), influence_series(loaded, [name]))
    return render_html(
        "alterego_player.html", table=loaded.table, player=name, me=me, actives=actives,
        places=len(standing["players"]), finished=game.finished, status=words.status_text(game.finished, game.ended_by),
        season_name=words.season_name(game.season), seasons=seasons, left_out=left_out,
        chart=svgchart.svg(figure, width=1000, height=260, font=14))


def projector_chart(tables):
    """Up to ``EACH_TABLE_UP_TO`` tables: a chart each, one line per player; more: one chart, a
    line per table of its leading player's influence season by season."""
    if len(tables) <= EACH_TABLE_UP_TO:
        return [_figure(_("Influence by season: {table}", table=t.table.name), influence_series(t)) for t in tables]
    series = []
    for t in tables:
        seasons = walked(t)["seasons"]
        series.append(svgchart.Series(t.table.name, [max(seasons[s].values()) if s in seasons else None
                                                     for s in range(1, len(SEASONS) + 1)]))
    return [_figure(_("The leading influence of each table by season"), series)]


__all__ = ["player_view", "player_sheet", "projector_chart", "influence_series", "walked"]
