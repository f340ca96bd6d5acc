"""What the app asks the engine besides check and apply: what a move changed (``MoveResult``),
what may be played now (``legal_moves``, ``options``), and a cheap fork of a game (``copy``)."""

import json
import random

import pytest

from facilitator.rules.alterego import IllegalMoveError, MalformedError, read_record, standings
from facilitator.rules.alterego.simulate import play_random

from .helpers import (act, end, event, example_record_data, finish, give, react, season, snapshot, three, to_play,
                      two)


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
    meira = moves["play_activity"]["cards"]["htt_tyo"]["targets"]["meira"]
    assert str(meira) == "P6: meira already received an activity this turn (a10)"
    assert moves["play_activity"]["cards"]["htt_tyo"]["targets"]["tommi"] is None
    assert moves["play_activity"]["cards"]["stressinpoistokampanja"]["refusal"] is None
    game.apply(act("Bertta", "pelikampanja", "tommi"))
    react_entry = next(m for m in game.legal_moves() if m["type"] == "react")
    assert react_entry["to"] == 11 and react_entry["cards"]["ei_kiinnostusta"]["refusal"] is None
    assert react_entry["cards"]["taktinen_teko"]["refusal"] is None  # the card fits; no target does
    assert all(r is not None for r in react_entry["cards"]["taktinen_teko"]["target"].values())


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


@pytest.mark.parametrize("seed", range(6))
def test_every_option_legal_moves_offers_is_legal_and_every_refusal_is_refused(seed):
    """On positions of random games: what ``legal_moves`` marks legal passes ``check``, what it
    refuses is refused with that code."""
    record, _ = play_random(seed, players=2 + seed % 2, max_moves=60)
    from facilitator.rules.alterego import Game
    game = Game(record.pack, record.setup)
    for i, move in enumerate(record.moves):
        if i % 7 == 3:
            for entry in game.legal_moves():
                if entry["type"] != "play_activity":
                    continue
                for card, c in entry["cards"].items():
                    for target, refusal in c["targets"].items():
                        if game.pack.cards_by_key[card].is_dating:
                            continue
                        m = act(entry["player"], card, target)
                        if refusal is None:
                            game.check(m)
                        else:
                            with pytest.raises(IllegalMoveError) as info:
                                game.check(m)
                            assert info.value.code == refusal.code
        game.apply(move)


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
