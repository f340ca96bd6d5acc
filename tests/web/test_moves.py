"""Every move through the host's forms (issue 3, item 3; RULES.md 3 and 4), and every refusal
with the status that says what kind it is: 400 a malformed form, 422 a move the rules refuse.
A refused move is never recorded and its reason is shown on the turn screen."""

import pytest

from facilitator.rules.lyceum import Move

from .helpers import draw_page, each_case, get, load, move_form, pass_until, post, record, redistribution, seq, submit

pytestmark = pytest.mark.db


def turn(host, table_id):
    return get(host, f"/table/{table_id}")


def moves_of(app, table_id):
    """The moves in force, as record objects without their time stamps."""
    return [{k: v for k, v in m.items() if k != "at"} for m in load(app, table_id).record().to_dict()["moves"]]


def refused(host, table_id, kind, status, message, **fields):
    """Post a move form; it must be refused with ``status`` and ``message``, recording nothing."""
    before = seq(host.application, table_id)
    fields.setdefault("after", before)
    page = move_form(host, table_id, kind, **{k: v for k, v in fields.items() if v is not None})
    assert page.status == status, (page.status, page.error)
    assert message in page.error, page.error
    assert seq(host.application, table_id) == before
    return page


def draw_screen(host, table_id, color, card):
    page = draw_page(host, table_id, color, card=card)
    assert page.status == 200, page.error
    return page.form("/move/draw")


# ----- draw: play, defer, discard ------------------------------------------------------------------
def test_draw_and_play_an_eligible_card(host, table):
    page = submit(host, draw_screen(host, table, "green", "L-G-01"), decision="play")
    assert page.status == 303
    assert moves_of(host.application, table) == [
        {"type": "draw", "player": "Аня", "color": "green", "card": "L-G-01", "decision": "play"}]
    anya = load(host.application, table).game.players["Аня"]
    assert (anya.xp, anya.skills["intellect"]) == (100, 9)


def test_draw_and_defer_a_card_the_player_is_not_eligible_for(host, table):
    record(host.application, table, Move("pass", player="Аня"))
    assert submit(host, draw_screen(host, table, "red", "L-R-01"), decision="defer").status == 303
    deferred = load(host.application, table).game.players["Борис"].deferred
    assert (deferred.card.code, deferred.round, deferred.expires_after_round) == ("L-R-01", 1, 4)


def test_draw_and_discard_changes_nothing_but_the_turn(host, table):
    before = load(host.application, table).game.players["Аня"].skills
    assert submit(host, draw_screen(host, table, "green", "L-G-01"), decision="discard").status == 303
    game = load(host.application, table).game
    assert game.players["Аня"].skills == before and game.players["Аня"].xp == 0
    assert game.next() == {"player": "Борис", "expects": "main"}


def test_play_without_eligibility_is_refused_naming_every_short_skill(host, table):
    record(host.application, table, Move("pass", player="Аня"))
    form = draw_screen(host, table, "red", "L-R-01")
    page = refused(host, table, "draw", 422, "not eligible: intellect 5 < 7, energy 2 < 5",
                   **form.data(decision="play"))
    assert page.has_form("/move/rest")  # the turn screen again, with the reason on it


def test_defer_of_a_playable_card_is_refused(host, table):
    form = draw_screen(host, table, "green", "L-G-01")
    refused(host, table, "draw", 422, "a card can be deferred only when the player is not eligible for it",
            **form.data(decision="defer"))


def test_a_second_deferred_card_is_refused(host, table):
    record(host.application, table, Move("draw", player="Аня", color="red", card="L-R-05", decision="defer"),
           Move("pass", player="Борис"), Move("pass", player="Вика"))
    form = draw_screen(host, table, "red", "L-R-07")
    refused(host, table, "draw", 422, "Аня already holds a deferred card (L-R-05, deferred in round 1)",
            **form.data(decision="defer"))


NOT_IN_THE_GREEN_DECK = [
    ("NOPE", "unknown card 'NOPE': the pack has no such card"),
    ("U-G-01", "card U-G-01 is of the era University, but round 1 is in the era Lyceum"),
    ("L-Y-01", "card L-Y-01 is yellow, but the player drew from the green deck"),
]


def test_a_card_code_not_in_this_deck_is_refused_by_the_rules(host, table):
    each_case(NOT_IN_THE_GREEN_DECK, lambda card, message: refused(
        host, table, "draw", 422, message, player="Аня", color="green", card=card, decision="play"))


def test_only_the_player_whose_turn_it_is_may_move(host, table):
    refused(host, table, "pass", 422, "it is Аня's turn (round 1), not Борис's", type="pass", player="Борис")
    refused(host, table, "draw", 422, "unknown player 'Дима'", player="Дима", color="green", card="L-G-01",
            decision="play")


