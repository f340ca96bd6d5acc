"""RULES.md 3.4: reactions. Played with ``react`` by any player, in any turn, to the trigger
(the last move that is not a reaction, if it is a ``play_event``, ``play_activity``,
``ability``, ``season`` or ``choose``). The trigger is resolved again from the state before
it, with every reaction so far as a modifier; then the reaction cards leave the hands."""

import pytest

from .helpers import (T, ability, act, adjust, choose, draw, end, event, give, ids, react, refused, row, season,
                      set_hand, set_t, snapshot, three, to_play, two)


# ----- Taktinen teko ------------------------------------------------------------------------------
def test_taktinen_teko_cancels_every_gain_of_its_target_and_keeps_losses():
    game = two()
    set_t(game, "pare", 2)
    to_play(game)
    game.apply(event("Aino", "uusi_tyyli", target="pare"))  # pare −1, ville +1, meira +1
    n = len(game.moves)
    result = game.apply(react("Bertta", "taktinen_teko", n, target="ville"))
    assert (T(game, "pare"), T(game, "ville"), T(game, "meira")) == (1, 0, 1)
    assert result.actives == {"ville": {"anxiety_temp": [1, 0]}}
    assert result.hands == {"Bertta": [5, 4]}


def test_taktinen_teko_needs_a_gain_not_yet_cancelled():
    game = two()
    set_t(game, "pare", 2)
    to_play(game)
    game.apply(event("Aino", "uusi_tyyli", target="pare"))
    n = len(game.moves)
    refused(game, react("Bertta", "taktinen_teko", n, target="pare"), "§3.4", "taktinen_teko_no_gain",
            target="pare", trigger=n)
    game.apply(react("Bertta", "taktinen_teko", n, target="meira"))
    refused(game, react("Aino", "taktinen_teko", n, target="meira"), "§3.4", "taktinen_teko_no_gain")


def test_a_cancelled_gain_does_not_spend_imaamis_reduction():
    """Decision 38: after Taktinen teko on Hahmo kuolee, Imaami's next gain this turn is the
    first, so it is 1 smaller."""
    game = to_play(two())
    game.apply(event("Aino", "hahmo_kuolee", target="imaami"))
    assert T(game, "imaami") == 1
    game.apply(react("Bertta", "taktinen_teko", len(game.moves), target="imaami"))
    assert T(game, "imaami") == 0
    game.apply(ability("Aino", "pare", targets=["imaami", "pare", "ville"]))
    assert T(game, "imaami") == 0


def test_taktinen_teko_on_a_season_change_gain():
    game = two()
    for card in ("tyo", "pelikampanja", "atleettiharrastus", "vastuutyo"):
        give(game, "ville", card)
    game.apply(season("Aino"))  # → 2: Ville holds 2 hobbies → choice
    game.apply(choose("Aino", "discard_hobby", "ville", activity="a2"))  # keeps its athletic hobby
    game.apply(act("Aino", "naurettava_harrastus", "ville"))
    game.apply(end("Aino"))
    game.apply(season("Bertta"))  # → 3: Ville keeps its athletic hobby
    game.apply(end("Bertta"))
    game.apply(season("Aino"))  # → 4: Ville U = 0 gains 2
    n = len(game.moves)
    assert T(game, "ville") == 2
    game.apply(react("Bertta", "taktinen_teko", n, target="ville"))
    assert T(game, "ville") == 0 and game.season == 4


# ----- Ei rahaa ---------------------------------------------------------------------------------------
def party(participants=("niksu", "tommi")):
    """Aino's Pare throws a party for Bertta's actives (T 1 each)."""
    game = two()
    for k in ("pare",) + tuple(participants):
        set_t(game, k, 1)
    to_play(game)
    game.apply(event("Aino", "bile", target="pare", participants=list(participants)))
    return game


def test_ei_rahaa_on_the_organizer_gains_1_instead_of_its_change():
    game = party(("niksu", "tommi", "imaami"))  # 2 − 3 = −1: T 0
    assert T(game, "pare") == 0
    game.apply(react("Bertta", "ei_rahaa", len(game.moves), target="pare"))
    assert T(game, "pare") == 2


def test_ei_rahaa_on_a_guest_leaves_it_out_of_n():
    game = party()  # n 2: pare 1 + 0
    assert (T(game, "pare"), T(game, "niksu")) == (1, 0)
    game.apply(react("Aino", "ei_rahaa", len(game.moves), target="niksu"))  # n 1: pare +1; niksu +1
    assert (T(game, "pare"), T(game, "niksu"), T(game, "tommi")) == (2, 2, 0)


