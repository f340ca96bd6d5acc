"""No write can break a table, and one broken table never takes the event down (issue 10).

Races are played out deterministically: the service reading the table is made to let another
session write in between (as ``tests/web/test_safe_writes.py`` does), so exactly one of the two
writes wins on every run, on SQLite and on PostgreSQL. A table whose log does not replay is
written straight into the database; the rest of the event must go on around it. Every number
and name a person can enter is held to what the game can reach, with a clear refusal."""

import io
import json
import re
import threading
import time

import pytest

from facilitator import services
from facilitator.rules.lyceum.ruleset import sample_pack
from facilitator.rules import IllegalMoveError
from facilitator.rules.lyceum import Move
from facilitator.rules import registry
from facilitator.storage.models import GameTable, MoveRow
from tests.pages import draw_link
from tests.web.helpers import FOUR, THREE, Page, each_case, setup_data

from .helpers import csrf_token, db, english, everything, flashes, new_event, post, text

pytestmark = pytest.mark.db

LYCEUM = "lyceum-16-25"


def loaded(app, table_id):
    """The table as the services replay it, its log read before the session closes (a log read
    later, from the closed session, would hold a connection nobody gives back)."""
    with db(app) as s:
        table = services.load(s, table_id)
        table.undone  # noqa: B018 - reads the log now
        return table


def log_of(app, table_id):
    return [(r.seq, r.kind, r.data, r.undoes) for r in loaded(app, table_id).log]


def engine(app):
    return app.extensions["facilitator.engine"]


def lone_table(app, players=THREE, name="Стол 1", event_id=None):
    """A table seated through the services (its pack the newest sample version)."""
    with db(app) as s:
        pack_row = services.packs.latest_row(s, sample_pack().id, LYCEUM)
        table = services.create_table(s, name, pack_row, event_id=event_id, access=True)
        services.set_players(s, table.id, registry.get(LYCEUM).read_setup(players))
        return table.id


def racing(monkeypatch, where, write, app):
    """Make ``where`` (a name in ``services.tables``) run ``write()`` in another session the first
    time it is called, before it returns: the other device's write lands in between.

    Only PostgreSQL lets a write land there: on SQLite a write takes the database's lock before
    it reads (ARCHITECTURE.md 15), so the other device's write waits for it instead
    (``test_write_lock.py`` plays that out)."""
    only_where_writes_interleave(app)
    real = getattr(services.tables, where)
    done = []

    def raced(*args, **kwargs):
        out = real(*args, **kwargs)
        if not done:
            done.append(True)
            monkeypatch.setattr(services.tables, where, real)
            write()
        return out
    monkeypatch.setattr(services.tables, where, raced)
    return done


def only_where_writes_interleave(app):
    if engine(app).dialect.name == "sqlite":
        pytest.skip("on SQLite a write holds the lock from its first read: no other write lands in between")


def players_of(app, table_id):
    return [p.name for p in loaded(app, table_id).players]


def moves_name_seated_players(app, table_id):
    table = loaded(app, table_id)
    seated = {p.name for p in table.players}
    return all(m.player in seated for m in table.record().moves if m.player)


# ----- 1 (a). the setup form against the first move ---------------------------------------------
def test_a_setup_change_landing_while_the_first_move_is_recorded_refuses_the_move(app, client, monkeypatch):
    table = lone_table(app)
    english(client)
    page = Page(client.get(f"/table/{table}"))
    pass_form = page.form("/move/pass")

    def seat_four():  # another tablet saves the setup form: Гоша joins and goes first
        with db(app) as s:
            services.set_players(s, table, registry.get(LYCEUM).read_setup(FOUR), rev=loaded(app, table).rev)
    raced = racing(monkeypatch, "load", seat_four, app)
    response = client.post(pass_form.action, data=pass_form.data())
    assert raced and response.status_code == 409
    assert players_of(app, table) == ["Аня", "Борис", "Вика", "Гоша"]
    assert loaded(app, table).log == []


