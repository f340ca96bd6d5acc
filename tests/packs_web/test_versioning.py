"""Issue 6, item 4: a pack in use cannot be changed under a game. An edit through the editor is a
new version; the event and its tables that have not recorded a move play with it, while a game
under way keeps replaying with the version it started with.

The event «Кубок лицея» has two tables on the sample pack (version 1), both seated through the
setup screen. At table 1, Аня and Борис each draw and play «Школьная олимпиада» (L-G-01:
intellect 3 or more, +1 intellect). The organizer then rewrites that card (intellect 6 or more,
+1 creativity, a new title). Replayed with the new card, table 1's game would differ (Борис has
intellect 5, so he could not even have played it): its standings must stay exactly as they were.
Table 2 has recorded nothing, so its draw screen now offers the rewritten card.
"""

import html
import json
import re

import pytest

from facilitator.services import events
from facilitator.storage.models import ContentPackRow, Event, GameTable

from .helpers import PACKS, db, draw_page, get, submit

# Аня, Борис, Вика clockwise; Аня has the most energy, so she moves first, then Борис
PLAYERS = [
    {"name": "Аня", "born": "2009-03-14", "character": "C01", "extra": {"energy": 3, "intellect": 2}},
    {"name": "Борис", "born": "2009-05-01", "character": "C02", "extra": {"communication": 3, "health": 2}},
    {"name": "Вика", "born": "2008-11-30", "character": "C06", "extra": {"creativity": 3, "energy": 2}},
]
EDITED = {"title": "Олимпиада по шахматам", "conditions_intellect": 6, "gains_intellect": "", "gains_creativity": 1}


def create_event(client, tables=2):
    """The event, created on the organizer's home page with the sample pack; its table ids."""
    form = get(client, "/organizer/?game=lyceum-16-25").form("/organizer/events")
    with db(client.application) as s:
        sample_v1 = s.exec(ContentPackRow.__table__.select().where(ContentPackRow.ruleset == "lyceum-16-25",
                                                                   ContentPackRow.key == "sample")).first()
    assert form.fields["pack"] == str(sample_v1.id)
    answer = submit(client, form, name="Кубок лицея", date="2026-11-29", tables=tables)
    event_id = int(re.search(r"/events/(\d+)$", answer.response.headers["Location"]).group(1))
    with db(client.application) as s:
        return event_id, [t.id for t in events.tables_of(s, event_id)]


def seat(client, table_id):
    form = get(client, f"/table/{table_id}/setup").form("/setup")
    fields = {}
    for i, p in enumerate(PLAYERS):
        fields.update({f"players-{i}-name": p["name"], f"players-{i}-born": p["born"],
                       f"players-{i}-character": p["character"]})
        fields.update({f"players-{i}-extra-{s}": v for s, v in p["extra"].items()})
    answer = submit(client, form, **fields)
    assert answer.status == 303, answer.text[:500]


def draw_and_play(client, table_id, code, player):
    page = draw_page(client, table_id, "green", card=code)
    assert page.status == 200
    form = page.form("/move/draw")
    assert form.fields["player"] == player
    answer = submit(client, form, decision="play")
    assert answer.status == 303


def standings(client, table_id):
    response = client.get(f"/api/v1/tables/{table_id}")
    assert response.status_code == 200
    return response.get_json()


def pack_versions(app, event_id, table_ids):
    """The pack version the event and each of its tables plays with."""
    with db(app) as s:
        version = {row.id: row.version for row in s.exec(ContentPackRow.__table__.select()).all()}
        return (version[s.get(Event, event_id).pack_id], [version[s.get(GameTable, t).pack_id] for t in table_ids])


def offered(client, table_id, query):
    """The cards a table's draw screen lists for a green card and ``query``, as (code, title)."""
    page = get(client, f"/table/{table_id}/draw?color=green&q={query}")
    assert page.status == 200
    items = re.findall(r'<li><a href="[^"]*card=([^"&]+)"><b>[^<]*</b> ([^<]*)</a></li>', page.html)
    return [(code, html.unescape(title)) for code, title in items]