def test_ei_rahaa_on_an_immune_active_is_refused_while_the_job_is_in_force():
    game = two()
    job = give(game, "tommi", "htt_tyo")
    to_play(game)
    game.apply(event("Aino", "bile", target="pare", participants=["tommi"]))
    refused(game, react("Aino", "ei_rahaa", len(game.moves), target="tommi"), "§3.4", "ei_rahaa_immune",
            card="htt_tyo", activity=job)
    game2 = two()
    job = give(game2, "tommi", "vastuutyo")
    game2.apply(adjust({"activity": job, "paused": True}))
    to_play(game2)
    game2.apply(event("Aino", "bile", target="pare", participants=["tommi"]))
    game2.apply(react("Aino", "ei_rahaa", len(game2.moves), target="tommi"))


def test_ei_rahaa_names_each_actor_once_and_only_party_goers():
    game = party()
    n = len(game.moves)
    refused(game, react("Aino", "ei_rahaa", n, target="imaami"), "§3.4", "ei_rahaa_not_party")
    game.apply(react("Aino", "ei_rahaa", n, target="niksu"))
    refused(game, react("Aino", "ei_rahaa", n, target="niksu"), "§6.41", "ei_rahaa_named")
    game.apply(react("Aino", "ei_rahaa", n, target="pare"))  # the organizer too, once
    refused(game, react("Bertta", "ei_rahaa", n, target="pare"), "§6.41", "ei_rahaa_named")


def test_ei_rahaa_answers_a_bile_only():
    game = to_play(two())
    game.apply(event("Aino", "hahmo_kuolee", target="tommi"))
    refused(game, react("Bertta", "ei_rahaa", len(game.moves), target="tommi"), "§6.14", "ei_rahaa_not_bile")


# ----- Ei kiinnostusta ----------------------------------------------------------------------------
def test_ei_kiinnostusta_discards_the_pelikampanja_just_placed_but_the_play_still_counts():
    game = two()
    give(game, "ville", "nakkikone")
    to_play(game)
    game.apply(act("Aino", "pelikampanja", "ville"))
    n = len(game.moves)
    result = game.apply(react("Bertta", "ei_kiinnostusta", n))
    assert result.discarded == [{"id": f"a{n}", "card": "pelikampanja", "active": "ville"}]
    assert ids(game, "ville") == ["a1"] and T(game, "ville") == 1  # Nakkikone's gain stays
    refused(game, act("Aino", "tyo", "ville"), "P6", "p6_once_per_turn", activity=f"a{n}")
    refused(game, react("Bertta", "ei_kiinnostusta", n), "§3.4", "ei_kiinnostusta_nothing")


def test_ei_kiinnostusta_cancels_only_what_it_lists():
    game = to_play(two())
    game.apply(act("Aino", "hype_kampanja", "ville"))
    refused(game, react("Bertta", "ei_kiinnostusta", len(game.moves)), "§3.4", "ei_kiinnostusta_nothing",
            cards="pelikampanja")


# ----- Mun kaverit ------------------------------------------------------------------------------------
def dating():
    """Aino makes Bertta's Niksu date Cecilia's Kalle: Niksu would join Cecilia (move 2)."""
    game = to_play(three())
    game.apply(act("Aino", "seurustelu", "niksu", partner="kalle"))
    return game


def test_mun_kaverit_sends_the_couple_to_the_holders_faction_instead():
    game = dating()
    game.apply(react("Aino", "mun_kaverit", 2, faction="Bertta"))
    assert game.faction("Bertta") == ["niksu", "tommi", "imaami", "kalle"]
    assert game.faction("Cecilia") == ["jaakko", "tane"]


def test_mun_kaverit_must_change_where_the_couple_goes_and_name_one_of_their_factions():
    game = dating()
    refused(game, react("Aino", "mun_kaverit", 2, faction="Cecilia"), "§3.4", "mun_kaverit_same")
    refused(game, react("Bertta", "mun_kaverit", 2, faction="Aino"), "§6.16", "mun_kaverit_not_couple",
            holder_faction="Bertta", partner_faction="Cecilia")


