"""Each player's XP by round, drawn as an inline SVG line chart for the printed protocol.

Plain SVG markup (no plotting library), kept to few elements because WeasyPrint draws every
element of an inline SVG: the x axis runs from the start through rounds 1–10 with the three
eras shaded, the y axis is XP with at most ten gridlines (all of them one ``<path>``), the
pack's level thresholds are faint dotted lines (one path), and each player's line (a
``<polyline>`` with round markers) ends in a label with their name and XP. Rounds not played
yet are left empty, so a provisional chart stops early.

The XP axis steps by a "nice" amount (1, 2 or 5 × 10^k XP) chosen with integer arithmetic,
so any XP a host's correction can give (negative, 10^9, 10^100: integers no float can hold)
draws at most ten gridlines, at once.
"""

from xml.sax.saxutils import escape

from babel.numbers import get_decimal_symbol

from facilitator.games.lyceum import words
from facilitator.i18n import get_locale, gettext as _
from facilitator.rules.lyceum import ERAS, ROUNDS

#: distinguishable in colour and in greyscale (dark blue, red, teal, amber)
PALETTE = ("#1f4e9c", "#c8324b", "#168a7b", "#d88a12")
DASHES = ("", "6 3", "2 2", "8 3 2 3")  # a second cue besides colour, for black-and-white prints
FONT = "DejaVu Sans, Liberation Sans, Arial, sans-serif"
#: most steps on the XP axis: with the headroom step and a negative start, at most 10 gridlines
MOST_STEPS = 8
#: the XP axis shows at least 0..500 (an empty or slow game still gets a readable scale)
LEAST_TOP = 500
#: numbers with more digits than this are labelled compactly (2×10⁹) on the chart
LONGEST_LABEL = 7
SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def nice_step(span, most=MOST_STEPS):
    """The smallest step of 1, 2 or 5 × 10^k (an integer, at least 1) that covers ``span`` (an
    integer ≥ 0) in at most ``most`` steps. Integer arithmetic only: any size of int works."""
    span = max(int(span), 1)
    need = -(-span // most)  # the smallest step that would do: ceil(span / most)
    power = 10 ** (len(str(need)) - 1)
    for factor in (1, 2, 5, 10):
        if factor * power >= need:
            return factor * power
    return 10 * power  # not reached: need <= 10 * power


def axis(values, most=MOST_STEPS, least_top=LEAST_TOP):
    """``(low, high, step)`` of the XP axis: gridlines at ``low, low + step, ..., high``, with
    ``low <= 0 <= high``, every value inside and a step of room above the highest point."""
    lowest = min(min(values, default=0), 0)
    highest = max(max(values, default=0), least_top)
    step = nice_step(highest - lowest, most)
    low = (lowest // step) * step  # floor, also for negative values
    high = -(-highest // step) * step
    if high == highest:
        high += step
    return low, high, step


def tick_label(value):
    """An axis or line label: the number as the locale writes it, or, when it is long, in
    scientific form ``2,5×10⁸`` (``≈`` when three significant digits do not say it exactly)."""
    digits = str(abs(value))
    if len(digits) <= LONGEST_LABEL:
        return words.number(value)
    significant = digits.rstrip("0")
    fraction = significant[1:3].rstrip("0")
    mantissa = digits[0] + (get_decimal_symbol(get_locale()) + fraction if fraction else "")
    prefix = "≈" if len(significant) > 3 else ""
    sign = words.MINUS if value < 0 else ""
    return f"{prefix}{sign}{mantissa}×10{str(len(digits) - 1).translate(SUPERSCRIPT)}"


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
