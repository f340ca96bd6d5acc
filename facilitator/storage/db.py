"""The database engine: the embedded SQLite file under the instance folder by default (WAL
mode, a busy timeout), or PostgreSQL through ``DATABASE_URL`` for a shared event server.

**A write takes its lock before it reads** (ARCHITECTURE.md decision 15). SQLite lets one
connection write at a time. A transaction that starts by reading (SQLite's default, deferred)
and then writes is refused at once, without waiting, when another connection wrote in between:
the busy timeout never applies, and a tablet saw "database is locked" as a server error. So
the transactions SQLAlchemy begins are begun here, explicitly: ``BEGIN IMMEDIATE`` (the write
lock first, waiting up to the busy timeout for it) inside ``writing()`` — every request that
may write, every unit of work of a command — and a plain ``BEGIN`` (a consistent snapshot,
never blocking a writer) for pages that only read. PostgreSQL needs none of this: its writes
lock their rows in one order (``services.tables``).

**An acknowledged move survives a power cut.** ``synchronous=FULL``: each commit waits until
the write-ahead log is on the disk, so a laptop whose battery dies keeps every move a tablet
was told is recorded (``NORMAL`` keeps them through a crash of the app, not of the machine).
``benchmarks/bench_durability.py`` shows what it costs a move.
"""

import contextlib
import contextvars
import os
import threading
import time
from pathlib import Path

from sqlalchemy import event
from sqlalchemy.exc import DBAPIError
from sqlmodel import Session, create_engine

from facilitator.storage import changes

_engines = {}


def instance_path():
    """Where the app keeps its database, secret key and exports: ``FACILITATOR_INSTANCE`` or
    ``./instance``."""
    return Path(os.environ.get("FACILITATOR_INSTANCE") or Path.cwd() / "instance").resolve()


def database_url(url=None):
    url = url or os.environ.get("DATABASE_URL")
    if not url:
        folder = instance_path()
        folder.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{folder / 'facilitator.db'}"
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://"):]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    return url


#: How long a write waits for another connection's write to end before it gives up (seconds).
#: A move holds the lock for a few milliseconds, so 40 tablets sending at once wait well under
#: a second; a restore of a big event may hold it for several.
BUSY_TIMEOUT = 30
#: ``synchronous`` of the embedded database: FULL survives a power cut (see above).
SYNCHRONOUS = os.environ.get("FACILITATOR_SQLITE_SYNCHRONOUS", "FULL").upper()

_writing = contextvars.ContextVar("facilitator_writing", default=False)


@contextlib.contextmanager
def writing(on=True):
    """Transactions begun inside this block take SQLite's write lock first (``BEGIN
    IMMEDIATE``): for a request or command that may write."""
    token = _writing.set(on)
    try:
        yield
    finally:
        _writing.reset(token)


def set_writing(on):
    """``writing()`` for code that cannot hold a ``with`` block (a request's hooks): returns the
    token ``reset_writing`` takes."""
    return _writing.set(on)


def reset_writing(token):
    _writing.reset(token)


def is_writing():
    return _writing.get()


def _sqlite_pragmas(dbapi_connection, _record, _feed=None):
    # pysqlite's own transaction handling is off: it begins a transaction only before an
    # INSERT/UPDATE/DELETE, and a SAVEPOINT opened one that read before it wrote; ``_begin_on``
    # begins every transaction instead
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT * 1000}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA synchronous={SYNCHRONOUS if SYNCHRONOUS in ('FULL', 'NORMAL', 'EXTRA') else 'FULL'}")
    cursor.close()
    if _feed is not None:
        _feed.watch.register()  # this process uses the file: a server alone on it learns so (changes.Watch)


def _begin_on(dialect, url):
    """Every transaction on SQLite begins with the app's own BEGIN (pysqlite's own transaction
    handling is off: ``_sqlite_pragmas``), sent as the dialect's ``do_begin`` straight on the
    driver connection: nothing of it is a statement to compile, and a failure is SQLAlchemy's
    error as any statement's. Inside ``writing()`` it takes the write lock first (``BEGIN
    IMMEDIATE``)."""
    def begin(pooled):
        driver = pooled.driver_connection
        if not _writing.get():
            driver.execute("BEGIN").close()
            return
        # the threads of one server process queue for the lock here, each handed it the moment the
        # last one has committed; SQLite's own wait (the one between processes) sleeps and polls,
        # and the lock sat free while 40 tablets' requests slept
        lock = _process_locks.setdefault(url, threading.RLock())
        held = lock.acquire(timeout=BUSY_TIMEOUT)  # past it, SQLite's own wait decides
        try:
            driver.execute("BEGIN IMMEDIATE").close()
        except BaseException:
            if held:
                lock.release()
            raise
        if held:
            _holding[id(driver)] = lock
    dialect.do_begin = begin


