"""The deck workbook reading every game's reader builds on (``facilitator.content.workbook``): a
problem named by its sheet, row and column; the header row read in any language; the workbook
budget; and the two games' readers refusing the same broken file the same way, each in its own
language and within its own budget."""

import io
import zipfile

import pytest
from openpyxl import load_workbook

from facilitator.content import workbook
from facilitator.content.importing import PackImportError
from facilitator.games.alterego import excel as alterego_excel
from facilitator.games.lyceum import excel as lyceum_excel
from facilitator.i18n import use_locale


def sheet(rows, title="Cards", key="cards"):
    return workbook.Sheet(title, key, rows)


def test_a_problem_names_its_sheet_row_and_column_or_range():
    one = workbook.cell_problem("Cards", "is empty", "missing_text", {"column": "count"}, 7, (4,))
    assert (str(one), one.sheet, one.cell, one.row, one.params) == ("Cards!D7: is empty", "Cards", "D7", 7,
                                                                   {"column": "count"})
    wide = workbook.cell_problem("Kortit", "sum", "gains_range", row=12, cols=(28, 2, 5), item="card", index=3)
    assert (wide.where, wide.cell, wide.item, wide.index) == ("Kortit!B12:AB12", "B12:AB12", "card", 3)
    assert str(workbook.cell_problem("Levels", "the sheet lists no rows", "empty")) == "Levels: the sheet lists no rows"


def test_the_header_row_is_read_in_any_language_first_column_wins_the_rest_is_reported():
    words = {w: "count" for w in workbook.in_every_locale("count", ("en", "ru", "fi"))} | {"key": "key"}
    header = workbook.read_header(sheet([["  KEY ", None, "Määrä", "notes", "count", " "], ["x"]]), words)
    assert header.columns == {"key": 1, "count": 3}
    assert header.twice == [(5, "count")] and header.others == [(4, "notes")]


def test_titles_and_headers_compare_without_case_spacing_or_yo():
    assert workbook.normalize("  Жёлтая   КАРТА ") == workbook.normalize("желтая карта") == "желтая карта"
    sheets = (("cards", "Cards"), ("levels", "Levels"))
    assert workbook.sheet_key_of(" CARDS ", sheets, ("en",)) == "cards"
    assert workbook.sheet_key_of("levels", sheets, ()) == "levels"  # the key itself
    assert workbook.sheet_key_of("Notes", sheets, ("en",)) is None


def test_a_sheet_reads_like_the_little_of_a_worksheet_a_reader_uses():
    s = sheet([["a", "b", "c"], [], [None, 2.0]])
    assert (s.max_row, s.max_column) == (3, 3)
    assert s.cell(1, 3).value == "c" and s.cell(3, 2).value == 2.0 and s.cell(9, 9).value is None
    assert workbook.cell_text(2.0) == "2" and workbook.cell_text(None) == "" and workbook.blank("  ")


def _broken_sheet(data, title):
    """``data`` (an .xlsx) with the sheet ``title``'s XML cut short."""
    source = zipfile.ZipFile(io.BytesIO(data))
    titles = load_workbook(io.BytesIO(data), read_only=True).sheetnames
    part = f"xl/worksheets/sheet{titles.index(title) + 1}.xml"  # openpyxl numbers them in order
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            body = source.read(info.filename)
            target.writestr(info.filename, body[: len(body) // 2] if info.filename == part else body)
    return out.getvalue()


@pytest.mark.parametrize("module, locale, title, words", [
    (lyceum_excel, "ru", "Карты", "книга повреждена: ошибка в её XML в строке"),
    (alterego_excel, "fi", "Kortit", "työkirja on vioittunut: sen XML on rikki rivillä"),
])
def test_both_games_refuse_a_broken_sheet_by_its_name_line_and_column(module, locale, title, words):
    with use_locale(locale):
        data = _broken_sheet(module.template_workbook(), title)
        with pytest.raises(PackImportError) as refused:
            module.workbook_to_pack(data)
    (problem,) = refused.value.problems
    assert problem.key == "bad_xml" and problem.where == title and words in problem.message
    assert set(problem.params) == {"line", "column"}


@pytest.mark.parametrize("module", [lyceum_excel, alterego_excel])
def test_each_game_keeps_its_own_budget_and_the_toolkit_enforces_it(module):
    budget = module.BUDGET
    assert isinstance(budget, workbook.WorkbookBudget) and budget.max_unpacked == module.MAX_UNPACKED
    with use_locale("en"), pytest.raises(PackImportError) as refused:
        module.workbook_to_pack(b"PK" + b"\0" * (budget.max_unpacked + 1))
    limit = budget.max_unpacked // 2 ** 20
    assert refused.value.lines() == [f"the workbook unpacks to {limit} MB; a deck's workbook is at most {limit} MB"]
