"""What the app asks the engine besides check and apply: what a move changed (``MoveResult``),
what may be played now (``legal_moves``, ``options``), and a cheap fork of a game (``copy``)."""

import json
import random

import pytest

from facilitator.rules.alterego import IllegalMoveError, MalformedError, read_move, read_record, standings
from facilitator.rules.alterego.checks import LIST_NEEDS, check
from facilitator.rules.alterego.moves import with_field
from facilitator.rules.alterego.simulate import play_random

from .helpers import (act, adjust, end, event, example_record_data, finish, give, react, season, set_hand, set_t,
                      snapshot, table_of, three, to_play, two)


def test_a_move_result_says_what_changed_as_codes_and_numbers():
    game = three()
    give(game, "niksu", "nakkikone")
    to_play(game)
    result = game.apply(act("Aino", "seurustelu", "niksu", partner="kalle"))
    assert (result.number, result.turn, result.season, result.step, result.current) == (3, 1, 1, "play", "Aino")
    assert result.placed == [{"id": "a3", "card": "seurustelu", "active": "niksu"}]
    assert result.actives["niksu"] == {"anxiety_temp": [0, 1], "owner": ["Bertta", "Cecilia"]}
    assert result.hands == {"Aino": [7, 6]}
    json.dumps(result.to_dict(), ensure_ascii=False)
    assert [e["code"] for e in result.events] == ["hand", "placed", "gain", "moved"]


def test_a_season_change_lists_its_steps_in_order():
    game = two()
    give(game, "ville", "stressinpoistokampanja")
    give(game, "pare", "pelikampanja")
    result = game.apply(season("Aino"))
    steps = [e["step"] for e in result.season_change]
    assert steps == sorted(steps, key=["1", "2a", "2b", "2c", "2d", "3", "5", "6"].index)
    assert {"1", "2b", "3", "5", "6"} <= set(steps)


def test_check_changes_nothing_and_refuses_like_apply():
    game = to_play(two())
    before = snapshot(game)
    game.check(act("Aino", "tyo", "pare"))
    assert snapshot(game) == before
    with pytest.raises(IllegalMoveError):
        game.check(act("Aino", "tyo", "kalle"))


# ----- legal moves and options -----------------------------------------------------------------
def test_legal_moves_at_the_start_of_a_turn():
    assert [m["type"] for m in two().legal_moves()] == ["draw", "season", "adjust", "finish"]


def test_legal_moves_in_the_play_step_offer_cards_targets_and_refusals():
    record = read_record(example_record_data())
    from facilitator.rules.alterego import Game
    game = Game(record.pack, record.setup)
    for move in record.moves[:10]:
        game.apply(move)
    moves = {m["type"]: m for m in game.legal_moves()}
    assert set(moves) == {"play_activity", "play_event", "ability", "end_turn", "adjust", "finish"}  # no reaction fits
    htt_tyo = moves["play_activity"]["cards"]["htt_tyo"]
    assert htt_tyo["legal"] and htt_tyo["reason"] is None and htt_tyo["field"] == "target"
    assert str(htt_tyo["options"]["meira"]) == "P6: meira already received an activity this turn (a10)"
    assert htt_tyo["options"]["tommi"] is None
    assert moves["play_activity"]["cards"]["stressinpoistokampanja"]["refusal"] is None
    game.apply(act("Bertta", "pelikampanja", "tommi"))
    react_entry = next(m for m in game.offers() if m["type"] == "react")
    assert react_entry["to"] == 11 and react_entry["cards"]["ei_kiinnostusta"]["legal"]
    taktinen = react_entry["cards"]["taktinen_teko"]
    assert taktinen["refusal"] is None  # the card fits; no target does
    assert all(r is not None for r in taktinen["options"].values())
    assert not taktinen["legal"] and taktinen["reason"].code == "react_no_target"


# ----- an option that cannot be played says why -------------------------------------------------
def offers_of(game):
    return {m["type"]: m for m in game.offers()}


