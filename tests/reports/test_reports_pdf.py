"""The printed sheets (WeasyPrint PDFs), read back with pypdf: names, numbers and Russian headings
are there, fonts with Cyrillic are embedded, pages are A4 landscape, and a page rendered to an
image (pdftoppm) is not blank."""

import re
import shutil
import subprocess
from datetime import datetime, timezone
from io import BytesIO

import pytest
from pypdf import PdfReader

from facilitator.i18n import use_locale
from facilitator.games.lyceum.chart import xp_chart_svg
from facilitator.rules.lyceum.ruleset import sample_pack
from facilitator.games.lyceum.pdf import (blank_protocol_pdf, certificates_pdf, event_results_pdf,
                                     render_protocol_pdf_from_record, table_protocol_pdf)
from facilitator.games.lyceum.protocol import UndoneMove, build_protocol, undone_as_json
from facilitator.rules.lyceum import Move
from facilitator.rules.lyceum.simulate import random_game

from .conftest import MOVES, game_of, record_data

NOW = datetime(2025, 5, 17, 12, 0, tzinfo=timezone.utc)
A4 = (841.89, 595.28)  # points, landscape


def read(data):
    assert data.startswith(b"%PDF-")
    return PdfReader(BytesIO(data))


def text_of(reader):
    """All text, with any run of spaces (the thin spaces grouping thousands too) as one space."""
    return re.sub(r"\s+", " ", " ".join(page.extract_text() for page in reader.pages))


def has_number(text, n):
    """``2 500`` is printed with a narrow no-break space between the groups."""
    groups = f"{n:,}".split(",")
    return re.search(r"(?<!\d)" + r"\s?".join(groups) + r"(?!\d)", text) is not None


@pytest.fixture(scope="module")
def protocol_bytes(game):
    """The finished game's protocol in Russian, of an event with its date (laid out once for the
    tests reading it: a protocol takes WeasyPrint a second or two)."""
    with use_locale("ru"):
        return table_protocol_pdf(game, event="Турнир лицея", event_date="2025-05-17", now=NOW)


@pytest.fixture(scope="module")
def protocol_pdf(protocol_bytes):
    return read(protocol_bytes)


@pytest.fixture(scope="module")
def protocol_text(protocol_pdf):
    return text_of(protocol_pdf)


@pytest.fixture(scope="module")
def event_games(game):
    return [game, game_of(record_data(table="Стол 2", moves=MOVES[:22]))]


# ----- the table protocol --------------------------------------------------------------------------
@pytest.mark.parametrize("heading", ["Протокол игры «16/25»", "Подготовка", "Итоги", "По раундам", "Журнал",
                                     "Отложенные карты", "Спецвозможности красных карт", "Поправки ведущего",
                                     "Итого за стол", "Очерёдность ходов", "Окончательный: игра окончена."])
def test_protocol_has_its_russian_headings(protocol_text, heading):
    assert heading.casefold() in protocol_text.casefold()  # the kicker line is set in capitals


def test_protocol_names_the_players_cards_and_event(protocol_text):
    for word in ("Аня", "Борис", "Вика", "Маша", "L-R-02", "Благотворительный концерт", "Турнир лицея",
                 "Каждый другой игрок получает +1 SP здоровья", "спецвозможность L-R-02"):
        assert word in protocol_text, word


def test_protocol_prints_the_numbers(protocol_text):
    assert has_number(protocol_text, 2500)   # table total
    assert has_number(protocol_text, 1100)   # Аня's final XP
    assert has_number(protocol_text, 833)    # the average, 833,3
    assert "+300" in protocol_text           # Аня's bonus
    assert "Борис → Вика → Аня" in protocol_text


def test_protocol_pages_are_a4_landscape(protocol_pdf):
    assert 2 <= len(protocol_pdf.pages) <= 3
    for page in protocol_pdf.pages:
        box = page.mediabox
        assert (float(box.width), float(box.height)) == pytest.approx(A4, abs=1)


def test_fonts_with_cyrillic_are_embedded(protocol_pdf):
    fonts = {}
    for page in protocol_pdf.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"] \
                if "/DescendantFonts" in font else font.get("/FontDescriptor")
            fonts[str(font["/BaseFont"])] = descriptor is not None and any(
                k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))
    assert any("DejaVu" in name for name in fonts), fonts
    assert all(fonts.values()), f"fonts not embedded: {fonts}"


def test_the_chart_draws_a_line_per_player(game):
    import xml.etree.ElementTree as ET
    with use_locale("ru"):
        svg = xp_chart_svg(build_protocol(game, now=NOW))
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    lines = list(root.iter(f"{ns}polyline"))
    assert len(lines) == 3
    # Аня's line: start, then rounds 1..10 -> 11 points, ending at 800 XP (the highest value)
    points = [tuple(map(float, p.split(","))) for p in lines[2].get("points").split()]
    assert len(points) == 11
    labels = " ".join(t.text or "" for t in root.iter(f"{ns}text"))
    assert "Лицей" in labels and "Универ" in labels and "старт" in labels


