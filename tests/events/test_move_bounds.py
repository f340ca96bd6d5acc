"""Issue 17: a move holds only its rules' fields, each bounded, and every input a troublemaker on
the Wi-Fi was seen to turn into a server error is a clear 4xx that stores nothing.

A move sent by a tablet, a form, the API or an outbox file with a key its type does not take is
refused (400, naming the key and the keys allowed); a record file's unknown keys are ignored
and not kept. Each refusal below is checked for its status, its words and for the database left
exactly as it was (``everything``). The rules-level checks of every field are in tests/rules,
tests/alterego and tests/newangeles."""

import io
import json

import pytest

from facilitator import services
from facilitator.rules import registry
from facilitator.storage.models import GameTable, MoveRow
from tests.web.helpers import THREE, each_case

from .helpers import (csrf_token, db, english, everything, flashes, game_record, host_browser, import_table,
                      new_event, post, text)

pytestmark = pytest.mark.db

LYCEUM, ALTER_EGO, NEW_ANGELES = "lyceum-16-25", "alter-ego-3", "new-angeles"
AE_SETUP = {"players": [{"name": "Aino", "born": "1991-04-02", "actives": ["pare", "ville", "meira"]},
                        {"name": "Bertta", "born": "1985-11-20", "actives": ["niksu", "tommi", "imaami"]}],
            "first": "Aino"}
NA_SETUP = {"setup": {"players": [{"name": n, "corp": c, "capital": 10} for n, c in
                                  [("Anna", "jinteki"), ("Boris", "nbn"), ("Vera", "globalsec"),
                                   ("Dmitri", "haas-bioroid")]],
                      "first_player": "Anna", "threat": 12, "assets": 3, "demand": "DM2", "supply": {}}}
SETUPS = {LYCEUM: THREE, ALTER_EGO: AE_SETUP, NEW_ANGELES: NA_SETUP}
#: a move each game's table takes at its start, as the tablet would send it
FIRST_MOVES = {LYCEUM: {"type": "rest", "player": "Аня"}, ALTER_EGO: {"type": "draw", "player": "Aino"},
               NEW_ANGELES: {"type": "capital", "player": "Anna", "amount": 1, "reason": "other"}}


def seated(app, ruleset, name="Стол 1"):
    """A table of an event of ``ruleset`` seated through the services: ``(event, table, token)``."""
    with db(app) as s:
        pack_row = services.packs.ensure_sample(s, ruleset)
        event = services.events.create_event(s, f"Турнир {ruleset} {name}", "2026-11-29", pack_row)
        table = services.events.add_table(s, event, name)
        services.set_players(s, table.id, registry.get(ruleset).read_setup(SETUPS[ruleset], "players"))
        return event.id, table.id, table.token


def api(app, method, url, body, token):
    return app.test_client().open(url, method=method, data=json.dumps(body),
                                  headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})


def log(app, table_id):
    """The table's sequence number and its log, as plain data."""
    with db(app) as s:
        table = services.get_table(s, table_id)
        rows = s.exec(MoveRow.__table__.select().where(MoveRow.table_id == table_id).order_by(MoveRow.seq)).all()
        return table.seq, [(r.seq, r.kind, r.data) for r in rows]


# ----- 5. a move holds only its rules' fields ---------------------------------------------------------
@pytest.mark.parametrize("ruleset", [LYCEUM, ALTER_EGO, NEW_ANGELES])
def test_a_move_with_a_key_its_type_does_not_take_is_refused_naming_it_and_nothing_is_stored(app, ruleset):
    _event, table, token = seated(app, ruleset)
    before = everything(app)
    for key, value in [("device", "tablet-3"), ("x" * 1_000_000, 1), ("z", "y" * 1_000_000)]:
        move = dict(FIRST_MOVES[ruleset], **{key: value})
        for url, body in [(f"/api/v1/tables/{table}/moves", {"after": 0, "move": move}),
                          (f"/api/v1/tables/{table}/moves/batch", {"moves": [{"after": 0, "move": move}]})]:
            response = api(app, "POST", url, body, token)
            error = response.get_json()["error"] if "error" in response.get_json() else response.get_json()["refused"]
            assert response.status_code in (400, 207), (url, response.status_code)
            assert error["code"] == "malformed"
            assert key[:15] in error["message"] and "type, player" in error["message"], error["message"]
            assert len(error["message"]) < 300  # a megabyte sent is never sent back
            assert everything(app) == before
    assert api(app, "POST", f"/api/v1/tables/{table}/moves", {"after": 0, "move": FIRST_MOVES[ruleset]},
               token).status_code == 201  # the same move without the key is taken


