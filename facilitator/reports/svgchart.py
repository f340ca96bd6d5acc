"""Line charts drawn on the server as SVG (issue 21): the projector's picture of an event, a
player's curve on their phone and on their personal sheet. No chart library reaches the
browser: the page receives finished ``<svg>`` markup.

A chart is a ``Figure``: the x positions' labels, optional bands (an era, a season) and its
series, each a name and one value per x position (None where the game has not got yet). Each
game gives its figures through ``GamePackage.projector_chart`` and its player views; this
module only draws. Colours are the Okabe–Ito palette (told apart with any colour vision), each
line has a dash pattern and a name at its end besides its colour. Every series is a
``<g class="series" data-name=… data-values=…>`` so a test (or a screen reader's script) reads
the values back exactly as drawn.

Sizes: ``font`` is the labels' size in the chart's own units; the projector draws 28 units in a
1840-unit-wide chart shown across a 1920-pixel screen, so its labels are at least 24 px.

The same drawing serves the printed protocols (``PRINT``: WeasyPrint draws every element of an
inline SVG, so a chart keeps to a few; four colours that stay apart in greyscale, each with its
dash pattern): «16/25»'s XP by round with the level thresholds, New Angeles' capital and threat
with the threat limit.
"""

from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

from facilitator.reports.chart import _spread, axis, tick_label

#: Okabe & Ito's colour-blind-safe palette, the yellow last (faint on white)
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442")
DASHES = ("", "10 5", "3 4", "14 4 3 4")
FONT = "DejaVu Sans, Liberation Sans, Arial, sans-serif"
#: a printed sheet's lines: distinguishable in colour and in greyscale (dark blue, red, teal, amber,
#: purple, grey), a dash pattern as a second cue for black-and-white prints
PRINT = {"palette": ("#1f4e9c", "#c8324b", "#168a7b", "#d88a12", "#6a3d9a", "#4d4d4d"),
         "dashes": ("", "6 3", "2 2", "8 3 2 3", "4 2", "1 3")}
#: how a guide line is drawn: a level's threshold (dotted gold), a limit not to reach (red dashes)
GUIDES = {"level": 'stroke="#c9a227" stroke-dasharray="1 3"', "limit": 'stroke="#c8324b" stroke-dasharray="5 3"'}


@dataclass
class Series:
    name: str
    values: list  # one per x position: an int, or None where the game has not got yet


@dataclass
class Figure:
    title: str
    x_labels: list  # one label per x position
    series: list = field(default_factory=list)  # Series
    bands: list = field(default_factory=list)  # (first x, last x, label[, shaded]): a stretch, every other one
    #                                             shaded unless it says (x may be a half: a slot's width)
    y_label: str = ""
    least_top: int = 1  # the y axis shows at least 0..least_top
    key: str = ""  # what the chart shows, for a page's styles and tests ("xp", "capital", ...)
    guides: list = field(default_factory=list)  # (value, kind): a horizontal line, kind a key of GUIDES
    x_title: str = ""  # what the x axis counts, under its labels
    show_title: bool = False  # the title written above the chart (a printed sheet), not only its <title>


