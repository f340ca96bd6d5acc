"""The access sheet (facilitator/reports/access.py): a card per table with its name, host, PIN,
host link and QR code, read back from the PDF with pypdf."""

import re
from io import BytesIO

import pytest
from pypdf import PdfReader

from facilitator.reports.access import access_sheet_pdf

PIN_URL = "http://192.168.10.20:5000/pin"


def cards(count):
    return [{"name": f"Стол {i + 1}", "host": f"Ведущая {i + 1}" if i % 3 else "", "pin": f"{(i * 7919) % 10 ** 6:06d}",
             "url": f"http://192.168.10.20:5000/t/{i:03d}Tok3n-{'x' * 20}_{i * 31:05d}"} for i in range(count)]


def pages_text(data):
    reader = PdfReader(BytesIO(data))
    return reader, [re.sub(r"\s+", " ", page.extract_text()) for page in reader.pages]


def squeezed(text):
    """Text without any whitespace: a long link wraps inside its card."""
    return re.sub(r"\s+", "", text)


@pytest.fixture(scope="module")
def twenty():
    items = cards(20)
    return items, access_sheet_pdf("Турнир лицея", "2025-05-17", items, PIN_URL, locale="ru")


def test_every_table_reads_back_with_its_name_pin_and_full_link(twenty):
    items, data = twenty
    _reader, pages = pages_text(data)
    text = " ".join(pages)
    for card in items:
        assert re.search(rf"{card['name']}(?!\d)", text), card["name"]
        assert card["pin"] in text.replace(" ", ""), card["pin"]
        assert card["url"] in squeezed(text), card["url"]
        if card["host"]:
            assert card["host"] in text


def test_twenty_tables_take_two_or_three_a4_pages(twenty):
    reader, _pages = pages_text(twenty[1])
    assert 2 <= len(reader.pages) <= 3
    width, height = float(reader.pages[0].mediabox.width), float(reader.pages[0].mediabox.height)
    assert (round(width), round(height)) == (595, 842)  # A4 portrait


def test_each_card_lies_on_one_page(twenty):
    items, data = twenty
    _reader, pages = pages_text(data)
    for card in items:
        holding = [i for i, page in enumerate(pages) if re.search(rf"{card['name']}(?!\d)", page)]
        assert len(holding) == 1, card["name"]
        page = pages[holding[0]]
        assert card["pin"] in page.replace(" ", "") and card["url"] in squeezed(page), card["name"]


def test_the_title_the_date_and_the_pin_page_open_the_first_page_with_cards(twenty):
    _reader, pages = pages_text(twenty[1])
    first = pages[0]
    assert "Турнир лицея · 17.05.2025" in first
    assert PIN_URL in squeezed(first)
    assert "Стол 1" in first  # the title is not on a page of its own


def test_every_card_has_its_qr_code(twenty):
    reader, _pages = pages_text(twenty[1])
    # the pages may share one resource dictionary: count distinct images
    images = {image.data for page in reader.pages for image in page.images}
    assert len(images) == 20


def test_in_english():
    _reader, pages = pages_text(access_sheet_pdf("Lyceum cup", "2025-05-17", cards(3), PIN_URL, locale="en"))
    assert "Lyceum cup · May 17, 2025" in pages[0] and "Keep this sheet away from the players." in pages[0]


def test_an_event_without_tables_or_date():
    _reader, pages = pages_text(access_sheet_pdf("Турнир", None, [], PIN_URL, locale="ru"))
    assert "Столов пока нет." in pages[0] and "Турнир" in pages[0]


def test_sixty_tables_fit_on_seven_pages():
    """(How fast: ``benchmarks/bench_reports.py``, the access sheet.)"""
    data = access_sheet_pdf("Турнир лицея", "2025-05-17", cards(60), PIN_URL, locale="ru")
    reader, _pages = pages_text(data)
    assert len(reader.pages) <= 7
