"""New Angeles' player pages (issue 21): a player's capital and curve from the standings, and the
sealed rivals kept sealed: two tables alike in everything but their sealed rivals give every
player the very same page, byte for byte (apart from the table's own name and link); the
projector's charts read back the standings' capital and threat; a player's one-page sheet names
no sealed rival either, and after the reveal only the player's own."""

import io
import re

import pytest
from pypdf import PdfReader

from facilitator.reports.svgchart import read_back
from tests.pages import Phones

from .helpers import NAMES, event_of, load, record, seated

pytestmark = pytest.mark.db

MOVES = ({"type": "capital", "player": "Boris", "amount": 4, "reason": "contract"},
         {"type": "threat", "amount": 2, "reason": "event"},
         {"type": "capital", "player": "Vera", "amount": -3, "reason": "action"})


def pages(client, table_id):
    players = client.get(f"/api/v1/tables/{table_id}").get_json()["players"]
    return {p["name"]: "/" + p["page"].split("://", 1)[1].split("/", 1)[1] for p in players}


def test_the_sealed_rivals_reach_no_players_page(app, client, anon_client):
    one = seated(app, client, rivals={"Anna": "federalist", "Boris": "globalsec"})
    two = seated(app, client, rivals={"Anna": "nbn", "Boris": "haas-bioroid"})
    for table in (one, two):
        record(app, table, *MOVES)
    first, second = pages(client, one), pages(client, two)
    for name in NAMES:
        a = anon_client.get(first[name] + "?lang=en").get_data(as_text=True)
        b = anon_client.get(second[name] + "?lang=en").get_data(as_text=True)
        a = re.sub(r"data-etag='[^']*'", "", a.replace(first[name], ""))
        b = re.sub(r"data-etag='[^']*'", "", b.replace(second[name], ""))
        assert a == b, name
        assert "data-rival" not in a and "federalist" not in a.lower() and "Federalist" not in a
    standing = load(app, one).standing or load(app, one).ruleset.table_standing(load(app, one).game)
    boris = anon_client.get(first["Boris"]).get_data(as_text=True)
    capital = next(p["capital"] for p in standing["players"] if p["name"] == "Boris")
    assert f"data-capital>{capital}<" in boris and capital == 14
    assert read_back(re.search(r"<svg.*?</svg>", boris, re.S).group(0))["Boris"][:2] == [10, 14]
    # the projector: capital per corporation and the threat of each table, as the standings say
    event = event_of(app, one)
    data = anon_client.get(f"/e/{event}/standings.json").get_json()
    charts = [read_back(svg) for svg in re.findall(r"<svg.*?</svg>", data["rendered"], re.S)]
    assert len(charts) == 2
    capital_now = {name.rsplit("(", 1)[1].rstrip(")"): values[1] for name, values in charts[0].items()}
    assert capital_now == {p["name"]: p["capital"] for p in standing["players"]}
    assert charts[1] == {standing["table"]: [12, 14] + [None] * 8}


def test_a_move_draws_again_only_the_pages_it_changed(app, client):
    """Move by move, a poll is answered 304 only while the page it holds is the page the server
    would draw now (``tests.pages.Phones`` checks each one): the threat moves every page, a
    player's capital only theirs."""
    table = seated(app, client, rivals={"Anna": "federalist", "Boris": "globalsec"})
    record(app, table, MOVES[0])  # the first of the round's slot: a point on every curve
    phones = Phones(app, pages(client, table), "en")
    try:
        assert phones.poll() == set()
        record(app, table, {"type": "capital", "player": "Boris", "amount": 2, "reason": "contract"})
        assert phones.poll() == {"Boris"}
        record(app, table, MOVES[1])
        assert phones.poll() == set(NAMES)
        record(app, table, MOVES[2])
        assert phones.poll() == {"Vera"}
    finally:
        phones.close()


def sheet_text(client, path):
    sheet = client.get(path + "/sheet.pdf?lang=en")
    assert sheet.status_code == 200 and sheet.mimetype == "application/pdf"
    reader = PdfReader(io.BytesIO(sheet.data))
    assert len(reader.pages) == 1
    return reader.pages[0].extract_text()


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # laid-out PDFs: one database shows them
def test_the_personal_sheet_names_no_sealed_rival_and_after_the_reveal_only_ones_own(app, client, anon_client):
    one = seated(app, client, rivals={"Anna": "federalist", "Boris": "globalsec"})
    two = seated(app, client, rivals={"Anna": "nbn", "Boris": "haas-bioroid"})
    for table in (one, two):
        record(app, table, *MOVES, {"type": "threat", "amount": 13, "reason": "event"})  # a takeover: the game ends
    first, second = pages(client, one), pages(client, two)
    # before the reveal: the two tables' sheets read the same, word for word (their names alike too)
    texts = {}
    for name in ("Anna", "Boris"):
        a = texts[name] = sheet_text(anon_client, first[name])
        assert a == sheet_text(anon_client, second[name]), name
        assert "Federalist" not in a and "'s rival" not in a and "the rivals are not revealed yet" in a
    boris = texts["Boris"]
    assert "Boris · NBN" in boris and "My capital by round" in boris and "Boris +4 capital → 14 (contract)" in boris
    assert "Vera −3 capital" not in boris  # another's move that did not touch him
    # the reveal: Anna's sheet and page name her own rival and result, no one else's
    record(app, one, {"type": "finish", "rivals": {"Vera": "jinteki", "Dmitri": "nbn"}})
    anna = sheet_text(anon_client, first["Anna"])
    assert "Anna's rival: Federalist" in anna and "Federalist" in anna.split("My capital by round")[0]
    page = anon_client.get(first["Anna"] + "?lang=en").get_data(as_text=True)
    assert "Anna&#39;s rival: Federalist" in page or "Anna's rival: Federalist" in page
    for other in ("Boris", "Vera", "Dmitri"):
        assert f"{other}'s rival" not in anna and f"{other}&#39;s rival" not in page and f"{other}'s rival" not in page


def test_the_table_screen_leads_to_the_players_pages(app, client):
    from .helpers import screen
    table = seated(app, client)
    assert f'href="/table/{table}/seats" data-seats' in screen(client, table).html  # in its Files
