"""RULES.md 4: the season change, step by step, and the end of the game."""

from .helpers import (T, ability, adjust, choose, draw, end, event, give, ids, refused, row, season, set_hand,
                      set_t, three, to_play, two)


def change_season(game):
    """The current player (or, in the play step, the next one) draws the season card."""
    if game.step == "play":
        game.apply(end(game.current))
    return game.apply(season(game.current))


# ----- steps 1 and 5: hands ------------------------------------------------------------------------
def test_hands_the_current_player_5_the_others_as_held():
    game = three()
    set_hand(game, "Bertta", 2)
    set_hand(game, "Cecilia", 9)
    result = game.apply(season("Aino"))
    assert game.hands == {"Aino": 5, "Bertta": 2, "Cecilia": 9}
    assert next(e for e in result.events if e["code"] == "hands_discarded")["hands"] == {
        "Aino": 5, "Bertta": 2, "Cecilia": 9}
    assert (game.step, game.turn, game.season) == ("play", 1, 2)


def test_season_4_gives_every_hand_5():
    game = three()
    change_season(game)
    change_season(game)
    set_hand(game, "Aino", 1)
    set_hand(game, "Bertta", 8)
    change_season(game)
    assert game.season == 4 and game.hands == {"Aino": 5, "Bertta": 5, "Cecilia": 5}


# ----- step 2: the end of the season ------------------------------------------------------------
def test_2a_a_lopputyo_held_in_force_through_a_season_is_discarded_and_relieves_3():
    game = two()
    thesis = give(game, "meira", "lopputyo")
    give(game, "meira", "pelikampanja")
    change_season(game)  # placed in season 1: not yet
    game.apply(choose("Aino", "discard_hobby", "meira", activity="a2"))
    assert ids(game, "meira") == [thesis]
    game.apply(end("Aino"))
    set_t(game, "meira", 5)
    result = game.apply(season("Bertta"))  # end of season 2: complete
    assert ids(game, "meira") == []
    steps = [(e["step"], e["code"]) for e in result.season_change]
    assert steps[:1] == [("1", "hands_discarded")]
    losses = [(e["cause"], e["applied"]) for e in result.events if e["code"] == "loss" and e["active"] == "meira"]
    assert losses == [("lopputyo", 3), ("season_3", 1)]
    assert T(game, "meira") == 1


def test_2a_a_paused_lopputyo_is_not_completed():
    game = two()
    thesis = give(game, "meira", "lopputyo")
    game.apply(adjust({"activity": thesis, "paused": True}))
    game.apply(season("Aino"))
    # returned at step 2d (placed in season 1, paused at the end of it), then season 2's discard takes it
    assert ids(game, "meira") == []


def test_2b_every_stressinpoistokampanja_is_discarded_paused_or_not():
    game = two()
    give(game, "ville", "stressinpoistokampanja")
    give(game, "ville", "atleettiharrastus")
    result = game.apply(season("Aino"))
    assert {"id": "a1", "card": "stressinpoistokampanja", "active": "ville"} in result.discarded
    assert result.discarded[0]["id"] == "a1"


def test_2c_away_actives_return_with_t_0():
    game = to_play(two())
    set_t(game, "meira", 3)
    game.apply(event("Aino", "maallepako", target="meira"))
    result = change_season(game)
    assert (row(game, "meira")["away"], T(game, "meira")) == (False, 0)
    assert {"code": "returned", "step": "2c", "active": "meira"} in result.events


def test_2d_paused_activities_return_in_the_order_paused_if_there_is_free_time():
    game = two()
    for card in ("tyo", "htt_tyo", "vastuutyo", "nakkikone"):
        give(game, "pare", card)
    game.apply(adjust({"activity": "a3", "paused": True}))
    game.apply(adjust({"activity": "a1", "paused": True}))
    give(game, "pare", "tyo")  # U 1: only the first paused returns
    result = game.apply(season("Aino"))
    assert result.unpaused == [{"id": "a3", "card": "vastuutyo", "active": "pare"}]
    assert {"id": "a1", "card": "tyo", "active": "pare"} in result.discarded
    assert ids(game, "pare") == ["a2", "a3", "a4", "a7"]  # a returning activity keeps its place


# ----- step 3: the start of the new season -----------------------------------------------------------
def test_season_2_one_hobby_is_discarded_more_are_the_owners_choice_chores_stay():
    game = two()
    give(game, "pare", "tyo")
    give(game, "ville", "pelikampanja")
    give(game, "meira", "pelikampanja")
    give(game, "meira", "atleettiharrastus")
    result = game.apply(season("Aino"))
    assert ids(game, "pare") == ["a1"] and ids(game, "ville") == []
    assert result.queued == [{"choice": "discard_hobby", "player": "Aino", "active": "meira",
                              "options": ["a3", "a4"]}]


