"""«16/25»'s XP-by-round chart for the printed protocol: each player's line over the ten rounds
with the era bands, drawn as inline SVG with the toolkit's axes (``facilitator.reports.chart``)."""

from xml.sax.saxutils import escape

from facilitator.games.lyceum import words
from facilitator.i18n import gettext as _
from facilitator.reports.chart import DASHES, FONT, LONGEST_LABEL, PALETTE, _spread, axis, tick_label  # noqa: F401
from facilitator.rules.lyceum import ERAS, ROUNDS


def xp_chart_svg(protocol, width=1000, height=300):
    """The chart as an ``<svg>`` element (a string), scaled to its container's width."""
    left, right, top, bottom = 64, 150, 22, 30
    plot_w, plot_h = width - left - right, height - top - bottom
    series = []
    for row in protocol.grid:
        points = [(0, 0)] + [(r, c.xp) for r, c in enumerate(row.cells, start=1) if c is not None]
        series.append((row.name, points))
    low, high, step = axis([xp for _name, pts in series for _r, xp in pts])
    span = high - low

    def x(r):
        return left + plot_w * r / ROUNDS

    def y(xp):
        # integers until the one division: exact for any size of XP
        return top + plot_h * (high - xp) / span

    title, axis_x, axis_y, start = _("XP by round"), _("Round"), _("XP"), _("start")
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'width="100%" font-family="{FONT}" font-size="12" class="xp-chart" role="img">',
           f'<title>{escape(title)}</title>']
    for i, era in enumerate(ERAS):
        x0, x1 = x(era.first_round - 1), x(era.last_round)
        if i % 2 == 0:
            out.append(f'<rect x="{x0:.1f}" y="{top}" width="{x1 - x0:.1f}" height="{plot_h}" fill="#f1f4f9"/>')
        out.append(f'<text x="{(x0 + x1) / 2:.1f}" y="{top - 7}" text-anchor="middle" fill="#5b6472" '
                   f'font-size="11">{escape(words.era_name(era.key))}</text>')
    # the gridlines, one path; their labels
    values = list(range(low, high + 1, step))
    grid = "".join(f"M{left},{y(v):.1f}H{left + plot_w}" for v in values)
    out.append(f'<path class="grid" d="{grid}" stroke="#d5dae2" stroke-width="0.7" fill="none"/>')
    for v in values:
        out.append(f'<text class="tick" x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end" fill="#3c4350">'
                   f'{escape(tick_label(v))}</text>')
    # the level thresholds inside the axis, one dotted path, and the rounds along the x axis
    levels = [(n, xp) for n, xp in enumerate(protocol.levels[1:], start=2) if low < xp < high]
    if levels:
        path = "".join(f"M{left},{y(xp):.1f}H{left + plot_w}" for _n, xp in levels)
        out.append(f'<path d="{path}" stroke="#c9a227" stroke-width="0.8" stroke-dasharray="1 3" fill="none"/>')
    base = top + plot_h
    out.append(f'<path d="M{left},{base}H{left + plot_w}" stroke="#8a93a3" stroke-width="1"/>')
    for r in range(0, ROUNDS + 1):
        out.append(f'<text x="{x(r):.1f}" y="{base + 15}" text-anchor="middle" fill="#3c4350">'
                   f'{escape(start if r == 0 else str(r))}</text>')
    out.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 1}" text-anchor="middle" fill="#5b6472" '
               f'font-size="11">{escape(axis_x)}</text>')
    out.append(f'<text x="{left - 6}" y="{top - 7}" text-anchor="end" fill="#5b6472" font-size="11">'
               f'{escape(axis_y)}</text>')

    ends = [y(points[-1][1]) for _name, points in series]
    label_ys = _spread(ends, 15, top + 6, top + plot_h)
    for i, (name, points) in enumerate(series):
        colour, dash = PALETTE[i % len(PALETTE)], DASHES[i % len(DASHES)]
        path = " ".join(f"{x(r):.1f},{y(xp):.1f}" for r, xp in points)
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2.2" '
                   f'stroke-linejoin="round"{dash_attr}/>')
        # the round markers: short thick strokes with round caps, all in one path
        dots = "".join(f"M{x(r):.1f},{y(xp):.1f}h0" for r, xp in points[1:])
        if dots:
            out.append(f'<path d="{dots}" stroke="{colour}" stroke-width="5" stroke-linecap="round"/>')
        # the name and XP at the line's end (every line ends in the same round), moved apart
        # from the other labels when the values are close
        last_r, last_xp = points[-1]
        lx, ly = x(last_r) + 10, label_ys[i]
        out.append(f'<text x="{lx:.1f}" y="{ly + 4:.1f}" fill="{colour}" font-weight="bold">'
                   f'{escape(name)} {escape(tick_label(last_xp))}</text>')
    out.append("</svg>")
    return "\n".join(out)
