"""Every number and text a person can enter is held to what the game can reach
(``facilitator.rules.lyceum.fields``): an adjust's XP and SP, allocations, redistributions, a pack's
numbers, counts of cards, characters, levels, players and moves, text lengths, and control
characters in names, codes, ids and titles. Each refusal is a ``MalformedError`` naming the
field, what is wrong and what is allowed, in English and in Russian.

A host who types extra zeros into an adjust once recorded 10^8 ... 10^309 XP and broke every
page of the table; a newline in a player's name broke a download's header.
"""

import copy

import pytest

from facilitator import i18n
from facilitator.rules import MalformedError
from facilitator.rules.lyceum import COLOR_XP, ROUNDS, Move, pack_problems, read_move, read_pack, read_player, read_record, share_amount
from facilitator.rules.lyceum.fields import (MAX_CARDS, MAX_CHARACTERS, MAX_CODE, MAX_ID, MAX_LEVELS, MAX_MOVES,
                                      MAX_NAME, MAX_NOTE, MAX_PLAYERS_LISTED, MAX_SP, MAX_TEXT, MAX_TITLE,
                                      MAX_XP, MAX_XP_CHANGE, read_int, read_skill_map, shown)
from facilitator.rules.lyceum.moves import check_move
from facilitator.rules.lyceum.pack import MALFORMED_KEYS
from facilitator.rules.lyceum.setup import DECLARATION_BONUS
from facilitator.rules.lyceum.simulate import random_game

from .helpers import card_data, character, pack_data

LS, PS = chr(0x2028), chr(0x2029)  # line and paragraph separators (built, not written as literals)


def refused(read, *args):
    with pytest.raises(MalformedError) as err:
        read(*args)
    return err.value


def adjust(**fields):
    return {"type": "adjust", "player": "Аня", "reason": "спецспособность", **fields}


# ----- the XP ceiling is what the game can reach ------------------------------------------------
def test_no_player_can_pass_the_xp_ceiling_without_corrections():
    """The reasoning of ``MAX_XP``: own cards (two of the dearest colour per turn), then the
    three other players sharing 30% of everything they can hold, one after another."""
    own = ROUNDS * 2 * max(COLOR_XP.values())
    assert own == 10_000
    received = 0
    for _ in range(3):  # each sharer holds at most their own cards plus what was shared before
        received += share_amount(own + received)
    best = own + received + max(DECLARATION_BONUS.values())
    assert best < 23_000 < MAX_XP
    assert MAX_XP_CHANGE >= own  # one adjust can correct a whole game's worth of cards


@pytest.mark.parametrize("seed", range(5))
def test_simulated_games_stay_far_below_every_bound(seed):
    from facilitator.rules.lyceum.ruleset import sample_pack
    record, game = random_game(sample_pack(), seed=seed, adjust_rate=0.05)
    assert max(p.xp for p in game.players.values()) < MAX_XP / 4
    assert max(v for p in game.players.values() for v in p.skills.values()) < MAX_SP
    assert len(record.moves) < MAX_MOVES / 10
    assert read_record(record.to_dict()).moves == record.moves


# ----- an adjust ---------------------------------------------------------------------------------
@pytest.mark.parametrize("xp", [100, -100, MAX_XP_CHANGE, -MAX_XP_CHANGE, 0])
def test_an_adjust_within_the_limit_is_read(xp):
    assert read_move(adjust(xp=xp)).xp == xp


@pytest.mark.parametrize("xp", [MAX_XP_CHANGE + 100, -MAX_XP_CHANGE - 100, 10 ** 8, 10 ** 309, -(10 ** 20)])
def test_an_adjust_with_extra_zeros_is_refused_saying_the_limit(xp):
    err = refused(read_move, adjust(xp=xp), "moves[4]")
    assert err.path == "moves[4].xp"
    assert err.template == "an adjust changes XP by at most {limit} either way, got {value}"
    assert err.params["limit"] == MAX_XP_CHANGE
    assert len(str(err)) < 120


