"""Every illegal move RULES.md names, in one table: each is refused with an ``IllegalMoveError``
whose ``rule`` is the RULES.md section it breaks and whose message carries the numbers, and a
refused move leaves the game exactly as it was (standings, moves and history alike).

The default table (helpers): Аня, Борис, Вика in that order, health 7 and every other skill 2,
levels [0, 300, 600, 1000]. L-G is open to all; L-R needs intellect 5.
"""

import inspect
import re
from pathlib import Path

import pytest

from facilitator.rules import IllegalMoveError
from facilitator.rules.lyceum import Move

from .helpers import (FINISH, adjust, allocate, allocate_all, card_data, draw, give, hand_card, make_game,
                      make_pack, pass_, play_deferred, reach, reach_finish, rest, set_skills, share,
                      state)

RX = card_data("L-RX", "lyceum", "red", gains={"health": 1}, special={"text": "до 2", "redistribute": 2})


def fresh():
    return make_game(make_pack(cards=[RX]))


def capped():
    """skill_max 8: Аня's health is 7."""
    return make_game(make_pack(cards=[RX], skill_max=8))


def _nearly_full():
    """skill_max 8 with Аня at 8 everywhere but health 7: one free SP still fits."""
    game = capped()
    set_skills(game, "Аня", intellect=8, creativity=8, communication=8, energy=8)
    return game


def just_deferred():
    """Аня has just deferred L-R in her turn of round 1."""
    game = fresh()
    game.apply(draw("Аня", "L-R", "defer"))
    return game


def deferred(round_now=2, main_done=True):
    """Аня deferred L-R in round 1; it is now round ``round_now``, her main move made or not."""
    game = just_deferred()
    reach(game, round_now, "Аня")
    if main_done:
        game.apply(pass_("Аня"))
    return game


def level_3(energy=2):
    game = fresh()
    give(game, "Аня", xp=600)
    game.apply(allocate("Аня", intellect=4))
    set_skills(game, "Аня", energy=energy)
    return game


def shared():
    game = level_3()
    game.apply(share("Аня"))
    game.apply(allocate("Аня", health=1))
    reach(game, 2, "Аня")
    return game


def pending_2(name="Вика"):
    game = fresh()
    give(game, name, xp=300)
    return game


def _with(game, xp=None, name="Аня", **skill_values):
    """The game after a host adjust giving ``name`` this XP (levelling up) or these skills."""
    if xp:
        give(game, name, xp=xp)
    set_skills(game, name, **skill_values)
    return game


def _near_xp_ceiling():
    """Аня corrected up to 99,900 XP, one step under the most XP a game can hold."""
    game = fresh()
    for _ in range(9):
        give(game, "Аня", xp=10_000)
        allocate_all(game)
    give(game, "Аня", xp=9_900)
    allocate_all(game)
    return game


def at_round(round_no, name="Аня"):
    return lambda: reach(fresh(), round_no, name)


def finished():
    game = reach_finish(fresh())
    game.apply(FINISH)
    return game


