"""The schema is created and upgraded by the Alembic migrations, never by hand (issue 5, item 5):
a fresh database ends at the newest revision with exactly the tables the models describe, and
upgrading again — at start-up or with the ``alembic`` command — changes nothing."""

import subprocess
import sys

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect
from sqlmodel import SQLModel, select

from facilitator.migrations import HERE, alembic_config
from facilitator.storage.models import Event

from .helpers import db, new_event

pytestmark = pytest.mark.db


def head():
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current(engine):
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def differences(engine):
    """What autogenerate would still change to make the database match the models."""
    with engine.connect() as connection:
        return compare_metadata(MigrationContext.configure(connection), SQLModel.metadata)


def test_a_fresh_database_is_migrated_to_the_newest_revision(app):
    engine = app.extensions["facilitator.engine"]
    assert current(engine) == head()
    tables = set(inspect(engine).get_table_names())
    assert {"alembic_version", "content_pack", "event", "game_table", "move", "setting"} <= tables
    assert differences(engine) == []


def alembic_upgrade(url, folder):
    """``alembic upgrade head`` on the command line, as an administrator runs it on the server."""
    ini = folder / "alembic.ini"
    ini.write_text(f"[alembic]\nscript_location = {HERE}\nsqlalchemy.url = {url.replace('%', '%%')}\n")
    done = subprocess.run([sys.executable, "-m", "alembic", "-c", str(ini), "upgrade", "head"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_upgrading_again_changes_nothing(app, db_url, tmp_path):
    from facilitator.storage import get_engine, init_db
    engine = app.extensions["facilitator.engine"]
    event_id = new_event(app, "Кубок лицея")
    init_db(engine)  # what every start of the server does
    assert current(engine) == head()
    alembic_upgrade(db_url, tmp_path)
    assert current(engine) == head()
    assert differences(engine) == []
    with db(app) as s:
        assert [e.name for e in s.exec(select(Event).where(Event.id == event_id)).all()] == ["Кубок лицея"]

    # the same command on an empty database creates the whole schema
    empty = f"sqlite:///{tmp_path / 'empty.db'}"
    alembic_upgrade(empty, tmp_path)
    assert current(get_engine(empty)) == head() and differences(get_engine(empty)) == []