def test_a_5000_digit_xp_is_refused_without_writing_the_number_out():
    err = refused(read_move, adjust(xp=10 ** 5000))
    assert str(err) == "move.xp: an adjust changes XP by at most 10000 either way, got 10^5000"


@pytest.mark.parametrize("value", [True, False, 1.0, "100", None])
def test_an_adjust_xp_must_be_a_whole_number_and_never_a_boolean(value):
    assert refused(read_move, adjust(xp=value)).path == "move.xp"


@pytest.mark.parametrize("delta", [MAX_SP + 1, -MAX_SP - 1, 10 ** 6])
def test_an_adjust_of_a_skill_beyond_the_limit_is_refused(delta):
    err = refused(read_move, adjust(sp={"energy": delta}))
    assert err.path == "move.sp.energy"
    assert err.params["maximum" if delta > 0 else "minimum"] in (MAX_SP, -MAX_SP)


def test_an_adjust_of_a_skill_within_the_limit_is_read():
    assert read_move(adjust(sp={"energy": -MAX_SP, "health": MAX_SP})).sp == {"energy": -MAX_SP, "health": MAX_SP}


def test_a_reason_may_run_over_lines_but_not_over_the_limit_nor_hold_control_characters():
    assert read_move(adjust(xp=100, reason="строка 1\r\nстрока 2\tи таб")).reason.endswith("таб")
    assert refused(read_move, adjust(xp=100, reason="x" * (MAX_NOTE + 1))).params == {
        "limit": MAX_NOTE, "length": MAX_NOTE + 1}
    err = refused(read_move, adjust(xp=100, reason="звонок\x07"))
    assert (err.path, err.params) == ("move.reason", {"char": "U+0007", "position": 7})


def test_a_built_move_is_held_to_the_same_bounds():
    with pytest.raises(MalformedError) as err:
        check_move(Move("adjust", player="Аня", xp=10 ** 8, reason="опечатка"))
    assert err.value.path == "move.xp"
    good = Move("adjust", player="Аня", xp=500, sp={"health": 2}, reason="спец")
    assert check_move(good) == good


# ----- allocations, redistributions, other moves -------------------------------------------------
def test_an_allocation_beyond_the_limit_is_refused():
    move = {"type": "allocate", "player": "Аня", "sp": {"health": MAX_SP + 1}}
    assert refused(read_move, move).params == {"maximum": MAX_SP, "value": MAX_SP + 1}
    assert read_move(dict(move, sp={"health": MAX_SP})).sp == {"health": MAX_SP}


@pytest.mark.parametrize("redistribute", [{"health": -1000, "energy": 1000}, {"health": 101, "energy": -101}])
def test_a_redistribution_beyond_the_limit_is_refused(redistribute):
    assert refused(read_move, {"type": "rest", "player": "Аня", "redistribute": redistribute}).path.startswith(
        "move.redistribute.")


@pytest.mark.parametrize("sp", [{"health": True}, {"health": 1.0}])
def test_skill_amounts_are_never_booleans_or_fractions(sp):
    assert refused(read_move, {"type": "allocate", "player": "Аня", "sp": sp}).path == "move.sp.health"


@pytest.mark.parametrize("name", ["Аня\nБорис", "Аня\r", "\x00Аня", "Аня\x7f", f"Аня{LS}", f"Аня{PS}", "Аня\x85",
                                  "А" * (MAX_NAME + 1)])
def test_a_move_names_its_player_on_one_short_line(name):
    assert refused(read_move, {"type": "pass", "player": name}).path == "move.player"


@pytest.mark.parametrize("code", ["L-G-01\n", "L\tG", "X" * (MAX_CODE + 1)])
def test_a_drawn_card_code_is_one_short_line(code):
    move = {"type": "draw", "player": "Аня", "color": "green", "card": code, "decision": "play"}
    assert refused(read_move, move).path == "move.card"


