"""RULES.md 2. Setup: 3 or 4 players, distinct names and characters, exactly 5 extra SP,
optional future image summing to 35/40/45, and the turn order with its tie-breaks."""

import pytest

from facilitator.rules import MalformedError, SetupError
from facilitator.rules.lyceum import Game, PlayerSetup, read_player, turn_order
from facilitator.rules.lyceum.setup import check_setup, turn_order_reason

from .helpers import (character, default_players, flat, main_moves_made, make_pack, next_slot,
                      pass_, player)

PACK = make_pack()


def refused(players, pack=PACK):
    with pytest.raises(SetupError) as err:
        Game(pack, players)
    assert err.value.rule == "2"
    return err.value


# ----- 2.1 players -----------------------------------------------------------------------
@pytest.mark.parametrize("count", [3, 4])
def test_a_table_has_3_or_4_players(count):
    game = Game(PACK, default_players(count))
    assert len(game.order) == count


@pytest.mark.parametrize("count", [2, 5])
def test_a_table_of_2_or_5_players_is_refused(count):
    pack = make_pack(characters=[character(f"C{i}") for i in range(1, 6)])
    players = [player(f"Игрок {i}", f"C{i}") for i in range(1, count + 1)]
    err = refused(players, pack)
    assert err.code == "player_count"
    assert err.params == {"low": 3, "high": 4, "count": count}
    assert f"3 or 4 players, got {count}" in err.message


def test_names_are_unique_at_the_table():
    err = refused([player("Аня", "C1"), player("Борис", "C2"), player("Аня", "C3")])
    assert (err.code, err.path) == ("duplicate_name", "players[2].name")
    assert err.params["other"] == 1


# ----- 2.2 characters and the 5 extra SP -------------------------------------------------
def test_characters_at_one_table_are_distinct():
    err = refused([player("Аня", "C1"), player("Борис", "C2"), player("Вика", "C2")])
    assert (err.code, err.path) == ("character_taken", "players[2].character")
    assert "C2" in err.message and "Борис" in err.message


def test_an_unknown_character_is_refused():
    err = refused([player("Аня", "C1"), player("Борис", "C9"), player("Вика", "C3")])
    assert (err.code, err.path) == ("unknown_character", "players[1].character")
    assert "C9" in err.message


@pytest.mark.parametrize("extra", [{"health": 5}, {"health": 1, "intellect": 1, "creativity": 1,
                                                   "communication": 1, "energy": 1},
                                   {"energy": 3, "intellect": 2}])
def test_the_extra_sp_split_as_the_player_likes(extra):
    game = Game(PACK, [player("Аня", "C1", extra=extra)] + default_players(3)[1:])
    assert game.players["Аня"].skills == {s: 2 + extra.get(s, 0) for s in flat(0)}


@pytest.mark.parametrize("extra, got", [({}, 0), ({"health": 4}, 4), ({"health": 6}, 6),
                                        ({"health": 3, "energy": 3}, 6)])
def test_extra_sp_must_sum_to_exactly_5(extra, got):
    err = refused([player("Аня", "C1", extra=extra)] + default_players(3)[1:])
    assert (err.code, err.path) == ("extra_sum", "players[0].extra")
    assert err.params == {"need": 5, "got": got}
    assert f"exactly 5, got {got}" in err.message


def test_negative_extra_sp_is_refused_even_when_the_sum_is_5():
    err = refused([player("Аня", "C1", extra={"health": 6, "energy": -1})] + default_players(3)[1:])
    assert err.path.startswith("players[0].extra")
    assert "-1" in err.message


def test_negative_extra_sp_is_refused_when_read_from_a_record():
    with pytest.raises(MalformedError) as err:
        read_player({"name": "Аня", "born": "2009-01-01", "character": "C1",
                     "extra": {"health": 6, "energy": -1}}, "players[0]")
    assert err.value.path == "players[0].extra.energy"


def test_extra_sp_may_not_pass_the_packs_skill_max():
    pack = make_pack(skill_max=6)
    err = refused([player("Аня", "C1", extra={"health": 5})] + default_players(3)[1:], pack)
    assert err.code == "above_max"
    assert err.params == {"skill": "health", "value": 7, "max": 6}


# ----- 2.3 the future image ---------------------------------------------------------------
@pytest.mark.parametrize("declaration, declared", [
    (None, None),
    ({"health": 7, "intellect": 7, "creativity": 7, "communication": 7, "energy": 7}, 35),
    ({"health": 20, "intellect": 20}, 40),  # skills not named have target 0
    ({"health": 9, "intellect": 9, "creativity": 9, "communication": 9, "energy": 9}, 45),
])
def test_a_future_image_sums_to_35_40_or_45_and_is_optional(declaration, declared):
    game = Game(PACK, [player("Аня", "C1", declaration=declaration)] + default_players(3)[1:])
    assert game.players["Аня"].declared == declared


