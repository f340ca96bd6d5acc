"""Every text of the protocol workbooks and printed sheets, and every word of the game in
``facilitator/words.py`` (shared with the screens), has a Russian translation with the
placeholders the code fills in: in facilitator/translations/ru/reports.po, or, for the words
the screens said first, in web.po (the catalogs of a locale are merged).

The msgids are extracted the way a translator's tool does it (Babel's Python and Jinja2
extractors, with ``N_`` marking ids defined in one place and translated where shown)."""

import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

from facilitator import i18n

ROOT = Path(__file__).resolve().parents[2]
KEYWORDS = {"_": None, "gettext": None, "N_": None, "ngettext": (1, 2)}
CATALOG = ROOT / "facilitator" / "games" / "lyceum" / "translations" / "ru" / "reports.po"


def extract():
    found = {}
    lyceum = ROOT / "facilitator" / "games" / "lyceum"
    for path in (sorted((ROOT / "facilitator" / "reports").glob("*.py")) + [ROOT / "facilitator" / "formatting.py"]
                 + [lyceum / f"{name}.py" for name in ("words", "protocol", "workbook", "event", "pdf", "reports", "chart", "seat")]):
        for lineno, message, _c, _x in extract_from_file("python", str(path), keywords=KEYWORDS):
            found.setdefault(message, f"{path.relative_to(ROOT)}:{lineno}")
    for path in sorted((ROOT / "facilitator" / "templates" / "print").glob("*.html")) + sorted(
            (ROOT / "facilitator" / "games" / "lyceum" / "templates" / "print").glob("*.html")):
        for lineno, message, _c, _x in extract_from_file("jinja2.ext.babel_extract", str(path), keywords=KEYWORDS,
                                                       options={"extensions": "jinja2.ext.i18n"}):
            found.setdefault(message, f"{path.relative_to(ROOT)}:{lineno}")
    return found


MESSAGES = extract()


def fields(text):
    return {name for _literal, name, _spec, _conv in string.Formatter().parse(text) if name is not None}


def test_the_extraction_finds_code_templates_and_marked_headers():
    assert "Card drawn and deferred" in MESSAGES          # words.py
    assert "voided by the organizer" in MESSAGES          # words.py, marked with N_
    assert "Deferred until round" in MESSAGES             # a log header marked with N_
    assert "Certificate" in MESSAGES                      # certificates.html
    assert "XP by round" in MESSAGES                      # chart.py
    assert len(MESSAGES) > 150


def russian_forms(message):
    """The Russian text(s) of a msgid, or of a plural ``(singular, plural)`` pair (all three
    Russian forms, as ``gettext`` stores them); None when any is missing."""
    catalog = i18n.translations("ru")._catalog
    if isinstance(message, tuple):
        forms = [catalog.get((message[0], n)) for n in range(3)]
        return None if None in forms else forms
    text = catalog.get(message)
    return [text] if text else None


@pytest.mark.parametrize("message", sorted(MESSAGES, key=str), ids=str)
def test_every_report_text_has_a_russian_translation_with_the_same_fields(message):
    forms = russian_forms(message)
    assert forms and all(forms), f"{MESSAGES[message]}: no Russian translation of {message!r}"
    wanted = set().union(*(fields(m) for m in (message if isinstance(message, tuple) else (message,))))
    for russian in forms:
        assert fields(russian) <= wanted and (isinstance(message, tuple) or fields(russian) == wanted), \
            f"{MESSAGES[message]}: {message!r} -> {russian!r}"


def test_the_reports_catalog_has_no_stale_entries():
    """An entry nobody uses any more is a translation nobody checks."""
    with CATALOG.open("rb") as fh:
        catalog = read_po(fh, locale="ru")
    stale = [m.id for m in catalog if m.id and (m.id if isinstance(m.id, str) else tuple(m.id)) not in MESSAGES]
    assert not stale, stale
