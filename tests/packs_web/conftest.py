"""Fixtures of the pack editor's tests, on top of ``app``/``client``/``anon_client`` of
tests/conftest.py (each test runs on SQLite and, when reachable, PostgreSQL). ``client`` is the
organizer's browser; with no language chosen it shows the Russian default."""

import pytest

from facilitator.services import events

from .helpers import db


@pytest.fixture
def english(client):
    """The organizer's browser with English chosen."""
    client.get("/?lang=en")
    return client


@pytest.fixture
def host_only(app):
    """A host's tablet: it opened its table with the host link of the access sheet, so it may run
    that table, but it is not signed in as the organizer."""
    with db(app) as s:
        event = events.create_event(s, "Кубок лицея", "2026-11-29", ruleset="lyceum-16-25")
        table = events.add_table(s, event, "Стол 1")
        table_id, token = table.id, table.token
    browser = app.test_client()
    response = browser.get(f"/t/{token}")
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/table/{table_id}")
    return browser
