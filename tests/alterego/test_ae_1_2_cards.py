"""RULES.md 1.2: what every event does (the numbers from its ``params``), played by
``play_event`` in the own turn's play step."""

import pytest

from facilitator.rules.alterego import Game, read_pack, read_setup

from .helpers import (T, ability, act, adjust, event, give, ids, malformed, pack_data, pack_with, refused, row,
                      set_hand, set_t, setup_data, three, to_play, two)


def hahmo_kuolee():
    return to_play(two()), event("Aino", "hahmo_kuolee", target="tommi")


def uusi_tyyli():
    game = two()
    set_t(game, "ville", 2)
    return to_play(game), event("Aino", "uusi_tyyli", target="ville")


def bile_even():
    """Pare throws a party: Ville (same owner) and Niksu, Tommi (Bertta's): n = 2, 2 − 2 = 0."""
    game = two()
    for k in ("ville", "niksu", "tommi", "pare"):
        set_t(game, k, 1)
    return to_play(game), event("Aino", "bile", target="pare", participants=["ville", "niksu", "tommi"])


def bile_net_loss():
    game = two()
    set_t(game, "pare", 3)
    return to_play(game), event("Aino", "bile", target="pare", participants=["niksu", "tommi", "imaami"])


def bile_alone():
    return to_play(two()), event("Aino", "bile", target="meira", participants=[])


def tyokiireita(held):
    def position():
        game = two()
        for card in held:
            give(game, "pare", card)
        return to_play(game), event("Aino", "tyokiireita", target="pare")
    return position


# id, position -> (game, move), expected T after it
EFFECTS = [
    ("Hahmo kuolee: the target gains 2", hahmo_kuolee, {"tommi": 2}),
    ("Uusi tyyli: the target loses 1, its faction-mates gain 1", uusi_tyyli, {"ville": 1, "pare": 1, "meira": 1}),
    ("Bile: organizer 2 − 1·n, guests of its own faction do not count", bile_even,
     {"pare": 1, "ville": 0, "niksu": 0, "tommi": 0}),
    ("Bile: the organizer's net change may be a loss", bile_net_loss, {"pare": 2, "niksu": 0}),
    ("Bile: no participants, the organizer gains 2", bile_alone, {"meira": 2}),
    ("Työkiireitä: max(1, 3 − U) with U 3", tyokiireita(["tyo"]), {"pare": 1}),
    ("Työkiireitä: max(1, 3 − U) with U 1", tyokiireita(["tyo", "pelikampanja", "atleettiharrastus"]), {"pare": 2}),
    ("Työkiireitä: max(1, 3 − U) with U 0", tyokiireita(["tyo", "pelikampanja", "atleettiharrastus",
                                                        "hype_kampanja"]), {"pare": 3}),
]


@pytest.mark.parametrize("name, position, expected", EFFECTS, ids=[e[0] for e in EFFECTS])
def test_event_effects(name, position, expected):
    game, move = position()
    hand = game.hands[move.player]
    game.apply(move)
    assert {k: T(game, k) for k in expected} == expected
    assert game.hands[move.player] == hand - 1


def test_the_numbers_come_from_the_cards_params():
    pack = pack_with(hahmo_kuolee={"params": {"gain": 5}},
                     bile={"params": {"organizer_gain": 4, "per_guest": 3, "participant_loss": 2}})
    game = to_play(Game(pack, read_setup(setup_data())))
    set_t(game, "niksu", 3)
    game.apply(event("Aino", "hahmo_kuolee", target="tommi"))
    game.apply(event("Aino", "bile", target="pare", participants=["niksu"]))
    assert (T(game, "tommi"), T(game, "pare"), T(game, "niksu")) == (5, 1, 1)


def test_tarkea_nakki_the_hobby_goes_and_the_chore_takes_its_slot_ignoring_p3_to_p8():
    game = two()
    hobby = give(game, "meira", "pelikampanja")
    give(game, "meira", "vastuutyo")
    set_t(game, "meira", 3)  # A 5 ≥ BO 4: burned out
    to_play(game)
    result = game.apply(event("Aino", "tarkea_nakki", target="meira", hobby=hobby, chore="htt_tyo"))
    assert ids(game, "meira") == ["a2", "a5"]
    assert result.discarded == [{"id": hobby, "card": "pelikampanja", "active": "meira"}]
    assert result.placed == [{"id": "a5", "card": "htt_tyo", "active": "meira"}]
    assert game.hands["Aino"] == 5  # 7 − 2: the chore came from the hand too


