"""Template filters and globals shared by every screen."""

from ..i18n import gettext as _


def register_filters(app):
    @app.template_filter("signed")
    def signed(n):
        return f"+{n}" if n and n > 0 else str(n)

    @app.template_filter("xp")
    def xp(n):
        return f"{int(n):,}".replace(",", "\u202f")

    @app.template_filter("decimal")
    def decimal(value, digits=1):
        """A number with the current language's decimal mark (1966,7 in Russian, 1966.7 in
        English), without grouping, like every other XP figure on the screens."""
        from babel.numbers import format_decimal

        from ..i18n import get_locale
        pattern = "0" + ("." + "0" * digits if digits else "")
        return format_decimal(value, format=pattern, locale=get_locale())

    app.jinja_env.globals["move_name"] = lambda t: _(t)
