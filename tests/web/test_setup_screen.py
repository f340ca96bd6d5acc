"""The setup screen (issue 3, item 2; RULES.md 2): 3–4 players clockwise, a character each
(chosen or drawn at random among the free ones), 5 extra SP, an optional future image, and
the turn order with its reason. Every refusal is a 400 with the reason next to the form."""

import copy
import re

import pytest

from facilitator.rules.lyceum import Move

from .helpers import (ANYA, BORIS, FOUR, GOSHA, THREE, VIKA, create_table, each_case, get, load, post, post_setup,
                      record, setup_data)

import conftest as root  # tests/conftest.py: how a fresh database is made

pytestmark = pytest.mark.db


@pytest.fixture
def db_url(tmp_path, tmp_path_factory):
    """SQLite only: nothing here is about the storage (the setup screen's form, its refusals and the
    turn order it shows; players are stored on both backends by test_api.py and the event tests)."""
    return root.sqlite_database(tmp_path, tmp_path_factory)

RANDOM = "__random__"


def with_changes(players, seat, **changes):
    """A copy of ``players`` with one seat's fields changed."""
    out = copy.deepcopy(players)
    out[seat].update(changes)
    return out


def test_the_setup_screen_offers_four_seats_every_character_and_a_random_draw(host):
    table_id = create_table(host)
    page = get(host, f"/table/{table_id}/setup")
    assert page.status == 200
    form = page.form(f"/table/{table_id}/setup")
    assert [f"players-{i}-name" in form.fields for i in range(4)] == [True] * 4
    choices = form.selects["players-0-character"]
    assert RANDOM in choices
    assert {f"C{n:02d}" for n in range(1, 11)} <= set(choices)
    assert "Host checklist" in page
    assert "5 extra SP" in page


def test_three_players_are_seated_in_turn_order_most_energy_first(host):
    table_id = create_table(host)
    page = post_setup(host, table_id, THREE)
    assert page.status == 303
    assert page.response.headers["Location"].endswith(f"/table/{table_id}")
    game = load(host.application, table_id).game
    assert [p.name for p in load(host.application, table_id).players] == ["Аня", "Борис", "Вика"]
    assert game.order == ["Аня", "Борис", "Вика"]
    assert game.players["Аня"].skills == {"health": 3, "intellect": 8, "creativity": 2,
                                          "communication": 2, "energy": 6}
    assert game.players["Аня"].declared == 35
    turn = get(host, f"/table/{table_id}")
    assert "Аня goes first: the most energy (6)" in turn
    assert "Аня → Борис → Вика" in turn


def test_four_players_tied_on_energy_the_younger_goes_first_then_clockwise(host):
    table_id = create_table(host)
    assert post_setup(host, table_id, FOUR).status == 303
    assert load(host.application, table_id).game.order == ["Гоша", "Аня", "Борис", "Вика"]
    turn = get(host, f"/table/{table_id}")
    assert "Гоша goes first: the most energy (6), and the youngest of those tied" in turn


def test_characters_drawn_at_random_are_distinct_and_never_a_chosen_one(host):
    for attempt in range(6):
        table_id = create_table(host, f"Стол {attempt}")
        players = [dict(ANYA, character=RANDOM), dict(BORIS, character="C02"),
                   dict(VIKA, character=RANDOM), dict(GOSHA, character=RANDOM)]
        assert post_setup(host, table_id, players).status == 303
        drawn = [p.character for p in load(host.application, table_id).players]
        assert len(set(drawn)) == 4, drawn
        assert drawn[1] == "C02"
        assert all(code.startswith("C") and code != RANDOM for code in drawn)


def test_a_setup_may_be_corrected_until_the_first_move(host):
    table_id = create_table(host)
    post_setup(host, table_id, THREE)
    page = get(host, f"/table/{table_id}/setup")
    assert page.status == 200
    form = page.form(f"/table/{table_id}/setup")
    assert form.fields["players-1-name"] == "Борис"
    assert form.fields["players-0-character"] == "C01"
    assert form.fields["players-0-extra-energy"] == "3"
    assert post_setup(host, table_id, with_changes(THREE, 1, name="Боря")).status == 303
    assert load(host.application, table_id).game.order == ["Аня", "Боря", "Вика"]


