"""The game's words in one place (facilitator/words.py): numbers with a real minus sign and
grouped thousands, dates as 17.05.2025, one set of short skill names, and one narration of a
move shared by the host's screens and the protocol."""

from datetime import date, datetime, timezone

import pytest

from facilitator.games.lyceum import words
from facilitator.i18n import use_locale
from facilitator.games.lyceum.protocol import build_protocol

from .conftest import game_of, record_data

NOW = datetime(2025, 5, 17, 12, 0, tzinfo=timezone.utc)
MINUS = "\u2212"


@pytest.mark.parametrize("locale, n, text", [
    ("ru", 2500, "2\u202f500"),
    ("ru", -1500, f"{MINUS}1\u202f500"),
    ("ru", 2500 / 3, "833,3"),
    ("ru", 700.0, "700"),
    ("ru", 0, "0"),
    ("en", 2500, "2,500"),
    ("en", -5, f"{MINUS}5"),
    ("en", 2500 / 3, "833.3"),
])
def test_numbers_follow_the_locale(locale, n, text):
    with use_locale(locale):
        assert words.number(n) == text
    assert words.number(n, locale=locale) == text


def test_huge_integers_are_written_exactly():
    text = words.number(10 ** 100, locale="en")
    assert text == "10" + ",000" * 33  # 101 digits
    assert words.number(-(10 ** 40), locale="ru").startswith(MINUS + "10\u202f000")


@pytest.mark.parametrize("n, text", [(2, "+2"), (-1, f"{MINUS}1"), (0, "0"), (1500, "+1\u202f500"), (None, "")])
def test_signed_numbers_use_a_real_minus_sign(n, text):
    with use_locale("ru"):
        assert words.signed(n) == text


def test_the_screens_signed_is_the_same_function():
    from facilitator.games.lyceum import describe
    assert describe.signed is words.signed
    assert describe.signed(-5) == f"{MINUS}5"


@pytest.mark.parametrize("value", ["2025-05-17", date(2025, 5, 17), datetime(2025, 5, 17, 9, 30)])
def test_dates_read_the_russian_way_and_the_english_way(value):
    assert words.format_date(value, locale="ru") == "17.05.2025"
    assert words.format_date(value, locale="en") == "May 17, 2025"
    with use_locale("ru"):
        assert words.format_date(value) == "17.05.2025"


def test_no_date_is_no_text_and_a_non_date_stays_as_it_is():
    assert words.format_date(None) == "" and words.format_date("") == ""
    assert words.format_date("весной") == "весной"


def test_date_and_time():
    with use_locale("ru"):
        assert words.format_datetime(NOW) == "17.05.2025 12:00"
    with use_locale("en"):
        assert words.format_datetime(NOW) == "May 17, 2025 12:00"


def test_one_set_of_short_skill_names():
    with use_locale("ru"):
        assert [words.skill_short(s) for s in ("health", "intellect", "creativity", "communication", "energy")] == [
            "Здр", "Инт", "Тв", "Ком", "Эн"]


def test_skill_changes_in_the_rulebooks_order_with_a_minus_sign():
    with use_locale("ru"):
        assert words.skill_changes({"energy": -1, "intellect": 2}) == f"интеллект +2, энергия {MINUS}1"


def test_a_move_is_narrated_once_for_the_screens_and_the_protocol(game):
    """The host's flash after Аня's red card and the protocol's log line say the same numbers."""
    result = game.history[2]  # Аня plays red L-R-01: +500 XP, levels 2 and 3, 5 free SP
    with use_locale("ru"):
        lines = words.result_lines(result)
        protocol = build_protocol(game, now=NOW)
    assert lines[0].startswith("Аня: карта «Всероссийская олимпиада» (L-R-01) сыграна")
    assert lines[1] == f"Аня: +500 XP, уровень 3, интеллект +2, энергия {MINUS}1, +5 SP к распределению"
    row = next(r for r in protocol.log if r.number == 3)
    assert row.skills_text == f"интеллект +2, энергия {MINUS}1"


def test_a_deferral_says_the_engines_last_round():
    # a card deferred in round 9 can be played in round 10 only: the engine says 10, not 12
    moves = record_data()["moves"][:35] + [{"type": "pass", "player": "Борис"}, {"type": "pass", "player": "Вика"},
                                            {"type": "draw", "player": "Аня", "color": "red", "card":
                                             {"color": "red", "title": "Нобелевская премия",
                                              "conditions": {"intellect": 20}, "gains": {"intellect": 1}},
                                             "decision": "defer"}]
    game = game_of(record_data(moves=moves))
    result = game.history[-1]
    assert result.deferred_until == 10
    with use_locale("ru"):
        assert "до раунда 10 включительно" in words.result_lines(result)[0]
        assert build_protocol(game, now=NOW).log[-1].deferred_until == 10


@pytest.mark.parametrize("kind, time, who, russian", [
    ("undo", "14:32", "Ольга", "ход отменён в 14:32 (Ольга)"),
    ("undo", None, None, "ход отменён"),
    ("void", "14:32", "Ольга", "ход аннулирован организатором в 14:32 (Ольга)"),
    ("void", None, None, "ход аннулирован организатором"),
    ("reopen", None, "Ольга", "игра возобновлена организатором (Ольга)"),
    ("reopen", "14:32", None, "игра возобновлена организатором в 14:32"),
])
def test_each_kind_of_take_back_has_its_own_words(kind, time, who, russian):
    with use_locale("ru"):
        assert words.take_back_text(kind, time, who) == russian
