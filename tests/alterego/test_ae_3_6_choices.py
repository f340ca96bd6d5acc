"""RULES.md 3.6: pending choices. ``discard_hobby`` and ``breakup`` are queued by automatic
steps, answered with ``choose`` in queue order by the player named; while one is pending only
``choose`` (the first), ``react``, ``adjust`` and ``finish`` are accepted."""

import pytest

from .helpers import (ability, act, adjust, choose, draw, end, event, finish, give, react, refused, season, two)


def two_choices():
    """Season 2 with two hobbies each on Ville (Aino's) and Tommi (Bertta's): Aino drew the
    season card, so Aino's choice comes first. Ville holds a Seurustelu with Niksu (a1)."""
    game = two()
    give(game, "ville", "seurustelu", partner="niksu")
    give(game, "ville", "pelikampanja")
    give(game, "tommi", "atleettiharrastus")
    give(game, "tommi", "hype_kampanja")
    game.apply(season("Aino"))
    return game


def test_choices_are_queued_in_turn_order_from_the_current_player():
    assert two_choices().pending == [
        {"choice": "discard_hobby", "player": "Aino", "active": "ville", "options": ["a1", "a2"]},
        {"choice": "discard_hobby", "player": "Bertta", "active": "tommi", "options": ["a3", "a4"]}]


@pytest.mark.parametrize("move", [draw("Aino"), season("Aino"), end("Aino"), act("Aino", "tyo", "pare"),
                                  event("Aino", "hahmo_kuolee", target="tommi"),
                                  ability("Aino", "pare", targets=["pare", "ville", "meira"])],
                         ids=["draw", "season", "end_turn", "play_activity", "play_event", "ability"])
def test_while_a_choice_is_pending_turn_moves_are_refused(move):
    refused(two_choices(), move, "§3.6", "choice_pending", player="Aino", choice="discard_hobby")


def test_react_adjust_and_finish_are_accepted_while_a_choice_is_pending():
    game = two_choices()
    game.apply(adjust({"active": "pare", "anxiety": 1}))
    game.apply(finish())
    assert game.pending == [] and game.next() is None  # decision 36: pending choices lapse


def test_choices_are_answered_in_queue_order_by_their_player():
    game = two_choices()
    refused(game, choose("Bertta", "discard_hobby", "tommi", activity="a3"), "§3.6", "choose_wrong_player",
            player="Aino", given="Bertta")
    refused(game, choose("Aino", "breakup", "ville", faction="Bertta"), "§3.6", "choose_wrong_choice")
    refused(game, choose("Aino", "discard_hobby", "pare", activity="a2"), "§3.6", "choose_wrong_active")
    game.apply(choose("Aino", "discard_hobby", "ville", activity="a2"))
    game.apply(choose("Bertta", "discard_hobby", "tommi", activity="a3"))
    assert game.pending == [] and game.next() == {"player": "Aino", "expects": "play"}


def test_an_answer_must_be_one_of_the_options():
    game = two()
    give(game, "ville", "pelikampanja")
    give(game, "ville", "hype_kampanja")
    give(game, "ville", "tyo")
    game.apply(season("Aino"))
    refused(game, choose("Aino", "discard_hobby", "ville", activity="a3"), "§3.6", "choose_not_option",
            options="a1, a2")


def test_new_choices_join_the_end_of_the_queue():
    game = two_choices()
    result = game.apply(choose("Aino", "discard_hobby", "ville", activity="a1"))  # the Seurustelu: a break-up
    assert result.queued == [{"choice": "breakup", "player": "Aino", "partners": ["ville", "niksu"]}]
    assert [c["choice"] for c in game.pending] == ["discard_hobby", "breakup"]


def test_a_choose_is_a_trigger_for_reactions():
    game = two_choices()
    game.apply(choose("Aino", "discard_hobby", "ville", activity="a1"))
    n = len(game.moves)
    game.apply(react("Bertta", "taktinen_teko", n, target="niksu"))
    assert (game.state.actives["ville"].t, game.state.actives["niksu"].t) == (2, 0)


def test_a_discard_hobby_is_answered_by_its_player_after_its_active_changed_faction():
    """Decision 42."""
    game = two_choices()
    game.apply(adjust({"active": "ville", "owner": "Bertta"}))
    assert game.pending[0]["player"] == "Aino"
    game.apply(choose("Aino", "discard_hobby", "ville", activity="a2"))


def test_options_are_computed_when_answered():
    """Decision 42: an adjust leaves pending choices in place; their options follow the state."""
    game = two_choices()
    game.apply(adjust({"active": "ville", "add": "naurettava_harrastus"}))
    assert game.pending[0]["options"] == ["a1", "a2", f"a{len(game.moves)}"]
    game.apply(adjust({"remove": "a2"}))
    assert game.pending[0]["options"] == ["a1", f"a{len(game.moves) - 1}"]


def test_choose_with_nothing_pending_is_refused():
    game = two()
    refused(game, choose("Aino", "discard_hobby", "ville", activity="a1"), "§3.6", "no_choice")
