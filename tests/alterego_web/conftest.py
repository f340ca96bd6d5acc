"""Fixtures of the Alter Ego screens' tests (``app``, ``client`` and ``anon_client`` come from
tests/conftest.py: each test runs on SQLite and, when reachable, PostgreSQL)."""

import pytest

from .helpers import THREE, seated


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
