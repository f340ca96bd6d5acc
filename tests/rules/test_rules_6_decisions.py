"""RULES.md 6. Decisions on what the rulebook leaves open."""

import pytest

from facilitator.rules.lyceum.ruleset import sample_pack
from .helpers import (FINISH, adjust, allocate, allocate_all, card_data, character, draw, flat,
                      give, make_game, make_pack, pass_, play_deferred, reach_finish, refused, rest,
                      set_skills, share, skills)


# ----- 6.1 levels, characters and cards come from a content pack --------------------------
def test_the_shipped_pack_is_a_clearly_marked_sample():
    pack = sample_pack()
    assert pack.id == "sample"
    assert "не оригинальная" in pack.title
    assert pack.levels[0] == 0 and len(pack.characters) >= 4


def test_levels_come_from_the_pack():
    game = make_game(make_pack(levels=[0, 100, 200]))
    game.apply(draw("Аня", "L-G"))
    assert game.level("Аня") == 2 and game.players["Аня"].pending == 2


# ----- 6.2 rest energy before its redistribution; a card's redistribution after its gains --
def test_rest_energy_then_redistribution():
    game = make_game()
    set_skills(game, "Аня", energy=0)
    game.apply(rest("Аня", {"energy": -1, "communication": 1}))
    assert game.players["Аня"].skills["energy"] == 0


def test_card_gains_then_redistribution():
    cards = [card_data("L-RX", "lyceum", "red", gains={"communication": 3},
                       special={"text": "переставь до 3", "redistribute": 3})]
    game = make_game(make_pack(cards=cards, characters=[character("C1", flat(2, communication=0)),
                                                        character("C2"), character("C3")]))
    game.apply(draw("Аня", "L-RX", redistribute={"communication": -3, "intellect": 3}))
    assert game.players["Аня"].skills["communication"] == 0
    assert game.players["Аня"].skills["intellect"] == 5


# ----- 6.3 skill_max ----------------------------------------------------------------------
MAX = 8  # every player starts with health 7


@pytest.fixture
def capped():
    cards = [card_data("L-RX", "lyceum", "red", gains={"health": 3, "intellect": 1},
                       special={"text": "переставь до 2", "redistribute": 2})]
    return make_game(make_pack(cards=cards, skill_max=MAX))


def test_fixed_card_gains_stop_at_skill_max(capped):
    capped.apply(draw("Аня", "L-RX"))
    assert capped.players["Аня"].skills["health"] == MAX  # 7 + 3 stops at 8
    assert capped.players["Аня"].skills["intellect"] == 3


def test_rest_energy_stops_at_skill_max(capped):
    set_skills(capped, "Аня", energy=MAX)
    capped.apply(rest("Аня"))
    assert capped.players["Аня"].skills["energy"] == MAX
    assert capped.players["Аня"].pending == 1


def test_share_communication_stops_at_skill_max(capped):
    give(capped, "Аня", xp=600)
    allocate_all(capped, "intellect")
    set_skills(capped, "Аня", communication=MAX)
    capped.apply(share("Аня"))
    assert capped.players["Аня"].skills["communication"] == MAX


def test_an_allocation_above_skill_max_is_refused(capped):
    set_skills(capped, "Аня", health=MAX)
    capped.apply(rest("Аня"))
    err = refused(capped, allocate("Аня", health=1), "3.6", "above_max")
    assert err.params == {"skill": "health", "value": MAX + 1, "max": MAX}
    capped.apply(allocate("Аня", intellect=1))


def test_free_sp_that_fit_nowhere_are_forfeited_so_the_table_goes_on(capped):
    """Our decision beyond 6.3: when skill_max leaves less room than the pending free SP, the
    allocation places what fits and the rest are lost; otherwise no move could ever be made."""
    set_skills(capped, "Аня", intellect=MAX, creativity=MAX, communication=MAX, energy=MAX)
    give(capped, "Аня", xp=300)  # level 2: 2 free SP, but only health 7 -> 8 has room
    assert capped.players["Аня"].pending == 2 and capped.allocatable("Аня") == 1
    assert capped.legal_moves()[0] == {"type": "allocate", "player": "Аня", "sp": 1, "pending": 2}
    capped.apply(allocate("Аня", health=1))
    assert capped.players["Аня"].pending == 0
    assert capped.players["Аня"].skills == dict.fromkeys(capped.players["Аня"].skills, MAX)
    capped.apply(pass_("Аня"))  # the table goes on


def test_a_rest_redistribution_above_skill_max_is_refused(capped):
    err = refused(capped, rest("Аня", {"intellect": -2, "health": 2}), "3.2", "above_max")
    assert err.params == {"skill": "health", "value": 9, "max": MAX}
    capped.apply(rest("Аня", {"intellect": -1, "health": 1}))
    assert capped.players["Аня"].skills["health"] == MAX


def test_a_card_redistribution_above_skill_max_is_refused(capped):
    # after the gains health is 8 (capped) and intellect 3
    err = refused(capped, draw("Аня", "L-RX", redistribute={"intellect": -1, "health": 1}),
                  "3.4", "above_max")
    assert err.params == {"skill": "health", "value": 9, "max": MAX}
    capped.apply(draw("Аня", "L-RX", redistribute={"health": -2, "intellect": 2}))
    assert capped.players["Аня"].skills == skills(health=6, intellect=5, creativity=2, communication=2,
                                                  energy=2)


# ----- 6.4 pass, 6.5 share needs energy ----------------------------------------------------
def test_pass_is_a_main_move():
    game = make_game()
    game.apply(pass_("Аня"))
    assert game.next() == {"player": "Борис", "expects": "main"}


def test_share_needs_energy_so_energy_never_goes_negative():
    game = make_game()
    give(game, "Аня", xp=600)
    allocate_all(game, "health")
    set_skills(game, "Аня", energy=0)
    assert not game.can_share("Аня")
    assert "share" not in {m["type"] for m in game.legal_moves()}
    err = refused(game, share("Аня"), "6.5", "share_energy")
    assert "energy at least 1" in err.message and "has 0" in err.message


# ----- 6.6 a finished game accepts no further moves ----------------------------------------
AFTER_FINISH = [
    draw("Аня", "A-G"),
    rest("Аня"),
    share("Аня"),
    pass_("Аня"),
    play_deferred("Аня"),
    allocate("Аня", health=1),
    adjust("Аня", xp=100),
    FINISH,
]


@pytest.mark.parametrize("move", AFTER_FINISH, ids=lambda m: m.type)
def test_a_finished_game_accepts_nothing(move):
    game = reach_finish(make_game())
    game.apply(FINISH)
    err = refused(game, move, "6.6", "finished")
    assert "finished" in err.message
    assert game.legal_moves() == []
    assert game.next() is None
