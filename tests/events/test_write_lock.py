"""Tablets writing at once never fail because another table wrote (issue 17, ARCHITECTURE.md 15).

On the embedded SQLite default one connection writes at a time. A write that began by reading
and then wrote was refused at once ("database is locked", a 500 on the tablet) whenever another
table's write landed in between; now every transaction that may write takes the lock first and
the other writes wait for it. Each test runs on SQLite and, when reachable, PostgreSQL."""

import json
import threading
import time

import pytest

from facilitator import services
from facilitator.rules.lyceum.ruleset import sample_pack
from facilitator.rules.lyceum import Move
from facilitator.rules import registry
from facilitator.storage.models import GameTable

from tests.web.helpers import THREE

from .helpers import db, organizer_browser

pytestmark = pytest.mark.db

LYCEUM = "lyceum-16-25"


def seated_tables(app, count):
    with db(app) as s:
        pack_row = services.packs.latest_row(s, sample_pack().id, LYCEUM)
        ids = [services.create_table(s, f"Стол {i + 1}", pack_row, access=True).id for i in range(count)]
    with db(app) as s:
        for table_id in ids:
            services.set_players(s, table_id, registry.get(LYCEUM).read_setup(THREE))
    return ids


def next_passes(app, table_id, count, prefix):
    """The next ``count`` moves of a table as its outbox queues them: passes of whoever's turn it
    is, each with the sequence number it follows and a client id of its own."""
    with db(app) as s:
        loaded = services.load(s, table_id)
        game, seq = loaded.game.copy(), loaded.seq
    queued = []
    for i in range(count):
        nxt = game.next()
        if nxt is None or nxt["expects"] != "main":
            break
        move = Move("pass", player=nxt["player"])
        game.apply(move)
        queued.append({"after": seq + i, "move": move.to_dict(), "client_id": f"{prefix}-{seq + i}"})
    return queued


def moves_of(app, table_id):
    with db(app) as s:
        loaded = services.load(s, table_id, fresh=True)
        assert not loaded.broken
        return [(r.seq, r.client_id) for r in loaded.log]


def test_a_write_at_one_table_waits_for_a_write_at_another_and_both_are_recorded(app):
    """Table 1's queued moves are being recorded (its write paused after reading the table)
    when table 2's arrive: table 2's wait for the lock on SQLite (it used to be refused at once
    when table 1's write resumed), and both tables hold exactly what was sent."""
    one, two = seated_tables(app, 2)
    batches = {one: next_passes(app, one, 3, "one"), two: next_passes(app, two, 2, "two")}
    real_load = services.tables.load
    paused, resumed, outcomes, finished = threading.Event(), [], {}, {}

    def load_then_pause(session, table_id, **kwargs):
        loaded = real_load(session, table_id, **kwargs)
        if threading.current_thread().name == "one" and not paused.is_set():
            paused.set()
            time.sleep(0.4)  # table 2's write arrives meanwhile
            resumed.append(time.monotonic())
        return loaded

    def send(table_id):
        try:
            with db(app) as s:
                items = [{**item, "move": registry.get(LYCEUM).read_move(item["move"])} for item in batches[table_id]]
                outcomes[table_id] = services.record_batch(s, table_id, items, author="api")
        except Exception as err:  # noqa: BLE001 - what a tablet would have got is the point
            outcomes[table_id] = err
        finished[table_id] = time.monotonic()

    services.tables.load = load_then_pause
    try:
        first = threading.Thread(target=send, args=(one,), name="one")
        first.start()
        assert paused.wait(10)
        second = threading.Thread(target=send, args=(two,), name="two")
        second.start()
        first.join(20)
        second.join(20)
    finally:
        services.tables.load = real_load
    assert not any(isinstance(v, Exception) for v in outcomes.values()), outcomes
    assert [refused for _recorded, refused in outcomes.values()] == [None, None]
    assert moves_of(app, one) == [(1, "one-0"), (2, "one-1"), (3, "one-2")]
    assert moves_of(app, two) == [(1, "two-0"), (2, "two-1")]
    if app.extensions["facilitator.engine"].dialect.name == "sqlite":
        assert finished[two] >= resumed[0]  # it waited for table 1's write to end