def test_a_card_that_cannot_be_played_stays_offered_with_its_reason():
    """RULES.md 3.2: a card the current player cannot play now is not dropped: it carries
    ``legal`` false and the engine's reason, the card's own refusal or why none of its
    targets fits; ``legal_moves`` drops only a type none of whose options is legal."""
    game = to_play(three())
    events = offers_of(game)["play_event"]["cards"]
    assert events["uusi_aktiivi"]["refusal"].code == "uusi_aktiivi_deck_empty"  # 3 players: every active is in
    assert str(events["loppu"]["reason"]) == "§1.2: no activity loppu can name is held now"
    assert events["loppu"]["refusal"] is None and events["loppu"]["field"] == "activity"
    assert events["tyokiireita"]["reason"].code == "no_target"  # nobody holds a work chore
    assert {k: r.code for k, r in events["tyokiireita"]["options"].items()} == dict.fromkeys(
        ("pare", "ville", "meira", "niksu", "tommi", "imaami", "jaakko", "kalle", "tane"), "tyokiireita_no_work")
    assert events["hahmo_kuolee"]["legal"] and events["hahmo_kuolee"]["reason"] is None
    set_hand(game, "Aino", 0)
    offers = offers_of(game)
    assert not offers["play_activity"]["legal"] and not offers["play_event"]["legal"]
    assert {o["refusal"].code for o in offers["play_activity"]["cards"].values()} == {"no_card"}
    assert {m["type"] for m in game.legal_moves()} == {"ability", "end_turn", "adjust", "finish"}


def test_a_seurustelu_target_is_legal_only_with_a_partner():
    """P9: the player's own active is refused as the target at once; a target whose every
    possible partner is refused is refused too, with why."""
    game = to_play(two())
    for key in ("niksu", "imaami"):
        set_t(game, key, 7)  # burned out: no partner for Tommi among Bertta's actives
    seurustelu = offers_of(game)["play_activity"]["cards"]["seurustelu"]
    targets = seurustelu["options"]
    assert targets["pare"].code == "p9_own" and targets["ville"].code == "p9_own"
    assert str(targets["tommi"]) == "P9: no active can be the partner of tommi now"
    assert targets["niksu"].code == "p3_burned_out"
    assert not seurustelu["legal"] and seurustelu["reason"].code == "no_target"
    set_t(game, "imaami", 0)
    partners = game.offer({"type": "play_activity", "player": "Aino", "card": "seurustelu", "target": "tommi"})
    assert partners["field"] == "partner" and partners["legal"]
    assert [k for k, r in partners["options"].items() if r is None] == ["imaami"]


def test_an_ability_without_enough_targets_says_why():
    """Pare's joke names 3 actives (decision 32); Niksu needs an active with temporary
    anxiety (RULES.md 1.1). Jaakko and Kalle take no field: one tap."""
    game = to_play(table_of(("pare", "niksu", "jaakko"), ("kalle", "ville", "meira")))
    abilities = offers_of(game)["ability"]["actives"]
    assert abilities["pare"]["legal"] and abilities["pare"]["field"] == "targets"
    assert abilities["jaakko"]["legal"] and abilities["jaakko"]["field"] is None
    niksu = abilities["niksu"]
    assert not niksu["legal"] and niksu["field"] == "from" and niksu["reason"].code == "niksu_nobody"
    for key in ("niksu", "jaakko", "kalle", "ville"):
        game.apply(adjust({"active": key, "away": True}))
    pare = game.offer({"type": "ability", "player": "Aino", "active": "pare"})
    assert not pare["legal"] and str(pare["reason"]) == "§6.32: Pare's joke needs 3 actives; only 2 can be named now"


def test_an_offer_for_the_fields_given_so_far():
    """A card's page asks for its next field: Tärkeä nakki takes the target, then one of its
    hobbies, then a chore; a refused field given in the link is the refusal."""
    game = two()
    hobby = give(game, "tommi", "naurettava_harrastus")
    to_play(game)
    base = {"type": "play_event", "player": "Aino", "card": "tarkea_nakki"}
    first = game.offer(base)
    assert first["field"] == "target" and [k for k, r in first["options"].items() if r is None] == ["tommi"]
    second = game.offer(dict(base, target="tommi"))
    assert second["field"] == "hobby" and second["options"] == {hobby: None}
    third = game.offer(dict(base, target="tommi", hobby=hobby))
    assert third["field"] == "chore" and third["legal"]
    assert game.offer(dict(base, target="tommi", hobby=hobby, chore="tyo"))["legal"]
    assert game.offer(dict(base, target="pare"))["refusal"].code == "tarkea_nakki_no_hobby"