def test_a_provisional_protocol_is_marked(midgame):
    with use_locale("ru"):
        text = text_of(read(table_protocol_pdf(midgame, now=NOW)))
    assert "ПРЕДВАРИТЕЛЬНЫЙ" in text
    assert "Предварительный: идёт раунд 4" in text
    assert "Окончательный" not in text


def test_protocol_in_english(undone_protocols):
    text = undone_protocols["en"]
    assert "GAME PROTOCOL «16/25»" in text and "Table total" in text and "Аня" in text


def test_a_finished_four_player_table_prints_on_two_or_three_pages():
    """A whole game of four players (some 65 moves): setup, results and chart on the first page,
    the rounds and the log (two columns) after; the protocol used to take six pages."""
    game = random_game(sample_pack(), seed=1, players=4, table="Стол 1")[1]
    assert game.finished and len(game.history) > 60
    with use_locale("ru"):
        reader = read(table_protocol_pdf(game, event="Турнир лицея", now=NOW))
    assert 2 <= len(reader.pages) <= 3
    text = text_of(reader)
    assert all(f" {n} " in text for n in range(1, len(game.history) + 1))  # every move's number
    assert "Журнал" in text and "Отложенные карты" in text


def test_the_header_prints_the_events_date_the_russian_way(protocol_text):
    assert "Турнир лицея, 17.05.2025" in protocol_text
    assert "14.03.2009" in protocol_text  # Аня's birth date
    assert "2025-05-17" not in protocol_text and "2009-03-14" not in protocol_text


@pytest.fixture(scope="module")
def undone_protocols(game):
    """The game's protocol text in Russian and in English, its log holding a move undone by the
    host, one voided and a finish reopened by the organizer (each laid out once for the module)."""
    undone = [UndoneMove(Move("pass", player="Борис"), None, "Ведущий", after=0),
              UndoneMove(Move("adjust", player="Вика", xp=100, reason="ошибка"), None, "Ольга", after=20, kind="void"),
              UndoneMove(Move("finish"), None, "Ольга", after=42, kind="reopen")]
    texts = {}
    for lang in ("ru", "en"):
        with use_locale(lang):
            texts[lang] = text_of(read(table_protocol_pdf(game, undone=undone, now=NOW)))
    return texts


def test_the_log_words_undone_voided_and_reopened_moves_apart(undone_protocols):
    text = undone_protocols["ru"]
    assert "ход отменён (Ведущий)" in text
    assert "ход аннулирован организатором (Ольга)" in text
    assert "игра возобновлена организатором (Ольга)" in text
    text = undone_protocols["en"]
    assert "voided by the organizer (Ольга)" in text and "game reopened by the organizer (Ольга)" in text


def test_the_protocol_renders_from_plain_json_inputs_with_the_same_text(game):
    """``render_protocol_pdf_from_record`` takes only JSON-able values (for a worker process)
    and prints what ``table_protocol_pdf`` prints for the same game."""
    import json
    import pickle
    from facilitator.rules.lyceum import read_record
    undone = [UndoneMove(Move("pass", player="Борис"), "2025-05-17T10:01:00+00:00", "Ведущий", after=0),
              (Move("adjust", player="Вика", xp=100, reason="ошибка"), SimpleRow("void", "Ольга"))]
    record = record_data()
    args = dict(undone=undone_as_json(undone), event="Турнир лицея", locale="en", event_date="2025-05-17",
                now=NOW.isoformat())
    assert json.loads(json.dumps([record, args])) == [record, args]  # plain JSON, so it pickles too
    pickle.dumps((render_protocol_pdf_from_record, record, args))
    separate = render_protocol_pdf_from_record(record, **args)
    with use_locale("en"):
        direct = table_protocol_pdf(game_of(record), undone=undone, event="Турнир лицея", event_date="2025-05-17",
                                    now=NOW)
    assert text_of(read(separate)) == text_of(read(direct))
    assert "voided by the organizer" in text_of(read(separate))
    assert read_record(record).table == "Стол 1"


class SimpleRow:
    """A storage "take back" row as ``LoadedTable.undone_moves()`` pairs it with the move."""

    def __init__(self, kind, author, created_at=None, seq=None, undoes=None):
        self.kind, self.author, self.created_at, self.seq, self.undoes = kind, author, created_at, seq, undoes


