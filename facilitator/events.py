"""Events: many tables playing at once, their hosts' access codes, live rankings and backups.

Rankings are the engine's (RULES.md 5 through ``rules.standings``); this module only
gathers each table's replayed game and adds what the organizer's dashboard needs to see
(progress, time since the last move).
"""

import json
import secrets
from dataclasses import dataclass
from datetime import datetime, timezone

from sqlalchemy import func
from sqlmodel import select

from . import services
from .content.library import store_pack
from .rules import read_pack, read_record, replay
from .rules.standings import individual_ranking, ranking_rule, table_standing, team_ranking
from .storage.models import ContentPackRow, Event, GameTable, MoveRow

BACKUP_FORMAT = "facilitator-event-backup/1"
STALLED_SECONDS = 300  # no move for 5 minutes at a table in play: the dashboard warns
PIN_DIGITS = 6


class BackupError(ValueError):
    """A backup that cannot be restored: an English ``template`` with its ``params`` (and the
    engine's error as ``cause``), so the organizer's screen can say it in Russian."""

    def __init__(self, template, /, **params):
        self.template = template
        self.params = params
        shown = {k: v for k, v in params.items() if k != "cause"}
        if "cause" in params:
            shown["error"] = str(params["cause"])
        super().__init__(template.format(**shown))


class EventExists(Exception):
    """A restore would land on an event that already exists: never overwritten silently."""

    def __init__(self, event):
        self.event = event
        # kept as plain values: the session that loaded ``event`` is rolled back before they are shown
        self.name, self.date = event.name, event.date
        super().__init__(event.name)


def new_token():
    return secrets.token_urlsafe(24)


def new_pin(session):
    """A six-digit PIN no other table has."""
    while True:
        pin = f"{secrets.randbelow(10 ** PIN_DIGITS):0{PIN_DIGITS}d}"
        if session.exec(select(GameTable).where(GameTable.pin == pin)).first() is None:
            return pin


def create_event(session, name, date=None, pack_row=None):
    event = Event(name=name.strip(), date=date or None, pack_id=pack_row.id if pack_row else None)
    session.add(event)
    session.flush()
    return event


def events(session):
    return session.exec(select(Event).order_by(Event.id.desc())).all()


def tables_of(session, event_id):
    return session.exec(select(GameTable).where(GameTable.event_id == event_id).order_by(GameTable.id)).all()


def add_table(session, event, name, host_name=None):
    """A new table of the event with its host link token and PIN."""
    pack_row = session.get(ContentPackRow, event.pack_id) if event.pack_id else None
    if pack_row is None:
        from .content.library import ensure_sample
        pack_row = ensure_sample(session)
    table = services.create_table(session, name, pack_row, event_id=event.id, host_name=host_name or None)
    return reissue_access(session, table)


def reissue_access(session, table):
    """Revoke a table's host link and PIN and issue new ones."""
    table.token = new_token()
    table.pin = new_pin(session)
    session.add(table)
    session.flush()
    return table


def ensure_access(session, table):
    """Give a table created outside an event its token and PIN."""
    if not table.token or not table.pin:
        reissue_access(session, table)
    return table


@dataclass
class TableProgress:
    table: GameTable
    standing: dict | None  # the table part of lyceum-standings/1, None before setup
    moves: int
    last_move_at: datetime | None

    @property
    def seconds_since_last_move(self):
        if self.last_move_at is None:
            return None
        last = self.last_move_at if self.last_move_at.tzinfo else self.last_move_at.replace(tzinfo=timezone.utc)
        return (datetime.now(timezone.utc) - last).total_seconds()

    @property
    def stalled(self):
        s = self.seconds_since_last_move
        return bool(self.standing and not self.standing["finished"] and s is not None and s > STALLED_SECONDS)


def progress(session, event_id, cache=None):
    """Every table of the event with its replayed standing and activity.

    ``cache`` (a dict kept by the caller, e.g. per app) remembers each table's replay by the
    last row of its log, so a dashboard or projector refresh replays only the tables that
    changed since the previous one."""
    tables = tables_of(session, event_id)
    if not tables:
        return []
    heads = {tid: (top, last) for tid, top, last in session.exec(
        select(MoveRow.table_id, func.max(MoveRow.id), func.max(MoveRow.created_at))
        .where(MoveRow.table_id.in_([t.id for t in tables])).group_by(MoveRow.table_id)).all()}
    keys = {t.id: (t.id, t.created_at, t.name, t.players, t.pack_id, heads.get(t.id, (None, None))[0])
            for t in tables}
    hits = {t.id: cache.get(keys[t.id]) if cache is not None else None for t in tables}
    missing = [t for t in tables if hits[t.id] is None]
    for table_id, loaded in services.load_many(session, missing).items():
        standing = table_standing(loaded.game) if loaded.game is not None else None
        hits[table_id] = (standing, len(loaded.active))
        if cache is not None:
            if len(cache) > 4096:
                cache.clear()
            cache[keys[table_id]] = hits[table_id]
    out = []
    for table in tables:
        last = heads.get(table.id, (None, None))[1]
        hit = hits[table.id]
        standing, moves = hit
        out.append(TableProgress(table=table, standing=standing, moves=moves, last_move_at=last))
    return out


