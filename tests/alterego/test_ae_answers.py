"""The engine's answers for the moves a host enters offline (``rules/alterego/answers.py``, issue
18 item 2): every answer is what the engine says when asked directly, and every move leads to a
position that says what the game then waits for."""

import random
from math import comb

import pytest

from facilitator.rules.alterego import Game, Move
from facilitator.rules.alterego.answers import NO_CARD, UNKNOWN, turn_answers
from facilitator.rules.alterego.simulate import play_random

from .helpers import ability, draw, event, give, season, set_hand, set_t, three, to_play, two
from .offline import legal_plays, legal_reactions, play_move, plays_at, reactions_at, said, waits


def cut(seed, players, share):
    """A random legal game cut at the first play step after ``share`` of its moves."""
    record, full = play_random(seed, players=players)
    game = Game(full.pack, full.setup)
    for i, move in enumerate(record.moves):
        nxt = game.next()
        if i >= share * len(record.moves) and nxt and nxt["expects"] == "play":
            return game
        game._apply_fast(move)
    pytest.skip("the game ended first")


def forms_of(answers):
    return {f["id"]: f for f in answers["forms"]}


def check_position(answers, key, game, reactions=True):
    """The plays answered at ``key``, and its reactions (after a reaction: none, a further one
    needs the server), are the engine's at ``game``; returns the play leads ``{form id: {path:
    lead}}``."""
    forms = forms_of(answers)
    leads, answered, why = plays_at(answers, key)
    for fid in answered:
        engine = legal_plays(game, forms[fid])
        got = leads.get(fid, {})
        if forms[fid]["members"]:
            assert {path: lead[1][forms[fid]["members"]] for path, lead in got.items()} == engine, fid
        else:
            assert set(got) == engine, (key, fid, set(got) ^ engine)
        assert (fid in why) == (not engine), (key, fid)
    if reactions:
        assert {f: set(m) for f, m in reactions_at(answers, key).items()} == legal_reactions(game, answers["reactions"])
    else:
        assert answers["positions"][key]["reactions"] is None
    return {fid: got for fid, got in leads.items() if fid in answered}


@pytest.mark.parametrize("seed, players, share", [(1, 3, 0.3), (4, 3, 0.6), (2, 2, 0.5)])
def test_every_answer_is_the_engines_and_every_move_leads_where_the_game_then_waits(seed, players, share):
    game = cut(seed, players, share)
    answers = turn_answers(game)
    positions, forms = answers["positions"], forms_of(answers)
    start = answers["start"]
    assert said(positions[start]) == waits(game) and positions[start]["plays"] is not None
    rng = random.Random(seed)
    followed = 0
    for fid, got in check_position(answers, start, game).items():
        for path, lead in got.items():
            move = play_move(game, forms[fid], path, lead[1][forms[fid]["members"]] if isinstance(lead, list) else ())
            after = game.copy()
            after.apply(move)
            key = lead[0] if isinstance(lead, list) else lead
            assert said(positions[key]) == waits(after), (fid, path, key)
            if isinstance(lead, list) or positions[key]["expects"] != "play" or rng.random() > 0.3:
                continue
            # the position after one play: the abilities and the reactions there, and where they lead
            followed += 1
            for fid2, got2 in check_position(answers, key, after).items():
                assert forms[fid2]["type"] == "ability", "a second card is not answered"
                for path2, lead2 in got2.items():
                    if isinstance(lead2, list):
                        continue
                    second = after.copy()
                    second.apply(play_move(after, forms[fid2], path2))
                    assert said(positions[lead2]) == waits(second)
                    assert positions[lead2]["plays"] is None or positions[lead2]["expects"] != "play"
            reactions = {f["id"]: f for f in answers["reactions"]}
            for rid, got3 in reactions_at(answers, key).items():
                for path3, lead3 in got3.items():
                    reacted = after.copy()
                    fields = {reactions[rid]["field"]: path3[1]} if reactions[rid]["field"] else {}
                    reacted.apply(Move("react", player=path3[0], card=reactions[rid]["card"], to=after.trigger[0],
                                       **fields))
                    assert said(positions[lead3]) == waits(reacted)
                    if positions[lead3]["expects"] == "play":
                        check_position(answers, lead3, reacted, reactions=False)
    assert followed


