"""Issue 6, item 2: a workbook or JSON pack that breaks a rule of RULES.md 1 is refused as a
whole, every problem located by sheet, row and column (JSON: by code and field), in Russian.

The sample deck's workbook (Russian headers) is the starting point; its rows are
Карты: 2..10 L-G-01..09, 11..19 L-Y-01..09, 20..28 L-R-01..09, then U-..., A-...;
columns A code, B era, C colour, D title, E text, F..J conditions, K..O losses,
P..T gains (health, intellect, creativity, communication, energy), U free SP,
V special, W its redistribution. Персонажи: A code, B name, C direction, D..H skills.
Уровни: A level, B XP. Инструкция: B4 pack code, B5 title, B6 description, B7 skill maximum.
"""

import json

import pytest

from facilitator.rules.lyceum.ruleset import sample_pack_data
from facilitator.games.lyceum.excel import workbook_to_pack
from facilitator.games.lyceum.importing import PackImportError, json_to_pack
from facilitator.i18n import use_locale

from .helpers import edited, refusal, sample_data_with, sample_workbook

SKILLS_RU = "здоровье, интеллект, творчество, коммуникация, энергия"

# (what is wrong, cell edits, every line of the refusal)
REFUSALS = [
    # colour rules (RULES.md 1): the one filled cell of a sum, or all the cells of the sum
    ("yellow card losing 2", [("Карты", "O11", 2)],
     ["Карты!O11: жёлтая карта должна стоить ровно 1 SP, указано 2"]),
    ("yellow card losing 1 + 1", [("Карты", "K11", 1)],
     ["Карты!K11:O11: жёлтая карта должна стоить ровно 1 SP, указано 2"]),
    ("yellow card losing nothing", [("Карты", "O11", None)],
     ["Карты!K11:O11: жёлтая карта должна стоить ровно 1 SP, указано 0"]),
    ("green card giving 2", [("Карты", "Q2", 2)],
     ["Карты!Q2: зелёная карта должна давать ровно 1 SP (прибавки + свободные), указано 2"]),
    ("green card giving nothing", [("Карты", "Q2", None)],
     ["Карты!P2:U2: зелёная карта должна давать ровно 1 SP (прибавки + свободные), указано 0"]),
    ("green card with a loss", [("Карты", "O2", 1)],
     ["Карты!O2: зелёная карта должна стоить ровно 0 SP, указано 1"]),
    ("yellow card giving 4", [("Карты", "Q11", 4)],
     ["Карты!Q11: жёлтая карта должна давать от 1 до 3 SP (прибавки + свободные), указано 4"]),
    ("red card giving 6 + 1 free", [("Карты", "Q20", 6)],
     ["Карты!P20:U20: красная карта должна давать от 0 до 6 SP (прибавки + свободные), указано 7"]),
    ("red card losing 4", [("Карты", "O20", 3)],
     ["Карты!K20:O20: красная карта должна стоить от 0 до 3 SP, указано 4"]),
    ("special on a yellow card", [("Карты", "V11", "особое")],
     ["Карты!V11: спецвозможность бывает только у красных карт, а это жёлтая карта"]),
    ("redistribution on a green card", [("Карты", "W2", 2)],
     ["Карты!W2: спецвозможность бывает только у красных карт, а это зелёная карта"]),
    # unknown skill, era or colour
    ("unknown skill column", [("Карты", "F1", "Условия: харизма")],
     ["Карты: нет столбца «Условия: здоровье»",
      f"Карты!F1: неизвестное умение «харизма» в столбце «Условия: харизма»; умения: {SKILLS_RU}"]),
    ("unknown era", [("Карты", "B2", "Школа")],
     ["Карты!B2: неизвестная эпоха «Школа»; эпохи: Лицей, Универ, Взрослая жизнь"]),
    ("unknown colour", [("Карты", "C2", "синяя")],
     ["Карты!C2: неизвестный цвет «синяя»; цвета: зелёная, жёлтая, красная"]),
    ("no era", [("Карты", "B2", None)], ["Карты!B2: не заполнено поле «Эпоха»"]),
    # duplicate codes
    ("duplicate card code", [("Карты", "A3", "L-G-01")], ["Карты!A3: такой код уже есть в строке 2"]),
    ("duplicate character code", [("Персонажи", "A4", "C01")],
     ["Персонажи!A4: такой код уже есть в строке 2"]),
    # numbers
    ("negative skill", [("Персонажи", "D2", -1)], ["Персонажи!D2: не может быть отрицательным, указано -1"]),
    ("negative condition", [("Карты", "G2", -3)], ["Карты!G2: не может быть отрицательным, указано -3"]),
    ("text where a number belongs", [("Карты", "G2", "три")],
     ["Карты!G2: «три» — не число, здесь нужно целое число"]),
    ("fraction of XP", [("Уровни", "B3", 250.5)], ["Уровни!B3: 250.5 — не целое число"]),
    ("fraction typed as text", [("Карты", "U4", "1,5")], ["Карты!U4: 1,5 — не целое число"]),
    ("redistribution of 0", [("Карты", "W21", 0)], ["Карты!W21: должно быть не меньше 1, указано 0"]),
    # levels
    ("levels not increasing", [("Уровни", "B4", 200)],
     ["Уровни!B4: пороги уровней должны возрастать: уровень 3 (200 XP) не выше уровня 2 (200 XP)"]),
    ("levels going down", [("Уровни", "B5", 300)],
     ["Уровни!B5: пороги уровней должны возрастать: уровень 4 (300 XP) не выше уровня 3 (400 XP)"]),
    ("level 1 above 0", [("Уровни", "B2", 100)], ["Уровни!B2: уровень 1 должен начинаться с 0 XP, указано 100"]),
    ("level without XP", [("Уровни", "B6", None)],
     ["Уровни!B6: не заполнено поле «Опыт (XP), с которого начинается уровень»"]),
    # missing names, titles and codes
    ("character without a name", [("Персонажи", "B2", None)], ["Персонажи!B2: не заполнено поле «Имя»"]),
    ("character without a code", [("Персонажи", "A3", "  ")], ["Персонажи!A3: не заполнено поле «Код»"]),
    ("card without a title", [("Карты", "D2", " ")], ["Карты!D2: не заполнено поле «Название»"]),
    ("card without a code", [("Карты", "A2", None)], ["Карты!A2: не заполнено поле «Код»"]),
    ("pack without a code", [("Инструкция", "B4", None)], ["Инструкция!B4: не заполнено поле «Код набора»"]),
    ("pack without a title", [("Инструкция", "B5", None)],
     ["Инструкция!B5: не заполнено поле «Название набора»"]),
    # the skill maximum
    ("skill maximum below a character's skill", [("Инструкция", "B7", 5)],
     ["Персонажи!E2: 6 — больше максимума умения (5)", "Персонажи!F10: 6 — больше максимума умения (5)"]),
    ("skill maximum of 0", [("Инструкция", "B7", 0)], ["Инструкция!B7: должно быть не меньше 1, указано 0"]),
    ("skill maximum as text", [("Инструкция", "B7", "нет")],
     ["Инструкция!B7: «нет» — не число, здесь нужно целое число"]),
    # the layout
    ("a column twice", [("Карты", "X1", "код")], ["Карты!X1: столбец «код» встречается дважды"]),
    ("a column missing", [("Карты", "O1", None)], ["Карты: нет столбца «Потери: энергия»"]),
]


