"""Alembic environment: runs on the connection handed over by ``facilitator.migrations.upgrade``
or, from the alembic command line, on ``sqlalchemy.url`` / ``DATABASE_URL``."""

from alembic import context
from sqlmodel import SQLModel

from facilitator.storage import models  # noqa: F401  (registers the tables)
from facilitator.storage.db import get_engine

config = context.config
target_metadata = SQLModel.metadata


def run_migrations_offline():
    context.configure(url=config.get_main_option("sqlalchemy.url"), target_metadata=target_metadata,
                      literal_binds=True, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online():
    connection = config.attributes.get("connection")
    if connection is None:
        from facilitator.migrations import foreign_keys_off
        engine = get_engine(config.get_main_option("sqlalchemy.url") or None)
        with engine.connect() as connection, foreign_keys_off(connection):
            with connection.begin():
                _run(connection)
    else:
        _run(connection)


def _run(connection):
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
