"""«16/25»'s move forms queued by the tablet's outbox (``POST /api/v1/tables/<id>/queued``) are
read by the same form classes as the screen's POST without JavaScript: the same moves are
recorded, the same ones refused with the same words (issue 18). The outbox sends what the form
would post; the server reads it as the table stands just before it."""

from facilitator.rules.lyceum import Move

from tests.queued_forms import both_ways, log, queue, seq

from .helpers import THREE, record, seated_table, tablet

MOVE = "/table/{}/move/"


def test_every_kind_of_form_is_read_the_same_with_and_without_javascript(host):
    app = host.application
    tables = seated_table(host, THREE, "Без скрипта"), seated_table(host, THREE, "Со скриптом")
    cases = [
        ("pass", {"type": "pass", "player": "Вика"}, ("refused", 422)),  # not her turn
        ("adjust", {"player": "Вика", "xp": 10 ** 12, "reason": "опечатка"}, ("refused", 400)),  # past the form's bound
        ("adjust", {"player": "Вика", "xp": 100, "reason": "x"}, ("refused", 400)),  # a reason of one letter
        ("pass", {"type": "share", "player": "Аня"}, ("refused", 400)),  # another move's form
        ("draw", {"player": "Аня", "color": "green", "manual": "{not json", "decision": "play"}, ("refused", 400)),
        ("rest", {"player": "Аня", "redistribute-health": 50, "redistribute-energy": -50}, ("refused",)),
        ("draw", {"player": "Аня", "color": "green", "card": "L-G-01", "decision": "defer"}, ("refused", 422)),
        ("draw", {"player": "Аня", "color": "green", "card": "L-G-01", "decision": "play"}, ("recorded",)),
        ("pass", {"type": "pass", "player": "Борис"}, ("recorded",)),
        ("rest", {"player": "Вика", "redistribute-health": 1, "redistribute-creativity": -1}, ("recorded",)),
        ("adjust", {"player": "Вика", "xp": 100, "sp-intellect": 1, "reason": "забытая карта"}, ("recorded",)),
    ]
    for kind, fields, expected in cases:
        outcome = both_ways(app, host, tables, MOVE + kind, fields)
        assert outcome[:len(expected)] == expected, (kind, fields, outcome)
    # the undo form queued is an undo, as the screen's
    assert both_ways(app, host, tables, "/table/{}/undo", {}) == ("recorded", None)
    recorded = sum(1 for _kind, _fields, expected in cases if expected == ("recorded",))
    assert log(app, tables[0])[-1][:2] == log(app, tables[1])[-1][:2] == (recorded + 1, "undo")


def test_a_stale_second_tablets_queued_form_is_refused_409_with_the_stale_wording(host):
    app = host.application
    tables = seated_table(host, THREE, "Стол 1"), seated_table(host, THREE, "Стол 2")
    for table in tables:  # the first tablet's move: the second one's screen was drawn before it
        record(app, table, Move("pass", player="Аня"))
    second = tablet(app)
    outcome = both_ways(app, second, tables, MOVE + "adjust", {"player": "Борис", "xp": 100, "reason": "поправка",
                                                               "after": 0})
    assert outcome == ("refused", 409, "The table has changed on another device since this screen was drawn (move #0, "
                                        "now #1). The move was NOT recorded: check the screen and repeat it if "
                                        "needed."), outcome


def test_a_queued_form_sent_again_counts_as_recorded_and_is_not_read_again(host, table):
    app = host.application
    form = [["type", "pass"], ["player", "Аня"]]
    first = queue(host, table, f"/table/{table}/move/pass", form, 0, client_id="tablet-1")
    assert first.status_code == 200 and first.get_json()["recorded"] == [{"client_id": "tablet-1", "seq": 1,
                                                                          "already": False}]
    record(app, table, Move("pass", player="Борис"))
    again = queue(host, table, f"/table/{table}/move/pass", form, 0, client_id="tablet-1")
    assert again.status_code == 200 and again.get_json()["recorded"] == [{"client_id": "tablet-1", "seq": 1,
                                                                          "already": True}]
    assert [r[2] for r in log(app, table)] == [{"type": "pass", "player": "Аня"}, {"type": "pass", "player": "Борис"}]


def test_only_this_tables_move_forms_are_read(host, table):
    app = host.application
    other = seated_table(host, THREE, "Другой стол")
    for action in (f"/table/{other}/move/pass", f"/table/{table}/timer", f"/table/{table}/setup",
                   f"/ae/table/{table}/move/pass", "https://elsewhere.example/", f"/table/{table}/move/teleport"):
        answer = queue(host, table, action, [["type", "pass"], ["player", "Аня"]], 0)
        refused = answer.get_json()["refused"]
        assert answer.status_code == 207 and refused["code"] == "malformed", (action, refused)
        assert refused["path"] in ("moves[0].action", "type"), (action, refused)
    assert log(app, table) == [] and log(app, other) == []