@pytest.mark.parametrize("what, edits, lines", REFUSALS, ids=[r[0] for r in REFUSALS])
def test_a_workbook_breaking_a_rule_is_refused_naming_the_cell(what, edits, lines):
    assert refusal(edited(sample_workbook(), edits)) == lines


def test_a_missing_sheet_is_named():
    assert refusal(edited(sample_workbook(), delete_sheets=["Уровни"])) == ["Уровни: нет листа «Уровни»"]


def test_a_sheet_with_no_rows_is_refused():
    data = edited(sample_workbook(), delete_rows=[("Персонажи", 2, 10)])
    assert refusal(data) == ["Персонажи!A2: на листе нет ни одной строки"]


def test_a_file_that_is_not_a_workbook_is_refused():
    with pytest.raises(PackImportError) as err:
        workbook_to_pack(b"PK\x03\x04 not really a zip")
    assert [str(p) for p in err.value.problems] == ["файл не является книгой Excel (.xlsx)"]


def test_every_problem_is_listed_at_once_in_sheet_and_row_order():
    data = edited(sample_workbook(), [
        ("Уровни", "B4", 150), ("Карты", "O11", 2), ("Карты", "C3", "фиолетовая"),
        ("Карты", "G5", "много"), ("Карты", "A8", "L-G-01"), ("Персонажи", "D2", 2.5),
        ("Инструкция", "B4", None), ("Карты", "V2", "особое"), ("Карты", "D9", None)])
    assert refusal(data) == [
        "Инструкция!B4: не заполнено поле «Код набора»",
        "Персонажи!D2: 2.5 — не целое число",
        "Карты!V2: спецвозможность бывает только у красных карт, а это зелёная карта",
        "Карты!C3: неизвестный цвет «фиолетовая»; цвета: зелёная, жёлтая, красная",
        "Карты!G5: «много» — не число, здесь нужно целое число",
        "Карты!A8: такой код уже есть в строке 2",
        "Карты!D9: не заполнено поле «Название»",
        "Карты!O11: жёлтая карта должна стоить ровно 1 SP, указано 2",
        "Уровни!B4: пороги уровней должны возрастать: уровень 3 (150 XP) не выше уровня 2 (200 XP)",
    ]


