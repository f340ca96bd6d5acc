"""The database engine: the embedded SQLite file under the instance folder by default (WAL
mode, a busy timeout), or PostgreSQL through ``DATABASE_URL`` for a shared event server."""

import contextlib
import os
from pathlib import Path

from sqlalchemy import event
from sqlmodel import Session, create_engine

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


def _sqlite_pragmas(dbapi_connection, _record):
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def get_engine(url=None):
    """One engine per URL, created on first use."""
    url = database_url(url)
    if url not in _engines:
        if url.startswith("sqlite"):
            engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 5})
            event.listen(engine, "connect", _sqlite_pragmas)
        else:
            # no pre-ping: it costs a round trip per request; connections are recycled instead
            engine = create_engine(url, pool_size=10, max_overflow=20, pool_recycle=1800)
        _engines[url] = engine
    return _engines[url]


def init_db(engine):
    """Create or upgrade the schema with the Alembic migrations (never by hand)."""
    from ..migrations import upgrade
    upgrade(engine)


def dispose_all():
    for engine in _engines.values():
        engine.dispose()
    _engines.clear()


@contextlib.contextmanager
def session_scope(engine):
    """A session that commits on success and rolls back on error."""
    with Session(engine, expire_on_commit=False) as session:
        try:
            yield session
            session.commit()
        except Exception:
            session.rollback()
            raise
