"""An event of New Angeles tables (issue 13, 5): the dashboard, its status.json, the projector
and standings.json work, list each table's winners and each table's players by capital (no
place across tables: a table's result is a set of winners, RULES.md §8), and never show a rival
before the table's reveal."""

import json
import re

from facilitator import services
from facilitator.storage import session_scope
from tests.newangeles_web.helpers import engine, example, post, record, setup_form


def make_event(app, client):
    with session_scope(engine(app)) as s:
        pack_row = services.packs.ensure_sample(s, "new-angeles")
        ev = services.events.create_event(s, "New Angeles night", "2025-05-17", pack_row)
        playing = services.events.add_table(s, ev, "Table A").id
        waiting = services.events.add_table(s, ev, "Table B").id
        services.events.add_table(s, ev, "Table C")
        finished = services.import_record(s, example("example_takeover.json"), name="Table D", event_id=ev.id,
                                          ruleset="new-angeles")
        return ev.id, playing, waiting, finished.id


def test_dashboard_status_projector_and_standings_of_a_new_angeles_event(app, anon_client):
    from tests.conftest import organizer_browser
    client = organizer_browser(app, lang="en")
    event_id, playing, waiting, _finished = make_event(app, client)
    assert post(client, f"/na/table/{playing}/setup", setup_form(rivals={"Vera": "federalist"})).status == 303
    assert post(client, f"/na/table/{waiting}/setup", setup_form(threat=20)).status == 303
    record(app, playing, {"type": "deal", "active": "Anna", "asset": "A01", "main": {"card": "Security: Sweep"},
                          "counteroffers": [], "support": []})
    record(app, waiting, {"type": "threat", "amount": 5, "reason": "event"})

    page = client.get(f"/organizer/events/{event_id}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Winners per table" in html and "Capital at each table" in html and "Players by capital" not in html
    capital = html[html.index("Capital at each table"):]
    assert re.findall(r'<tr data-capital-table="([^"]+)"', capital) == ["Table A"] * 4 + ["Table B"] * 4 + ["Table D"] * 4
    assert "Place" not in capital
    assert "deal 2 of 3: Boris" in html and "threat 12/25" in html
    assert "the reveal of the rivals" in html  # Table B ended by threat, not revealed yet
    assert "Vera" in html and "federalist" not in html.lower()

    status = client.get(f"/organizer/events/{event_id}/status.json")
    assert status.status_code == 200
    data = status.get_json()
    assert {t["name"] for t in data["tables"]} == {"Table A", "Table B", "Table C", "Table D"}
    assert "federalist" not in json.dumps(data).lower()
    assert all("rival" not in row for row in data["individuals"])

    projector = anon_client.get(f"/e/{event_id}?lang=en")
    assert projector.status_code == 200
    text = projector.get_data(as_text=True)
    assert "New Angeles night" in text and "Players by capital" not in text and "Table D" in text
    vera = text[text.index('data-table-name="Table D"'):].split("</li>")[0]
    assert "Vera" in vera and re.search(r"Vera \d+", vera) and 'class="place"' not in text
    standings = anon_client.get(f"/e/{event_id}/standings.json?lang=en")
    assert standings.status_code == 200
    body = standings.get_json()
    assert body["ruleset"] == "new-angeles" and body["provisional"] is True
    winners = {w["table"]: w for w in body["winners"]}
    assert winners["Table D"]["winners"] == ["Vera"] and winners["Table D"]["finished"]
    assert winners["Table A"]["winners"] == [] and not winners["Table A"]["finished"]
    for w in body["winners"]:  # each table's players by capital, no place across tables
        capitals = [p["capital"] for p in w["players"]]
        assert capitals == sorted(capitals, reverse=True) and all("place" not in p for p in w["players"])
    in_order = [(p["table"], p["name"]) for w in body["winners"] for p in w["players"]]
    assert [(p["table"], p["name"]) for p in body["individuals"]] == in_order[:len(body["individuals"])]
    assert all("place" not in p for p in body["individuals"])
    # no view of the event names a rival card: Table A's sealed Federalist stays sealed
    for text in (html, json.dumps(body), text):
        assert "federalist" not in text.lower()
    assert "Vera" in body["rendered"]
    live = [t for t in status.get_json()["tables"] if t["name"] == "Table A"][0]
    assert live["round"]["label"] == "S1" and not live["finished"]

