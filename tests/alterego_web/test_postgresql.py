"""The moves of Alter Ego's screens on both database backends: a draw, a card from its page, a
reaction, a repeated form and a stale one, an undo, and a whole (short) game against its replay."""

import pytest

from .helpers import forms_with, game_of, play, seq_of, submit, turn
from .test_moves import card_page, option

pytestmark = pytest.mark.parametrize("db_url", ["sqlite", "postgresql"], indirect=True)


def test_moves_safe_writes_and_undo(app, host, table):
    page = turn(host, table)
    (draw,) = forms_with(page, "draw")
    (season,) = forms_with(page, "season")
    assert submit(host, draw).status == 303
    assert "already recorded" in " ".join(submit(host, draw, follow=True).messages("ok"))
    assert submit(host, season).status == 409
    submit(host, option(card_page(host, table, "hahmo_kuolee"), "play_event", target="tommi"))
    from .test_reactions_abilities import react_page
    done = submit(host, option(react_page(host, table, "taktinen_teko"), "react", player="Bertta", target="tommi"),
                  follow=True)
    assert "Tommi: T 2 → 0" in " ".join(done.messages("ok"))
    undo = [f for f in turn(host, table).forms if f.action.endswith("/undo")][0]
    assert submit(host, undo).status == 303
    assert game_of(app, table).state.actives["tommi"].t == 2 and seq_of(app, table) == 4


def test_a_short_game_ends_as_its_record_replays(app, host, table):
    from facilitator.rules import registry
    for _season in range(4):
        play(host, app, table, "season", player=game_of(app, table).current)
        if not game_of(app, table).finished:
            play(host, app, table, "end_turn", player=game_of(app, table).current)
    rules = registry.get("alter-ego-3")
    game = game_of(app, table)
    assert game.finished
    import json
    record = json.loads(host.get(f"/table/{table}/record.json").get_data(as_text=True))
    assert rules.table_standing(rules.replay(rules.read_record(record)))["players"] == \
        rules.table_standing(game)["players"]
