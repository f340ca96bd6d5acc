"""``Game.copy()``: the app applies a new move to a copy of the table's newest game instead of
replaying the log, so a copy must move on its own and end exactly where a replay ends."""

from facilitator.rules.lyceum.ruleset import sample_pack
from facilitator.rules.lyceum import replay
from facilitator.rules.lyceum.simulate import random_game
from facilitator.rules.lyceum.standings import table_standing


def test_moving_a_copy_leaves_the_original_as_it_was():
    record, _ = random_game(sample_pack(), seed=7, players=4, adjust_rate=0.05)
    game = replay(type(record)(table=record.table, pack=record.pack, players=record.players,
                               moves=record.moves[:40]))
    before = table_standing(game)
    copy = game.copy()
    for move in record.moves[40:80]:
        copy.apply(move)
    assert table_standing(game) == before
    assert len(game.moves) == 40 and len(copy.moves) == min(80, len(record.moves)) > 40


def test_a_game_moved_copy_by_copy_equals_its_replay():
    for seed in range(5):
        record, _ = random_game(sample_pack(), seed=seed, players=3 + seed % 2, adjust_rate=0.05)
        game = replay(type(record)(table=record.table, pack=record.pack, players=record.players, moves=[]))
        for move in record.moves:
            game = game.copy()
            game.apply(move)
        assert table_standing(game) == table_standing(replay(record))
