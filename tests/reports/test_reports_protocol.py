"""The protocol as data (facilitator.games.lyceum.protocol): what the host used to write on paper,
derived from the engine's replay of the hand-made game of conftest.py."""

from datetime import date, datetime, timezone
from types import SimpleNamespace

import pytest

from facilitator.i18n import use_locale
from facilitator.games.lyceum.protocol import FINAL, PROVISIONAL, UndoneMove, build_protocol, read_undone
from facilitator.rules.lyceum import Move, ROUNDS

from .conftest import FINAL_SKILLS, LEVEL_AFTER_ROUND, MOVES, START, XP_AFTER_ROUND, game_of, record_data

NOW = datetime(2025, 5, 17, 12, 0, tzinfo=timezone.utc)


@pytest.fixture(scope="module")
def protocol(game):
    with use_locale("ru"):
        return build_protocol(game, event="Турнир лицея", now=NOW)


def log_row(protocol, number):
    return next(r for r in protocol.log if r.number == number)


# ----- setup ---------------------------------------------------------------------------------
def test_players_are_listed_in_seating_order_with_base_extra_and_start_skills(protocol):
    assert [(p.seat, p.name) for p in protocol.players] == [(1, "Аня"), (2, "Борис"), (3, "Вика")]
    anya = protocol.players[0]
    assert anya.born == date(2009, 3, 14)
    assert (anya.character, anya.character_name, anya.direction) == ("K1", "Маша", "Математика")
    assert anya.base["intellect"] == 6 and anya.extra["intellect"] == 2
    for p in protocol.players:
        assert p.start == START[p.name]
        assert all(p.start[s] == p.base[s] + p.extra[s] for s in p.start)


def test_turn_order_and_its_reason(protocol):
    # Аня and Борис both have energy 6; Борис is younger, so he goes first
    assert protocol.order == ["Борис", "Вика", "Аня"]
    assert [p.turn for p in protocol.players] == [3, 1, 2]
    assert "Борис" in protocol.order_reason and "младше" in protocol.order_reason


@pytest.mark.parametrize("name, declared", [("Аня", 35), ("Борис", 40), ("Вика", None)])
def test_declarations(protocol, name, declared):
    row = next(p for p in protocol.players if p.name == name)
    assert row.declared == declared
    assert (row.declaration is None) == (declared is None)


# ----- the round grid --------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["Борис", "Вика", "Аня"])
def test_xp_and_level_after_every_round(protocol, name):
    row = next(r for r in protocol.grid if r.name == name)
    assert [c.xp for c in row.cells] == XP_AFTER_ROUND[name]
    assert [c.level for c in row.cells] == LEVEL_AFTER_ROUND[name]


def test_grid_rows_follow_the_turn_order(protocol):
    assert [r.name for r in protocol.grid] == protocol.order


@pytest.mark.parametrize("name, round_no, label_part", [
    ("Борис", 1, "L-G-01"),
    ("Вика", 1, "L-R-02"),           # deferred
    ("Вика", 3, "+200 ← Аня"),       # Аня shared experience
    ("Вика", 4, "L-R-02"),           # the deferred card, played
    ("Аня", 7, "U-R-01"),            # her deferred card expired
    ("Аня", 10, "A-Y-01"),
])
def test_each_cell_says_which_move_made_it(protocol, name, round_no, label_part):
    row = next(r for r in protocol.grid if r.name == name)
    assert label_part in row.cells[round_no - 1].label


def test_a_cell_knows_the_xp_gained_in_its_round(protocol):
    vika = next(r for r in protocol.grid if r.name == "Вика")
    assert [c.gained for c in vika.cells[:4]] == [0, 0, 200, 500]


def test_a_provisional_grid_stops_at_the_round_being_played(midgame):
    p = build_protocol(midgame, now=NOW)
    assert p.status == PROVISIONAL and not p.final
    assert p.round == 4 and p.rounds_reached == 4
    for row in p.grid:
        assert row.cells[4:] == [None] * (ROUNDS - 4)
        assert [c.xp for c in row.cells[:4]] == XP_AFTER_ROUND[row.name][:4]


# ----- the log -----------------------------------------------------------------------------------
def test_every_move_in_force_is_in_the_log_in_order(protocol):
    numbered = [r.number for r in protocol.log if r.number is not None]
    assert numbered == list(range(1, len(MOVES) + 1))


def test_a_played_card_shows_xp_skills_free_sp_and_level_ups(protocol):
    row = log_row(protocol, 3)  # Аня plays red L-R-01 in round 1
    assert (row.round, row.player, row.card_code, row.card_title, row.color) == (
        1, "Аня", "L-R-01", "Всероссийская олимпиада", "red")
    assert row.xp == 500 and (row.xp_after, row.level_after) == (500, 3)
    assert row.skills == {"intellect": 2, "energy": -1}
    assert row.free_sp == 5  # the card's 1 free SP + 2 for level 2 + 2 for level 3
    assert row.levels == [2, 3]


def test_a_deferral_shows_the_last_round_it_may_be_played(protocol):
    assert log_row(protocol, 2).deferred_until == 4    # Вика, round 1
    assert log_row(protocol, 22).deferred_until == 7   # Аня, round 4


