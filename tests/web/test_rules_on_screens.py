"""The host's screens say the engine's numbers and rule sentences, never their own
(ARCHITECTURE.md decision 11): the rounds of a game, what a rest gives, why sharing is not
possible now, the XP step of a correction, the seats a table needs, how the turn order is
decided, where a special ability may be typed, the reminders of the paper protocol. Each test
changes the engine's number and sees the screen follow."""

import html
import re

import pytest

from facilitator.games.lyceum.pdf import blank_protocol_html
from facilitator.i18n import use_locale
from facilitator.rules.lyceum import Move, cards, eras, setup
from facilitator.rules.lyceum import game as engine

from .helpers import THREE, create_table, get, load, record

import conftest as root  # tests/conftest.py: how a fresh database is made

pytestmark = pytest.mark.db


@pytest.fixture
def db_url(tmp_path, tmp_path_factory):
    """SQLite only: nothing here is about the storage (the engine's numbers and sentences on the
    screens)."""
    return root.sqlite_database(tmp_path, tmp_path_factory)


def turn_text(host, table_id):
    page = get(host, f"/table/{table_id}")
    assert page.status == 200, page
    return page


def test_the_banner_counts_the_engines_rounds(host, table, monkeypatch):
    assert "Round 1 of 10 · «Lyceum» · age 16" in turn_text(host, table)
    monkeypatch.setattr(eras, "ROUNDS", 12)
    assert "Round 1 of 12 · «Lyceum» · age 16" in turn_text(host, table)


def test_rest_says_what_the_engine_gives(host, table, monkeypatch):
    assert "+1 energy and 1 free SP. You may also move up to 3 SP between skills" in turn_text(host, table)
    monkeypatch.setattr(engine, "REST_FREE_SP", 2)
    assert "+1 energy and 2 free SP." in turn_text(host, table)
    record(host.application, table, Move("rest", player="Аня"))
    assert load(host.application, table).game.players["Аня"].pending == 2  # the engine gives what it said


def test_sharing_not_possible_now_says_the_engines_reason(host, table, monkeypatch):
    page = turn_text(host, table)
    button = re.search(r'<button class="big" type="button" disabled title="([^"]*)" data-refusal>', page.html)
    assert html.unescape(button.group(1)) == "sharing needs level 3 or higher; Аня is level 1"
    assert 'data-move="share"' not in page.html
    monkeypatch.setattr(engine, "SHARE_LEVEL", 1)
    page = turn_text(host, table)
    assert 'data-move="share"' in page.html and "data-refusal" not in page.html


def test_a_correction_steps_in_the_engines_xp_step(host, table, monkeypatch):
    assert '<input type="number" name="xp" step="100"' in turn_text(host, table).html
    monkeypatch.setattr(engine, "XP_STEP", 50)
    assert '<input type="number" name="xp" step="50"' in turn_text(host, table).html


def test_the_setup_screen_asks_for_the_engines_players_and_says_its_turn_order_rule(host, monkeypatch):
    table_id = create_table(host)
    page = get(host, f"/table/{table_id}/setup")
    assert re.findall(r"Seat (\d)( <span class=\"muted\">\(optional\))?", page.html) == [
        ("1", ""), ("2", ""), ("3", ""), ("4", ' <span class="muted">(optional)')]
    assert "Check that 3–4 players sit at the table" in page
    assert "Turn order: the most energy after the extra SP goes first; on a tie, the younger" in page
    monkeypatch.setattr(setup, "MIN_PLAYERS", 2)
    monkeypatch.setattr(setup, "TURN_ORDER_SKILL", "intellect")
    page = get(host, f"/table/{table_id}/setup")
    assert [bool(optional) for _n, optional in re.findall(r"Seat (\d)( <span class=\"muted\">\(optional\))?",
                                                          page.html)] == [False, False, True, True]
    assert "Check that 2–4 players sit at the table" in page
    assert "Turn order: the most intellect after the extra SP goes first" in page
    pack = load(host.application, table_id).pack
    seats = [setup.PlayerSetup(name=p["name"], born=p["born"], character=p["character"], extra=p["extra"])
             for p in THREE]
    first = setup.turn_order(pack, seats)[0]  # the engine orders by the skill the screen names
    assert setup.start_skills(pack, seats[first])["intellect"] == max(setup.start_skills(pack, p)["intellect"]
                                                                      for p in seats)


def test_a_special_ability_is_typed_only_on_a_card_whose_colour_takes_one(host, table, monkeypatch):
    def manual(color):
        page = get(host, f"/table/{table}/draw/manual?color={color}")
        assert page.status == 200, page
        return 'name="special_text"' in page.html
    assert (manual("red"), manual("green")) == (True, False)
    monkeypatch.setitem(cards.COLOR_RULES, "green", (1, 1, 0, 0, True))
    assert manual("green")


def test_the_paper_protocol_reminds_of_the_engines_numbers(monkeypatch):
    with use_locale("en"):
        text = " ".join(re.sub(r"<[^>]+>", " ", blank_protocol_html("Стол 1", ["Аня", "Борис", "Вика"])).split())
        assert ("Reminders: green 100 XP, yellow 200 XP, red 500 XP; every new level gives 2 free SP; a deferred "
                "card may be played in the next 3 rounds") in text
        monkeypatch.setattr(engine, "DEFER_ROUNDS", 4)
        monkeypatch.setattr(engine, "LEVEL_UP_SP", 3)
        text = " ".join(re.sub(r"<[^>]+>", " ", blank_protocol_html("Стол 1", ["Аня", "Борис", "Вика"])).split())
        assert "every new level gives 3 free SP; a deferred card may be played in the next 4 rounds" in text
