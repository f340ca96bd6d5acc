"""The database behind the services: one engine per URL, one session per unit of work, and the
one-time start-up work (migrations, the shipped packs, the organizer's password from the
environment, a shared database's secret key) done once however many server processes start at
the same moment.

Several processes: ``facilitator serve --workers N`` forks 2–4 workers. Each worker gets its own
connections (a pool is emptied in a forked child, never shared across the fork), and the
start-up work runs under a lock (PostgreSQL's advisory lock, a file lock beside a SQLite
database), so one worker migrates and the others find the work done.
"""

import contextlib
import fcntl
import os
import zlib
from pathlib import Path

from sqlalchemy import event
from sqlalchemy.exc import OperationalError
from sqlmodel import Session

from facilitator.storage.changes import set_enabled as answer_from_memory
from facilitator.storage.db import (database_url, dispose_all, forget_readers, get_engine, init_db, instance_path,
                                    is_writing, read_row, reset_writing, session_scope, set_writing, writes_committed,
                                    writing)

__all__ = ["engine_for", "new_session", "session_scope", "startup", "dispose_all", "database_url",
           "instance_path", "after_commit", "pending", "has_written", "writing", "set_writing", "reset_writing", "is_writing",
           "lock_conflict", "writes_committed", "read_row", "answer_from_memory"]

STARTUP_LOCK = zlib.crc32(b"facilitator start-up")  # the advisory lock's number


def engine_for(url=None):
    return get_engine(url)


def new_session(engine):
    """A session whose objects stay readable after commit (a request renders after it writes)."""
    return Session(engine, expire_on_commit=False)


def after_commit(session, action):
    """Run ``action()`` once ``session`` commits, never if it rolls back: a table's newest game
    is put in the process's cache only when its move is really stored."""
    session.info.setdefault("after_commit", []).append(action)


def pending(session):
    """What this session wrote and has not committed yet, for its own later reads (a batch's next
    move reads the position its previous one made): ``{name: value}``, gone at the commit or
    at any rollback."""
    return session.info.setdefault("pending", {})


def has_written(session):
    """Whether something waits for this session's commit: what it reads now may include rows that
    are never stored, so it is no other session's to read yet."""
    return bool(session.info.get("after_commit"))


@event.listens_for(Session, "after_commit")
def _run_after_commit(session):
    # SQLAlchemy says a savepoint's release is a commit too: the transaction around it may still
    # fail, so what waits for the commit keeps waiting for the outermost one
    if session.in_nested_transaction():
        return
    session.info.pop("pending", None)
    for action in session.info.pop("after_commit", []):
        action()


@event.listens_for(Session, "after_rollback")
def _drop_after_commit(session):
    session.info.pop("after_commit", None)
    session.info.pop("pending", None)


def lock_conflict(err):
    """Whether ``err`` is SQLite refusing a write because another connection wrote first (a
    transaction that began by reading, outside ``writing()``): such a unit of work succeeds
    when it is run again with the write lock taken first."""
    if not isinstance(err, OperationalError):
        return False
    text = str(getattr(err, "orig", err)).lower()
    return "database is locked" in text or "database table is locked" in text


@contextlib.contextmanager
def _startup_lock(engine):
    """Held while one process does the start-up work; the others wait for it."""
    if engine.dialect.name == "postgresql":
        with engine.connect() as connection:
            connection.exec_driver_sql(f"SELECT pg_advisory_lock({STARTUP_LOCK})")
            try:
                yield
            finally:
                connection.exec_driver_sql(f"SELECT pg_advisory_unlock({STARTUP_LOCK})")
                connection.commit()
        return
    path = engine.url.database
    lock_path = Path(path + ".startup-lock") if path and path != ":memory:" else instance_path() / "startup.lock"
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with open(lock_path, "a+") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def startup(engine, shipped=True):
    """Migrate the schema and store what the app ships (the sample packs, the organizer's
    password from ``FACILITATOR_ORGANIZER_PASSWORD``, a shared database's secret key: see
    ``services.keys``), once, under the start-up lock. Leaves no connection open, so a server
    that forks its workers after this shares none. ``shipped`` False only migrates (a command
    that manages the library itself)."""
    from facilitator.services import keys
    from facilitator.services.access import ensure_password_from_env
    from facilitator.services.packs import ensure_shipped_packs
    with _startup_lock(engine), writing():
        init_db(engine)
        if shipped:
            with session_scope(engine) as s:
                ensure_shipped_packs(s)
                ensure_password_from_env(s)
                keys.ensure_stored(s)  # servers starting together on one database agree on one key
                from facilitator.services.tables import recheck_after_a_rules_change
                recheck_after_a_rules_change(s)
    engine.dispose()


def _after_fork_in_child():
    # a forked worker must not use its parent's pooled connections: drop them without closing
    # (closing would end the parent's sessions on the server)
    from facilitator.storage import db
    for engine in list(db._engines.values()):
        engine.dispose(close=False)
    forget_readers()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
