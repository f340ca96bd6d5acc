"""Builders for Alter Ego rules tests: the shipped 3rd-edition pack, small tables, moves, and
host adjusts that put a table where a test needs it.

The default table is the one of RECORD.md 4: Aino (pare, ville, meira) and Bertta (niksu,
tommi, imaami), Aino first; ``three()`` seats Cecilia (jaakko, kalle, tane) too. Activities
given by ``give`` are placed by an ``adjust`` (no side effects), so a test states exactly
the position it starts from.
"""

import copy
import json
from pathlib import Path

import pytest

from facilitator.rules.alterego import (Game, IllegalMoveError, MalformedError, Move, default_pack, read_move,
                                        read_pack, read_setup, standings, table_standing)
from facilitator.rules.alterego.pack import default_pack_data

DATA = Path(__file__).parent / "data"
AINO = ("pare", "ville", "meira")
BERTTA = ("niksu", "tommi", "imaami")
CECILIA = ("jaakko", "kalle", "tane")


def example_record_data():
    return json.loads((DATA / "example-record.json").read_text("utf-8"))


def example_standings():
    return json.loads((DATA / "example-standings.json").read_text("utf-8"))


def pack_data():
    """A fresh copy of the shipped pack's JSON (for tests that change a card)."""
    return default_pack_data()


def pack_with(**cards):
    """The shipped pack with some cards' fields changed: ``pack_with(bile={"params": {...}})``."""
    data = pack_data()
    for key, changes in cards.items():
        card = next(c for c in data["cards"] if c["key"] == key)
        card.update(copy.deepcopy(changes))
    return read_pack(data)


def setup_data(*players, first="Aino"):
    names = ("Aino", "Bertta", "Cecilia")
    players = players or (AINO, BERTTA)
    return {"players": [{"name": names[i], "actives": list(a)} for i, a in enumerate(players)], "first": first}


def two(first="Aino", pack=None):
    """Aino (pare, ville, meira) and Bertta (niksu, tommi, imaami): RECORD.md 4's table."""
    return Game(pack or default_pack(), read_setup(setup_data(AINO, BERTTA, first=first)), table="Pöytä 1")


def three(first="Aino", pack=None):
    return Game(pack or default_pack(), read_setup(setup_data(AINO, BERTTA, CECILIA, first=first)),
                table="Pöytä 1")


def table_of(*players, first="Aino", pack=None):
    return Game(pack or default_pack(), read_setup(setup_data(*players, first=first)), table="Pöytä 1")


# ----- moves ----------------------------------------------------------------------------------
def mv(data):
    """A move through ``read_move``, as a record or the web form would give it."""
    return read_move(data)


def draw(p):
    return Move("draw", player=p)


def season(p):
    return Move("season", player=p)


def act(p, card, target, partner=None):
    return mv({"type": "play_activity", "player": p, "card": card, "target": target,
               **({"partner": partner} if partner else {})})


def event(p, card, **fields):
    return mv({"type": "play_event", "player": p, "card": card, **fields})


def ability(p, active, **fields):
    return mv({"type": "ability", "player": p, "active": active, **fields})


def react(p, card, to, **fields):
    return mv({"type": "react", "player": p, "card": card, "to": to, **fields})


def choose(p, choice, active, **answer):
    return mv({"type": "choose", "player": p, "choice": choice, "active": active, **answer})


def end(p):
    return Move("end_turn", player=p)


def adjust(*changes, reason="test position"):
    return mv({"type": "adjust", "changes": list(changes), "reason": reason})


def finish(reason="time limit"):
    return Move("finish", reason=reason)


# ----- positions ------------------------------------------------------------------------------
def give(game, active, card, partner=None):
    """Place ``card`` on ``active`` by a host adjust; return the new activity's id."""
    change = {"active": active, "add": card}
    if partner:
        change["partner"] = partner
    game.apply(adjust(change))
    return f"a{len(game.moves)}"


def set_t(game, active, value):
    """Set temporary anxiety T by a host adjust."""
    delta = value - game.state.actives[active].t
    if delta:
        game.apply(adjust({"active": active, "anxiety": delta}))


def set_hand(game, player, value):
    delta = value - game.state.hands[player]
    if delta:
        game.apply(adjust({"player": player, "hand": delta}))


def to_play(game):
    """Draw for the current player if the turn is in its draw step."""
    if game.step == "draw":
        game.apply(draw(game.current))
    return game


def next_turn(game):
    """End the current turn and draw for the next player."""
    game.apply(end(game.current))
    return to_play(game)


def last_id(game):
    return f"a{len(game.moves)}"


# ----- reading the table ------------------------------------------------------------------------
def T(game, key):
    return game.state.actives[key].t


def row(game, key):
    """The active's row of the standings."""
    for r in table_standing(game)["actives"]:
        if r["key"] == key:
            return r
    raise KeyError(key)


def player_row(game, name):
    for r in table_standing(game)["players"]:
        if r["name"] == name:
            return r
    raise KeyError(name)


def ids(game, key):
    return [a.id for a in game.state.actives[key].acts]


def snapshot(game):
    """Everything a move could change: the state, the standings and the move count."""
    return game.state.key(), standings([game]), len(game.moves), game.trigger


def refused(game, move, rule, code, /, **params):
    """Assert ``move`` is refused for ``rule`` with ``code`` (and these params), and that the
    refusal changed nothing; return the error."""
    before = snapshot(game)
    with pytest.raises(IllegalMoveError) as info:
        game.apply(move)
    err = info.value
    assert (err.rule, err.code) == (rule, code), err.message
    assert err.message.startswith(rule + ": "), err.message
    for k, v in params.items():
        assert err.params[k] == v, (k, err.params)
    assert snapshot(game) == before
    with pytest.raises(IllegalMoveError):
        game.check(move)
    assert snapshot(game) == before
    return err


def malformed(game, move, path, code=None):
    before = snapshot(game)
    with pytest.raises(MalformedError) as info:
        game.apply(move)
    assert info.value.path == path, str(info.value)
    if code is not None:
        assert info.value.code == code
        assert info.value.rule == "§7"
    assert snapshot(game) == before
    return info.value
