"""The turn screen and the draw screens (issue 3, item 3): where the game is at a glance, every
player's numbers, and exactly the legal actions; a drawn card shown against the player's
numbers; the app's own deck; a hand-entered card; the turn timer."""

import json
import re

import pytest

from facilitator.rules.lyceum import Move
from facilitator.rules.lyceum.deck import next_card

from .helpers import (create_table, draw_page, each_case, get, legal_kinds, load, offered_moves, pass_until, player_panels, post, record,
                      seq, submit)

import conftest as root  # tests/conftest.py: how a fresh database is made

pytestmark = pytest.mark.db


@pytest.fixture
def db_url(tmp_path, tmp_path_factory):
    """SQLite only: nothing here is about the storage (the screens drawn and the legal actions they
    offer; the moves they lead to are stored on both backends by test_moves.py, test_safe_writes.py and
    test_api.py)."""
    return root.sqlite_database(tmp_path, tmp_path_factory)


def turn_page(host, table_id):
    page = get(host, f"/table/{table_id}")
    assert page.status == 200, page
    return page


# ----- at a glance ------------------------------------------------------------------------------
def test_the_turn_screen_shows_round_era_age_and_whose_turn(host, table):
    page = turn_page(host, table)
    assert "Round 1 of 10 · «Lyceum» · age 16" in page
    assert "Turn of Аня" in page
    panels = player_panels(page)
    assert list(panels) == ["Аня", "Борис", "Вика"]  # in turn order
    assert panels["Аня"]["turn"] and not panels["Борис"]["turn"]
    anya = panels["Аня"]
    assert (anya["xp"], anya["level"]) == (0, 1)
    assert anya["skills"] == {"health": 3, "intellect": 8, "creativity": 2, "communication": 2, "energy": 6}
    assert "image 35" in panels["Аня"]["text"]


def test_every_player_panel_follows_the_game(host, table):
    record(host.application, table,
           Move("draw", player="Аня", color="green", card="L-G-01", decision="play"),
           Move("draw", player="Борис", color="red", card="L-R-01", decision="defer"))
    panels = player_panels(turn_page(host, table))
    assert panels["Аня"]["xp"] == 100
    assert panels["Аня"]["skills"]["intellect"] == 9
    assert "deferred: L-R-01 · until round 4" in panels["Борис"]["text"]
    assert panels["Вика"]["turn"]


def test_a_correction_at_the_start_of_a_round_keeps_that_round_while_its_sp_are_allocated(host, table):
    """Issue 20 item 7: an adjust that causes a level-up at the start of round 5 shows round 5
    (not round 4) until the free SP are allocated."""
    app = host.application
    pass_until(app, table, lambda g: g.upcoming() == (5, 0) and not g.pending())
    assert "Round 5 of 10" in turn_page(host, table)
    record(app, table, Move("adjust", player="Борис", xp=400, reason="подсчёт на бумаге"))
    assert load(app, table).game.next()["expects"] == "allocate"
    page = turn_page(host, table)
    assert "Борис: allocate" in page and "Round 5 of 10" in page and "Round 4 of 10" not in page


def test_pending_sp_block_every_other_move_and_say_why(host, table):
    record(host.application, table, Move("rest", player="Аня"),
           Move("adjust", player="Аня", xp=400, reason="проверка"))
    page = turn_page(host, table)
    assert "Аня: allocate 5 free SP" in page
    assert "(rest: 1 SP, level-up: 4 SP)" in page  # the SP each reason brings, not a level's number
    assert "Until the free SP are allocated, no other move can be made." in page
    assert "5 SP to allocate" in player_panels(page)["Аня"]["text"]
    assert offered_moves(page, table) == {"allocate", "adjust"} == legal_kinds(host.application, table)


def test_the_screen_offers_exactly_the_legal_moves(host, table):
    app = host.application
    positions = []
    # the start: draw, rest, pass (and adjust); no share below level 3, nothing to undo
    page = turn_page(host, table)
    positions.append((page, legal_kinds(app, table)))
    assert not page.has_form(f"/table/{table}/undo")
    assert "share" not in offered_moves(page, table)
    # a player who may share
    record(app, table, Move("adjust", player="Аня", xp=400, reason="проверка"),
           Move("allocate", player="Аня", sp={"health": 4}))
    page = turn_page(host, table)
    positions.append((page, legal_kinds(app, table)))
    assert "share" in offered_moves(page, table)
    assert page.has_form(f"/table/{table}/undo")
    # after the main move with a deferred card now playable
    record(app, table, Move("pass", player="Аня"),
           Move("draw", player="Борис", color="red", card="L-R-01", decision="defer"),
           Move("pass", player="Вика"), Move("pass", player="Аня"),
           Move("adjust", player="Борис", sp={"intellect": 2, "energy": 3}, reason="проверка"),
           Move("pass", player="Борис"))
    page = turn_page(host, table)
    positions.append((page, legal_kinds(app, table)))
    assert "play_deferred" in offered_moves(page, table)
    assert "Борис: play the deferred card L-R-01" in page
    # the last turn of round 10 is over: only finish (and adjust)
    pass_until(app, table, lambda g: g.next()["expects"] == "finish")
    page = turn_page(host, table)
    positions.append((page, legal_kinds(app, table)))
    assert offered_moves(page, table) == {"finish", "adjust"}
    for page, legal in positions:
        assert offered_moves(page, table) == legal