_process_locks = {}  # database URL -> the lock this process's writers queue for
_holding = {}  # id of a driver connection in a write transaction -> the lock it holds


def _release_when_ended(dialect, feed=None):
    """Hand the process's lock on once the transaction has really ended (its COMMIT or
    ROLLBACK done, the pool's reset included), never before; and tell ``feed`` (``changes``)
    which watched rows a transaction touched once its COMMIT has returned (also when it raised:
    whether it was stored is then unknown), forgetting them when it rolled back."""
    for name in ("do_commit", "do_rollback"):
        def ended(pooled, _end=getattr(dialect, name), _commit=name == "do_commit"):
            try:
                _end(pooled)
            finally:
                rows = _touched_of(pooled)
                if rows and _commit and feed is not None:
                    feed.committed(rows)
                lock = _holding.pop(id(getattr(pooled, "driver_connection", pooled)), None)
                if lock is not None:
                    lock.release()
        setattr(dialect, name, ended)


_writes_committed = contextvars.ContextVar("facilitator_writes_committed", default=0)
_DML = ("insert", "update", "delete", "replace")


def writes_committed():
    """How many transactions that changed something this thread of work has committed: a unit
    of work may be run again from the top only while this has not moved."""
    return _writes_committed.get()


_TOUCHED = "facilitator_touched"  # a connection's info: the watched rows its transaction touched


def _touched_of(pooled):
    """The watched rows noted on a pooled connection's transaction, taken off it."""
    try:
        return pooled.info.pop(_TOUCHED, None)
    except (AttributeError, NotImplementedError):  # the dialect's first look at a new connection
        return None


def touched_watched(connection):
    """Whether the transaction running on ``connection`` has changed a watched row (``changes``):
    what it reads of them may then be its own writes, never stored if it rolls back."""
    return bool(connection.info.get(_TOUCHED))


def changed_nothing(connection):
    """Whether the transaction on ``connection`` is known to have changed nothing yet: on an
    engine of ``get_engine``, where every statement is noted; elsewhere it is not known (False)."""
    return getattr(connection.dialect, "notes_changes", False) and not connection.info.get("changed")


def _note_change(connection, _cursor, statement, _parameters, context, _executemany):
    if statement.lstrip()[:7].lower().startswith(_DML):
        connection.info["changed"] = True
    rows = changes.touched(statement, context)
    if rows:
        connection.info.setdefault(_TOUCHED, set()).update(rows)


#: PostgreSQL's statements that may change rows: a WITH too (a move's compare-and-set and log
#: row are one ``WITH … UPDATE … INSERT`` there)
_PG_DML = _DML + ("with",)


def _note_dml(connection, _cursor, statement, *_args):
    if statement.lstrip()[:7].lower().startswith(_PG_DML):
        connection.info["changed"] = True


def _count_commit(connection):
    if connection.info.pop("changed", False):
        _writes_committed.set(_writes_committed.get() + 1)


def _forget_changes(connection):
    connection.info.pop("changed", None)


def get_engine(url=None):
    """One engine per URL, created on first use."""
    url = database_url(url)
    if url not in _engines:
        if url.startswith("sqlite"):
            engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": BUSY_TIMEOUT})
            feed = changes.feed(engine)
            event.listen(engine, "connect", lambda dbapi, record: _sqlite_pragmas(dbapi, record, feed))
            _begin_on(engine.dialect, engine.url)
            _release_when_ended(engine.dialect, feed)
            event.listen(engine, "before_cursor_execute", _note_change)
        else:
            # no pre-ping: it costs a round trip per request; connections are recycled instead
            engine = create_engine(url, pool_size=10, max_overflow=20, pool_recycle=1800)
            event.listen(engine, "before_cursor_execute", _note_dml)
        event.listen(engine, "commit", _count_commit)
        event.listen(engine, "rollback", _forget_changes)
        engine.dialect.notes_changes = True  # ``changed_nothing``
        _engines[url] = engine
    return _engines[url]


def init_db(engine):
    """Create or upgrade the schema with the Alembic migrations (never by hand)."""
    from facilitator.migrations import upgrade
    upgrade(engine)


def dispose_all():
    close_readers()
    for engine in _engines.values():
        engine.dispose()
    _engines.clear()
    changes.close_all()


