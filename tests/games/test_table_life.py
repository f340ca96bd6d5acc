"""One life of a table, the same for every game the app hosts (ARCHITECTURE.md decision 13,
issue 19): written once, run for each registered game and for the test game installed from a
package of its own (``tests/plugin_game``), each driven by its driver (``drivers.py``).

For every game: a double tap of a move records it once; a second tablet's stale screen is
refused (409) with the app's one wording; undo takes back the last move and an undo from a
stale screen is refused (409); a table whose log no longer replays shows "needs checking" (409)
on every screen and takes no write; a table not set up yet opens on its setup from every screen; a move the rules refuse is 422 and one that is not a move 400; and the
outbox's path (the JSON batch the tablet sends a queued form as) takes and refuses the same
moves as the form's own post.
"""

import json

import pytest
from sqlmodel import select

from facilitator import games, services
from facilitator.i18n import use_locale
from facilitator.storage.models import GameTable, MoveRow
from facilitator.web.games import stale_text
from facilitator.web.table import reads_move_forms
from tests.pages import Page, db, english, get, organizer_browser
from tests.queued_forms import queue

from .drivers import DRIVERS, new_table
from .outbox import move_of
from . import plugin

#: every game the app registers, and the test game (installed while this module runs)
GAMES = [g.key for g in games.registered()] + [plugin.KEY]


@pytest.fixture(params=GAMES)
def driver(request):
    return DRIVERS[request.param]


@pytest.fixture
def host(client):
    """The organizer's tablet, in English (every game speaks it)."""
    return english(client)


def seated(app, client, driver, name="Table 1"):
    """A table of the driver's game, seated through its setup screen; its id."""
    table_id = new_table(app, driver.key, name)
    setup = get(client, driver.url(table_id, "/setup"))
    assert setup.status == 200, setup.status
    response = client.post(driver.url(table_id, "/setup"), data={**driver.setup, "csrf_token": _token(setup)})
    assert response.status_code == 303, (response.status_code, Page(response).text[:1500])
    return table_id


def _token(page):
    return next(f.fields["csrf_token"] for f in page.forms if "csrf_token" in f.fields)


def turn(client, driver, table_id):
    page = get(client, driver.url(table_id))
    assert page.status == 200, (page.status, page.text[:1500])
    return page


def post_form(client, page, move, follow=False, **more):
    """Post the turn screen's form of ``move`` as the host fills it (``more``: ``after`` and the like)."""
    form = page.form(f"/move/{move.kind}")
    return Page(client.post(form.action, data=form.data(**move.changes, **more), follow_redirects=follow))


def queued(page, move):
    """The move the tablet's outbox sends for that form."""
    form = page.form(f"/move/{move.kind}")
    return move_of(page.html, form.action, form.data(**move.changes))


def send_batch(client, table_id, *items):
    """The outbox's request: ``items`` are ``(after, move, client id)``."""
    body = {"flash": True, "moves": [{"after": after, "move": move, "client_id": cid} for after, move, cid in items]}
    response = client.post(f"/api/v1/tables/{table_id}/moves/batch", json=body)
    assert response.status_code in (200, 207), (response.status_code, response.get_data(as_text=True)[:500])
    return response.status_code, response.get_json()


def log_of(app, table_id):
    """The table's log: ``[(seq, kind, move without its time, undoes)]``."""
    with db(app) as s:
        rows = s.exec(select(MoveRow).where(MoveRow.table_id == table_id).order_by(MoveRow.seq)).all()
        return [(r.seq, r.kind, _timeless(json.loads(r.data)) if r.data else None, r.undoes) for r in rows]


def _timeless(move):
    return {k: v for k, v in move.items() if k != "at"}


def stale(app, expected, actual, undo=False):
    """The app's one wording of a stale write, in English."""
    with app.test_request_context(), use_locale("en"):
        return stale_text(services.StaleMove(expected, actual, False), undo=undo)


# ----- the tests -----------------------------------------------------------------------------------
def test_every_registered_game_has_a_driver(tally):
    """A game the app registers without a driver here would miss these tests."""
    registered = {g.key for g in games.registered()}
    assert plugin.KEY in registered, "the test game is installed through its entry point"
    assert registered <= set(DRIVERS), f"no driver for {sorted(registered - set(DRIVERS))} in tests/games/drivers.py"


