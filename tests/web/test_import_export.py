"""Game record export and import for a table (issue 3, item 6; RECORD.md 2): the exported
`lyceum-record/1` replays to the table's standings, and importing it gives a table with the
same standings; a file that is not a valid record is refused and nothing is created."""

import copy
import io
import json

import pytest

from facilitator.rules.lyceum.ruleset import sample_pack
from facilitator.rules.lyceum import Move, read_record, standings
from facilitator.rules.lyceum import replay
from facilitator.rules.lyceum.simulate import random_game
from facilitator.storage.models import GameTable

from .helpers import create_table, csrf_token, each_case, get, load, record, seated_table, submit

pytestmark = pytest.mark.db


def export(client, table_id):
    response = client.get(f"/table/{table_id}/record.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert "attachment" in response.headers["Content-Disposition"]
    return json.loads(response.get_data(as_text=True))


def import_file(client, body, filename="record.json"):
    data = {"csrf_token": csrf_token(client),
            "record": (io.BytesIO(body if isinstance(body, bytes) else json.dumps(body).encode()), filename)}
    return client.post("/tables/import", data=data, content_type="multipart/form-data")


def table_count(app):
    from sqlmodel import select

    from facilitator.storage import session_scope
    with session_scope(app.extensions["facilitator.engine"]) as s:
        return len(s.exec(select(GameTable)).all())


def imported_id(response):
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    return int(response.headers["Location"].rstrip("/").split("/table/")[1].split("/")[0])


def standings_of(record_data):
    return standings([replay(read_record(record_data))])["tables"][0]


def test_the_exported_record_replays_to_the_tables_standings(host, table):
    record(host.application, table,
           Move("draw", player="Аня", color="green", card="L-G-01", decision="play"),
           Move("draw", player="Борис", color="red", card="L-R-01", decision="defer"),
           Move("rest", player="Вика", redistribute={"creativity": -1, "health": 1}),
           Move("allocate", player="Вика", sp={"energy": 1}))
    data = export(host, table)
    assert data["format"] == "lyceum-record/1" and data["table"] == "Стол 1"
    assert data["content"]["format"] == "lyceum-pack/1"
    assert [p["name"] for p in data["players"]] == ["Аня", "Борис", "Вика"]
    assert len(data["moves"]) == 4 and all("at" in m for m in data["moves"])
    assert standings_of(data) == standings([load(host.application, table).game])["tables"][0]


def test_export_then_import_gives_a_table_with_the_same_standings(host, table):
    app = host.application
    record(app, table, Move("draw", player="Аня", color="green", card="L-G-01", decision="play"),
           Move("pass", player="Борис"))
    data = export(host, table)
    response = import_file(host, data)
    copy = imported_id(response)
    assert copy != table
    page = get(host, f"/table/{copy}")
    assert page.status == 200 and "Game record imported" in page.messages("ok")
    assert standings([load(app, copy).game]) == standings([load(app, table).game])
    assert export(host, copy) == data  # the copy exports the very same record
    # the copy plays on from where the game was
    assert "Turn of Вика" in page


def test_a_full_random_game_round_trips_through_import_and_export(host):
    original, game = random_game(sample_pack(), seed=11, players=4, adjust_rate=0.05)
    data = original.to_dict()
    table_id = imported_id(import_file(host, data))
    assert host.get(f"/table/{table_id}").headers["Location"].endswith(f"/table/{table_id}/final")
    final = get(host, f"/table/{table_id}/final")
    assert final.status == 200 and "Final results" in final
    expected = standings([game])
    assert standings([load(host.application, table_id).game]) == expected
    assert standings_of(export(host, table_id)) == expected["tables"][0]


def test_undone_moves_are_not_exported(host, table):
    app = host.application
    record(app, table, Move("pass", player="Аня"), Move("rest", player="Борис"))
    submit(host, get(host, f"/table/{table}").form(f"/table/{table}/undo"))
    data = export(host, table)
    assert [m["type"] for m in data["moves"]] == ["pass"]
    assert standings_of(data) == standings([load(app, table).game])["tables"][0]


def test_a_table_without_players_has_no_record(host):
    assert host.get(f"/table/{create_table(host)}/record.json").status_code == 404


GOOD_RECORD = random_game(sample_pack(), seed=2, players=3)[0].to_dict()


def bad_record(change):
    data = copy.deepcopy(GOOD_RECORD)
    change(data)
    return data


def _illegal_first_move(data):
    data["moves"].insert(0, {"type": "finish"})


def _wrong_format(data):
    data["format"] = "lyceum-record/0"


def _unknown_skill(data):
    data["players"][0]["extra"] = {"luck": 5}


REFUSED = [
    ("no file", None, "Choose a game record file (.json) to import"),
    ("not JSON", b"{not json", "Not a game record: the file is not valid JSON"),
    ("not UTF-8", "запись".encode("cp1251"), "Not a game record: the file is not valid JSON"),
    ("a wrong format", bad_record(_wrong_format), "The game record was not imported: unknown format "
                                                  "'lyceum-record/0' (known: alterego-record/1, lyceum-record/1"),
    ("an unknown skill", bad_record(_unknown_skill), "The game record was not imported: players[0].extra"),
    ("a move the rules refuse", bad_record(_illegal_first_move),
     "The game record was not imported: move 1 (finish): the game can be finished only after"),
]


def test_a_file_that_is_not_a_valid_record_is_refused(host):
    def check(what, body, message):
        if body is None:
            response = host.post("/tables/import", data={"csrf_token": csrf_token(host)},
                                 content_type="multipart/form-data")
        else:
            response = import_file(host, body)
        assert response.status_code == 303
        page = get(host, response.headers["Location"])
        assert any(m.startswith(message) for m in page.messages("error")), page.flashes
        assert table_count(host.application) == 0
    each_case(REFUSED, check)


def test_import_needs_the_csrf_token(host):
    original, _ = random_game(sample_pack(), seed=1, players=3)
    data = {"record": (io.BytesIO(json.dumps(original.to_dict()).encode()), "record.json")}
    response = host.post("/tables/import", data=data, content_type="multipart/form-data")
    assert response.status_code == 400
    assert table_count(host.application) == 0


def test_the_seated_table_of_the_screens_exports_its_setup(host):
    table_id = seated_table(host)
    data = export(host, table_id)
    assert data["players"][0] == {"name": "Аня", "born": "2009-03-14", "character": "C01",
                                  "extra": {"intellect": 2, "energy": 3},
                                  "declaration": {"health": 7, "intellect": 7, "creativity": 7,
                                                  "communication": 7, "energy": 7}}
    assert data["moves"] == []
