"""The JSON API's setup refusals of a New Angeles table (``PUT /api/v1/tables/<id>/players``)
name corporations and rival cards as the setup screen does (``GamePackage.error_text`` with the
table's pack): by the pack's names in the language asked, never by the record's keys (issue 20,
item 1); the code, the rule and the path stay apart."""

import copy

import pytest

from facilitator import services
from facilitator.storage import session_scope
from tests.newangeles_web.helpers import engine, example, new_table

SETUP = example("example_takeover.json")["setup"]


def put_setup(app, client, setup, lang):
    table_id = new_table(app)
    with session_scope(engine(app)) as s:
        token = services.get_table(s, table_id).token
    answer = client.put(f"/api/v1/tables/{table_id}/players", json={"rev": 0, "players": {"setup": setup}},
                        headers={"Authorization": f"Bearer {token}", "Accept-Language": lang})
    return answer.status_code, answer.get_json()


@pytest.mark.parametrize("lang, expected", [
    ("sv", "korporationen NBN spelas av Boris och Vera"),
    ("en", "corporation NBN is played by Boris and Vera"),
])
def test_a_corporation_played_twice_is_named_by_the_packs_name(app, client, lang, expected):
    setup = copy.deepcopy(SETUP)
    setup["players"][2]["corp"] = "nbn"  # Vera takes Boris' corporation
    status, body = put_setup(app, client, setup, lang)
    assert status == 422, body
    error = body["error"]
    assert (error["code"], error["rule"], error["path"], error["message"]) == \
        ("corporation_twice", "§2", "setup", expected)


def test_a_rival_out_of_play_is_named_by_the_packs_name_in_swedish(app, client):
    setup = copy.deepcopy(SETUP)
    setup["players"][0]["rival"] = "weyland"  # no one plays Weyland at this table
    status, body = put_setup(app, client, setup, "sv")
    assert (status, body["error"]["code"]) == (422, "rival_not_in_play"), body
    message = body["error"]["message"]
    assert "Weyland" in message and "weyland" not in message, message
