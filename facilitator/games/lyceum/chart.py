"""«16/25»'s XP-by-round chart for the printed protocol: each player's line over the ten rounds,
the era bands and the level thresholds, drawn by the toolkit's SVG charts
(``facilitator.reports.svgchart``) in the printed sheets' colours."""

from facilitator.games.lyceum import words
from facilitator.i18n import gettext as _
from facilitator.reports import svgchart
from facilitator.reports.chart import LEAST_TOP
from facilitator.rules.lyceum import ERAS, ROUNDS


def xp_frame(title, series, least_top=LEAST_TOP, **more):
    """A figure of XP over the game: the start and the ten rounds, the eras as bands (the
    protocol's chart, a player's curve, the projector's teams)."""
    return svgchart.Figure(title=title, x_labels=[_("start")] + [str(r) for r in range(1, ROUNDS + 1)],
                           series=series, y_label=_("XP"), least_top=least_top, key="xp",
                           bands=[(e.first_round - 1, e.last_round, words.era_name(e.key)) for e in ERAS], **more)


def xp_figure(protocol):
    """The protocol's XP by round as a figure: a player's line starts at 0 and ends at the last
    round played; the level thresholds inside the axis are guides."""
    series = [svgchart.Series(row.name, [0] + [None if c is None else c.xp for c in row.cells])
              for row in protocol.grid]
    return xp_frame(_("XP by round"), series, x_title=_("Round"), guides=[(xp, "level") for xp in protocol.levels[1:]])


def xp_chart_svg(protocol, width=1000, height=300):
    """The chart as an ``<svg>`` element (a string), scaled to its container's width."""
    return svgchart.svg(xp_figure(protocol), width=width, height=height, css_class="xp-chart", **svgchart.PRINT)