def test_a_first_move_landing_while_the_setup_form_is_saved_refuses_the_setup(app, client, monkeypatch):
    table = lone_table(app)
    english(client)
    form = Page(client.get(f"/table/{table}/setup")).form("/setup")

    def first_move():  # the other tablet records Аня's pass
        with db(app) as s:
            services.record_move(s, table, Move("pass", player="Аня"), 0)
    raced = racing(monkeypatch, "load", first_move, app)
    response = client.post(form.action, data={**form.data(), **setup_data(FOUR)})
    assert raced and response.status_code == 303
    assert response.headers["Location"].endswith(f"/table/{table}")
    assert ("A move was recorded on another device meanwhile: the setup cannot change any more. "
            "Nothing of this form was saved.") in flashes(client.get(response.headers["Location"]), "error")
    assert players_of(app, table) == ["Аня", "Борис", "Вика"]
    assert [(r.seq, r.kind) for r in loaded(app, table).log] == [(1, "move")]
    assert moves_name_seated_players(app, table)


def test_two_setup_forms_racing_one_wins_and_the_other_says_so(app, client, monkeypatch):
    table = lone_table(app)
    english(client)
    form = Page(client.get(f"/table/{table}/setup")).form("/setup")

    def other_setup():
        with db(app) as s:
            services.set_players(s, table, registry.get(LYCEUM).read_setup(THREE[:2] + FOUR[3:]))
    racing(monkeypatch, "load", other_setup, app)
    page = Page(client.post(form.action, data={**form.data(), **setup_data(FOUR)}))
    assert page.status == 409
    assert "The setup was changed on another device since this form was opened. Nothing was saved" in page
    assert players_of(app, table) == ["Аня", "Борис", "Гоша"]


# ----- 1 (b). a pack edit against the first draw of a card it removes ----------------------------
def pack_without(code):
    data = sample_pack().to_dict()
    data["cards"] = [c for c in data["cards"] if c["code"] != code]
    return registry.get(LYCEUM).read_pack(data)


def edit_pack(app, code="L-G-01"):
    """The organizer deletes a card: a new version of the pack, adopted by tables without moves."""
    with db(app) as s:
        row = services.packs.store_pack(s, pack_without(code), LYCEUM)
        return row.id, services.packs.adopt_version(s, row)


def every_table_replays(app):
    with db(app) as s:
        return {t.id: services.load(s, t.id, fresh=True).broken for t in services.list_tables(s)}


DRAW_L_G_01 = Move("draw", player="Аня", color="green", card="L-G-01", decision="play")


def test_a_pack_edit_landing_while_the_first_draw_is_recorded_refuses_the_draw(app, monkeypatch):
    table, other = lone_table(app), lone_table(app, name="Стол 2")
    edited = []
    raced = racing(monkeypatch, "load", lambda: edited.append(edit_pack(app)), app)
    with pytest.raises(services.StaleMove):
        with db(app) as s:
            services.record_move(s, table, DRAW_L_G_01, 0)
    assert raced and edited[0][1] == 2  # both tables took the new version
    assert loaded(app, table).table.pack_id == loaded(app, other).table.pack_id == edited[0][0]
    assert loaded(app, table).log == []
    assert every_table_replays(app) == {table: False, other: False}
    with pytest.raises(IllegalMoveError, match="unknown card"):
        with db(app) as s:  # the card is gone for this table now
            services.record_move(s, table, DRAW_L_G_01, 0)


def test_a_first_draw_landing_while_the_pack_edit_is_saved_keeps_the_old_version(app, monkeypatch):
    table = lone_table(app)
    old_pack = loaded(app, table).table.pack_id
    with db(app) as s:
        row = services.packs.store_pack(s, pack_without("L-G-01"), LYCEUM)

    def first_draw():
        with db(app) as s:
            services.record_move(s, table, DRAW_L_G_01, 0)
    raced = racing(monkeypatch, "pack_of", first_draw, app)  # adopt_pack reads the new pack, then writes
    with db(app) as s:
        moved = services.packs.adopt_version(s, services.packs.row_by_id(s, row.id))
    assert raced and moved == 0
    assert loaded(app, table).table.pack_id == old_pack
    assert [m.card for m in loaded(app, table).record().moves] == ["L-G-01"]
    assert every_table_replays(app) == {table: False}