def test_legal_moves_while_a_choice_is_pending():
    game = two()
    give(game, "ville", "pelikampanja")
    give(game, "ville", "hype_kampanja")
    game.apply(season("Aino"))
    moves = game.legal_moves()
    assert [m["type"] for m in moves] == ["choose", "adjust", "finish"]
    assert moves[0]["answers"] == [{"active": "ville", "activity": "a1"}, {"active": "ville", "activity": "a2"}]


def test_no_legal_moves_once_finished():
    game = two()
    game.apply(finish())
    assert game.legal_moves() == []


def test_options_for_one_field_with_the_reason_for_each_refusal():
    game = two()
    for card in ("tyo", "pelikampanja", "atleettiharrastus", "jarjestoaktiivi"):
        give(game, "meira", card)
    to_play(game)
    opts = game.options({"type": "play_activity", "player": "Aino", "card": "hype_kampanja"}, "target",
                        ["pare", "meira", "kalle"])
    assert opts["pare"] is None
    assert str(opts["meira"]) == "P4: meira has no free time (4 of 4 used)"
    assert opts["kalle"].code == "p2_not_in_game"


def test_options_for_a_seurustelu_partner_and_pares_targets():
    game = to_play(three())
    partners = game.options({"type": "play_activity", "player": "Aino", "card": "seurustelu", "target": "niksu"},
                            "partner")
    assert [k for k, r in partners.items() if r is None] == ["jaakko", "kalle", "tane", "imaami", "tommi"]
    assert partners["pare"].code == "p9_own" and partners["niksu"].code == "p9_same"
    targets = game.options({"type": "ability", "player": "Aino", "active": "pare", "targets": ["ville"]}, "targets",
                           ["ville", "tane"])
    assert targets["tane"] is None and targets["ville"].code == "pare_targets"


def test_options_default_candidates_and_malformed_ones():
    game = to_play(two())
    opts = game.options({"type": "play_event", "player": "Aino", "card": "loppu"}, "activity")
    assert opts == {}
    give(game, "tommi", "tyo")
    opts = game.options({"type": "play_event", "player": "Aino", "card": "loppu"}, "activity")
    assert list(opts) == ["a2"] and opts["a2"] is None
    bad = game.options({"type": "play_event", "player": "Aino", "card": "loppu"}, "activity", ["a99", 7])
    assert isinstance(bad["a99"], MalformedError) and isinstance(bad[7], MalformedError)


def complete(game, data):
    """A legal move made from the fields ``data`` by taking, field after field, an option the
    engine's ``offer`` marks legal; None when its offers lead nowhere."""
    offer = game.offer(data)
    if offer["refusal"] is not None:
        return None
    name = offer["field"]
    if name is None:
        return data
    legal = [c for c, r in offer["options"].items() if r is None]
    if name in LIST_NEEDS:
        need = LIST_NEEDS[name]
        return complete(game, dict(data, **{name: legal[:need]})) if len(legal) >= need else None
    for candidate in legal:
        done = complete(game, dict(data, **{name: candidate}))
        if done is not None:
            return done
    return None


def bases(entry):
    """``(move fields, offer)`` of every card, ability or reaction of an ``offers`` entry."""
    kind = entry["type"]
    for key, offer in entry.get("cards", {}).items():
        base = {"type": kind, "player": entry.get("player") or entry["players"][0], "card": key}
        if kind == "react":
            base["to"] = entry["to"]
        yield base, offer
    for key, offer in entry.get("actives", {}).items():
        yield {"type": "ability", "player": entry["player"], "active": key}, offer


