"""Fixtures of the Alter Ego screens' tests (``app``, ``client`` and ``anon_client`` come from
tests/conftest.py).

The screens' tests run on the embedded SQLite default only, to stay within a minute: the
services they call are tested on both backends elsewhere, and ``test_postgresql.py`` plays
the moves of these screens (safe writes included) on PostgreSQL too, when a server is
reachable, by asking for ``db_url`` with ``indirect`` parameters."""

import shutil

import conftest as root  # tests/conftest.py: the backends and how a fresh database is made
import pytest

from .helpers import THREE, seated


@pytest.fixture
def db_url(request, tmp_path, tmp_path_factory):
    backend = getattr(request, "param", "sqlite")
    if backend == "sqlite":
        path = tmp_path / "test.db"
        template = getattr(root, "_sqlite_template", None)
        if template is not None:  # a migrated copy, when the shared fixtures keep one
            shutil.copyfile(template(tmp_path_factory), path)
        yield f"sqlite:///{path}"
        return
    if root.POSTGRES_URL is None:
        pytest.skip("no PostgreSQL server reachable on 127.0.0.1:5432")
    empty = getattr(root, "_empty_postgres", None)
    if empty is not None:
        engine = empty()
    else:
        from sqlalchemy import text
        from sqlmodel import SQLModel

        from facilitator.storage import get_engine
        from facilitator.storage import models  # noqa: F401
        engine = get_engine(root.POSTGRES_URL)
        SQLModel.metadata.drop_all(engine)
        with engine.begin() as conn:
            conn.execute(text("DROP TABLE IF EXISTS alembic_version"))
    yield root.POSTGRES_URL
    engine.dispose()


@pytest.fixture
def host(client):
    """The organizer's tablet with the English interface chosen (messages are checked by
    their English text; Finnish and Russian have tests of their own)."""
    client.get("/ae/packs?lang=en")
    return client


@pytest.fixture
def table(app, host):
    """A table of three seated through the setup screen: Aino, Bertta, Cecilia, Aino first."""
    return seated(app, host, THREE, first="Aino")
