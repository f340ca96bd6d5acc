"""The setup screen (RULES.md 2): 2 to 3 players, each with the 3 actives dealt (distinct across
the table), the birth date optional, the first player proposed by the engine and confirmed."""

from facilitator import services
from facilitator.storage import session_scope

from .helpers import (AINO, BERTTA, CECILIA, THREE, TWO, engine, game_of, get, loaded, new_table, play, post,
                      seat, setup_fields)


def test_the_setup_screen_offers_every_active_of_the_pack_for_each_seat(app, host):
    table_id = new_table(app)
    page = get(host, f"/ae/table/{table_id}/setup")
    assert page.status == 200
    form = page.form(f"/ae/table/{table_id}/setup")
    for seat_no in range(3):  # the 3rd-edition deck of 9 actives seats 2 or 3 players
        for j in range(3):
            options = form.selects[f"players-{seat_no}-actives-{j}"]
            assert options[0] == "" and len(options) == 10 and "pare" in options and "tommi" in options
    assert "players-3-name" not in form.fields
    assert 'data-table="%d"' % table_id in page.html and 'data-seq="0"' in page.html


def test_without_a_first_player_the_engines_proposal_is_preselected_with_its_reason(app, host):
    table_id = new_table(app)
    page = post(host, f"/ae/table/{table_id}/setup", setup_fields(THREE))
    assert page.status == 200, page.error
    assert 'data-proposal="Bertta"' in page.html  # the oldest player
    assert "The app proposes Bertta: the oldest player (born" in page.text
    assert "Kalle or Tommi" in page.text
    form = page.form(f"/ae/table/{table_id}/setup")
    assert form.fields["first"] == "1"  # Bertta's seat, checked
    assert loaded(app, table_id).game is None  # nothing seated yet
    done = post(host, form.action, form.data())
    assert done.status == 303
    game = game_of(app, table_id)
    assert game.setup.first == "Bertta" and list(game.order) == ["Bertta", "Cecilia", "Aino"]
    assert [p.born for p in game.setup.players] == [AINO["born"], BERTTA["born"], None]


def test_a_chosen_first_player_seats_the_table_at_once(app, host):
    table_id = new_table(app)
    page = post(host, f"/ae/table/{table_id}/setup", setup_fields(THREE, first="Cecilia"))
    assert page.status == 303 and page.response.headers["Location"].endswith(f"/ae/table/{table_id}")
    after = get(host, f"/ae/table/{table_id}")
    assert "Players are seated" in " ".join(after.messages("ok"))
    assert game_of(app, table_id).current == "Cecilia"


def test_two_players_are_a_table_too(app, host):
    table_id = seat(host, new_table(app), TWO, first="Aino")
    game = game_of(app, table_id)
    assert game.active_deck == ["jaakko", "kalle", "tane"]


def test_an_active_dealt_twice_is_refused_next_to_its_seat(app, host):
    table_id = new_table(app)
    twice = dict(CECILIA, actives=["jaakko", "kalle", "pare"])  # pare is Aino's
    page = post(host, f"/ae/table/{table_id}/setup", setup_fields([AINO, BERTTA, twice], first="Aino"))
    assert page.status == 400
    assert "active Pare is already dealt to Aino; actives are distinct across the table" in page.text
    assert 'class="seat has-error" data-seat="2"' in page.html
    assert loaded(app, table_id).game is None


def test_a_seat_without_its_three_actives_and_a_single_player_are_refused(app, host):
    table_id = new_table(app)
    short = dict(AINO, actives=["pare", "", ""])
    page = post(host, f"/ae/table/{table_id}/setup", setup_fields([short], first="Aino"))
    assert page.status == 400
    assert "choose the 3 actives dealt to this player" in page.text
    assert "A table of this deck has 2 to 3 players; fill in 1" in page.text


def test_a_fourth_seat_posted_by_hand_is_refused(app, host):
    table_id = new_table(app)
    data = setup_fields(THREE, first="Aino")
    data.update({"players-3-name": "Daniel", "players-3-actives-0": "tane"})
    page = post(host, f"/ae/table/{table_id}/setup", data)
    assert page.status == 400 and loaded(app, table_id).game is None


def test_a_bad_birth_date_is_a_form_error(app, host):
    table_id = new_table(app)
    data = setup_fields(THREE, first="Aino")
    data["players-0-born"] = "yesterday"
    page = post(host, f"/ae/table/{table_id}/setup", data)
    assert page.status == 400 and loaded(app, table_id).game is None


def test_the_setup_can_change_until_the_first_move_then_it_is_locked(app, host):
    table_id = seat(host, new_table(app), THREE, first="Aino")
    page = get(host, f"/ae/table/{table_id}/setup")
    form = page.form(f"/ae/table/{table_id}/setup")
    assert form.fields["players-2-name"] == "Cecilia" and form.fields["first"] == "0"
    changed = post(host, form.action, form.data(**{"players-2-name": "Cilla"}))
    assert changed.status == 303
    assert [p.name for p in game_of(app, table_id).setup.players] == ["Aino", "Bertta", "Cilla"]
    play(host, app, table_id, "draw", player="Aino")
    late = post(host, form.action, form.data())
    assert late.status == 303 and late.response.headers["Location"].endswith(f"/ae/table/{table_id}")
    again = get(host, f"/ae/table/{table_id}/setup")
    assert again.status == 303


def test_a_setup_changed_on_another_device_is_not_overwritten(app, host):
    table_id = seat(host, new_table(app), THREE, first="Aino")
    form = get(host, f"/ae/table/{table_id}/setup").form(f"/ae/table/{table_id}/setup")
    assert post(host, form.action, form.data(**{"players-0-name": "Aini"})).status == 303
    stale = post(host, form.action, form.data(**{"players-0-name": "Anni"}))
    assert stale.status == 409
    assert "changed on another device" in stale.text
    assert game_of(app, table_id).setup.players[0].name == "Aini"


def test_a_lone_hosts_new_table_lands_on_this_setup_screen(app, host):
    with session_scope(engine(app)) as s:
        row = services.packs.ensure_sample(s, "alter-ego-3")
        table = services.create_table(s, "Kerho", row, access=True)
        table_id = table.id
    response = host.get(f"/table/{table_id}/setup")
    assert response.status_code == 302 and response.headers["Location"].endswith(f"/ae/table/{table_id}/setup")
    response = host.get(f"/table/{table_id}")
    assert response.headers["Location"].endswith(f"/ae/table/{table_id}")
