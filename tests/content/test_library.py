"""The pack library under import: a refused import stores nothing, and a changed pack is a new
version while a game in progress keeps replaying with the version it started with (issue 6,
item 4: «games keep replaying with the version they started with»)."""

import json

import pytest
from sqlmodel import select

from facilitator.rules.lyceum.ruleset import sample_pack, sample_pack_data
from facilitator.games.lyceum.excel import pack_to_workbook, workbook_to_pack
from facilitator.content.importing import PackImportError
from facilitator.services.packs import get_row, list_packs, pack_of, store_pack
from facilitator.rules import ReplayError
from facilitator.rules.lyceum import Record, read_pack, standings
from facilitator.rules.lyceum import replay
from facilitator.rules.lyceum.simulate import random_game
from facilitator.storage import ContentPackRow, get_engine, init_db, session_scope
from facilitator.storage.db import dispose_all

from .helpers import edited

pytestmark = pytest.mark.db


@pytest.fixture
def engine(tmp_path, monkeypatch):
    """A fresh SQLite library in a temporary instance folder."""
    monkeypatch.setenv("FACILITATOR_INSTANCE", str(tmp_path))
    engine = get_engine(f"sqlite:///{tmp_path}/t.db")
    init_db(engine)
    yield engine
    dispose_all()


def _rows(engine):
    with session_scope(engine) as session:
        return [(r.key, r.version, r.data) for r in session.exec(select(ContentPackRow)
                                                                  .order_by(ContentPackRow.key, ContentPackRow.version))]


def test_a_refused_workbook_changes_nothing_in_the_library(engine):
    with session_scope(engine) as session:
        store_pack(session, sample_pack())
    before = _rows(engine)
    # the same pack code, one good change and one broken card: the whole import is refused
    bad = edited(pack_to_workbook(sample_pack()), [("Карты", "D2", "Новое название"), ("Карты", "O11", 2)])
    with pytest.raises(PackImportError):
        with session_scope(engine) as session:
            store_pack(session, workbook_to_pack(bad))
    assert _rows(engine) == before


def test_storing_a_changed_pack_adds_a_version_and_keeps_the_old_one(engine):
    with session_scope(engine) as session:
        v1 = store_pack(session, sample_pack()).version
        again = store_pack(session, sample_pack()).version  # same content: no new version
    changed = edited(pack_to_workbook(sample_pack()), [("Карты", "D2", "Олимпиада по математике")])
    with session_scope(engine) as session:
        v2 = store_pack(session, workbook_to_pack(changed)).version
        old, new = pack_of(get_row(session, "sample", 1, ruleset="lyceum-16-25")), pack_of(get_row(session, "sample", ruleset="lyceum-16-25"))
        listed = [(r.key, r.version) for r in list_packs(session)]
    assert (v1, again, v2) == (1, 1, 2)
    assert old == sample_pack()
    assert new.cards_by_code["L-G-01"].title == "Олимпиада по математике"
    assert listed == [("sample", 2)]


def _played_card(record):
    """The code of a card the record plays from the pack."""
    return next(m.card for m in record.moves if m.type == "draw" and m.decision == "play")


def _changed_card(data, code):
    """The pack with the card's gains all moved to one other skill (a free SP turned into a gain
    when it gains nothing): still valid, but a game that played it no longer adds up the same."""
    card = next(c for c in data["cards"] if c["code"] == code)
    gained = sum(card["gains"].values())
    if gained:
        first = next(iter(card["gains"]))
        card["gains"] = {"energy" if first != "energy" else "health": gained}
    else:
        card["gains"], card["free"] = {"energy": 1}, max(0, card["free"] - 1)
    return data


def test_a_game_in_progress_keeps_its_pack_version_when_the_pack_changes(engine):
    with session_scope(engine) as session:
        row = store_pack(session, sample_pack())
        key, version = row.key, row.version
    with session_scope(engine) as session:
        started_with = pack_of(get_row(session, key, version, ruleset="lyceum-16-25"))
    full, _game = random_game(started_with, seed=7, players=4)
    half = len(full.moves) // 2
    in_progress = Record(table=full.table, pack=started_with, players=full.players, moves=full.moves[:half])
    before = standings([replay(in_progress)])
    code = _played_card(in_progress)

    changed = read_pack(_changed_card(sample_pack_data(), code))
    with session_scope(engine) as session:
        new_row = store_pack(session, changed)
        assert new_row.version == version + 1

    with session_scope(engine) as session:
        original = pack_of(get_row(session, key, version, ruleset="lyceum-16-25"))
        latest = pack_of(get_row(session, key, ruleset="lyceum-16-25"))
    again = Record(table=full.table, pack=original, players=full.players, moves=full.moves[:half])
    assert standings([replay(again)]) == before
    # and the game goes on to its end with the version it started with
    finished = replay(Record(table=full.table, pack=original, players=full.players, moves=full.moves))
    assert finished.finished

    # the new version would not have given the same game: the check above can fail
    try:
        with_latest = standings([replay(Record(table=full.table, pack=latest, players=full.players,
                                               moves=full.moves[:half]))])
    except ReplayError:
        return
    assert with_latest != before


def test_a_record_written_during_the_game_carries_its_version_inline(engine):
    with session_scope(engine) as session:
        started_with = pack_of(store_pack(session, sample_pack()))
    record, _ = random_game(started_with, seed=2, players=3, finish=False)
    written = json.dumps(record.to_dict(), ensure_ascii=False)
    with session_scope(engine) as session:
        store_pack(session, read_pack(_changed_card(sample_pack_data(), _played_card(record))))
    from facilitator.rules.lyceum import read_record
    assert read_record(json.loads(written)).pack == started_with
