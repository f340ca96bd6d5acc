"""What waits for a commit (``services.db.after_commit``: a table's new position put in the
process's cache) runs once the outermost transaction is stored, never when a savepoint inside it
is released (SQLAlchemy reports that as a commit too) nor when the transaction is rolled back
after it: the cache never holds a position the database does not."""

import pytest
from sqlalchemy import create_engine, text

from facilitator import services
from facilitator.rules.lyceum.ruleset import read_move
from facilitator.services.db import after_commit, new_session

from .helpers import db
from .test_write_lock import next_passes, seated_tables


def session():
    return new_session(create_engine("sqlite://"))


def test_a_released_savepoint_runs_nothing_the_outer_commit_runs_it_once():
    ran = []
    with session() as s:
        s.execute(text("select 1"))
        with s.begin_nested():
            after_commit(s, lambda: ran.append("kept"))
        assert ran == []  # the savepoint is released; the transaction may still fail
        s.commit()
        assert ran == ["kept"]
        s.execute(text("select 1"))
        s.commit()
    assert ran == ["kept"]


def test_a_rollback_after_a_released_savepoint_runs_nothing():
    ran = []
    with session() as s:
        s.execute(text("select 1"))
        with s.begin_nested():
            after_commit(s, lambda: ran.append("kept"))
        s.rollback()
        s.execute(text("select 1"))
        s.commit()
    assert ran == []


# ----- a table's position in the process's cache ---------------------------------------------------
@pytest.mark.db
def test_a_batch_rolled_back_leaves_no_position_in_the_cache_and_its_next_move_reads_its_own(app, monkeypatch):
    """Two queued passes recorded in one transaction: the second reads the position the first made
    (no replay of the log), and when the transaction is then rolled back (a fault after the batch)
    the process's cache still holds the stored position only; a different move recorded at the same
    place later is read with its own game."""
    from facilitator.services import tables

    table_id = seated_tables(app, 1)[0]
    with db(app) as s:
        before = services.load(s, table_id)
        stored_seq, stored_game = before.seq, before.game
    queued = [dict(item, move=read_move(item["move"])) for item in next_passes(app, table_id, 2, "lost")]
    replays = []
    real_replay = tables.replay_log
    monkeypatch.setattr(tables, "replay_log", lambda *a, **k: replays.append(1) or real_replay(*a, **k))
    engine = app.extensions["facilitator.engine"]
    with new_session(engine) as s:
        recorded, refused = services.record_batch(s, table_id, queued)
        assert refused is None and [r["seq"] for r in recorded] == [stored_seq + 1, stored_seq + 2]
        assert replays == []  # the second pass read the first one's position
        s.rollback()  # what a request does when something fails after the batch
    cache = tables.game_cache(s)
    with db(app) as s:
        table = services.get_table(s, table_id)
        assert table.seq == stored_seq
        assert cache.get(table, stored_seq + 1) is None and cache.get(table, stored_seq + 2) is None
        loaded = services.load(s, table_id)
        assert loaded.game.next() == stored_game.next()
