"""An Alter Ego event: its tables run on these screens; the dashboard, status.json, projector and
standings.json rank each table on its own by influence (equal influence shares the place; no
ranking across tables, RULES.md 5); the access sheet works as for «16/25»."""

import json
import re

import pytest
from flask import render_template

from facilitator import services
from facilitator.storage import session_scope

from .helpers import THREE, TWO, engine, get, give, play, post, seat


def ae_event(app, client, tables=2):
    """An event of the Alter Ego deck, created on the organizer's home page; ``(event id, table ids)``."""
    with session_scope(engine(app)) as s:
        pack_id = services.packs.ensure_sample(s, "alter-ego-3").id
    page = post(client, "/organizer/events", {"name": "AE-ilta", "date": "2026-05-01", "pack": pack_id,
                                               "tables": tables, "language": "en"})
    assert page.status == 303, page.error
    event_id = int(re.search(r"/events/(\d+)", page.response.headers["Location"]).group(1))
    with session_scope(engine(app)) as s:
        ev = services.events.get_event(s, event_id)
        assert ev.ruleset == "alter-ego-3"
        ids = [t.id for t in services.events.tables_of(s, event_id)]
    return event_id, ids


@pytest.fixture
def event(app, host):
    """Two tables: Pöytä A (Aino, Bertta, Cecilia) and B (two players named apart); influence so
    that Meira's Aino and Table B's Oona tie at 4."""
    event_id, (a, b) = ae_event(app, host)
    seat(host, a, THREE, first="Aino")
    seat(host, b, [dict(THREE[2], name="Oona", actives=["pare", "ville", "meira"]),
                   dict(THREE[1], name="Pekka")], first="Oona")
    give(app, a, "kalle", "hype_kampanja")  # Cecilia 3
    give(app, b, "niksu", "pelikampanja")  # Pekka 2
    play(host, app, a, "draw", player="Aino")
    return event_id, a, b


def test_the_dashboard_shows_each_tables_season_and_turn_and_ranks_each_table_on_its_own(app, host, event):
    event_id, a, b = event
    page = get(host, f"/organizer/events/{event_id}")
    assert page.status == 200
    assert page.text.count("season 1 · turn 1") == 2
    assert "Aino" in re.search(r'data-table="%d">.*?</tr>' % a, page.html, re.S).group(0)
    ranking = re.search(r'<section class="panel ae-ranking".*?</section>', page.html, re.S).group(0)
    rows = re.findall(r'<tr data-player="(\w+)"><td class="num">(\d+)</td><td>\w+</td><td>([^<]+)</td>'
                      r'<td class="num">(\d+)</td>', ranking)
    assert rows == [("Aino", "1", "Table 1", "4"), ("Cecilia", "2", "Table 1", "3"), ("Bertta", "3", "Table 1", "0"),
                    ("Oona", "1", "Table 2", "4"), ("Pekka", "2", "Table 2", "2")]  # each table on its own
    assert re.findall(r'data-table-name="([^"]+)"', ranking) == ["Table 1", "Table 2"]
    assert "provisional" in ranking
    assert f'href="/ae/table/{a}"' in page.html  # the dashboard opens the table on its own game's screens


def test_the_access_sheet_is_made_for_an_alter_ego_event(app, host, event):
    event_id, _a, _b = event
    response = host.get(f"/organizer/events/{event_id}/access.pdf")
    assert response.status_code == 200 and response.data.startswith(b"%PDF")


def test_the_ranking_and_projector_partials_render_the_events_standings(app, host, event):
    event_id, _a, _b = event
    from facilitator import i18n
    with app.test_request_context("/?lang=en"), i18n.use_locale("en"):
        with session_scope(engine(app)) as s:
            tables = services.events.progress(s, event_id)
            result = services.events.event_standings(s, event_id, tables)
            ev = services.events.get_event(s, event_id)
            data = {"ruleset": "alter-ego-3", "event": {"id": ev.id, "name": ev.name, "date": ev.date},
                    "provisional": result["provisional"], "individuals": result["individuals"][:10],
                    "winners": result["winners"], "announcement": None,
                    "tables": [{"name": t.table.name, "season": t.standing["season"], "finished": False}
                               for t in tables]}
        html = render_template("public/_standings.html", data=data)
    leaders = re.findall(r'<span class="name">([^<]+)</span><span class="score">([^<]+)', html)
    assert leaders == [("Table 1", "Aino · 4 "), ("Table 2", "Oona · 4 ")]  # each table's own first place
    assert "Table 1: season 1" in " ".join(html.split()) and "each table ranked on its own by influence" in html


def test_status_json_projector_and_standings_json_rank_each_table_on_its_own(app, host, anon_client, event):
    event_id, _a, _b = event
    status = host.get(f"/organizer/events/{event_id}/status.json")
    assert status.status_code == 200
    individuals = status.get_json()["individuals"]
    assert [(r["table"], r["name"], r["place"], r["influence"]) for r in individuals] == \
        [("Table 1", "Aino", 1, 4), ("Table 1", "Cecilia", 2, 3), ("Table 1", "Bertta", 3, 0),
         ("Table 2", "Oona", 1, 4), ("Table 2", "Pekka", 2, 2)]
    assert anon_client.get(f"/e/{event_id}").status_code == 200
    data = json.loads(anon_client.get(f"/e/{event_id}/standings.json").get_data(as_text=True))
    assert [(w["table"], w["winners"]) for w in data["winners"]] == [("Table 1", ["Aino"]), ("Table 2", ["Oona"])]
    assert "Aino" in data["rendered"]


def test_an_event_of_two_player_tables_ranks_every_player(app, host):
    event_id, (a,) = ae_event(app, host, tables=1)
    seat(host, a, TWO, first="Aino")
    with session_scope(engine(app)) as s:
        result = services.events.event_standings(s, event_id)
    assert [(r["name"], r["place"]) for r in result["individuals"]] == [("Aino", 1), ("Bertta", 2)]
    assert result["ranked_by"] == "influence" and result["teams"] == []
