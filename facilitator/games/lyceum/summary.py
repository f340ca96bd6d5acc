"""A pack's summary: what the deck holds, and warnings for what looks unbalanced.

Warnings are not errors: a pack that obeys RULES.md 1 is accepted whatever they say. They
point an organizer at things that make a game dull or lopsided before the event, such as a
deck of one era and colour so thin that the same cards keep coming up.
"""

from statistics import median

from facilitator.i18n import gettext
from facilitator.rules.lyceum import ERA_KEYS, ERAS
from facilitator.rules.lyceum.cards import COLOR_XP, COLORS
from facilitator.rules.lyceum.skills import total
from facilitator.games.lyceum.importing import color_name, era_name
from facilitator.games.lyceum.search import code_key

#: an era's deck of one colour with fewer cards than this is thin
MIN_CARDS = 3
#: a character whose skills add up to this far from the median of the deck stands out
SKILL_SUM_TOLERANCE = 2
#: a table of this many players needs as many distinct characters
TABLE_SIZE = 4


def _average(values):
    return round(sum(values) / len(values), 2) if values else None


def pack_summary(pack):
    """The summary of a pack as a plain dict (for the CLI, the editor and JSON).

    ``counts[era][color]``: cards per era and colour; ``average_conditions[color]``: the mean
    sum of a card's conditions per colour (also ``average_conditions_by_era[era][color]``),
    ``None`` where there are no cards; ``warnings``: ``{"key", "params", "message"}`` with
    the message (also as ``text``) in the current locale."""
    counts = {era: {color: len(pack.cards_of(era, color)) for color in COLORS} for era in ERA_KEYS}
    by_era = {era: {color: _average([total(c.conditions) for c in pack.cards_of(era, color)])
                    for color in COLORS} for era in ERA_KEYS}
    by_color = {color: _average([total(c.conditions) for c in pack.cards if c.color == color])
                for color in COLORS}
    warnings = (_thin_decks(counts) + _conditions_out_of_order(by_era) + _few_characters(pack)
                + _odd_characters(pack) + _level_jumps(pack) + _codes_alike(pack))
    return {
        "id": pack.id,
        "title": pack.title,
        "characters": len(pack.characters),
        "cards": len(pack.cards),
        "levels": len(pack.levels),
        "counts": counts,
        "average_conditions": by_color,
        "average_conditions_by_era": by_era,
        "warnings": warnings,
    }


def _warning(key, message, **params):
    """One warning; ``text`` is the same sentence as ``message`` (the pack page reads ``text``)."""
    return {"key": key, "params": params, "message": message}


def _thin_decks(counts):
    return [_warning("few_cards", gettext(
        "{era}, {color} deck: only {count} cards, fewer than {min}; the same cards will come up again "
        "and again", era=era_name(era), color=color_name(color), count=n, min=MIN_CARDS),
        era=era, color=color, count=n, min=MIN_CARDS)
        for era, row in counts.items() for color, n in row.items() if n < MIN_CARDS]


def _conditions_out_of_order(by_era):
    """Within an era, a harder colour should not ask for less than an easier one."""
    out = []
    for era, row in by_era.items():
        for easy, hard in zip(COLORS, COLORS[1:]):
            a, b = row[easy], row[hard]
            if a is not None and b is not None and a > b:
                out.append(_warning("conditions_order", gettext(
                    "{era}, {color} deck asks for {more} SP of conditions on average, more than the "
                    "{other} deck ({less}) that gives more XP", era=era_name(era), color=color_name(easy),
                    more=a, other=color_name(hard), less=b),
                    era=era, color=easy, more=a, other=hard, less=b))
    return out


def _few_characters(pack):
    n = len(pack.characters)
    if n >= TABLE_SIZE:
        return []
    return [_warning("few_characters", gettext(
        "only {count} characters: a table of {size} players needs {size} different characters",
        count=n, size=TABLE_SIZE), count=n, size=TABLE_SIZE)]


def _odd_characters(pack):
    """Characters whose skills add up to far more or less than the deck's usual sum."""
    if len(pack.characters) < 3:
        return []
    sums = {c.code: total(c.skills) for c in pack.characters}
    usual = median(sums.values())
    return [_warning("skill_sum", gettext(
        "character {code} ({name}) has {sum} SP in all, the others about {usual}",
        code=c.code, name=c.name, sum=sums[c.code], usual=_number(usual)),
        code=c.code, name=c.name, sum=sums[c.code], usual=usual)
        for c in pack.characters if abs(sums[c.code] - usual) > SKILL_SUM_TOLERANCE]


def _level_jumps(pack):
    """Levels that begin less than a red card's XP above the level before: a player just below
    the earlier threshold passes both with one red card (levels 1 and 2 excepted, as every
    player starts at 0 XP, level 1)."""
    red = COLOR_XP["red"]
    levels = pack.levels
    close = [i + 1 for i in range(2, len(levels)) if levels[i] - levels[i - 1] < red]
    if not close:
        return []
    shown = ", ".join(str(n) for n in close)
    return [_warning("level_jumps", gettext(
        "levels {levels} begin less than {xp} XP above the level before: a single red card can raise "
        "a player two levels at once", levels=shown, xp=red), levels=close, xp=red)]


def _codes_alike(pack):
    """Card codes that differ only in case, spaces or dashes: the host typing one finds both."""
    groups = {}
    for card in pack.cards:
        groups.setdefault(code_key(card.code), []).append(card.code)
    return [_warning("codes_alike", gettext(
        "the card codes {codes} differ only in case, spaces or dashes; the host finds them as one",
        codes=", ".join(codes)), codes=codes)
        for codes in groups.values() if len(codes) > 1]


def _number(x):
    return int(x) if float(x).is_integer() else x


def format_summary(summary):
    """The summary as text lines in the current locale (for the command line)."""
    lines = [gettext("Characters: {characters}, cards: {cards}, levels: {levels}", **summary)]
    header = [gettext("Era")] + [color_name(c) for c in COLORS]
    rows = [[era_name(e.key)] + [str(summary["counts"][e.key][c]) for c in COLORS] for e in ERAS]
    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
    for r in [header] + rows:
        lines.append("  ".join([r[0].ljust(widths[0])] + [cell.rjust(w) for cell, w in zip(r[1:], widths[1:])]))
    averages = ", ".join(f"{color_name(c)} {_shown(summary['average_conditions'][c])}" for c in COLORS)
    lines.append(gettext("Average conditions per card: {averages}", averages=averages))
    if summary["warnings"]:
        lines.append(gettext("Warnings (the pack is accepted):"))
        lines += [f"- {w['message']}" for w in summary["warnings"]]
    else:
        lines.append(gettext("No warnings."))
    return lines


def _shown(value):
    return "—" if value is None else f"{value:g}"