def test_a_hand_entered_card_is_held_to_the_pack_bounds():
    card = {"color": "red", "title": "Карта", "conditions": {"intellect": MAX_SP + 1}}
    move = {"type": "draw", "player": "Аня", "color": "red", "card": card, "decision": "discard"}
    assert refused(read_move, move).path == "move.card.conditions.intellect"


@pytest.mark.parametrize("key, value", [("note", "n" * (MAX_NOTE + 1)), ("note", "\x1b[31m"),
                                        ("at", "2025-03-01T10:00:00\n"), ("at", "t" * 41)])
def test_a_note_and_a_time_are_bounded(key, value):
    assert refused(read_move, {"type": "pass", "player": "Аня", key: value}).path == f"move.{key}"


def test_a_note_may_run_over_lines():
    assert read_move({"type": "pass", "player": "Аня", "note": "раз\nдва"}).note == "раз\nдва"


# ----- players and records -----------------------------------------------------------------------
PLAYER = {"name": "Аня", "born": "2009-03-14", "character": "C1", "extra": {"energy": 5}}


@pytest.mark.parametrize("field, value", [
    ("name", "Аня\nБорис"), ("name", "Аня\t"), ("name", f"Аня{LS}"), ("name", "Я" * (MAX_NAME + 1)),
    ("character", "C1\n"), ("character", "C" * (MAX_CODE + 1)), ("born", "2009-03-14\n"),
    ("born", "2" * 5000)])
def test_a_player_is_named_on_one_short_line(field, value):
    err = refused(read_player, dict(PLAYER, **{field: value}), "players[0]")
    assert err.path == f"players[0].{field}"
    assert len(str(err)) < 200


def test_a_player_name_at_the_limit_is_read():
    assert read_player(dict(PLAYER, name="Я" * MAX_NAME), "p").name == "Я" * MAX_NAME


@pytest.mark.parametrize("field, value", [("extra", {"energy": MAX_SP + 1}), ("declaration", {"health": 10 ** 9}),
                                          ("extra", {"energy": True})])
def test_extra_sp_and_declarations_are_bounded(field, value):
    assert refused(read_player, dict(PLAYER, **{field: value}), "p").path.startswith(f"p.{field}.")


def _record(**changes):
    record = {"format": "lyceum-record/1", "table": "Стол 3", "content": pack_data(),
              "players": [dict(PLAYER, character=f"C{i}", name=n) for i, n in enumerate(("Аня", "Борис", "Вика"), 1)],
              "moves": [{"type": "pass", "player": "Аня"}]}
    record.update(changes)
    return record


@pytest.mark.parametrize("table", ["Стол 3\nSet-Cookie: x=1", "Стол\r3", "С" * (MAX_NAME + 1)])
def test_a_table_name_is_one_short_line(table):
    assert refused(read_record, _record(table=table)).path == "table"


def test_a_record_holds_at_most_so_many_moves_and_players():
    err = refused(read_record, _record(moves=[{"type": "pass", "player": "Аня"}] * (MAX_MOVES + 1)))
    assert (err.path, err.params) == ("moves", {"limit": MAX_MOVES, "count": MAX_MOVES + 1})
    err = refused(read_record, _record(players=[PLAYER] * (MAX_PLAYERS_LISTED + 1)))
    assert err.path == "players"
    assert len(read_record(_record(moves=[{"type": "pass", "player": "Аня"}] * MAX_MOVES)).moves) == MAX_MOVES


def test_a_broken_inline_pack_is_refused_with_its_bound():
    content = pack_data(skill_max=MAX_SP + 1)
    err = refused(read_record, _record(content=content))
    assert err.path == "content.skill_max"


