"""A table's row, which every move and every screen reads first (its access check, its seq), is
read with one plain SELECT (``services.tables._table_row``): on the thread's reader outside a
transaction, in the transaction inside one. On a server alone on its SQLite file it is then
answered from memory while no commit touches it, never at the cost of a wrong row: a write
reads it under its lock, a transaction that changed it reads its own, a read that holds a
snapshot reads in it, and the row is what SQLAlchemy would read."""

import json
import threading

import pytest
from sqlalchemy import event, select, update
from sqlalchemy.orm import Session

from facilitator import services
from facilitator.rules.lyceum import Move
from facilitator.services.tables import TableRow
from facilitator.storage import db as storage_db
from facilitator.storage.models import GameTable

from .helpers import csrf_token, load, move_form, record

pytestmark = pytest.mark.db
SQLITE = pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)


def next_player_of(app, table):
    return load(app, table).game.next()["player"]


class Statements:
    """What the app sends to its database: statements on the engine, plain reads on a reader."""

    def __init__(self, engine, monkeypatch):
        self.sent, self.reads = [], 0
        event.listen(engine, "before_cursor_execute", self._sent)
        event.listen(engine, "begin", self._begun)  # sent by the dialect's do_begin, not as a statement
        self._engine = engine
        real = storage_db._read_row

        def counted(*args):
            self.reads += 1
            return real(*args)
        monkeypatch.setattr(storage_db, "_read_row", counted)

    def _sent(self, _conn, _cursor, statement, *_args):
        self.sent.append(statement.split()[0].upper())

    def _begun(self, _conn):
        self.sent.append("BEGIN")

    def close(self):
        event.remove(self._engine, "before_cursor_execute", self._sent)
        event.remove(self._engine, "begin", self._begun)


@pytest.fixture
def statements(app, monkeypatch):
    watch = Statements(app.extensions["facilitator.engine"], monkeypatch)
    yield watch
    watch.close()


@pytest.fixture
def tablet(app, table, anon_client):
    """The table's host: a tablet that opened the table with its link (not the organizer)."""
    with services.db.session_scope(app.extensions["facilitator.engine"]) as s:
        token = services.access.ensure_access(s, services.get_table(s, table)).token
    assert anon_client.get(f"/t/{token}").status_code in (302, 303)
    assert anon_client.get(f"/table/{table}").status_code == 200
    return anon_client


def opened_fresh(client, url, statements):
    """``(the page at url, the ORM transactions its request began)``, ``statements`` counted
    from zero."""
    statements.sent.clear()
    statements.reads = 0
    begun = []
    note = lambda session, transaction: begun.append(transaction)  # noqa: E731
    event.listen(Session, "after_transaction_create", note)
    try:
        return client.get(url), begun
    finally:
        event.remove(Session, "after_transaction_create", note)


@SQLITE
def test_the_turn_screen_after_a_tap_begins_no_transaction_and_reads_the_row_once(app, tablet, table, statements):
    host = tablet
    mover = next_player_of(app, table)
    tap = move_form(host, table, "rest", player=mover, after=load(app, table).seq)
    assert tap.status == 303
    page, begun = opened_fresh(host, tap.response.headers["Location"], statements)
    assert page.status_code == 200 and mover in page.get_data(as_text=True)
    assert begun == []  # not even one the ORM begins only to commit it
    assert statements.sent == [] and statements.reads == 1  # the row the tap changed: read once
    assert host.get(f"/table/{table}").status_code == 200
    assert statements.sent == [] and statements.reads == 1  # then from memory


def test_a_screen_reads_the_row_with_one_plain_select_and_begins_no_transaction(app, tablet, table, statements):
    """On every database: PostgreSQL reads it on the thread's reader each time (one round trip,
    not BEGIN, SELECT and ROLLBACK), SQLite at most once and then from memory."""
    page, begun = opened_fresh(tablet, f"/table/{table}", statements)
    assert page.status_code == 200
    assert begun == [] and statements.sent == []
    assert statements.reads == (1 if app.extensions["facilitator.engine"].dialect.name == "postgresql" else 0)


@SQLITE
def test_a_move_reads_the_row_under_its_lock_and_writes_only_the_move(app, tablet, table, statements):
    fields = {"player": next_player_of(app, table), "after": load(app, table).seq}
    csrf_token(tablet)  # the form's token, as the turn screen holds it
    statements.sent.clear()
    tap = move_form(tablet, table, "rest", **fields)
    assert tap.status == 303
    assert statements.sent == ["BEGIN", "UPDATE", "INSERT"]  # BEGIN IMMEDIATE; no SELECT of the row