def event_standings(session, event_id, tables=None):
    """``lyceum-standings/1`` for the event's tables that have players, plus a ``provisional``
    flag (any table not finished)."""
    tables = tables if tables is not None else progress(session, event_id)
    parts = [t.standing for t in tables if t.standing is not None]
    return {
        "format": "lyceum-standings/1",
        "tables": parts,
        "teams": team_ranking(parts) if parts else [],
        "individuals": individual_ranking(parts) if parts else [],
        "ranked_by": ranking_rule(parts) if parts else "total",
        # provisional until every table, including one still at its setup, has finished
        "provisional": not parts or len(parts) < len(tables) or any(not t["finished"] for t in parts),
    }


def event_version(session, event_id):
    """A cheap fingerprint of everything the public pages show: it changes with every move,
    undo, table change or announcement step (for ETags)."""
    event = session.get(Event, event_id)
    ids = [t.id for t in tables_of(session, event_id)]
    if not ids:
        return f"{event_id}-0-0-{event.announce_step if event else 0}"
    count, top = session.exec(select(func.count(MoveRow.id), func.max(MoveRow.id))
                              .where(MoveRow.table_id.in_(ids))).one()
    # the players themselves, not just whether there are any: a table may be seated again before its first move
    names = "|".join(f"{t.id}:{t.name}:{t.players or ''}" for t in tables_of(session, event_id))
    import hashlib
    digest = hashlib.sha1(names.encode("utf-8")).hexdigest()[:8]
    return f"{event_id}-{count}-{top or 0}-{event.announce_step}-{digest}"


# ----- backups ---------------------------------------------------------------------------
def backup(session, event_id):
    """The whole event as one JSON object: settings, tables with their full logs (undone moves
    and undo rows included) and every table's game record."""
    event = session.get(Event, event_id)
    pack_row = session.get(ContentPackRow, event.pack_id) if event.pack_id else None
    tables = []
    for table in tables_of(session, event_id):
        loaded = services.load(session, table.id)
        tables.append({
            "name": table.name, "host_name": table.host_name, "timer_seconds": table.timer_seconds,
            "deck_seed": table.deck_seed,
            "pack": json.loads(loaded.pack_row.data),
            "players": json.loads(table.players) if table.players else None,
            "log": [{"seq": r.seq, "kind": r.kind, "data": json.loads(r.data) if r.data else None,
                     "undoes": r.undoes, "author": r.author, "created_at": r.created_at.isoformat()}
                    for r in loaded.log],
            "record": loaded.record().to_dict() if loaded.game is not None else None,
        })
    return {"format": BACKUP_FORMAT,
            "event": {"name": event.name, "date": event.date,
                      "pack": json.loads(pack_row.data) if pack_row else None},
            "tables": tables}


def restore(session, data, rename=None):
    """A new event from a backup. Every table's log is replayed before anything is written;
    an event with the same name and date is never overwritten: ``EventExists`` is raised
    unless a new name is given."""
    if not isinstance(data, dict) or data.get("format") != BACKUP_FORMAT:
        raise BackupError("not an event backup: the format must be {format!r}", format=BACKUP_FORMAT)
    info = data.get("event") or {}
    name = (rename or info.get("name") or "").strip()
    if not name:
        raise BackupError("the backup names no event")
    existing = session.exec(select(Event).where(Event.name == name, Event.date == info.get("date"))).first()
    if existing is not None:
        raise EventExists(existing)
    # check everything first: nothing is written for a backup that does not replay
    checked = []
    for i, t in enumerate(data.get("tables") or []):
        try:
            pack = read_pack(t["pack"])
            if t.get("record") is not None:
                replay(read_record(t["record"]))
        except Exception as err:  # noqa: BLE001 - every reason is reported the same way
            raise BackupError("table {n} ({name!r}): {error}", n=i + 1, name=t.get("name"), cause=err) from None
        checked.append((t, pack))
    event_pack = read_pack(info["pack"]) if info.get("pack") else None
    event = create_event(session, name, info.get("date"),
                         store_pack(session, event_pack) if event_pack else None)
    for i, (t, pack) in enumerate(checked):
        table = services.create_table(session, t["name"], store_pack(session, pack), event_id=event.id,
                                      host_name=t.get("host_name"), deck_seed=t.get("deck_seed"))
        table.timer_seconds = t.get("timer_seconds")
        table.players = json.dumps(t["players"], ensure_ascii=False) if t.get("players") else None
        table.token, table.pin = new_token(), new_pin(session)
        session.add(table)
        try:
            for row in t.get("log") or []:
                session.add(MoveRow(table_id=table.id, seq=row["seq"], kind=row["kind"],
                                    data=json.dumps(row["data"], ensure_ascii=False) if row.get("data") else None,
                                    undoes=row.get("undoes"), author=row.get("author"),
                                    created_at=datetime.fromisoformat(row["created_at"])
                                    if row.get("created_at") else datetime.now(timezone.utc)))
            session.flush()
            services.load(session, table.id)  # the restored log replays, or the restore fails as a whole
        except Exception as err:  # noqa: BLE001 - the caller's transaction is rolled back: nothing is written
            raise BackupError("table {n} ({name!r}): the log does not replay: {error}", n=i + 1,
                              name=t.get("name"), cause=err) from None
    return event
