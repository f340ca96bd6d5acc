"""Words and numbers as the protocol prints them, in the current locale.

Every user-visible word of the reports goes through ``facilitator.i18n.gettext`` (English
message ids, Russian in ``translations/ru/reports.po``). The helpers here are shared by the
workbook and the PDF templates so both say the same thing the same way.
"""

from datetime import date, datetime

from ..i18n import color_name, era_name, get_locale, gettext as _, skill_name  # noqa: F401 (re-exported)
from ..rules import SKILLS

MINUS = "\u2212"  # a real minus sign: "−1" reads better than "-1" in print


def N_(message):
    """Mark a message id for translation where it is defined; it is translated where shown."""
    return message


def skill_short(key):
    """A skill's 3-letter abbreviation for narrow columns."""
    return {"health": _("Hea"), "intellect": _("Int"), "creativity": _("Cre"),
            "communication": _("Com"), "energy": _("Ene")}[key]


def signed(n):
    """``+2``, ``−1``, ``0``."""
    if n > 0:
        return f"+{n}"
    if n < 0:
        return f"{MINUS}{-n}"
    return "0"


def number(n):
    """A whole number with thousands grouped the local way (2 300 / 2,300); ``None`` -> ''."""
    if n is None:
        return ""
    if isinstance(n, float) and not n.is_integer():
        text = f"{n:,.1f}"
    else:
        text = f"{int(n):,}"
    if get_locale() == "ru":
        text = text.replace(",", "\u202f").replace(".", ",")
    return text.replace("-", MINUS)


def signed_number(n):
    if n is None:
        return ""
    return ("+" if n > 0 else "") + number(n)


def skill_changes(changes):
    """``{"intellect": 1, "energy": -1}`` -> ``интеллект +1, энергия −1`` (skills in canonical order)."""
    return ", ".join(f"{skill_name(s)} {signed(changes[s])}" for s in SKILLS if changes.get(s))


def as_date(value):
    """An ISO date text (a birth date) as a ``date``; left as it is when it is not one."""
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(value)
    except (TypeError, ValueError):
        return value


def format_date(value):
    value = as_date(value)
    if not isinstance(value, date):
        return value or ""
    return _("{date:%Y-%m-%d}", date=value)


def format_datetime(value):
    if value is None:
        return ""
    return _("{when:%Y-%m-%d %H:%M}", when=value)


def parse_time(text):
    """A move's ``at`` (ISO 8601) as an aware local ``datetime``, or None."""
    if not text:
        return None
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment.astimezone() if moment.tzinfo else moment


def format_time(text):
    """A move's ``at`` as the local wall-clock time ``14:32``; the text itself if unreadable."""
    moment = parse_time(text)
    if moment is None:
        return text or ""
    return f"{moment:%H:%M}"


def ranking_rule_text(rule):
    """The team ranking rule of RULES.md 5, in words."""
    if rule == "total":
        return _("Tables are ranked by the sum of their players' final XP, since every table "
                 "has the same number of players.")
    return _("Tables are ranked by the average final XP per player, since the tables have "
             "different numbers of players.")


def ranking_rule_short(rule):
    return _("by total") if rule == "total" else _("by average")
