"""RULES.md 3 and 3.8: each round every player has one turn in turn order; a turn ends when the
next main move is made; only the player whose turn it is makes the main move or plays
deferred; allocate and adjust name any player. Also the standings' `next` (RECORD.md 3)."""

import pytest

from facilitator.rules.lyceum import standings

from .helpers import (FINISH, adjust, allocate, draw, give, make_game, next_slot, pass_, reach,
                      reach_finish, refused, rest, share)


@pytest.fixture
def game():
    return make_game()


@pytest.mark.parametrize("move", [draw("Борис", "L-G"), rest("Вика"), share("Борис"), pass_("Вика")],
                         ids=lambda m: m.type)
def test_only_the_player_whose_turn_it_is_makes_the_main_move(game, move):
    err = refused(game, move, "3.8", "not_your_turn")
    assert err.params == {"expected": "Аня", "round": 1, "player": move.player}
    assert "Аня" in err.message and "round 1" in err.message


def test_one_main_move_per_turn(game):
    game.apply(pass_("Аня"))
    err = refused(game, pass_("Аня"), "3.8", "not_your_turn")
    assert err.params["expected"] == "Борис"


def test_after_the_last_turn_of_a_round_the_next_round_begins_with_the_first_player(game):
    reach(game, 3, "Вика")
    err = refused(game, pass_("Аня"), "3.8", "not_your_turn")
    assert err.params == {"expected": "Вика", "round": 3, "player": "Аня"}
    game.apply(pass_("Вика"))
    err = refused(game, pass_("Борис"), "3.8", "not_your_turn")
    assert err.params == {"expected": "Аня", "round": 4, "player": "Борис"}


def test_an_unknown_player_is_refused(game):
    err = refused(game, pass_("Гоша"), "2.1", "unknown_player")
    assert "Гоша" in err.message


def test_rounds_and_eras_advance_with_the_first_main_move_of_a_round(game):
    seen = []
    for _ in range(30):
        mover = next_slot(game)[1]
        game.apply(pass_(mover))
        seen.append((game.round, game.era.key, game.age, game.current))
    assert seen[0] == (1, "lyceum", 16, "Аня")
    assert seen[2] == (1, "lyceum", 16, "Вика")
    assert seen[3] == (2, "lyceum", 17, "Аня")
    assert seen[9] == (4, "university", 19, "Аня")
    assert seen[21] == (8, "adult", 23, "Аня")
    assert seen[29] == (10, "adult", 25, "Вика")


def test_allocate_and_adjust_may_name_any_player(game):
    give(game, "Вика", xp=300)
    game.apply(allocate("Вика", intellect=2))
    game.apply(adjust("Борис", xp=100, reason="ошибка"))
    assert (game.players["Вика"].skills["intellect"], game.players["Борис"].xp) == (4, 100)


# ----- what the game waits for: standings' next ------------------------------------------
def _next(game):
    return standings([game])["tables"][0]["next"]


def test_next_is_the_first_main_move(game):
    assert _next(game) == {"player": "Аня", "expects": "main"}


def test_next_is_the_following_player_after_a_main_move(game):
    game.apply(pass_("Аня"))
    assert _next(game) == {"player": "Борис", "expects": "main"}
    reach(game, 2, "Аня")
    assert _next(game) == {"player": "Аня", "expects": "main"}


def test_next_is_allocate_for_the_first_player_in_turn_order_with_pending(game):
    game.apply(pass_("Аня"))
    give(game, "Вика", xp=300)
    give(game, "Аня", xp=300)
    assert _next(game) == {"player": "Аня", "expects": "allocate"}
    game.apply(allocate("Аня", health=2))
    assert _next(game) == {"player": "Вика", "expects": "allocate"}
    game.apply(allocate("Вика", health=2))
    assert _next(game) == {"player": "Борис", "expects": "main"}


def test_next_is_finish_once_the_last_turn_of_round_10_began(game):
    reach(game, 10, "Вика")
    assert _next(game) == {"player": "Вика", "expects": "main"}
    game.apply(rest("Вика"))
    assert _next(game) == {"player": "Вика", "expects": "allocate"}
    game.apply(allocate("Вика", energy=1))
    assert _next(game) == {"player": None, "expects": "finish"}


def test_next_is_none_once_finished(game):
    reach_finish(game)
    game.apply(FINISH)
    assert _next(game) is None


def test_legal_moves_offer_the_next_mover(game):
    game.apply(pass_("Аня"))
    moves = {m["type"]: m for m in game.legal_moves()}
    assert moves["draw"] == {"type": "draw", "player": "Борис", "colors": ["green", "yellow", "red"],
                             "era": "lyceum"}
    assert moves["rest"] == {"type": "rest", "player": "Борис", "redistribute_limit": 3}
    assert "share" not in moves  # Борис is level 1
    assert "finish" not in moves
