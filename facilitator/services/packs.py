"""The pack library: content packs stored in the database for use by events, one library per
ruleset (game).

Each stored version is immutable. Storing a pack under a key that exists adds a new version
(unless the content is the same as the latest), so a game that started with one version keeps
replaying with it. Tables that have not recorded a move move to a new version through the same
compare-and-set write as a move (``tables.adopt_pack``), so a first move racing a pack edit is
never recorded against a card that is gone.
"""

import json
from functools import lru_cache
from weakref import WeakKeyDictionary

from sqlmodel import select

from facilitator.rules import registry
from facilitator.storage.models import ContentPackRow, Event, GameTable


def _dump(pack):
    return json.dumps(pack.to_dict(), ensure_ascii=False, sort_keys=False)


def ruleset_of_pack(pack):
    """The ruleset key of an engine's pack object (by the format it writes)."""
    return registry.of_pack(pack.to_dict()).key


def store_pack(session, pack, ruleset=None):
    """Store ``pack`` as the newest version of its key; returns the row (an existing row when
    the newest version already has exactly this content)."""
    ruleset = ruleset or ruleset_of_pack(pack)
    latest = latest_row(session, pack.id, ruleset)
    data = _dump(pack)
    if latest is not None and json.loads(latest.data) == json.loads(data):
        return latest
    row = ContentPackRow(ruleset=ruleset, key=pack.id, version=(latest.version + 1) if latest else 1,
                         title=pack.title, data=data)
    session.add(row)
    session.flush()
    return row


def latest_row(session, key, ruleset):
    return session.exec(select(ContentPackRow).where(ContentPackRow.ruleset == ruleset, ContentPackRow.key == key)
                        .order_by(ContentPackRow.version.desc())).first()


def get_row(session, key, version=None, *, ruleset):
    """The row of a pack version (the newest when ``version`` is None), or None."""
    if version is None:
        return latest_row(session, key, ruleset)
    return session.exec(select(ContentPackRow).where(ContentPackRow.ruleset == ruleset, ContentPackRow.key == key,
                                                     ContentPackRow.version == version)).first()


def row_by_id(session, pack_id):
    return session.get(ContentPackRow, pack_id) if pack_id is not None else None


def pack_row_of(session, pack_id):
    """A pack version's row, read once per database by this process: a version is never
    changed or deleted (an edit stores a new one), so every later request, and every move,
    finds it here instead of asking the database again. Read-only: the row is shared by
    requests."""
    known = _pack_rows.get(session.get_bind())
    if known is None:
        known = _pack_rows.setdefault(session.get_bind(), {})
    row = known.get(pack_id)
    if row is None:
        stored = session.get(ContentPackRow, pack_id)
        if stored is None:
            return None
        # a copy belonging to no session: a rollback of the session that read it (which expires
        # what that session holds) never touches the copy other requests read
        row = known[pack_id] = ContentPackRow(**{c.name: getattr(stored, c.name) for c in ContentPackRow.__table__.columns})
    return row


_pack_rows = WeakKeyDictionary()  # engine -> {pack version id: its row}


def pack_of(row):
    """The validated pack a row holds. Stored versions never change, so a pack is parsed and
    validated once per content, not on every request."""
    return _pack_from_text(row.ruleset, row.data)


@lru_cache(maxsize=64)
def _pack_from_text(ruleset, text):
    return registry.get(ruleset).read_pack(json.loads(text))


def list_packs(session, ruleset=None):
    """The newest version of every stored pack, by ruleset and key (of one ruleset if given)."""
    query = select(ContentPackRow).order_by(ContentPackRow.ruleset, ContentPackRow.key, ContentPackRow.version)
    if ruleset is not None:
        query = query.where(ContentPackRow.ruleset == ruleset)
    newest = {}
    for row in session.exec(query).all():
        newest[(row.ruleset, row.key)] = row
    # by the game's name as its players know it, then by code: no game comes first for being the default
    return sorted(newest.values(), key=lambda r: (_game_name(r.ruleset), r.key))


def _game_name(ruleset):
    try:
        return registry.get(ruleset).name.casefold()
    except KeyError:
        return ruleset


def ensure_sample(session, ruleset):
    """The shipped pack of a ruleset, stored on first use only: an organizer's later edits of
    it are their own versions and are never replaced by the shipped file."""
    rules = registry.get(ruleset)
    data = rules.default_pack_data()
    return latest_row(session, data["id"], ruleset) or store_pack(session, rules.read_pack(data), ruleset)


def ensure_shipped_packs(session):
    """Every ruleset's shipped pack (the «16/25» sample, the Alter Ego deck, …), stored once."""
    for rules in registry.all_rulesets():
        ensure_sample(session, rules.key)


def versions_of(session, row):
    """The ids of every version of the pack ``row`` belongs to."""
    return [r.id for r in session.exec(select(ContentPackRow).where(
        ContentPackRow.ruleset == row.ruleset, ContentPackRow.key == row.key)).all()]


def adopt_version(session, row):
    """After an edit: events of this pack and their tables that have not recorded a move yet
    play with the new version; tables with recorded moves keep the version they started with,
    so their games replay exactly as played. Returns how many tables moved to the new version."""
    from sqlalchemy import update

    from facilitator.services.tables import adopt_pack
    versions = versions_of(session, row)
    moved, events = 0, set()
    # tables first, in id order, then the events (the order every write takes its rows in)
    candidates = session.exec(select(GameTable).where(GameTable.pack_id.in_(versions), GameTable.pack_id != row.id,
                                                      GameTable.seq == 0).order_by(GameTable.id)).all()
    for table in candidates:
        if adopt_pack(session, table, row, bump=False):
            moved += 1
            if table.event_id is not None:
                events.add(table.event_id)
    session.connection().execute(update(Event).where(Event.pack_id.in_(versions)).values(pack_id=row.id))
    for event_id in sorted(events):
        session.connection().execute(update(Event).where(Event.id == event_id).values(version=Event.version + 1))
    return moved
