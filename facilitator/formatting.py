"""The app's own formatting, for every game: numbers, signs, dates and times in the current
locale (Babel), and how a move taken back is said. A game's words (``games/<game>/words.py``)
build on these.

==============================  =============================================================
``number(n)``                   ``2 500`` / ``2,500``, ``833,3``, ``−5`` (Babel, any int size)
``signed(n)``                   ``+2``, ``−1``, ``0``, ``+1 500``: a real minus sign (U+2212)
``format_date(value)``          ``17.05.2025`` (ru), ``May 17, 2025`` (en); ISO text or date
``format_datetime(value)``      ``17.05.2025 14:32``
``format_time(at)``             a move's ``at`` as local ``14:32``
``take_back_text(kind, ...)``   an undone / voided / reopened move, who and when
==============================  =============================================================
"""

import decimal
from datetime import date, datetime
from functools import lru_cache

from babel import Locale
from babel.dates import format_date as babel_format_date
from babel.numbers import format_decimal

from facilitator.i18n import get_locale, gettext as _, normalize

MINUS = "\u2212"  # a real minus sign: "−1" reads better than "-1" on a screen and in print
NARROW_NBSP = "\u202f"  # groups thousands in Russian: 2 500 (never split across lines)


def N_(message):
    """Mark a message id for translation where it is defined; it is translated where shown."""
    return message


def _locale(locale):
    return normalize(locale) if locale else get_locale()


# ----- numbers ---------------------------------------------------------------------------------
def number(n, locale=None):
    """A number as the locale writes it, through Babel's ``format_decimal``: thousands grouped
    (``2 500`` with a narrow no-break space in Russian, ``2,500`` in English), a fraction to one
    place (``833,3``), a real minus sign. Integers of any size (``10**100``) are exact.
    ``None`` -> ``''``."""
    if n is None:
        return ""
    if isinstance(n, bool):
        n = int(n)
    if isinstance(n, float):
        if n != n or n in (float("inf"), float("-inf")):
            return str(n)
        if n.is_integer():
            n = int(n)
    loc = _locale(locale)
    if isinstance(n, int) and -SMALL < n < SMALL:
        return _small_int(n, loc)
    return _number(n, loc)


#: integers below this (in size) are written once per locale and kept: a screen writes the same
#: few dozen XP and SP values on every tap
SMALL = 100_000


@lru_cache(maxsize=4096)
def _small_int(n, loc):
    return _number(n, loc)


def _number(n, loc):
    locale = _babel_locale(loc)
    with decimal.localcontext() as ctx:
        if isinstance(n, int):
            # Babel rounds through decimal, whose default precision (28 digits) would refuse
            # a bigger integer: give it the digits the number has
            ctx.prec = max(28, len(str(abs(n))) + 2)
            text = format_decimal(n, format="#,##0", locale=locale)
        else:
            text = format_decimal(n, format="#,##0.#", locale=locale)
    if loc == "ru":
        text = text.replace("\xa0", NARROW_NBSP)
    return text.replace("-", MINUS)


@lru_cache(maxsize=64)
def _babel_locale(loc):
    """Babel's ``Locale`` of a language, parsed once (Babel parses a locale's name on every call
    it is given as a text)."""
    return Locale.parse(loc)


def signed(n, locale=None):
    """``+2``, ``−1``, ``0``; ``+1 500`` (grouped like ``number``); ``None`` -> ``''``."""
    if n is None:
        return ""
    if n > 0:
        return "+" + number(n, locale)
    return number(n, locale)


# ----- dates and times -------------------------------------------------------------------------------
#: a locale's date pattern (Babel/CLDR syntax); other locales use Babel's "medium" format
DATE_PATTERNS = {"ru": "dd.MM.yyyy"}


def as_date(value):
    """An ISO date text (``2025-05-17``, or the date part of an ISO date-time) as a ``date``;
    a ``date``/``datetime`` as its date; anything else is returned as it is."""
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value.strip()[:10])
        except ValueError:
            return value
    return value


def format_date(value, locale=None):
    """A date as the locale writes it: ``17.05.2025`` in Russian, ``May 17, 2025`` in English.
    ``value`` is a ``date``, a ``datetime`` or an ISO text; ``None``/empty -> ``''``; a text that
    is not a date is returned as it is."""
    if value is None or value == "":
        return ""
    day = as_date(value)
    if not isinstance(day, date):
        return str(day)
    loc = _locale(locale)
    return babel_format_date(day, format=DATE_PATTERNS.get(loc, "medium"), locale=_babel_locale(loc))


def format_datetime(value, locale=None):
    """``17.05.2025 14:32`` (the date as ``format_date``, then the wall-clock time as given)."""
    if value is None:
        return ""
    if isinstance(value, str):
        moment = parse_time(value)
        if moment is None:
            return value
        value = moment
    return f"{format_date(value, locale)} {value:%H:%M}"


def parse_time(text):
    """A move's ``at`` (ISO 8601) as an aware local ``datetime``, or None."""
    if not text:
        return None
    try:
        moment = datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment.astimezone() if moment.tzinfo else moment


def format_time(text):
    """A move's ``at`` as the local wall-clock time ``14:32``; the text itself if unreadable."""
    moment = parse_time(text)
    if moment is None:
        return text or ""
    return f"{moment:%H:%M}"


# ----- moves taken back ------------------------------------------------------------------------------
#: the kinds of "take back" rows of the move log: the host's undo, the organizer voiding a move
#: that does not replay (repair screen), the organizer reopening a finished table
TAKE_BACK_KINDS = ("undo", "void", "reopen")

_TAKE_BACK = {
    "undo": (N_("undone at {time} by {who}"), N_("undone at {time}"), N_("undone by {who}"), N_("undone")),
    "void": (N_("voided by the organizer at {time} ({who})"), N_("voided by the organizer at {time}"),
             N_("voided by the organizer ({who})"), N_("voided by the organizer")),
    "reopen": (N_("game reopened by the organizer at {time} ({who})"), N_("game reopened by the organizer at {time}"),
               N_("game reopened by the organizer ({who})"), N_("game reopened by the organizer")),
}


def take_back_text(kind, time=None, who=None):
    """How a move was taken back, each kind in its own words: ``ход отменён в 14:32 (Ольга)``,
    ``ход аннулирован организатором``, ``игра возобновлена организатором``."""
    both, at_time, by_whom, bare = _TAKE_BACK.get(kind, _TAKE_BACK["undo"])
    if time and who:
        return _(both, time=time, who=who)
    if time:
        return _(at_time, time=time)
    if who:
        return _(by_whom, who=who)
    return _(bare)