REFUSALS = [
    # (what is wrong, the players posted, the message shown next to the form)
    ("two players", THREE[:2], "A table has 3 or 4 players; fill in 2"),
    ("a fifth player", FOUR + [dict(GOSHA, name="Дима", character="C03")],
     "A table has 3 or 4 players; fill in 5"),
    ("duplicate names", with_changes(THREE, 1, name="Аня"), "is already used by player 1; names must differ"),
    ("duplicate characters", with_changes(THREE, 1, character="C01"), "character C01 is already taken by Аня"),
    ("extra SP summing to 4", with_changes(THREE, 1, extra={"health": 4}),
     "the extra SP must sum to exactly 5, now 4"),
    ("extra SP summing to 6", with_changes(THREE, 1, extra={"health": 4, "energy": 2}),
     "the extra SP must sum to exactly 5, now 6"),
    ("negative extra SP", with_changes(THREE, 1, extra={"health": -1, "energy": 6}),
     "extra SP: health cannot be negative"),
    ("a future image summing to 30", with_changes(THREE, 0, declaration={"health": 6, "intellect": 6,
                                                                           "creativity": 6, "communication": 6,
                                                                           "energy": 6}),
     "a future image sums to 35, 40 or 45, now 30"),
    ("text in an extra SP field", with_changes(THREE, 2, extra={"creativity": "три", "energy": 2}),
     "Extra SP: creativity: Not a valid integer value"),
    ("text in a future image field", with_changes(THREE, 0, declaration={"health": "семь"}),
     "Future image: health: Not a valid integer value"),
    ("a missing birth date", with_changes(THREE, 1, born=""), "birth date is required"),
    ("a birth date that is not a date", with_changes(THREE, 1, born="вчера"), "Not a valid date value"),
    ("no character", with_changes(THREE, 2, character=""), "choose a character"),
]


def test_a_setup_breaking_the_rules_is_refused_with_the_reason(host):
    table_id = create_table(host)

    def check(what, players, message):
        page = post_setup(host, table_id, players)
        assert page.status == 400
        assert message in page, page.text
        assert load(host.application, table_id).game is None  # nothing was stored
    each_case(REFUSALS, check)


def test_a_refused_setup_keeps_what_the_host_typed(host):
    table_id = create_table(host)
    page = post_setup(host, table_id, with_changes(THREE, 2, extra={"creativity": "три", "energy": 2}))
    form = page.form(f"/table/{table_id}/setup")
    assert form.fields["players-0-name"] == "Аня"
    assert form.fields["players-2-extra-creativity"] == "три"
    assert form.fields["players-2-character"] == "C06"


def test_the_setup_is_locked_once_a_move_is_recorded(host, table):
    record(host.application, table, Move("pass", player="Аня"))
    page = get(host, f"/table/{table}/setup")
    assert page.status == 303
    assert page.response.headers["Location"].endswith(f"/table/{table}")
    followed = post(host, f"/table/{table}/setup", {"players-0-name": "Ян"}, follow=True)
    assert "The setup cannot change once moves are recorded" in followed
    assert [p.name for p in load(host.application, table).players] == ["Аня", "Борис", "Вика"]


def test_the_setup_form_without_a_csrf_token_is_refused(host):
    table_id = create_table(host)
    page = post(host, f"/table/{table_id}/setup", setup_data(THREE), token=False)
    assert page.status == 400
    assert "CSRF" in page.text
    assert load(host.application, table_id).game is None


def test_every_problem_of_a_setup_is_shown_at_once_next_to_its_player(host):
    """Two players with the same name and a character taken twice: both said in one answer,
    each next to the seat it belongs to (the engine's list of setup problems)."""
    table_id = create_table(host)
    players = with_changes(with_changes(THREE, 1, name="Аня"), 2, character="C01")
    page = post_setup(host, table_id, players)
    assert page.status == 400
    seats = {int(chunk[0]): chunk for chunk in page.html.split('<fieldset class="player-setup')[1:]
             for chunk in [re.search(r'data-player="(\d)"', chunk).group(1) + chunk.split("</fieldset>")[0]]}
    assert "is already used by player 1; names must differ" in seats[1]
    assert "character C01 is already taken by Аня" in seats[2]
    assert "already" not in seats[0]
    assert load(host.application, table_id).table.players is None
