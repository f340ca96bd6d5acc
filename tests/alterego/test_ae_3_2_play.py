"""RULES.md 3.1 and 3.2: the draw, and playing an activity: its effect (a new instance
``a<k>``, Nakkikone, Seurustelu's faction change) and every condition P1–P9, each refused
with its numbers and each with the position where it holds."""

import pytest

from .helpers import (T, ability, act, adjust, draw, end, event, give, ids, next_turn, refused, row, season,
                      set_t, three, to_play, two)


def test_draw_gives_2_cards_and_opens_the_play_step():
    game = two()
    result = game.apply(draw("Aino"))
    assert (game.hands["Aino"], game.step, result.hands) == (7, "play", {"Aino": [5, 7]})


def test_an_activity_is_a_new_unpaused_instance_named_by_the_move_number():
    game = to_play(two())
    result = game.apply(act("Aino", "pelikampanja", "ville"))
    assert result.placed == [{"id": "a2", "card": "pelikampanja", "active": "ville"}]
    assert row(game, "ville")["activities"] == [{"id": "a2", "card": "pelikampanja", "paused": False,
                                                 "in_force": True, "season": 1}]
    assert game.hands["Aino"] == 6


def test_nakkikone_the_holder_gains_1_per_in_force_nakkikone_held_before():
    game = two()
    give(game, "pare", "nakkikone")
    second = give(game, "pare", "nakkikone")
    to_play(game)
    game.apply(act("Aino", "tyo", "pare"))
    assert T(game, "pare") == 2
    game.apply(adjust({"activity": second, "paused": True}))  # a paused Nakkikone is not in force
    game.apply(event("Aino", "energiapuuska", target="pare"))
    game.apply(act("Aino", "pelikampanja", "pare"))
    assert T(game, "pare") == 3


def test_nakkikone_counts_any_player_playing_onto_its_holder_but_not_itself():
    game = to_play(two())
    game.apply(act("Aino", "nakkikone", "pare"))  # held before? no: no gain
    assert T(game, "pare") == 0
    next_turn(game)
    game.apply(act("Bertta", "tyo", "pare"))
    assert T(game, "pare") == 1


def test_seurustelu_x_joins_the_partners_owner_and_takes_only_x_free_time():
    game = to_play(three())
    game.apply(act("Aino", "seurustelu", "niksu", partner="kalle"))
    assert game.faction("Bertta") == ["tommi", "imaami"]
    assert game.faction("Cecilia") == ["jaakko", "kalle", "tane", "niksu"]
    assert (row(game, "niksu")["free_time_unused"], row(game, "kalle")["free_time_unused"]) == (2, 4)
    assert row(game, "niksu")["owner"] == "Cecilia"


def test_seurustelu_between_actives_of_one_owner_moves_nobody():
    """Decision 17."""
    game = to_play(two())
    result = game.apply(act("Aino", "seurustelu", "niksu", partner="tommi"))
    assert game.faction("Bertta") == ["niksu", "tommi", "imaami"] and result.actives == {}


# ----- P1–P9 ----------------------------------------------------------------------------------------
def stress_held():
    """The only Stressinpoistokampanja is on Ville; Aino to play."""
    game = two()
    give(game, "ville", "stressinpoistokampanja")
    return to_play(game)


def stress_paused():
    game = two()
    a = give(game, "ville", "stressinpoistokampanja")
    game.apply(adjust({"activity": a, "paused": True}))
    return to_play(game)


def ville_away():
    game = to_play(two())
    game.apply(event("Aino", "maallepako", target="ville"))
    return game


def meira_burned_out():
    game = two()
    give(game, "meira", "vastuutyo")
    set_t(game, "meira", 2)
    return to_play(game)


def meira_full():
    game = two()
    for card in ("tyo", "pelikampanja", "atleettiharrastus", "jarjestoaktiivi"):
        give(game, "meira", card)
    return to_play(game)


def pare_in_the_countryside():
    game = two()
    give(game, "pare", "tyo_maalla")
    return to_play(game)


def ville_received():
    game = to_play(two())
    game.apply(act("Aino", "pelikampanja", "ville"))
    return game


