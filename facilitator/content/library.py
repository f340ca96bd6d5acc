"""The pack library: content packs stored in the database for use by events.

Each stored version is immutable. Storing a pack under a key that exists adds a new
version (unless the content is the same as the latest), so a game that started with one
version keeps replaying with it.
"""

import json
from functools import lru_cache

from sqlmodel import select

from ..rules import read_pack
from ..storage.models import ContentPackRow
from . import sample_pack_data


def _dump(pack):
    return json.dumps(pack.to_dict(), ensure_ascii=False, sort_keys=False)


def store_pack(session, pack):
    """Store ``pack`` as the newest version of its key; returns the row (an existing row when
    the newest version already has exactly this content)."""
    latest = latest_row(session, pack.id)
    data = _dump(pack)
    if latest is not None and json.loads(latest.data) == json.loads(data):
        return latest
    row = ContentPackRow(key=pack.id, version=(latest.version + 1) if latest else 1,
                         title=pack.title, data=data)
    session.add(row)
    session.flush()
    return row


def latest_row(session, key):
    return session.exec(select(ContentPackRow).where(ContentPackRow.key == key)
                        .order_by(ContentPackRow.version.desc())).first()


def get_row(session, key, version=None):
    """The row of a pack version (the newest when ``version`` is None), or None."""
    if version is None:
        return latest_row(session, key)
    return session.exec(select(ContentPackRow).where(ContentPackRow.key == key,
                                                     ContentPackRow.version == version)).first()


def pack_of(row):
    """The validated ``ContentPack`` a row holds. Stored versions never change, so a pack is
    parsed and validated once per content, not on every request."""
    return _pack_from_text(row.data)


@lru_cache(maxsize=64)
def _pack_from_text(text):
    return read_pack(json.loads(text))


def list_packs(session):
    """The newest version of every stored pack, by key."""
    rows = session.exec(select(ContentPackRow).order_by(ContentPackRow.key, ContentPackRow.version)).all()
    newest = {}
    for row in rows:
        newest[row.key] = row
    return list(newest.values())


def ensure_sample(session):
    """The sample pack's row, stored on first use only: an organizer's later edits of it are
    their own versions and are never replaced by the shipped file."""
    return latest_row(session, "sample") or store_pack(session, read_pack(sample_pack_data()))


def adopt_version(session, row):
    """After an edit: events of this pack and their tables that have not recorded a move yet
    play with the new version; tables with recorded moves keep the version they started with,
    so their games replay exactly as played. Returns how many tables moved to the new version."""
    from sqlalchemy import func

    from ..storage.models import Event, GameTable, MoveRow
    versions = [r.id for r in session.exec(select(ContentPackRow).where(ContentPackRow.key == row.key)).all()]
    for event in session.exec(select(Event).where(Event.pack_id.in_(versions))).all():
        event.pack_id = row.id
        session.add(event)
    new_pack = pack_of(row)
    moved = 0
    for table in session.exec(select(GameTable).where(GameTable.pack_id.in_(versions),
                                                      GameTable.pack_id != row.id)).all():
        count = session.exec(select(func.count(MoveRow.id)).where(MoveRow.table_id == table.id)).one()
        if count == 0 and _setup_fits(new_pack, table):
            table.pack_id = row.id
            session.add(table)
            moved += 1
    session.flush()
    return moved


def _setup_fits(pack, table):
    """Whether a table's seated players are still valid under ``pack`` (characters exist)."""
    if not table.players:
        return True
    from ..rules import Game, RulesError, read_player
    try:
        Game(pack, [read_player(p, "player") for p in json.loads(table.players)])
    except RulesError:
        return False
    return True
