"""Template filters shared by every screen."""

from babel.numbers import format_decimal

from ..i18n import get_locale


def register_filters(app):
    @app.template_filter("decimal")
    def decimal(value, digits=1):
        """A number with the current language's decimal mark (1966,7 in Russian, 1966.7 in
        English), without grouping, like every other XP figure on the screens."""
        pattern = "0" + ("." + "0" * digits if digits else "")
        return format_decimal(value, format=pattern, locale=get_locale())
