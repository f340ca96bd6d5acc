"""The pack library: content packs stored in the database for use by events.

Each stored version is immutable. Storing a pack under a key that exists adds a new
version (unless the content is the same as the latest), so a game that started with one
version keeps replaying with it.
"""

import json

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
    """The validated ``ContentPack`` a row holds."""
    return read_pack(json.loads(row.data))


def list_packs(session):
    """The newest version of every stored pack, by key."""
    rows = session.exec(select(ContentPackRow).order_by(ContentPackRow.key, ContentPackRow.version)).all()
    newest = {}
    for row in rows:
        newest[row.key] = row
    return list(newest.values())


def ensure_sample(session):
    """The sample pack's row, stored on first use."""
    return store_pack(session, read_pack(sample_pack_data()))