def svg(figure, width=1000, height=360, font=12, most_labels=12, css_class="chart", palette=PALETTE,
        dashes=DASHES):
    """The figure as an ``<svg>`` element (a string), scaled to its container's width. At most
    ``most_labels`` lines get a name at their end (the highest at the last position reached)."""
    f = font
    n = max(len(figure.x_labels), 2)
    longest = max((len(s.name) + 6 for s in figure.series), default=8)
    left = int(f * 4.2)
    top = int(f * (3.6 if figure.show_title else 2.4))
    bottom = int(f * (3.6 if figure.x_title else 2.4))
    right = min(int(f * 0.62 * longest) + f, width // 3)
    plot_w, plot_h = width - left - right, height - top - bottom
    # a limit is part of the picture (how far the threat is from it); a level's threshold only
    # where the lines reach
    values = [v for s in figure.series for v in s.values if v is not None] + [
        v for v, kind in figure.guides if kind == "limit"]
    low, high, step = axis(values, least_top=figure.least_top)
    span = high - low

    def x(i):
        return left + plot_w * i / (n - 1)

    def y(v):
        return top + plot_h * (high - v) / span

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="100%" '
           f'font-family="{FONT}" font-size="{f}" class="{css_class}" role="img" data-key="{escape(figure.key)}">',
           f'<title>{escape(figure.title)}</title>']
    if figure.show_title:
        out.append(f'<text class="title" x="{left}" y="{f * 1.2:.1f}" fill="#1f3864" font-weight="bold">'
                   f'{escape(figure.title)}</text>')
    for k, (first, last, label, *shaded) in enumerate(figure.bands):
        x0, x1 = max(x(first), left), min(x(last), left + plot_w)
        if (shaded[0] if shaded else k % 2 == 0):
            out.append(f'<rect x="{x0:.1f}" y="{top}" width="{x1 - x0:.1f}" height="{plot_h}" fill="#eef1f6"/>')
        if label:
            out.append(f'<text class="band" x="{(x0 + x1) / 2:.1f}" y="{top - f * 0.5:.1f}" text-anchor="middle" '
                       f'fill="#3c4350">{escape(label)}</text>')
    ticks = list(range(low, high + 1, step))
    grid = "".join(f"M{left},{y(v):.1f}H{left + plot_w}" for v in ticks)
    out.append(f'<path class="grid" d="{grid}" stroke="#c9ced8" stroke-width="{f / 16:.2f}" fill="none"/>')
    for v in ticks:
        out.append(f'<text class="tick" x="{left - f * 0.4:.1f}" y="{y(v) + f * 0.35:.1f}" text-anchor="end" '
                   f'fill="#3c4350">{escape(tick_label(v))}</text>')
    for value, kind in figure.guides:
        if low <= value <= high:
            out.append(f'<path class="guide {kind}" d="M{left},{y(value):.1f}H{left + plot_w}" {GUIDES[kind]} '
                       f'stroke-width="{f / 12:.2f}" fill="none"/>')
    base = top + plot_h
    out.append(f'<path d="M{left},{base}H{left + plot_w}" stroke="#6b7280" stroke-width="{f / 12:.2f}"/>')
    every = max(1, -(-n * f * 2 // plot_w))  # x labels thinned out so they never overlap
    for i, label in enumerate(figure.x_labels):
        if i % every == 0 or i == len(figure.x_labels) - 1:
            out.append(f'<text class="xlabel" x="{x(i):.1f}" y="{base + f * 1.3:.1f}" text-anchor="middle" '
                       f'fill="#3c4350">{escape(str(label))}</text>')
    if figure.x_title:
        out.append(f'<text x="{left + plot_w / 2:.1f}" y="{base + f * 2.8:.1f}" text-anchor="middle" '
                   f'fill="#3c4350">{escape(figure.x_title)}</text>')
    if figure.y_label:
        # from the left edge: a long word («vaikutusvalta») never runs out of the picture
        out.append(f'<text x="{f * 0.2:.1f}" y="{top - f * 0.5:.1f}" text-anchor="start" fill="#3c4350">'
                   f'{escape(figure.y_label)}</text>')

    drawn = []
    for k, s in enumerate(figure.series):
        points = [(i, v) for i, v in enumerate(s.values) if v is not None]
        drawn.append((k, s, points))
    ends = [(k, pts[-1][1]) for k, s, pts in drawn if pts]
    labelled = {k for k, _v in sorted(ends, key=lambda e: -e[1])[:most_labels]}
    label_ks = [k for k, _v in ends if k in labelled]
    end_y = {k: y(v) for k, v in ends}
    spread = dict(zip(label_ks, _spread([end_y[k] for k in label_ks], f * 1.1, top + f * 0.5, base)))
    for k, s, points in drawn:
        colour, dash = palette[k % len(palette)], dashes[(k // len(palette) + k) % len(dashes)]
        data = ",".join("" if v is None else str(v) for v in s.values)
        out.append(f'<g class="series" data-name={quoteattr(s.name)} data-values="{data}">')
        if points:
            path = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in points)
            dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
            out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="{f / 5:.1f}" '
                       f'stroke-linejoin="round"{dash_attr}/>')
            dots = "".join(f"M{x(i):.1f},{y(v):.1f}h0" for i, v in points)
            out.append(f'<path d="{dots}" stroke="{colour}" stroke-width="{f / 2.2:.1f}" stroke-linecap="round"/>')
            if k in spread:
                i, v = points[-1]
                out.append(f'<text class="end" x="{x(i) + f * 0.5:.1f}" y="{spread[k] + f * 0.35:.1f}" '
                           f'fill="{colour}" font-weight="bold">{escape(s.name)} {escape(tick_label(v))}</text>')
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)


def read_back(markup):
    """``{series name: [values]}`` of a chart's SVG (None where a value is missing)."""
    import xml.etree.ElementTree as ET
    root = ET.fromstring(markup)
    out = {}
    for g in root.iter("{http://www.w3.org/2000/svg}g"):
        if g.get("class") == "series":
            out[g.get("data-name")] = [int(v) if v else None for v in g.get("data-values").split(",")]
    return out


__all__ = ["PALETTE", "DASHES", "PRINT", "GUIDES", "Series", "Figure", "svg", "read_back"]