@pytest.mark.parametrize("pause, winner", [("pack_of", "move"), ("_compare_and_set", "edit")])
def test_a_pack_edit_and_a_first_move_at_a_table_of_its_event_in_two_threads(app, pause, winner):
    """A pack edit and a first move at a table of an event of that pack, in two threads: the
    edit pauses inside ``services.tables`` (``pack_of``: before it writes anything;
    ``_compare_and_set``: right after it took the table's row) while the move runs. Exactly one
    wins and the other is refused as stale, never a database error (the edit once took the
    event's row first and the move its table's row first: on PostgreSQL a deadlock, a 500).

    On SQLite the edit, begun first, holds the database's lock from its first read: the move
    waits for it whatever the pause, and then finds the card gone (the rules refuse it)."""
    if engine(app).dialect.name == "sqlite":
        winner = "edit"
    with db(app) as s:
        pack_row = services.packs.latest_row(s, sample_pack().id, LYCEUM)
        event_id = services.events.create_event(s, "Кубок", "2026-11-29", pack_row).id
    table = lone_table(app, event_id=event_id)
    with db(app) as s:
        row_id = services.packs.store_pack(s, pack_without("L-G-01"), LYCEUM).id
    paused, outcomes = threading.Event(), {}
    real = getattr(services.tables, pause)

    def pausing(*args, **kwargs):
        out = real(*args, **kwargs)
        if threading.current_thread().name == "edit" and not paused.is_set():
            paused.set()
            time.sleep(0.4)  # the move runs meanwhile (or waits for the edit's row)
        return out

    def edit():
        try:
            with db(app) as s:
                outcomes["edit"] = services.packs.adopt_version(s, services.packs.row_by_id(s, row_id))
        except Exception as err:  # noqa: BLE001 - what the loser got is the point of the test
            outcomes["edit"] = err
            paused.set()

    def move():
        paused.wait(5)
        try:
            with db(app) as s:
                services.record_move(s, table, DRAW_L_G_01, 0)
                outcomes["move"] = "recorded"
        except Exception as err:  # noqa: BLE001
            outcomes["move"] = err
    setattr(services.tables, pause, pausing)
    try:
        threads = [threading.Thread(target=edit, name="edit"), threading.Thread(target=move, name="move")]
        for t in threads:
            t.start()
        for t in threads:
            t.join(15)
    finally:
        setattr(services.tables, pause, real)
    refused = (services.StaleMove, IllegalMoveError) if engine(app).dialect.name == "sqlite" else services.StaleMove
    errors = {k: v for k, v in outcomes.items() if isinstance(v, Exception) and not isinstance(v, refused)}
    assert not errors, errors
    assert outcomes == ({"edit": 0, "move": "recorded"} if winner == "move" else
                        {"edit": 1, "move": outcomes["move"]}), outcomes
    assert winner == "move" or isinstance(outcomes["move"], refused)
    assert every_table_replays(app) == {table: False}


# ----- 2. a table whose log does not replay ------------------------------------------------------
def corrupt(app, table_id, data, kept_head=False):
    """Append a move row the engine refuses, straight into the database, as the old races did.
    ``kept_head`` False leaves the table's kept standing empty, as for a table stored before
    standings were kept (the app works it out the first time the table is listed)."""
    with db(app) as s:
        table = s.get(GameTable, table_id)
        seq = table.seq + 1
        s.add(MoveRow(table_id=table_id, seq=seq, kind="move", data=json.dumps(data, ensure_ascii=False),
                      author="tablet"))
        table.seq = seq
        table.move_count += 1
        if not kept_head:
            table.standing = None
        s.add(table)
    return seq


def two_tables(app):
    """An event: «Стол 1» plays on, «Стол 2» is one move in."""
    event_id = new_event(app)
    with db(app) as s:
        event = services.events.get_event(s, event_id)
        fine = services.events.add_table(s, event, "Стол 1").id
        broken = services.events.add_table(s, event, "Стол 2").id
        for t in (fine, broken):
            services.set_players(s, t, registry.get(LYCEUM).read_setup(THREE))
    for t in (fine, broken):
        with db(app) as s:
            services.record_move(s, t, Move("pass", player="Аня"), 0)
    return event_id, fine, broken


BAD_MOVES = [
    ("a draw of a card the pack lacks",
     {"type": "draw", "player": "Борис", "color": "green", "card": "L-G-99", "decision": "play"}, "L-G-99"),
    ("an adjust of 10^8 XP", {"type": "adjust", "player": "Борис", "xp": 10 ** 8, "reason": "нули"}, "100000000"),
    ("a player not seated", {"type": "pass", "player": "Гоша"}, "Гоша"),
]