def test_tarkea_nakki_chore_counts_for_nakkikone():
    game = two()
    hobby = give(game, "pare", "pelikampanja")
    give(game, "pare", "nakkikone")
    to_play(game)
    game.apply(event("Aino", "tarkea_nakki", target="pare", hobby=hobby, chore="tyo"))
    assert T(game, "pare") == 1


def test_tarkea_nakki_needs_two_cards():
    game = two()
    hobby = give(game, "pare", "pelikampanja")
    to_play(game)
    set_hand(game, "Aino", 1)
    refused(game, event("Aino", "tarkea_nakki", target="pare", hobby=hobby, chore="tyo"), "§1.2", "no_card",
            hand=1)


def test_uusi_aktiivi_joins_the_players_faction_and_may_act_this_turn():
    game = to_play(two())
    result = game.apply(event("Aino", "uusi_aktiivi", active="kalle"))
    assert game.faction("Aino") == ["pare", "ville", "meira", "kalle"]
    assert result.joined == ["kalle"] and game.active_deck == ["jaakko", "tane"]
    assert row(game, "kalle")["anxiety_temp"] == 0 and row(game, "kalle")["activities"] == []
    game.apply(ability("Aino", "kalle"))
    assert game.hands["Aino"] == 7  # 7 − 1 for Uusi aktiivi + 1 drawn by Kalle


def test_loppu_discards_an_activity_paused_or_not():
    game = two()
    a = give(game, "tommi", "vastuutyo")
    game.apply(adjust({"activity": a, "paused": True}))
    to_play(game)
    result = game.apply(event("Aino", "loppu", activity=a))
    assert ids(game, "tommi") == [] and result.discarded[0]["id"] == a


def test_tauko_pauses_an_activity_which_then_counts_for_nothing():
    game = two()
    a = give(game, "tommi", "vastuutyo")
    to_play(game)
    result = game.apply(event("Aino", "tauko", activity=a))
    assert result.paused == [{"id": a, "card": "vastuutyo", "active": "tommi"}]
    assert (row(game, "tommi")["anxiety_perm"], row(game, "tommi")["free_time_unused"]) == (0, 4)


def test_maallepako_sends_an_own_active_away():
    game = to_play(two())
    result = game.apply(event("Aino", "maallepako", target="meira"))
    assert row(game, "meira")["away"] and result.actives == {"meira": {"away": [False, True]}}


def test_energiapuuska_may_name_any_active():
    """Decision 11: "an active", not "own"."""
    game = to_play(two())
    game.apply(event("Aino", "energiapuuska", target="tommi"))
    game.apply(act("Aino", "tyo", "tommi"))
    refused(game, act("Aino", "pelikampanja", "tommi"), "P7", "p7_since_owner_turn")


def test_an_event_without_effect_is_playable_with_no_fields_and_changes_nothing():
    """Decision 43."""
    data = pack_data()
    data["cards"].append({"key": "kahvi", "name": "Kahvi", "gloss": "Coffee", "count": 2, "type": "event",
                          "subtype": None, "work": False, "influence": 0, "permanent_anxiety": 0, "reaction": False,
                          "no_money_immune": False, "effect": None, "params": {}, "text": "", "text_en": ""})
    game = to_play(Game(read_pack(data), read_setup(setup_data())))
    before = (game.state.key())
    result = game.apply(event("Aino", "kahvi"))
    assert result.hands == {"Aino": [7, 6]} and result.actives == {}
    assert before != game.state.key()
    malformed(game, event("Aino", "kahvi", target="pare"), "move.target", "field_extra")


def test_an_event_card_field_is_required_by_the_effect():
    game = to_play(two())
    malformed(game, event("Aino", "hahmo_kuolee"), "move.target", "field_missing")
    malformed(game, event("Aino", "bile", target="pare"), "move.participants", "field_missing")
    malformed(game, event("Aino", "loppu", target="pare"), "move.target", "field_extra")


def test_a_three_player_table_cannot_play_uusi_aktiivi():
    """Decision 1: with 3 players the active deck is empty."""
    game = to_play(three())
    refused(game, event("Aino", "uusi_aktiivi", active="kalle"), "§1.2", "uusi_aktiivi_deck_empty", count=9)
