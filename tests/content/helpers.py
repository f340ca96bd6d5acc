"""Builders for the content tests: the sample deck as a workbook, workbook edits, and a pack
with every odd value the formats allow."""

from functools import lru_cache
from io import BytesIO

from openpyxl import load_workbook

from facilitator.rules.lyceum.ruleset import sample_pack, sample_pack_data
from facilitator.games.lyceum.excel import pack_to_workbook, workbook_to_pack
from facilitator.content.importing import PackImportError
from facilitator.rules.lyceum import read_pack


@lru_cache(maxsize=1)
def sample_workbook():
    """The sample pack as workbook bytes (Russian headers: the default locale); bytes are
    immutable, so one copy serves every test."""
    return pack_to_workbook(sample_pack())


def edited(data, edits=(), *, delete_sheets=(), delete_rows=()):
    """Workbook bytes with cells changed: ``edits`` are ``(sheet, cell, value)``;
    ``delete_rows`` are ``(sheet, first_row, count)``."""
    wb = load_workbook(BytesIO(data))
    for sheet, cell, value in edits:
        wb[sheet][cell] = value
    for sheet, first, count in delete_rows:
        wb[sheet].delete_rows(first, count)
    for sheet in delete_sheets:
        del wb[sheet]
    out = BytesIO()
    wb.save(out)
    return out.getvalue()


def refusal(data, **kw):
    """The lines of the refusal a workbook gets (fails the test if it is accepted)."""
    try:
        workbook_to_pack(data, **kw)
    except PackImportError as err:
        return [str(p) for p in err.problems]
    raise AssertionError("the workbook was accepted")


def odd_pack_data():
    """A small valid pack with the values a careless writer would lose: zero skills, free SP
    without gains, every shape of special, skill_max, unicode, leading "=", spaces, newlines,
    numeric-looking codes and titles, levels one XP apart."""
    card = dict(conditions={}, losses={}, gains={}, free=0, special=None, text="")
    cards = [
        dict(card, code="L-G-01", era="lyceum", color="green", title="Только свободный SP", free=1),
        dict(card, code="007", era="lyceum", color="yellow", title="2024", losses={"energy": 1},
             gains={"health": 1}, free=2, text="  пробелы по краям  "),
        dict(card, code="U-R-1", era="university", color="red", title="=SUM(A1:A3)",
             text="строка 1\nстрока 2 😀", conditions={"health": 9, "energy": 9}),
        dict(card, code="U-R-2", era="university", color="red", title="Только перераспределение",
             special={"text": "", "redistribute": 2}, losses={"health": 3}, gains={"energy": 6}),
        dict(card, code="A-R-1", era="adult", color="red", title="Только текст спецвозможности",
             special={"text": "Каждый другой игрок получает +1 SP ✨"}),
        dict(card, code="A-R-2", era="adult", color="red", title="Текст и перераспределение",
             special={"text": "Можно перераспределить до 5 SP", "redistribute": 5}, free=6),
        dict(card, code="a r 3", era="adult", color="green", title="ёлка Ёж", gains={"communication": 1}),
    ]
    return {
        "format": "lyceum-pack/1", "id": "odd-пакет", "title": "Странный набор «тест» — ✓",
        "description": "Описание\nв две строки",
        "levels": [0, 1, 2, 100000],
        "skill_max": 9,
        "characters": [
            {"code": "Z0", "name": "Нулевой", "direction": "", "skills": {}},
            {"code": "Z9", "name": "Иван-Ёжик 🦔", "direction": "Естеств. науки\n(вторая строка)",
             "skills": {"health": 9, "intellect": 9, "creativity": 9, "communication": 9, "energy": 9}},
        ],
        "cards": cards,
    }


def odd_pack():
    return read_pack(odd_pack_data())


def sample_data_with(change):
    """The sample pack's JSON object after ``change(data)``."""
    data = sample_pack_data()
    change(data)
    return data
