"""The XP chart of the printed protocol (facilitator/reports/chart.py): its gridlines stay few
and readable whatever the XP, from an empty game to a host's correction of 10^100 XP."""

import xml.etree.ElementTree as ET
from datetime import datetime, timezone
from io import BytesIO

import pytest
from pypdf import PdfReader

from facilitator.i18n import use_locale
from facilitator.games.lyceum.chart import xp_chart_svg
from facilitator.reports.chart import axis, nice_step, tick_label
from facilitator.games.lyceum.pdf import table_protocol_pdf
from facilitator.games.lyceum.protocol import build_protocol

from .conftest import game_of, record_data

NOW = datetime(2025, 5, 17, 12, 0, tzinfo=timezone.utc)
SVG = "{http://www.w3.org/2000/svg}"


def gridlines(svg):
    """The XP values the chart draws a gridline for, as its labels say them."""
    root = ET.fromstring(svg)
    path = next(p for p in root.iter(f"{SVG}path") if p.get("class") == "grid")
    labels = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "tick"]
    assert path.get("d").count("M") == len(labels)
    return labels


def corrected(game, xp):
    """The hand-made game's protocol as if a host's correction had given Аня ``xp`` XP in round 4
    (set on the built protocol: the engine may cap a single correction, but XP can add up)."""
    with use_locale("ru"):
        protocol = build_protocol(game, now=NOW)
    anya = next(row for row in protocol.grid if row.name == "Аня")
    for cell in anya.cells[3:]:
        cell.xp += xp
    return protocol


@pytest.mark.parametrize("xp", [10 ** 8, 10 ** 9, 10 ** 100], ids=["1e8", "1e9", "1e100"])
def test_a_huge_correction_draws_a_few_gridlines_at_once(game, xp):
    """(How fast: ``benchmarks/bench_reports.py``, a correction of 10^100 XP.)"""
    protocol = corrected(game, xp)
    with use_locale("ru"):
        svg = xp_chart_svg(protocol)
    lines = gridlines(svg)
    assert 3 <= len(lines) <= 12
    assert all(len(label) <= 12 for label in lines), lines  # 1,2×10¹⁰⁰, never a hundred digits


@pytest.mark.parametrize("xp", [-(10 ** 9), -1000])
def test_negative_xp_gets_gridlines_below_zero(game, xp):
    protocol = corrected(game, xp)
    with use_locale("ru"):
        lines = gridlines(xp_chart_svg(protocol))
    assert lines[0].startswith("\u2212") and "0" in lines and len(lines) <= 12


def test_a_protocol_with_a_correction_of_ten_to_the_hundred_prints(game):
    protocol = corrected(game, 10 ** 100)
    with use_locale("ru"):
        data = table_protocol_pdf(protocol)
    text = "\n".join(page.extract_text() for page in PdfReader(BytesIO(data)).pages)
    assert "×10" in text and "Аня" in text


def test_a_normal_game_keeps_steps_of_a_hundred_xp(game):
    with use_locale("ru"):
        lines = gridlines(xp_chart_svg(build_protocol(game, now=NOW)))
    assert lines == ["0", "100", "200", "300", "400", "500", "600", "700", "800", "900"]


def test_a_game_without_moves_still_has_a_readable_scale():
    with use_locale("ru"):
        lines = gridlines(xp_chart_svg(build_protocol(game_of(record_data(moves=[])), now=NOW)))
    assert lines == ["0", "100", "200", "300", "400", "500", "600"]


@pytest.mark.parametrize("values", [[0], [0, 2300], [-300, 200], [-10 ** 9, 5], [0, 10 ** 100 + 800],
                                    [-(10 ** 100), 10 ** 100], [7 * 10 ** 55]])
def test_the_axis_covers_every_value_with_at_most_ten_gridlines(values):
    low, high, step = axis(values)
    assert low <= min(values + [0]) and max(values) < high and low <= 0 <= high
    assert (high - low) % step == 0 and (high - low) // step + 1 <= 10
    assert str(step).strip("0") in ("1", "2", "5")


@pytest.mark.parametrize("span, step", [(1, 1), (500, 100), (800, 100), (2300, 500), (10 ** 8, 2 * 10 ** 7),
                                        (10 ** 100, 2 * 10 ** 99)])
def test_nice_steps(span, step):
    assert nice_step(span) == step


@pytest.mark.parametrize("value, label", [(2500, "2\u202f500"), (1_200_000_000, "1,2×10⁹"), (10 ** 100, "1×10¹⁰⁰"),
                                          (10 ** 100 + 800, "≈1×10¹⁰⁰"), (-(2 * 10 ** 9), "\u22122×10⁹")])
def test_long_numbers_are_labelled_compactly(value, label):
    with use_locale("ru"):
        assert tick_label(value) == label