# ----- rest ----------------------------------------------------------------------------------------
def test_rest_with_a_redistribution_within_the_eras_limit(host, table):
    form = turn(host, table).form("/move/rest")
    page = submit(host, form, **redistribution("redistribute", {"intellect": -3, "health": 3}))
    assert page.status == 303
    anya = load(host.application, table).game.players["Аня"]
    assert anya.skills == {"health": 6, "intellect": 5, "creativity": 2, "communication": 2, "energy": 7}
    assert anya.pending == 1 and anya.pending_reasons == [("rest", 1)]


def test_rest_without_a_redistribution(host, table):
    assert submit(host, turn(host, table).form("/move/rest")).status == 303
    assert moves_of(host.application, table) == [{"type": "rest", "player": "Аня"}]


WRONG_RESTS = [
    # (what is wrong, the redistribution, the status, the reason shown)
    ("over the era's limit", {"intellect": -4, "health": 4}, 422, "at most 3 SP may be redistributed here, got 4"),
    ("not summing to 0", {"intellect": -1, "health": 2}, 422, "its changes must sum to 0, got 1"),
    ("a skill below 0", {"creativity": -3, "health": 3}, 422, "creativity cannot go below 0: it would be 2 -3"),
    ("text in a number", {"intellect": "много", "health": 1}, 400, "Not a valid integer value"),
]


def test_rest_with_a_wrong_redistribution_is_refused(host, table):
    form = turn(host, table).form("/move/rest")
    each_case(WRONG_RESTS, lambda what, changes, status, message: refused(
        host, table, "rest", status, message, **form.data(**redistribution("redistribute", changes))))


def test_the_rest_limit_grows_with_the_era(host, table):
    pass_until(host.application, table, lambda g: g._next_turn() == (8, 0))
    page = turn(host, table)
    assert "move up to 5 SP between skills" in page
    submit(host, page.form("/move/rest"), **redistribution("redistribute", {"intellect": -5, "health": 5}))
    assert load(host.application, table).game.players["Аня"].skills["health"] == 3 + 5


# ----- share -----------------------------------------------------------------------------------------
def test_share_below_level_3_is_refused(host, table):
    refused(host, table, "share", 422, "sharing needs level 3 or higher; Аня is level 1", type="share",
            player="Аня")


def test_share_when_allowed_gives_every_other_player_the_shown_xp(host, table):
    record(host.application, table, Move("adjust", player="Аня", xp=1500, reason="проверка"),
           Move("allocate", player="Аня", sp={"health": 10}))
    page = turn(host, table)
    assert "Борис +500" in page and "Вика +500" in page  # 30% of 1500
    assert submit(host, page.form("/move/share"), follow=True).status == 200
    game = load(host.application, table).game
    assert [game.players[n].xp for n in ("Аня", "Борис", "Вика")] == [1500, 500, 500]
    assert game.players["Аня"].shared
    assert game.players["Аня"].skills["communication"] == 3 and game.players["Аня"].skills["energy"] == 5


def test_share_a_second_time_is_refused(host, table):
    record(host.application, table, Move("adjust", player="Аня", xp=400, reason="проверка"),
           Move("allocate", player="Аня", sp={"health": 4}), Move("share", player="Аня"),
           Move("allocate", player="Аня", sp={"health": 1}))
    pass_until(host.application, table, lambda g: g.next()["player"] == "Аня" and g._next_turn()[0] == 2)
    refused(host, table, "share", 422, "Аня has already shared once in this game", type="share", player="Аня")


# ----- pass, play deferred ----------------------------------------------------------------------------
def test_pass(host, table):
    assert submit(host, turn(host, table).form("/move/pass")).status == 303
    assert moves_of(host.application, table) == [{"type": "pass", "player": "Аня"}]


def test_a_form_posted_to_another_moves_address_is_refused(host, table):
    refused(host, table, "pass", 400, "The form does not match the move", type="share", player="Аня")
    assert post(host, f"/table/{table}/move/teleport", {"after": 0}).status == 404


def test_play_deferred_after_the_main_move_once_eligible(host, table):
    app = host.application
    record(app, table, Move("pass", player="Аня"),
           Move("draw", player="Борис", color="red", card="L-R-01", decision="defer"))
    # the same round: refused
    refused(host, table, "play_deferred", 422, "card L-R-01 was deferred in this round (1)", player="Борис")
    record(app, table, Move("pass", player="Вика"), Move("pass", player="Аня"), Move("pass", player="Борис"))
    # not eligible yet: not offered, and refused when posted
    assert not turn(host, table).has_form("/move/play_deferred")
    refused(host, table, "play_deferred", 422, "not eligible: intellect 5 < 7, energy 2 < 5", player="Борис")
    record(app, table, Move("adjust", player="Борис", sp={"intellect": 2, "energy": 3}, reason="проверка"))
    page = submit(host, turn(host, table).form("/move/play_deferred"), follow=True)
    assert page.status == 200
    assert "Борис played the deferred card «Всероссийская олимпиада»" in page.messages("ok")[0]
    boris = load(app, table).game.players["Борис"]
    assert boris.deferred is None and boris.xp == 500
    assert boris.pending == 5  # levels 2 and 3 (2 SP each) and the card's free SP
    assert "Борис: allocate 5 free SP" in page


