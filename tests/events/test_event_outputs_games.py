"""Every event output of Alter Ego and New Angeles (issue 20, item 3), read back as an organizer
gets them at «16/25»'s addresses: the event workbook (its cells, with openpyxl), the results and
the certificates (their text), a table's blank paper protocol, the announcement mode and
``facilitator export``. Each ranks as its game's RULES.md says: Alter Ego each table on its own
(§5), New Angeles the winners of each table (§8), never a rival card before a table's reveal.
The expected figures are the engine's own standings of the records played."""

import io
import random
import re

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from facilitator import services
from facilitator.rules.alterego import read_record as ae_read, replay as ae_replay, table_standing as ae_standing
from facilitator.rules.alterego.simulate import play_random, random_setup as ae_setup
from facilitator.rules.newangeles import read_record as na_read, replay as na_replay
from facilitator.rules.newangeles.simulate import random_game as na_game, random_setup as na_setup

from .helpers import db, organizer_browser, post

#: the files are the same whatever stores the tables: one backend is enough here
ONE_DATABASE = pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)

AE, NA = "alter-ego-3", "new-angeles"


# ----- the events ---------------------------------------------------------------------------------
def ae_records():
    """Two Alter Ego tables: Pöytä 1 ended by its host after 120 moves (3 players), Pöytä 2 still
    on (2 players)."""
    done = play_random(3, players=3, max_moves=120, table="Pöytä 1")[0].to_dict()
    going = play_random(4, players=2, table="Pöytä 2")[0].to_dict()
    going["moves"] = going["moves"][:25]
    return [done, going]


def na_records():
    """Two New Angeles tables: Bord 1 revealed with at least one winner, Bord 2 still on."""
    seed = next(s for s in range(50) if na_replay(na_game(s, end="rounds")).winners())
    done = na_game(seed, end="rounds", table="Bord 1").to_dict()
    going = na_game(seed + 1, end="rounds", table="Bord 2").to_dict()
    going["moves"] = going["moves"][:12]
    return [done, going]


def event_of(app, ruleset, records, name, language=None):
    """An event of ``records``' tables, in ``language`` (its certificates speak it)."""
    with db(app) as s:
        event = services.events.create_event(s, name, "2026-05-01", ruleset=ruleset, language=language)
        ids = [services.import_record(s, r, name=r["table"], event_id=event.id).id for r in records]
        return event.id, ids


def pdf_text(data):
    assert data.startswith(b"%PDF")
    reader = PdfReader(io.BytesIO(data))
    return [" ".join(page.extract_text().split()) for page in reader.pages]


def download(browser, url, kind):
    response = browser.get(url)
    assert response.status_code == 200, (url, response.status_code)
    assert response.mimetype == {"pdf": "application/pdf", "xlsx": "application/vnd.openxmlformats-officedocument"
                                 ".spreadsheetml.sheet"}[kind]
    return response.data


def summary_rows(data, header_first):
    """The summary sheet's rows from the one starting with ``header_first`` on (no empty rows)."""
    book = load_workbook(io.BytesIO(data))
    rows = [r for r in book.worksheets[0].iter_rows(values_only=True)]
    start = next(i for i, r in enumerate(rows) if r[0] == header_first)
    return book, rows, [r for r in rows[start + 1:] if any(v is not None for v in r)]


def announce(browser, event_id, action):
    assert post(browser, f"/organizer/events/{event_id}/announce", {"action": action}).status_code == 303
    return browser.get(f"/e/{event_id}/standings.json").get_json()


