"""An Alter Ego event in Finnish and a New Angeles event in Swedish in a real browser (issue 20,
«How it is checked»): the organizer signs in through the real pages, creates the event choosing
the game first and then the event's language on the new-event form, imports two played tables'
records from the dashboard (one finished, one still on), reads the dashboard in the event's
language with each table's ranking or winners, downloads the event workbook, the results and the
certificates from the dashboard's buttons and reads them back (workbook cells, PDF text); the
projector ``/e/<id>``, opened on a Russian browser, speaks the event's language.

The figures expected are the engines' own standings of the records imported (the HTTP-level
twin, with the blank protocols and the announcement, is tests/events/test_event_outputs_games.py).
One server and one browser for both games.
"""

import io
import re

import pytest
from openpyxl import load_workbook

from facilitator.i18n import gettext, use_locale
from facilitator.rules.alterego import read_record as ae_read, replay as ae_replay, table_standing as ae_standing
from facilitator.rules.newangeles import read_record as na_read, replay as na_replay
from tests.events.test_event_outputs_games import ae_records, na_records, pdf_text

from .conftest import CHROMIUM, ORGANIZER_PASSWORD

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(),
                                 reason=f"{CHROMIUM} is not installed (CI installs Debian's chromium package)")]

TABLET = {"width": 1024, "height": 768}


def words(lang, *msgids):
    """The app's own words in ``lang``, each checked to be translated (not the English msgid)."""
    with use_locale(lang):
        out = [gettext(m) for m in msgids]
    untranslated = [m for m, t in zip(msgids, out) if t == m]
    assert not untranslated, f"not translated to {lang}: {untranslated}"
    return out


def tap(page, locator):
    with page.expect_navigation():
        locator.click()


def downloaded(page, kind):
    """A file of the dashboard's «Files», downloaded by clicking its button."""
    with page.expect_download() as download:
        page.locator(f"a[href$='/download/{kind}']").click()
    with open(download.value.path(), "rb") as f:
        return download.value.suggested_filename, f.read()


# ----- what each game's records say --------------------------------------------------------------
def alter_ego():
    records = ae_records()
    ranked = {r["table"]: sorted(ae_standing(ae_replay(ae_read(r)))["players"], key=lambda p: p["place"])
              for r in records}
    return {"key": "alter-ego-3", "lang": "fi", "locale": "fi-FI", "name": "AE-ilta", "records": records,
            "tables": ("Pöytä 1", "Pöytä 2"), "ranked": ranked,
            "winners": {t: [p["name"] for p in rows if p["place"] == 1] for t, rows in ranked.items()}}


def new_angeles():
    records = na_records()
    done, going = (na_replay(na_read(r)) for r in records)
    return {"key": "new-angeles", "lang": "sv", "locale": "sv-SE", "name": "NA-kväll", "records": records,
            "tables": ("Bord 1", "Bord 2"), "games": (done, going),
            "winners": {"Bord 1": list(done.winners()), "Bord 2": []}}


# ----- the organizer's event --------------------------------------------------------------------------
def create_event(page, base, game):
    """Signs in, chooses the game, then the event's language, and creates the event with no
    tables; returns its id."""
    page.goto(f"{base}/organizer/login")
    page.locator("input[name=password]").fill(ORGANIZER_PASSWORD)
    tap(page, page.locator("form button[type=submit]").first)
    assert page.url.rstrip("/").endswith("/organizer"), page.inner_text("body")[:2000]
    form = page.locator("form#new-event")
    assert form.locator("select[name=language]").count() == 0  # the game comes first
    tap(page, form.locator(f".game-choice a[data-game='{game['key']}']"))
    form.locator("select[name=language]").select_option(game["lang"])
    form.locator("input[name=name]").fill(game["name"])
    form.locator("input[name=date]").fill("2026-05-01")
    form.locator("input[name=tables]").fill("0")
    tap(page, form.locator("button[type=submit]"))
    match = re.fullmatch(rf"{re.escape(base)}/organizer/events/(\d+)", page.url)
    assert match, f"{page.url}: {page.inner_text('body')[:2000]}"
    return int(match.group(1))


def import_records(page, game, folder):
    """Each played table's record imported with the dashboard's form (named as its record names it)."""
    import json
    for record in game["records"]:
        path = folder / f"{record['table']}.json"
        path.write_text(json.dumps(record), encoding="utf-8")
        form = page.locator("form[action$='/import']")
        form.locator("input[name=record]").set_input_files(str(path))
        tap(page, form.locator("button[type=submit]"))
        assert record["table"] in page.locator(".flash.ok").inner_text()
    rows = page.locator("table.dashboard tr[data-table]").all()
    assert tuple(row.locator("td").first.inner_text().strip() for row in rows) == game["tables"]