# ----- the polls' reads -------------------------------------------------------------------------
#: driver connections kept for ``read_row``: (thread, engine) -> (pooled, driver, replaced after)
_readers = {}
_readers_lock = threading.Lock()
#: connections a forked process inherited: never used, never closed (closing one would end the
#: parent's session on the server), only kept from the garbage collector
_inherited = []
#: a kept connection is replaced after this long (as the pool recycles its own)
READER_SECONDS = 1800


def read_row(engine, sql, params=(), rows=None, build=None, within=None):
    """The first row of a read-only ``sql`` (``?`` placeholders, ``params`` in their order), read
    on a driver connection this thread keeps for such reads: no pool checkout, no ORM, no
    statement compiled, no transaction (SQLite's reads outside one; PostgreSQL's connection in
    autocommit). The cheapest read there is: a poll's change check. A connection that fails is
    dropped (a new one next time) and the error raised.

    ``rows``: a function naming the watched rows (``changes.WATCHED``) a found row comes from,
    ``[(table, id), …]``. With it, a server alone on its SQLite file answers the same read again
    from memory, reading nothing, while no write since has touched those rows (``changes``).
    ``build``: what is answered instead of a found row, made from it (kept so: the very same
    object is answered again while the row is, so a caller may tell an answer it knows by
    ``is``). ``within``: a connection (SQLAlchemy's) whose transaction the read is made in, on
    its own driver connection, instead of the reader: a write holding its lock reads the row as
    committed there, where the reader would first catch up with every commit since its last
    read (SQLite drops a connection's cached pages once another has committed)."""
    if rows is not None:
        feed = changes.feed(engine)
        if feed is not None:
            return feed.kept_row((sql, params), lambda: _read_row(engine, sql, params, within), rows, build)
    row = _read_row(engine, sql, params, within)
    return row if build is None or row is None else build(row)


def _read_row(engine, sql, params, within=None):
    if engine.dialect.paramstyle in ("format", "pyformat"):
        sql = sql.replace("?", "%s")
    if within is not None:
        return _read_within(engine.dialect, within, sql, params)
    key = (threading.get_ident(), engine)
    kept = _readers.get(key)
    if kept is None or time.monotonic() > kept[2]:
        if kept is not None:
            _close_reader(key)
        kept = _open_reader(engine)
        with _readers_lock:
            _readers[key] = kept
    try:
        cursor = kept[1].cursor()
        try:
            cursor.execute(sql, params)
            return cursor.fetchone()
        finally:
            cursor.close()
    except Exception:
        _close_reader(key)
        raise


def _read_within(dialect, within, sql, params):
    """The read on the driver connection of ``within``'s transaction. A failure is SQLAlchemy's
    error, as that of a statement sent through it (a locked file is still ``lock_conflict``),
    and a connection found gone is invalidated, as SQLAlchemy does."""
    try:
        cursor = within.connection.cursor()
        try:
            cursor.execute(sql, params)
            return cursor.fetchone()
        finally:
            cursor.close()
    except dialect.loaded_dbapi.Error as err:
        gone = dialect.is_disconnect(err, within.connection, None)
        if gone:
            within.invalidate(err)
        raise DBAPIError.instance(sql, params, err, dialect.loaded_dbapi.Error, connection_invalidated=gone,
                                  dialect=dialect) from err


def _open_reader(engine):
    pooled = engine.raw_connection()
    driver = pooled.driver_connection
    pooled.detach()  # this thread's own from now on: it never goes back to the pool
    if engine.dialect.name == "postgresql":
        driver.autocommit = True  # no transaction left open between two reads
    return pooled, driver, time.monotonic() + READER_SECONDS


def _close_reader(key):
    with _readers_lock:
        kept = _readers.pop(key, None)
    if kept is not None:
        try:
            kept[0].close()
        except Exception:  # noqa: BLE001 - a connection already gone
            pass


def close_readers():
    """Close every kept reader (the engines are being disposed of)."""
    for key in list(_readers):
        _close_reader(key)


def forget_readers():
    """In a forked child: drop the parent's readers without closing them."""
    with _readers_lock:
        _inherited.append(dict(_readers))
        _readers.clear()


@contextlib.contextmanager
def session_scope(engine):
    """A session that commits on success and rolls back on error: a unit of work that writes
    (its transactions take the write lock first)."""
    with writing(), Session(engine, expire_on_commit=False) as session:
        try:
            yield session
            session.commit()
        except Exception:
            session.rollback()
            raise