def test_the_refusal_names_the_key_and_the_allowed_keys_in_the_tables_language(app):
    _event, table, token = seated(app, ALTER_EGO)
    response = api(app, "POST", f"/api/v1/tables/{table}/moves",
                   {"after": 0, "move": {"type": "draw", "player": "Aino", "tablet": 3}}, token)
    assert response.status_code == 400
    assert response.get_json()["error"] == {
        "code": "malformed", "path": "move.tablet",
        "message": "tuntematon avain 'tablet'; tässä sallitut avaimet ovat type, player, at, note"}


def test_a_record_file_s_unknown_keys_are_ignored_and_not_kept(app):
    """RECORD.md 2: readers keep ``at`` and ``note`` and ignore any other unknown key on a move."""
    record, _game = game_record(seed=3, players=3, moves=4)
    record["moves"][1]["device"] = "x" * 100_000
    record["moves"][2]["note"] = "ход с заметкой"
    table = import_table(app, new_event(app), "Стол 1", record)
    _seq, rows = log(app, table)
    stored = [json.loads(data) for _s, _k, data in rows]
    assert all("device" not in m for m in stored) and stored[2]["note"] == "ход с заметкой"
    assert sum(len(data) for _s, _k, data in rows) < 2_000


def test_a_log_stored_with_unknown_keys_still_replays_and_its_backup_restores_without_them(app, client):
    """A table recorded before moves were held to their fields keeps working; its backup
    restores, the unknown keys left out."""
    event_id, table, _token = seated(app, LYCEUM)
    with db(app) as s:
        s.add(MoveRow(table_id=table, seq=1, kind="move", author="tablet",
                      data=json.dumps({"type": "rest", "player": "Аня", "device": "tablet-3"}, ensure_ascii=False)))
        s.get(GameTable, table).seq = 1
    with db(app) as s:
        loaded = services.load(s, table, fresh=True)
        moves = loaded.record().to_dict()["moves"]
        assert not loaded.broken and moves == [{"type": "rest", "player": "Аня"}]
    body = client.get(f"/organizer/events/{event_id}/backup.json").get_data()
    response = client.post("/organizer/restore", data={"backup": (io.BytesIO(body), "b.json"), "name": "Копия",
                                                       "csrf_token": csrf_token(client, "/organizer/")},
                           content_type="multipart/form-data", follow_redirects=True)
    assert response.status_code == 200, text(response)[:500]
    with db(app) as s:
        copy = next(e for e in services.events.events(s) if e.name == "Копия")
        restored = services.events.tables_of(s, copy.id)[0].id
    assert json.loads(log(app, restored)[1][0][2]) == {"type": "rest", "player": "Аня"}


# ----- 8. each input the issue lists: a clear 4xx, nothing stored -------------------------------------
def test_an_alter_ego_move_type_that_is_a_list_or_an_object_is_refused(app):
    _event, table, token = seated(app, ALTER_EGO)
    before = everything(app)

    def check(name, kind):
        response = api(app, "POST", f"/api/v1/tables/{table}/moves",
                       {"after": 0, "move": {"type": kind, "player": "Aino"}}, token)
        assert response.status_code == 400, response.status_code
        error = response.get_json()["error"]
        assert error["path"] == "move.type" and "draw, season" in error["message"], error
        assert everything(app) == before
    each_case([("a list", ["draw"]), ("an object", {"draw": 1}), ("a number", 7), ("null", None)], check)


