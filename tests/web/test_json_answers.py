"""The app's JSON answers (``web.json_answers``): the JSON Flask's own provider writes, keys
sorted and compact, written by orjson; text as UTF-8; what orjson cannot write (an integer past
64 bits, a date) written by Flask's provider as before."""

import json
from datetime import date, datetime, timezone

from flask.json.provider import DefaultJSONProvider

from facilitator.web.json_answers import JSONAnswers


def flasks_own(app, value):
    return DefaultJSONProvider(app).response(value).get_data()


def test_an_answer_is_the_same_json_in_utf_8_keys_sorted(app):
    value = {"players": [{"name": "Аня", "xp": 120, "odds": {"green": [3, 7]}}], "seq": 4, "needs_checking": False,
             "ruleset": "lyceum", "rate": 0.25, "none": None, "Ω": "«16/25»"}
    with app.app_context():
        assert isinstance(app.json, JSONAnswers)
        body = app.json.response(value).get_data()
    assert "Аня".encode() in body and b"\\u" not in body
    assert body.endswith(b"}\n") and json.loads(body) == value == json.loads(flasks_own(app, value))
    assert body == json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"


def test_what_orjson_cannot_write_is_written_as_flask_writes_it(app):
    for value in ({"huge": 2 ** 70}, {"day": date(2026, 12, 3)},
                  {"at": datetime(2026, 12, 3, 9, 30, tzinfo=timezone.utc)}, {1: "a", 2: "b"}):
        with app.app_context():
            mine = app.json.response(value).get_data()
        assert json.loads(mine) == json.loads(flasks_own(app, value)), value


def test_the_api_answers_with_it(host, table):
    answer = host.get(f"/api/v1/tables/{table}")
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    assert "Аня".encode() in answer.get_data() and answer.get_json()["seq"] == 0
