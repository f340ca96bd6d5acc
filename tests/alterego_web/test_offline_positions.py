"""Alter Ego's turn screen carries where the moves entered offline lead (issue 18, item 2):
its forms' ``data-then`` and the positions drawn on the page are ``rules/alterego/answers``'s,
and the moves, recorded, leave the table where the page said."""

from facilitator.rules.alterego.answers import turn_answers

from tests.web.test_offline_positions import Positions

from .helpers import game_of, move, seq_of


def screen(host, table):
    response = host.get(f"/ae/table/{table}")
    assert response.status_code == 200
    return Positions(response.get_data(as_text=True), host)


def test_the_screen_names_who_comes_next_after_a_draw_and_an_end_of_turn(app, host, table):
    game = game_of(app, table)
    answers = turn_answers(game)
    page = screen(host, table)
    assert page.start == answers["start"] and set(page.positions) == set(answers["positions"]) - {answers["start"]}
    live = {f["move"]: f["then"] for f in page.live}
    assert live["draw"] == answers["positions"][answers["start"]]["draw"]
    # the draw, as the live screen's form has it, then the end of the turn, as the position it
    # leads to has it: the game waits where the answers said, for the player they named
    key = live["draw"]
    for kind in ("draw", "end_turn"):
        if kind == "end_turn":
            form = next(f for f in page.positions[key]["forms"] if f["move"] == "end_turn")
            assert form["fields"]["player"] == answers["positions"][key]["player"]
            key = form["then"]
        position = answers["positions"][key]
        move(host, table, kind, seq_of(app, table), player=game_of(app, table).next()["player"])
        nxt = game_of(app, table).next()
        assert (nxt["expects"], nxt["player"]) == (position["expects"], position["player"]), kind
        assert page.positions[key]["turn"] == position["player"]
    assert position["player"] == "Bertta" and position["expects"] == "draw"
