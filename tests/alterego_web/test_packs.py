"""The organizer's Alter Ego decks: the 3rd-edition deck ships as the default; a changed deck is
imported as JSON or through the Excel template; a refused import stores nothing and names every
problem by its cell; a workbook beyond a deck's size is refused before it is parsed."""

import io
import json
import zipfile

import pytest
from openpyxl import Workbook, load_workbook

from facilitator import services
from facilitator.games.alterego import excel as alterego_excel
from facilitator.games.alterego.excel import PackImportError, pack_to_workbook, template_workbook, workbook_to_pack
from facilitator.i18n import use_locale
from facilitator.rules.alterego import default_pack
from facilitator.rules.alterego.pack import default_pack_data
from facilitator.storage import session_scope

from .helpers import Page, csrf_token, engine, get


def stored(app):
    with session_scope(engine(app)) as s:
        return [(r.key, r.version, json.loads(r.data)) for r in services.packs.list_packs(s, "alter-ego-3")]


def upload(client, name, body):
    data = {"csrf_token": csrf_token(client, "/ae/packs"), "pack": (io.BytesIO(body), name)}
    return Page(client.post("/ae/packs/upload", data=data, content_type="multipart/form-data"))


def changed_workbook(**cells):
    """The template (in the current locale) with some cells of the cards sheet changed."""
    wb = load_workbook(io.BytesIO(template_workbook()))
    ws = wb.worksheets[2]
    for ref, value in cells.items():
        ws[ref] = value
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def test_the_default_deck_is_there_for_the_organizer_only(app, host, anon_client):
    page = get(host, "/ae/packs")
    assert page.status == 200 and 'data-pack="ae3"' in page.html
    assert [(k, v) for k, v, _d in stored(app)] == [("ae3", 1)]
    assert "Alter Ego, 3rd edition" in page.text and "71" in page.text  # the shipped deck by its name in English
    assert anon_client.get("/ae/packs").status_code == 302
    assert anon_client.get("/ae/packs/template.xlsx").status_code == 302
    assert anon_client.post("/ae/packs/upload").status_code in (400, 403)


@pytest.mark.parametrize("locale", ["fi", "en", "ru"])
def test_the_template_reads_back_as_the_default_deck(locale):
    with use_locale(locale):
        data = template_workbook()
        assert workbook_to_pack(data) == default_pack()
    with use_locale("en" if locale != "en" else "fi"):  # a workbook is read in any of the languages
        assert workbook_to_pack(data) == default_pack()


def test_a_changed_deck_is_imported_from_the_template_as_a_new_version(app, host):
    response = host.get("/ae/packs/template.xlsx")
    assert response.status_code == 200
    wb = load_workbook(io.BytesIO(response.data))
    cards = wb.worksheets[2]
    bile_row = next(r for r in range(2, cards.max_row + 1) if cards.cell(row=r, column=1).value == "bile")
    cards.cell(row=bile_row, column=4, value=4)  # count: 4 parties instead of 5
    buf = io.BytesIO()
    wb.save(buf)
    page = upload(host, "pakka.xlsx", buf.getvalue())
    assert page.status == 303
    (key, version, data), = stored(app)
    assert (key, version) == ("ae3", 2)
    assert next(c for c in data["cards"] if c["key"] == "bile")["count"] == 4
    exported = host.get("/ae/packs/ae3/export.json")
    assert json.loads(exported.data)["cards"] == data["cards"]
    assert workbook_to_pack(host.get("/ae/packs/ae3/export.xlsx").data).to_dict() == data


def test_a_refused_workbook_names_every_problem_by_its_cell_and_stores_nothing(app, host):
    with use_locale("en"):
        body = changed_workbook(D7="three", E8="hobbyx", G9="maybe", M20="gain", L5="nonsense")
    page = upload(host, "pakka.xlsx", body)
    assert page.status == 400
    problems = [line.strip() for line in page.html.split("<li>")[1:]]
    text = " ".join(page.text.split())
    assert "Cards!D7: count must be a whole number ≥ 1" in text
    assert "Cards!E8: card type: must be one of event, hobby, chore, got 'hobbyx'" in text
    assert "Cards!G9: work must be yes or no" in text
    assert "Cards!M20: parameters are written name=number; separated by semicolons, not 'gain'" in text
    assert "Cards!L5: effect: unknown effect 'nonsense'" in text
    assert problems and "nothing was stored" in text
    assert [(k, v) for k, v, _d in stored(app)] == [("ae3", 1)]