def test_a_lyceum_draw_whose_colour_is_a_list_is_refused_naming_the_colours(app):
    _event, table, token = seated(app, LYCEUM)
    before = everything(app)

    def check(name, field, value):
        move = {"type": "draw", "player": "Аня", "color": "green", "card": "L-G-01", "decision": "play"}
        move[field] = value
        response = api(app, "POST", f"/api/v1/tables/{table}/moves", {"after": 0, "move": move}, token)
        assert response.status_code == 400, response.status_code
        error = response.get_json()["error"]
        assert error["path"].startswith(f"move.{field}"), error
        assert "green, yellow, red" in error["message"] or "play, defer, discard" in error["message"], error
        assert everything(app) == before
    each_case([("colour a list", "color", ["green"]), ("colour an object", "color", {"green": True}),
               ("decision a list", "decision", ["play"]),
               ("a card's colour a list", "card", {"title": "x", "color": ["green"], "gains": {"health": 1}})], check)


@pytest.mark.parametrize("ruleset", [LYCEUM, ALTER_EGO, NEW_ANGELES])
def test_seating_players_that_are_not_a_list_is_refused(app, ruleset):
    with db(app) as s:
        event = services.events.create_event(s, "Турнир", "2026-11-29", services.packs.ensure_sample(s, ruleset))
        table = services.events.add_table(s, event, "Стол 1")
        table_id, token = table.id, table.token
    before = everything(app)
    for players in (True, 7, "Аня", {"name": "Аня"}):
        response = api(app, "PUT", f"/api/v1/tables/{table_id}/players", {"rev": 0, "players": players}, token)
        assert response.status_code in (400, 422), (players, response.status_code)
        assert response.get_json()["error"]["message"]
        assert everything(app) == before


def test_an_xp_of_400_digits_on_the_hosts_adjust_form_is_refused_with_the_range(app, client):
    event_id, table, _token = seated(app, LYCEUM)
    host = host_browser(app, table)
    before = everything(app)
    for xp in ("9" * 400, "-" + "9" * 400, "9" * 5000):
        response = post(host, f"/table/{table}/move/adjust", {"after": 0, "player": "Аня", "xp": xp,
                                                             "reason": "лишние нули"})
        assert response.status_code == 400, (xp[:5], response.status_code)
        assert "The move was not recorded" in text(response)
        assert ("between -10000 and 10000" in text(response) or "Not a valid integer" in text(response))
        assert everything(app) == before


def test_a_queued_moves_file_with_a_list_as_a_move_type_is_refused_naming_the_move(app, client):
    event_id, table, _token = seated(app, ALTER_EGO)
    english(client)
    before = everything(app)
    outbox = {"format": "facilitator-outbox/1", "moves": [
        {"after": 0, "move": {"type": ["draw"], "player": "Aino"}, "client_id": "a"}]}
    for bad in (outbox, dict(outbox, moves=[{"after": -1, "move": FIRST_MOVES[ALTER_EGO]}]),
                dict(outbox, moves=[{"after": 0, "move": dict(FIRST_MOVES[ALTER_EGO], tablet=3)}])):
        response = client.post(f"/organizer/events/{event_id}/tables/{table}/outbox",
                               data={"outbox": (io.BytesIO(json.dumps(bad).encode()), "o.json"),
                                     "csrf_token": csrf_token(client, "/organizer/")},
                               content_type="multipart/form-data", follow_redirects=True)
        assert response.status_code == 200
        errors = flashes(response, "error")
        assert len(errors) == 1 and errors[0].startswith("Move 1 of the file was not recorded"), errors
        assert everything(app) == before


