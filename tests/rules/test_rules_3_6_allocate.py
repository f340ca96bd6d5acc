"""RULES.md 3.6 Allocate: a player assigns all their pending free SP at once, summing exactly to
the pending count; any player may allocate at any point; while ANY player has pending free SP,
no move other than allocate and adjust is accepted."""

import pytest

from facilitator.rules.lyceum import Move

from .helpers import (FINISH, adjust, allocate, draw, give, make_game, pass_, play_deferred, reach,
                      reach_finish, refused, rest, share, skills)


@pytest.fixture
def game():
    return make_game()


def test_allocate_all_pending_sp_at_once(game):
    game.apply(rest("Аня"))  # 1 pending
    give(game, "Аня", xp=300)  # +2 from level 2
    game.apply(allocate("Аня", health=1, energy=2))
    assert game.players["Аня"].skills == skills(health=8, intellect=2, creativity=2, communication=2,
                                                energy=5)
    assert game.players["Аня"].pending == 0
    assert game.pending() == {}


@pytest.mark.parametrize("given", [0, 1, 3, 5])
def test_allocating_more_or_fewer_is_refused(game, given):
    give(game, "Аня", xp=600)  # 4 pending
    err = refused(game, allocate("Аня", intellect=given), "3.6", "allocate_sum")
    assert err.params == {"player": "Аня", "pending": 4, "given": given}
    assert "exactly 4" in err.message and f"got {given}" in err.message


def test_free_sp_are_added_never_taken(game):
    game.apply(rest("Аня"))  # 1 pending
    err = refused(game, allocate("Аня", health=2, energy=-1), "3.6", "allocate_negative")
    assert err.params == {"skill": "energy", "value": -1}
    assert "energy -1" in err.message


def test_nothing_to_allocate(game):
    err = refused(game, allocate("Борис", health=1), "3.6", "nothing_pending")
    assert "Борис" in err.message


def test_any_player_may_allocate_whoever_has_the_turn(game):
    game.apply(pass_("Аня"))
    give(game, "Вика", xp=300)
    game.apply(allocate("Вика", creativity=2))  # it is Аня's turn, Борис is to move
    assert game.players["Вика"].skills["creativity"] == 4


BLOCKED = [
    # a move that waits while someone has pending free SP
    draw("Борис", "L-G"),
    rest("Борис"),
    share("Борис"),
    pass_("Борис"),
]


@pytest.mark.parametrize("move", BLOCKED, ids=lambda m: m.type)
@pytest.mark.parametrize("holder", ["Аня", "Борис", "Вика"])
def test_pending_sp_of_any_player_block_every_main_move(game, move, holder):
    game.apply(pass_("Аня"))
    give(game, holder, xp=300)
    err = refused(game, move, "3.6", "pending_sp")
    assert err.params == {"who": holder, "count": 2}
    assert holder in err.message and "2 free SP" in err.message


def test_pending_sp_block_play_deferred(game):
    game.apply(draw("Аня", "L-R", "defer"))
    reach(game, 2, "Аня")
    game.apply(rest("Аня"))  # Аня now has 1 pending
    refused(game, play_deferred("Аня"), "3.6", "pending_sp")


def test_pending_sp_block_finish(game):
    reach_finish(game)
    give(game, "Вика", xp=300)
    refused(game, FINISH, "3.6", "pending_sp")
    game.apply(allocate("Вика", health=2))
    game.apply(FINISH)
    assert game.finished


def test_adjust_is_accepted_while_sp_are_pending(game):
    give(game, "Аня", xp=300)
    game.apply(adjust("Борис", xp=100))
    assert game.players["Борис"].xp == 100
    assert game.pending() == {"Аня": 2}


def test_the_first_player_in_turn_order_is_named(game):
    give(game, "Вика", xp=300)
    give(game, "Борис", xp=600)
    assert game.pending() == {"Борис": 4, "Вика": 2}
    err = refused(game, pass_("Аня"), "3.6", "pending_sp")
    assert err.params["who"] == "Борис"
    assert game.next() == {"player": "Борис", "expects": "allocate"}


def test_only_allocate_and_adjust_are_offered_while_sp_are_pending(game):
    give(game, "Вика", xp=300)
    assert [m["type"] for m in game.legal_moves()] == ["allocate", "adjust"]
    assert game.legal_moves()[0] == {"type": "allocate", "player": "Вика", "sp": 2, "pending": 2}


def test_play_resumes_after_every_allocation(game):
    give(game, "Вика", xp=300)
    give(game, "Борис", xp=300)
    game.apply(allocate("Вика", health=2))
    refused(game, pass_("Аня"), "3.6", "pending_sp")
    game.apply(allocate("Борис", health=2))
    game.apply(pass_("Аня"))
    assert game.next() == {"player": "Борис", "expects": "main"}


def test_an_allocation_is_a_move_not_a_turn(game):
    game.apply(rest("Аня"))
    game.apply(Move("allocate", player="Аня", sp={"intellect": 1}))
    assert game.next() == {"player": "Борис", "expects": "main"}
