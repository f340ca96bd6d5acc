"""Alembic migrations: the schema is created and upgraded by these, never by hand."""

from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from alembic import command
from alembic.config import Config

HERE = Path(__file__).resolve().parent


def alembic_config(url=None):
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    if url:
        cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


@lru_cache(maxsize=1)
def head_revision():
    """The newest revision of the migration scripts (read once per process)."""
    from alembic.script import ScriptDirectory
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current_revision(engine):
    from alembic.runtime.migration import MigrationContext
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def upgrade(engine, revision="head"):
    """Bring the database behind ``engine`` to ``revision`` (the newest by default). A database
    already at the newest revision is left alone without loading Alembic's environment: every
    start of a server (and of each worker) checks it."""
    if revision == "head" and current_revision(engine) == head_revision():
        return
    cfg = alembic_config()
    with engine.connect() as connection, foreign_keys_off(connection):
        with connection.begin():
            cfg.attributes["connection"] = connection
            command.upgrade(cfg, revision)


@contextmanager
def foreign_keys_off(connection):
    """SQLite cannot alter a column in place: a migration copies the table and drops the old
    one, which its foreign-key check refuses while other tables point at it. The check is off
    for the migration (it can only be switched outside a transaction) and on again after it."""
    sqlite = connection.dialect.name == "sqlite"
    if sqlite:
        # on the driver's connection: through SQLAlchemy the pragma would run inside the
        # transaction it begins, where SQLite ignores it
        connection.connection.driver_connection.execute("PRAGMA foreign_keys=OFF")
    try:
        yield connection
    finally:
        if sqlite:
            connection.rollback()
            connection.connection.driver_connection.execute("PRAGMA foreign_keys=ON")
