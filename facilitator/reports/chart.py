"""Each player's XP by round, drawn as an inline SVG line chart for the printed protocol.

Plain SVG markup (no plotting library): the x axis runs from the start (0 XP) through
rounds 1–10 with the three eras shaded, the y axis is XP with round gridlines, the pack's
level thresholds are faint dotted lines, and each player's line ends in a label with their
name and XP. Rounds not played yet are left empty, so a provisional chart stops early.
"""

from xml.sax.saxutils import escape

from .. import words
from ..i18n import gettext as _
from ..rules import ERAS, ROUNDS

#: distinguishable in colour and in greyscale (dark blue, red, teal, amber)
PALETTE = ("#1f4e9c", "#c8324b", "#168a7b", "#d88a12")
DASHES = ("", "6 3", "2 2", "8 3 2 3")  # a second cue besides colour, for black-and-white prints
FONT = "DejaVu Sans, Liberation Sans, Arial, sans-serif"


def _nice_step(top):
    """A round step for the XP axis giving 4–8 gridlines."""
    for step in (100, 200, 500, 1000, 2000, 5000):
        if top / step <= 8:
            return step
    return 10000


def _spread(positions, gap, low, high):
    """Move label y positions apart by at least ``gap`` while keeping them within [low, high]."""
    order = sorted(range(len(positions)), key=lambda i: positions[i])
    placed = [positions[i] for i in order]
    for k in range(1, len(placed)):
        placed[k] = max(placed[k], placed[k - 1] + gap)
    overflow = placed[-1] - high if placed else 0
    if overflow > 0:
        placed = [y - overflow for y in placed]
        for k in range(len(placed) - 2, -1, -1):
            placed[k] = min(placed[k], placed[k + 1] - gap)
    placed = [max(low, y) for y in placed]
    out = [0.0] * len(positions)
    for k, i in enumerate(order):
        out[i] = placed[k]
    return out


def xp_chart_svg(protocol, width=1000, height=300):
    """The chart as an ``<svg>`` element (a string), scaled to its container's width."""
    left, right, top, bottom = 56, 150, 26, 34
    plot_w, plot_h = width - left - right, height - top - bottom
    series = []
    for row in protocol.grid:
        points = [(0, 0)] + [(r, c.xp) for r, c in enumerate(row.cells, start=1) if c is not None]
        series.append((row.name, points))
    highest = max((xp for _name, pts in series for _r, xp in pts), default=0)
    step = _nice_step(max(highest, 500))
    y_max = max(step, -(-highest // step) * step)
    if y_max == highest:
        y_max += step

    def x(r):
        return left + plot_w * r / ROUNDS

    def y(xp):
        return top + plot_h * (1 - xp / y_max)

    title, axis_x, axis_y, start = _("XP by round"), _("Round"), _("XP"), _("start")
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'width="100%" font-family="{FONT}" font-size="12" class="xp-chart" role="img">',
           f'<title>{escape(title)}</title>']
    for i, era in enumerate(ERAS):
        x0, x1 = x(era.first_round - 1), x(era.last_round)
        shade = "#f3f5f9" if i % 2 == 0 else "#ffffff"
        out.append(f'<rect x="{x0:.1f}" y="{top}" width="{x1 - x0:.1f}" height="{plot_h}" fill="{shade}"/>')
        out.append(f'<text x="{(x0 + x1) / 2:.1f}" y="{top - 9}" text-anchor="middle" fill="#5b6472" '
                   f'font-size="11">{escape(words.era_name(era.key))}</text>')
    for level, threshold in enumerate(protocol.levels[1:], start=2):
        if threshold >= y_max:
            break
        level_label = _("lvl {level}", level=level)
        out.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y(threshold):.1f}" y2="{y(threshold):.1f}" '
                   f'stroke="#c9a227" stroke-width="0.8" stroke-dasharray="1 3"/>')
        out.append(f'<text x="{left + plot_w - 3}" y="{y(threshold) - 2:.1f}" text-anchor="end" fill="#a8871a" '
                   f'font-size="9">{escape(level_label)}</text>')
    for value in range(0, y_max + 1, step):
        out.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y(value):.1f}" y2="{y(value):.1f}" '
                   f'stroke="#d5dae2" stroke-width="{1.2 if value == 0 else 0.7}"/>')
        out.append(f'<text x="{left - 6}" y="{y(value) + 4:.1f}" text-anchor="end" fill="#3c4350">'
                   f'{escape(words.number(value))}</text>')
    for r in range(0, ROUNDS + 1):
        out.append(f'<line x1="{x(r):.1f}" x2="{x(r):.1f}" y1="{top + plot_h}" y2="{top + plot_h + 4}" '
                   f'stroke="#8a93a3"/>')
        label = start if r == 0 else str(r)
        out.append(f'<text x="{x(r):.1f}" y="{top + plot_h + 17}" text-anchor="middle" fill="#3c4350">'
                   f'{escape(label)}</text>')
    out.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 2}" text-anchor="middle" fill="#5b6472" '
               f'font-size="11">{escape(axis_x)}</text>')
    out.append(f'<text x="14" y="{top + plot_h / 2:.1f}" text-anchor="middle" fill="#5b6472" font-size="11" '
               f'transform="rotate(-90 14 {top + plot_h / 2:.1f})">{escape(axis_y)}</text>')

    ends = [y(points[-1][1]) for _name, points in series]
    label_ys = _spread(ends, 15, top + 6, top + plot_h)
    for i, (name, points) in enumerate(series):
        colour, dash = PALETTE[i % len(PALETTE)], DASHES[i % len(DASHES)]
        path = " ".join(f"{x(r):.1f},{y(xp):.1f}" for r, xp in points)
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2.4" '
                   f'stroke-linejoin="round"{dash_attr}/>')
        # every point as one path of small circles (far fewer SVG nodes to draw than <circle>s)
        dots = "".join(f"M{x(r) - 3:.1f},{y(xp):.1f}a3,3 0 1,0 6,0a3,3 0 1,0 -6,0" for r, xp in points[1:])
        if dots:
            out.append(f'<path d="{dots}" fill="{colour}"/>')
        # the name and XP at the line's end (every line ends in the same round), moved apart
        # from the other labels when the values are close, with a short leader line
        last_r, last_xp = points[-1]
        lx, ly = x(last_r) + 12, label_ys[i]
        out.append(f'<line x1="{x(last_r) + 4:.1f}" y1="{y(last_xp):.1f}" x2="{lx - 3:.1f}" y2="{ly:.1f}" '
                   f'stroke="{colour}" stroke-width="0.7"/>')
        out.append(f'<text x="{lx:.1f}" y="{ly + 4:.1f}" fill="{colour}" font-weight="bold">'
                   f'{escape(name)} <tspan font-weight="normal">{escape(words.number(last_xp))}</tspan></text>')
    out.append("</svg>")
    return "\n".join(out)
