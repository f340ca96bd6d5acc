"""The tablet's outbox (``static/outbox.js``) sends the moves of a table's forms to the JSON API's
batch endpoint, named by the record's field names; an Alter Ego table's moves go the same way,
and the next screen says what they changed, in this game's words."""


import re
from .helpers import game_of, turn


def test_a_queued_alter_ego_move_is_recorded_and_narrated(app, host, table):
    body = {"flash": True, "moves": [
        {"after": 0, "move": {"type": "draw", "player": "Aino"}, "client_id": "ae-1"},
        {"after": 1, "move": {"type": "play_event", "player": "Aino", "card": "bile", "target": "meira",
                              "participants": ["niksu"]}, "client_id": "ae-2"}]}
    response = host.post(f"/api/v1/tables/{table}/moves/batch", json=body)
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    data = response.get_json()
    assert [r["client_id"] for r in data["recorded"]] == ["ae-1", "ae-2"] and data["seq"] == 2
    assert len(game_of(app, table).moves) == 2
    assert "Party of Meira: Niksu; 1 from other factions" in " ".join(turn(host, table).messages("ok"))


def test_the_outbox_reads_these_forms(app, host, table):
    """The conventions the outbox relies on: the body names the table, its sequence number and
    where the turn screen is; every move form says its type."""
    page = turn(host, table)
    assert f'data-table="{table}" data-seq="0"' in page.html
    assert f'data-turn-url="/ae/table/{table}"' in page.html
    assert 'data-players="[&#34;Aino&#34;, &#34;Bertta&#34;, &#34;Cecilia&#34;]"' in page.html or \
        'data-players="[&quot;Aino&quot;, &quot;Bertta&quot;, &quot;Cecilia&quot;]"' in page.html
    live = re.sub(r"<template\b.*?</template>", "", page.html, flags=re.S)  # the offline screens apart
    assert live.count('data-move="') == len([f for f in page.forms if "/move/" in f.action])
