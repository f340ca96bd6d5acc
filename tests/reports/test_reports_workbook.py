"""The protocol workbook and the event workbook, opened back with openpyxl: the cells that matter
for the hand-made game of conftest.py, and the sheet set-up (frozen headers, print setup, no
merged cells, number formats)."""

from datetime import date, datetime, timezone
import re
from io import BytesIO
from pathlib import Path

import pytest
from openpyxl import load_workbook
from openpyxl.styles import Font

from facilitator.rules.lyceum.ruleset import sample_pack
from facilitator.i18n import use_locale
from facilitator.games.lyceum.protocol import UndoneMove, build_protocol
from facilitator.games.lyceum.workbook import event_workbook_xlsx, table_protocol_xlsx
from facilitator.rules.lyceum import Move
from facilitator.rules.lyceum.simulate import random_game

from .conftest import MOVES, game_of, record_data

NOW = datetime(2025, 5, 17, 12, 0, tzinfo=timezone.utc)
SHEETS_RU = ["Подготовка", "По раундам", "Журнал", "Итоги"]


def open_book(data):
    return load_workbook(BytesIO(data))


def rows(ws):
    return [list(r) for r in ws.iter_rows(values_only=True)]


def find_row(ws, first_value, column=1, start=1):
    """The first row (1-based index) whose cell in ``column`` equals ``first_value``."""
    for i, row in enumerate(ws.iter_rows(min_row=start, values_only=True), start=start):
        if len(row) >= column and row[column - 1] == first_value:
            return i
    raise AssertionError(f"no row with {first_value!r} in column {column} of {ws.title}")


def header_columns(ws, header_row):
    return {v: i + 1 for i, v in enumerate(next(ws.iter_rows(min_row=header_row, max_row=header_row,
                                                               values_only=True))) if v is not None}


@pytest.fixture(scope="module")
def book(game):
    undone = [UndoneMove(Move("pass", player="Борис"), "2025-05-17T10:01:00+00:00", "Ведущий", after=0)]
    with use_locale("ru"):
        return open_book(table_protocol_xlsx(game, undone=undone, event="Турнир лицея", now=NOW))


def test_a_table_protocol_has_its_four_sheets_in_russian(book):
    assert book.sheetnames == SHEETS_RU


def test_english_headers_on_request(game):
    with use_locale("en"):
        wb = open_book(table_protocol_xlsx(game, now=NOW))
    assert wb.sheetnames == ["Setup", "Rounds", "Log", "Results"]
    assert wb["Log"].cell(find_row(wb["Log"], "No."), 4).value == "Move"


# ----- setup sheet --------------------------------------------------------------------------------
def test_setup_sheet_lists_players_in_seating_order_with_turn_order_and_reason(book):
    ws = book["Подготовка"]
    assert ws["A1"].value == "Протокол игры «16/25»: Стол 1"
    order_row = find_row(ws, "Очерёдность ходов")
    assert ws.cell(order_row, 2).value == "Борис → Вика → Аня"
    assert "младше" in ws.cell(order_row + 1, 2).value
    header = find_row(ws, "Игрок")
    cols = header_columns(ws, header)
    names = [ws.cell(header + i, 1).value for i in (1, 2, 3)]
    assert names == ["Аня", "Борис", "Вика"]
    anya = header + 1
    assert ws.cell(anya, cols["Дата рождения"]).value.date() == date(2009, 3, 14)
    assert ws.cell(anya, cols["Дата рождения"]).number_format == "DD.MM.YYYY"
    assert ws.cell(anya, cols["Очерёдность"]).value == 3
    assert ws.cell(anya, cols["Персонаж"]).value == "K1"
    assert ws.cell(header + 3, cols["Образ будущего"]).value == "не заявлен"


