"""A table's host reaches only their own table (issue 5, item 2): the host link (QR code) or
the PIN opens that one table, every other table's pages and forms answer 403 and change
nothing, and reissuing a table's token revokes the old link, the old PIN and every browser
that used them."""

import pytest

from .helpers import (csrf_token, english, flashes, host_browser, loaded, log_of, move_forms, new_event, post,
                      seated_table, table_row)

pytestmark = pytest.mark.db


@pytest.fixture
def tables(app):
    """Two tables of one event, both two moves into their games (waiting for a main move)."""
    event_id = new_event(app)
    return event_id, seated_table(app, event_id, "Стол А", seed=1), seated_table(app, event_id, "Стол Б", seed=2)


def pin_browser(app, table_id):
    """A tablet that opened its table by typing the PIN on /pin."""
    browser = english(app.test_client())
    response = post(browser, "/pin", {"pin": table_row(app, table_id).pin})
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/table/{table_id}")
    return browser


OPENED_BY = {"host link": host_browser, "PIN": pin_browser}


def other_tables_pages(table_id):
    """Every page of the host's tablet that shows a table's state."""
    url = f"/table/{table_id}"
    return [url, f"{url}/setup", f"{url}/draw?color=green", f"{url}/draw/manual?color=green", f"{url}/final",
            f"{url}/record.json"]


@pytest.mark.parametrize("opened_by", OPENED_BY)
def test_a_host_runs_their_own_table(app, tables, opened_by):
    _, own, _ = tables
    browser = OPENED_BY[opened_by](app, own)
    assert browser.get(f"/table/{own}").status_code == 200
    assert browser.get(f"/table/{own}/record.json").status_code == 200
    # every form the refusals below are tried with is accepted from the table's own host
    for label in ("pass", "rest", "draw", "adjust", "timer"):
        before = len(log_of(app, own))
        forms = {name: (url, fields) for name, url, fields in move_forms(app, own)}
        response = post(browser, *forms[label])
        assert response.status_code == 303, (label, response.status_code)
        if label != "timer":  # a move: recorded, then taken back for the next form
            assert len(log_of(app, own)) == before + 1, label
            undo = post(browser, f"/table/{own}/undo", {"after": loaded(app, own).seq})
            assert undo.status_code == 303, label
    assert table_row(app, own).timer_seconds == 60
    index = browser.get("/").get_data(as_text=True)
    assert "Стол А" in index and "Стол Б" not in index


@pytest.mark.parametrize("opened_by", OPENED_BY)
def test_a_host_can_neither_read_nor_change_another_table(app, tables, opened_by):
    _, own, other = tables
    browser = OPENED_BY[opened_by](app, own)
    for url in other_tables_pages(other):
        assert browser.get(url).status_code == 403, url
    log = log_of(app, other)
    token = csrf_token(browser, f"/table/{own}")
    for label, url, fields in move_forms(app, other):
        response = post(browser, url, fields, token=token)
        assert response.status_code == 403, (label, response.status_code)
    # the setup of another table cannot be posted either
    assert post(browser, f"/table/{other}/setup", {"players-0-name": "Чужой"}, token=token).status_code == 403
    assert log_of(app, other) == log
    # and the host's tablet cannot import a game record: that is the organizer's
    assert post(browser, "/tables/import", {}, token=token).status_code == 403


def test_a_guess_at_a_token_opens_nothing(app, tables, anon_client):
    _, own, _ = tables
    response = anon_client.get("/t/not-the-token")
    assert response.status_code == 303 and response.headers["Location"].endswith("/pin")
    assert anon_client.get(f"/table/{own}").status_code == 403
    # a prefix of the real token is no token either
    assert anon_client.get(f"/t/{table_row(app, own).token[:-1]}").headers["Location"].endswith("/pin")
    assert anon_client.get(f"/table/{own}").status_code == 403


def test_reissuing_the_token_revokes_the_old_link_pin_and_every_browser_that_used_them(app, tables, client):
    event_id, own, _ = tables
    old = table_row(app, own)
    by_link, by_pin = host_browser(app, own), pin_browser(app, own)

    organizer = english(client)
    response = post(organizer, f"/organizer/events/{event_id}/tables/{own}/reissue", follow_redirects=True)
    new = table_row(app, own)
    assert new.token != old.token and new.pin != old.pin
    assert any(new.pin in message for message in flashes(response, "ok")), flashes(response)

    for browser in (by_link, by_pin):
        assert browser.get(f"/table/{own}").status_code == 403
        assert post(browser, *move_forms(app, own)[0][1:]).status_code == 403
    stale = english(app.test_client())
    response = stale.get(f"/t/{old.token}", follow_redirects=True)
    assert "reissued" in " ".join(flashes(response, "error"))
    assert stale.get(f"/table/{own}").status_code == 403
    assert post(stale, "/pin", {"pin": old.pin}).status_code == 401
    assert stale.get(f"/table/{own}").status_code == 403

    # the new link and the new PIN work
    assert host_browser(app, own).get(f"/table/{own}").status_code == 200
    assert pin_browser(app, own).get(f"/table/{own}").status_code == 200


def test_the_api_takes_a_move_only_with_that_tables_token(app, tables):
    """Scripts post moves with ``Authorization: Bearer <token>``: another table's token, or a
    browser that opened another table, changes nothing."""
    _, own, other = tables
    api = app.test_client()

    def pass_move(table_id, **headers):
        table = loaded(app, table_id)
        body = {"after": table.seq, "move": {"type": "pass", "player": table.game.next()["player"]}}
        return api.post(f"/api/v1/tables/{table_id}/moves", json=body, headers=headers)

    log = log_of(app, other)
    token = table_row(app, own).token
    assert pass_move(other, Authorization=f"Bearer {token}").status_code == 403
    assert pass_move(other).status_code == 401  # no credential at all: a script is told to authenticate
    host = host_browser(app, own)
    table = loaded(app, other)
    body = {"after": table.seq, "move": {"type": "pass", "player": table.game.next()["player"]}}
    assert host.post(f"/api/v1/tables/{other}/moves", json=body).status_code == 403
    assert host.post(f"/api/v1/tables/{other}/undo", json={"after": table.seq}).status_code == 403
    assert log_of(app, other) == log
    assert pass_move(own, Authorization=f"Bearer {token}").status_code == 201