def test_a_table_whose_log_does_not_replay_says_so_on_its_screens(app, client):
    english(client)
    event_id = new_event(app)

    def check(name, data, shown):
        table = lone_table(app, event_id=event_id, name=name[:40])
        bad = corrupt(app, table, data)
        turn = client.get(f"/table/{table}")
        assert turn.status_code == 409 and "This table needs checking" in text(turn)
        assert f"move #{bad} is refused by the rules now" in text(turn)
        repair = client.get(f"/organizer/events/{event_id}/tables/{table}/repair")
        assert repair.status_code == 200 and shown in text(repair), text(repair)[:500]
        assert f"Void move #{bad}" in text(repair)
    each_case(BAD_MOVES, check)


def test_the_event_goes_on_around_a_broken_table_and_the_organizer_voids_its_bad_move(app, client, anon_client):
    event_id, fine, broken = two_tables(app)
    bad = corrupt(app, broken, BAD_MOVES[0][1])
    russian = client.get(f"/table/{broken}")
    assert russian.status_code == 409 and "требует проверки" in text(russian)

    dashboard = client.get(f"/organizer/events/{event_id}")
    assert dashboard.status_code == 200
    repair_url = f"/organizer/events/{event_id}/tables/{broken}/repair"
    assert re.search(rf'href="[^"]*/tables/{broken}/repair"[^>]*>\s*требует проверки\s*<',
                     dashboard.get_data(as_text=True))
    status = client.get(f"/organizer/events/{event_id}/status.json").get_json()
    assert {t["name"]: t["needs_checking"] for t in status["tables"]} == {"Стол 1": False, "Стол 2": True}
    assert status["left_out"] == ["Стол 2"]
    assert anon_client.get(f"/e/{event_id}").status_code == 200
    standings = anon_client.get(f"/e/{event_id}/standings.json")
    assert standings.status_code == 200
    body = standings.get_json()
    assert body["left_out"] == ["Стол 2"] and body["individuals"]
    assert {p["table"] for p in body["individuals"]} == {"Стол 1"}
    backup = client.get(f"/organizer/events/{event_id}/backup.json")
    assert backup.status_code == 200
    kept = next(t for t in json.loads(backup.get_data())["tables"] if t["name"] == "Стол 2")
    assert kept["log"][-1]["data"]["card"] == "L-G-99"
    assert "требует проверки" in text(client.get("/"))

    english(client)
    repair = Page(client.get(repair_url))
    assert "unknown card 'L-G-99'" in repair.text
    voided = client.post(repair.form("/void").action, data=repair.form("/void").data())
    assert voided.status_code == 303
    table = loaded(app, broken)
    assert not table.broken and (table.log[-1].kind, table.log[-1].undoes) == ("void", bad)
    assert client.get(f"/table/{broken}").status_code == 200
    with db(app) as s:
        services.record_move(s, broken, Move("pass", player="Борис"), table.seq)
    protocol = client.get(f"/table/{broken}/protocol.xlsx")
    assert protocol.status_code == 200
    from openpyxl import load_workbook
    cells = [str(v) for sheet in load_workbook(io.BytesIO(protocol.get_data()), read_only=True).worksheets
             for row in sheet.iter_rows(values_only=True) for v in row if v is not None]
    assert any("voided by the organizer" in v for v in cells), "the voided move is kept in the protocol"
    status = client.get(f"/organizer/events/{event_id}/status.json").get_json()
    assert status["left_out"] == [] and not any(t["needs_checking"] for t in status["tables"])


def broken_tables(app):
    """An event of four tables: «Стол 1» plays on, each other one has a bad row of ``BAD_MOVES``.
    Returns the event id and ``{bad move's name: (table id, its seq)}``."""
    event_id, fine, first = two_tables(app)
    out = {BAD_MOVES[0][0]: (first, corrupt(app, first, BAD_MOVES[0][1]))}
    for name, data, _shown in BAD_MOVES[1:]:
        table = lone_table(app, event_id=event_id, name=name[:40])
        with db(app) as s:
            services.record_move(s, table, Move("pass", player="Аня"), 0)
        out[name] = (table, corrupt(app, table, data))
    return event_id, out