def test_setup_sheet_shows_base_plus_extra_equals_start(book):
    ws = book["Подготовка"]
    title = find_row(ws, "Умения на старте: база + доп. SP = итого")
    assert ws.cell(title + 1, 2).value == "Здоровье"
    assert [ws.cell(title + 2, c).value for c in (2, 3, 4)] == ["база", "доп.", "итого"]
    anya = title + 3
    assert ws.cell(anya, 1).value == "Аня"
    # intellect is the second skill: columns 5, 6, 7 -> base 6 + extra 2 = 8
    assert [ws.cell(anya, c).value for c in (5, 6, 7)] == [6, 2, 8]


def test_setup_sheet_shows_declarations_and_their_bonus(book):
    ws = book["Подготовка"]
    title = find_row(ws, "Образ будущего (заявленные цели)")
    header = title + 1
    assert ws.cell(header, 7).value == "Сумма"
    boris = find_row(ws, "Борис", start=header)
    assert [ws.cell(boris, c).value for c in range(2, 9)] == [9, 8, 9, 5, 9, 40, 400]


# ----- rounds sheet ------------------------------------------------------------------------------
def round_columns(r):
    """(XP, level, move) columns of round r on the rounds sheet."""
    first = 2 + 3 * (r - 1)
    return first, first + 1, first + 2


def test_xp_and_level_after_round_4(book):
    ws = book["По раундам"]
    xp_col, level_col, move_col = round_columns(4)
    vika = find_row(ws, "Вика")
    assert ws.cell(vika, xp_col).value == 700       # 200 after round 3 + 500 for the deferred L-R-02
    assert ws.cell(vika, level_col).value == 4
    assert "L-R-02" in ws.cell(vika, move_col).value
    boris = find_row(ws, "Борис")
    assert (ws.cell(boris, xp_col).value, ws.cell(boris, level_col).value) == (600, 3)
    assert ws.cell(boris, xp_col).number_format == "#,##0"


def test_rounds_sheet_headers_and_frozen_player_column(book):
    ws = book["По раундам"]
    header = find_row(ws, "Игрок")
    assert ws.cell(header, 2).value == "Раунд 1 · возраст 16 · Лицей"
    assert ws.cell(header, round_columns(10)[0]).value == "Раунд 10 · возраст 25 · Взрослая жизнь"
    assert [ws.cell(header + 1, c).value for c in round_columns(1)] == ["Опыт", "Ур.", "Ход"]
    assert ws.freeze_panes == f"B{header + 2}"
    assert ws.cell(header, 3).alignment.horizontal == "centerContinuous"


# ----- log sheet ----------------------------------------------------------------------------------
def test_log_lists_every_move_with_deferral_expiry_and_specials(book):
    ws = book["Журнал"]
    header = find_row(ws, "№")
    cols = header_columns(ws, header)
    by_number = {}
    for r in range(header + 1, ws.max_row + 1):
        number = ws.cell(r, cols["№"]).value
        if number is not None:
            by_number[number] = r
    assert sorted(by_number) == list(range(1, len(MOVES) + 1))
    vika_defers = by_number[2]
    assert ws.cell(vika_defers, cols["Игрок"]).value == "Вика"
    assert ws.cell(vika_defers, cols["Карта"]).value == "L-R-02"
    assert ws.cell(vika_defers, cols["Отложена до раунда"]).value == 4
    assert ws.cell(by_number[22], cols["Отложена до раунда"]).value == 7
    played = by_number[18]
    assert ws.cell(played, cols["Ход"]).value == "Сыграна отложенная карта"
    assert ws.cell(played, cols["Опыт ±"]).value == 500
    assert ws.cell(played, cols["Новые уровни"]).value == "3, 4"
    assert ws.cell(played, cols["Спецвозможность"]).value == "Каждый другой игрок получает +1 SP здоровья"
    anya_red = by_number[3]
    assert ws.cell(anya_red, cols["Умения ±"]).value == "интеллект +2, энергия −1"
    assert ws.cell(anya_red, cols["Свободные SP ±"]).value == 5
    assert ws.cell(anya_red, cols["Опыт после"]).value == 500
    assert "причина: спецвозможность L-R-02" in ws.cell(by_number[20], cols["Подробности"]).value