def test_mun_kaverit_chained_the_last_one_decides():
    game = dating()
    game.apply(react("Bertta", "mun_kaverit", 2, faction="Bertta"))
    game.apply(react("Cecilia", "mun_kaverit", 2, faction="Cecilia"))
    assert game.faction("Cecilia") == ["jaakko", "kalle", "tane", "niksu"]
    assert game.faction("Bertta") == ["tommi", "imaami"]
    assert (game.hands["Bertta"], game.hands["Cecilia"]) == (4, 4)


def test_mun_kaverit_redirects_a_breakup_choice():
    game = dating()
    game.apply(event("Aino", "loppu", activity="a2"))
    game.apply(choose("Cecilia", "breakup", "niksu", faction="Aino"))
    n = len(game.moves)
    refused(game, react("Bertta", "mun_kaverit", n, faction="Cecilia"), "§3.4", "mun_kaverit_own_faction")
    refused(game, react("Bertta", "mun_kaverit", n, faction="Aino"), "§3.4", "mun_kaverit_same")
    game.apply(react("Bertta", "mun_kaverit", n, faction="Bertta"))
    assert row(game, "niksu")["owner"] == "Bertta" and game.faction("Aino") == ["pare", "ville", "meira"]


def test_mun_kaverit_needs_a_faction_change():
    game = to_play(two())
    game.apply(act("Aino", "seurustelu", "niksu", partner="tommi"))  # same owner: nobody moves
    refused(game, react("Aino", "mun_kaverit", len(game.moves), faction="Aino"), "§3.4", "mun_kaverit_no_move")


# ----- who, when, the window ------------------------------------------------------------------------
def test_any_player_reacts_in_any_turn_even_while_a_choice_is_pending():
    game = dating()
    game.apply(event("Aino", "loppu", activity="a2"))
    assert game.pending
    game.apply(react("Cecilia", "taktinen_teko", len(game.moves), target="kalle"))
    assert (T(game, "niksu"), T(game, "kalle")) == (2, 0)
    assert game.pending == [{"choice": "breakup", "player": "Cecilia", "partners": ["niksu", "kalle"]}]


def test_a_reactor_with_an_empty_hand_is_refused():
    game = to_play(two())
    set_hand(game, "Bertta", 0)
    game.apply(event("Aino", "hahmo_kuolee", target="tommi"))
    refused(game, react("Bertta", "taktinen_teko", len(game.moves), target="tommi"), "§3.4", "no_card", hand=0)


@pytest.mark.parametrize("closing", ["draw", "end_turn", "adjust"])
def test_draw_end_turn_and_adjust_close_the_window(closing):
    game = to_play(two())
    game.apply(event("Aino", "hahmo_kuolee", target="tommi"))
    n = len(game.moves)
    if closing == "draw":
        game.apply(end("Aino"))
        game.apply(draw("Bertta"))
    elif closing == "end_turn":
        game.apply(end("Aino"))
    else:
        game.apply(adjust({"active": "pare", "anxiety": 1}))
    refused(game, react("Bertta", "taktinen_teko", n, target="tommi"), "§3.4", "react_no_trigger")


def test_react_must_name_the_trigger():
    game = to_play(two())
    game.apply(event("Aino", "hahmo_kuolee", target="tommi"))
    game.apply(ability("Aino", "pare", targets=["tommi", "niksu", "imaami"]))
    refused(game, react("Bertta", "taktinen_teko", 2, target="tommi"), "§3.4", "react_wrong_to", to=2, trigger=3)


def test_the_trigger_is_resolved_again_from_the_state_before_it():
    """The result equals resolving the trigger once with the reactions as modifiers: the same
    position as a table where they were known before the move."""
    game = party()
    n = len(game.moves)
    game.apply(react("Aino", "ei_rahaa", n, target="niksu"))
    game.apply(react("Bertta", "taktinen_teko", n, target="niksu"))
    assert (T(game, "pare"), T(game, "niksu"), T(game, "tommi")) == (2, 1, 0)
    assert (game.hands["Aino"], game.hands["Bertta"]) == (5, 4)
    assert len(game.moves) == n + 2 and game.trigger[0] == n


def test_a_refused_reaction_changes_nothing_and_the_window_stays_open():
    game = party()
    n = len(game.moves)
    before = snapshot(game)
    refused(game, react("Aino", "ei_rahaa", n, target="meira"), "§3.4", "ei_rahaa_not_party")
    assert snapshot(game) == before
    game.apply(react("Aino", "ei_rahaa", n, target="tommi"))
