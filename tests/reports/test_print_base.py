"""The printed sheets have one head: every print template, the app's and every registered game's,
extends ``print/base.html`` (the fonts, the page and its margin boxes, the shared styles, the
watermark), and none writes its own ``@font-face`` or ``@page``. The base's footer, page numbers
and watermark read back from a PDF. The heads every game's sheets share (``print/_heads.html``:
an event's results, a paper protocol) speak the app's own catalogs in every language."""

import re
from io import BytesIO

import pytest
from jinja2 import nodes
from pypdf import PdfReader

from facilitator import games
from facilitator.reports import pdf

#: the toolkit's own pieces, not sheets: the base, a layout extending it, the shared heads' macros
#: (and the included styles)
LAYOUTS = {"print/base.html", "print/certificate_pages.html", "print/_heads.html"}


def print_templates():
    folders = [pdf.TEMPLATES] + [g.templates for g in games.registered() if g.templates]
    found = {}
    for folder in folders:
        for path in sorted((folder / "print").glob("*.html")):
            found[f"print/{path.name}"] = path
    return found


def parent_of(name):
    env = pdf.environment()
    source = env.loader.get_source(env, name)[0]
    extends = list(env.parse(source).find_all(nodes.Extends))
    return extends[0].template.value if extends else None, source


SHEETS = sorted(set(print_templates()) - LAYOUTS)


def test_every_game_prints_sheets():
    assert {"print/protocol.html", "print/alterego_protocol.html", "print/newangeles_protocol.html",
            "print/access_sheet.html"} <= set(SHEETS)


@pytest.mark.parametrize("name", SHEETS)
def test_a_print_template_extends_the_one_base_and_writes_no_head_of_its_own(name):
    chain, current = [], name
    while current != "print/base.html":
        parent, source = parent_of(current)
        assert parent, f"{' -> '.join(chain + [current])} does not extend print/base.html"
        assert not re.search(r"@font-face|@page|<head>|<!doctype", source, re.I), \
            f"{current} writes its own head, fonts or page rules"
        chain.append(current)
        current = parent
        assert len(chain) < 5


def render(body, **context):
    child = ('{% extends "print/base.html" %}' + "".join(f"{{% set {k} = {v!r} %}}" for k, v in context.items())
             + body)
    return pdf.environment().from_string(child).render()


def test_the_base_puts_the_footer_in_the_page_as_a_css_string_and_numbers_the_pages():
    html = render('{% block footer %}Game · "Night" <b>{% endblock %}{% block body %}x{% endblock %}')
    assert r'@bottom-left { content: "Game · \22 Night\22  \3c b\3e "' in html
    assert 'content: counter(page) " / " counter(pages);' in html
    assert '<div class="watermark">' not in html and "<body>" in html


def test_a_sheet_turns_page_numbers_off_and_sets_a_watermark_and_a_class():
    html = render('{% block watermark %}DRAFT{% endblock %}{% block body_class %}final{% endblock %}'
                  '{% block body %}x{% endblock %}', page_numbers=False, orientation="portrait")
    assert "@bottom-left { content: none;" in html and "@bottom-right { content: none;" in html
    assert '<body class="final">\n<div class="watermark">DRAFT</div>' in html
    assert "size: A4 portrait;" in html and "margin: 13mm 13mm 15mm 13mm;" in html


def test_the_footer_and_page_numbers_read_back_from_the_pdf():
    html = render('{% block footer %}Tournament · table 3{% endblock %}'
                  '{% block body %}<p>one</p><p style="break-before: page">two</p>{% endblock %}')
    reader = PdfReader(BytesIO(pdf.html_to_pdf(html)))
    pages = [re.sub(r"\s+", " ", page.extract_text()) for page in reader.pages]
    assert len(pages) == 2
    for number, text in enumerate(pages, 1):
        assert "Tournament · table 3" in text and f"{number} / 2" in text
    assert reader.pages[0].mediabox.width > reader.pages[0].mediabox.height  # landscape by default


def test_the_shared_heads_speak_the_apps_own_catalogs_in_every_language():
    """A game's sheet passes its own words to a head; the head's words are the app's, translated
    in ``facilitator/translations/<locale>/`` (English: the msgids), so they print in every
    language whichever games are installed."""
    from pathlib import Path

    from babel.messages.extract import extract_from_file
    from babel.messages.pofile import read_po

    from facilitator import i18n
    keywords = {"_": None, "gettext": None, "ngettext": (1, 2)}
    found = [message for _line, message, _c, _x in extract_from_file(
        "jinja2.ext.babel_extract", str(pdf.TEMPLATES / "print" / "_heads.html"), keywords=keywords,
        options={"extensions": "jinja2.ext.i18n"})]
    assert {"Results", "Made at", "Host", "Provisional: still playing: {tables}."} <= set(found)
    folder = Path(i18n.__file__).parent / "translations"
    for locale in set(i18n.ALL_LOCALES) - {"en"}:
        own = {}
        for path in sorted((folder / locale).glob("*.po")):
            with path.open("rb") as fh:
                own.update({m.id: m.string for m in read_po(fh, locale=locale) if m.id and m.string})
        missing = [message for message in found if message not in own]
        assert not missing, f"{locale}: not in facilitator/translations/{locale}/: {missing}"
        assert own["Provisional: still playing: {tables}."].count("{tables}") == 1
