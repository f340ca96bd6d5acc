"""The toolkit's chart axes, for every SVG chart (``svgchart``: the projector's, a player's, the
printed protocols').

An axis steps by a "nice" amount (1, 2 or 5 × 10^k) chosen with integer arithmetic, so any
value a host's correction can give (negative, 10^9, 10^100: integers no float can hold)
draws at most ten gridlines, at once.
"""


from babel.numbers import get_decimal_symbol

from facilitator import formatting as words
from facilitator.i18n import get_locale

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