def test_a_double_tap_records_the_move_once_on_both_paths(app, host, driver):
    by_form, by_outbox = seated(app, host, driver, "Table 1"), seated(app, host, driver, "Table 2")
    page = turn(host, driver, by_form)
    first = post_form(host, page, driver.legal)
    assert first.status == 303, (first.status, first.text[:1000])
    again = post_form(host, page, driver.legal, follow=True)
    assert again.status == 200 and "This move was already recorded; nothing was added." in again.messages("ok")
    [(seq, kind, recorded, _)] = log_of(app, by_form)
    assert (seq, kind) == (1, "move")

    move = queued(turn(host, driver, by_outbox), driver.legal)
    status, body = send_batch(host, by_outbox, (0, move, "tap-1"))
    assert status == 200 and body["recorded"] == [{"client_id": "tap-1", "seq": 1, "already": False}], body
    status, body = send_batch(host, by_outbox, (0, move, "tap-1"))
    assert status == 200 and body["recorded"] == [{"client_id": "tap-1", "seq": 1, "already": True}], body
    [(_, _, sent, _)] = log_of(app, by_outbox)
    assert sent == recorded, "the outbox sends the move the form records"


def confirmation(app, driver, table_id):
    """What the screen says of the table's last move (its game's narration, in English), as one
    message: the lines the confirmation of a recorded move shows."""
    from facilitator.web.table import narration
    with app.test_request_context(), use_locale("en"), db(app) as s:
        return " ".join(" ".join(narration(games.get(driver.key), services.load(s, table_id))).split()) or "Recorded"


def test_a_recorded_move_is_confirmed_by_the_screen_it_leads_to_and_no_session_is_written(app, host, driver):
    """The host is sent to the table's screen at ``?done=<seq>``, which says what the move
    changed, drawn from the position: neither the move's POST nor the screen writes the session
    cookie. The same address opened again once the table moved on says nothing. The outbox's
    answer names the move's seq the same way, for the screen it goes to next."""
    by_form, by_outbox = seated(app, host, driver, "Table 1"), seated(app, host, driver, "Table 2")
    page = turn(host, driver, by_form)
    sent = post_form(host, page, driver.legal)
    assert sent.status == 303 and "Set-Cookie" not in sent.response.headers, sent.response.headers
    assert sent.response.location == driver.url(by_form) + "?done=1"
    shown = get(host, sent.response.location)
    assert shown.status == 200 and "Set-Cookie" not in shown.response.headers
    said = confirmation(app, driver, by_form)
    assert shown.messages("ok") == [said] and said not in ("", "Recorded"), shown.flashes

    after = post_form(host, turn(host, driver, by_form), driver.then or driver.legal, after=1)
    assert after.status == 303 and after.response.location == driver.url(by_form) + "?done=2"
    assert get(host, sent.response.location).messages("ok") == [], "the table moved on: ?done=1 says nothing"

    form = turn(host, driver, by_outbox).form(f"/move/{driver.legal.kind}")
    answer = queue(host, by_outbox, form.action, form.data(**driver.legal.changes), after=0)
    if not reads_move_forms(games.get(driver.key)):  # the test game: no form of it can be queued
        assert answer.status_code == 207 and answer.get_json()["refused"]["code"] == "malformed", answer.get_json()
        return
    assert answer.status_code == 200 and answer.get_json()["done"] == 1 and "Set-Cookie" not in answer.headers
    assert get(host, driver.url(by_outbox) + "?done=1").messages("ok") == [confirmation(app, driver, by_outbox)]


def test_a_second_tablets_stale_screen_is_refused_with_the_shared_wording(app, host, driver):
    table_id = seated(app, host, driver)
    other = english(organizer_browser(app))
    mine, theirs = turn(host, driver, table_id), turn(other, driver, table_id)
    assert post_form(host, mine, driver.legal).status == 303
    late = post_form(other, theirs, driver.illegal)  # another move, drawn for the position before it
    assert late.status == 409, (late.status, late.text[:1000])
    assert stale(app, 0, 1) in late.text
    status, body = send_batch(other, table_id, (0, queued(theirs, driver.illegal), "late-1"))
    assert status == 207 and body["refused"]["code"] == "stale" and body["refused"]["message"] == stale(app, 0, 1)
    assert [row[:2] for row in log_of(app, table_id)] == [(1, "move")]


def test_undo_takes_back_the_last_move_and_a_stale_undo_is_refused(app, host, driver):
    table_id = seated(app, host, driver)
    assert post_form(host, turn(host, driver, table_id), driver.legal).status == 303
    page = turn(host, driver, table_id)
    undo = page.form("/undo")
    assert undo.fields["after"] == "1"
    done = host.post(undo.action, data=undo.data())
    assert done.status_code == 303, done.status_code
    assert [row[1::2] for row in log_of(app, table_id)] == [("move", None), ("undo", 1)]
    with db(app) as s:
        assert services.load(s, table_id).active == [], "no move is in force after the undo"
    again = Page(host.post(undo.action, data=undo.data()))  # the same screen's undo, sent again
    assert again.status == 409 and stale(app, 1, 2, undo=True) in again.text
    assert len(log_of(app, table_id)) == 2
    assert turn(host, driver, table_id).form(f"/move/{driver.legal.kind}").fields["after"] == "2"


