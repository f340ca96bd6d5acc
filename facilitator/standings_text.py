"""Standings as readable text for ``facilitator replay``, in the current language: each game
formats its own (``GamePackage.standings_text``, in ``games/<game>/text.py``) with the plain-text
table of this module."""

from facilitator.i18n import gettext as _  # noqa: F401


def table(headers, rows, right=()):
    """A plain-text table with columns padded to their widest cell."""
    cells = [headers] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]

    def line(r):
        return "  ".join(c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip()
    return "\n".join([line(cells[0]), "  ".join("-" * w for w in widths)] + [line(r) for r in cells[1:]])


def fixed(value, digits=1):
    """A number with a point and ``digits`` decimals, as the tables print averages."""
    return f"{value:.{digits}f}"


# ----- «16/25» ------------------------------------------------------------------------------------

def format_standings(result, ruleset):
    """The standings ``result`` of a game (its ruleset key) as text."""
    from facilitator import games
    return games.get(ruleset).standings_text(result)
