"""More of the JSON API (issues 9 and 10): the batch endpoint a tablet's outbox sends its
queued moves to (the longest valid run recorded, the first refused named, nothing recorded
twice), and the API held to the bounds of the game (numbers, ids, nesting), never a 500."""

import json

import pytest

from facilitator import services

from .helpers import each_case, seq

pytestmark = pytest.mark.db


def load(app, table_id):
    """The table as the services replay it, its log read before the session closes (a log read
    later, from the closed session, would hold a connection nobody gives back)."""
    with services.db.session_scope(app.extensions["facilitator.engine"]) as s:
        table = services.load(s, table_id)
        table.undone  # noqa: B018 - reads the log now
        return table


# ----- the batch endpoint ---------------------------------------------------------------------------
def batch(client, table_id, moves, **headers):
    """POST a tablet's queued moves to the batch endpoint."""
    return client.post(f"/api/v1/tables/{table_id}/moves/batch", data=json.dumps({"moves": moves}),
                       content_type="application/json", headers=headers)


def passes(*names, start=0, prefix="c"):
    """Queued passes as a tablet's outbox sends them: ``after`` and a client id each."""
    return [{"after": start + i, "move": {"type": "pass", "player": n}, "client_id": f"{prefix}{start + i}"}
            for i, n in enumerate(names)]


def test_a_batch_records_the_longest_valid_run_and_names_the_first_refused(host, table):
    app = host.application
    moves = passes("Аня", "Борис", "Аня", "Вика")  # the third is not Аня's turn
    response = batch(host, table, moves)
    assert response.status_code == 207
    body = response.get_json()
    assert [(r["client_id"], r["seq"], r["already"]) for r in body["recorded"]] == [("c0", 1, False),
                                                                                   ("c1", 2, False)]
    assert body["refused"]["index"] == 2 and body["refused"]["client_id"] == "c2"
    assert (body["refused"]["code"], body["refused"]["rule"]) == ("not_your_turn", "3.8")
    assert body["refused"]["message"] == "it is Вика's turn (round 1), not Аня's"
    assert body["seq"] == 2
    assert [m.player for m in load(app, table).record().moves] == ["Аня", "Борис"]


def test_the_same_batch_sent_twice_records_nothing_twice(host, table):
    app = host.application
    moves = passes("Аня", "Борис", "Вика")
    first = batch(host, table, moves)
    assert first.status_code == 200 and first.get_json()["refused"] is None
    second = batch(host, table, moves)  # a second tab replays the same outbox
    assert second.status_code == 200
    assert [(r["seq"], r["already"]) for r in second.get_json()["recorded"]] == [(1, True), (2, True), (3, True)]
    assert seq(app, table) == 3


def test_a_client_id_already_recorded_is_recognised_whatever_its_after(host, table):
    app = host.application
    batch(host, table, passes("Аня"))
    again = batch(host, table, [{"after": 5, "move": {"type": "rest", "player": "Борис"}, "client_id": "c0"}])
    assert again.status_code == 200
    assert again.get_json()["recorded"] == [{"client_id": "c0", "seq": 1, "already": True}]
    assert seq(app, table) == 1


def test_an_undo_inside_a_batch(host, table):
    app = host.application
    moves = passes("Аня", "Борис") + [{"after": 2, "undo": True, "client_id": "u2"},
                                      {"after": 3, "move": {"type": "rest", "player": "Борис"}, "client_id": "r3"}]
    response = batch(host, table, moves)
    assert response.status_code == 200, response.get_json()
    loaded = load(app, table)
    assert [(r.seq, r.kind, r.undoes) for r in loaded.log][2:] == [(3, "undo", 2), (4, "move", None)]
    assert [m.type for m in loaded.record().moves] == ["pass", "rest"]
    assert batch(host, table, moves).status_code == 200 and seq(app, table) == 4


def test_an_undo_sent_by_the_outbox_says_which_move_was_undone_as_the_form_does(host, table):
    """The next screen after the outbox's batch names the move it took back, in the words the
    form's own undo uses («Move #2 (pass) was undone…»)."""
    assert batch(host, table, passes("Аня", "Борис")).status_code == 200
    body = {"moves": [{"after": 2, "undo": True, "client_id": "u2"}], "flash": True}
    response = host.post(f"/api/v1/tables/{table}/moves/batch", data=json.dumps(body),
                         content_type="application/json")
    assert response.status_code == 200 and "undone" not in response.get_json()["recorded"][0]
    screen = host.get(f"/table/{table}").get_data(as_text=True)
    assert "Move #2 (pass) was undone; it stays in the history, marked undone." in screen


def test_a_malformed_batch_is_400_and_records_nothing(host, table):
    app = host.application

    def check(name, body, status):
        response = host.post(f"/api/v1/tables/{table}/moves/batch", data=json.dumps(body),
                             content_type="application/json")
        assert response.status_code == status, response.get_json()
        assert response.get_json()["error"]["code"] == "malformed"
    each_case([
        ("moves not a list", {"moves": {"after": 0}}, 400),
        ("no moves", {"moves": []}, 400),
        ("no moves field", {"move": passes("Аня")}, 400),
        ("over 500 moves", {"moves": passes(*["Аня", "Борис", "Вика"] * 167)}, 400),
    ], check)
    assert seq(app, table) == 0


