"""The protocol of a New Angeles table (issue 13, 4): a workbook (openpyxl, with line charts of
capital and threat by round) and a PDF (WeasyPrint, with SVG charts of a bounded number of
gridlines), read back; before the reveal neither shows a rival, not even one sealed at setup."""

import io
import re
import zipfile

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from facilitator.i18n import use_locale
from facilitator.games.newangeles.words import (build_protocol, capital_chart_svg, table_protocol_pdf,
                                            table_protocol_xlsx)
from facilitator.rules.newangeles import read_record, replay
from tests.newangeles_web.helpers import example, record, seated

import conftest as root  # tests/conftest.py: how a fresh database is made


@pytest.fixture
def db_url(tmp_path, tmp_path_factory):
    """SQLite only: nothing here is about the storage (the protocol's workbook and PDF laid out)."""
    return root.sqlite_database(tmp_path, tmp_path_factory)


def game_of(name, upto=None):
    data = example(name)
    if upto is not None:
        data["moves"] = data["moves"][:upto]
    return replay(read_record(data))


def pdf_text(data):
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def workbook_text(data):
    wb = load_workbook(io.BytesIO(data))
    return wb, "\n".join(str(c.value) for ws in wb.worksheets for row in ws.iter_rows() for c in row
                         if c.value is not None)


@pytest.fixture(scope="module")
def finished_files():
    game = game_of("example_rounds.json")
    with use_locale("en"):
        return game, table_protocol_xlsx(game, event="Club night", event_date="2025-05-17"), \
            table_protocol_pdf(game, event="Club night", event_date="2025-05-17")


def test_the_workbook_holds_every_part_and_two_charts(finished_files):
    game, xlsx, _pdf = finished_files
    wb, text = workbook_text(xlsx)
    assert wb.sheetnames == ["Setup", "Deals", "Rounds", "Demand", "Log", "Result"]
    rounds = wb["Rounds"]
    assert len(rounds._charts) == 2  # openpyxl reads the charts back
    names = [rounds.cell(row=4, column=c).value for c in range(1, 7)]
    assert names == ["Round", "Anna", "Boris", "Vera", "Dmitri", "Threat"]
    assert [rounds.cell(row=r, column=1).value for r in range(5, 15)] == \
        ["start", "S1", "S2", "D1", "S3", "S4", "D2", "S5", "S6", "D3"]
    assert rounds.cell(row=14, column=2).value == 31 and rounds.cell(row=14, column=6).value == 22
    with zipfile.ZipFile(io.BytesIO(xlsx)) as z:
        charts = [n for n in z.namelist() if n.startswith("xl/charts/chart")]
        assert len(charts) == 2 and b"lineChart" in z.read(charts[0])
    deals = wb["Deals"]
    assert deals.max_row - 4 == len(game.deals)
    assert "Winner: Anna" in text and "own corporation: more capital than 1 of 3 others (2 needed)" in text
    assert "Federalist" in text


def test_the_pdf_reads_back(finished_files):
    _game, _xlsx, pdf = finished_files
    text = pdf_text(pdf)
    for words in ("Club night", "Winner: Anna", "Capital by round", "Threat by round", "Deals", "Move log",
                  "Demand rounds", "Anna", "Dmitri"):
        assert words in text, words
    assert len(PdfReader(io.BytesIO(pdf)).pages) <= 4


def test_before_the_reveal_no_rival_is_printed_even_sealed_at_setup():
    game = game_of("example_rounds.json", upto=-1)  # every move but finish; Boris and Dmitri sealed at setup
    assert game.ended and not game.finished and game.setup.sealed_rivals()
    with use_locale("en"):
        xlsx = table_protocol_xlsx(game)
        pdf = table_protocol_pdf(game)
    for text in (workbook_text(xlsx)[1], pdf_text(pdf)):
        text = " ".join(text.split())
        assert "Federalist" not in text and "federalist" not in text
        assert "Rival card" not in text.replace("Rival cards sealed at setup", "")
        assert "Rival cards sealed at setup" in text
        assert "provisional" in text.lower()


def test_the_chart_keeps_few_gridlines_whatever_the_capital(app, client):
    table_id = seated(app, client)
    record(app, table_id, {"type": "capital", "player": "Anna", "amount": 999_999, "reason": "other"},
           {"type": "capital", "player": "Boris", "amount": -10, "reason": "other"})
    from tests.newangeles_web.helpers import load
    game = load(app, table_id).game
    with use_locale("en"):
        svg = capital_chart_svg(build_protocol(game))
    grid = re.search(r'class="grid" d="([^"]*)"', svg).group(1)
    assert 2 <= grid.count("M") <= 11
    assert "1,000,000" in svg or "1,000,010" in svg or "×10" in svg


def test_the_table_s_protocol_downloads(app, client):
    table_id = seated(app, client, rivals={"Vera": "federalist"})
    record(app, table_id, {"type": "deal", "active": "Anna", "asset": "A05", "main": {"card": "Biotech: Drive"},
                           "counteroffers": [{"player": "Boris", "card": "Media: Ads"}],
                           "support": [{"player": "Vera", "offer": "counter", "cards": 2}]})
    for kind, head in (("protocol.xlsx", b"PK"), ("protocol.pdf", b"%PDF")):
        response = client.get(f"/table/{table_id}/{kind}")
        assert response.status_code == 200, kind
        assert response.data.startswith(head)
        text = pdf_text(response.data) if kind.endswith("pdf") else workbook_text(response.data)[1]
        assert "Boris" in text and "federalist" not in text.lower()