@pytest.fixture
def event(client, app):
    """The event's two seated tables; table 1 has recorded two moves on version 1."""
    event_id, (playing, waiting) = create_event(client)
    seat(client, playing)
    seat(client, waiting)
    draw_and_play(client, playing, "L-G-01", "Аня")
    draw_and_play(client, playing, "L-G-01", "Борис")
    return event_id, playing, waiting


def test_an_edit_makes_a_new_version_that_games_under_way_do_not_see(client, app, event):
    event_id, playing, waiting = event
    before = standings(client, playing)
    assert [p["skills"]["intellect"] for p in before["players"][:2]] == [9, 6]  # each played +1 intellect
    record_before = json.loads(client.get(f"/table/{playing}/record.json").data)
    assert pack_versions(app, event_id, [playing, waiting]) == (1, [1, 1])

    form = get(client, PACKS + "/sample/cards/L-G-01").edit_form()
    answer = submit(client, form, follow=True, **EDITED)
    assert answer.messages("error") == []
    assert answer.messages("ok") == ["Сохранено как версия 2. Столы, где игра ещё не началась, играют с ней (1); "
                                     "начатые игры остаются на своей версии."]

    # the game under way: same version, same standings, same record
    assert pack_versions(app, event_id, [playing, waiting]) == (2, [1, 2])
    assert standings(client, playing) == before
    assert json.loads(client.get(f"/table/{playing}/record.json").data) == record_before
    assert offered(client, playing, "олимп") == [("L-G-01", "Школьная олимпиада")]
    assert offered(client, playing, "шахмат") == []

    # the table that has not started: the rewritten card, found by a few letters of its new title
    assert offered(client, waiting, "шахмат") == [("L-G-01", "Олимпиада по шахматам")]
    assert offered(client, waiting, "ОЛИМП") == [("L-G-01", "Олимпиада по шахматам")]
    card = draw_page(client, waiting, "green", card="L-G-01")
    assert "Олимпиада по шахматам" in card
    rows = dict(re.findall(r"<tr class=\"[^\"]*\"><th>([^<]+)</th><td>\d+</td><td>([^<]*)</td>", card.html))
    assert rows["интеллект"] == "6" and rows["здоровье"] == ""


def test_a_table_added_after_the_edit_plays_the_new_version(client, app, event):
    event_id, playing, waiting = event
    submit(client, get(client, PACKS + "/sample/cards/L-G-01").edit_form(), **EDITED)
    form = get(client, f"/organizer/events/{event_id}").form(f"/events/{event_id}/tables")
    assert submit(client, form, name="Стол 3").status == 303
    with db(app) as s:
        added = events.tables_of(s, event_id)[-1].id
    seat(client, added)
    assert offered(client, added, "шахмат") == [("L-G-01", "Олимпиада по шахматам")]
    assert pack_versions(app, event_id, [playing, waiting, added]) == (2, [1, 2, 2])


def test_a_later_edit_still_leaves_the_game_on_its_version(client, app, event):
    event_id, playing, waiting = event
    before = standings(client, playing)
    submit(client, get(client, PACKS + "/sample/cards/L-G-01").edit_form(), **EDITED)
    draw_and_play(client, waiting, "L-G-01", "Аня")  # table 2 starts on version 2
    after_first_move = standings(client, waiting)
    assert after_first_move["players"][0]["skills"]["creativity"] == 3  # 2 + the rewritten card's +1

    form = get(client, PACKS + "/sample").form("/levels")
    answer = submit(client, form, follow=True, levels="0, 100, 400, 700, 1000, 1400, 1800, 2300, 2800")
    assert "Сохранено как версия 3" in answer.messages("ok")[0]
    assert pack_versions(app, event_id, [playing, waiting]) == (3, [1, 2])
    assert standings(client, playing) == before
    assert standings(client, waiting) == after_first_move
