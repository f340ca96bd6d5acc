"""RULES.md 3.3: when a Seurustelu leaves its holder X (any way but ``adjust``), X and its
partner Y each gain 2, X first; then X's owner moves one of them (not away) to another
faction with a ``breakup`` choice."""

from .helpers import (T, act, adjust, choose, event, give, next_turn, refused, set_t, three, to_play, two)


def dating():
    """Aino made Bertta's Niksu date Cecilia's Kalle (move 2, ``a2``): Niksu joined Cecilia."""
    game = to_play(three())
    game.apply(act("Aino", "seurustelu", "niksu", partner="kalle"))
    return game


def test_loppu_on_a_seurustelu_is_a_breakup_gains_then_a_choice_for_xs_owner():
    game = dating()
    result = game.apply(event("Aino", "loppu", activity="a2"))
    gains = [(e["active"], e["applied"]) for e in result.events if e["code"] == "gain"]
    assert gains == [("niksu", 2), ("kalle", 2)]  # X first
    assert result.queued == [{"choice": "breakup", "player": "Cecilia", "partners": ["niksu", "kalle"]}]
    assert game.next()["expects"] == "choose" and game.next()["player"] == "Cecilia"


def test_the_breakup_choice_moves_the_chosen_one_to_the_faction_named():
    game = dating()
    game.apply(event("Aino", "loppu", activity="a2"))
    result = game.apply(choose("Cecilia", "breakup", "kalle", faction="Aino"))
    assert result.actives["kalle"]["owner"] == ["Cecilia", "Aino"]
    assert game.faction("Aino") == ["pare", "ville", "meira", "kalle"]
    assert game.pending == [] and game.next() == {"player": "Aino", "expects": "play"}


def test_the_breakup_moves_to_another_faction_only_and_not_an_away_active():
    game = dating()
    game.apply(adjust({"active": "kalle", "away": True}))
    game.apply(event("Aino", "loppu", activity="a2"))
    assert game.pending == [{"choice": "breakup", "player": "Cecilia", "partners": ["niksu"]}]
    refused(game, choose("Cecilia", "breakup", "kalle", faction="Aino"), "§3.6", "choose_not_partner")
    refused(game, choose("Cecilia", "breakup", "niksu", faction="Cecilia"), "§3.6", "choose_own_faction",
            faction="Cecilia")


def test_the_seurustelu_of_an_away_holder_cannot_be_targeted_so_no_breakup_leaves_both_away():
    """The "none: no choice" case of 3.3 cannot arise in play: an away X's activities cannot be
    targeted (1.3), and away actives return before the season discards (4, step 2c)."""
    game = dating()
    game.apply(adjust({"active": "kalle", "away": True}, {"active": "niksu", "away": True}))
    next_turn(game)
    next_turn(game)
    next_turn(game)  # Aino again; Niksu's activity cannot be targeted while he is away
    refused(game, event("Aino", "loppu", activity="a2"), "§3.2", "activity_away")
    game.apply(adjust({"active": "niksu", "away": False}))
    game.apply(event("Aino", "loppu", activity="a2"))
    assert game.pending == [{"choice": "breakup", "player": "Cecilia", "partners": ["niksu"]}]


def test_an_away_partner_neither_gains_nor_is_offered_to_move():
    game = two()
    a = give(game, "pare", "seurustelu", partner="niksu")
    game.apply(adjust({"active": "niksu", "away": True}))
    to_play(game)
    game.apply(event("Aino", "tarkea_nakki", target="pare", hobby=a, chore="tyo"))  # Pare not away: choice
    assert game.pending == [{"choice": "breakup", "player": "Aino", "partners": ["pare"]}]
    assert (T(game, "pare"), T(game, "niksu")) == (2, 0)  # away: no gain


def test_an_adjust_removing_a_seurustelu_is_no_breakup():
    game = dating()
    result = game.apply(adjust({"remove": "a2"}))
    assert result.queued == [] and T(game, "niksu") == 0


def test_loppu_on_a_paused_or_suppressed_seurustelu_is_a_breakup():
    """Decision 40."""
    for suppress in ({"activity": "a2", "paused": True}, {"active": "niksu", "add": "tyo_maalla"}):
        game = dating()
        game.apply(adjust(suppress))
        result = game.apply(event("Aino", "loppu", activity="a2"))
        assert [q["choice"] for q in result.queued] == ["breakup"]


def test_the_breakup_gain_is_the_cards_param_and_imaami_takes_his_reduction():
    game = two()
    a = give(game, "imaami", "seurustelu", partner="meira")
    set_t(game, "meira", 0)
    to_play(game)
    game.apply(event("Aino", "loppu", activity=a))
    assert (T(game, "imaami"), T(game, "meira")) == (1, 2)


def test_a_breakup_with_both_away_queues_no_choice():
    """3.3 "(none: no choice)", on the resolution itself (play cannot reach it, see above)."""
    from facilitator.rules.alterego.effects import Resolution

    game = dating()
    st = game.state.copy()
    st.actives["niksu"].away = st.actives["kalle"].away = True
    res = Resolution(st, len(game.moves) + 1)
    res.discard("niksu", st.actives["niksu"].find("a2"), "test")
    assert st.pending == [] and (st.actives["niksu"].t, st.actives["kalle"].t) == (0, 0)
    assert [e["code"] for e in res.events] == ["discarded", "breakup", "unaffected_away", "unaffected_away"]
