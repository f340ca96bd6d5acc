"""A pack is read within a budget: a workbook that unpacks to more than any deck, a sheet with
more rows or cells than any deck, XML that is not well-formed, a JSON pack nested or numbered
beyond reason, and numbers or texts beyond the game are refused with one clear Russian line,
fast and without the memory they would otherwise take.

The hostile workbooks are built here with ``zipfile`` (never with openpyxl, which is what they
attack): the sample deck's workbook with one part replaced. A zip bomb and an oversized sheet
are refused before openpyxl parses anything: the tests replace ``load_workbook`` with a trap.
"""

import json
import re
import tracemalloc
import zipfile
from io import BytesIO

import openpyxl
import pytest

from facilitator.rules.lyceum.ruleset import sample_pack_data
from facilitator.games.lyceum.excel import MAX_CELLS, MAX_ROWS, MAX_UNPACKED, check_workbook_file, workbook_to_pack
from facilitator.games.lyceum.importing import PackImportError, json_to_pack, load_pack_bytes
from facilitator.rules.lyceum.fields import MAX_CARDS, MAX_LEVELS

from .helpers import edited, refusal, sample_workbook

#: the sheets of the sample workbook, by part
PARTS = {"Инструкция": "xl/worksheets/sheet1.xml", "Персонажи": "xl/worksheets/sheet2.xml",
         "Карты": "xl/worksheets/sheet3.xml", "Уровни": "xl/worksheets/sheet4.xml"}
HEAD = b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'


def replaced(parts, data=None):
    """The sample workbook (or ``data``) with parts replaced: ``{name: bytes or a callable
    writing to a stream}``."""
    source = zipfile.ZipFile(BytesIO(data or sample_workbook()))
    out = BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            if info.filename not in parts:
                target.writestr(info.filename, source.read(info.filename))
        for name, body in parts.items():
            if callable(body):
                with target.open(name, "w") as stream:
                    body(stream)
            else:
                target.writestr(name, body)
    return out.getvalue()


def rows_sheet(count, dimension=True, first=2):
    """A cards sheet of ``count`` rows after the sample's header row, as a streaming writer."""
    header = re.search(rb"<row r=\"1\".*?</row>", zipfile.ZipFile(BytesIO(sample_workbook())).read(PARTS["Карты"]))

    def write(stream):
        stream.write(HEAD)
        if dimension:
            stream.write(b'<dimension ref="A1:W%d"/>' % (count + 1))
        stream.write(b"<sheetData>" + header.group(0))
        batch = []
        for r in range(first, first + count):
            batch.append(b'<row r="%d"><c r="A%d" t="inlineStr"><is><t>X-%d</t></is></c></row>' % (r, r, r))
            if len(batch) == 5000:
                stream.write(b"".join(batch))
                batch = []
        stream.write(b"".join(batch) + b"</sheetData></worksheet>")
    return write


@pytest.fixture
def openpyxl_trap(monkeypatch):
    """openpyxl must not be asked to read the file: the refusal comes before it."""
    def trap(*args, **kwargs):
        raise AssertionError("openpyxl was asked to parse a workbook that should have been refused before")
    monkeypatch.setattr(openpyxl, "load_workbook", trap)