def test_a_new_era_is_announced_replace_the_decks(host, table):
    page = turn_page(host, table)
    assert "A new era begins" not in page
    pass_until(host.application, table, lambda g: g._next_turn() == (4, 0))
    page = turn_page(host, table)
    assert "Round 4 of 10 · «University» · age 19" in page
    assert "A new era begins: «University». Replace the decks of action cards!" in page
    record(host.application, table, Move("pass", player="Аня"))
    assert "A new era begins" not in turn_page(host, table)


def test_after_a_move_the_screen_says_what_changed(host, table):
    page = draw_page(host, table, "green", card="L-G-01")
    after = submit(host, page.form("/move/draw"), follow=True, decision="play")
    assert after.status == 200
    assert after.messages("ok") == ["Аня drew «Школьная олимпиада» (L-G-01) and played Аня: +100 XP, intellect +1"]
    after = submit(host, turn_page(host, table).form("/move/pass"), follow=True)
    assert "Борис passed" in after.messages("ok")[0]
    levelled = post(host, f"/table/{table}/move/adjust",
                    {"after": seq(host.application, table), "player": "Вика", "xp": 400, "reason": "спецкарта"},
                    follow=True)
    assert "Вика: +400 XP, level 3, +4 SP to allocate" in levelled.messages("ok")[0]


def test_a_table_that_does_not_exist_is_not_found(host):
    assert host.get("/table/999").status_code == 404


def test_a_table_without_players_opens_its_setup(host):
    table_id = create_table(host)
    response = host.get(f"/table/{table_id}")
    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"/table/{table_id}/setup")


# ----- drawing a card ---------------------------------------------------------------------------
def test_the_draw_screen_lists_only_cards_of_this_era_and_colour(host, table):
    page = get(host, f"/table/{table}/draw?color=yellow")
    assert page.status == 200
    assert "Аня draws a yellow card" in page
    codes = {c.code for c in load(host.application, table).pack.cards_of("lyceum", "yellow")}
    listed = set(re.findall(r"card=([A-Z]-[A-Z]-\d\d)", page.html))
    assert listed == codes


SEARCHES = [
    # (the host types, the yellow cards listed)
    ("L-Y-03", {"L-Y-03"}),  # the code printed on the card
    ("олимп", {"L-Y-03"}),  # a few letters of the title (the green olympiad is not listed)
    ("ничего такого", set()),
]


def test_a_card_is_found_by_code_or_title(host, table):
    def check(query, expected):
        page = get(host, f"/table/{table}/draw?color=yellow&q={query}")
        assert set(re.findall(r"card=([A-Z]-[A-Z]-\d\d)", page.html)) == expected
        if not expected:
            assert "No card of this era and colour matches." in page
    each_case(SEARCHES, check)


def test_a_drawn_card_is_shown_against_the_players_numbers(host, table):
    page = draw_page(host, table, "red", card="L-R-05")
    assert "Президент школьного совета" in page
    assert "Not eligible: communication 2 < 7 (short by 5)" in page
    form = page.form("/move/draw")
    enabled = {value for name, value, disabled in form.buttons if name == "decision" and not disabled}
    assert enabled == {"defer", "discard"}  # play needs eligibility
    page = draw_page(host, table, "green", card="L-G-01")
    assert "Eligible" in page and "Not eligible" not in page
    enabled = {value for name, value, disabled in page.form("/move/draw").buttons
               if name == "decision" and not disabled}
    assert enabled == {"play", "discard"}  # defer only when not eligible


NOT_IN_THE_DECK = [
    ("color=purple", "Choose the colour of the deck: green, yellow or red"),
    ("color=green&card=U-G-01", "No green card U-G-01 in the era «Lyceum»"),  # a card of a later era
    ("color=green&card=L-Y-01", "No green card L-Y-01 in the era «Lyceum»"),  # a yellow card
    ("color=green&card=NOPE", "No green card NOPE in the era «Lyceum»"),
]