def test_no_page_of_a_broken_table_is_a_500_and_the_api_says_it_needs_checking(app, client):
    event_id, broken = broken_tables(app)
    token = csrf_token(client)

    def check(name, table, bad):
        for method, url, data in [
                ("GET", f"/table/{table}", None), ("GET", f"/table/{table}/final", None),
                ("GET", f"/table/{table}/draw?color=green", None), ("GET", f"/table/{table}/finish", None),
                ("GET", f"/table/{table}/setup", None), ("GET", f"/table/{table}/protocol.xlsx", None),
                ("POST", f"/table/{table}/undo", {"after": bad}),
                ("POST", f"/table/{table}/move/pass", {"after": bad, "type": "pass", "player": "Борис"}),
                ("POST", f"/table/{table}/move/adjust", {"after": bad, "player": "Борис", "xp": 100,
                                                         "reason": "попытка"})]:
            response = client.open(url, method=method, data=None if data is None else {**data, "csrf_token": token})
            assert response.status_code < 500, (method, url, response.status_code)
        assert [r[0] for r in log_of(app, table)] == list(range(1, bad + 1)), "a write to a broken table"
        state = client.get(f"/api/v1/tables/{table}").get_json()
        assert state["needs_checking"] is True and state["legal_moves"] == []
        refused = client.post(f"/api/v1/tables/{table}/moves", data=json.dumps(
            {"after": bad, "move": {"type": "pass", "player": "Борис"}}), content_type="application/json")
        assert refused.status_code == 409 and refused.get_json()["error"]["code"] == "needs_checking"
    each_case([(name, table, bad) for name, (table, bad) in broken.items()], check)
    assert client.get(f"/organizer/events/{event_id}/download/workbook").status_code == 200


def test_the_record_of_a_broken_table_downloads_or_is_refused_clearly(app, client):
    _event_id, broken = broken_tables(app)
    table, _bad = broken["an adjust of 10^8 XP"]
    assert client.get(f"/table/{table}/record.json").status_code in (200, 409)
    assert client.get(f"/api/v1/tables/{table}/record").status_code in (200, 409)


def test_reopening_a_broken_table_sends_the_organizer_to_its_repair(app, client):
    event_id, broken = broken_tables(app)
    table, bad = broken[BAD_MOVES[0][0]]
    response = post(client, f"/organizer/events/{event_id}/tables/{table}/reopen", {"after": bad})
    assert response.status_code == 303
    assert log_of(app, table)[-1][0] == bad


def test_a_table_found_not_to_replay_on_its_screen_is_left_out_of_the_rankings_at_once(app, client):
    """Its kept standing predates the bad row (an engine or pack change, a row written outside
    the app): the replay that finds the problem marks the table for every other page."""
    event_id, fine, broken = two_tables(app)
    corrupt(app, broken, BAD_MOVES[0][1], kept_head=True)
    assert client.get(f"/table/{broken}").status_code == 409
    status = client.get(f"/organizer/events/{event_id}/status.json").get_json()
    assert status["left_out"] == ["Стол 2"]


# ----- 3 and 5. bounds: a clear refusal, never a 500 ---------------------------------------------
def test_numbers_beyond_the_game_are_refused_on_the_hosts_screen(app, client):
    table = lone_table(app)
    english(client)
    token = csrf_token(client)

    def check(name, url, fields, words):
        before = everything(app)
        page = Page(client.post(url.format(t=table), data={**fields, "csrf_token": token}))
        assert page.status in (400, 422), page.status
        assert words in page.error, page.error
        assert everything(app) == before
    adjust = {"after": 0, "player": "Аня", "reason": "лишние нули"}
    each_case([
        ("adjust 10^8 XP", "/table/{t}/move/adjust", {**adjust, "xp": 10 ** 8}, "XP change"),
        ("adjust 10^100 XP", "/table/{t}/move/adjust", {**adjust, "xp": 10 ** 100}, "XP change"),
        ("adjust 10^8 SP", "/table/{t}/move/adjust", {**adjust, "sp-health": 10 ** 8}, "health"),
        ("timer 5 s", "/table/{t}/timer", {"seconds": 5}, "The timer was not set"),
        ("timer 10^100 s", "/table/{t}/timer", {"seconds": 10 ** 100}, "The timer was not set"),
        ("after beyond 2^31", "/table/{t}/move/pass", {"after": 2 ** 31, "type": "pass", "player": "Аня"},
         "The move was not recorded"),
        ("a hand-entered card nested 100,000 deep", "/table/{t}/move/draw",
         {"after": 0, "player": "Аня", "color": "green", "decision": "play",
          "manual": "[" * 100_000 + "]" * 100_000}, "nested more than"),
        ("a hand-entered card with 5,000 digits", "/table/{t}/move/draw",
         {"after": 0, "player": "Аня", "color": "green", "decision": "play",
          "manual": '{"title": "x", "free": %s}' % ("9" * 5000)}, "digits"),
    ], check)