def test_signed_numbers_show_a_real_minus_sign(book):
    ws = book["Журнал"]
    header = find_row(ws, "№")
    cols = header_columns(ws, header)
    allocated = next(r for r in range(header + 1, ws.max_row + 1) if ws.cell(r, cols["№"]).value == 4)
    cell = ws.cell(allocated, cols["Свободные SP ±"])
    assert cell.value == -5
    assert cell.number_format == '+#,##0;"\u2212"#,##0;0'


def test_the_events_date_is_a_date_cell_read_the_russian_way(game):
    with use_locale("ru"):
        wb = open_book(table_protocol_xlsx(game, event="Турнир лицея", event_date="2025-05-17", now=NOW))
    ws = wb["Подготовка"]
    cell = ws.cell(find_row(ws, "Дата"), 2)
    assert cell.value.date() == date(2025, 5, 17) and cell.number_format == "DD.MM.YYYY"


def test_log_marks_undone_moves_and_expired_cards(book):
    ws = book["Журнал"]
    header = find_row(ws, "№")
    cols = header_columns(ws, header)
    undone = header + 1  # undone before the first move
    assert ws.cell(undone, cols["№"]).value is None
    assert ws.cell(undone, cols["Ход"]).value == "Пропустить ход"
    assert ws.cell(undone, cols["Ход"]).font.strike
    assert "ход отменён" in ws.cell(undone, cols["Подробности"]).value
    expired = find_row(ws, "Срок отложенной карты истёк", column=cols["Ход"])
    assert ws.cell(expired, cols["Игрок"]).value == "Аня"
    assert ws.cell(expired, cols["Раунд"]).value == 7
    assert ws.cell(expired, cols["Карта"]).value == "U-R-01"


def test_log_words_each_kind_of_take_back_its_own_way(game):
    undone = [UndoneMove(Move("pass", player="Борис"), None, "Ведущий", after=0),
              UndoneMove(Move("adjust", player="Вика", xp=100, reason="ошибка"), None, "Ольга", after=20, kind="void"),
              UndoneMove(Move("finish"), None, "Ольга", after=42, kind="reopen")]
    with use_locale("ru"):
        wb = open_book(table_protocol_xlsx(game, undone=undone, now=NOW))
    ws = wb["Журнал"]
    header = find_row(ws, "№")
    cols = header_columns(ws, header)
    details = [ws.cell(r, cols["Подробности"]).value for r in range(header + 1, ws.max_row + 1)
               if ws.cell(r, cols["Ход"]).font.strike]
    assert details[0] == "ход отменён (Ведущий)"
    assert details[1].startswith("ход аннулирован организатором (Ольга)")
    assert details[2] == "игра возобновлена организатором (Ольга)"


def test_log_sheet_has_a_frozen_header_a_filter_and_printed_titles(book):
    ws = book["Журнал"]
    header = find_row(ws, "№")
    assert ws.freeze_panes == f"A{header + 1}"
    assert ws.auto_filter.ref.startswith(f"A{header}:")
    assert ws.print_title_rows == f"${header}:${header}"


# ----- results sheet -------------------------------------------------------------------------------
def test_results_sheet_has_the_bonus_the_declaration_check_and_places(book, game):
    ws = book["Итоги"]
    header = find_row(ws, "Место")
    cols = header_columns(ws, header)
    first = header + 2
    assert [ws.cell(first + i, 2).value for i in range(3)] == ["Аня", "Борис", "Вика"]  # by place
    assert [ws.cell(first + i, 1).value for i in range(3)] == [1, 2, 2]
    anya, boris, vika = first, first + 1, first + 2
    # the character by its name, as the setup block and the PDF show it, never its code alone
    names = [game.pack.characters_by_code[game.players[n].character].name for n in ("Аня", "Борис", "Вика")]
    assert [ws.cell(first + i, cols["Персонаж"]).value for i in range(3)] == names
    assert not {game.players[n].character for n in ("Аня", "Борис", "Вика")} & set(names)
    assert ws.cell(anya, cols["Опыт"]).value == 800
    assert ws.cell(anya, cols["Бонус"]).value == 300
    assert ws.cell(anya, cols["Итоговый XP"]).value == 1100
    assert ws.cell(anya, cols["Образ достигнут"]).value == "да"
    assert ws.cell(boris, cols["Образ достигнут"]).value == "нет"
    assert ws.cell(vika, cols["Образ будущего"]).value == "не заявлен"
    creativity = cols["Творчество"]
    assert ws.cell(header + 1, creativity).value == "есть" and ws.cell(header + 1, creativity + 1).value == "цель"
    assert (ws.cell(boris, creativity).value, ws.cell(boris, creativity + 1).value) == (6, 9)
    assert ws.cell(boris, creativity).font.color.rgb.endswith("C00000")  # short of the target: red
    assert ws.cell(anya, creativity).font.color.rgb.endswith("2E7D32")   # met: green


