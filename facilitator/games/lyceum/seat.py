"""«16/25» for its players (issue 21): a player's own page (their XP, level, skills and pending SP,
their odds for a draw now, their XP curve and the moves that concern them), their personal
sheet, and the projector's chart of every team's XP round by round with the era bands."""

import threading
import weakref
from collections import OrderedDict

from facilitator.games.lyceum import words
from facilitator.games.lyceum.chart import xp_frame
from facilitator.games.walk import remembered
from facilitator.i18n import era_name, get_locale
from facilitator.i18n import gettext as _
from facilitator.reports import svgchart
from facilitator.rules.lyceum import ROUNDS
from facilitator.rules.lyceum.odds import odds_era, table_odds


def xp_by_round(game):
    """``{name: [xp at the start, after round 1, …, after round 10]}`` (None for the rounds not
    reached), from the engine's results: each round's last move says every player's XP."""
    after = {}
    for result in game.history:
        after[result.round] = result.after
    reached = max(after, default=0)
    out = {name: [0] + [None] * ROUNDS for name in game.order}
    current = {name: (0, 1) for name in game.order}
    for r in range(1, reached + 1):
        current = after.get(r, current)
        for name in game.order:
            out[name][r] = current[name][0]
    return out


def player_figure(game, name, curve=None):
    curve = curve if curve is not None else xp_by_round(game)[name]
    return xp_frame(_("My XP by round"), [svgchart.Series(name, curve)])


def _team(t):
    """One table's part of the projector's chart: its size, the sum of its players' XP after each
    round (None where not reached) and its team score now as the ranking has it."""
    from facilitator.rules.lyceum.standings import table_standing
    curves = list(xp_by_round(t.game).values())
    sums = [None if any(c[r] is None for c in curves) else sum(c[r] for c in curves) for r in range(ROUNDS + 1)]
    standing = t.standing or table_standing(t.game)
    return {"size": len(curves), "sums": sums, "total": standing["total_xp"], "average": standing["average_xp"]}


def projector_chart(tables):
    """Each table's team score round by round: the sum of its players' XP, or their average when
    the tables are of different sizes (RULES.md 5, as the ranking counts it); its last point is the
    team's score now, as the ranking has it (a future image met adds its bonus). Each table's part
    is remembered per position: a move redraws the chart from one table's game."""
    parts = [remembered(t, "lyceum-team", _team) for t in tables]
    sizes = {p["size"] for p in parts}
    average = len(sizes) > 1
    series = []
    for t, part in zip(tables, parts):
        values = [None if v is None else round(v / part["size"]) if average else v for v in part["sums"]]
        reached = max(r for r, v in enumerate(values) if v is not None)
        if reached:
            values[reached] = round(part["average"]) if average else part["total"]
        series.append(svgchart.Series(t.table.name, values))
    title = _("Average XP per player by round") if average else _("Team XP by round")
    return xp_frame(title, series, least_top=500 * (1 if average else max(sizes, default=1)))


def _concerns(result, name):
    """Whether a move concerns the player: theirs, or another's that changed them."""
    return result.move.player == name or name in result.changes or any(n == name for n, _c in result.expired)


def _moves(game, name):
    """The moves that concern the player, newest first: their own, and others' that changed them."""
    return [{"round": r.round, "lines": _lines(r)} for r in game.history if _concerns(r, name)][::-1]


#: what each move did, in words, by language (``words.result_lines``): a move's result is the same
#: object in every later position of its game the process keeps (a game's copy shares its
#: history), so a player's page drawn after the next move says only that move anew.
#: ``id(result) -> (a weak reference to it, {locale: lines})``, gone with the result
_LINES = {}


def _lines(result):
    locale = get_locale()
    key = id(result)
    kept = _LINES.get(key)
    if kept is None or kept[0]() is not result:
        kept = _LINES[key] = (weakref.ref(result, lambda _gone, key=key: _LINES.pop(key, None)), {})
    lines = kept[1].get(locale)
    if lines is None:
        lines = kept[1][locale] = words.result_lines(result)
    return lines


def position_odds(loaded):
    """Every player's odds at the table's position (the engine's ``table_odds``), worked out once
    per position: the API's answer to a move and the players' pages read the same."""
    return loaded.kept("lyceum-odds", lambda: table_odds(loaded.game))


def _position(loaded):
    """What every player's page reads of the table's position, worked out once per position
    (``LoadedTable.kept``) however many of its players' pages ask: the standing, every player's
    odds (in the odds' era) and XP curve."""
    from facilitator.rules.lyceum.standings import table_standing
    game = loaded.game
    return (loaded.kept("standing", lambda: table_standing(game)), position_odds(loaded),
            loaded.kept("lyceum-xp-by-round", lambda: xp_by_round(game)))


#: a player's curve as the page draws it, by its language, name and points: it changes once a
#: round, and the page is drawn at every move that changes anything of the player's
_CURVES = OrderedDict()
_CURVES_LOCK = threading.Lock()
KEEP_CURVES = 2048


def _curve_svg(name, curve):
    key = (get_locale(), name, tuple(curve))
    with _CURVES_LOCK:
        svg = _CURVES.get(key)
    if svg is None:
        svg = svgchart.svg(player_figure(None, name, curve), width=640, height=300, font=16, css_class="chart xp")
        with _CURVES_LOCK:
            _CURVES[key] = svg
            while len(_CURVES) > KEEP_CURVES:
                _CURVES.popitem(last=False)
    return svg


def _my_turn(game, name):
    nxt = game.next()
    return bool(nxt and nxt.get("player") == name)


def player_state(loaded, name):
    """What the player's page shows (``GamePackage.player_state``): their standing (XP, level,
    place, skills, pending SP, deferred card, image), the round, whether it is their turn, the
    odds' era and their odds, their XP curve and how many moves concern them."""
    game = loaded.game
    standing, odds, curves = _position(loaded)
    return {"me": next(p for p in standing["players"] if p["name"] == name), "round": standing["round"],
            "places": len(standing["players"]), "finished": game.finished, "my_turn": _my_turn(game, name),
            "era": odds_era(game).key, "odds": odds[name], "xp": curves[name],
            "moves": sum(1 for r in game.history if _concerns(r, name))}


def player_view(loaded, name):
    game = loaded.game
    standing, table_odds_, curves = _position(loaded)
    me = next(p for p in standing["players"] if p["name"] == name)
    era = odds_era(game)
    odds = table_odds_[name]
    return "host/seat.html", {
        "me": me, "character": loaded.pack.characters_by_code[me["character"]].name,
        "odds": odds, "era": era, "finished": game.finished, "round": standing["round"],
        "my_turn": _my_turn(game, name), "rounds": ROUNDS,
        "chart": _curve_svg(name, curves[name]),
        "moves": _moves(game, name), "places": len(standing["players"]),
        "skill_short": words.skill_short, "odds_part": lambda color, kn: words.odds_parts({color: kn})[0],
        "odds_line": words.odds_text(name, odds), "era_label": era_name(era.key)}


def player_sheet(loaded, name):
    """The HTML of the player's one-page sheet (``GamePackage.player_sheet``)."""
    from facilitator.reports.pdf import render_html
    template, view = player_view(loaded, name)
    view["chart"] = svgchart.svg(player_figure(loaded.game, name), width=1000, height=360, font=14)
    return render_html("lyceum_player.html", table=loaded.table, player=name, **view)


__all__ = ["xp_by_round", "player_figure", "projector_chart", "player_state", "player_view", "player_sheet"]