@pytest.mark.parametrize("data, name, value", [
    ({"type": "play_activity", "player": "Aino", "card": "seurustelu", "target": "niksu"}, "partner", "kalle"),
    ({"type": "play_event", "player": "Aino", "card": "bile", "target": "pare"}, "participants", "tommi"),
    ({"type": "play_event", "player": "Aino", "card": "bile", "participants": ["ville"]}, "participants", "tommi"),
    ({"type": "ability", "player": "Aino", "active": "pare"}, "targets", "ville"),
    ({"type": "react", "player": "Aino", "card": "mun_kaverit", "to": 3}, "faction", "Bertta"),
    ({"type": "choose", "player": "Aino", "choice": "breakup", "active": "niksu"}, "faction", "Aino"),
    ({"type": "play_activity", "player": "Aino", "card": "tyo"}, "target", 7),
    ({"type": "play_activity", "player": "Aino", "card": "tyo"}, "target", ""),
    ({"type": "play_activity", "player": "Aino", "card": "tyo"}, "hobby", "a1"),
])
def test_one_field_added_to_a_move_reads_as_the_whole_move_would(data, name, value):
    """``Game.options`` reads a move once and adds each candidate with ``with_field``: the move
    (or the refusal) is exactly what ``read_move`` makes of the whole dict."""
    whole = dict(data, **{name: list(data.get(name) or ()) + [value] if name in ("participants", "targets")
                          else value})
    try:
        expected = read_move(whole, partial=True)
    except MalformedError as err:
        with pytest.raises(MalformedError) as info:
            with_field(read_move(data, partial=True), name, value)
        assert (info.value.path, str(info.value)) == (err.path, str(err))
    else:
        got = with_field(read_move(data, partial=True), name, value)
        assert got == expected and got.to_dict() == expected.to_dict()


@pytest.mark.parametrize("seed", range(6))
def test_every_option_offered_as_legal_completes_and_every_refusal_is_the_engines(seed):
    """On positions of random games: an offer marked legal completes into a move ``check``
    accepts by taking options marked legal, one marked not legal does not; a refused option is
    refused by ``check`` with that code (or, refused for the fields after it, leads nowhere);
    ``legal_moves`` is ``offers`` without the types none of whose options is legal."""
    record, _ = play_random(seed, players=2 + seed % 2, max_moves=60)
    from facilitator.rules.alterego import Game
    game = Game(record.pack, record.setup)
    for i, move in enumerate(record.moves):
        if i % 7 == 3:
            offers = game.offers()
            assert [e["type"] for e in game.legal_moves()] == [e["type"] for e in offers if e.get("legal", True)]
            for entry in offers:
                for base, offer in bases(entry):
                    done = complete(game, base)
                    assert (done is not None) == offer["legal"], (base, offer["reason"])
                    assert (offer["reason"] is None) == offer["legal"]
                    if done is not None:
                        game.check(read_move(done))
                    if offer["refusal"] is not None or offer["field"] in (None, *LIST_NEEDS):
                        continue
                    for candidate, refusal in offer["options"].items():
                        given = dict(base, **{offer["field"]: candidate})
                        if refusal is None:
                            assert complete(game, given) is not None
                        elif refusal.code in COMPLETION_CODES:
                            assert complete(game, given) is None
                        else:
                            with pytest.raises((IllegalMoveError, MalformedError)) as info:
                                check(game, read_move(given, partial=True), partial=True)
                            assert info.value.code == refusal.code
        game.apply(move)


#: refusals of an option for the fields that come after it (``checks.no_option``)
COMPLETION_CODES = {"p9_no_partner", "no_chore", "no_target", "no_activity", "no_option"}


# ----- copy -----------------------------------------------------------------------------------------
def test_a_copy_is_independent_and_equal():
    game = to_play(two())
    game.apply(event("Aino", "hahmo_kuolee", target="tommi"))
    fork = game.copy()
    assert fork.state.key() == game.state.key() and fork.moves == game.moves
    fork.apply(react("Bertta", "taktinen_teko", 2, target="tommi"))
    assert (fork.state.actives["tommi"].t, game.state.actives["tommi"].t) == (0, 2)
    game.apply(end("Aino"))
    assert len(fork.moves) == 3 and fork.current == "Aino" and game.current == "Bertta"
    assert standings([fork])["tables"][0]["turn"] == 1 and standings([game])["tables"][0]["turn"] == 2


def test_a_copy_of_every_position_plays_on_like_the_original():
    record, _ = play_random(random.Random(11), players=3, max_moves=120)
    from facilitator.rules.alterego import Game
    game = Game(record.pack, record.setup)
    for i, move in enumerate(record.moves):
        fork = game.copy()
        game.apply(move)
        fork.apply(move)
        assert fork.state.key() == game.state.key(), i