def test_ids_beyond_the_databases_integer_range_are_404_on_every_page(app, client):
    event_id, _fine, _broken = two_tables(app)
    token = csrf_token(client)

    def check(name, method, url):
        response = client.open(url, method=method, data={"csrf_token": token, "after": 0, "seq": 1})
        assert response.status_code == 404, (response.status_code, text(response)[:200])
        assert response.mimetype == "text/html"
    big = 2 ** 31
    each_case([(url, method, url) for method, url in [
        ("GET", f"/table/{big}"), ("GET", f"/table/{big}/draw?color=green"), ("GET", f"/table/{big}/final"),
        ("GET", f"/table/{big}/protocol.xlsx"), ("GET", "/table/99999999999/record.json"),
        ("POST", f"/table/{big}/undo"), ("POST", f"/table/{big}/move/pass"),
        ("GET", f"/organizer/events/{big}"), ("GET", f"/organizer/events/{big}/status.json"),
        ("GET", f"/organizer/events/{event_id}/tables/{big}/repair"),
        ("POST", f"/organizer/events/{event_id}/tables/{big}/reopen"),
        ("POST", f"/organizer/events/{event_id}/tables/{big}/void"),
        ("GET", f"/e/{big}"), ("GET", f"/e/{big}/standings.json"),
    ]], check)


def upload(client, url, field, body, **extra):
    data = {field: (io.BytesIO(body), "file.json"), "csrf_token": csrf_token(client), **extra}
    return client.post(url, data=data, content_type="multipart/form-data", follow_redirects=True)


def test_malformed_json_uploads_are_a_message_never_a_500(app, client):
    event_id = new_event(app)
    english(client)
    deep = b"[" * 100_000 + b"]" * 100_000
    long_number = b'{"format": "lyceum-record/1", "table": "x", "moves": [], "n": ' + b"7" * 5000 + b"}"

    def check(name, url, field, body, words):
        before = everything(app)
        response = upload(client, url, field, body)
        assert response.status_code == 200, response.status_code
        assert any(words in m for m in flashes(response, "error")), flashes(response)
        assert everything(app) == before
    each_case([(f"{where} {what}", url, field, body, words)
               for where, url, field, words in [
                   ("host import", "/tables/import", "record", "Not a game record"),
                   ("organizer import", f"/organizer/events/{event_id}/import", "record", "Not a game record"),
                   ("restore", "/organizer/restore", "backup", "The backup was not restored")]
               for what, body in [("100,000 deep", deep), ("5,000 digits", long_number)]], check)


def test_names_with_control_characters_or_line_breaks_are_refused(app, client):
    event_id, fine, _broken = two_tables(app)
    english(client)

    def check(name, url, fields):
        before = everything(app)
        response = post(client, url, fields, follow_redirects=True)
        assert response.status_code == 200
        assert flashes(response, "error"), text(response)[:300]
        assert everything(app) == before
    each_case([(f"{form}: {label}", url, {**fields, "name": bad})
               for form, url, fields in [
                   ("add", f"/organizer/events/{event_id}/tables", {}),
                   ("rename", f"/organizer/events/{event_id}/tables/{fine}/rename", {}),
                   ("new table", "/tables", {"pack": str(loaded(app, fine).table.pack_id)})]
               for label, bad in [("newline", "Стол\n7"), ("carriage return", "Стол\r7"), ("tab", "Стол\t7"),
                                  ("NUL", "Стол\x007"), ("line separator", "Стол\u20287")]], check)


def test_a_record_download_of_a_table_with_an_odd_name_has_a_safe_file_name(app, client):
    table = lone_table(app)
    with db(app) as s:  # a name stored before names were checked
        services.rename(s, s.get(GameTable, table), 'Стол "1";\r\nX-Evil: 1\\/..')
    response = client.get(f"/table/{table}/record.json")
    assert response.status_code == 200
    disposition = response.headers["Content-Disposition"]
    assert disposition.startswith("attachment;")
    assert not any(ch in disposition for ch in '\r\n\x00\\/') and disposition.count('"') in (0, 2)
    assert "X-Evil" not in response.headers