# ----- Alter Ego ----------------------------------------------------------------------------------
@pytest.mark.db
@ONE_DATABASE
def test_an_alter_ego_event_prints_each_table_ranked_on_its_own_in_finnish(app):
    records = ae_records()
    event_id, (first, second) = event_of(app, AE, records, "AE-ilta", language="fi")
    expected = {r["table"]: sorted(ae_standing(ae_replay(ae_read(r)))["players"], key=lambda p: p["place"])
                for r in records}
    assert any(p["place"] == 1 for p in expected["Pöytä 2"])
    fi = organizer_browser(app, lang="fi")
    base = f"/organizer/events/{event_id}/download"

    book, rows, players = summary_rows(download(fi, f"{base}/workbook", "xlsx"), "Pöytä")
    assert book.sheetnames[0] == "Yhteenveto"
    assert rows[next(i for i, r in enumerate(rows) if r[0] == "Pöytä")][:5] == \
        ("Pöytä", "Sija", "Pelaaja", "Ryhmittymä", "Vaikutusvalta")
    assert [(r[0], r[1], r[2], r[4]) for r in players] == \
        [(t, p["place"], p["name"], p["influence"]) for t in ("Pöytä 1", "Pöytä 2") for p in expected[t]]
    for table in ("Pöytä 1", "Pöytä 2"):  # every table's protocol follows, its sheets in Finnish
        assert {f"{table} · Alkuasetelma", f"{table} · Siirrot", f"{table} · Pelivaiheet"} <= set(book.sheetnames)
    assert book["Pöytä 2 · Alkuasetelma"]["B2"].value == "Pöytä 2"

    [results] = pdf_text(download(fi, f"{base}/results", "pdf"))
    assert "Sijoitussääntö" in results and "Alustava: vielä pelaamassa: Pöytä 2." in results
    starts = [results.rindex(table) for table in expected] + [len(results)]  # each table's heading
    for (table, rows_), start, end in zip(expected.items(), starts, starts[1:]):
        block = results[start:end]  # each table's own places, in order, under its name
        assert [re.findall(rf"(\d+) (?:jaettu )?{p['name']} ", block) for p in rows_] == \
            [[str(p["place"])] for p in rows_], block
        positions = [block.index(f"{p['name']} ") for p in rows_]
        assert positions == sorted(positions), block

    certificates = pdf_text(download(fi, f"{base}/certificates", "pdf"))
    winners = [(t, p["name"]) for t, rows_ in expected.items() for p in rows_ if p["place"] == 1]
    assert len(certificates) == len(winners)  # one page per first place of each table
    for page, (table, name) in zip(certificates, winners):
        assert name in page and f"pöydässä «{table}»" in page and "KUNNIAKIRJA" in page.upper()

    [blank, log, final] = pdf_text(download(fi, f"/table/{second}/blank.pdf", "pdf"))
    assert "Pöytä 2" in blank and "Alkuasetelma" in blank and "Siirrot" in log and "Lopullinen vaikutusvalta" in final
    # the shipped deck by its name in Finnish, as the organizer's pages name it, on paper too
    assert "Pakka: Alter Ego, 3. painos" in blank and "non-collectible" not in blank
    for p in ae_replay(ae_read(records[1])).setup.players:  # the seats, each with its actives
        assert re.search(rf"{p.name} .*{p.actives[0].capitalize()} \d / \d", blank), (p, blank)


@pytest.mark.db
@ONE_DATABASE
def test_the_alter_ego_announcement_reveals_one_table_after_another(app):
    records = ae_records()[:1]
    event_id, _ids = event_of(app, AE, records + [play_random(5, players=2, max_moves=60, table="Pöytä 2")[0]
                                                  .to_dict()], "AE")
    en = organizer_browser(app, lang="en")
    data = announce(en, event_id, "start")
    assert (data["announcement"]["step"], data["announcement"]["total"]) == (1, 2)
    assert [t["table"] for t in data["announcement"]["items"]] == ["Pöytä 1"]
    assert data["individuals"] == [] and "winners" not in data  # nothing else gives the next table away
    assert "Pöytä 1" in data["rendered"] and "Pöytä 2" not in data["rendered"]
    dashboard = en.get(f"/organizer/events/{event_id}").get_data(as_text=True)
    assert "Announcement: 1 of 2 tables shown" in dashboard
    data = announce(en, event_id, "next")
    assert data["announcement"]["done"] and "Pöytä 2" in data["rendered"]
    assert announce(en, event_id, "next")["announcement"]["step"] == 2  # no step past the last table


@pytest.mark.db
@ONE_DATABASE
def test_a_dashboard_of_more_than_fifteen_players_lists_them_all(app):
    rng = random.Random(7)
    with db(app) as s:
        ae = services.events.create_event(s, "AE", None, ruleset=AE)
        na = services.events.create_event(s, "NA", None, ruleset=NA)
        ae_pack, na_pack = (services.packs.ensure_sample(s, key) for key in (AE, NA))
        for i in range(6):  # 18 Alter Ego players
            table = services.create_table(s, f"Pöytä {i + 1}", ae_pack, event_id=ae.id)
            services.set_players(s, table.id, ae_setup(services.load(s, table.id).pack, rng, 3))
        for i in range(3):  # 18 New Angeles players
            table = services.create_table(s, f"Bord {i + 1}", na_pack, event_id=na.id)
            services.set_players(s, table.id, na_setup(services.load(s, table.id).pack, rng, 6, "rounds")[0])
        ae_id, na_id = ae.id, na.id
    en = organizer_browser(app, lang="en")
    page = en.get(f"/organizer/events/{ae_id}").get_data(as_text=True)
    assert len(re.findall(r'<tr data-player="', page)) == 18
    assert len(en.get(f"/organizer/events/{ae_id}/status.json").get_json()["individuals"]) == 18
    page = en.get(f"/organizer/events/{na_id}").get_data(as_text=True)
    ranking = page[page.index("Capital at each table"):]
    rows = re.findall(r'<tr data-capital-table="(Bord \d)"', ranking)  # each table's six, no place across tables
    assert rows == [f"Bord {i}" for i in (1, 2, 3) for _ in range(6)]


