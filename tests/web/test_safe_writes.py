"""Safe writes (issue 3, item 5; ARCHITECTURE.md decision 4): every move form names the sequence
number it follows, so a double tap, a resent form or a second tablet never records a move
twice; CSRF on every form with tokens that outlive an idle hour; an undo keeps the undone move
in the log; a reload (or another device) finds the game exactly where it was."""

import pytest

from facilitator import services
from facilitator.rules.lyceum import Move
from facilitator.storage import session_scope

from .helpers import csrf_token, draw_page, each_case, get, load, player_panels, post, record, seq, submit, tablet

pytestmark = pytest.mark.db


def turn(browser, table_id):
    return get(browser, f"/table/{table_id}")


# ----- a double tap, a resent form ---------------------------------------------------------------
def test_the_same_form_posted_twice_records_once_and_says_already_recorded(host, table):
    form = turn(host, table).form("/move/pass")
    first = submit(host, form, follow=True)
    assert first.messages("ok") == ["Аня passed"]
    second = submit(host, form, follow=True)
    assert second.status == 200
    assert second.messages("ok") == ["This move was already recorded; nothing was added."]
    assert [r.seq for r in load(host.application, table).log] == [1]


def test_a_resent_draw_is_recorded_once(host, table):
    form = draw_page(host, table, "green", card="L-G-01").form("/move/draw")
    for _ in range(3):
        submit(host, form, decision="play")
    loaded = load(host.application, table)
    assert len(loaded.log) == 1 and loaded.game.players["Аня"].xp == 100


def test_already_recorded_is_said_in_russian_by_default(client):
    from .helpers import THREE, seated_table
    table_id = seated_table(client, THREE)
    form = get(client, f"/table/{table_id}").form("/move/pass")
    submit(client, form, follow=True)
    again = submit(client, form, follow=True)
    assert "уже записан" in again.messages("ok")[0]


def test_a_resent_form_after_its_move_was_undone_is_stale_not_a_repeat(host, table):
    form = turn(host, table).form("/move/pass")
    submit(host, form)
    submit(host, turn(host, table).form(f"/table/{table}/undo"))
    page = submit(host, form)
    assert page.status == 409
    assert load(host.application, table).active == []


# ----- a second tablet on the same table ----------------------------------------------------------
def test_a_stale_form_from_a_second_tablet_is_refused_with_409(host, table):
    second = tablet(host.application)
    stale_rest = turn(second, table).form("/move/rest")
    submit(host, turn(host, table).form("/move/pass"))
    page = submit(second, stale_rest)
    assert page.status == 409
    assert page.error.startswith("The table has changed on another device since this screen was drawn "
                                 "(move #0, now #1). The move was NOT recorded")
    assert not page.messages("ok")
    loaded = load(host.application, table)
    assert [r.seq for r in loaded.log] == [1] and loaded.record().moves[0].type == "pass"
    # the refusal page is drawn afresh: its forms follow move #1
    assert page.form("/move/rest").fields["after"] == "1"


def test_the_same_move_from_a_second_tablet_is_already_recorded(host, table):
    second = tablet(host.application)
    same_pass = turn(second, table).form("/move/pass")
    submit(host, turn(host, table).form("/move/pass"))
    page = submit(second, same_pass, follow=True)
    assert page.messages("ok") == ["This move was already recorded; nothing was added."]
    assert seq(host.application, table) == 1


def test_two_tablets_racing_for_the_same_sequence_number_record_one_move(host, table, monkeypatch):
    """The second tablet's move is checked against the log it read; the first tablet's move lands
    in between: the unique sequence number refuses the second write."""
    app = host.application
    if app.extensions["facilitator.engine"].dialect.name == "sqlite":
        pytest.skip("on SQLite a write holds the lock from its first read: no other write lands in between "
                    "(tests/events/test_write_lock.py)")
    real_load = services.tables.load  # where the write reads the table
    raced = []

    def load_then_race(session, table_id, **kwargs):
        loaded = real_load(session, table_id, **kwargs)
        if not raced:
            raced.append(True)
            with session_scope(app.extensions["facilitator.engine"]) as other:
                services.record_move(other, table_id, Move("rest", player="Аня"), 0)
        return loaded

    monkeypatch.setattr(services.tables, "load", load_then_race)
    with pytest.raises(services.StaleMove) as err:
        with session_scope(app.extensions["facilitator.engine"]) as s:
            services.record_move(s, table, Move("pass", player="Аня"), 0)
    assert (err.value.expected, err.value.actual, err.value.already) == (0, 1, False)
    monkeypatch.setattr(services.tables, "load", real_load)
    assert [m.type for m in load(app, table).record().moves] == ["rest"]