@pytest.mark.parametrize("tables", ["1000000000", "101", "-1", "3.5", "много"])
def test_an_event_asked_for_tables_beyond_the_range_is_refused_naming_it(app, client, tables):
    english(client)
    before = everything(app)
    response = post(client, "/organizer/events", {"name": "Кубок", "date": "2026-11-29", "tables": tables, "game": "lyceum-16-25"},
                    follow_redirects=True)
    assert flashes(response, "error") == ["Tables to create now: a whole number from 0 to 100"]
    answer = client.post("/api/v1/events", json={"name": "Кубок", "tables": tables, "game": "lyceum-16-25"})
    assert answer.status_code == 400
    assert "a whole number from 0 to 100" in answer.get_json()["error"]["message"]
    assert everything(app) == before


def test_an_event_of_the_most_tables_is_created(app, client):
    """The edge of the range above (creating a hundred tables once, not once per refused value)."""
    assert client.post("/api/v1/events", json={"name": "Кубок", "tables": 100, "game": "lyceum-16-25"}).status_code == 201


def test_an_event_holding_its_most_tables_refuses_one_more(app, client, monkeypatch):
    monkeypatch.setattr(services.tables, "MAX_EVENT_TABLES", 3)
    english(client)
    created = client.post("/api/v1/events", json={"name": "Кубок", "tables": 3, "game": "lyceum-16-25"}).get_json()
    before = everything(app)
    answer = client.post(f"/api/v1/events/{created['id']}/tables", json={"name": "Стол 4"})
    assert answer.status_code == 409 and answer.get_json()["error"]["code"] == "event_full"
    assert answer.get_json()["error"]["message"] == ("An event holds at most 3 tables; this one has 3. "
                                                     "No table was added.")
    response = post(client, f"/organizer/events/{created['id']}/tables", {"name": "Стол 4"}, follow_redirects=True)
    assert flashes(response, "error") == ["An event holds at most 3 tables; this one has 3. No table was added."]
    assert everything(app) == before


def test_a_write_naming_a_move_the_table_has_not_reached_says_so_with_the_real_numbers(app, client):
    _event, table, token = seated(app, LYCEUM)
    assert api(app, "POST", f"/api/v1/tables/{table}/moves", {"after": 0, "move": FIRST_MOVES[LYCEUM]},
               token).status_code == 201
    before = everything(app)
    tablet = english(app.test_client())
    headers = {"Authorization": f"Bearer {token}"}
    answer = tablet.post(f"/api/v1/tables/{table}/moves", json={"after": 5, "move": {"type": "pass", "player": "Борис"}},
                         headers=headers)
    assert answer.status_code == 409
    assert answer.get_json()["error"] == {
        "code": "stale", "already_recorded": False, "seq": 1,
        "message": "This screen names move #5, but the table has only reached move #1. The move was NOT recorded: "
                   "reload the screen and repeat it if needed."}
    undo = tablet.post(f"/api/v1/tables/{table}/undo", json={"after": 5}, headers=headers)
    assert undo.status_code == 409
    assert undo.get_json()["error"]["message"] == ("This screen names move #5, but the table has only reached move "
                                                   "#1; nothing was undone. Reload the screen.")
    host = host_browser(app, table)
    ahead = post(host, f"/table/{table}/move/pass", {"after": 5, "type": "pass", "player": "Борис"})
    assert ahead.status_code == 409 and "names move #5, but the table has only reached move #1" in text(ahead)
    behind = post(host, f"/table/{table}/move/pass", {"after": 0, "type": "pass", "player": "Борис"})
    assert behind.status_code == 409 and "(move #0, now #1)" in text(behind)  # a screen left behind
    assert everything(app) == before