def check_dashboard(page, game):
    lang = game["lang"]
    assert page.locator("html").get_attribute("lang") == lang
    tables, files = words(lang, "Tables", "Files")
    assert page.locator("#dashboard h1").inner_text().startswith(tables)
    assert page.locator("#announce h2").nth(1).inner_text() == files
    if game["key"] == "alter-ego-3":
        heading, = words(lang, "Each table's ranking")
        ranking = page.locator("section.ae-ranking")
        assert ranking.locator("h2").inner_text().startswith(heading)
        assert [h.inner_text().strip() for h in ranking.locator("tr.table-head").all()] == list(game["tables"])
        rows = [[c.inner_text().strip() for c in row.locator("td").all()]
                for row in ranking.locator("tr[data-player]").all()]
        assert rows == [[str(p["place"]), p["name"], table, str(p["influence"])]
                        for table in game["tables"] for p in game["ranked"][table]]
    else:
        heading, capital, hidden = words(lang, "Winners per table", "Capital at each table", "not revealed yet")
        assert page.locator("section.panel.two h2").nth(0).inner_text().startswith(heading)
        assert page.locator("section.panel.two h2").nth(1).inner_text() == capital
        shown = {t: page.locator(f"tr[data-table-name='{t}'] td").nth(1).inner_text().strip() for t in game["tables"]}
        assert shown == {"Bord 1": ", ".join(game["winners"]["Bord 1"]), "Bord 2": hidden}
        players = [(row.get_attribute("data-capital-table"), row.locator("td").nth(1).inner_text().strip())
                   for row in page.locator("tr[data-capital-table]").all()]
        assert sorted(players) == sorted((g.table, p.name) for g in game["games"] for p in g.players)


def check_workbook(data, game):
    book = load_workbook(io.BytesIO(data))
    rows = list(book.worksheets[0].iter_rows(values_only=True))
    if game["key"] == "alter-ego-3":
        assert book.sheetnames[0] == "Yhteenveto"
        start = next(i for i, r in enumerate(rows) if r[0] == "Pöytä")
        assert rows[start][:5] == ("Pöytä", "Sija", "Pelaaja", "Ryhmittymä", "Vaikutusvalta")
        players = [r for r in rows[start + 1:] if any(v is not None for v in r)]
        assert [(r[0], r[1], r[2], r[4]) for r in players] == \
            [(t, p["place"], p["name"], p["influence"]) for t in game["tables"] for p in game["ranked"][t]]
        assert {f"{t} · Siirrot" for t in game["tables"]} <= set(book.sheetnames)
    else:
        assert book.sheetnames[0] == "Sammanfattning"
        start = next(i for i, r in enumerate(rows) if r[0] == "Bord")
        lines = [r for r in rows[start + 1:] if any(v is not None for v in r)]
        assert [r[:2] for r in lines[:2]] == [("Bord 1", ", ".join(game["winners"]["Bord 1"])),
                                              ("Bord 2", "inte avslöjat än")]
        assert {"Bord 1 · Affärer", "Bord 2 · Logg"} <= set(book.sheetnames)


def check_results(data, game):
    [text] = pdf_text(data)
    for table in game["tables"]:
        assert table in text
    if game["key"] == "alter-ego-3":
        assert "Sijoitussääntö" in text and "Alustava: vielä pelaamassa: Pöytä 2." in text
        for table in game["tables"]:  # each table's winners under its own heading
            block = text[text.rindex(table):]
            assert all(re.search(rf"\b1 (?:jaettu )?{re.escape(w)} ", block) for w in game["winners"][table]), block
    else:
        done = game["games"][0]
        corps = {p.name: done.pack.corporation_names[p.corp] for p in done.players}
        assert "Preliminärt: spelar fortfarande: Bord 2." in text
        bord1 = text[text.rindex("Bord 1"):text.rindex("Bord 2")]
        assert re.findall(r"Vinnare: (.*?) Spelare", bord1) == \
            [", ".join(f"{w} ({corps[w]})" for w in game["winners"]["Bord 1"])]


def check_certificates(data, game):
    pages = pdf_text(data)
    winners = [(t, w) for t in game["tables"] for w in game["winners"][t]]
    assert len(pages) == len(winners)  # a page for each winner of each table (New Angeles: once revealed)
    for page, (table, name) in zip(pages, winners):
        assert name in page and f"«{table}»" in page
        assert ("KUNNIAKIRJA" in page.upper()) if game["lang"] == "fi" else ("för segern" in page)


# ----- the test -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("make", [alter_ego, new_angeles], ids=["alter-ego-fi", "new-angeles-sv"])
def test_an_event_in_its_games_language_with_its_outputs_read_back(make, browser, live_server, tmp_path):
    game = make()
    assert all(game["winners"][game["tables"][0]])  # a finished table with winners to print
    context = browser.new_context(viewport=TABLET, accept_downloads=True, locale=game["locale"])
    context.set_default_timeout(15_000)
    hall = browser.new_context(viewport={"width": 1280, "height": 720})  # a Russian browser (conftest's default)
    try:
        page = context.new_page()
        event_id = create_event(page, live_server, game)
        import_records(page, game, tmp_path)
        check_dashboard(page, game)

        names = {}
        for kind, check in (("workbook", check_workbook), ("results", check_results),
                            ("certificates", check_certificates)):
            names[kind], data = downloaded(page, kind)
            check(data, game)
        assert names["workbook"].endswith(".xlsx") and names["results"].endswith(".pdf"), names

        projector = hall.new_page()
        projector.goto(f"{live_server}/e/{event_id}")
        assert projector.locator("html").get_attribute("lang") == game["lang"]
        provisional, = words(game["lang"], "provisional: the games are still on")
        assert provisional in projector.locator(".proj-sub").inner_text()
        standings = projector.locator("#standings").inner_text()
        assert all(t in standings for t in game["tables"]), standings
        assert all(w in standings for w in game["winners"][game["tables"][0]]), standings
    finally:
        hall.close()
        context.close()
