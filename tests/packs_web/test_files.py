"""Issue 6, items 1-3 in the app: the organizer downloads the Excel template, uploads a filled-in
workbook or a `lyceum-pack/1` JSON file, and downloads any stored version back as either.

An upload that breaks a rule is refused as a whole: every problem is listed with its cell
(``Карты!O11: …``) and nothing is stored.
"""

import json
from io import BytesIO

import pytest
from openpyxl import load_workbook

from facilitator.rules.lyceum.ruleset import sample_pack, sample_pack_data
from facilitator.games.lyceum.excel import workbook_to_pack
from facilitator.games.lyceum.importing import PackImportError, json_to_pack
from facilitator.i18n import use_locale
from facilitator.rules.lyceum import read_pack

from .helpers import PACKS, XLSX, everything, get, latest, submit, upload, versions

SAMPLE = PACKS + "/sample"

#: a small pack with the values a careless writer would lose: free SP without gains, every shape
#: of special, skill_max, a character with no skills, levels one XP apart, letters beyond Cyrillic
ODD = {
    "format": "lyceum-pack/1", "id": "kubok-2026", "title": "Кубок «16/25» — осень ✓",
    "description": "Колода для кубка\nв две строки",
    "levels": [0, 1, 2, 5000], "skill_max": 9,
    "characters": [
        {"code": "Z0", "name": "Нулевой", "direction": "", "skills": {}},
        {"code": "Z9", "name": "Ёжик 🦔", "direction": "Естественные науки",
         "skills": {"health": 9, "intellect": 9, "creativity": 9, "communication": 9, "energy": 9}},
    ],
    "cards": [
        {"code": "L-G-01", "era": "lyceum", "color": "green", "title": "Только свободный SP", "text": "",
         "conditions": {}, "losses": {}, "gains": {}, "free": 1, "special": None},
        {"code": "U-R-01", "era": "university", "color": "red", "title": "Только перераспределение", "text": "",
         "conditions": {"health": 9}, "losses": {"health": 3}, "gains": {"energy": 6}, "free": 0,
         "special": {"text": "", "redistribute": 2}},
        {"code": "A-R-01", "era": "adult", "color": "red", "title": "Текст спецвозможности",
         "text": "строка 1\nстрока 2", "conditions": {}, "losses": {}, "gains": {}, "free": 6,
         "special": {"text": "Каждый другой игрок получает +1 SP ✨"}},
    ],
}


def edited_workbook(body, edits):
    """Workbook bytes with cells changed: ``edits`` are ``(sheet, cell, value)``."""
    wb = load_workbook(BytesIO(body))
    for sheet, cell, value in edits:
        wb[sheet][cell] = value
    out = BytesIO()
    wb.save(out)
    return out.getvalue()


def template(client):
    response = client.get(PACKS + "/template.xlsx")
    assert response.status_code == 200
    return response.data


# ----- downloads --------------------------------------------------------------------------
def test_the_template_downloads_as_a_workbook_filled_with_the_sample_deck(client):
    response = client.get(PACKS + "/template.xlsx")
    assert response.status_code == 200
    assert response.mimetype == XLSX
    assert response.headers["Content-Disposition"] == "attachment; filename=lyceum-pack-template.xlsx"
    wb = load_workbook(BytesIO(response.data))
    assert wb.sheetnames == ["Инструкция", "Персонажи", "Карты", "Уровни"]
    assert [c.value for c in wb["Карты"][1]][:4] == ["Код", "Эпоха", "Цвет", "Название"]
    assert wb["Карты"]["A2"].value == "L-G-01" and wb["Карты"]["B2"].value == "Лицей"

    with use_locale("ru"):
        pack = workbook_to_pack(response.data)
    assert pack.id == "my-deck"
    assert pack.cards == sample_pack().cards and pack.characters == sample_pack().characters
    assert pack.levels == sample_pack().levels


def test_the_template_has_english_headers_when_english_is_chosen(english):
    wb = load_workbook(BytesIO(template(english)))
    assert wb.sheetnames == ["Instructions", "Characters", "Cards", "Levels"]