def test_results_sheet_has_the_table_total_and_average(book):
    ws = book["Итоги"]
    label = find_row_anywhere(ws, "Итого за стол")
    total = ws.cell(label[0], label[1] + 1)
    assert total.value == 2500 and total.number_format == "#,##0"
    average = find_row_anywhere(ws, "В среднем на игрока")
    cell = ws.cell(average[0], average[1] + 1)
    assert cell.value == pytest.approx(833.33, abs=0.01) and cell.number_format == "#,##0.0"


def test_results_sheet_lists_deferred_cards_specials_and_corrections(book):
    ws = book["Итоги"]
    block = find_row(ws, "Отложенные карты")
    assert rows(ws)[block + 1][:8] == [1, "Вика", "L-R-02", "Благотворительный концерт", "красная", 4,
                                        "сыграна в раунде 4", 3]
    assert rows(ws)[block + 2][:8] == [4, "Аня", "U-R-01", "Стажировка за рубежом", "красная", 7,
                                        "срок истёк после раунда 7", 3]
    specials = find_row(ws, "Спецвозможности красных карт")
    assert rows(ws)[specials + 1][:3] == [4, "Вика", "L-R-02"]
    corrections = find_row(ws, "Поправки ведущего")
    assert [r[1] for r in rows(ws)[corrections + 1:corrections + 3]] == ["Борис", "Аня"]


def find_row_anywhere(ws, value):
    for row in ws.iter_rows():
        for cell in row:
            if cell.value == value:
                return cell.row, cell.column
    raise AssertionError(f"{value!r} not found on {ws.title}")


# ----- every sheet ----------------------------------------------------------------------------------
@pytest.mark.parametrize("sheet", SHEETS_RU)
def test_sheets_print_a4_landscape_fitted_to_width_without_merged_cells(book, sheet):
    ws = book[sheet]
    assert ws.page_setup.orientation == "landscape"
    assert int(ws.page_setup.paperSize) == int(ws.PAPERSIZE_A4) == 9
    assert ws.page_setup.fitToWidth == 1 and ws.page_setup.fitToHeight == 0
    assert ws.sheet_properties.pageSetUpPr.fitToPage
    assert not ws.merged_cells.ranges
    assert ws.freeze_panes is not None
    assert all(ws.column_dimensions[c].width for c in "ABC")


def test_a_provisional_protocol_says_so(midgame):
    with use_locale("ru"):
        wb = open_book(table_protocol_xlsx(midgame, now=NOW))
    status = wb["Подготовка"]["A2"]
    assert status.value.startswith("Предварительный: идёт раунд 4")
    assert status.fill.fgColor.rgb.endswith("C00000")
    for name in wb.sheetnames:
        assert wb[name]["A2"].value.startswith("Предварительный")


def test_a_built_protocol_can_be_passed_instead_of_a_game(game):
    with use_locale("ru"):
        protocol = build_protocol(game, event="Турнир лицея", now=NOW)
        wb = open_book(table_protocol_xlsx(protocol))
    made_at = find_row(wb["Подготовка"], "Сформирован")
    assert wb["Подготовка"].cell(made_at, 2).value == "17.05.2025 12:00"
    assert wb["Подготовка"].cell(find_row(wb["Подготовка"], "Мероприятие"), 2).value == "Турнир лицея"


