"""RULES.md 3.5 Level-ups: checked right after every XP gain; 2 free SP for every level reached
for the first time in the game; an adjust that lowers XP drops the level shown but keeps the SP
given, and regaining that level gives nothing more. Levels here: [0, 300, 600, 1000]."""

import pytest

from .helpers import adjust, allocate_all, draw, give, make_game, pass_, reach, row


@pytest.fixture
def game():
    return make_game()


LEVEL_UPS = [
    # XP before, XP gained, levels reached, free SP pending
    (0,    100,  [],        0),
    (200,  100,  [2],       2),   # exactly at the threshold
    (0,    600,  [2, 3],    4),   # several levels at once: 2 SP each
    (0,    1000, [2, 3, 4], 6),
    (500,  500,  [3, 4],    4),
    (600,  300,  [],        0),   # 900 is still level 3
    (1000, 2000, [],        0),   # beyond the last threshold there is no level 5
]


@pytest.mark.parametrize("before, gained, levels, sp", LEVEL_UPS)
def test_two_free_sp_for_every_new_level(game, before, gained, levels, sp):
    if before:
        give(game, "Аня", xp=before)
        allocate_all(game)
    result = game.apply(adjust("Аня", xp=gained))
    assert game.players["Аня"].pending == sp
    assert result.changes["Аня"].get("levels", []) == levels
    assert row(game, "Аня")["level"] == game.pack.level_for(before + gained)


def test_a_card_levels_up_the_moment_its_xp_is_gained(game):
    for round_no in (1, 2):
        reach(game, round_no, "Аня")
        game.apply(draw("Аня", "L-G"))
        assert game.players["Аня"].pending == 0
    reach(game, 3, "Аня")
    result = game.apply(draw("Аня", "L-G"))  # 300 XP
    assert result.changes["Аня"]["levels"] == [2]
    assert game.pending() == {"Аня": 2}
    assert game.next() == {"player": "Аня", "expects": "allocate"}


def test_a_level_is_rewarded_once_even_when_lost_and_regained(game):
    give(game, "Аня", xp=600)
    assert game.players["Аня"].pending == 4
    allocate_all(game)
    game.apply(adjust("Аня", xp=-600, reason="ошибка ведущего"))
    assert row(game, "Аня")["level"] == 1  # the level shown drops
    assert game.players["Аня"].skills["health"] == 7 + 4  # the SP given are kept
    result = game.apply(adjust("Аня", xp=600))
    assert game.players["Аня"].pending == 0  # levels 2 and 3 again: nothing more
    assert "levels" not in result.changes["Аня"]
    game.apply(adjust("Аня", xp=400))  # level 4 is new
    assert game.players["Аня"].pending == 2


def test_a_level_lost_and_regained_through_play_gives_nothing_more(game):
    give(game, "Аня", xp=300)
    allocate_all(game)
    game.apply(adjust("Аня", xp=-100, reason="ошибка ведущего"))  # 200 XP: level 1 shown
    result = game.apply(draw("Аня", "L-G"))  # back to 300 XP
    assert row(game, "Аня")["level"] == 2
    assert game.players["Аня"].pending == 0
    assert result.changes["Аня"] == {"xp": 100, "skills": {"intellect": 1}}


def test_each_player_levels_up_on_their_own(game):
    give(game, "Борис", xp=300)
    assert game.pending() == {"Борис": 2}
    allocate_all(game)
    game.apply(pass_("Аня"))
    assert [row(game, n)["level"] for n in ("Аня", "Борис", "Вика")] == [1, 2, 1]
