"""Issue 6, item 3: any pack goes out to a workbook or to `lyceum-pack/1` JSON and comes back
equal, and the organizer's template is the sample deck in the import's own layout."""

import json
from io import BytesIO

import pytest
from openpyxl import load_workbook

from facilitator.rules.lyceum.ruleset import sample_pack
from facilitator.games.lyceum.excel import (CARD_COLUMNS, pack_to_workbook, template_workbook,
                                       workbook_to_pack)
from facilitator.games.lyceum.importing import json_to_pack, pack_to_json
from facilitator.i18n import use_locale
from facilitator.rules.lyceum import SKILLS

from .helpers import edited, odd_pack, sample_workbook

PACKS = {"sample": sample_pack, "odd": odd_pack}


@pytest.mark.parametrize("name", PACKS)
def test_pack_to_workbook_and_back_is_the_same_pack(name):
    pack = PACKS[name]()
    back = workbook_to_pack(pack_to_workbook(pack))
    assert back == pack
    assert back.to_dict() == pack.to_dict()  # field by field, in order


@pytest.mark.parametrize("name", PACKS)
@pytest.mark.parametrize("as_bytes", [False, True])
def test_pack_to_json_and_back_is_the_same_pack(name, as_bytes):
    pack = PACKS[name]()
    text = pack_to_json(pack)
    assert json_to_pack(text.encode("utf-8") if as_bytes else text) == pack


def test_the_odd_pack_keeps_its_odd_values_through_the_workbook():
    back = workbook_to_pack(pack_to_workbook(odd_pack()))
    cards = back.cards_by_code
    assert back.skill_max == 9 and back.levels == (0, 1, 2, 100000)
    assert back.description == "Описание\nв две строки"
    assert cards["L-G-01"].free == 1 and cards["L-G-01"].gains == {}
    assert cards["007"].title == "2024" and cards["007"].text == "  пробелы по краям  "
    assert cards["U-R-1"].title == "=SUM(A1:A3)" and cards["U-R-1"].special is None
    assert cards["U-R-2"].special.text == "" and cards["U-R-2"].special.redistribute == 2
    assert cards["A-R-1"].special.redistribute is None
    assert back.characters_by_code["Z0"].skills == dict.fromkeys(SKILLS, 0)


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_a_workbook_written_in_either_language_reads_back_in_the_other(locale):
    with use_locale(locale):
        data = pack_to_workbook(sample_pack())
    other = "en" if locale == "ru" else "ru"
    with use_locale(other):
        assert workbook_to_pack(data) == sample_pack()


def test_era_and_colour_may_be_given_by_their_keys_or_loosely_spelled():
    data = edited(sample_workbook(), [("Карты", "B2", "lyceum"), ("Карты", "C2", "green"),
                                      ("Карты", "B3", " лицей "), ("Карты", "C3", "Зеленая"),
                                      ("Карты", "B29", "Университет"), ("Карты", "C11", "ЖЁЛТАЯ")])
    assert workbook_to_pack(data) == sample_pack()


def test_columns_may_be_reordered_and_extra_columns_are_not_read():
    wb = load_workbook(BytesIO(sample_workbook()))
    ws = wb["Карты"]
    ws.move_range(f"A1:A{ws.max_row}", cols=ws.max_column + 1)  # the code column goes last
    ws.cell(row=1, column=ws.max_column + 1, value="Заметки")
    ws.cell(row=5, column=ws.max_column, value="проверить у методиста")
    out = BytesIO()
    wb.save(out)
    assert workbook_to_pack(out.getvalue()) == sample_pack()


def test_numbers_typed_as_text_or_as_whole_floats_are_read_as_numbers():
    data = edited(sample_workbook(), [("Карты", "G2", "3"), ("Уровни", "B3", 200.0),
                                      ("Персонажи", "D2", " 3 ")])
    assert workbook_to_pack(data) == sample_pack()


def test_pack_id_and_title_given_to_the_import_replace_the_workbook_settings():
    pack = workbook_to_pack(sample_workbook(), pack_id="lyceum-2025", title="Лицей 2025")
    assert (pack.id, pack.title) == ("lyceum-2025", "Лицей 2025")
    assert pack.cards == sample_pack().cards


def test_json_export_is_the_lyceum_pack_format():
    data = json.loads(pack_to_json(sample_pack()))
    assert data["format"] == "lyceum-pack/1"
    assert data == sample_pack().to_dict()