def test_the_special_ability_of_a_played_red_card_is_recorded(protocol):
    row = log_row(protocol, 18)  # Вика plays her deferred L-R-02
    assert row.kind == "play_deferred"
    assert row.special == "Каждый другой игрок получает +1 SP здоровья"
    assert [r.number for r in protocol.specials] == [18]


def test_a_share_lists_what_every_other_player_got(protocol):
    row = log_row(protocol, 12)
    assert row.kind == "share" and row.xp is None
    text = row.details_text
    assert "200" in text and "Борис +200 XP (уровень 3)" in text and "Вика +200 XP (уровень 2)" in text


def test_corrections_keep_their_reasons(protocol):
    assert [(r.number, r.player) for r in protocol.adjustments] == [(20, "Борис"), (21, "Аня")]
    assert all("спецвозможность L-R-02" in r.details_text for r in protocol.adjustments)
    assert log_row(protocol, 20).skills == {"health": 1}


def test_an_expired_deferred_card_gets_its_own_line_when_its_holders_turn_ends(protocol):
    expired = [r for r in protocol.log if r.kind == "expired"]
    assert len(expired) == 1
    row = expired[0]
    assert (row.player, row.card_code, row.round, row.number) == ("Аня", "U-R-01", 7, None)
    # it comes after Аня's last move of round 7 and before Борис opens round 8
    index = protocol.log.index(row)
    assert protocol.log[index - 1].number == 31 and protocol.log[index + 1].number == 32


def test_deferred_cards_and_how_long_they_were_held(protocol):
    vika, anya = protocol.deferrals
    assert (vika.player, vika.card_code, vika.round, vika.until, vika.outcome, vika.outcome_round,
            vika.held_rounds) == ("Вика", "L-R-02", 1, 4, "played", 4, 3)
    assert (anya.player, anya.card_code, anya.round, anya.until, anya.outcome, anya.outcome_round,
            anya.held_rounds) == ("Аня", "U-R-01", 4, 7, "expired", 7, 3)


def test_a_card_still_held_mid_game(midgame):
    p = build_protocol(midgame, now=NOW)
    held = [d for d in p.deferrals if d.outcome == "held"]
    assert [(d.player, d.until) for d in held] == [("Аня", 7)]


def test_a_card_held_at_the_finish_is_discarded_then():
    # in round 10 Аня defers a hand-entered red card she cannot play (it needs 20 intellect)
    # instead of playing A-Y-01; the finish discards it
    moves = list(MOVES)
    big = {"color": "red", "title": "Нобелевская премия", "conditions": {"intellect": 20}, "gains": {"intellect": 1}}
    moves[40] = {"type": "draw", "player": "Аня", "color": "red", "card": big, "decision": "defer"}
    del moves[41]  # no level-up, no allocation
    p = build_protocol(game_of(record_data(moves=moves)), now=NOW)
    last = p.deferrals[-1]
    assert (last.card_code, last.card_title, last.round, last.outcome, last.outcome_round) == (
        None, "Нобелевская премия", 10, "finish", 10)
    # the rule's "until round 13" is printed as the last round there is: 10
    assert last.until == 10
    assert next(r for r in p.log if r.number == 41).deferred_until == 10
    finish_row = p.log[-1]
    assert finish_row.kind == "finish"
    assert p.log[-2].kind == "expired" and p.log[-2].card_title == "Нобелевская премия"


# ----- the final block -------------------------------------------------------------------------
def test_final_block_with_the_declaration_checked_skill_by_skill(protocol):
    by_name = {r.name: r for r in protocol.results}
    anya, boris, vika = by_name["Аня"], by_name["Борис"], by_name["Вика"]
    assert (anya.xp, anya.declared, anya.met, anya.bonus, anya.final_xp, anya.place) == (800, 35, True, 300, 1100, 1)
    assert {c.skill: (c.have, c.target, c.met) for c in boris.checks} == {
        "health": (9, 9, True), "intellect": (8, 8, True), "creativity": (6, 9, False),
        "communication": (5, 5, True), "energy": (9, 9, True)}
    assert (boris.met, boris.bonus, boris.final_xp, boris.place) == (False, 0, 700, 2)
    assert (vika.declared, vika.checks, vika.bonus, vika.final_xp, vika.place) == (None, [], 0, 700, 2)
    for r in protocol.results:
        assert r.skills == FINAL_SKILLS[r.name]


def test_table_total_and_average(protocol):
    assert protocol.total_xp == 2500
    assert protocol.average_xp == pytest.approx(833.33, abs=0.01)


def test_final_after_finish(protocol):
    assert protocol.final and protocol.status == FINAL
    assert protocol.status_text.startswith("Окончательный")
    assert [w.name for w in protocol.winners] == ["Аня"]


def test_status_texts_follow_the_locale(midgame):
    with use_locale("en"):
        assert build_protocol(midgame, now=NOW).status_text.startswith("Provisional: the game is in round 4")
    with use_locale("ru"):
        assert build_protocol(midgame, now=NOW).status_text.startswith("Предварительный: идёт раунд 4")


