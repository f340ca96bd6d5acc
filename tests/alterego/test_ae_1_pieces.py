"""RULES.md 1: the pieces. Actives and their abilities (1.1), the state and its terms: N, U,
in force, P, A, burn-out, away, gains and losses (1.3), the seasons (1.4)."""

import pytest

from facilitator.rules.alterego import default_pack
from facilitator.rules.alterego.state import SEASONS

from .helpers import (T, ability, act, adjust, draw, end, event, give, refused, row, set_t, three, to_play, two)

# RULES.md 1.1: key -> (VA, BO, ability)
ACTIVES = {"pare": (4, 5, "pare"), "ville": (4, 5, "ville"), "jaakko": (4, 5, "jaakko"), "niksu": (3, 7, "niksu"),
           "kalle": (4, 5, "kalle"), "tane": (4, 7, "tane"), "meira": (4, 4, "meira"), "imaami": (3, 7, "imaami"),
           "tommi": (4, 6, "tommi")}


@pytest.mark.parametrize("key", list(ACTIVES))
def test_the_actives_of_rules_1_1(key):
    a = default_pack().actives_by_key[key]
    assert (a.va, a.bo, a.ability) == ACTIVES[key]
    assert a.used_ability == (key in ("pare", "jaakko", "niksu", "kalle"))


# ----- 1.1 used abilities ------------------------------------------------------------------------
def test_pare_tells_a_bad_joke_and_3_distinct_actives_gain_1_each():
    game = to_play(two())
    game.apply(ability("Aino", "pare", targets=["ville", "niksu", "pare"]))
    assert [T(game, k) for k in ("ville", "niksu", "pare", "meira")] == [1, 1, 1, 0]


def test_niksu_takes_1_from_another_active_with_anxiety():
    game = two(first="Bertta")
    set_t(game, "meira", 2)
    to_play(game)
    game.apply(ability("Bertta", "niksu", **{"from": "meira"}))
    assert (T(game, "meira"), T(game, "niksu")) == (1, 1)


def test_kalle_draws_one_card_and_then_may_receive_only_that_card():
    game = to_play(three(first="Cecilia"))
    game.apply(ability("Cecilia", "kalle"))
    assert game.hands["Cecilia"] == 8
    game.apply(act("Cecilia", "pelikampanja", "kalle"))
    game.apply(event("Cecilia", "energiapuuska", target="kalle"))  # lifts P6 but not P8
    refused(game, act("Cecilia", "tyo", "kalle"), "P8", "p8_since_ability")


def test_jaakko_swaps_a_card_and_the_hand_size_stays():
    game = to_play(three(first="Cecilia"))
    result = game.apply(ability("Cecilia", "jaakko"))
    assert game.hands["Cecilia"] == 7 and result.hands == {}


def test_ville_gains_1_influence_per_campaign_of_his_in_force():
    game = two()
    for card in ("pelikampanja", "hype_kampanja", "jarjestoaktiivi"):
        give(game, "ville", card)
    assert (row(game, "ville")["influence_base"]) == 2 + 3 + 1 + 2


def test_meira_gains_1_influence_per_unused_free_time():
    game = two()
    assert row(game, "meira")["influence"] == 4
    give(game, "meira", "pelikampanja")
    assert row(game, "meira")["influence"] == 2 + 3


def test_tane_never_gets_the_idle_gain():
    game = to_play(three(first="Cecilia"))
    result = game.apply(end("Cecilia"))
    assert [(c["active"], c["outcome"]) for c in result.checks] == [
        ("jaakko", "idle_gain"), ("kalle", "idle_gain"), ("tane", "no_change")]
    assert T(game, "tane") == 0


@pytest.mark.parametrize("activities, t, expected", [(1, 3, 0), (2, 3, 1), (3, 3, 2), (4, 3, 3), (1, 2, 0)])
def test_tommi_loses_his_unused_free_time_in_the_check(activities, t, expected):
    """Decision 8: Tommi loses exactly U (4 − N here), never below 0."""
    game = two(first="Bertta")
    for card in ("tyo", "pelikampanja", "atleettiharrastus", "hype_kampanja")[:activities]:
        give(game, "tommi", card)
    set_t(game, "tommi", t)
    to_play(game)
    game.apply(end("Bertta"))
    assert T(game, "tommi") == expected


def test_imaamis_first_gain_in_every_turn_is_one_smaller():
    game = two()
    to_play(game)
    game.apply(event("Aino", "hahmo_kuolee", target="imaami"))  # 2 - 1
    game.apply(ability("Aino", "pare", targets=["imaami", "ville", "meira"]))  # second gain: full
    assert T(game, "imaami") == 2
    game.apply(end("Aino"))
    to_play(game)  # Bertta's turn: a new reduction
    game.apply(ability("Bertta", "niksu", **{"from": "ville"}))
    game.apply(end("Bertta"))  # imaami idle: first gain of the turn, 1 - 1 = 0
    assert T(game, "imaami") == 2


# ----- 1.3 N, U, in force, P, A -----------------------------------------------------------------
def test_paused_activities_take_no_free_time_and_count_for_nothing():
    game = two()
    a = give(game, "meira", "jarjestoaktiivi")
    give(game, "meira", "pelikampanja")
    game.apply(adjust({"activity": a, "paused": True}))
    r = row(game, "meira")
    assert (r["free_time_unused"], r["anxiety_perm"], r["influence_base"]) == (3, 0, 2 + 3)
    assert [x["in_force"] for x in r["activities"]] == [False, True]


