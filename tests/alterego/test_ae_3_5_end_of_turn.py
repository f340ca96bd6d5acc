"""RULES.md 3.5: the end of a turn. For each active of the current player, in faction order,
not away: with activities and anxiety it loses 1 (Tommi: U), unless burned out without free
time; idle, it gains 1 unless it is Tane or the gain would reach BO. Then the hand limit,
and the next player's turn begins with fresh per-turn markers."""

import pytest

from .helpers import (T, ability, act, adjust, draw, end, event, give, refused, set_hand, set_t, three, to_play,
                      two)

# id, Pare's activities, Pare's T, away?, outcome, reason, T after (Pare: VA 4, BO 5)
CHECK = [
    ("activities and anxiety: loses 1", ["tyo"], 2, False, "relief", None, 1),
    ("activities, no anxiety: no change", ["tyo"], 0, False, "no_change", "no_anxiety", 0),
    ("burned out with free time: loses 1", ["vastuutyo", "jarjestoaktiivi"], 2, False, "relief", None, 1),
    ("burned out without free time: no change", ["vastuutyo", "jarjestoaktiivi", "tyo", "pelikampanja"], 2, False,
     "no_change", "burned_out_no_free_time", 2),
    ("idle: gains 1", [], 0, False, "idle_gain", None, 1),
    ("idle, the gain would reach BO: no change", [], 4, False, "no_change", "would_burn_out", 4),
    ("idle and burned out: no change", [], 6, False, "no_change", "would_burn_out", 6),
    ("away: skipped", [], 2, True, "away", None, 2),
]


@pytest.mark.parametrize("name, held, t, away, outcome, reason, after", CHECK, ids=[c[0] for c in CHECK])
def test_the_anxiety_check(name, held, t, away, outcome, reason, after):
    game = two()
    for card in held:
        give(game, "pare", card)
    set_t(game, "pare", t)
    if away:
        game.apply(adjust({"active": "pare", "away": True}))
    to_play(game)
    result = game.apply(end("Aino"))
    line = next(c for c in result.checks if c["active"] == "pare")
    assert line["outcome"] == outcome
    if reason is not None:
        assert line["reason"] == reason
    assert T(game, "pare") == after


def test_the_check_goes_through_the_current_players_faction_in_order_only():
    game = to_play(two())
    result = game.apply(end("Aino"))
    assert [c["active"] for c in result.checks] == ["pare", "ville", "meira"]
    assert [T(game, k) for k in ("niksu", "tommi", "imaami")] == [0, 0, 0]


def test_the_hand_is_cut_to_5():
    game = to_play(two())
    assert game.hands["Aino"] == 7
    result = game.apply(end("Aino"))
    assert game.hands["Aino"] == 5 and result.hands == {"Aino": [7, 5]}


@pytest.mark.parametrize("players, order", [(2, ["Aino", "Bertta", "Aino"]), (3, ["Aino", "Bertta", "Cecilia"])])
def test_the_next_player_in_seating_order_starts_the_next_turn_in_the_draw_step(players, order):
    game = two() if players == 2 else three()
    seen = []
    for turn in range(1, 4):
        assert (game.turn, game.current, game.step) == (turn, order[turn - 1], "draw")
        seen.append(game.current)
        to_play(game)
        game.apply(end(game.current))
    assert seen == order


def test_per_turn_markers_start_afresh():
    game = to_play(three(first="Cecilia"))
    game.apply(event("Cecilia", "energiapuuska", target="kalle"))
    game.apply(ability("Cecilia", "kalle"))
    game.apply(ability("Cecilia", "jaakko"))
    refused(game, ability("Cecilia", "jaakko"), "§1.1", "ability_twice")
    for _ in range(3):
        game.apply(end(game.current))
        to_play(game)
    assert game.current == "Cecilia"
    game.apply(ability("Cecilia", "jaakko"))  # a new turn: once again
    game.apply(act("Cecilia", "tyo", "kalle"))
    refused(game, act("Cecilia", "pelikampanja", "kalle"), "P6", "p6_once_per_turn")  # Energiapuuska spent


def test_imaamis_reduction_starts_afresh_each_turn():
    game = two()
    set_t(game, "imaami", 0)
    to_play(game)
    game.apply(event("Aino", "hahmo_kuolee", target="imaami"))  # 2 − 1
    game.apply(end("Aino"))
    game.apply(draw("Bertta"))
    game.apply(end("Bertta"))  # idle imaami: 1 − 1
    assert T(game, "imaami") == 1


def test_end_turn_needs_the_play_step():
    game = two()
    refused(game, end("Aino"), "§3.5", "wrong_step")
    set_hand(game, "Aino", 9)
    to_play(game)
    game.apply(end("Aino"))
    assert game.hands["Aino"] == 5