# id, the game, the move, RULES.md section, code, text the message must contain
ILLEGAL = [
    ("unknown card code", fresh, draw("Аня", "L-Z9", color="green"), "1", "unknown_card", ["L-Z9"]),
    ("hand card breaking its colour rule", fresh, draw("Аня", hand_card("green", gains={"health": 2})),
     "1", "card_colour", ["exactly 1", "2"]),
    ("player not at the table", fresh, pass_("Гоша"), "2.1", "unknown_player", ["Гоша"]),
    ("play a card not eligible for", fresh, draw("Аня", "L-R"), "3.1", "not_eligible", ["intellect 2 < 5"]),
    ("play a deferred card not eligible for", deferred, play_deferred("Аня"), "3.1", "not_eligible",
     ["intellect 2 < 5"]),
    ("draw a card of another era", fresh, draw("Аня", "U-G"), "3.2", "wrong_era",
     ["U-G", "university", "round 1", "lyceum"]),
    ("draw a card of another era (university)", at_round(4), draw("Аня", "A-Y"), "3.2", "wrong_era",
     ["adult", "round 4", "university"]),
    ("draw a card of another colour", fresh, draw("Аня", "L-G", color="red"), "3.2", "wrong_color",
     ["L-G", "green", "red"]),
    ("defer a card one is eligible for", fresh, draw("Аня", "L-G", "defer"), "3.2", "defer_eligible",
     ["L-G"]),
    ("defer a second card", lambda: deferred(main_done=False), draw("Аня", "L-R", "defer"), "3.2",
     "already_deferred", ["L-R", "round 1"]),
    ("rest redistribution not summing to 0", fresh, rest("Аня", {"health": -2, "intellect": 1}),
     "3.2", "redistribute_sum", ["-1"]),
    ("rest redistribution above the lyceum's 3", fresh,
     rest("Аня", {"health": -4, "intellect": 4}), "3.2", "redistribute_limit", ["at most 3", "got 4"]),
    ("rest redistribution above the university's 4", at_round(5),
     rest("Аня", {"health": -5, "intellect": 5}), "3.2", "redistribute_limit", ["at most 4", "got 5"]),
    ("rest redistribution above the adult era's 5", at_round(9),
     rest("Аня", {"health": -6, "intellect": 6}), "3.2", "redistribute_limit", ["at most 5", "got 6"]),
    ("rest redistribution making a skill negative", fresh, rest("Аня", {"intellect": -3, "health": 3}),
     "3.2", "skill_negative", ["intellect", "2 -3"]),
    ("rest redistribution above skill_max", capped, rest("Аня", {"intellect": -2, "health": 2}),
     "3.2", "above_max", ["health", "9", "8"]),
    ("share below level 3", fresh, share("Аня"), "3.2", "share_level", ["level 3", "level 1"]),
    ("share twice", shared, share("Аня"), "3.2", "share_twice", ["Аня"]),
    ("share with energy 0", lambda: level_3(energy=0), share("Аня"), "6.5", "share_energy",
     ["at least 1", "has 0"]),
    ("play deferred before the main move", lambda: deferred(main_done=False), play_deferred("Аня"),
     "3.3", "deferred_after_main", ["Вика"]),
    ("play deferred in another player's turn", lambda: reach(deferred(), 2, "Вика"),
     play_deferred("Аня"), "3.3", "deferred_after_main", ["Борис"]),
    ("play deferred in the round it was deferred", just_deferred,
     play_deferred("Аня"), "3.3", "deferred_same_round", ["L-R", "(1)", "round 2"]),
    ("play deferred without a deferred card", lambda: reach(fresh(), 1, "Борис"), play_deferred("Аня"),
     "3.3", "no_deferred", ["Аня"]),
    ("play deferred after it expired (round d+4)", lambda: reach(deferred(round_now=5), 5, "Борис"),
     play_deferred("Аня"), "3.3", "no_deferred", ["Аня"]),
    ("redistribute with a card that has no such special", fresh,
     draw("Аня", "L-G", redistribute={"health": -1, "intellect": 1}), "3.4", "redistribute_not_allowed",
     ["L-G"]),
    ("redistribute without playing the card", fresh,
     draw("Аня", "L-RX", "discard", redistribute={"health": -1, "intellect": 1}), "3.4",
     "redistribute_not_allowed", []),
    ("card redistribution above its N", fresh,
     draw("Аня", "L-RX", redistribute={"health": -3, "intellect": 3}), "3.4", "redistribute_limit",
     ["at most 2", "got 3"]),
    ("card redistribution not summing to 0", fresh,
     draw("Аня", "L-RX", redistribute={"health": -1}), "3.4", "redistribute_sum", ["-1"]),
    ("card redistribution making a skill negative", lambda: _with(fresh(), intellect=1),
     draw("Аня", "L-RX", redistribute={"intellect": -2, "health": 2}), "3.4", "skill_negative",
     ["intellect", "1 -2"]),
    ("card redistribution above skill_max", capped,
     draw("Аня", "L-RX", redistribute={"intellect": -1, "health": 1}), "3.4", "above_max",
     ["health", "9", "8"]),
    ("main move while SP are pending", pending_2, pass_("Аня"), "3.6", "pending_sp",
     ["Вика", "2 free SP"]),
    ("finish while SP are pending", lambda: _with(reach_finish(fresh()), xp=300, name="Борис"), FINISH,
     "3.6", "pending_sp", ["Борис", "2 free SP"]),
    ("allocate fewer than pending", pending_2, allocate("Вика", health=1), "3.6", "allocate_sum",
     ["exactly 2", "got 1"]),
    ("allocate more than pending", pending_2, allocate("Вика", health=3), "3.6", "allocate_sum",
     ["exactly 2", "got 3"]),
    ("allocate a negative amount", pending_2, allocate("Вика", health=3, energy=-1), "3.6",
     "allocate_negative", ["energy -1"]),
    ("allocate with nothing pending", fresh, allocate("Вика", health=1), "3.6", "nothing_pending", ["Вика"]),
    ("allocate above skill_max", lambda: _with(capped(), xp=300), allocate("Аня", health=2), "3.6",
     "above_max", ["health", "9", "8"]),
    ("allocate more than fits under skill_max", lambda: _with(_nearly_full(), xp=300),
     allocate("Аня", health=1, energy=1), "3.6", "allocate_room", ["2 free SP", "only 1 fit", "got 2"]),
    ("adjust without a reason", fresh, Move("adjust", player="Аня", xp=100), "3.7", "adjust_reason", []),
    ("adjust naming no player", fresh, Move("adjust", xp=100, reason="ошибка"), "3.7", "adjust_player", []),
    ("adjust changing nothing", fresh, Move("adjust", player="Аня", reason="ошибка"), "3.7",
     "adjust_nothing", []),
    ("adjust XP off the 100 step", fresh, adjust("Аня", xp=50), "3.7", "adjust_xp_step", ["50"]),
    ("adjust XP below 0", fresh, adjust("Аня", xp=-100), "3.7", "adjust_xp_negative", ["0", "-100"]),
    ("adjust a skill below 0", fresh, adjust("Аня", energy=-3), "3.7", "skill_negative",
     ["energy", "2", "-3"]),
    ("adjust a skill above skill_max", capped, adjust("Аня", health=2), "3.7", "above_max",
     ["health", "9", "8"]),
    ("adjust XP past the most a game can hold", lambda: _near_xp_ceiling(), adjust("Аня", xp=200), "3.7",
     "adjust_xp_max", ["100000", "99900", "200"]),
    ("adjust a skill above 100 in a pack without skill_max", lambda: _with(fresh(), health=99),
     adjust("Аня", health=2), "3.7", "above_sp_limit", ["health", "101", "100"]),
    ("main move out of turn", fresh, pass_("Борис"), "3.8", "not_your_turn", ["Аня", "round 1", "Борис"]),
    ("main move out of turn in a later round", at_round(7, "Вика"), rest("Аня"), "3.8", "not_your_turn",
     ["Вика", "round 7"]),
    ("finish before round 10 is over", lambda: reach(fresh(), 10, "Вика"), FINISH, "4", "finish_early",
     ["round 10", "Вика"]),
    ("main move after round 10 is over", lambda: reach_finish(fresh()), pass_("Аня"), "4", "round10_over",
     ["10"]),
    ("any move after finish", finished, pass_("Аня"), "6.6", "finished", ["finished"]),
    ("adjust after finish", finished, adjust("Аня", xp=100), "6.6", "finished", []),
]