def test_season_3_every_active_loses_1_and_an_athletic_hobby_in_force_spares_its_holder():
    game = two()
    change_season(game)
    game.apply(end("Aino"))
    for k in ("pare", "ville", "meira", "niksu"):
        set_t(game, k, 2)
    give(game, "pare", "atleettiharrastus")
    give(game, "pare", "pelikampanja")
    give(game, "ville", "pelikampanja")
    give(game, "meira", "atleettiharrastus")
    give(game, "meira", "tyo_maalla")  # the athletic hobby is out of force: no protection
    result = game.apply(season("Bertta"))
    assert game.season == 3
    assert ids(game, "pare") == ["a7", "a8"]
    assert [(e["step"], e["active"]) for e in result.events if e["code"] == "spared"] == [("3", "pare")]
    assert ids(game, "ville") == [] and ids(game, "meira") == ["a11"]
    assert [T(game, k) for k in ("pare", "ville", "meira", "niksu")] == [1, 1, 1, 1]


def test_season_4_every_active_without_free_time_gains_2():
    game = two()
    change_season(game)
    change_season(game)
    for card in ("tyo", "htt_tyo", "vastuutyo", "nakkikone"):
        give(game, "pare", card)
    for card in ("tyo", "htt_tyo", "nakkikone"):
        give(game, "niksu", card)
    give(game, "imaami", "tyo")
    change_season(game)
    assert game.season == 4 and game.season_key == "ropecon"
    assert (T(game, "pare"), T(game, "niksu"), T(game, "imaami")) == (2, 2, 0)


def test_a_seurustelu_discarded_at_the_season_change_is_a_breakup_at_that_point():
    game = two()
    give(game, "meira", "seurustelu", partner="tommi")
    result = game.apply(season("Aino"))
    assert ids(game, "meira") == []
    assert (T(game, "meira"), T(game, "tommi")) == (2, 2)
    assert result.queued == [{"choice": "breakup", "player": "Aino", "partners": ["meira", "tommi"]}]


def test_the_steps_take_the_actives_in_turn_order_from_the_current_player():
    game = two(first="Bertta")
    give(game, "pare", "pelikampanja")
    give(game, "niksu", "pelikampanja")
    result = game.apply(season("Bertta"))
    assert [d["active"] for d in result.discarded] == ["niksu", "pare"]


# ----- the season card, and the end ----------------------------------------------------------------
def test_the_season_card_after_jaakkos_ability():
    game = to_play(three(first="Cecilia"))
    game.apply(ability("Cecilia", "jaakko"))
    game.apply(season("Cecilia"))
    assert (game.season, game.step, game.hands["Cecilia"]) == (2, "play", 5)


def test_the_season_card_only_as_the_draw_or_right_after_a_jaakko_or_kalle_ability():
    """Decision 47: anything in between, even an adjust, makes it illegal."""
    game = to_play(three(first="Cecilia"))
    refused(game, season("Cecilia"), "§6.47", "season_not_now")
    game.apply(ability("Cecilia", "jaakko"))
    game.apply(adjust({"active": "tane", "anxiety": 1}))
    refused(game, season("Cecilia"), "§6.47", "season_not_now", kind="adjust")


def test_the_4th_season_card_ends_the_game_with_step_2a_only():
    """RULES.md 4 "End" and decision 35: the Lopputyö placed in season 3 completes; the
    Stressinpoistokampanja, the away active and the paused activity stay; the step, the
    hands, the turn and the current player stay as they were."""
    game = two()
    change_season(game)
    change_season(game)
    thesis = give(game, "meira", "lopputyo")
    change_season(game)
    give(game, "ville", "stressinpoistokampanja")
    job = give(game, "tommi", "tyo")
    game.apply(adjust({"activity": job, "paused": True}, {"active": "pare", "away": True}))
    game.apply(end(game.current))
    set_t(game, "meira", 4)
    set_hand(game, game.current, 2)
    before = (game.turn, game.current, game.hands, game.step)
    result = game.apply(season(game.current))
    assert game.finished and game.ended_by == "season" and game.next() is None and game.pending == []
    assert (game.turn, game.current, game.hands, game.step) == before
    assert before[3] == "draw" and game.season == 4
    assert [e["code"] for e in result.events] == ["season_card", "discarded", "loss", "game_ended"]
    assert result.discarded == [{"id": thesis, "card": "lopputyo", "active": "meira"}] and T(game, "meira") == 1
    assert [a["card"] for a in row(game, "ville")["activities"]] == ["stressinpoistokampanja"]
    assert row(game, "pare")["away"] and row(game, "tommi")["activities"][0]["paused"]


def test_the_4th_season_card_drawn_by_kalle_leaves_the_step_play():
    game = three(first="Cecilia")
    for _ in range(3):
        change_season(game)
    while game.current != "Cecilia":
        game.apply(end(game.current)) if game.step == "play" else game.apply(draw(game.current))
    to_play(game)
    game.apply(ability("Cecilia", "kalle"))
    game.apply(season("Cecilia"))
    assert game.finished and game.step == "play" and game.hands["Cecilia"] == 8
    refused(game, end("Cecilia"), "§4", "game_finished")