def test_a_table_whose_log_no_longer_replays_needs_checking_and_takes_no_write(app, host, driver):
    table_id = seated(app, host, driver)
    first = turn(host, driver, table_id)
    assert post_form(host, first, driver.legal).status == 303
    undo = turn(host, driver, table_id).form("/undo")
    with db(app) as s:  # a move row no engine reads, as a changed engine or pack leaves one
        table = s.get(GameTable, table_id)
        s.add(MoveRow(table_id=table_id, seq=2, kind="move", data=json.dumps({"type": "no-such-move"})))
        table.seq, table.move_count = 2, 2
        s.add(table)
    for tail in screens(driver, after=2):  # the main screen, the final one, a page bound to the position now
        screen = host.get(driver.url(table_id, tail))
        assert screen.status_code == 409 and 'data-status="broken"' in screen.get_data(as_text=True), tail
        assert "This table needs checking" in Page(screen).text, tail
    refused = post_form(host, first, driver.legal, after=2)  # the move form, sent as if drawn for the table now
    assert refused.status == 409 and 'data-status="broken"' in refused.html
    undone = host.post(undo.action, data=undo.data(after=2))
    assert undone.status_code == 409 and 'data-status="broken"' in undone.get_data(as_text=True)
    status, body = send_batch(host, table_id, (2, queued(first, driver.legal), "broken-1"))
    assert status == 207 and body["refused"]["code"] == "needs_checking" and body["needs_checking"] is True
    assert [row[0] for row in log_of(app, table_id)] == [1, 2], "nothing was written to the broken table"


def screens(driver, after):
    """The screens a table is opened on: its main screen, its final results and, when the game has
    one, a page leading to a move drawn for the position ``after``."""
    return ["", "/final"] + ([f"{driver.bound}?after={after}"] if driver.bound else [])


def test_a_table_not_set_up_opens_on_its_setup_from_every_screen_and_no_table_is_404(app, host, driver):
    table_id = new_table(app, driver.key)
    for tail in screens(driver, after=0):
        response = host.get(driver.url(table_id, tail), follow_redirects=True)
        assert response.status_code == 200 and response.request.path == driver.url(table_id, "/setup"), \
            (tail, response.status_code, response.request.path)
        assert host.get(driver.url(table_id + 1000, tail)).status_code == 404, tail
    assert log_of(app, table_id) == []


def test_a_move_the_rules_refuse_is_422_and_one_not_a_move_400_on_both_paths(app, host, driver):
    table_id = seated(app, host, driver)
    page = turn(host, driver, table_id)
    illegal = post_form(host, page, driver.illegal)
    assert illegal.status == 422, (illegal.status, illegal.text[:1000])
    status, body = send_batch(host, table_id, (0, queued(page, driver.illegal), "illegal-1"))
    refusal = body["refused"]
    assert status == 207 and refusal["code"] not in ("malformed", "stale", "needs_checking"), refusal
    assert refusal["message"] in illegal.text, "the screen and the outbox say the same refusal"
    malformed = post_form(host, page, driver.malformed)
    assert malformed.status == 400, (malformed.status, malformed.text[:1000])
    status, body = send_batch(host, table_id, (0, queued(page, driver.malformed), "malformed-1"))
    assert status == 207 and body["refused"]["code"] == "malformed", body["refused"]
    assert log_of(app, table_id) == [], "nothing refused was recorded"


def test_the_api_state_and_moves_fit_the_games_schemas_in_the_openapi_document(app, host, driver):
    """Issue 20 item 5: a table's state, before and after its setup and a move, fits its game's
    ``<key>.TableState`` of the OpenAPI document, and the move the outbox sends its ``<key>.Move``."""
    from tests.schema_check import schema_errors
    doc = host.get("/api/v1/openapi.json").get_json()
    unseated = new_table(app, driver.key, "Table 9")
    state = host.get(f"/api/v1/tables/{unseated}").get_json()
    assert state["setup_done"] is False and schema_errors(doc, f"{driver.key}.TableState", state) == []
    table_id = seated(app, host, driver)
    state = host.get(f"/api/v1/tables/{table_id}").get_json()
    assert state["setup_done"] is True and schema_errors(doc, f"{driver.key}.TableState", state) == []
    move = queued(turn(host, driver, table_id), driver.legal)
    assert schema_errors(doc, f"{driver.key}.Move", move) == [] and schema_errors(doc, "Move", move) == []
    status, state = send_batch(host, table_id, (0, move, "m-1"))
    assert status == 200 and schema_errors(doc, "TableState", state) == []