def test_a_bad_number_in_a_sum_is_reported_once_not_again_as_a_colour_rule():
    # «много» in a gains cell: the colour rule on gains cannot be judged, so only the cell is named
    assert refusal(edited(sample_workbook(), [("Карты", "Q2", "много")])) == [
        "Карты!Q2: «много» — не число, здесь нужно целое число"]


def test_the_refusal_gives_its_problems_as_lines_for_a_flash_message():
    with pytest.raises(PackImportError) as err:
        workbook_to_pack(edited(sample_workbook(), [("Карты", "O11", 2), ("Карты", "G5", "много")]))
    assert err.value.lines() == ["Карты!G5: «много» — не число, здесь нужно целое число",
                                 "Карты!O11: жёлтая карта должна стоить ровно 1 SP, указано 2"]
    assert str(err.value) == "\n".join(err.value.lines())


def test_each_problem_carries_its_cell_key_and_numbers_for_the_editor():
    with pytest.raises(PackImportError) as err:
        workbook_to_pack(edited(sample_workbook(), [("Карты", "O11", 2)]))
    (p,) = err.value.problems
    assert (p.sheet, p.cell, p.row, p.key) == ("Карты", "O11", 11, "losses_exact")
    assert p.params == {"color": "yellow", "need": 1, "got": 2}
    assert (p.item, p.index, p.code, p.field) == ("card", 9, "L-Y-01", "losses")


def test_problems_are_in_english_when_the_locale_is_english():
    data = edited(sample_workbook(), [("Карты", "O11", 2), ("Карты", "G5", "много")])
    with use_locale("en"):
        assert refusal(data) == ["Карты!G5: «много» is not a number",
                                 "Карты!O11: a yellow card must cost exactly 1 SP, got 2"]


# ----- JSON: problems by card or character code and field ---------------------------------
def _set(path, value):
    def change(data):
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