# ----- the event workbook ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def event_book(game):
    twin = game_of(record_data(table="Стол 2"))          # the same game at a second table: a tie
    four = random_game(sample_pack(), seed=5, table="Стол 3")[1]  # four players: ranked by average
    with use_locale("ru"):
        return open_book(event_workbook_xlsx([game, twin, four], event="Турнир лицея", now=NOW))


def test_event_workbook_has_a_summary_then_each_tables_sheets(event_book):
    assert event_book.sheetnames[0] == "Сводка"
    assert event_book.sheetnames[1:5] == [f"Стол 1 · {s}" for s in SHEETS_RU]
    assert len(event_book.sheetnames) == 1 + 3 * 4
    assert event_book["Стол 2 · По раундам"].cell(find_row(event_book["Стол 2 · По раундам"], "Вика"),
                                                  round_columns(4)[0]).value == 700


def test_event_summary_states_the_ranking_rule_used(event_book):
    ws = event_book["Сводка"]
    rule = find_row_anywhere(ws, "Правило командного зачёта: столы ранжируются по среднему итоговому опыту на "
                                 "игрока, так как за столами разное число игроков.")
    assert rule
    header = find_row(ws, "Место")
    cols = header_columns(ws, header)
    assert ws.cell(header + 1, cols["Зачёт"]).value == "по среднему"


def test_event_summary_team_ranking_by_average_with_shared_places(event_book):
    ws = event_book["Сводка"]
    header = find_row(ws, "Место")
    teams = [[ws.cell(header + i, c).value for c in range(1, 6)] for i in range(1, 4)]
    by_table = {t[1]: t for t in teams}
    assert by_table["Стол 1"][2:4] == [3, 2500] and by_table["Стол 2"][2:4] == [3, 2500]
    assert by_table["Стол 1"][4] == pytest.approx(2500 / 3)
    assert by_table["Стол 1"][0] == by_table["Стол 2"][0]  # equal averages share the place
    four = by_table["Стол 3"]
    assert four[2] == 4
    expected_first = 1 if four[4] < 2500 / 3 else 2
    assert by_table["Стол 1"][0] == expected_first


def test_event_summary_individual_ranking_with_ties(event_book):
    ws = event_book["Сводка"]
    header = find_row(ws, "Место")
    people = []
    for r in range(header + 1, ws.max_row + 1):
        if ws.cell(r, 10).value is None:
            break
        people.append([ws.cell(r, c).value for c in range(9, 16)])
    assert len(people) == 10
    annas = [p for p in people if p[1] == "Аня" and p[2] in ("Стол 1", "Стол 2")]
    assert [p[6] for p in annas] == [1100, 1100]
    assert annas[0][0] == annas[1][0]  # the same place, shared
    places = [p[0] for p in people]
    assert places == sorted(places)
    finals = [p[6] for p in people]
    assert finals == sorted(finals, reverse=True)


def test_event_with_equal_tables_is_ranked_by_total(game):
    twin = game_of(record_data(table="Стол 2"))
    with use_locale("ru"):
        wb = open_book(event_workbook_xlsx([game, twin], event="Турнир", now=NOW))
    assert find_row_anywhere(wb["Сводка"], "Правило командного зачёта: столы ранжируются по сумме итогового опыта "
                                           "игроков, так как за всеми столами одинаковое число игроков.")


def test_event_summary_is_provisional_while_a_table_plays(game):
    playing = game_of(record_data(table="Стол 9", moves=MOVES[:22]))
    with use_locale("ru"):
        wb = open_book(event_workbook_xlsx([game, playing], now=NOW))
    assert wb["Сводка"]["A2"].value == "Предварительные: ещё играют: Стол 9."


def test_long_table_names_make_valid_distinct_sheet_names(game):
    a = game_of(record_data(table="Очень длинное название стола: [финал] номер один"))
    b = game_of(record_data(table="Очень длинное название стола: [финал] номер два"))
    wb = open_book(event_workbook_xlsx([a, b], now=NOW))
    names = wb.sheetnames
    assert len(names) == len(set(n.lower() for n in names)) == 9
    assert all(len(n) <= 31 and not set(n) & set("[]:*?/\\") for n in names)