def niksu_received_then_boosted():
    """Aino played onto Bertta's Niksu, who has had no turn yet; Energiapuuska lifts P6."""
    game = to_play(two())
    game.apply(act("Aino", "tyo", "niksu"))
    game.apply(event("Aino", "energiapuuska", target="niksu"))
    return game


def kalle_received_after_ability():
    game = to_play(three(first="Cecilia"))
    game.apply(ability("Cecilia", "kalle"))
    game.apply(act("Cecilia", "tyo", "kalle"))
    game.apply(event("Cecilia", "energiapuuska", target="kalle"))
    return game


def kalle_drew_the_season_card():
    game = to_play(three(first="Cecilia"))
    game.apply(ability("Cecilia", "kalle"))
    game.apply(season("Cecilia"))
    return game


def tane_burned_out():
    game = three()
    give(game, "tane", "vastuutyo")
    set_t(game, "tane", 5)
    return to_play(game)


def tane_full():
    game = three()
    for card in ("tyo", "pelikampanja", "atleettiharrastus", "jarjestoaktiivi"):
        give(game, "tane", card)
    return to_play(game)


def tane_away():
    game = three(first="Cecilia")
    to_play(game)
    game.apply(event("Cecilia", "maallepako", target="tane"))
    game.apply(end("Cecilia"))
    return to_play(game)


# id, position, move, rule, code, params, the exact message (or None)
P_RULES = [
    ("P1 an event is no activity", lambda: to_play(two()), act("Aino", "bile", "ville"), "P1", "p1_not_activity",
     {"card": "bile"}, None),
    ("P1 every copy is held", stress_held, act("Aino", "stressinpoistokampanja", "pare"), "P1", "p1_copies",
     {"count": 1, "held": 1}, "P1: all 1 copies of stressinpoistokampanja are in play"),
    ("P1 a paused copy counts", stress_paused, act("Aino", "stressinpoistokampanja", "pare"), "P1", "p1_copies",
     {"held": 1}, None),
    ("P2 not in the game", lambda: to_play(two()), act("Aino", "tyo", "kalle"), "P2", "p2_not_in_game",
     {"target": "kalle"}, None),
    ("P2 away", ville_away, act("Aino", "tyo", "ville"), "P2", "p2_away", {"target": "ville"}, None),
    ("P3 burned out", meira_burned_out, act("Aino", "tyo", "meira"), "P3", "p3_burned_out",
     {"anxiety": 4, "bo": 4}, "P3: meira is burned out (anxiety 4, burn-out limit 4)"),
    ("P4 no free time", meira_full, act("Aino", "hype_kampanja", "meira"), "P4", "p4_no_free_time",
     {"used": 4, "va": 4}, "P4: meira has no free time (4 of 4 used)"),
    ("P5 Työ maalla", pare_in_the_countryside, act("Aino", "tyo", "pare"), "P5", "p5_tyo_maalla",
     {"card": "tyo_maalla", "activity": "a1"}, None),
    ("P6 a second activity this turn", ville_received, act("Aino", "tyo", "ville"), "P6", "p6_once_per_turn",
     {"activity": "a2"}, "P6: ville already received an activity this turn (a2)"),
    ("P7 since the owner's last turn", niksu_received_then_boosted, act("Aino", "pelikampanja", "niksu"), "P7",
     "p7_since_owner_turn", {"owner": "Bertta", "activity": "a2", "since": 0},
     "P7: niksu already received an activity since Bertta's last turn ended (a2)"),
    ("P8 Kalle after receiving the drawn card", kalle_received_after_ability, act("Cecilia", "hype_kampanja", "kalle"),
     "P8", "p8_since_ability", {"activity": "a3", "ability_move": 2}, None),
    ("P8 Kalle's ability drew the season card", kalle_drew_the_season_card, act("Cecilia", "tyo", "kalle"), "P8",
     "p8_season_card", {"target": "kalle"}, None),
    ("P9 the partner is the target", lambda: to_play(three()), act("Aino", "seurustelu", "niksu", "niksu"), "P9",
     "p9_same", {}, None),
    ("P9 the partner is not in the game", lambda: to_play(two()), act("Aino", "seurustelu", "niksu", "kalle"),
     "P9", "p9_not_in_game", {"partner": "kalle"}, None),
    ("P9 the partner is away", tane_away, act("Aino", "seurustelu", "niksu", "tane"), "P9", "p9_away", {}, None),
    ("P9 the partner is burned out", tane_burned_out, act("Aino", "seurustelu", "niksu", "tane"), "P9",
     "p9_burned_out", {"anxiety": 7, "bo": 7}, None),
    ("P9 the partner has no free time", tane_full, act("Aino", "seurustelu", "niksu", "tane"), "P9",
     "p9_no_free_time", {"used": 4, "va": 4}, "P9: partner tane has no free time (4 of 4 used)"),
    ("P9 the target is the player's own", lambda: to_play(three()), act("Aino", "seurustelu", "pare", "tane"), "P9",
     "p9_own", {"active": "pare"}, None),
    ("P9 the partner is the player's own", lambda: to_play(three()), act("Aino", "seurustelu", "niksu", "pare"), "P9",
     "p9_own", {"active": "pare"}, None),
]