def rename_directly(engine, table, name):
    with storage_db.writing(), engine.begin() as conn:
        conn.execute(update(GameTable).where(GameTable.id == table).values(name=name))


@SQLITE
def test_a_move_reads_the_row_in_its_own_transaction_not_on_the_reader(app, tablet, table, statements):
    fields = {"player": next_player_of(app, table), "after": load(app, table).seq}
    csrf_token(tablet)  # the turn screen's read opened this thread's reader
    rename_directly(app.extensions["facilitator.engine"], table, "Стол у окна")  # the row kept is outdated
    storage_db.close_readers()
    statements.reads = 0
    tap = move_form(tablet, table, "rest", **fields)
    assert tap.status == 303
    assert statements.reads == 1  # the row, read once ...
    assert not any(thread == threading.get_ident() for thread, _engine in storage_db._readers)  # ... on the writer
    with services.db.session_scope(app.extensions["facilitator.engine"]) as s:
        assert services.get_table(s, table).seq == fields["after"] + 1


@SQLITE
def test_a_transaction_that_changed_the_row_reads_its_own_and_a_rollback_leaves_none_behind(app, table):
    engine = app.extensions["facilitator.engine"]
    with services.db.session_scope(engine) as s:
        assert services.get_table(s, table).name == "Стол 1"  # kept from here on
    with pytest.raises(RuntimeError):
        with services.db.session_scope(engine) as s:
            s.connection().execute(update(GameTable).where(GameTable.id == table).values(name="Черновик"))
            s.info.pop("tables", None)  # as a savepoint's rollback forgets what the session held
            assert services.get_table(s, table).name == "Черновик"  # its own write
            raise RuntimeError
    with services.db.session_scope(engine) as s:
        assert services.get_table(s, table).name == "Стол 1"
    rename_directly(engine, table, "Стол у окна")  # a commit touching the row outdates what was kept
    with services.db.session_scope(engine) as s:
        assert services.get_table(s, table).name == "Стол у окна"


@SQLITE
def test_a_read_holding_a_snapshot_reads_the_row_in_it(app, table):
    engine = app.extensions["facilitator.engine"]
    with services.db.new_session(engine) as s:
        assert s.connection().execute(select(GameTable.name).where(GameTable.id == table)).scalar() == "Стол 1"  # its snapshot
        rename_directly(engine, table, "Стол у окна")
        assert services.get_table(s, table).name == "Стол 1"
        s.rollback()
    with services.db.new_session(engine) as s:
        assert services.get_table(s, table).name == "Стол у окна"


def test_the_row_is_what_sqlalchemy_reads(app, table):
    """Every column as the ORM gives it, dates as datetimes included (a move sets ``last_move_at``)."""
    engine = app.extensions["facilitator.engine"]
    record(app, table, Move("rest", player=next_player_of(app, table)))
    with services.db.new_session(engine) as s:
        kept = services.get_table(s, table)
    with services.db.new_session(engine) as s:
        orm = s.get(GameTable, table)
        for name in TableRow.__slots__:
            assert getattr(kept, name) == getattr(orm, name), name
            assert type(getattr(kept, name)) is type(getattr(orm, name)), name
        assert orm.last_move_at is not None


def test_the_row_keeps_the_standing_of_its_position_as_compact_json(app, table):
    from facilitator.services.tables import standing_text
    record(app, table, Move("rest", player=next_player_of(app, table)))
    with services.db.new_session(app.extensions["facilitator.engine"]) as s:
        text = services.get_table(s, table).standing
        loaded = services.load(s, table)
    assert json.loads(text) == loaded.ruleset.table_standing(loaded.game)
    assert "Аня" in text and ", " not in text and ": " not in text
    assert json.loads(standing_text({"xp": 2 ** 70, "name": "Вика"})) == {"xp": 2 ** 70, "name": "Вика"}


def test_a_read_in_a_transaction_fails_as_sqlalchemys_statements_do(app):
    """A plain read in a transaction's own connection that the database refuses raises
    SQLAlchemy's error (what the app's handlers know), and the transaction rolls back cleanly."""
    from sqlalchemy.exc import DBAPIError
    engine = app.extensions["facilitator.engine"]
    with engine.connect() as conn:
        conn.begin()
        with pytest.raises(DBAPIError, match="no_such_table"):
            storage_db.read_row(engine, "SELECT id FROM no_such_table WHERE id = ?", (1,), within=conn)
        conn.rollback()
        assert storage_db.read_row(engine, "SELECT count(*) FROM game_table WHERE id > ?", (0,), within=conn)[0] >= 0