def test_the_refusals_are_in_the_screens_language(app, client):
    client.get("/ae/packs?lang=fi")
    with use_locale("fi"):
        body = changed_workbook(D7=0)
    page = upload(client, "pakka.xlsx", body)
    assert page.status == 400
    assert "Kortit!D7: määrä: pitää olla kokonaisluku ≥ 1" in " ".join(page.text.split())


def test_a_json_deck_is_imported_and_a_broken_one_refused(app, host):
    data = default_pack_data()
    data["id"] = "ae3-kerho"
    data["title"] = "Kerhon pakka"
    next(c for c in data["cards"] if c["key"] == "hype_kampanja")["influence"] = 4
    assert upload(host, "kerho.json", json.dumps(data).encode()).status == 303
    assert {(k, v) for k, v, _d in stored(app)} == {("ae3", 1), ("ae3-kerho", 1)}
    broken = default_pack_data()
    del broken["cards"][3]["count"]
    broken["actives"][0]["va"] = 0
    page = upload(host, "broken.json", json.dumps(broken).encode())
    assert page.status == 400
    text = " ".join(page.text.split())
    assert "card uusi_aktiivi: count: is missing" in text and "active pare: va: must be at least 1, got 0" in text
    assert upload(host, "notes.txt", b"hello").status == 400
    assert upload(host, "bad.json", b"{not json").status == 400
    assert len(stored(app)) == 2


def _zip(parts):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, body in parts.items():
            z.writestr(name, body)
    return buf.getvalue()


@pytest.fixture
def no_openpyxl(monkeypatch):
    """openpyxl must not be asked to read a workbook beyond the budget."""
    import openpyxl

    def refuse(*args, **kwargs):
        raise AssertionError("openpyxl was asked to parse a workbook beyond the budget")
    monkeypatch.setattr(openpyxl, "load_workbook", refuse)


def test_a_workbook_that_unpacks_beyond_the_budget_is_refused_before_parsing(no_openpyxl):
    original = zipfile.ZipFile(io.BytesIO(template_workbook()))
    parts = {n: original.read(n) for n in original.namelist()}
    parts["xl/sharedStrings.xml"] = b"<sst>" + b" " * (alterego_excel.MAX_UNPACKED + 10) + b"</sst>"
    body = _zip(parts)
    assert len(body) < 100_000
    with use_locale("en"), pytest.raises(PackImportError) as refused:
        workbook_to_pack(body)
    assert "the workbook unpacks to 5 MB; a deck's workbook is at most 5 MB" in str(refused.value)


def test_a_sheet_with_too_many_rows_is_refused_before_parsing(no_openpyxl):
    wb = Workbook(write_only=True)
    for title in ("Instructions", "Actives", "Cards"):
        ws = wb.create_sheet(title)
        if title == "Cards":
            for i in range(alterego_excel.MAX_ROWS["cards"] + 5):
                ws.append([f"card{i}", "x", "y", 1])
    buf = io.BytesIO()
    wb.save(buf)
    with use_locale("en"), pytest.raises(PackImportError) as refused:
        workbook_to_pack(buf.getvalue())
    assert "Cards: the sheet has more than 2000 rows; delete the rows below the table" in str(refused.value)


def test_a_workbook_declaring_a_dtd_or_not_a_workbook_is_refused(no_openpyxl):
    original = zipfile.ZipFile(io.BytesIO(template_workbook()))
    parts = {n: original.read(n) for n in original.namelist()}
    parts["xl/sharedStrings.xml"] = b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><sst>&a;</sst>'
    with use_locale("en"), pytest.raises(PackImportError) as refused:
        workbook_to_pack(_zip(parts))
    assert "damaged" in str(refused.value)
    with use_locale("en"), pytest.raises(PackImportError) as refused:
        workbook_to_pack(b"PK not really")
    assert "the file is not an Excel workbook (.xlsx)" in str(refused.value)


def test_export_and_import_round_trip_a_changed_deck():
    data = default_pack_data()
    next(c for c in data["cards"] if c["key"] == "ei_kiinnostusta")["params"]["cancels"] = ["pelikampanja",
                                                                                             "hype_kampanja"]
    data["actives"][0]["ability_name"] = None
    from facilitator.rules.alterego import read_pack
    pack = read_pack(data)
    with use_locale("ru"):
        assert workbook_to_pack(pack_to_workbook(pack)) == pack
