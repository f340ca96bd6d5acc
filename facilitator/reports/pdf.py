"""The printing toolkit: HTML print templates rendered to PDF by WeasyPrint, for every game.

The templates ask for "DejaVu Sans", shipped with the app in ``static/fonts`` (it has
Cyrillic), with common fallbacks; WeasyPrint embeds the subset of the font it uses, so the PDF
shows the same everywhere. Templates are found inside the package, as the web app finds its
own: the shared ``facilitator/templates/print/`` and each game's ``templates/print/``. Every
sheet extends the one print head, ``print/base.html`` (fonts, page and margin boxes, running
footer, page numbers, watermark, shared styles: ``_print.css``, or ``_protocol.css`` for a
table's protocol); certificates extend ``print/certificate_pages.html``.
"""

from datetime import datetime
from functools import lru_cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

import facilitator
from facilitator import formatting
from facilitator.i18n import get_locale, install_jinja
from facilitator.rules import registry

TEMPLATES = Path(facilitator.__file__).resolve().parent / "templates"
PRINT = TEMPLATES / "print"
FONTS = (TEMPLATES.parent / "static" / "fonts").as_uri()  # DejaVu Sans, shipped with the app


def css_string(text):
    """``text`` as a CSS string literal (quotes, backslashes, line ends and ``<`` escaped), for
    a page-margin box's ``content``."""
    out = []
    for ch in (text.unescape() if isinstance(text, Markup) else str(text)):
        if ch in '"\\<>\n\r' or ord(ch) < 0x20:
            out.append(f"\\{ord(ch):x} ")
        else:
            out.append(ch)
    return Markup('"' + "".join(out) + '"')


@lru_cache(maxsize=1)
def environment():
    """The Jinja environment of the print templates (translations follow the current locale):
    the app's shared ones (``facilitator/templates/print/``) and every registered game's
    (``games/<game>/templates/print/``), with each game's own filters and globals."""
    from facilitator import games
    folders = [str(TEMPLATES)] + [str(g.templates) for g in games.registered() if g.templates]
    env = Environment(loader=FileSystemLoader(folders), autoescape=select_autoescape(["html"]),
                      trim_blocks=True, lstrip_blocks=True)
    install_jinja(env)
    env.filters.update(number=formatting.number, signed=formatting.signed, date=formatting.format_date,
                       datetime=formatting.format_datetime, time=formatting.format_time, css_string=css_string)
    env.globals.update(get_locale=get_locale, FONTS=FONTS)
    for game in games.registered():
        extra = game.print_globals()
        env.filters.update(extra.get("filters", {}))
        env.globals.update(extra.get("globals", {}))
    return env


@registry.on_change
def _games_changed():
    environment.cache_clear()  # a game installed or removed: its print templates and filters with it


def render_html(template, **context):
    """A print template rendered to HTML text (also handy for looking at a layout in a browser)."""
    return environment().get_template(f"print/{template}").render(**context)


def html_to_pdf(html):
    from weasyprint import HTML  # imported on first use: it takes a moment to load
    return HTML(string=html, base_url=str(PRINT)).write_pdf()


def lines_that_fit(lines, rows, row_chars):
    """How many of the latest ``lines`` fit in ``rows`` rows of about ``row_chars`` characters (a
    long line takes more rows): a one-page sheet's list of moves, the newest kept."""
    used = 0
    for n, line in enumerate(reversed(lines)):
        used += -(-len(line) // row_chars)
        if used > rows:
            return n
    return len(lines)


def _now(now):
    return now or datetime.now().astimezone()