# ----- the event results -------------------------------------------------------------------------------
def test_event_results_name_the_rule_the_teams_and_the_players(event_games):
    with use_locale("ru"):
        reader = read(event_results_pdf(event_games, event="Турнир лицея", now=NOW))
    text = text_of(reader)
    text = text.casefold()
    for word in ("Итоги мероприятия «16/25»", "Турнир лицея", "Командный зачёт", "Личный зачёт",
                 "столы ранжируются по сумме итогового опыта", "Стол 1", "Стол 2", "Аня", "Борис", "Вика",
                 "Предварительные: ещё играют: Стол 2."):
        assert word.casefold() in text, word
    assert has_number(text, 2500) and has_number(text, 1100)
    width, height = (float(v) for v in (reader.pages[0].mediabox.width, reader.pages[0].mediabox.height))
    assert width < height  # portrait, for the organizer's folder


# ----- the blank protocol ----------------------------------------------------------------------------------
def test_blank_protocol_has_the_names_and_setup_filled_in(game):
    with use_locale("ru"):
        text = text_of(read(blank_protocol_pdf("Стол 1", game.setup, pack=game.pack, event="Турнир лицея")))
    text = text.casefold()
    for word in ("Бумажный протокол «16/25»", "Стол 1", "Аня", "Борис", "Вика", "Маша", "14.03.2009",
                 "Отложенные карты", "Итого за стол", "Памятка"):
        assert word.casefold() in text, word


def test_blank_protocol_from_names_only():
    with use_locale("ru"):
        reader = read(blank_protocol_pdf("", ["Гоша", "Дина", "Егор", "Женя"]))
    text = text_of(reader)
    assert all(name in text for name in ("Гоша", "Дина", "Егор", "Женя"))
    assert len(reader.pages) == 2


# ----- certificates ----------------------------------------------------------------------------------------
def test_one_certificate_per_table_winner_and_for_the_winning_table(game):
    twin = game_of(record_data(table="Стол 2"))
    with use_locale("ru"):
        reader = read(certificates_pdf([game, twin], event="Турнир лицея", now=NOW))
    # Аня wins each table; the two tables tie for first place: 2 + 2 pages
    assert len(reader.pages) == 4
    pages = [re.sub(r"\s+", " ", p.extract_text()) for p in reader.pages]
    assert all("Диплом".upper() in p.upper() for p in pages)
    assert "Аня" in pages[0] and "за первое место за столом «Стол 1»" in pages[0]
    assert "Аня" in pages[1] and "«Стол 2»" in pages[1]
    assert "награждается команда" in pages[2] and "командном зачёте" in pages[2]
    assert "Борис" in pages[2]  # the team's members are named


def test_certificates_print_the_events_date_not_todays(game):
    with use_locale("ru"):
        text = text_of(read(certificates_pdf([game], event="Турнир лицея", event_date="2025-05-17",
                                             now=datetime(2026, 1, 2, 9, 0, tzinfo=timezone.utc))))
    assert "17.05.2025" in text
    assert "02.01.2026" not in text and "2026" not in text
    with use_locale("en"):
        text = text_of(read(certificates_pdf([game], event_date="2025-05-17", now=NOW)))
    assert "May 17, 2025" in text


def test_a_certificate_without_an_event_date_prints_no_date(game):
    with use_locale("ru"):
        text = text_of(read(certificates_pdf([game], now=datetime(2026, 1, 2, 9, 0, tzinfo=timezone.utc))))
    assert "2026" not in text


def test_results_and_the_blank_protocol_print_the_events_date(game, event_games):
    with use_locale("ru"):
        results = text_of(read(event_results_pdf(event_games, event="Турнир лицея", event_date="2025-05-17",
                                                 now=NOW)))
        blank = text_of(read(blank_protocol_pdf("Стол 1", game.setup, pack=game.pack, event_date="2025-05-17")))
    assert "17.05.2025" in results and "17.05.2025 12:00" in results  # the day, and when it was made
    assert "17.05.2025" in blank


def test_a_single_table_gets_no_team_certificate(game):
    with use_locale("ru"):
        reader = read(certificates_pdf([game], now=NOW))
    assert len(reader.pages) == 1


# ----- a page as an image --------------------------------------------------------------------------------
def ink_fraction(pgm):
    """The share of pixels darker than near-white in a binary PGM (P5) image."""
    match = re.match(rb"P5\s+(\d+)\s+(\d+)\s+(\d+)\s", pgm)
    assert match, "not a PGM image"
    width, height = int(match.group(1)), int(match.group(2))
    pixels = pgm[match.end():match.end() + width * height]
    return sum(1 for value in pixels if value < 200) / len(pixels)


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")
def test_a_page_rendered_to_an_image_is_not_blank(protocol_bytes, tmp_path):
    pdf = tmp_path / "protocol.pdf"
    pdf.write_bytes(protocol_bytes)
    subprocess.run(["pdftoppm", "-f", "2", "-l", "2", "-r", "40", "-gray", "-singlefile", str(pdf),
                    str(tmp_path / "page")], check=True, timeout=60)
    pgm = (tmp_path / "page.pgm").read_bytes()
    ink = ink_fraction(pgm)
    # the rounds page: a table and the chart; a blank page would be 0, a black one near 1
    assert 0.01 < ink < 0.5