def test_a_queued_forms_refusal_is_in_the_screens_language(host, table):
    host.get("/?lang=ru")
    answer = queue(host, table, f"/table/{table}/move/adjust", {"player": "Вика", "xp": 10 ** 12, "reason": "опечатка"},
                   0)
    refused = answer.get_json()["refused"]
    assert refused["code"] == "malformed" and refused["path"] == "xp"
    assert refused["message"].startswith("Изменение XP: "), refused["message"]


def test_no_one_but_the_tables_host_queues_its_forms(app, host, table, anon_client):
    answer = queue(anon_client, table, f"/table/{table}/move/pass", [["type", "pass"], ["player", "Аня"]], 0)
    assert answer.status_code == 401
    anon_client.get("/")  # a browser with a session that never opened the table
    answer = queue(anon_client, table, f"/table/{table}/move/pass", [["type", "pass"], ["player", "Аня"]], 0)
    assert answer.status_code == 403 and answer.get_json()["error"]["code"] == "forbidden"
    assert log(app, table) == []


def test_a_downloaded_file_of_waiting_forms_is_read_as_the_screens_read_them(host):
    """The organizer records a tablet's downloaded outbox (``facilitator-outbox/2``: forms, and
    record moves an earlier tablet script queued): each form is read by the game's form reading,
    so a slip past the form's bound is refused there too, naming the field."""
    import io
    import json

    from facilitator import services
    from tests.pages import csrf_token, db, flashes
    app = host.application
    with db(app) as s:
        event = services.events.create_event(s, "Кубок", "2026-05-17", services.packs.ensure_sample(s, "lyceum-16-25"))
        table = services.events.add_table(s, event, "Стол 1")
        services.set_players(s, table.id, services.load(s, table.id).ruleset.read_setup(THREE))
        event_id, table_id = event.id, table.id
    outbox = {"format": "facilitator-outbox/2", "table": table_id, "moves": [
        {"action": f"/table/{table_id}/move/pass", "fields": [["type", "pass"], ["player", "Аня"], ["after", "0"]],
         "after": 0, "client_id": "f1"},
        {"after": 1, "move": {"type": "pass", "player": "Борис"}, "client_id": "f2"},
        {"action": f"/table/{table_id}/move/adjust", "fields": [["player", "Вика"], ["xp", str(10 ** 12)],
                                                                ["reason", "опечатка"]], "after": 2, "client_id": "f3"},
        {"action": f"/table/{table_id}/move/pass", "fields": [["type", "pass"], ["player", "Вика"]], "after": 3}]}
    response = host.post(f"/organizer/events/{event_id}/tables/{table_id}/outbox",
                         data={"outbox": (io.BytesIO(json.dumps(outbox).encode()), "o.json"),
                               "csrf_token": csrf_token(host, "/organizer/")},
                         content_type="multipart/form-data", follow_redirects=True)
    assert flashes(response, "ok") == ["Waiting moves of «Стол 1»: 2 recorded, 0 were already there."]
    errors = flashes(response, "error")
    assert len(errors) == 1 and errors[0].startswith("Move 3 of the file was not recorded, nor any after it: ")
    assert "XP change" in errors[0], errors
    assert [r[2] for r in log(app, table_id)] == [{"type": "pass", "player": "Аня"}, {"type": "pass", "player": "Борис"}]


def test_a_tap_sent_at_once_takes_no_savepoint_and_a_client_id_met_again_leaves_the_table_as_it_was(host, table):
    """The first move of a batch is undone, when refused, by its transaction's rollback instead of
    a savepoint's: here it meets a client id already in the log after its compare-and-set moved
    the table's row, and nothing of it stays."""
    from sqlalchemy import event
    app = host.application
    engine = app.extensions["facilitator.engine"]
    first = queue(host, table, f"/table/{table}/move/pass", [["type", "pass"], ["player", "Аня"]], 0,
                  client_id="tablet-1")
    assert first.get_json()["recorded"] == [{"client_id": "tablet-1", "seq": 1, "already": False}]
    sent = []

    def note(_conn, _cursor, statement, *_args):
        sent.append(statement.split()[0].upper())
    event.listen(engine, "before_cursor_execute", note)
    try:  # the same client id on the next move, at the table's newest position
        again = queue(host, table, f"/table/{table}/move/pass", [["type", "pass"], ["player", "Борис"]], 1,
                      client_id="tablet-1")
    finally:
        event.remove(engine, "before_cursor_execute", note)
    assert again.status_code == 200 and again.get_json()["recorded"] == [{"client_id": "tablet-1", "seq": 1,
                                                                          "already": True}]
    # the compare-and-set ran (PostgreSQL's is one WITH … UPDATE … INSERT), in no savepoint
    assert "SAVEPOINT" not in sent and ("UPDATE" in sent or "WITH" in sent), sent
    assert seq(app, table) == 1 and [r[2] for r in log(app, table)] == [{"type": "pass", "player": "Аня"}]
    nxt = queue(host, table, f"/table/{table}/move/pass", [["type", "pass"], ["player", "Борис"]], 1,
                client_id="tablet-2")
    assert nxt.get_json()["recorded"] == [{"client_id": "tablet-2", "seq": 2, "already": False}]