def test_export_json_is_the_stored_pack(client, app):
    response = client.get(SAMPLE + "/export.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    assert response.headers["Content-Disposition"] == "attachment; filename=pack-sample-v1.json"
    assert json.loads(response.data) == latest(app) == sample_pack_data()
    assert json_to_pack(response.data) == sample_pack()


def test_export_xlsx_round_trips_through_the_workbook_reader(client, app):
    for lang in ("ru", "en"):
        response = client.get(f"{SAMPLE}/export.xlsx?lang={lang}")
        assert response.status_code == 200 and response.mimetype == XLSX
        assert response.headers["Content-Disposition"] == "attachment; filename=pack-sample-v1.xlsx"
        with use_locale(lang):
            assert workbook_to_pack(response.data).to_dict() == latest(app)


def test_an_odd_pack_round_trips_through_both_downloads(client, app):
    page = upload(client, "kubok.json", json.dumps(ODD, ensure_ascii=False).encode())
    assert page.messages("error") == []
    assert latest(app, "kubok-2026") == read_pack(ODD).to_dict()
    body = client.get(PACKS + "/kubok-2026/export.xlsx").data
    with use_locale("ru"):
        assert workbook_to_pack(body) == read_pack(ODD)
    assert json.loads(client.get(PACKS + "/kubok-2026/export.json").data) == read_pack(ODD).to_dict()


def test_an_older_version_downloads_as_it_was(client, app):
    form = get(client, SAMPLE + "/cards/L-G-01").edit_form()
    assert submit(client, form, title="Городская олимпиада").status == 303
    v1, v2 = (json.loads(client.get(f"{SAMPLE}/export.json?version={v}").data) for v in (1, 2))
    assert v1 == sample_pack_data()
    assert v2 == latest(app) and v2["cards"][0]["title"] == "Городская олимпиада"
    assert json.loads(client.get(SAMPLE + "/export.json").data) == v2  # no version: the newest
    response = client.get(f"{SAMPLE}/export.xlsx?version=1")
    assert response.headers["Content-Disposition"] == "attachment; filename=pack-sample-v1.xlsx"
    with use_locale("ru"):
        assert workbook_to_pack(response.data) == sample_pack()


@pytest.mark.parametrize("url", [SAMPLE + "/export.csv", SAMPLE + "/export.json?version=7",
                                 PACKS + "/nothing/export.json", PACKS + "/nothing"])
def test_what_is_not_stored_is_not_found(client, url):
    assert client.get(url).status_code == 404


# ----- uploads ----------------------------------------------------------------------------
def test_the_template_uploaded_as_it_comes_is_a_new_pack(client, app):
    body = template(client)
    page = upload(client, "шаблон.xlsx", body)
    assert page.response.request.path == PACKS + "/my-deck"
    assert page.messages("error") == []
    assert page.messages("ok") == ["Набор «Мой набор» загружен (версия 1)"]
    with use_locale("ru"):
        assert latest(app, "my-deck") == workbook_to_pack(body).to_dict()
    assert "Мой набор" in get(client, PACKS + "/")


def test_a_filled_in_template_uploaded_again_is_the_next_version(client, app):
    body = template(client)
    upload(client, "deck.xlsx", body)
    filled = edited_workbook(body, [("Карты", "D2", "Олимпиада Высшей школы экономики"), ("Уровни", "B3", 250),
                                    ("Персонажи", "B2", "Мария")])
    page = upload(client, "deck.xlsx", filled)
    assert page.messages("ok") == ["Набор «Мой набор» загружен (версия 2)"]
    first, second = (data for _v, data in versions(app, "my-deck"))
    assert second["cards"][0]["title"] == "Олимпиада Высшей школы экономики"
    assert second["levels"][1] == 250 and second["characters"][0]["name"] == "Мария"
    assert second["cards"][1:] == first["cards"][1:]


def test_a_json_pack_uploads(client, app):
    page = upload(client, "kubok.json", json.dumps(ODD, ensure_ascii=False, indent=1).encode("utf-8"))
    assert page.response.request.path == PACKS + "/kubok-2026"
    assert page.messages("ok") == ["Набор «Кубок «16/25» — осень ✓» загружен (версия 1)"]
    assert latest(app, "kubok-2026") == read_pack(ODD).to_dict()
    assert [v for v, _ in versions(app)] == [1]  # the sample pack is untouched


#: (what is wrong, cell edits of the sample deck's workbook, every line of the refusal)
BAD_WORKBOOK = [
    ("Карты", "O11", 2),  # L-Y-01 loses 2 SP of energy
    ("Карты", "V2", "особое"),  # a special on a green card
    ("Карты", "B3", "Школа"),  # an era that does not exist
    ("Карты", "A5", "L-G-01"),  # a code used twice
    ("Персонажи", "D2", -1),  # a negative skill
    ("Персонажи", "B3", None),  # a character without a name
    ("Уровни", "B4", 200),  # levels not increasing
]
BAD_WORKBOOK_LINES = [
    "Персонажи!D2: не может быть отрицательным, указано -1",
    "Персонажи!B3: не заполнено поле «Имя»",
    "Карты!V2: спецвозможность бывает только у красных карт, а это зелёная карта",
    "Карты!B3: неизвестная эпоха «Школа»; эпохи: Лицей, Универ, Взрослая жизнь",
    "Карты!A5: такой код уже есть в строке 2",
    "Карты!O11: жёлтая карта должна стоить ровно 1 SP, указано 2",
    "Уровни!B4: пороги уровней должны возрастать: уровень 3 (200 XP) не выше уровня 2 (200 XP)",
]


def test_a_bad_workbook_lists_every_problem_with_its_cell_and_stores_nothing(client, app):
    bad = edited_workbook(template(client), BAD_WORKBOOK)
    stored = everything(app)
    page = upload(client, "deck.xlsx", bad)
    assert page.response.request.path == PACKS + "/"
    assert page.messages("ok") == []
    assert sorted(page.messages("error")) == sorted(BAD_WORKBOOK_LINES)
    with use_locale("ru"), pytest.raises(PackImportError) as refusal:  # the same lines as `facilitator pack import`
        workbook_to_pack(bad)
    assert sorted(page.messages("error")) == sorted(refusal.value.lines())
    assert everything(app) == stored


def test_a_bad_json_pack_is_refused_by_card_and_field(client, app):
    data = json.loads(json.dumps(ODD))
    data["cards"][0]["losses"] = {"energy": 1}
    data["characters"][1]["skills"]["health"] = 10
    stored = everything(app)
    page = upload(client, "kubok.json", json.dumps(data).encode())
    assert sorted(page.messages("error")) == sorted([
        "персонаж Z9, умения: здоровье: 10 — больше максимума умения (9)",
        "карта L-G-01, потери: зелёная карта должна стоить ровно 0 SP, указано 1",
    ])
    assert everything(app) == stored


@pytest.mark.parametrize("filename, body, line", [
    ("deck.xlsx", b"PK\x03\x04 not really a workbook", "файл не является книгой Excel (.xlsx)"),
    ("deck.json", b'{"format": "lyceum-pack/1", ', "JSON: "),
    ("deck.json", "[]".encode(), "набор: "),
])
def test_a_file_that_is_not_a_pack_is_refused(client, app, filename, body, line):
    stored = everything(app)
    page = upload(client, filename, body)
    errors = page.messages("error")
    assert len(errors) == 1 and errors[0].startswith(line), errors
    assert everything(app) == stored


def test_an_upload_without_a_file_asks_for_one(client, app):
    stored = everything(app)
    form = get(client, PACKS + "/").form("/upload")
    page = submit(client, form, follow=True)
    assert page.messages("error") == ["Выберите файл набора (.xlsx или .json) для загрузки"]
    assert everything(app) == stored
