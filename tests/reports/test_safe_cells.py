"""Text from people is text in every workbook the app writes (issue 17.7): a player named
``=HYPERLINK(…)``, ``=cmd|' /C calc'!A0`` (a DDE payload), ``+1``, ``-2``, ``@SUM(1)`` or
``＝1+1`` is a string cell holding exactly that name, never a formula, in each game's protocol
workbook, the «16/25» event workbook and the decks' Excel exports; numbers stay numbers."""

import zipfile
from io import BytesIO

import pytest
from openpyxl import Workbook, load_workbook

from facilitator.reports.cells import FORMULA_STARTS, put, write_only_cell
from facilitator.reports.games import protocol_module

from .game_records import ALTER_EGO, GAMES, LYCEUM, NEW_ANGELES, SEATS, game_record, replayed

HYPERLINK = '=HYPERLINK("http://evil.example/","click me")'
DDE = "=cmd|' /C calc'!A0"
HOSTILE = [HYPERLINK, DDE, "+1", "-2", "@SUM(1)", "\uff1d1+1"]
#: each game's players: as many of the hostile names as it seats, the DDE payload in every game
NAMES = {LYCEUM: [HYPERLINK, DDE, "+1", "-2"], ALTER_EGO: ["@SUM(1)", DDE, "-2"],
         NEW_ANGELES: [DDE, "\uff1d1+1", "+1", HYPERLINK]}


def cells_of(data):
    book = load_workbook(BytesIO(data))
    return [cell for ws in book.worksheets for row in ws.iter_rows() for cell in row if cell.value is not None]


def formulas_in(data):
    """The worksheet parts of an .xlsx that hold a formula element (``<f>``), read from the XML
    itself (what Excel reads), not through openpyxl."""
    with zipfile.ZipFile(BytesIO(data)) as z:
        return [name for name in z.namelist() if name.startswith("xl/worksheets/")
                and (b"<f>" in z.read(name) or b"<f " in z.read(name))]


def assert_names_are_text(data, names):
    cells = cells_of(data)
    found = {}
    for cell in cells:
        if cell.value in names:
            found.setdefault(cell.value, []).append(cell)
    assert set(found) == set(names), f"names not found as whole cells: {set(names) - set(found)}"
    for name, holding in found.items():
        for cell in holding:
            assert cell.data_type == "s" and cell.value == name, (cell.coordinate, cell.data_type, cell.value)
            assert cell.quotePrefix, f"{cell.parent.title}!{cell.coordinate} {name!r} has no quote prefix"
    assert formulas_in(data) == []
    assert not [c for c in cells if c.data_type == "f"]
    assert any(isinstance(c.value, (int, float)) and not isinstance(c.value, bool) for c in cells), \
        "numbers stay numbers"


@pytest.mark.parametrize("game", GAMES)
def test_a_player_named_like_a_formula_is_that_name_in_every_games_protocol_workbook(game):
    assert len(NAMES[game]) == SEATS[game]
    data = game_record(game, names=NAMES[game], table="-1 стол")
    xlsx = protocol_module(game).table_protocol_xlsx(replayed(data), event="@Кубок", event_date="2026-05-01")
    assert_names_are_text(xlsx, NAMES[game])


def test_hostile_names_are_names_in_the_event_workbook():
    from facilitator.games.lyceum.workbook import event_workbook_xlsx
    first = replayed(game_record(LYCEUM, names=NAMES[LYCEUM], seed=1))
    second = replayed(game_record(LYCEUM, names=["@SUM(1)", "\uff1d1+1", "Вика", "Гоша"], seed=2, table="Стол 2"))
    xlsx = event_workbook_xlsx([first, second], event="=Кубок()", event_date="2026-05-01")
    assert_names_are_text(xlsx, NAMES[LYCEUM] + ["@SUM(1)", "\uff1d1+1"])


def test_a_deck_exported_to_excel_keeps_its_titles_as_text():
    from facilitator.rules.lyceum.ruleset import sample_pack_data
    from facilitator.games.lyceum.excel import pack_to_workbook
    from facilitator.rules.lyceum import read_pack
    data = sample_pack_data()
    data["characters"][0]["name"] = DDE
    data["cards"][0]["title"] = "@SUM(1)"
    assert_names_are_text(pack_to_workbook(read_pack(data)), [DDE, "@SUM(1)"])


def test_an_alter_ego_deck_exported_to_excel_keeps_its_names_as_text():
    from facilitator.games.alterego.excel import pack_to_workbook
    from facilitator.rules.alterego.pack import default_pack_data, read_pack
    data = default_pack_data()
    data["actives"][0]["name"] = "+1"
    data["cards"][0]["name"] = HYPERLINK
    assert_names_are_text(pack_to_workbook(read_pack(data)), ["+1", HYPERLINK])


@pytest.mark.parametrize("write_only", [False, True], ids=["normal", "write-only"])
def test_the_one_writer_quotes_text_only(write_only):
    """Every formula start (tab and carriage return too) is quoted; other text is plain text;
    a negative number, a date or a boolean is written as itself."""
    values = [f"{start}1" for start in FORMULA_STARTS] + ["Аня", "#N/A", -2, 2.5, True]
    book = Workbook(write_only=write_only)
    ws = book.create_sheet("S") if write_only else book.active
    for row, value in enumerate(values, start=1):
        if write_only:
            ws.append([write_only_cell(ws, value)])
        else:
            put(ws, row, 1, value)
    out = BytesIO()
    book.save(out)
    column = [c for c in load_workbook(BytesIO(out.getvalue())).worksheets[0]["A"]]
    # (XML reads a carriage return back as a line feed: the file holds what was written)
    assert [c.value for c in column] == [v.replace("\r", "\n") if isinstance(v, str) else v for v in values]
    for cell, value in zip(column, values):
        if isinstance(value, str):
            assert cell.data_type == "s"
            assert cell.quotePrefix == value.startswith(FORMULA_STARTS), value
        else:
            assert cell.data_type != "s" and not cell.quotePrefix, value