# ----- 10. security headers; 11. one database session per request ---------------------------------
def test_pages_carry_the_security_headers_and_no_inline_script(app, client, anon_client):
    event_id, fine, _broken = two_tables(app)
    pages = {"turn screen": (client, f"/table/{fine}"), "dashboard": (client, f"/organizer/events/{event_id}"),
             "projector": (anon_client, f"/e/{event_id}"), "PIN page": (anon_client, "/pin"),
             "draw page": (client, draw_link(client, fine, "green") + "&card=L-G-02"),
             "an error page": (anon_client, f"/table/{fine}")}

    def check(name, browser, url):
        response = browser.get(url)
        headers = response.headers
        policy = headers.get("Content-Security-Policy", "")
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy.split("script-src", 1)[1].split(";")[0]
        assert headers.get("X-Content-Type-Options") == "nosniff"
        assert headers.get("Referrer-Policy") and headers.get("X-Frame-Options") == "DENY"
        # asked for again on every look (a table moves on), never kept by a proxy
        assert headers.get("Cache-Control") == "no-cache, private"
        for tag in re.findall(r"<script\b[^>]*>", response.get_data(as_text=True)):
            assert "src=" in tag or 'type="application/json"' in tag, tag
        assert not re.search(r"\son[a-z]+=\"", response.get_data(as_text=True)), "an inline event handler"
    each_case([(name, browser, url) for name, (browser, url) in pages.items()], check)


def test_one_request_opens_one_database_session(app, client, monkeypatch):
    from sqlalchemy import event as sa_event
    from sqlmodel import Session
    event_id, fine, _broken = two_tables(app)
    english(client)
    turn = Page(client.get(f"/table/{fine}"))
    made, begun = [], set()
    real = services.db.new_session

    def counted(bind):
        made.append(bind)
        return real(bind)

    def began(session, transaction, connection):
        begun.add(id(session))

    def check(name, request):
        made.clear()
        begun.clear()
        assert request().status_code in (200, 201, 303)
        assert (len(made), len(begun)) == (1, 1), (len(made), len(begun))
    monkeypatch.setattr(services.db, "new_session", counted)
    sa_event.listen(Session, "after_begin", began)
    api_move = {"after": 2, "move": {"type": "pass", "player": "Вика"}}
    try:
        each_case([
            ("the turn screen", lambda: client.get(f"/table/{fine}")),
            ("a move", lambda: client.post(turn.form("/move/pass").action, data=turn.form("/move/pass").data())),
            ("an API move", lambda: client.post(f"/api/v1/tables/{fine}/moves", data=json.dumps(api_move),
                                                content_type="application/json")),
            ("the dashboard", lambda: client.get(f"/organizer/events/{event_id}")),
            ("status.json", lambda: client.get(f"/organizer/events/{event_id}/status.json")),
            ("the projector", lambda: client.get(f"/e/{event_id}")),
        ], check)
    finally:
        sa_event.remove(Session, "after_begin", began)
    assert [row[:2] for row in log_of(app, fine)] == [(1, "move"), (2, "move"), (3, "move")]


def test_a_request_that_rolls_back_leaves_the_pack_others_read_whole(app, client):
    """A pack version is read from the database once per process and shared by every request
    (it never changes); the request that read it first may roll back (a refused move), and the
    next requests still play the table on that pack."""
    from facilitator.services.packs import pack_row_of
    from facilitator.services.tables import StaleMove
    _event_id, fine, _broken = two_tables(app)
    engine = app.extensions["facilitator.engine"]
    session = services.db.new_session(engine)
    try:
        loaded = services.load(session, fine)
        pack_id = loaded.table.pack_id
        first = pack_row_of(session, pack_id)
        with pytest.raises(StaleMove):  # a write that came too late: its transaction rolls back
            services.record_move(session, fine, loaded.ruleset.read_move({"type": "pass", "player": "Вика"}), 0)
        session.rollback()  # (which expires every row the session holds)
    finally:
        session.close()
    with db(app) as s:
        assert pack_row_of(s, pack_id) is first
        assert first.data and first.key and services.load(s, fine).pack.cards_by_code
    english(client)
    turn = Page(client.get(f"/table/{fine}"))
    assert turn.status == 200 and client.post(turn.form("/move/pass").action,
                                              data=turn.form("/move/pass").data()).status_code == 303