# ----- openpyxl's public API only ---------------------------------------------------------------------
REPORTS = Path(__file__).resolve().parents[2] / "facilitator" / "reports"
#: an import of a private openpyxl module (``openpyxl.worksheet._writer``), or a private name from it
PRIVATE_IMPORT = re.compile(r"openpyxl(\.\w+)*\._\w*|from\s+openpyxl[\w.]*\s+import\s+[^\n]*\b_\w+")
#: an underscore attribute of another object (``wb._cell_styles``, ``cell._style``); a module's own
#: helpers (``self._cell``) and dunders are fine
PRIVATE_ATTRIBUTE = re.compile(r"(?<!\bself)\.(_[A-Za-z]\w*)\b")


def test_the_workbooks_use_only_openpyxls_public_api():
    found = []
    for path in sorted(REPORTS.glob("*.py")):
        source = path.read_text(encoding="utf-8")
        for lineno, line in enumerate(source.splitlines(), start=1):
            code = line.split("#", 1)[0]
            if PRIVATE_IMPORT.search(code) or ("openpyxl" in source and PRIVATE_ATTRIBUTE.search(code)):
                found.append(f"{path.name}:{lineno}: {line.strip()}")
    assert not found, "private openpyxl use:\n" + "\n".join(found)


def test_the_grep_catches_what_the_old_writer_did():
    """Guards the check above against passing on everything."""
    assert PRIVATE_IMPORT.search("from openpyxl.worksheet._writer import WorksheetWriter")
    assert PRIVATE_ATTRIBUTE.search("style_id = self.wb._cell_styles.add(array)")
    assert PRIVATE_ATTRIBUTE.search("cell._style = copy(array)")
    assert not PRIVATE_IMPORT.search("from openpyxl.cell import WriteOnlyCell")
    assert not PRIVATE_ATTRIBUTE.search("line[col - 1] = self._cell(value, style)")


def test_cells_keep_their_named_styles(book):
    ws = book["Журнал"]
    header = find_row(ws, "№")
    head = ws.cell(header, 1)
    assert head.style == "head" and head.font.b and head.fill.fgColor.rgb.endswith("1F3864")
    assert head.border.left.style == "thin"
    struck = ws.cell(header + 1, 4)
    assert struck.font.strike and struck.font.color.rgb.endswith("808080")
    names = {s if isinstance(s, str) else s.name for s in book.named_styles}
    assert {"head", "text", "int", "signed"} <= names


@pytest.mark.parametrize("value, expected", [
    ("Аня & <Борис>", "Аня & <Борис>"),
    ("=1+1", "=1+1"),
    (" пробел ", " пробел "),
    ("бип\x07", "бип"),
    (2500, 2500),
    (833.3333333333334, 833.3333333333334),
    (True, True),
    (date(2009, 3, 14), datetime(2009, 3, 14)),
])
def test_a_cell_reads_back_as_written(value, expected):
    from facilitator.reports.sheets import Book
    book = Book({"plain": {"font": Font(size=10)}, "day": {"number_format": "DD.MM.YYYY"}})
    sheet = book.sheet("Лист")
    sheet.put(2, 2, value, book.style("day" if isinstance(value, date) else "plain"))
    cell = open_book(book.save())["Лист"]["B2"]
    assert cell.value == expected
    if isinstance(value, str):
        assert cell.data_type == "s"


def test_a_name_that_looks_like_a_formula_stays_text(tmp_path):
    data = record_data()
    data["players"][0]["name"] = "=HYPERLINK(\"x\")"
    data["moves"] = []
    wb = open_book(table_protocol_xlsx(game_of(data), now=NOW))
    cell = wb["Подготовка"].cell(find_row(wb["Подготовка"], "=HYPERLINK(\"x\")"), 1)
    assert cell.data_type == "s"
