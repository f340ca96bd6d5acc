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
    and the results of the moves concerning each player: one replay of the table, remembered."""
    seasons = {}
    results = {name: [] for name in loaded.game.order}
    for game, move in walk(loaded):
        season = game.season
        # a season card ends the season: its influence is the one just before (RULES.md 4)
        before = _influence(game) if move.type == "season" else None
        result = game.apply(move)
        if game.season != season:
            seasons[season] = before if before is not None else _influence(game)
        owners = {game.state.actives[k].owner for k in result.actives if k in game.state.actives}
        for name in results:
            if getattr(move, "player", None) == name or name in result.hands or name in owners:
                results[name].append(result)
    seasons[loaded.game.season] = _influence(loaded.game)
    return {"seasons": seasons, "results": results}


def _plain(loaded):
    return remembered(loaded, "alterego-seat", _walked)


def walked(loaded):
    """``{"seasons": {season: {player: influence}}, "results": {player: [move results]}, "moves":
    {player: [{"season", "lines"}]}}``: the walk of the table (remembered per position) and the
    lines of the moves concerning each player in the current language (remembered per
    position and language)."""
    from facilitator.i18n import get_locale
    plain = _plain(loaded)

    def lines(t):
        return {"moves": {name: [{"season": r.season, "lines": words.result_lines(r, t.pack)} for r in results]
                          for name, results in plain["results"].items()}}
    return {**plain, **remembered(loaded, ("alterego-seat-lines", get_locale()), lines)}


def _figure(title, series):
    return svgchart.Figure(title=title, x_labels=[words.season_name(s) for s in range(1, len(SEASONS) + 1)],
                           series=series, y_label=_("influence"), least_top=10, key="influence")


def influence_series(loaded, names=None):
    seasons = _plain(loaded)["seasons"]
    names = names or list(seasons[max(seasons)])
    return [svgchart.Series(n, [seasons[s][n] if s in seasons else None for s in range(1, len(SEASONS) + 1)])
            for n in names]


def _offers(loaded, name):
    """Every activity and event card as ``(kind, card key, legal, why not)`` for ``name`` now
    (the engine's ``offer``; the refusal as the engine words it, in no language), worked out once
    per position and player for the page and its change check alike."""
    def make():
        game, out = loaded.game, []
        for kind, cards in (("play_activity", loaded.pack.activity_cards), ("play_event", loaded.pack.event_cards)):
            for card in cards:
                offer = game.offer({"type": kind, "player": name, "card": card.key})
                out.append((kind, card.key, offer["legal"], offer["reason"]))
        return out
    return loaded.kept(("alterego-offers", name), make) if not loaded.game.finished else []


def _cards(loaded, name):
    """Every activity and event card with whether ``name`` could play it now, and why not."""
    pack = loaded.pack
    return [{"name": words.card_name(pack, key), "kind": kind, "legal": legal,
             "why": None if legal or reason is None else words.error_text(reason, pack)}
            for kind, key, legal, reason in _offers(loaded, name)]


def _standing(loaded):
    return loaded.kept("standing", lambda: table_standing(loaded.game))


def player_state(loaded, name):
    """What the player's page shows (``GamePackage.player_state``): their standing and actives,
    the season, whether it is their turn, which cards they could play and why not, their
    influence season by season and how many moves concern them."""
    game, standing = loaded.game, _standing(loaded)
    seasons = _plain(loaded)["seasons"]
    return {"me": next(p for p in standing["players"] if p["name"] == name),
            "actives": [a for a in standing["actives"] if a["owner"] == name], "places": len(standing["players"]),
            "finished": game.finished, "season": game.season, "my_turn": game.current == name and not game.finished,
            "cards": [(kind, key, legal, None if reason is None else f"{type(reason).__name__}: {reason}")
                      for kind, key, legal, reason in _offers(loaded, name)],
            "influence": [seasons[s].get(name) if s in seasons else None for s in range(1, len(SEASONS) + 1)],
            "moves": len(_plain(loaded)["results"].get(name, ()))}


def player_view(loaded, name):
    game, pack = loaded.game, loaded.pack
    standing = _standing(loaded)
    me = next(p for p in standing["players"] if p["name"] == name)
    actives = [dict(a, name=words.active_name(pack, a["key"])) for a in standing["actives"] if a["owner"] == name]
    cards = _cards(loaded, name)
    my_turn = game.current == name and not game.finished
    figure = _figure(_("My influence by season"), influence_series(loaded, [name]))
    return "alterego/seat.html", {
        "me": me, "actives": actives, "places": len(standing["players"]), "finished": game.finished,
        "season_name": words.season_name(game.season), "my_turn": my_turn,
        "playable": [c for c in cards if c["legal"]], "not_playable": [c for c in cards if not c["legal"]],
        "chart": svgchart.svg(figure, width=640, height=300, font=16, css_class="chart influence"),
        "moves": walked(loaded)["moves"].get(name, [])[::-1]}


def sheet_fits(lines):
    """How many of the latest ``lines`` fit on a player's sheet."""
    from facilitator.reports.pdf import lines_that_fit
    return lines_that_fit(lines, SHEET_ROWS, ROW_CHARS)


def player_sheet(loaded, name):
    """The HTML of the player's one-page sheet (``GamePackage.player_sheet``), in the current
    language: their place and influence, their actives, their influence season by season and
    the moves that concern them, season by season (each by its line; of a very long game the
    latest that fit, the earlier ones counted)."""
    from facilitator.reports.pdf import render_html
    game, pack = loaded.game, loaded.pack
    standing = _standing(loaded)
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
        seasons = _plain(t)["seasons"]
        series.append(svgchart.Series(t.table.name, [max(seasons[s].values()) if s in seasons else None
                                                     for s in range(1, len(SEASONS) + 1)]))
    return [_figure(_("The leading influence of each table by season"), series)]


__all__ = ["player_state", "player_view", "player_sheet", "projector_chart", "influence_series", "walked"]
