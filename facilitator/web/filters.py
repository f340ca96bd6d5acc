"""Template filters and globals shared by every screen."""

from ..i18n import gettext as _


def register_filters(app):
    @app.template_filter("signed")
    def signed(n):
        return f"+{n}" if n and n > 0 else str(n)

    @app.template_filter("xp")
    def xp(n):
        return f"{int(n):,}".replace(",", "\u202f")

    app.jinja_env.globals["move_name"] = lambda t: _(t)