def test_tablets_flushing_their_outboxes_at_the_same_instant_are_all_answered(app):
    """Twelve tablets whose Wi-Fi comes back at once each send their queued moves (1 to 4) in
    the same instant, three times over: every batch is answered 200 with every move recorded,
    none refused, none twice."""
    tables = seated_tables(app, 12)
    browsers = [organizer_browser(app) for _ in tables]
    statuses, problems = [], []
    for wave in range(3):
        start = threading.Barrier(len(tables))

        def flush(index, table_id):
            queued = next_passes(app, table_id, 1 + (index + wave) % 4, f"t{table_id}")
            start.wait(10)
            response = browsers[index].post(f"/api/v1/tables/{table_id}/moves/batch",
                                            data=json.dumps({"moves": queued}), content_type="application/json")
            statuses.append(response.status_code)
            body = response.get_json(silent=True) or {}
            if body.get("refused") or len(body.get("recorded", [])) != len(queued):
                problems.append((table_id, response.status_code, body))

        threads = [threading.Thread(target=flush, args=(i, t)) for i, t in enumerate(tables)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
    assert statuses == [200] * 36, statuses
    assert problems == []
    for index, table_id in enumerate(tables):
        sent = sum(1 + (index + wave) % 4 for wave in range(3))
        log = moves_of(app, table_id)
        assert [seq for seq, _ in log] == list(range(1, sent + 1))
        assert len({client for _, client in log}) == sent


def test_a_page_that_finds_something_to_write_while_another_write_lands_is_drawn_again(app, client):
    """A page that only reads may still write on its way (a table found not to replay is marked
    at once). When another table's write lands between its read and that write, SQLite refuses
    the page's write; the page is drawn once more with the lock taken first: a 200, the table
    marked, never a 500."""
    good, bad = seated_tables(app, 2)
    with db(app) as s:  # a move the rules refuse, written past the app (its kept head left stale)
        table = s.get(GameTable, bad)
        s.add(services.tables.MoveRow(table_id=bad, seq=1, kind="move", author="tablet",
                                      data=json.dumps({"type": "pass", "player": "Гоша"})))
        table.seq, table.move_count = 1, 1
        s.add(table)
    real_mark = services.tables._mark_broken
    landed = []

    def another_tablet():
        with db(app) as other:
            services.record_move(other, good, Move("pass", player="Аня"), 0)

    def another_write_lands_first(session, loaded):
        if not landed:
            landed.append(True)
            other = threading.Thread(target=another_tablet)
            other.start()
            other.join(10)
        return real_mark(session, loaded)

    services.tables._mark_broken = another_write_lands_first
    try:
        page = client.get(f"/table/{bad}")
    finally:
        services.tables._mark_broken = real_mark
    assert landed and page.status_code == 409  # the screen of a table that needs checking
    with db(app) as s:
        assert s.get(GameTable, bad).status == "broken"
    assert moves_of(app, good) == [(1, None)]


def test_an_acknowledged_move_is_on_the_disk_before_the_tablet_is_told(tmp_path):
    """The embedded database waits for the disk at every commit (``synchronous=FULL``): a move
    a tablet was told is recorded survives a power cut, not only a crash of the app. (The tests
    themselves run with NORMAL, see conftest.py: here a fresh process with the app's default.)"""
    import os
    import subprocess
    import sys
    env = {k: v for k, v in os.environ.items() if k != "FACILITATOR_SQLITE_SYNCHRONOUS"}
    probe = ("from facilitator.storage.db import get_engine\n"
             f"engine = get_engine('sqlite:///{tmp_path / 'probe.db'}')\n"
             "with engine.connect() as c:\n"
             "    print(c.exec_driver_sql('PRAGMA synchronous').scalar(), c.exec_driver_sql('PRAGMA journal_mode').scalar())")
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["2", "wal"], out.stderr  # 2: FULL


def test_a_write_that_waited_past_the_busy_timeout_is_a_503_to_send_again(app, client, monkeypatch):
    """Should the lock stay taken past the busy timeout (a restore of a huge event), the write is
    rolled back whole and the tablet is told to send it again (503 + Retry-After): a 5xx its
    outbox retries, never a refusal of the move, never a 500."""
    import sqlite3

    from sqlalchemy.exc import OperationalError
    (table_id,) = seated_tables(app, 1)

    def locked(*_args, **_kwargs):
        raise OperationalError("BEGIN IMMEDIATE", {}, sqlite3.OperationalError("database is locked"))
    monkeypatch.setattr(services, "record_batch", locked)
    response = client.post(f"/api/v1/tables/{table_id}/moves/batch", content_type="application/json",
                           data=json.dumps({"moves": next_passes(app, table_id, 1, "busy")}),
                           headers={"Accept-Language": "en"})
    assert response.status_code == 503 and response.headers["Retry-After"] == "2"
    assert response.get_json()["error"]["code"] == "busy"
    assert moves_of(app, table_id) == []


def test_a_write_that_finds_the_file_locked_fails_as_any_statement_and_hands_the_lock_on(tmp_path):
    """A BEGIN IMMEDIATE refused because another program holds the file's write lock is
    SQLAlchemy's OperationalError (what the app answers 503 to), and the process's own lock is
    handed on: the next write, once the file is free, begins at once."""
    import sqlite3

    from sqlalchemy.exc import OperationalError

    from facilitator.storage import db as storage_db
    path = tmp_path / "locked.db"
    engine = storage_db.get_engine(f"sqlite:///{path}")
    try:
        with engine.connect() as c:
            c.exec_driver_sql("PRAGMA busy_timeout=50")  # the pool's one connection waits 50 ms, not 30 s
            c.exec_driver_sql("CREATE TABLE note (id INTEGER PRIMARY KEY)")
            c.commit()
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another program's write
        with pytest.raises(OperationalError, match="database is locked"):
            with storage_db.writing(), engine.begin() as c:
                c.exec_driver_sql("INSERT INTO note VALUES (1)")
        other.execute("ROLLBACK")
        other.close()
        done = []
        writer = threading.Thread(target=lambda: _insert_note(engine, storage_db, done))
        writer.start()
        writer.join(timeout=5)
        assert done == [True]  # another thread took the process's lock: it was handed on
        with engine.connect() as c:
            assert c.exec_driver_sql("SELECT id FROM note").scalars().all() == [2]
    finally:
        engine.dispose()
        for url in [url for url, kept in storage_db._engines.items() if kept is engine]:
            del storage_db._engines[url]


def _insert_note(engine, storage_db, done):
    with storage_db.writing(), engine.begin() as c:
        c.exec_driver_sql("INSERT INTO note VALUES (2)")
    done.append(True)
