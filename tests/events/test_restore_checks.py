"""A restore checks what it restores as strictly as the forms do (issue 10, items 6 and 9): a
backup with one thing wrong is refused with a message naming it, and nothing of it is stored;
the app's own backup always restores (150 tables, each pack version once, the earlier format
too)."""

import copy
import io
import json

import pytest

from facilitator import services
from facilitator.rules.lyceum import Move
from facilitator.rules import registry
from tests.web.helpers import THREE, each_case

from .helpers import csrf_token, db, english, everything, flashes, new_event

pytestmark = pytest.mark.db

LYCEUM = "lyceum-16-25"
REFUSED = "The backup was not restored: "


def build_event(app, tables=2, name="Кубок лицея"):
    """An event of ``tables`` tables, each seated with three moves (the first table also with a
    move undone), built straight through the services."""
    event_id = new_event(app, name)
    setup = registry.get(LYCEUM).read_setup(THREE)
    with db(app) as s:
        event = services.events.get_event(s, event_id)
        for n in range(tables):
            table = services.events.add_table(s, event, f"Стол {n + 1}").id
            services.set_players(s, table, setup)
            for after, move in enumerate([Move("pass", player="Аня"), Move("rest", player="Борис"),
                                          Move("allocate", player="Борис", sp={"health": 1})]):
                services.record_move(s, table, move, after, author="tablet")
            if n == 0:
                services.undo(s, table, 3, author="tablet")
    return event_id


def download(client, event_id):
    response = client.get(f"/organizer/events/{event_id}/backup.json")
    assert response.status_code == 200
    return response.get_data()


def restore(client, body, name="Копия"):
    data = {"backup": (io.BytesIO(body), "backup.json"), "csrf_token": csrf_token(client, "/organizer/")}
    if name:
        data["name"] = name
    return client.post("/organizer/restore", data=data, content_type="multipart/form-data", follow_redirects=True)


@pytest.fixture
def backup(app, client):
    english(client)
    return json.loads(download(client, build_event(app)))


def logs(data):
    """Every table's log of a backup, the times left out (a database may write them otherwise)."""
    return [[{k: v for k, v in row.items() if k != "created_at"} for row in t["log"]] for t in data["tables"]]


def changed(backup, change):
    data = copy.deepcopy(backup)
    change(data)
    return data


def setter(path, value):
    """``data[path...] = value`` (a path of keys and indexes)."""
    def change(data):
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


def without_players(data):
    data["tables"][1]["players"] = None


def record_differs(data):
    data["tables"][1]["record"]["moves"][0] = {"type": "pass", "player": "Вика"}


def log_from_seq_2(data):
    for row in data["tables"][1]["log"]:
        row["seq"] += 1


def undo_pointing_forward(data):
    log = data["tables"][1]["log"]
    log.append({"seq": 4, "kind": "undo", "data": None, "undoes": 5, "author": "tablet", "created_at": None})


def bad_event_pack(data):
    data["packs"].append({"format": "lyceum-pack/1", "id": "broken", "title": "", "cards": "none"})
    data["event"]["pack"] = 1


CASES = [
    # (name, change, words the message must contain)
    ("a table name that is a number", setter(["tables", 0, "name"], 42), "name: must be a non-empty text"),
    ("an event name that is a list", setter(["event", "name"], ["Кубок"]), "event.name: must be a non-empty text"),
    ("a timer that is text", setter(["tables", 0, "timer_seconds"], "90"), "timer_seconds: must be a whole number"),
    ("a log that is an object", setter(["tables", 0, "log"], {"seq": 1}), "log: must be a list"),
    ("a seq that is text", setter(["tables", 0, "log", 0, "seq"], "1"), "seq must be 1"),
    ("a kind the app never writes", setter(["tables", 0, "log", 0, "kind"], "erase"), "kind must be one of"),
    ("a move without data", setter(["tables", 0, "log", 0, "data"], None), "a move needs its data"),
    ("a table name of 101 characters", setter(["tables", 0, "name"], "С" * 101), "at most 100 characters"),
    ("an event name of 201 characters", setter(["event", "name"], "К" * 201), "at most 200 characters"),
    ("a host name of 101 characters", setter(["tables", 0, "host_name"], "П" * 101), "at most 100 characters"),
    ("an author of 101 characters", setter(["tables", 0, "log", 0, "author"], "a" * 101), "at most 100 characters"),
    ("a line break in a table name", setter(["tables", 0, "name"], "Стол\n1"), "control characters"),
    ("a date that is no date", setter(["event", "date"], "2026-13-45"), "event.date"),
    ("moves but no players", without_players, "the log has moves but the table has no players"),
    ("an event pack that is broken", bad_event_pack, "packs[1]"),
    ("an event pack index beyond the packs", setter(["event", "pack"], 7), "event.pack"),
    ("a table pack index beyond the packs", setter(["tables", 0, "pack"], 3), "pack: must be a whole number"),
    ("a huge deck seed", setter(["tables", 0, "deck_seed"], 10 ** 18), "deck_seed: must be a whole number"),
    ("a deck seed of 2^31", setter(["tables", 0, "deck_seed"], 2 ** 31), "deck_seed: must be a whole number"),
    ("a negative deck seed", setter(["tables", 0, "deck_seed"], -1), "deck_seed: must be a whole number"),
    ("a take-back pointing forward", undo_pointing_forward, "takes back a move that is not before it"),
    ("a log starting at seq 2", log_from_seq_2, "seq must be 1"),
    ("a record that does not match the log", record_differs, "the record does not match the log"),
    ("a player not seated", setter(["tables", 1, "log", 0, "data", "player"], "Гоша"), "does not replay"),
    ("players of the wrong shape", setter(["tables", 1, "players"], "Аня, Борис"), "does not replay"),
    ("another format", setter(["format"], "facilitator-event-backup/9"), "not an event backup"),
    ("a game this app does not host", setter(["ruleset"], "chess"), "is not one this app hosts"),
]


