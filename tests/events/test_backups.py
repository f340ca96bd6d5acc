"""Backups of an event (issue 5, item 6): the whole event downloaded as one file and restored
on another machine with the same standings and the same logs — undone moves included —; a
restore never lands on an existing event of the same name and date, and a backup that does
not replay under the rules restores nothing at all."""

import io
import json
from datetime import timezone

import pytest

from facilitator import services
from facilitator.services import events
from facilitator.rules.lyceum import Move
from facilitator.storage.models import Event, GameTable

from .helpers import (csrf_token, db, english, everything, flashes, game_record, import_table, loaded, new_event,
                      seated_table)

pytestmark = pytest.mark.db


@pytest.fixture
def backup(app, client):
    """«Кубок лицея»: a finished table, a table in play with an undone move, and a table still
    at the setup; downloaded from the dashboard. Returns the event id and the backup file."""
    event_id = new_event(app)
    import_table(app, event_id, "Стол 1", game_record(0, 3)[0])
    playing = seated_table(app, event_id, "Стол 2", seed=1, moves=2)
    with db(app) as s:
        mover = services.load(s, playing).game.next()["player"]
        services.record_move(s, playing, Move("rest", player=mover), 2, author="tablet")
        services.undo(s, playing, 3, author="tablet")
        services.record_move(s, playing, Move("pass", player=mover), 4, author="tablet")
        table = s.get(GameTable, playing)
        table.timer_seconds, table.host_name = 90, "Петя"
        s.add(table)
        events.add_table(s, s.get(Event, event_id), "Стол 3", host_name="Маша")
    response = client.get(f"/organizer/events/{event_id}/backup.json")
    assert response.status_code == 200 and "attachment" in response.headers["Content-Disposition"]
    return event_id, response.get_data()


def restore(client, body, name=None):
    """Post a backup file to the organizer's restore form (with the form's CSRF token)."""
    data = {"backup": (io.BytesIO(body), "event-backup.json"), "csrf_token": csrf_token(client, "/organizer/")}
    if name:
        data["name"] = name
    response = english(client).post("/organizer/restore", data=data, content_type="multipart/form-data")
    assert response.status_code == 303, response.status_code
    return client.get(response.headers["Location"])


def snapshot(app, event_id):
    """What a restore must bring back: the standings, and every table's settings and full log."""
    with db(app) as s:
        result = events.event_standings(s, event_id)
        tables = {}
        for table in events.tables_of(s, event_id):
            log = [(r.seq, r.kind, json.loads(r.data) if r.data else None, r.undoes, r.author,
                    (r.created_at if r.created_at.tzinfo else r.created_at.replace(tzinfo=timezone.utc))
                    .astimezone(timezone.utc))
                   for r in services.load(s, table.id).log]
            tables[table.name] = {"host": table.host_name, "timer": table.timer_seconds, "seed": table.deck_seed,
                                  "players": json.loads(table.players) if table.players else None, "log": log,
                                  "access": bool(table.token) and bool(table.pin)}
    return result, tables


def events_tables(app, event_id):
    with db(app) as s:
        return events.tables_of(s, event_id)


def the_event(app, name):
    with db(app) as s:
        return next(e for e in events.events(s) if e.name == name)


def test_a_backup_restores_on_another_machine_with_the_same_standings_and_logs(app, backup, db_url, tmp_path):
    from facilitator.web import create_app
    event_id, body = backup
    assert json.loads(body)["format"] == "facilitator-event-backup/2"
    other = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'other-laptop.db'}",
                        "INSTANCE_PATH": str(tmp_path / "other-laptop"), "PROJECTOR_FRESH_SECONDS": 0})
    from .helpers import organizer_of
    organizer = organizer_of(other)

    page = restore(organizer, body)
    assert flashes(page, "ok") == ["Event restored"]
    restored = the_event(other, "Кубок лицея")
    assert restored.date == "2026-11-29"
    result, tables = snapshot(other, restored.id)
    assert (result, tables) == snapshot(app, event_id)
    assert [kind for _, kind, *_ in tables["Стол 2"]["log"]] == ["move", "move", "move", "undo", "move"]
    assert loaded(other, next(t.id for t in events_tables(other, restored.id) if t.name == "Стол 2")).undone
    assert tables["Стол 3"]["players"] is None and tables["Стол 3"]["host"] == "Маша"
    # the restored event is live: its projector answers
    assert other.test_client().get(f"/e/{restored.id}/standings.json").get_json()["teams"] == result["teams"]


def test_a_restore_never_lands_on_an_existing_event_of_the_same_name_and_date(app, client, backup):
    event_id, body = backup
    before = everything(app)
    page = restore(client, body)
    assert flashes(page, "error") == ["An event «Кубок лицея» of that date already exists; nothing was restored. "
                                      "Give the restored event another name to keep both."]
    assert everything(app) == before

    page = restore(client, body, name="Кубок лицея, копия")
    assert flashes(page, "ok") == ["Event restored"]
    copy_id = the_event(app, "Кубок лицея, копия").id
    assert copy_id != event_id
    assert snapshot(app, copy_id)[0] == snapshot(app, event_id)[0]
    # the copy's tables have access codes of their own: the original's hosts do not reach them
    original = {t.name: (t.token, t.pin) for t in events_tables(app, event_id)}
    for table in events_tables(app, copy_id):
        assert table.token not in (tok for tok, _ in original.values())
        assert table.pin not in (pin for _, pin in original.values())


def corrupt_record(data):
    """Someone edited the file: a game record claims the game ended after its third move."""
    data["tables"][0]["record"]["moves"][3] = {"type": "finish"}


def corrupt_log(data):
    """The log says the same (the record left intact)."""
    data["tables"][0]["log"][3]["data"] = {"type": "finish"}


def corrupt_log_player(data):
    """A move of the table in play given to a player who is not at the table."""
    data["tables"][1]["log"][-1]["data"]["player"] = "Незнакомец"


def not_a_backup(data):
    data["format"] = "lyceum-record/1"


def mangled_log_row(data):
    del data["tables"][1]["log"][0]["seq"]


@pytest.mark.parametrize("corrupt", [corrupt_record, corrupt_log, corrupt_log_player, not_a_backup, mangled_log_row])
def test_a_corrupted_backup_restores_nothing(app, client, backup, corrupt):
    _, body = backup
    data = json.loads(body)
    corrupt(data)
    before = everything(app)
    page = restore(client, json.dumps(data).encode(), name="Восстановленный кубок")
    assert flashes(page, "error")[0].startswith("The backup was not restored"), flashes(page)
    assert everything(app) == before


def test_a_file_that_is_not_json_restores_nothing(app, client, backup):
    before = everything(app)
    page = restore(client, backup[1][:-20], name="Восстановленный кубок")
    assert flashes(page, "error")[0].startswith("The backup was not restored")
    assert everything(app) == before


def test_the_backup_holds_the_undone_moves_and_the_records(app, backup):
    _, body = backup
    data = json.loads(body)
    playing = next(t for t in data["tables"] if t["name"] == "Стол 2")
    undo = next(row for row in playing["log"] if row["kind"] == "undo")
    assert undo["undoes"] == 3 and undo["author"] == "tablet"
    undone = next(row for row in playing["log"] if row["seq"] == 3)
    assert undone["data"]["type"] == "rest"
    # the record holds the moves in force only: the undone rest is left out
    assert [m["type"] for m in playing["record"]["moves"]][-1] == "pass"
    assert len(playing["record"]["moves"]) == 3
