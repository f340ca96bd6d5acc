"""Golden tests: the hand-made record of conftest.py gives workbooks whose cell values equal the
expectation stored in ``tests/reports/golden/*.json``.

A change to a workbook's layout or wording shows up here as a diff of cell values. When the
change is intended, regenerate the expectations and review the diff before committing:

    FACILITATOR_REGEN_GOLDEN=1 python3 -m pytest tests/reports/test_reports_golden.py

(the tests then rewrite the files and are skipped). Values are stored per sheet as rows of
cells, trailing empty cells and rows left out; dates as ISO text, numbers rounded to 6 places.
"""

import json
import os
from datetime import date, datetime, timezone
from io import BytesIO
from pathlib import Path

import pytest
from openpyxl import load_workbook

from facilitator.i18n import use_locale
from facilitator.games.lyceum.protocol import UndoneMove
from facilitator.games.lyceum.workbook import event_workbook_xlsx, table_protocol_xlsx
from facilitator.rules.lyceum import Move

from .conftest import game_of, record_data

GOLDEN = Path(__file__).parent / "golden"
REGENERATE = os.environ.get("FACILITATOR_REGEN_GOLDEN") == "1"
NOW = datetime(2025, 5, 17, 12, 0, tzinfo=timezone.utc)


def plain(value):
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, float):
        return round(value, 6)
    return value


def cell_values(data):
    """``{sheet: [[cell, ...], ...]}`` of an .xlsx file."""
    wb = load_workbook(BytesIO(data))
    out = {}
    for ws in wb.worksheets:
        rows = []
        for row in ws.iter_rows(values_only=True):
            values = [plain(v) for v in row]
            while values and values[-1] is None:
                values.pop()
            rows.append(values)
        while rows and not rows[-1]:
            rows.pop()
        out[ws.title] = rows
    return out


def table_workbook():
    # the undo time is left out: it prints as local wall-clock time, which depends on the machine
    undone = [UndoneMove(Move("pass", player="Борис"), None, "Ведущий", after=0)]
    with use_locale("ru"):
        return table_protocol_xlsx(game_of(record_data()), undone=undone, event="Турнир лицея", now=NOW)


def event_workbook():
    with use_locale("ru"):
        return event_workbook_xlsx([game_of(record_data()), game_of(record_data(table="Стол 2", moves=None))],
                                   event="Турнир лицея", now=NOW)


def dump(sheets):
    """JSON with one worksheet row per line, so a changed cell shows as one changed line."""
    parts = []
    for sheet, rows in sheets.items():
        body = ",\n".join("  " + json.dumps(row, ensure_ascii=False) for row in rows)
        parts.append(f" {json.dumps(sheet, ensure_ascii=False)}: [\n{body}\n ]")
    return "{\n" + ",\n".join(parts) + "\n}\n"


CASES = {"table_protocol": table_workbook, "event_workbook": event_workbook}


@pytest.mark.parametrize("name", sorted(CASES))
def test_workbook_cell_values_equal_the_stored_expectation(name):
    actual = cell_values(CASES[name]())
    path = GOLDEN / f"{name}.json"
    if REGENERATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(dump(actual), encoding="utf-8")
        pytest.skip(f"regenerated {path}")
    expected = json.loads(path.read_text(encoding="utf-8"))
    assert list(actual) == list(expected), "the sheets differ"
    for sheet in expected:
        assert len(actual[sheet]) == len(expected[sheet]), f"{sheet}: number of rows"
        for i, (got, want) in enumerate(zip(actual[sheet], expected[sheet]), start=1):
            assert got == want, f"{sheet}, row {i}"


def test_the_golden_files_hold_the_numbers_worked_out_by_hand():
    """Guards the stored expectation itself against being regenerated from a wrong workbook."""
    expected = json.loads((GOLDEN / "table_protocol.json").read_text(encoding="utf-8"))
    rounds = {row[0]: row for row in expected["По раундам"] if row and row[0] in ("Борис", "Вика", "Аня")}
    assert rounds["Вика"][1 + 3 * 3] == 700  # XP after round 4
    results = expected["Итоги"]
    anya = next(row for row in results if len(row) > 1 and row[1] == "Аня")
    assert anya[-3:] == ["да", 300, 1100]
    assert any(row[-2:] == ["Итого за стол", 2500] for row in results if len(row) >= 2)