# ----- the template ------------------------------------------------------------------------
def _template():
    return load_workbook(BytesIO(template_workbook()))


def test_the_template_has_the_four_sheets_with_russian_headers():
    wb = _template()
    assert wb.sheetnames == ["Инструкция", "Персонажи", "Карты", "Уровни"]
    headers = [c.value for c in wb["Карты"][1]]
    assert headers[:5] == ["Код", "Эпоха", "Цвет", "Название", "Текст"]
    assert "Условия: здоровье" in headers and "Потери: энергия" in headers
    assert "Прибавки: интеллект" in headers and "Свободные SP" in headers
    assert len(headers) == len(CARD_COLUMNS)
    assert [c.value for c in wb["Персонажи"][1]] == ["Код", "Имя", "Направление", "Здоровье", "Интеллект",
                                                      "Творчество", "Коммуникация", "Энергия"]
    assert [c.value for c in wb["Уровни"][1]] == ["Уровень", "Опыт (XP), с которого начинается уровень"]


def test_the_template_offers_era_and_colour_from_drop_down_lists():
    ws = _template()["Карты"]
    lists = {str(dv.sqref).split(":")[0]: dv.formula1 for dv in ws.data_validations.dataValidation
             if dv.type == "list"}
    assert lists == {"B2": '"Лицей,Универ,Взрослая жизнь"', "C2": '"зелёная,жёлтая,красная"'}
    whole = [dv for dv in ws.data_validations.dataValidation if dv.type == "whole"]
    assert len(whole) == 3 * len(SKILLS) + 2  # every skill column, free SP, redistribution


def test_the_template_freezes_the_headers_and_sizes_the_columns():
    wb = _template()
    assert wb["Карты"].freeze_panes == "B2"
    assert wb["Персонажи"].freeze_panes == "B2"
    assert wb["Уровни"].freeze_panes == "A2"
    assert wb["Карты"].column_dimensions["D"].width == 30
    assert wb["Карты"]["A1"].font.bold


def test_the_template_is_the_sample_deck_under_a_pack_code_of_its_own():
    pack = workbook_to_pack(template_workbook())
    assert (pack.id, pack.title) == ("my-deck", "Мой набор")
    assert pack.cards == sample_pack().cards
    assert pack.characters == sample_pack().characters
    assert pack.levels == sample_pack().levels


def test_the_instructions_sheet_holds_the_settings_and_explains_the_colour_rules():
    ws = _template()["Инструкция"]
    settings = {ws.cell(row=r, column=1).value: ws.cell(row=r, column=2).value for r in range(4, 8)}
    assert settings == {"Код набора": "my-deck", "Название набора": "Мой набор", "Описание набора": None,
                        "Максимум умения": None}
    text = "\n".join(str(c.value) for row in ws.iter_rows() for c in row if c.value)
    assert "зелёная: 100 XP, прибавки + свободные SP ровно 1, потери ровно 0, без спецвозможности" in text
    assert "жёлтая: 200 XP, прибавки + свободные SP 1–3, потери ровно 1, без спецвозможности" in text
    assert "красная: 500 XP, прибавки + свободные SP 0–6, потери 0–3, может быть спецвозможность" in text
    assert "Карты!K14: жёлтая карта должна стоить ровно 1 SP, указано 2" in text


def test_control_characters_a_workbook_cannot_hold_are_left_out_of_the_export():
    data = odd_pack().to_dict()
    data["cards"][0]["text"] = "звонок\x07 и\tтаб"
    from facilitator.rules.lyceum import read_pack
    back = workbook_to_pack(pack_to_workbook(read_pack(data)))
    assert back.cards_by_code["L-G-01"].text == "звонок и\tтаб"


@pytest.mark.parametrize("filename", ["deck.xlsx", "DECK.XLSX", "deck.xlsm", "upload", ""])
def test_an_uploaded_workbook_is_recognized_by_its_name_or_its_first_bytes(filename):
    from facilitator.games.lyceum.importing import load_pack_bytes
    assert load_pack_bytes(sample_workbook(), filename) == sample_pack()


@pytest.mark.parametrize("filename", ["pack.json", "pack.JSON", "pack", ""])
def test_an_uploaded_json_pack_is_recognized_by_its_name_or_its_first_bytes(filename):
    from facilitator.games.lyceum.importing import load_pack_bytes
    assert load_pack_bytes(pack_to_json(odd_pack()).encode("utf-8"), filename) == odd_pack()