# ----- New Angeles --------------------------------------------------------------------------------
@pytest.mark.db
@ONE_DATABASE
def test_a_new_angeles_event_prints_each_tables_winners_in_swedish(app):
    records = na_records()
    event_id, (first, second) = event_of(app, NA, records, "NA-kväll", language="sv")
    done, going = (na_replay(na_read(r)) for r in records)
    winners = done.winners()
    corps = {p.name: done.pack.corporation_names[p.corp] for p in done.players}
    sv = organizer_browser(app, lang="sv")
    base = f"/organizer/events/{event_id}/download"

    book, rows, lines = summary_rows(download(sv, f"{base}/workbook", "xlsx"), "Bord")
    assert book.sheetnames[0] == "Sammanfattning"
    assert [r[:2] for r in lines[:2]] == [("Bord 1", ", ".join(winners)), ("Bord 2", "inte avslöjat än")]
    players = lines[3:]  # after the player table's header
    assert [(r[0], r[1], r[3]) for r in players] == \
        [(g.table, p.name, p.capital) for g in (done, going) for p in g.players]
    assert {r[5] for r in players if r[0] == "Bord 1"} <= {"vann", "förlorade"}
    assert all(r[4] is None and r[5] is None for r in players if r[0] == "Bord 2")  # sealed until the reveal
    assert {"Bord 1 · Affärer", "Bord 2 · Logg"} <= set(book.sheetnames)

    [results] = pdf_text(download(sv, f"{base}/results", "pdf"))
    assert "Preliminärt: spelar fortfarande: Bord 2." in results
    bord1 = results[results.rindex("Bord 1"):results.rindex("Bord 2")]
    assert re.findall(r"Vinnare: (.*?) Spelare", bord1) == [", ".join(f"{w} ({corps[w]})" for w in winners)]
    assert "Vinnare: inte avslöjat än" in results[results.rindex("Bord 2"):]

    certificates = pdf_text(download(sv, f"{base}/certificates", "pdf"))
    assert len(certificates) == len(winners)  # one page per winner of a revealed table
    for page, name in zip(certificates, winners):
        assert name in page and "för segern" in page and "«Bord 1»" in page

    [blank, deals, reveal] = pdf_text(download(sv, f"/table/{second}/blank.pdf", "pdf"))
    assert "Bord 2" in blank and all(p.name in blank for p in going.players)
    assert "Affärer" in deals and "25" in reveal
    # the event as an event (not a game's «event» card), the shipped pack and its resources by
    # their Swedish names: no developer text nor English resource on paper either
    assert "Evenemang: NA-kväll" in blank and "Händelse" not in blank
    assert "Kortpaket: Exempelpaket" in blank and "placeholder" not in blank and "RULES.md" not in blank
    assert all(name in blank for name in ("Energi", "Teknik", "Material")) and "Energy" not in blank
    assert ("Evenemang", "NA-kväll") in [r[:2] for r in rows] and "Händelse" not in {r[0] for r in rows}

    data = announce(sv, event_id, "start")
    assert (data["announcement"]["step"], data["announcement"]["total"]) == (1, 2)
    assert data["announcement"]["items"][0]["winners"] == winners and "winners" not in data
    assert announce(sv, event_id, "next")["announcement"]["items"][1]["winners"] == []  # not revealed


def test_facilitator_export_writes_the_event_workbook_of_both_games(tmp_path):
    """The command writes what the game's package makes (its PDFs are the files read above, made
    by the same functions; the workbooks are quick to check here), in the game's own language."""
    import json

    from facilitator.cli import main
    for key, records, summary in (("ae", ae_records(), "Yhteenveto"), ("na", na_records(), "Summary")):
        paths = []
        for r in records:
            path = tmp_path / f"{key}-{r['table'].split()[-1]}.json"
            path.write_text(json.dumps(r), encoding="utf-8")
            paths.append(str(path))
        assert main(["export", *paths, "--xlsx", "--out", str(tmp_path / key), "--event", "Ilta"]) == 0
        files = sorted((tmp_path / key / "Ilta").iterdir())
        assert len(files) == 3, files  # each table's protocol workbook and the event workbook
        [event] = [f for f in files if r["table"].split()[0] not in f.name]
        book = load_workbook(event)
        assert book.sheetnames[0] == summary and len(book.sheetnames) > 2 * 5
        assert {row[0] for row in book.worksheets[0].iter_rows(values_only=True)} >= {r["table"] for r in records}


# ----- the ranking rule's heading ---------------------------------------------------------------
@pytest.mark.db
@ONE_DATABASE
@pytest.mark.parametrize("game, records, heading, absent", [
    (AE, ae_records, "Правило зачёта:", "командного"),  # each table on its own: no team score
    (NA, na_records, "Правило зачёта:", "командного"),  # each table's winners: no team score
], ids=["alter-ego", "new-angeles"])
def test_a_russian_results_sheet_names_no_team_score_where_the_game_has_none(app, game, records, heading, absent):
    event_id, _ids = event_of(app, game, records(), "Вечер", language="ru")
    ru = organizer_browser(app, lang="ru")
    [results] = pdf_text(download(ru, f"/organizer/events/{event_id}/download/results", "pdf"))
    assert heading in results and absent not in results, results[:600]