def test_a_batch_item_without_after_is_named_and_stops_the_batch_there(host, table):
    app = host.application
    moves = passes("Аня") + [{"move": {"type": "pass", "player": "Борис"}, "client_id": "x"}] + \
        passes("Вика", start=2)
    response = batch(host, table, moves)
    assert response.status_code == 207
    refused = response.get_json()["refused"]
    assert (refused["index"], refused["code"]) == (1, "malformed") and refused["path"] == "moves[1].after"
    assert seq(app, table) == 1


def test_a_batch_needs_the_tables_host(app, client):
    from tests.events.helpers import host_browser, new_event, seated_table as event_table, table_row
    event_id = new_event(app)
    mine = event_table(app, event_id, "Стол 1", moves=0)
    other = event_table(app, event_id, "Стол 2", moves=0)
    tablet = host_browser(app, mine)
    move = [{"after": 0, "move": {"type": "pass", "player": "x"}, "client_id": "a"}]
    assert batch(app.test_client(), mine, move).status_code == 401
    assert batch(tablet, other, move).status_code == 403
    token = table_row(app, mine).token
    assert batch(app.test_client(), other, move, Authorization=f"Bearer {token}").status_code == 403
    assert seq(app, mine) == seq(app, other) == 0


def test_the_batch_endpoint_is_in_the_openapi_document(anon_client):
    paths = anon_client.get("/api/v1/openapi.json").get_json()["paths"]
    assert "/api/v1/tables/{table_id}/moves/batch" in paths


# ----- bounds: a clear 400, never a 500, nothing stored ---------------------------------------------
def post_raw(client, url, text):
    return client.post(url, data=text, content_type="application/json")


def adjust_body(xp_text):
    return '{"after": 0, "move": {"type": "adjust", "player": "Аня", "xp": %s, "reason": "лишние нули"}}' % xp_text


def test_numbers_beyond_the_game_are_refused_by_the_api_and_nothing_is_stored(host, table):
    app = host.application
    url = f"/api/v1/tables/{table}/moves"

    def check(name, text, status, words):
        response = post_raw(host, url, text)
        assert response.status_code == status, response.get_data(as_text=True)[:300]
        error = response.get_json()["error"]
        assert error["code"] == "malformed" and words in error["message"], error
    each_case([
        ("an adjust of 10^8 XP", adjust_body("100000000"), 400, "at most 10000"),
        ("an adjust of 10^100 XP", adjust_body("1" + "0" * 100), 400, "more than 30 digits"),
        ("5,000 digits", adjust_body("1" + "0" * 5000), 400, "more than 30 digits"),
        ("after beyond 2^31", '{"after": 2147483648, "move": {"type": "pass", "player": "Аня"}}', 400, "after"),
        ("nested 100,000 deep", '{"after": 0, "move": ' + "[" * 100_000 + "]" * 100_000 + "}", 400,
         "nested more than"),
        ("NaN", '{"after": 0, "move": {"type": "adjust", "player": "Аня", "xp": NaN, "reason": "x"}}', 400,
         "NaN"),
    ], check)
    assert seq(app, table) == 0 and load(app, table).log == []


def test_deep_or_long_bodies_on_every_api_write_are_400(host, table):
    app = host.application
    deep = "[" * 100_000 + "]" * 100_000
    long_number = "1" * 5000

    def check(name, method, url, text):
        response = host.open(url, method=method, data=text, content_type="application/json")
        assert response.status_code == 400, (response.status_code, response.get_data(as_text=True)[:200])
        assert response.get_json()["error"]["code"] == "malformed"
    each_case([(f"{name} {label}", method, url.format(t=table), text)
               for name, method, url in [("move", "POST", "/api/v1/tables/{t}/moves"),
                                         ("batch", "POST", "/api/v1/tables/{t}/moves/batch"),
                                         ("undo", "POST", "/api/v1/tables/{t}/undo"),
                                         ("players", "PUT", "/api/v1/tables/{t}/players"),
                                         ("session", "POST", "/api/v1/session"),
                                         ("events", "POST", "/api/v1/events")]
               for label, text in [("deep", deep), ("long number", '{"after": %s}' % long_number)]], check)
    assert seq(app, table) == 0


def test_ids_beyond_the_databases_integer_range_are_404_not_500(host, table):
    def check(name, method, url):
        response = host.open(url, method=method, data="{}", content_type="application/json")
        assert response.status_code == 404, (response.status_code, response.get_data(as_text=True)[:200])
        assert response.get_json()["error"]["code"] == "not_found"
    each_case([(f"{method} {url}", method, url)
               for big in (2 ** 31, 99999999999, 10 ** 30)
               for method, url in [("GET", f"/api/v1/tables/{big}"), ("GET", f"/api/v1/tables/{big}/record"),
                                   ("POST", f"/api/v1/tables/{big}/moves"),
                                   ("POST", f"/api/v1/tables/{big}/moves/batch"),
                                   ("POST", f"/api/v1/tables/{big}/undo"),
                                   ("PUT", f"/api/v1/tables/{big}/players"),
                                   ("GET", f"/api/v1/events/{big}")]], check)