@pytest.mark.parametrize("name, position, move, rule, code, params, message", P_RULES, ids=[r[0] for r in P_RULES])
def test_play_activity_breaking_a_p_rule_is_refused_with_its_numbers(name, position, move, rule, code, params,
                                                                      message):
    err = refused(position(), move, rule, code, **params)
    if message is not None:
        assert str(err) == message


def test_p1_a_discarded_copy_is_free_again():
    game = stress_held()
    a = ids(game, "ville")[0]
    game.apply(adjust({"remove": a}))
    game.apply(act("Aino", "stressinpoistokampanja", "pare"))


def test_p3_recovery_needs_no_step():
    game = meira_burned_out()
    set_t(game, "meira", 1)
    game.apply(act("Aino", "tyo", "meira"))


def test_p6_energiapuuska_lifts_it_for_its_target_for_the_rest_of_the_turn():
    game = ville_received()
    game.apply(event("Aino", "energiapuuska", target="ville"))
    game.apply(act("Aino", "tyo", "ville"))
    next_turn(game)
    next_turn(game)  # Aino's next turn: the Energiapuuska is spent
    game.apply(act("Aino", "hype_kampanja", "ville"))
    refused(game, act("Aino", "jarjestoaktiivi", "ville"), "P6", "p6_once_per_turn")


def test_p6_counts_a_play_later_cancelled_and_a_tarkea_nakki_chore():
    game = two()
    give(game, "ville", "pelikampanja")
    to_play(game)
    game.apply(event("Aino", "tarkea_nakki", target="ville", hobby="a1", chore="tyo"))
    refused(game, act("Aino", "pelikampanja", "ville"), "P6", "p6_once_per_turn", activity="a3")


def test_p7_holds_once_the_owner_has_had_a_turn_since():
    game = to_play(two())
    game.apply(act("Aino", "tyo", "niksu"))  # Bertta has had no turn: allowed
    next_turn(game)
    game.apply(act("Bertta", "pelikampanja", "niksu"))  # the owner herself: P7 does not apply
    next_turn(game)
    game.apply(act("Aino", "atleettiharrastus", "niksu"))  # nothing onto Niksu since Bertta's turn ended


def test_p7_plays_by_anyone_count():
    """Decision 11: in a 3-player game Bertta may not play onto Cecilia's Kalle after Aino did,
    until Cecilia's turn has ended."""
    game = to_play(three())
    game.apply(act("Aino", "tyo", "kalle"))
    next_turn(game)
    refused(game, act("Bertta", "pelikampanja", "kalle"), "P7", "p7_since_owner_turn", owner="Cecilia",
            activity="a2")
    next_turn(game)
    next_turn(game)  # Cecilia's turn ended: Aino may again
    game.apply(act("Aino", "pelikampanja", "kalle"))


def test_p8_kalle_receives_the_drawn_card_after_his_ability():
    game = to_play(three(first="Cecilia"))
    game.apply(ability("Cecilia", "kalle"))
    game.apply(act("Cecilia", "hype_kampanja", "kalle"))
    assert ids(game, "kalle") == ["a3"]


def test_p9_seurustelu_needs_a_partner_and_others_may_not_take_one():
    from .helpers import malformed
    game = to_play(three())
    malformed(game, act("Aino", "seurustelu", "niksu"), "move.partner", "field_missing")
    malformed(game, act("Aino", "tyo", "niksu", partner="kalle"), "move.partner", "field_extra")