# ----- undone moves -------------------------------------------------------------------------------
UNDONE_DRAW = {"type": "draw", "player": "Борис", "color": "red", "card": "L-R-01", "decision": "discard",
               "at": "2025-05-17T10:05:00+00:00"}


def test_undone_moves_are_shown_marked_where_they_were_made(game):
    undone = [UndoneMove(Move("pass", player="Борис"), "2025-05-17T10:01:00+00:00", "Ведущий", after=0),
              UndoneMove(Move("adjust", player="Вика", xp=100, reason="ошибка"), None, "Ольга", after=20)]
    with use_locale("ru"):
        p = build_protocol(game, undone=undone, now=NOW)
    assert p.log[0].undone and p.log[0].kind == "undone" and p.log[0].number is None
    assert p.log[0].player == "Борис" and "ход отменён" in p.log[0].details_text
    second = next(r for r in p.log[1:] if r.undone)
    index = p.log.index(second)
    assert p.log[index - 1].number == 20 and p.log[index + 1].number == 21
    assert second.xp == 100 and "Ольга" in second.details_text and "ошибка" in second.details_text
    # undone moves change nothing in the numbers
    assert p.total_xp == 2500


def test_an_undone_move_without_a_position_goes_by_its_time():
    moves = record_data()["moves"]
    for i, move in enumerate(moves):
        move["at"] = f"2025-05-17T10:{i:02d}:30+00:00"
    p = build_protocol(game_of(record_data(moves=moves)), undone=[(UNDONE_DRAW, "2025-05-17T10:06:00+00:00", "Ведущий")],
                       now=NOW)
    row = next(r for r in p.log if r.undone)
    index = p.log.index(row)
    # moves 1..5 were made at 10:00:30 .. 10:04:30, move 6 at 10:05:30: the undone one sits between
    assert p.log[index - 1].number == 5 and p.log[index + 1].number == 6
    assert row.card_code == "L-R-01" and row.color == "red"


@pytest.mark.parametrize("entry", [
    UndoneMove(UNDONE_DRAW, "2025-05-17T10:06:00+00:00", "Ведущий"),
    {"move": UNDONE_DRAW, "undone_at": "2025-05-17T10:06:00+00:00", "undone_by": "Ведущий"},
    (UNDONE_DRAW, "2025-05-17T10:06:00+00:00", "Ведущий"),
    (UNDONE_DRAW, SimpleNamespace(created_at=datetime(2025, 5, 17, 10, 6, tzinfo=timezone.utc), author="Ведущий")),
], ids=["UndoneMove", "dict", "triple", "storage row"])
def test_undone_moves_are_accepted_in_the_forms_callers_have(entry):
    (item,) = read_undone([entry])
    assert item.move.type == "draw" and item.move.card == "L-R-01"
    assert item.undone_by == "Ведущий" and item.undone_at.startswith("2025-05-17T10:06:00")


def test_a_game_without_moves_has_an_empty_provisional_protocol():
    p = build_protocol(game_of(record_data(moves=[])), now=NOW)
    assert not p.final and p.log == [] and p.deferrals == []
    assert all(c is None for row in p.grid for c in row.cells)
    assert p.total_xp == 0


# ----- the three kinds of take-back rows ---------------------------------------------------------------
def test_read_undone_reads_the_kind_of_a_storage_row_and_defaults_to_undo():
    void_row = SimpleNamespace(kind="void", author="Организатор", created_at="2025-05-17T10:06:00+00:00", seq=9,
                               undoes=4)
    plain_row = SimpleNamespace(author="Ведущий", created_at=None)
    void, undo, listed = read_undone([(UNDONE_DRAW, void_row), (UNDONE_DRAW, plain_row),
                                      {"move": {"type": "finish"}, "kind": "reopen"}])
    assert (void.kind, undo.kind, listed.kind) == ("void", "undo", "reopen")
    assert void.undone_by == "Организатор"


def test_an_unknown_kind_is_shown_as_an_undo():
    (item,) = read_undone([(UNDONE_DRAW, SimpleNamespace(kind="mystery", author=None, created_at=None))])
    assert item.kind == "undo"


def test_voided_and_reopened_moves_say_who_took_them_back_in_their_own_words(game):
    undone = [UndoneMove(Move("pass", player="Борис"), None, "Ведущий", after=0, kind="undo"),
              UndoneMove(Move("adjust", player="Вика", xp=100, reason="ошибка"), None, "Ольга", after=20, kind="void"),
              UndoneMove(Move("finish"), None, "Ольга", after=42, kind="reopen")]
    with use_locale("ru"):
        p = build_protocol(game, undone=undone, now=NOW)
    rows = [r for r in p.log if r.undone]
    assert [r.taken_back for r in rows] == ["undo", "void", "reopen"]
    assert rows[0].details_text == "ход отменён (Ведущий)"
    assert rows[1].details_text.startswith("ход аннулирован организатором (Ольга)")
    assert rows[2].details_text == "игра возобновлена организатором (Ольга)"
    assert rows[2].what == "Игра окончена"
    assert p.final and p.total_xp == 2500  # taken-back moves change no number
