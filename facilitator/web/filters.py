"""Template filters shared by every screen."""

from decimal import ROUND_HALF_EVEN, Decimal
from functools import lru_cache

from babel.numbers import get_decimal_symbol, get_minus_sign_symbol

from facilitator.i18n import get_locale


@lru_cache(maxsize=None)
def _symbols(locale):
    return get_decimal_symbol(locale), get_minus_sign_symbol(locale)


def decimal_text(value, digits, locale):
    """``value`` with ``digits`` decimals and the locale's decimal mark and minus, no grouping
    (what Babel's ``format_decimal(value, "0.0")`` gives, without its per-call pattern parsing:
    a 1,000-table ranking formats a thousand of them)."""
    point, minus = _symbols(locale)
    quantum = Decimal(1).scaleb(-digits) if digits else Decimal(1)
    text = str(Decimal(str(value)).quantize(quantum, rounding=ROUND_HALF_EVEN))
    if text.startswith("-"):
        text = minus + text[1:]
    return text.replace(".", point)


def register_filters(app):
    @app.template_filter("decimal")
    def decimal(value, digits=1):
        """A number with the current language's decimal mark (1966,7 in Russian, 1966.7 in
        English), without grouping, like every other XP figure on the screens."""
        return decimal_text(value, digits, get_locale())
