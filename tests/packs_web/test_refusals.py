"""Issue 6, item 4: the editor validates exactly as the import does. A card, character or level
list that breaks a rule of RULES.md 1 is refused with status 400 (levels: a flash message), the
engine's problem shown in Russian next to the field it is about, and nothing is stored.

Each row of a table below is one refusal: the form, the fields typed, the field the problem must
be shown next to, and the exact sentence.
"""

import pytest

from .helpers import PACKS, everything, get, submit, versions

import conftest as root  # tests/conftest.py: how a fresh database is made


@pytest.fixture
def db_url(tmp_path, tmp_path_factory):
    """SQLite only: nothing here is about the storage (refusals of the editor's forms, which store
    nothing; the editor's saves are stored on both backends by test_editor.py and test_versioning.py)."""
    return root.sqlite_database(tmp_path, tmp_path_factory)


SAMPLE = PACKS + "/sample"
NEW_GREEN = {"code": "L-G-10", "title": "Шахматный турнир", "conditions_intellect": 3, "gains_intellect": 1}

# (what is wrong, form page, fields typed, field the problem is shown next to, the sentence)
CARD_REFUSALS = [
    ("yellow card with 2 SP losses", "cards/L-Y-01", {"losses_energy": 2},
     "losses", "жёлтая карта должна стоить ровно 1 SP, указано 2"),
    ("yellow card with no loss", "cards/L-Y-01", {"losses_energy": ""},
     "losses", "жёлтая карта должна стоить ровно 1 SP, указано 0"),
    ("yellow card giving 4", "cards/L-Y-01", {"gains_intellect": 4},
     "gains", "жёлтая карта должна давать от 1 до 3 SP (прибавки + свободные), указано 4"),
    ("green card with a special", "cards/L-G-01", {"special_text": "Каждый другой игрок получает +1 SP"},
     "special", "спецвозможность бывает только у красных карт, а это зелёная карта"),
    ("green card with a redistribution", "cards/L-G-01", {"special_redistribute": 2},
     "special", "спецвозможность бывает только у красных карт, а это зелёная карта"),
    ("green card with a loss", "cards/L-G-01", {"losses_health": 1},
     "losses", "зелёная карта должна стоить ровно 0 SP, указано 1"),
    ("green card giving 1 + 1 free", "cards/L-G-01", {"free": 1},
     "gains", "зелёная карта должна давать ровно 1 SP (прибавки + свободные), указано 2"),
    ("new green card giving nothing", "cards/new?era=lyceum&color=green", dict(NEW_GREEN, gains_intellect=""),
     "gains", "зелёная карта должна давать ровно 1 SP (прибавки + свободные), указано 0"),
    ("red card losing 4", "cards/L-R-08", {"losses_health": 1},
     "losses", "красная карта должна стоить от 0 до 3 SP, указано 4"),
    ("unknown era", "cards/L-G-01", {"era": "school"},
     "era", "нет такой эпохи: 'school'; эпохи: Лицей, Универ, Взрослая жизнь"),
    ("unknown colour", "cards/L-G-01", {"color": "blue"},
     "color", "нет такого цвета: 'blue'; цвета: зелёная, жёлтая, красная"),
    ("new card with a code already used", "cards/new?era=lyceum&color=green", dict(NEW_GREEN, code="L-G-01"),
     "code", "такой код уже у карты №1"),
    ("card renamed to a later card's code", "cards/L-Y-01", {"code": "L-Y-02"},
     "code", "такой код уже у карты №11"),
    ("card renamed to an earlier card's code", "cards/L-Y-01", {"code": "L-G-02"},
     "code", "такой код уже у карты №2"),
    ("negative condition", "cards/L-G-01", {"conditions_intellect": -1},
     "conditions", "должно быть не меньше 0, указано -1"),
    ("negative gain", "cards/L-Y-01", {"gains_health": -1},
     "gains", "должно быть не меньше 0, указано -1"),
    ("negative free SP", "cards/L-Y-01", {"free": -2},
     "free", "должно быть не меньше 0, указано -2"),
    ("text in a condition", "cards/L-G-01", {"conditions_energy": "три"},
     "conditions", "«три» — не целое число"),
    ("text in the free SP", "cards/L-Y-01", {"free": "один"},
     "free", "«один» — не целое число"),
    ("fraction in a loss", "cards/L-Y-01", {"losses_energy": "1.5"},
     "losses", "«1.5» — не целое число"),
    ("empty title", "cards/L-G-01", {"title": ""}, "title", "нужно заполнить"),
    ("title of spaces", "cards/L-G-01", {"title": "   "}, "title", "нужно заполнить"),
    ("empty code", "cards/L-G-01", {"code": ""}, "code", "нужно заполнить"),
]

CHARACTER_REFUSALS = [
    ("negative skill", "characters/C01", {"skills_health": -1}, "skills", "должно быть не меньше 0, указано -1"),
    ("text in a skill", "characters/C01", {"skills_energy": "пять"}, "skills", "«пять» — не целое число"),
    ("empty name", "characters/C01", {"name": ""}, "name", "нужно заполнить"),
    ("empty code", "characters/C01", {"code": ""}, "code", "нужно заполнить"),
    ("character renamed to another's code", "characters/C01", {"code": "C02"},
     "code", "такой код уже у персонажа №2"),
    ("new character with a code already used", "characters/new", {"code": "C03", "name": "Ксюша"},
     "code", "такой код уже у персонажа №3"),
]