def test_a_backup_with_one_thing_wrong_is_refused_by_name_and_nothing_is_stored(app, client, backup):
    before = everything(app)

    def check(name, change, words):  # under the event's own name: the checks come before that name's
        response = restore(client, json.dumps(changed(backup, change)).encode(), name=None)
        refused = [m for m in flashes(response, "error") if m.startswith(REFUSED)]
        assert refused and words in refused[0], flashes(response)
        assert everything(app) == before
    each_case(CASES, check)
    # the same backup, unchanged, restores: every refusal above is the change's doing
    response = restore(client, json.dumps(backup).encode())
    assert flashes(response, "ok") == ["Event restored"]
    assert len(everything(app)["GameTable"]) == 2 * len(before["GameTable"])


def test_a_backup_of_150_tables_restores_with_each_pack_version_once(app, client):
    english(client)
    event_id = build_event(app, tables=150)
    body = download(client, event_id)
    data = json.loads(body)
    assert len(data["packs"]) == 1 and all(t["pack"] == 0 for t in data["tables"])
    assert len(body) / 150 < 10_000, f"{len(body) / 150:.0f} bytes per table"
    response = restore(client, body)
    assert response.status_code == 200 and flashes(response, "ok") == ["Event restored"], flashes(response)
    with db(app) as s:
        restored = next(e for e in services.events.events(s) if e.name == "Копия")
        tables = services.events.tables_of(s, restored.id)
        assert len(tables) == 150
        assert all(t.seq == tables[-1].seq for t in tables[1:]) and tables[0].seq == 4
        again = services.events.backup(s, restored.id)
    assert logs(again) == logs(data)


def test_a_move_time_at_the_edge_of_the_calendar_is_refused_by_name(app, client, backup):
    before = everything(app)

    def check(name, when):
        data = changed(backup, setter(["tables", 0, "log", 0, "created_at"], when))
        response = restore(client, json.dumps(data).encode())
        assert response.status_code == 200, response.status_code
        assert any(m.startswith(REFUSED) and "created_at" in m for m in flashes(response, "error"))
        assert everything(app) == before
    each_case([("year 1, east of UTC", "0001-01-01T00:00:00+14:00"),
               ("year 9999, west of UTC", "9999-12-31T23:59:59-14:00")], check)


def test_a_backup_over_16_mb_is_not_refused_as_too_large(app, client, backup):
    body = json.dumps(backup).encode()
    padded = body + b" " * (17 * 1024 * 1024 - len(body))  # as a long event's backup would be
    response = restore(client, padded)
    assert response.status_code == 200 and flashes(response, "ok") == ["Event restored"], response.status_code


def test_a_backup_of_the_earlier_format_still_restores(app, client, backup):
    packs = backup["packs"]
    earlier = {
        "format": "facilitator-event-backup/1",
        "event": {"name": backup["event"]["name"], "date": backup["event"]["date"],
                  "pack": packs[backup["event"]["pack"]] if backup["event"]["pack"] is not None else None},
        "tables": [{**{k: v for k, v in t.items() if k not in ("pack", "record")},
                    "pack": packs[t["pack"]],
                    "record": {**t["record"], "content": packs[t["pack"]]}}
                   for t in backup["tables"]],
    }
    response = restore(client, json.dumps(earlier).encode(), name="Кубок прошлого года")
    assert flashes(response, "ok") == ["Event restored"], flashes(response)
    with db(app) as s:
        restored = next(e for e in services.events.events(s) if e.name == "Кубок прошлого года")
        again = services.events.backup(s, restored.id)
    assert logs(again) == logs(backup)
    assert [t["players"] for t in again["tables"]] == [t["players"] for t in backup["tables"]]