def test_another_device_finds_the_game_exactly_where_it_was(host, table):
    record(host.application, table, Move("draw", player="Аня", color="green", card="L-G-01", decision="play"),
           Move("rest", player="Борис", redistribute={"health": -1, "intellect": 1}),
           Move("allocate", player="Борис", sp={"energy": 1}))
    here = turn(host, table)
    reload = turn(host, table)
    there = turn(tablet(host.application), table)
    assert player_panels(here) == player_panels(reload) == player_panels(there)
    assert here.form("/move/pass").fields["after"] == there.form("/move/pass").fields["after"] == "3"
    assert "Turn of Вика" in there


# ----- CSRF ---------------------------------------------------------------------------------------
def test_a_move_without_a_csrf_token_is_refused_and_not_recorded(host, table):
    form = turn(host, table).form("/move/pass")
    page = submit(host, form, csrf_token=None)
    assert page.status == 400
    assert "The CSRF token is missing" in page.text
    assert seq(host.application, table) == 0


def test_a_csrf_token_of_another_browser_is_refused(host, table):
    stranger = tablet(host.application)
    page = submit(host, turn(host, table).form("/move/pass"), csrf_token=csrf_token(stranger))
    assert page.status == 400
    assert seq(host.application, table) == 0


def test_every_other_form_needs_the_token_too(host, table):
    def check(url):
        page = post(host, f"/table/{table}{url}", {"after": 0, "seconds": 60}, token=False)
        assert page.status == 400
        assert "CSRF" in page.text
    each_case([("/undo",), ("/timer",), ("/setup",)], check)
    assert seq(host.application, table) == 0 and load(host.application, table).table.timer_seconds is None


def test_a_token_from_two_hours_ago_still_works(host, table, monkeypatch):
    """A tablet may sit idle between rounds: the token of the page it shows must not expire."""
    import itsdangerous.timed
    signer = itsdangerous.timed.TimestampSigner
    now = signer.get_timestamp
    form = turn(host, table).form("/move/pass")
    monkeypatch.setattr(signer, "get_timestamp", lambda self: now(self) + 2 * 3600)  # two hours later
    assert submit(host, form).status == 303
    assert seq(host.application, table) == 1


# ----- undo ---------------------------------------------------------------------------------------
def test_undo_keeps_the_move_in_the_log_and_leaves_it_out_of_the_record(host, table):
    record(host.application, table, Move("draw", player="Аня", color="green", card="L-G-01", decision="play"),
           Move("pass", player="Борис"))
    page = submit(host, turn(host, table).form(f"/table/{table}/undo"), follow=True)
    assert page.messages("ok") == ["Move #2 (pass) was undone; it stays in the history, marked undone."]
    assert "Turn of Борис" in page
    loaded = load(host.application, table)
    assert [(r.seq, r.kind) for r in loaded.log] == [(1, "move"), (2, "move"), (3, "undo")]
    assert set(loaded.undone) == {2} and loaded.undone[2].undoes == 2
    assert [m.type for m in loaded.record().moves] == ["draw"]
    exported = host.get(f"/table/{table}/record.json").get_json()
    assert [m["type"] for m in exported["moves"]] == ["draw"]
    # a second undo takes back the move before
    submit(host, turn(host, table).form(f"/table/{table}/undo"))
    loaded = load(host.application, table)
    assert set(loaded.undone) == {1, 2} and loaded.record().moves == []
    assert loaded.game.players["Аня"].xp == 0


def test_a_stale_undo_is_refused(host, table):
    record(host.application, table, Move("pass", player="Аня"))
    undo_form = turn(host, table).form(f"/table/{table}/undo")
    record(host.application, table, Move("pass", player="Борис"))
    page = submit(host, undo_form)
    assert page.status == 409
    assert page.error == "The table has changed on another device (move #1, now #2); nothing was undone."
    assert load(host.application, table).undone == {}


def test_nothing_to_undo(host, table):
    page = post(host, f"/table/{table}/undo", {"after": 0})
    assert page.status == 409
    assert page.error == "There is no move to undo"