@pytest.mark.parametrize("total", [0, 30, 34, 36, 39, 41, 44, 46, 50])
def test_a_future_image_of_any_other_sum_is_refused(total):
    declaration = {"health": total // 2, "energy": total - total // 2}
    err = refused([player("Аня", "C1", declaration=declaration)] + default_players(3)[1:])
    assert (err.code, err.path) == ("declaration_sum", "players[0].declaration")
    assert err.params == {"got": total}
    assert f"35, 40 or 45, got {total}" in err.message


# ----- 2.4 turn order --------------------------------------------------------------------
def _table(energies, borns, extras=None):
    """One player per seat: character Ck with base energy ``energies[k]``, born ``borns[k]``."""
    chars = [character(f"C{i + 1}", flat(2, energy=e)) for i, e in enumerate(energies)]
    pack = make_pack(characters=chars)
    extras = extras or [{"health": 5}] * len(energies)
    players = [player(f"P{i + 1}", f"C{i + 1}", born=b, extra=x)
               for i, (b, x) in enumerate(zip(borns, extras))]
    return pack, players


SAME = "2009-05-01"
TURN_ORDER = [
    # base energies,  birth dates,                                              turn order (seats), why
    ((2, 5, 3),       (SAME, SAME, SAME),                                       [1, 2, 0], "most_energy"),
    ((2, 3, 3, 6),    (SAME, SAME, SAME, SAME),                                 [3, 0, 1, 2], "most_energy"),
    ((4, 2, 4),       ("2009-01-10", SAME, "2009-03-01"),                       [2, 0, 1], "younger"),
    ((4, 4, 2, 4),    ("2009-12-31", "2010-01-01", "2011-01-01", "2009-06-01"), [1, 2, 3, 0], "younger"),
    ((3, 3, 3),       (SAME, SAME, SAME),                                       [0, 1, 2], "seated_earlier"),
    ((1, 3, 3, 3),    ("2010-01-01", "2009-01-01", SAME, SAME),                 [2, 3, 0, 1], "seated_earlier"),
]


@pytest.mark.parametrize("energies, borns, order, why", TURN_ORDER)
def test_turn_order_most_energy_then_younger_then_seated_earlier_then_clockwise(energies, borns,
                                                                                  order, why):
    pack, players = _table(energies, borns)
    assert turn_order(pack, players) == order
    assert turn_order_reason(pack, players)[0] == why
    assert Game(pack, players).order == [players[i].name for i in order]


def test_turn_order_counts_energy_after_the_extra_sp():
    # P1 has base energy 4; P2 base 2 plus 3 extra energy = 5 goes first
    pack, players = _table((4, 2, 3), (SAME,) * 3,
                           extras=[{"health": 5}, {"energy": 3, "health": 2}, {"health": 5}])
    assert turn_order(pack, players) == [1, 2, 0]


def test_the_turn_order_holds_for_all_10_rounds():
    pack, players = _table((2, 5, 3), (SAME,) * 3)
    game = Game(pack, players)
    movers = []
    while main_moves_made(game) < 30:
        mover = next_slot(game)[1]
        movers.append(mover)
        game.apply(pass_(mover))
    assert movers == ["P2", "P3", "P1"] * 10


def test_check_setup_accepts_a_valid_table():
    check_setup(PACK, default_players(4))  # raises nothing


def test_a_player_setup_reads_from_its_record_form():
    p = read_player({"name": " Аня ", "born": "2009-01-01", "character": "C1",
                     "extra": {"health": 5}, "declaration": None}, "players[0]")
    assert p == PlayerSetup("Аня", "2009-01-01", "C1", {"health": 5}, None)
    with pytest.raises(MalformedError) as err:
        read_player({"name": "Аня", "born": "01.01.2009", "character": "C1"}, "players[0]")
    assert err.value.path == "players[0].born"


def test_every_setup_problem_is_listed_at_once_each_with_its_player():
    """The engine answers every problem of a setup in one go (the setup screen shows them all),
    the first being the one ``check_setup`` raises."""
    from facilitator.rules.lyceum.setup import setup_problems
    players = [player("Аня", "C1"), player("Аня", "C2", extra={"health": 4}), player("Вика", "C2"),
               player("Гоша", "C9")]
    problems = setup_problems(PACK, players)
    assert [(p.code, p.path) for p in problems] == [
        ("duplicate_name", "players[1].name"), ("extra_sum", "players[1].extra"),
        ("character_taken", "players[2].character"), ("unknown_character", "players[3].character")]
    with pytest.raises(SetupError) as first:
        check_setup(PACK, players)
    assert (first.value.code, first.value.path) == ("duplicate_name", "players[1].name")
    assert setup_problems(PACK, default_players()) == []