def test_tyo_maalla_puts_the_holders_other_activities_out_of_force():
    game = two()
    give(game, "pare", "jarjestoaktiivi")
    give(game, "pare", "vastuutyo")
    give(game, "pare", "tyo_maalla")
    r = row(game, "pare")
    assert [x["in_force"] for x in r["activities"]] == [False, False, True]
    assert (r["anxiety_perm"], r["influence_base"], r["free_time_unused"]) == (0, 0, 1)  # decision 28


# (activities per active, P of pare, P of ville): P = non-work + max(0, W − S)
PERMANENT = [
    ({"pare": ["naurettava_harrastus"]}, 1, 0),
    ({"pare": ["vastuutyo", "htt_tyo"]}, 3, 0),
    ({"pare": ["vastuutyo", "jarjestoaktiivi"], "ville": ["stressinpoistokampanja"]}, 1 + 1, 0),
    ({"pare": ["htt_tyo"], "ville": ["stressinpoistokampanja"]}, 0, 0),
    ({"pare": ["stressinpoistokampanja", "vastuutyo"], "ville": ["htt_tyo"]}, 1, 0),  # for every active
    ({"pare": ["vastuutyo"], "ville": ["stressinpoistokampanja", "tyo_maalla"]}, 2, 0),  # out of force: no relief
    ({"pare": ["lopputyo", "naurettava_harrastus"]}, 3, 0),
]


@pytest.mark.parametrize("held, pare, ville", PERMANENT)
def test_permanent_anxiety(held, pare, ville):
    game = two()
    for key, cards in held.items():
        for card in cards:
            give(game, key, card)
    assert (row(game, "pare")["anxiety_perm"], row(game, "ville")["anxiety_perm"]) == (pare, ville)


def test_anxiety_is_t_plus_p_and_burn_out_is_reached_at_bo():
    game = two()
    give(game, "meira", "vastuutyo")  # P 2, BO 4
    set_t(game, "meira", 1)
    assert (row(game, "meira")["anxiety"], row(game, "meira")["burned_out"]) == (3, False)
    set_t(game, "meira", 2)
    assert (row(game, "meira")["anxiety"], row(game, "meira")["burned_out"]) == (4, True)


def test_an_active_one_anxiety_from_burning_out_is_near_burnout_as_the_engine_says():
    """A = BO − 1: the next anxiety burns it out. Permanent anxiety counts (and the relief of a
    Stressinpoistokampanja), a burned-out active is no longer near, nor one two below BO."""
    game = two()
    give(game, "meira", "vastuutyo")  # P 2, BO 4
    assert game.near_burnout() == []
    set_t(game, "meira", 1)  # A 3 = BO − 1
    assert game.near_burnout() == ["meira"] and not row(game, "meira")["burned_out"]
    set_t(game, "pare", 4)  # Pare: A 4, BO 5; listed in seating order
    assert game.near_burnout() == [k for k in game.state.in_seat_order() if k in ("meira", "pare")]
    set_t(game, "meira", 2)  # A 4: burned out, no longer near
    assert "meira" not in game.near_burnout() and row(game, "meira")["burned_out"]
    give(game, "ville", "stressinpoistokampanja")  # relief 1: Meira's work anxiety P 2 -> 1, A 3 again
    assert "meira" in game.near_burnout() and not row(game, "meira")["burned_out"]


@pytest.mark.parametrize("t, near", [(3, False), (4, True), (5, False)])
def test_near_burnout_is_where_an_idle_turn_end_gains_nothing(t, near):
    """RULES.md 3.5 step 2: an idle active gains 1 only while A + 1 < BO (Pare, BO 5)."""
    game = two()
    set_t(game, "pare", t)
    assert ("pare" in game.near_burnout()) is near
    to_play(game)
    line = next(c for c in game.apply(end("Aino")).checks if c["active"] == "pare")
    assert (line["outcome"] == "idle_gain") is (not near and t < 5)


def test_a_loss_never_takes_t_below_0_and_t_has_no_upper_limit():
    game = to_play(two())
    set_t(game, "tommi", 9)
    game.apply(event("Aino", "hahmo_kuolee", target="tommi"))
    assert T(game, "tommi") == 11
    game2 = to_play(two())
    game2.apply(event("Aino", "uusi_tyyli", target="pare"))  # pare loses 1 at T 0
    assert T(game2, "pare") == 0 and T(game2, "ville") == 1


def test_an_away_active_gets_no_gains_or_losses_but_stays_and_scores():
    game = to_play(two())
    give(game, "ville", "pelikampanja")
    game.apply(event("Aino", "maallepako", target="ville"))
    result = game.apply(event("Aino", "uusi_tyyli", target="pare"))
    assert T(game, "ville") == 0
    assert {"code": "unaffected_away", "active": "ville", "change": "gain", "amount": 1,
            "cause": "uusi_tyyli"} in result.events
    assert game.faction("Aino") == ["pare", "ville", "meira"]
    assert row(game, "ville")["influence"] == 3


def test_the_four_seasons():
    assert SEASONS == ("winter", "spring", "summer", "ropecon")


def test_a_draw_then_play_step():
    game = two()
    assert game.step == "draw"
    game.apply(draw("Aino"))
    assert (game.step, game.hands["Aino"]) == ("play", 7)