@pytest.mark.parametrize("arrange, move, rule, code, texts", [c[1:] for c in ILLEGAL],
                         ids=[c[0] for c in ILLEGAL])
def test_an_illegal_move_is_refused_and_changes_nothing(arrange, move, rule, code, texts):
    game = arrange()
    before = state(game)
    with pytest.raises(IllegalMoveError) as checked:
        game.check(move)
    with pytest.raises(IllegalMoveError) as err:
        game.apply(move)
    error = err.value
    assert (error.rule, error.code) == (rule, code)
    assert (checked.value.rule, checked.value.code) == (rule, code)
    for text in texts:
        assert text in error.message, (text, error.message)
    for name, value in error.params.items():  # every number the error carries is in its message
        if isinstance(value, int) and not isinstance(value, bool):
            assert str(abs(value)) in error.message, (name, value, error.message)
    assert state(game) == before


# ----- the sections named are RULES.md's ---------------------------------------------------
#: RULES.md's sections: "## N." headings, "### N.M" subsections, and the numbered points of
#: sections 2 (setup) and 6 (decisions), which are cited as "2.1" or "6.6".
SECTIONS = {"1", "2", "3", "4", "5", "6",
            "3.1", "3.2", "3.3", "3.4", "3.5", "3.6", "3.7", "3.8",
            "2.1", "2.2", "2.3", "2.4", "6.1", "6.2", "6.3", "6.4", "6.5", "6.6"}


def _rules_md():
    for parent in Path(__file__).resolve().parents:
        candidate = parent / "shared" / "RULES.md"
        if candidate.is_file():
            return candidate.read_text(encoding="utf-8")
    return None


def test_every_refusal_names_a_section_of_rules_md():
    assert {c[3] for c in ILLEGAL} <= SECTIONS


def test_the_sections_are_those_of_rules_md():
    text = _rules_md()
    if text is None:
        pytest.skip("shared/RULES.md is not beside the project")
    found = set(re.findall(r"^## (\d)\.", text, re.M)) | set(re.findall(r"^### (\d\.\d)", text, re.M))
    for section in ("2", "6"):
        body = text.split(f"\n## {section}.", 1)[1].split("\n## ", 1)[0]
        found |= {f"{section}.{n}" for n in re.findall(r"^(\d+)\. ", body, re.M)}
    assert found == SECTIONS


def test_every_refusal_code_of_the_engine_is_in_the_table():

    from facilitator.rules.lyceum import game as game_module
    source = inspect.getsource(game_module)
    codes = set(re.findall(r'_illegal\((?:"[\d.]+"|\w+),\s*"(\w+)"', source))
    assert len(codes) > 30
    assert codes <= {c[4] for c in ILLEGAL}, codes - {c[4] for c in ILLEGAL}
