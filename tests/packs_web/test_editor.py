"""Issue 6, item 4: the organizer's pack editor lists, searches, adds, edits and deletes cards and
characters; every save is a new version of the pack, with the edited item exactly as entered
and every other item untouched.

The pages are checked in both languages of the app: Russian (the default) and English.
"""

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file

from facilitator import i18n
from facilitator.rules.lyceum.ruleset import sample_pack_data

from .helpers import PACKS, card_fields, card_of, character_of, get, latest, submit, versions

SAMPLE = PACKS + "/sample"
TEMPLATES = Path(__file__).resolve().parents[2] / "facilitator" / "templates" / "packs"

#: (page, what it must show in Russian, the same in English)
PAGES = [
    (PACKS + "/", ["Наборы карт", "Загрузить свою колоду", "Скачать шаблон", "Версия",
                   "Пример колоды (не оригинальная игра)"],
     ["Content packs", "Upload your deck", "Download the template"]),
    (SAMPLE, ["Сводка", "Уровни", "Персонажи", "Карты", "Добавить карту", "Добавить персонажа", "Лицей", "Универ",
              "зелёная", "Школьная олимпиада"],
     ["Summary", "Levels", "Characters", "Cards", "Lyceum", "University", "green", "Школьная олимпиада"]),
    (SAMPLE + "/cards/L-R-02", ["Карта L-R-02", "Условия", "Потери", "Прибавки", "Свободные SP",
                                "Перераспределить до", "Сохранить", "Удалить карту"],
     ["Card L-R-02", "Conditions", "Losses", "Gains", "Free SP", "Redistribute up to"]),
    (SAMPLE + "/cards/new", ["Новая карта", "Эпоха", "Цвет", "Название", "Текст", "Условия"],
     ["New card", "Era", "Colour", "Title", "Text", "Conditions"]),
    (SAMPLE + "/characters/C01", ["Персонаж C01", "Имя", "Направление", "здоровье", "Удалить персонажа"],
     ["Character C01", "Name", "Direction", "health"]),
    (SAMPLE + "/characters/new", ["Новый персонаж", "Имя", "Направление", "интеллект"],
     ["New character", "Name", "Direction", "intellect"]),
]


@pytest.mark.parametrize("url, russian, english_texts", PAGES, ids=[p[0] for p in PAGES])
def test_the_editor_pages_render_in_russian_and_english(client, url, russian, english_texts):
    page = get(client, url)
    assert page.status == 200
    assert '<html lang="ru">' in page.html
    missing = [t for t in russian if t not in page]
    assert not missing, f"not on the Russian page {url}: {missing}"

    page = get(client, url + "?lang=en")
    assert page.status == 200
    assert '<html lang="en">' in page.html
    missing = [t for t in english_texts if t not in page]
    assert not missing, f"not on the English page {url}: {missing}"


def test_every_text_of_the_pack_editor_has_a_russian_translation():
    """The editor's templates are wholly Russian by default: no label falls back to English."""
    russian = i18n.translations("ru")
    untranslated = []
    for path in sorted(TEMPLATES.glob("*.html")):
        for lineno, message, _c, _ctx in extract_from_file("jinja2.ext.babel_extract", str(path),
                                                           options={"extensions": "jinja2.ext.i18n"}):
            if isinstance(message, str) and russian.ugettext(message) == message:
                untranslated.append(f"{path.name}:{lineno} {message!r}")
    assert not untranslated, "no Russian translation in facilitator/translations/ru/*.po:\n" + "\n".join(untranslated)


# ----- cards ------------------------------------------------------------------------------
NEW_CARD = {"code": "L-G-10", "era": "lyceum", "color": "green", "title": "Шахматный турнир",
            "text": "Сыграл за лицей на городском шахматном турнире.", "conditions": {"intellect": 3, "energy": 2},
            "losses": {}, "gains": {"intellect": 1}, "free": 0, "special": None}


def add_card(client, card):
    page = get(client, f"{SAMPLE}/cards/new?era={card['era']}&color={card['color']}")
    assert page.status == 200
    form = page.edit_form()
    assert (form.fields["era"], form.fields["color"]) == (card["era"], card["color"])  # the list it was opened from
    return submit(client, form, **card_fields(card))