def check_season(answers, key, after):
    """The play step after a season card: every card and ability answered relative to the turn's
    own, each as the engine says at ``after``, each leading where the game then waits (a choice,
    or the player's play step whose answers need the server); its reactions need the server."""
    positions, forms = answers["positions"], forms_of(answers)
    season = positions[key]
    assert said(season) == waits(after) and season["known"] and season["season"] == after.season
    assert set(season["plays"]["forms"]) == set(forms)
    leads = check_position(answers, key, after, reactions=False)
    assert leads, "no card is legal after the season card"
    for fid, got in leads.items():
        for path, lead in got.items():
            members = lead[1][forms[fid]["members"]][:forms[fid]["need"]] if isinstance(lead, list) else ()
            played = after.copy()
            played.apply(play_move(after, forms[fid], path, members))
            then = positions[lead[0] if isinstance(lead, list) else lead]
            assert said(then) == waits(played), (fid, path)
            assert then["expects"] != "play" or (then["plays"] is None and not then["known"])
    return leads


def test_the_draw_leads_to_the_play_step_answered_and_so_does_the_season_card():
    game = three()
    answers = turn_answers(game)
    positions = answers["positions"]
    start = positions[answers["start"]]
    assert (start["expects"], start["player"], start["known"]) == ("draw", "Aino", True)
    play = positions[start["draw"]]
    assert (play["expects"], play["player"], play["known"]) == ("play", "Aino", True) and play["plays"]["leads"]
    after = game.copy()
    after.apply(draw("Aino"))
    check_position(answers, start["draw"], after)
    # the season card drawn instead: the turn goes on in season 2, its plays answered there
    turned = game.copy()
    turned.apply(season("Aino"))
    assert positions[start["season_card"]]["plays"]["of"] == start["draw"]
    check_season(answers, start["season_card"], turned)
    # the end of the turn after it is named
    nxt = positions[positions[start["season_card"]]["end_turn"]]
    assert (nxt["expects"], nxt["player"], nxt["season"]) == ("draw", "Bertta", 2)


def test_the_season_card_a_kalle_ability_drew_is_answered_after_it():
    game = three(first="Cecilia")
    to_play(game)
    answers = turn_answers(game)
    forms = forms_of(answers)
    leads, _answered, _why = plays_at(answers, answers["start"])
    kalle = next(f for f in forms.values() if f.get("active") == "kalle")
    drew = answers["positions"][leads[kalle["id"]][()]]
    after = game.copy()
    after.apply(ability("Cecilia", "kalle"))
    assert drew["season_card"] is not None
    after.apply(season("Cecilia"))
    check_season(answers, drew["season_card"], after)


def test_a_bile_and_pares_joke_lead_where_each_set_of_members_goes():
    game = to_play(three())
    answers = turn_answers(game)
    positions, forms = answers["positions"], forms_of(answers)
    reactions = {f["id"]: f for f in answers["reactions"]}
    leads, _answered, _why = plays_at(answers, answers["start"])
    bile = next(f for f in forms.values() if f.get("card") == "bile")
    pare = next(f for f in forms.values() if f.get("active") == "pare")
    actives = game.state.in_seat_order()
    assert set(leads[bile["id"]]) == {(k,) for k in actives}
    no_money = False
    for (organizer,), (key, members, by) in leads[bile["id"]].items():
        others = [k for k in actives if k != organizer]
        assert members == {"participants": others}
        # a party without guests (reactions and abilities answered), or with one (abilities)
        assert set(by) == {""} | set(others), organizer
        for names, then in by.items():
            party = game.copy()
            party.apply(play_move(game, bile, (organizer,), names.split()))
            assert said(positions[then]) == waits(party), (organizer, names)
            check_position(answers, then, party, reactions=names == "")
            if names == "":
                for rid, got in reactions_at(answers, then).items():
                    no_money |= reactions[rid]["card"] == "ei_rahaa"
                    for path, lead in got.items():
                        reacted = party.copy()
                        fields = {reactions[rid]["field"]: path[1]} if reactions[rid]["field"] else {}
                        reacted.apply(Move("react", player=path[0], card=reactions[rid]["card"],
                                           to=party.trigger[0], **fields))
                        assert said(positions[lead]) == waits(reacted)
                        check_position(answers, lead, reacted, reactions=False)
        # a party of two guests or more: the play step without answers
        named = positions[key]
        assert (named["expects"], named["player"], named["known"], named["plays"]) == ("play", "Aino", False, None)
    assert no_money, "Ei rahaa answers a Bile: it should be offered after one"
    # Pare's joke: every three actives (84 sets) answered with the abilities after it
    key, members, by = leads[pare["id"]][()]
    assert members == {"targets": actives} and pare["need"] == 3
    assert len(by) == comb(len(actives), 3)
    for names, then in by.items():
        joked = game.copy()
        joked.apply(play_move(game, pare, (), names.split()))
        assert said(positions[then]) == waits(joked)
        check_position(answers, then, joked, reactions=False)


