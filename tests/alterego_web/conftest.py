"""Fixtures of the Alter Ego screens' tests (``app``, ``client`` and ``anon_client`` come from
tests/conftest.py).

The screens' tests run on the embedded SQLite default only, to stay within a minute: the
services they call are tested on both backends elsewhere, and ``test_postgresql.py`` plays
the moves of these screens (safe writes included) on PostgreSQL when a server is reachable."""

import pytest

from .helpers import THREE, seated


@pytest.fixture
def db_url(tmp_path):
    yield f"sqlite:///{tmp_path / 'test.db'}"


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