def test_a_card_added_through_the_form_is_a_new_version_with_that_card(client, app):
    before = latest(client.application)
    answer = add_card(client, NEW_CARD)
    assert answer.status == 303
    assert answer.response.headers["Location"].endswith(f"{SAMPLE}?era=lyceum&color=green")

    assert [v for v, _ in versions(app)] == [1, 2]
    after = latest(app)
    assert after["cards"] == before["cards"] + [NEW_CARD]
    assert {k: v for k, v in after.items() if k != "cards"} == {k: v for k, v in before.items() if k != "cards"}

    shown = get(client, answer.response.headers["Location"])
    assert shown.messages("ok") == ["Сохранено как версия 2. Столы, где игра ещё не началась, играют с ней (0); "
                                    "начатые игры остаются на своей версии."]
    assert "L-G-10" in shown and "Шахматный турнир" in shown and "v2" in shown


def test_a_red_card_keeps_its_free_sp_and_special_ability(client, app):
    red = {"code": "A-R-10", "era": "adult", "color": "red", "title": "Собственная лаборатория", "text": "",
           "conditions": {"intellect": 8, "creativity": 6}, "losses": {"health": 1, "energy": 2},
           "gains": {"intellect": 2, "creativity": 1}, "free": 2,
           "special": {"text": "Можно перераспределить до 4 SP", "redistribute": 4}}
    assert add_card(client, red).status == 303
    assert card_of(latest(app), "A-R-10") == red
    form = get(client, f"{SAMPLE}/cards/A-R-10").edit_form()  # the form shows what was saved
    assert form.data() | {"csrf_token": ""} == {k: str(v) for k, v in card_fields(red).items()} | {"csrf_token": ""}


def test_editing_a_card_changes_only_that_card(client, app):
    before = latest(app)
    form = get(client, f"{SAMPLE}/cards/L-Y-03").edit_form()
    assert form.fields["title"] == "Региональная олимпиада" and form.fields["conditions_intellect"] == "5"
    answer = submit(client, form, title="Региональная олимпиада по физике", conditions_intellect=6,
                    conditions_health=2, gains_intellect=1, gains_creativity=1, free="")
    assert answer.status == 303

    after = latest(app)
    assert [v for v, _ in versions(app)] == [1, 2]
    index = [c["code"] for c in before["cards"]].index("L-Y-03")
    assert [c["code"] for c in after["cards"]] == [c["code"] for c in before["cards"]]  # it keeps its place
    assert after["cards"][index] == dict(before["cards"][index], title="Региональная олимпиада по физике",
                                         conditions={"health": 2, "intellect": 6},
                                         gains={"intellect": 1, "creativity": 1}, free=0)
    assert after["cards"][:index] + after["cards"][index + 1:] == before["cards"][:index] + before["cards"][index + 1:]


def test_a_card_can_change_its_code(client, app):
    form = get(client, f"{SAMPLE}/cards/L-G-01").edit_form()
    assert submit(client, form, code="L-G-01a").status == 303
    codes = [c["code"] for c in latest(app)["cards"]]
    assert "L-G-01a" in codes and "L-G-01" not in codes
    assert get(client, f"{SAMPLE}/cards/L-G-01").status == 404


def test_deleting_a_card(client, app):
    before = latest(app)
    page = get(client, f"{SAMPLE}/cards/L-R-09")
    answer = submit(client, page.delete_form())
    assert answer.status == 303 and answer.response.headers["Location"].endswith(SAMPLE)
    after = latest(app)
    assert after["cards"] == [c for c in before["cards"] if c["code"] != "L-R-09"]
    assert get(client, f"{SAMPLE}/cards/L-R-09").status == 404
    assert "L-R-09" not in get(client, SAMPLE)
    assert [v for v, _ in versions(app)] == [1, 2]


def test_the_new_card_form_has_nothing_to_delete(client, app):
    form = get(client, f"{SAMPLE}/cards/new").edit_form()
    answer = submit(client, form, delete=1)
    assert answer.status == 404
    assert len(versions(app)) == 1