# ----- packs ------------------------------------------------------------------------------------
def problems_of(data):
    pack, problems = pack_problems(data)
    assert pack is None
    return [(p.item, p.field, p.key, p.params) for p in problems]


def with_card(**fields):
    card = card_data("X-R", "adult", "red")
    card.update(fields)
    return pack_data(cards=[card])


def test_a_pack_at_every_limit_is_read():
    chars = [character(f"C{i}", {"health": MAX_SP}) for i in range(MAX_CHARACTERS)]
    cards = [card_data(f"K{i}", "adult", "red", conditions={"intellect": MAX_SP}, free=6,
                       special={"text": "т" * MAX_TEXT, "redistribute": MAX_SP},
                       title="T" * MAX_TITLE) for i in range(MAX_CARDS - 9)]
    levels = list(range(0, MAX_XP + 1, MAX_XP // (MAX_LEVELS - 1)))[:MAX_LEVELS - 1] + [MAX_XP]
    data = pack_data(characters=chars, cards=cards, levels=levels, skill_max=MAX_SP)
    data["id"] = "i" * MAX_ID
    pack = read_pack(data)
    assert (len(pack.cards), len(pack.characters), len(pack.levels)) == (MAX_CARDS, MAX_CHARACTERS, MAX_LEVELS)


@pytest.mark.parametrize("what, data, expected", [
    ("skill_max", pack_data(skill_max=MAX_SP + 1),
     ("pack", "skill_max", "above_maximum", {"maximum": MAX_SP, "value": MAX_SP + 1})),
    ("a level", pack_data(levels=(0, 300, MAX_XP + 1)),
     ("levels", "[2]", "above_maximum", {"maximum": MAX_XP, "value": MAX_XP + 1})),
    ("a character's skill", pack_data(characters=[character("C1", {"health": 10 ** 6})]),
     ("character", "skills.health", "above_maximum", {"maximum": MAX_SP, "value": 10 ** 6})),
    ("a condition", with_card(conditions={"intellect": MAX_SP + 1}),
     ("card", "conditions.intellect", "above_maximum", {"maximum": MAX_SP, "value": MAX_SP + 1})),
    ("a redistribution", with_card(special={"text": "", "redistribute": 1000}),
     ("card", "special.redistribute", "above_maximum", {"maximum": MAX_SP, "value": 1000})),
    ("a loss", with_card(losses={"energy": 500}),
     ("card", "losses.energy", "above_maximum", {"maximum": MAX_SP, "value": 500})),
])
def test_a_pack_number_beyond_the_game_is_refused(what, data, expected):
    assert problems_of(data) == [expected]


def test_free_sp_beyond_the_limit_or_a_boolean_is_refused():
    assert ("card", "free", "above_maximum", {"maximum": MAX_SP, "value": 101}) in problems_of(with_card(free=101))
    assert [p[2] for p in problems_of(with_card(free=False))] == ["not_whole_number"]


@pytest.mark.parametrize("what, data, field, count", [
    ("levels", pack_data(levels=range(0, (MAX_LEVELS + 1) * 10, 10)), "", MAX_LEVELS + 1),
    ("characters", pack_data(characters=[character(f"C{i}") for i in range(MAX_CHARACTERS + 1)]), "characters",
     MAX_CHARACTERS + 1),
    ("cards", pack_data(cards=[card_data(f"K{i}", "adult", "green", gains={"health": 1})
                               for i in range(MAX_CARDS)]), "cards", MAX_CARDS + 9),
])
def test_a_pack_with_too_many_levels_characters_or_cards_is_refused_once(what, data, field, count):
    (problem,) = problems_of(data)
    assert problem[1:] == (field, "too_many", {"limit": {"levels": MAX_LEVELS, "characters": MAX_CHARACTERS,
                                                         "cards": MAX_CARDS}[what], "count": count})


@pytest.mark.parametrize("where, value, key", [
    (("id",), "i" * (MAX_ID + 1), "too_long"),
    (("id",), "deck\r1", "control_character"),
    (("title",), "Колода\x1b", "control_character"),
    (("title",), "T" * (MAX_TITLE + 1), "too_long"),
    (("description",), "d" * (MAX_TEXT + 1), "too_long"),
    (("cards", 0, "code"), "L-G\x00", "control_character"),
    (("cards", 0, "code"), "C" * (MAX_CODE + 1), "too_long"),
    (("cards", 0, "title"), f"Олимпиада{LS}", "control_character"),
    (("cards", 0, "text"), "t" * (MAX_TEXT + 1), "too_long"),
    (("characters", 0, "name"), "Маша\x08", "control_character"),
    (("characters", 0, "name"), "М" * (MAX_NAME + 1), "too_long"),
    (("characters", 0, "direction"), "н" * (MAX_TITLE + 1), "too_long"),
])
def test_a_pack_text_beyond_its_limit_or_with_control_characters_is_refused(where, value, key):
    data = pack_data()
    target = data
    for step in where[:-1]:
        target = target[step]
    target[where[-1]] = value
    ((_item, field, got, _params),) = problems_of(data)
    assert (field, got) == (where[-1], key)


def test_a_card_text_may_keep_its_line_breaks():
    pack = read_pack(with_card(text="строка 1\nстрока 2", special={"text": "спец\nвозможность"}))
    assert pack.cards_by_code["X-R"].text == "строка 1\nстрока 2"


def test_every_bound_template_has_a_problem_key():
    for template in ("must be at most {maximum}, got {value}", "must be at most {limit} characters long, got {length}",
                     "must list at most {limit} items, got {count}",
                     "must not contain control characters; found {char} at character {position}",
                     "must be one line of text without control characters; found {char} at character {position}"):
        assert template in MALFORMED_KEYS


# ----- the readers --------------------------------------------------------------------------------
def test_read_int_checks_both_ends_and_never_takes_a_boolean():
    assert read_int(5, "x", minimum=0, maximum=5) == 5
    assert refused(read_int, 6, "x", 0, 5).template == "must be at most {maximum}, got {value}"
    assert refused(read_int, True, "x", 0, 5).template == "must be a whole number, got {value!r}"


def test_a_pasted_page_is_never_copied_into_a_message():
    err = refused(read_skill_map, {"x" * 1_000_000: 1}, "sp")
    assert len(str(err)) < 200
    err = refused(read_move, {"type": "y" * 1_000_000})
    assert len(str(err)) < 300
    err = refused(read_int, list(range(100_000)), "n")
    assert len(str(err)) < 120


def test_shown_keeps_short_values_as_they_are():
    for value in (0, -1, "one", None, 2.5, ["health"], {"a": 1}, True):
        assert shown(value) == value and type(shown(value)) is type(value)
    assert repr(shown(10 ** 40)) == "10^40"


# ----- in Russian -----------------------------------------------------------------------------------
def test_the_refusals_read_in_russian():
    with i18n.use_locale("ru"):
        err = refused(read_move, adjust(xp=10 ** 8))
        assert i18n.describe_error(err) == (
            "move.xp: поправка меняет XP не больше чем на 10000 в любую сторону, указано 100000000")
        err = refused(read_player, dict(PLAYER, name="Аня\nБорис"), "players[0]")
        assert i18n.describe_error(err) == (
            "players[0].name: должно быть одной строкой текста без управляющих символов; найден U+000A в позиции 4")
        err = refused(read_move, adjust(sp={"energy": 1000}))
        assert i18n.describe_error(err) == "move.sp.energy: должно быть не больше 100, получено 1000"


def test_a_record_within_bounds_reads_back_unchanged():
    data = _record(moves=[adjust(xp=MAX_XP_CHANGE, sp={"health": -MAX_SP}, note="заметка\nв две строки")])
    assert read_record(copy.deepcopy(data)).to_dict() == data