# ----- allocate ---------------------------------------------------------------------------------------
@pytest.fixture
def pending(host, table):
    """Аня rested: she has 1 free SP to allocate, and nothing else may happen first."""
    record(host.application, table, Move("rest", player="Аня"))
    return table


def test_allocate_the_exact_count(host, pending):
    page = submit(host, turn(host, pending).form("/move/allocate"), **{"sp-creativity": 1})
    assert page.status == 303
    anya = load(host.application, pending).game.players["Аня"]
    assert anya.pending == 0 and anya.skills["creativity"] == 3


WRONG_ALLOCATIONS = [
    ("too many", {"creativity": 2}, 422, "Аня must allocate exactly 1 free SP at once, got 2"),
    ("none", {}, 422, "Аня must allocate exactly 1 free SP at once, got 0"),
    ("a negative one", {"creativity": 2, "health": -1}, 400, "SP cannot be negative (health: -1)"),
    ("text in a number", {"creativity": "один"}, 400, "Not a valid integer value"),
]


def test_allocate_a_wrong_count_is_refused(host, pending):
    form = turn(host, pending).form("/move/allocate")
    each_case(WRONG_ALLOCATIONS, lambda what, sp, status, message: refused(
        host, pending, "allocate", status, message, **form.data(**redistribution("sp", sp))))


def test_no_other_move_while_free_sp_are_pending(host, pending):
    refused(host, pending, "pass", 422, "Аня has 1 free SP to allocate first", type="pass", player="Борис")


# ----- adjust -----------------------------------------------------------------------------------------
def test_adjust_with_a_reason(host, table):
    form = turn(host, table).form("/move/adjust")
    page = submit(host, form, player="Вика", xp=100, reason="спецспособность карты",
                  **redistribution("sp", {"energy": -1}))
    assert page.status == 303
    assert moves_of(host.application, table) == [
        {"type": "adjust", "player": "Вика", "xp": 100, "sp": {"energy": -1}, "reason": "спецспособность карты"}]


WRONG_ADJUSTS = [
    ("no reason", {"xp": 100, "reason": ""}, 400, "This field is required"),
    ("a blank reason", {"xp": 100, "reason": "   "}, 422, "an adjust needs a reason"),
    ("XP not in hundreds", {"xp": 150, "reason": "опечатка"}, 422, "XP changes in steps of 100, got 150"),
    ("XP below 0", {"xp": -100, "reason": "опечатка"}, 422, "XP cannot go below 0: Вика has 0, change -100"),
    ("no change", {"reason": "ничего"}, 422, "an adjust must change XP or at least one skill"),
    ("text in a number", {"xp": "сто", "reason": "опечатка"}, 400, "Not a valid integer value"),
    ("a skill below 0", {"sp-health": -4, "reason": "опечатка"}, 422,
     "health cannot go below 0: Вика has 3, change -4"),
]


def test_a_wrong_adjust_is_refused(host, table):
    form = turn(host, table).form("/move/adjust")
    each_case(WRONG_ADJUSTS, lambda what, fields, status, message: refused(
        host, table, "adjust", status, message, **form.data(player="Вика", **fields)))


# ----- finish -----------------------------------------------------------------------------------------
def test_finish_before_the_end_of_round_10_is_refused(host, table):
    pass_until(host.application, table, lambda g: g._next_turn() == (10, 2))
    refused(host, table, "finish", 422, "the game can be finished only after the last turn of round 10; "
                                        "next is Вика's turn in round 10", type="finish")


def test_finish_after_round_10_opens_the_final_screen(host, table):
    pass_until(host.application, table, lambda g: g.next()["expects"] == "finish")
    confirm = get(host, f"/table/{table}/finish")  # finishing asks first, showing the final bonuses
    page = submit(host, confirm.form("/move/finish"))
    assert page.status == 303 and page.response.headers["Location"].endswith(f"/table/{table}/final")
    assert load(host.application, table).game.finished
    # a finished game accepts no more moves, and its turn screen is the final one
    assert host.get(f"/table/{table}").headers["Location"].endswith(f"/table/{table}/final")
    refused(host, table, "adjust", 422, "the game is finished; no more moves are accepted",
            player="Аня", xp=100, reason="поздно")


# ----- malformed forms --------------------------------------------------------------------------------
def test_a_move_without_a_valid_sequence_number_is_refused(host, table):
    form = turn(host, table).form("/move/pass")
    each_case([(None,), ("",), ("вчера",), ("-1",)], lambda after: refused(
        host, table, "pass", 400, "after", **{**form.data(), "after": after}))