def test_saving_a_card_unchanged_adds_no_version(client, app):
    answer = submit(client, get(client, f"{SAMPLE}/cards/U-Y-02").edit_form())
    assert answer.status == 303
    assert [v for v, _ in versions(app)] == [1]


# ----- characters -------------------------------------------------------------------------
def test_adding_editing_and_deleting_a_character(client, app):
    before = latest(app)
    form = get(client, f"{SAMPLE}/characters/new").edit_form()
    skills = {"health": 3, "intellect": 3, "creativity": 5, "communication": 3, "energy": 2}
    answer = submit(client, form, code="C11", name="Ксюша", direction="Медиакоммуникации",
                    **{f"skills_{s}": v for s, v in skills.items()})
    assert answer.status == 303
    added = {"code": "C11", "name": "Ксюша", "direction": "Медиакоммуникации", "skills": skills}
    assert latest(app)["characters"] == before["characters"] + [added]
    assert "Ксюша" in get(client, SAMPLE)

    form = get(client, f"{SAMPLE}/characters/C11").edit_form()
    assert form.fields["name"] == "Ксюша" and form.fields["skills_creativity"] == "5"
    assert submit(client, form, name="Ксения", skills_energy=4, skills_health="").status == 303
    edited = dict(added, name="Ксения", skills=dict(skills, energy=4, health=0))
    assert character_of(latest(app), "C11") == edited

    assert submit(client, get(client, f"{SAMPLE}/characters/C11").delete_form()).status == 303
    assert latest(app)["characters"] == before["characters"]
    assert get(client, f"{SAMPLE}/characters/C11").status == 404
    assert [v for v, _ in versions(app)] == [1, 2, 3, 4]


def test_editing_a_character_changes_only_that_character(client, app):
    before = latest(app)
    form = get(client, f"{SAMPLE}/characters/C05").edit_form()
    assert submit(client, form, direction="Экономика", skills_energy=6).status == 303
    after = latest(app)
    expected = [dict(c, direction="Экономика", skills=dict(c["skills"], energy=6)) if c["code"] == "C05" else c
                for c in before["characters"]]
    assert after["characters"] == expected
    assert after["cards"] == before["cards"] and after["levels"] == before["levels"]


# ----- levels -----------------------------------------------------------------------------
def test_the_levels_form_saves_new_thresholds(client, app):
    form = get(client, SAMPLE).form("/levels")
    assert form.fields["levels"] == "0, 200, 400, 700, 1000, 1400, 1800, 2300, 2800"
    answer = submit(client, form, follow=True, levels="0, 150; 400 ,900")
    assert answer.status == 200 and answer.messages("error") == []
    assert latest(app)["levels"] == [0, 150, 400, 900]
    assert get(client, SAMPLE).form("/levels").fields["levels"] == "0, 150, 400, 900"


# ----- finding cards ------------------------------------------------------------------------
def shown_codes(page):
    return re.findall(r'/cards/([^"/?]+)">', page.html.split("<h2>", 3)[-1])


SEARCHES = [
    # (query string, the cards listed)
    ("", [c["code"] for c in sample_pack_data()["cards"]]),
    ("era=lyceum&color=green", [f"L-G-0{i}" for i in range(1, 10)]),
    ("q=олимпиада", ["L-G-01", "L-Y-03", "L-R-01"]),
    ("q=ОЛИМПИАДА&era=lyceum&color=yellow", ["L-Y-03"]),
    ("q=волонтер", ["L-G-05", "U-G-08"]),  # е finds ё
    ("q=lr02", ["L-R-02"]),  # a code however it is typed
    ("q=олимпиада&era=university", []),
]


@pytest.mark.parametrize("query, codes", SEARCHES, ids=[s[0] or "everything" for s in SEARCHES])
def test_the_card_list_is_searched_by_code_or_title_within_era_and_colour(client, query, codes):
    page = get(client, f"{SAMPLE}?{query}")
    assert page.status == 200
    assert shown_codes(page) == codes
    if not codes:
        assert "Подходящих карт нет." in page
        assert "No card matches." in get(client, f"{SAMPLE}?{query}&lang=en")