JSON_REFUSALS = [
    ("yellow card losing 2", _set(["cards", 9, "losses"], {"energy": 2}),
     ["карта L-Y-01, потери: жёлтая карта должна стоить ровно 1 SP, указано 2"]),
    ("special on a green card", _set(["cards", 0, "special"], {"text": "особое"}),
     ["карта L-G-01, спецвозможность: спецвозможность бывает только у красных карт, а это зелёная карта"]),
    ("unknown skill", _set(["cards", 0, "conditions"], {"charisma": 2}),
     ["карта L-G-01, условия: charisma: нет такого умения: 'charisma'; умения: "
      "health, intellect, creativity, communication, energy"]),
    ("unknown era", _set(["cards", 0, "era"], "school"),
     ["карта L-G-01, эпоха: нет такой эпохи: 'school'; эпохи: lyceum, university, adult"]),
    ("unknown colour", _set(["cards", 0, "color"], "blue"),
     ["карта L-G-01, цвет: нет такого цвета: 'blue'; цвета: green, yellow, red"]),
    ("duplicate card code", _set(["cards", 1, "code"], "L-G-01"),
     ["карта L-G-01, код: такой код уже у карты №1"]),
    ("duplicate character code", _set(["characters", 2, "code"], "C01"),
     ["персонаж C01, код: такой код уже у персонажа №1"]),
    ("negative skill", _set(["characters", 0, "skills", "health"], -1),
     ["персонаж C01, умения: здоровье: должно быть не меньше 0, указано -1"]),
    ("text where a number belongs", _set(["cards", 0, "free"], "one"),
     ["карта L-G-01, свободные SP: должно быть целым числом, а не 'one'"]),
    ("levels not increasing", _set(["levels", 3], 300),
     ["уровень 4: пороги уровней должны возрастать: уровень 4 (300 XP) не выше уровня 3 (400 XP)"]),
    ("character without a name", _set(["characters", 0, "name"], ""), ["персонаж C01, имя: нужно заполнить"]),
    ("pack without a title", _set(["title"], " "), ["набор, название: нужно заполнить"]),
    ("skill maximum below a skill", _set(["skill_max"], 5),
     ["персонаж C01, умения: интеллект: 6 — больше максимума умения (5)",
      "персонаж C09, умения: творчество: 6 — больше максимума умения (5)"]),
    ("no cards", _set(["cards"], []), ["набор, карты: в наборе должна быть хотя бы одна карта"]),
]


@pytest.mark.parametrize("what, change, lines", JSON_REFUSALS, ids=[r[0] for r in JSON_REFUSALS])
def test_a_json_pack_breaking_a_rule_is_refused_naming_the_code_and_field(what, change, lines):
    with pytest.raises(PackImportError) as err:
        json_to_pack(json.dumps(sample_data_with(change)))
    assert [str(p) for p in err.value.problems] == lines


def test_a_json_pack_lists_every_problem():
    def change(data):
        data["cards"][9]["losses"] = {"energy": 2}
        data["characters"][0]["name"] = ""
        data["levels"][3] = 300
    with pytest.raises(PackImportError) as err:
        json_to_pack(json.dumps(sample_data_with(change)))
    assert len(err.value.problems) == 3


def test_text_that_is_not_json_is_refused_with_its_position():
    with pytest.raises(PackImportError) as err:
        json_to_pack('{"format": "lyceum-pack/1",}')
    (p,) = err.value.problems
    assert str(p).startswith("JSON: это не JSON: строка 1, позиция 28:")


def test_bytes_that_are_not_utf8_are_refused():
    with pytest.raises(PackImportError) as err:
        json_to_pack("{}".encode("utf-16"))
    assert [str(p) for p in err.value.problems] == ["файл не в кодировке UTF-8"]


def test_json_problems_are_in_english_when_the_locale_is_english():
    with use_locale("en"), pytest.raises(PackImportError) as err:
        json_to_pack(json.dumps(sample_data_with(_set(["cards", 9, "losses"], {"energy": 2}))))
    assert [str(p) for p in err.value.problems] == [
        "card L-Y-01, the losses: a yellow card must cost exactly 1 SP, got 2"]


def test_the_sample_pack_itself_is_accepted():
    assert json_to_pack(json.dumps(sample_pack_data())).id == "sample"