def test_a_play_that_queues_a_choice_ends_the_answers():
    game = three()
    dating = give(game, "ville", "seurustelu", partner="tommi")
    to_play(game)
    answers = turn_answers(game)
    forms = forms_of(answers)
    loppu = next(f for f in forms.values() if f.get("card") == "loppu")
    leads, _answered, _why = plays_at(answers, answers["start"])
    choice = answers["positions"][leads[loppu["id"]][(dating,)]]
    assert choice == {"expects": "choose", "player": "Aino"}


def test_after_a_play_a_second_card_needs_the_server_and_an_ability_wanting_a_card_is_refused():
    game = three(first="Cecilia")
    to_play(game)
    set_hand(game, "Cecilia", 1)
    answers = turn_answers(game)
    forms = forms_of(answers)
    leads, _answered, _why = plays_at(answers, answers["start"])
    boost = next(f for f in forms.values() if f.get("card") == "energiapuuska")
    key = leads[boost["id"]][("pare",)]
    plays = answers["positions"][key]["plays"]
    assert {forms[f]["active"] for f in plays["forms"]} == {"jaakko", "kalle"}
    jaakko = next(f for f in plays["forms"] if forms[f]["active"] == "jaakko")
    assert plays["drop"][jaakko] == "*" and plays["why"][jaakko].code == NO_CARD
    after_leads, _answered, why = plays_at(answers, key)
    assert jaakko not in after_leads and why[jaakko].code == NO_CARD
    assert set(after_leads) == {f for f in plays["forms"] if forms[f]["active"] == "kalle"}


def test_the_turns_after_the_current_one_are_named_up_to_a_turn_of_every_player():
    game = to_play(two())
    answers = turn_answers(game)
    positions = answers["positions"]
    leads, _answered, _why = plays_at(answers, answers["start"])
    key = next(iter(next(iter(leads.values())).values()))
    key = positions[key]["end_turn"]
    seen = []
    while key != UNKNOWN:
        position = positions[key]
        seen.append((position["expects"], position["player"], position["turn"], position["known"]))
        key = position["draw"] if position["expects"] == "draw" else position["end_turn"]
    assert seen == [("draw", "Bertta", 2, False), ("play", "Bertta", 2, False), ("draw", "Aino", 3, False),
                    ("play", "Aino", 3, False)]


def test_a_reaction_is_answered_for_whoever_holds_a_card():
    game = to_play(three())
    set_t(game, "meira", 1)
    set_hand(game, "Bertta", 0)
    game.apply(event("Aino", "hahmo_kuolee", target="tommi"))
    answers = turn_answers(game)
    reactions = {f["card"]: f["id"] for f in answers["reactions"]}
    got = reactions_at(answers, answers["start"])
    assert set(got[reactions["taktinen_teko"]]) == {("Aino", "tommi"), ("Cecilia", "tommi")}
    assert reactions["ei_rahaa"] not in got