def check_refusal(client, app, page_url, typed, field, sentence):
    stored = everything(app)
    page = get(client, f"{SAMPLE}/{page_url}")
    assert page.status == 200
    answer = submit(client, page.edit_form(), **typed)
    assert answer.status == 400, answer.errors
    assert answer.errors == {field: [sentence]}
    # the problem sits inside the field's own label or row, not in a list at the top
    assert f'data-field="{field}"' in answer.html
    assert everything(app) == stored, "a refused edit stored something"
    assert len(versions(app)) == 1
    return answer


@pytest.mark.parametrize("wrong, page_url, typed, field, sentence", CARD_REFUSALS + CHARACTER_REFUSALS,
                         ids=[r[0] for r in CARD_REFUSALS + CHARACTER_REFUSALS])
def test_a_refused_edit_names_the_problem_next_to_its_field(client, app, wrong, page_url, typed, field, sentence):
    check_refusal(client, app, page_url, typed, field, sentence)


def test_a_refused_form_keeps_what_was_typed(client, app):
    answer = check_refusal(client, app, "cards/L-Y-01", {"title": "Подготовка к ОГЭ", "losses_energy": 2},
                           "losses", "жёлтая карта должна стоить ровно 1 SP, указано 2")
    form = answer.edit_form()
    assert form.fields["title"] == "Подготовка к ОГЭ" and form.fields["losses_energy"] == "2"
    # and the refused page's form can be corrected and sent again
    assert submit(client, form, losses_energy=1).status == 303
    assert len(versions(app)) == 2


def test_every_colour_rule_a_card_breaks_is_listed(client, app):
    stored = everything(app)
    form = get(client, f"{SAMPLE}/cards/L-G-01").edit_form()
    answer = submit(client, form, losses_energy=1, gains_health=1, special_text="особое")
    assert answer.status == 400
    assert answer.errors == {"gains": ["зелёная карта должна давать ровно 1 SP (прибавки + свободные), указано 2"],
                             "losses": ["зелёная карта должна стоить ровно 0 SP, указано 1"],
                             "special": ["спецвозможность бывает только у красных карт, а это зелёная карта"]}
    assert everything(app) == stored


def test_a_refusal_is_in_english_when_english_is_chosen(english, app):
    form = get(english, f"{SAMPLE}/cards/L-Y-01").edit_form()
    answer = submit(english, form, losses_energy=2, conditions_health="x")
    assert answer.status == 400
    assert answer.errors == {"conditions": ["“x” is not a whole number"]}  # the form's own check comes first
    answer = submit(english, form, losses_energy=2)
    assert answer.errors == {"losses": ["a yellow card must cost exactly 1 SP, got 2"]}


def test_deleting_the_last_character_is_refused(client, app):
    """A pack needs at least one character: deleting them all stops at the last one."""
    stored = None
    codes = [f"C{i:02d}" for i in range(1, 11)]
    for code in codes[:-1]:
        assert submit(client, get(client, f"{SAMPLE}/characters/{code}").delete_form()).status == 303
    stored = everything(app)
    answer = submit(client, get(client, f"{SAMPLE}/characters/C10").delete_form())
    assert answer.status == 400
    assert answer.errors == {"general": ["набор, персонажи: в наборе должен быть хотя бы один персонаж"]}
    assert everything(app) == stored


# ----- levels -----------------------------------------------------------------------------
LEVEL_REFUSALS = [
    ("not increasing", "0, 200, 200, 700",
     "пороги уровней должны возрастать: уровень 3 (200 XP) не выше уровня 2 (200 XP)"),
    ("going down", "0, 400, 300",
     "пороги уровней должны возрастать: уровень 3 (300 XP) не выше уровня 2 (400 XP)"),
    ("not starting at 0", "100, 200, 400", "уровень 1 должен начинаться с 0 XP, указано 100"),
    ("negative", "0, -200", "должно быть целым числом XP не меньше 0, а не -200"),
    ("text", "0, двести", "«двести» — не целое число"),
    ("empty", "", "нужен хотя бы один уровень"),
]


@pytest.mark.parametrize("wrong, typed, sentence", LEVEL_REFUSALS, ids=[r[0] for r in LEVEL_REFUSALS])
def test_refused_levels_are_a_flash_error_and_nothing_is_stored(client, app, wrong, typed, sentence):
    stored = everything(app)
    form = get(client, SAMPLE).form("/levels")
    answer = submit(client, form, levels=typed)
    assert answer.status == 303 and answer.response.headers["Location"].endswith(SAMPLE)
    page = get(client, SAMPLE)
    assert page.messages("error") == [f"Уровни не сохранены: {sentence}"]
    assert page.messages("ok") == []
    assert everything(app) == stored
    assert page.form("/levels").fields["levels"] == "0, 200, 400, 700, 1000, 1400, 1800, 2300, 2800"