# ----- a table's log and its event's backup -------------------------------------------------------------
def test_a_tables_log_full_of_bytes_refuses_the_next_move_and_stores_nothing(app, monkeypatch):
    _event, table, token = seated(app, LYCEUM)
    assert api(app, "POST", f"/api/v1/tables/{table}/moves", {"after": 0, "move": {"type": "pass", "player": "Аня"}},
               token).status_code == 201
    used = len(log(app, table)[1][0][2].encode())
    monkeypatch.setattr(services.tables, "MAX_LOG_BYTES", used + 60)
    services.tables.game_cache.forget()  # as another server process: the log's bytes are summed from the database
    before = everything(app)
    move = {"type": "pass", "player": "Борис", "note": "заметка " * 10}
    answer = api(app, "POST", f"/api/v1/tables/{table}/moves", {"after": 1, "move": move}, token)
    assert answer.status_code == 400
    assert answer.get_json()["error"]["message"].startswith("журнал этого стола заполнен: его ходы занимают")
    assert everything(app) == before
    monkeypatch.setattr(services.tables, "MAX_LOG_MOVES", 1)
    answer = api(app, "POST", f"/api/v1/tables/{table}/moves", {"after": 1, "move": {"type": "pass", "player": "Борис"}},
                 token)
    assert answer.status_code == 400
    assert answer.get_json()["error"]["message"] == ("журнал этого стола заполнен: в нём помещается не больше 1 "
                                                     "ходов и отмен; ничего не записано")
    assert everything(app) == before
    monkeypatch.setattr(services.tables, "MAX_LOG_MOVES", 2)
    assert api(app, "POST", f"/api/v1/tables/{table}/moves", {"after": 1, "move": {"type": "pass", "player": "Борис"}},
               token).status_code == 400  # the bytes
    assert api(app, "POST", f"/api/v1/tables/{table}/undo", {"after": 1}, token).status_code == 200  # an undo still


def largest_lyceum_move():
    """A move of «16/25» at the bounds its reader allows, legal at a table of three that has just
    started: a hand-entered red card of the longest texts (every character a 4-byte one, or a
    control character JSON writes as 6), drawn and discarded, with the longest time and note."""
    wide = "🂡"  # 4 bytes in UTF-8
    card = {"color": "red", "title": wide * 200, "text": "\x01" * 2000, "conditions": {}, "losses": {"health": 1},
            "gains": {"health": 1}, "free": 2, "special": {"text": "\x02" * 2000, "redistribute": 100}}
    return {"type": "draw", "player": "Аня", "color": "red", "card": card, "decision": "discard", "at": "2" * 40,
            "note": wide * 500}


def test_a_backup_of_a_table_whose_moves_are_at_their_bounds_restores(app, client):
    """Every backup the app writes, it can restore: a table of the largest moves the reader
    allows, each undone and sent again until the table's log is full (``MAX_LOG_BYTES``),
    backs up and restores."""
    event_id, table, token = seated(app, LYCEUM)
    move = largest_lyceum_move()
    size = len(json.dumps(move, ensure_ascii=False).encode())
    assert size > 25_000
    after = 0
    while True:
        answer = api(app, "POST", f"/api/v1/tables/{table}/moves", {"after": after, "move": move}, token)
        if answer.status_code != 201:
            break
        assert api(app, "POST", f"/api/v1/tables/{table}/undo", {"after": after + 1}, token).status_code == 200
        after += 2
    assert answer.status_code == 400 and answer.get_json()["error"]["path"] == "move"
    stored = sum(len(data.encode()) for _s, _k, data in log(app, table)[1] if data)
    assert services.tables.MAX_LOG_BYTES - size < stored <= services.tables.MAX_LOG_BYTES
    english(client)
    body = client.get(f"/organizer/events/{event_id}/backup.json").get_data()
    response = client.post("/organizer/restore", data={"backup": (io.BytesIO(body), "b.json"), "name": "Копия",
                                                       "csrf_token": csrf_token(client, "/organizer/")},
                           content_type="multipart/form-data", follow_redirects=True)
    assert flashes(response, "ok") == ["Event restored"], flashes(response)
    with db(app) as s:
        copy = next(e for e in services.events.events(s) if e.name == "Копия")
        restored = services.events.tables_of(s, copy.id)[0].id
    assert log(app, restored)[1] == log(app, table)[1]