def test_a_card_not_in_the_chosen_deck_is_refused(host, table):
    def check(query, message):
        page = get(host, f"/table/{table}/draw?{query}&after=0&player=Аня")
        assert page.status == 400
        assert page.error == message
    each_case(NOT_IN_THE_DECK, check)


def test_the_apps_own_deck_gives_the_same_card_on_every_reload(host, table):
    first = draw_page(host, table, "yellow", random=1)
    again = draw_page(host, table, "yellow", random=1)
    card = first.form("/move/draw").fields["card"]
    assert card and again.form("/move/draw").fields["card"] == card
    assert first.form("/move/draw").fields["source"] == "deck"
    loaded = load(host.application, table)
    assert card == next_card(loaded.game, loaded.table.deck_seed, "lyceum", "yellow").code
    # once drawn, the pile moves on: the next yellow card is another one
    submit(host, first.form("/move/draw"), decision="discard")
    after = draw_page(host, table, "yellow", random=1).form("/move/draw").fields["card"]
    assert after != card
    recorded = json.loads(load(host.application, table).log[-1].data)
    assert recorded["card"] == card and recorded["source"] == "app-deck"


def test_a_hand_entered_card_is_checked_and_played(host, table):
    page = get(host, f"/table/{table}/draw/manual?color=green")
    assert page.status == 200
    form = page.form(f"/table/{table}/draw/manual")
    checked = submit(host, form, title="Кружок шахмат", conditions_intellect=2, gains_intellect=1)
    assert checked.status == 200
    assert "Кружок шахмат" in checked and "Eligible" in checked
    draw_form = checked.form("/move/draw")
    assert json.loads(draw_form.fields["manual"])["title"] == "Кружок шахмат"
    done = submit(host, draw_form, decision="play")
    assert done.status == 303
    game = load(host.application, table).game
    assert game.players["Аня"].xp == 100 and game.players["Аня"].skills["intellect"] == 9
    assert load(host.application, table).record().to_dict()["moves"][0]["card"]["title"] == "Кружок шахмат"


BAD_CARDS = [
    # (what is wrong, the fields typed in, the reason shown)
    ("gains 2 on a green card", {"title": "Лишнее", "conditions_intellect": 2, "gains_intellect": 2},
     "gains: a green card gives exactly 1 SP (gains + free), this one gives 2"),
    ("a loss on a green card", {"title": "Лишнее", "gains_intellect": 1, "losses_energy": 1}, "losses: a green"),
    ("text in a number", {"title": "Текст", "conditions_intellect": "два", "gains_intellect": 1},
     "Conditions: intellect: “два” is not a whole number"),
    ("a negative number", {"title": "Минус", "conditions_intellect": "-2", "gains_intellect": 1},
     "Conditions: intellect: cannot be negative"),
    ("no title", {"title": "", "gains_intellect": 1}, "title: must be a non-empty text"),
]


def test_a_hand_entered_card_breaking_the_card_rules_is_refused(host, table):
    form = get(host, f"/table/{table}/draw/manual?color=green").form(f"/table/{table}/draw/manual")

    def check(what, fields, message):
        page = submit(host, form, **fields)
        assert page.status == 400
        assert page.error.startswith("The card is not valid: " + message), page.error
        assert load(host.application, table).log == []
    each_case(BAD_CARDS, check)


def test_a_hand_entered_card_breaking_the_colour_rules_cannot_be_posted_as_a_move(host, table):
    bad = {"color": "green", "title": "Лишнее", "gains": {"intellect": 2}}
    page = post(host, f"/table/{table}/move/draw", {"after": 0, "player": "Аня", "color": "green",
                                                    "manual": json.dumps(bad), "decision": "play"})
    assert page.status == 400
    assert "a green card gives exactly 1 SP" in page.error
    assert load(host.application, table).log == []


# ----- the turn timer ---------------------------------------------------------------------------
def test_the_turn_timer_is_off_by_default_and_set_by_the_host(host, table):
    page = turn_page(host, table)
    assert 'id="timer"' not in page.html
    done = submit(host, page.form(f"/table/{table}/timer"), seconds=90)
    assert done.status == 303
    page = turn_page(host, table)
    assert 'data-seconds="90"' in page.html
    assert page.has_form("/move/pass")  # what the screen proposes at zero
    submit(host, page.form(f"/table/{table}/timer"), seconds="")
    assert 'id="timer"' not in turn_page(host, table).html


def test_a_timer_out_of_range_is_refused(host, table):
    form = turn_page(host, table).form(f"/table/{table}/timer")

    def check(seconds):
        page = submit(host, form, seconds=seconds)
        assert page.status == 400
        assert page.error.startswith("The timer was not set: seconds: ")
        assert load(host.application, table).table.timer_seconds is None
    each_case([("5",), ("601",), ("полминуты",)], check)