def refused_with_memory(data):
    """The refusal's lines and the peak memory (bytes) Python allocated while reading."""
    tracemalloc.start()
    try:
        with pytest.raises(PackImportError) as err:
            workbook_to_pack(data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return [str(p) for p in err.value.problems], peak


# ----- a zip bomb ------------------------------------------------------------------------------
def test_a_zip_bomb_is_refused_before_openpyxl_and_without_inflating_it(openpyxl_trap):
    block = b'<row r="1"><c r="A1" t="n"><v>1</v></c></row>' * 20_000

    def bomb(stream):
        stream.write(HEAD + b"<sheetData>")
        for _ in range(100 * 2 ** 20 // len(block)):  # 100 MB of XML
            stream.write(block)
    data = replaced({PARTS["Карты"]: bomb})
    assert len(data) < 2 * 2 ** 20
    lines, peak = refused_with_memory(data)
    assert lines == ["книга распаковывается в 100 МБ, а книга набора занимает не больше 20 МБ"]
    assert peak < 3 * len(data) + 2 ** 20


def test_a_zip_bomb_that_lies_about_its_size_is_refused_as_damaged_without_inflating_it():
    block = b"<row/>" * 100_000

    def bomb(stream):
        stream.write(HEAD + b"<sheetData>")
        for _ in range(40 * 2 ** 20 // len(block)):  # 40 MB, declared as 1 kB
            stream.write(block)
    data = bytearray(replaced({PARTS["Карты"]: bomb}))
    info = zipfile.ZipFile(BytesIO(bytes(data))).getinfo(PARTS["Карты"])
    _declare_size(data, info, 1024)
    assert zipfile.ZipFile(BytesIO(bytes(data))).getinfo(PARTS["Карты"]).file_size == 1024
    lines, peak = refused_with_memory(bytes(data))
    assert lines == ["книга повреждена и не читается; сохраните её заново в Excel"]
    assert peak < 8 * 2 ** 20


def _declare_size(data, info, size):
    """Write ``size`` as the part's uncompressed size into its local and central headers."""
    local = info.header_offset
    assert data[local:local + 4] == b"PK\x03\x04"
    data[local + 22:local + 26] = size.to_bytes(4, "little")
    name = info.filename.encode()
    at = data.find(b"PK\x01\x02")
    while at >= 0:
        if data[at + 46:at + 46 + len(name)] == name:
            data[at + 24:at + 28] = size.to_bytes(4, "little")
        at = data.find(b"PK\x01\x02", at + 4)


def test_an_upload_larger_than_the_budget_is_refused_unread(openpyxl_trap):
    assert refusal(b"PK" + b"\0" * (MAX_UNPACKED + 1)) == [
        "книга распаковывается в 20 МБ, а книга набора занимает не больше 20 МБ"]


# ----- rows and cells ----------------------------------------------------------------------------
def test_a_100000_row_sheet_is_refused_by_its_declared_dimension_before_openpyxl(openpyxl_trap):
    lines, peak = refused_with_memory(replaced({PARTS["Карты"]: rows_sheet(100_000)}))
    assert lines == ["Карты: на листе больше 5000 строк; удалите строки ниже таблицы"]
    assert peak < 4 * 2 ** 20


def test_a_100000_row_sheet_without_a_dimension_is_refused_by_counting_its_rows_before_openpyxl(openpyxl_trap):
    lines, peak = refused_with_memory(replaced({PARTS["Карты"]: rows_sheet(100_000, dimension=False)}))
    assert lines == ["Карты: на листе больше 5000 строк; удалите строки ниже таблицы"]
    assert peak < 4 * 2 ** 20


def test_a_sheet_whose_rows_jump_past_the_limit_is_refused_while_openpyxl_streams_it():
    # two <row> elements, the second numbered 100,000: the count before openpyxl sees 2 rows
    data = replaced({PARTS["Карты"]: rows_sheet(1, dimension=False, first=100_000)})
    assert check_workbook_file(data)["Карты"] == MAX_ROWS["cards"]
    lines, peak = refused_with_memory(data)
    assert lines == ["Карты: на листе больше 5000 строк; удалите строки ниже таблицы"]
    assert peak < 16 * 2 ** 20


def test_each_sheet_has_its_own_row_limit(openpyxl_trap):
    rows = zipfile.ZipFile(BytesIO(sample_workbook())).read(PARTS["Персонажи"])
    extra = b"".join(b'<row r="%d"><c r="A%d" t="inlineStr"><is><t>C%d</t></is></c></row>' % (r, r, r)
                     for r in range(20, 20 + MAX_ROWS["characters"]))
    body = re.sub(rb"<dimension[^>]*>", b"", rows).replace(b"</sheetData>", extra + b"</sheetData>")
    assert refusal(replaced({PARTS["Персонажи"]: body})) == [
        "Персонажи: на листе больше 500 строк; удалите строки ниже таблицы"]


def test_a_sheet_with_more_cells_than_any_deck_is_refused_before_openpyxl(openpyxl_trap):
    def wide(stream):
        stream.write(HEAD + b"<sheetData>")
        cell = b'<c r="A1"><v>1</v></c>' * 100
        for r in range(1, MAX_CELLS // 100 + 2):
            stream.write(b'<row r="%d">%s</row>' % (r, cell))
        stream.write(b"</sheetData></worksheet>")
    assert refusal(replaced({PARTS["Карты"]: wide})) == [
        f"Карты: на листе больше {MAX_CELLS} заполненных ячеек, а в наборе их намного меньше"]


def test_a_workbook_of_a_thousand_files_is_refused(openpyxl_trap):
    junk = {f"customXml/item{i}.bin": b"" for i in range(1000)}
    assert refusal(replaced(junk)) == [
        f"в книге {1000 + len(zipfile.ZipFile(BytesIO(sample_workbook())).namelist())} файлов, "
        "а в книге Excel их не больше 1000"]


# ----- XML that is not well-formed ---------------------------------------------------------------
def test_a_sheet_that_is_not_well_formed_xml_is_refused_naming_it_before_openpyxl(openpyxl_trap):
    broken = HEAD + b'<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Code</t></is></c></row'
    (line,) = refusal(replaced({PARTS["Карты"]: broken}))
    assert re.fullmatch(r"Карты: книга повреждена: ошибка в её XML в строке 1, позиции \d+; сохраните её заново в Excel",
                        line), line


@pytest.mark.parametrize("part", ["xl/styles.xml", "xl/workbook.xml", "[Content_Types].xml"])
def test_any_broken_part_is_refused_before_openpyxl(openpyxl_trap, part):
    lines = refusal(replaced({part: b"<a><b></a>"}))
    assert len(lines) == 1 and "книга повреждена" in lines[0]


def test_a_billion_laughs_is_refused_before_any_parser_expands_it(openpyxl_trap):
    laughs = (b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
              + b"".join(b'<!ENTITY lol%d "%s">' % (i, (b"&lol%d;" % (i - 1) if i else b"&lol;") * 10)
                         for i in range(10))
              + b"]>" + HEAD + b"<sheetData><row><c><v>&lol9;</v></c></row></sheetData></worksheet>")
    assert refusal(replaced({PARTS["Карты"]: laughs})) == [
        "Карты: книга повреждена и не читается; сохраните её заново в Excel"]


def test_a_zip_without_a_workbook_is_not_an_excel_workbook(openpyxl_trap):
    out = BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("readme.txt", "hello")
    assert refusal(out.getvalue()) == ["файл не является книгой Excel (.xlsx)"]
    assert refusal(b"not a zip at all") == ["файл не является книгой Excel (.xlsx)"]


def test_a_sheet_openpyxl_cannot_read_is_refused_as_damaged_not_a_500():
    # well-formed XML openpyxl chokes on: a number cell holding text
    body = zipfile.ZipFile(BytesIO(sample_workbook())).read(PARTS["Персонажи"])
    body = re.sub(rb'(<c r="D2" t="n"><v>)[^<]*', rb"\1many", body)
    assert refusal(replaced({PARTS["Персонажи"]: body})) == [
        "Персонажи: книга повреждена и не читается; сохраните её заново в Excel"]


def test_the_sample_workbook_is_well_within_the_budget_and_reads_back():
    limits = check_workbook_file(sample_workbook())
    assert limits == {"Инструкция": 500, "Персонажи": 500, "Карты": 5000, "Уровни": 500}
    assert workbook_to_pack(sample_workbook()).to_dict()["cards"] == sample_pack_data()["cards"]


# ----- numbers and texts beyond the game, cell by cell -------------------------------------------
@pytest.mark.parametrize("edits, lines", [
    ([("Персонажи", "D2", 1000)], ["Персонажи!D2: должно быть не больше 100, указано 1000"]),
    ([("Карты", "G2", 10 ** 20)], ["Карты!G2: должно быть не больше 100, указано 1e+20"]),
    ([("Карты", "U2", "9" * 5000)], ["Карты!U2: должно быть не больше 100, указано '99999999999999999...999999999999999999'"]),
    ([("Уровни", "B3", 10 ** 6)], ["Уровни!B3: должно быть не больше 100000, указано 1000000"]),
    ([("Инструкция", "B7", 101)], ["Инструкция!B7: должно быть не больше 100, указано 101"]),
    ([("Карты", "W20", 1000)], ["Карты!W20: должно быть не больше 100, указано 1000"]),
    ([("Карты", "D2", "Т" * 201)], ["Карты!D2: должно быть не длиннее 200 символов, а здесь 201"]),
    ([("Персонажи", "B2", "И" * 61)], ["Персонажи!B2: должно быть не длиннее 60 символов, а здесь 61"]),
    ([("Инструкция", "B4", "к" * 101)], ["Инструкция!B4: должно быть не длиннее 100 символов, а здесь 101"]),
    ([("Карты", "A2", "L-G-01" + chr(0x2028))],
     ["Карты!A2: не должно содержать управляющих символов (найден U+2028 в позиции 7)"]),
])
def test_a_number_or_text_beyond_the_game_is_refused_at_its_cell(edits, lines):
    assert refusal(edited(sample_workbook(), edits)) == lines


def test_a_number_too_large_for_a_float_is_refused_at_its_cell():
    body = zipfile.ZipFile(BytesIO(sample_workbook())).read(PARTS["Персонажи"])
    body, count = re.subn(rb'(<c r="D2" t="n"><v>)[^<]*', rb"\g<1>1e999", body)
    assert count == 1
    assert refusal(replaced({PARTS["Персонажи"]: body})) == ["Персонажи!D2: должно быть не больше 100, указано inf"]


def test_a_workbook_with_more_levels_or_characters_than_a_pack_holds_is_refused_by_sheet():
    levels = [("Уровни", f"B{r}", (r - 2) * 100) for r in range(2, MAX_LEVELS + 3)]
    assert refusal(edited(sample_workbook(), levels)) == [
        f"Уровни: в наборе может быть не больше {MAX_LEVELS} уровней, указано {MAX_LEVELS + 1}"]


# ----- JSON packs ---------------------------------------------------------------------------------
@pytest.mark.parametrize("text, line", [
    ('{"cards": ' + "[" * 100_000 + "]" * 100_000 + "}", "JSON: скобки вложены глубже 64 уровней"),
    ('{"format": "lyceum-pack/1", "skill_max": ' + "9" * 5000 + "}", "JSON: в числе больше 30 цифр"),
    ('{"skill_max": NaN}', "JSON: NaN — не число, JSON такого не допускает"),
    ('{"levels": [0, 1e999]}', "JSON: число 1e999 слишком велико"),
])
def test_a_json_pack_beyond_reason_is_refused_in_one_line(text, line):
    with pytest.raises(PackImportError) as err:
        json_to_pack(text)
    assert [str(p) for p in err.value.problems] == [line]
    with pytest.raises(PackImportError):
        load_pack_bytes(text.encode(), "deck.json")


def test_a_json_pack_with_a_byte_order_mark_is_read():
    data = b"\xef\xbb\xbf" + json.dumps(sample_pack_data(), ensure_ascii=False).encode()
    assert json_to_pack(data).id == "sample"


def test_a_json_pack_with_too_many_cards_is_refused_once():
    data = sample_pack_data()
    data["cards"] = [dict(data["cards"][0], code=f"K{i}") for i in range(MAX_CARDS + 1)]
    with pytest.raises(PackImportError) as err:
        json_to_pack(json.dumps(data))
    assert [str(p) for p in err.value.problems] == [
        f"набор, карты: в наборе может быть не больше {MAX_CARDS} карт, указано {MAX_CARDS + 1}"]
