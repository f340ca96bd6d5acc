"""Fixtures of the host's-tablet tests (on top of ``app``/``client`` of tests/conftest.py, which
run each test on SQLite and, when reachable, PostgreSQL)."""

import pytest

from .helpers import THREE, seated_table


@pytest.fixture
def host(client):
    """The host's tablet with the English interface chosen (messages are checked by their
    English text; the Russian default has tests of its own)."""
    client.get("/?lang=en")
    return client


@pytest.fixture
def table(host):
    """A table of three (Аня, Борис, Вика, in that turn order) seated through the setup screen."""
    return seated_table(host, THREE)
