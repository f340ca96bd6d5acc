"""Events: many tables playing one game at once, their hosts' access codes, live rankings and
backups.

Rankings are the engine's (RULES.md 5 for «16/25», through the ruleset's ``event_ranking``);
this module gathers each table's kept standing (never replaying a game: every write keeps its
table's standing up to date) and adds what the organizer's dashboard needs to see (progress,
time since the last move, tables that need checking).
"""

import json
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import NamedTuple

from sqlalchemy import update
from sqlmodel import select

from facilitator.rules import registry
from facilitator.rules.errors import PackError, RulesError
from facilitator.storage.models import ContentPackRow, Event, GameTable, MoveRow
from facilitator.services import tables as table_service
from facilitator.services.db import read_row
from facilitator.services.access import ensure_access, new_pin, new_token, reissue_access
from facilitator.services.packs import ensure_sample, pack_of, row_by_id, store_pack

BACKUP_FORMAT = "facilitator-event-backup/2"
BACKUP_FORMATS = ("facilitator-event-backup/1", BACKUP_FORMAT)
STALLED_SECONDS = 300  # no move for 5 minutes at a table in play: the dashboard warns
MAX_TABLES = table_service.MAX_EVENT_TABLES  # an event's tables, in a backup as on the dashboard


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


def get_event(session, event_id):
    if not isinstance(event_id, int) or not 0 < event_id < 2 ** 31:
        return None
    return session.get(Event, event_id)


def create_event(session, name, date=None, pack_row=None, ruleset=None, language=None):
    """A new event of one game: ``ruleset``, or its pack's (one of them is given: no game is the
    default), in ``language`` (one of the game's; by default its first)."""
    ruleset = pack_row.ruleset if pack_row is not None else ruleset
    if ruleset is None:
        raise ValueError("an event plays one game: give its ruleset or its pack")
    locales = registry.get(ruleset).locales
    if language is not None and language not in locales:
        raise ValueError(f"an event of {ruleset} speaks one of {', '.join(locales)}, not {language!r}")
    event = Event(name=name.strip(), date=date or None, pack_id=pack_row.id if pack_row else None, ruleset=ruleset,
                  language=language or locales[0])
    session.add(event)
    session.flush()
    return event


def events(session):
    return session.exec(select(Event).order_by(Event.id.desc())).all()


def tables_of(session, event_id):
    return session.exec(select(GameTable).where(GameTable.event_id == event_id).order_by(GameTable.id)).all()


def event_pack_row(session, event):
    row = row_by_id(session, event.pack_id) if event.pack_id else None
    return row if row is not None else ensure_sample(session, event.ruleset)


def add_table(session, event, name, host_name=None):
    """A new table of the event with its host link token and PIN."""
    return table_service.create_table(session, name, event_pack_row(session, event), event_id=event.id,
                                      host_name=host_name or None, access=True)


def add_tables(session, event, names):
    """Several new tables at once (an event created with N tables)."""
    return [add_table(session, event, name) for name in names]


def bump(session, event_id):
    """Something the public pages show changed (an announcement step, a renamed table)."""
    session.connection().execute(update(Event).where(Event.id == event_id).values(version=Event.version + 1))


def announce(session, event, action):
    """The projector's announcement: places revealed from the last to the first."""
    count = len([t for t in tables_of(session, event.id) if t.players])
    if action == "start":
        event.announce_step = 1
    elif action == "next":
        event.announce_step = min(event.announce_step + 1, max(count, 1))
    elif action == "back":
        event.announce_step = max(event.announce_step - 1, 1)
    elif action == "stop":
        event.announce_step = 0
    else:
        raise ValueError(action)
    session.add(event)
    session.flush()
    bump(session, event.id)
    return event


@dataclass
class TableProgress:
    table: GameTable
    standing: dict | None  # the table's standing (its part of the ruleset's standings), None before setup
    moves: int
    last_move_at: datetime | None
    problem: dict | None = None  # a table whose log does not replay: why

    @property
    def broken(self):
        return self.problem is not None or self.table.status == "broken"

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
    """Every table of the event with its kept standing and activity: one query, no replay.
    (``cache`` is accepted for callers of the earlier API and not needed any more.)"""
    rows = tables_of(session, event_id)
    kept = table_service.heads(session, rows)
    return [TableProgress(table=t, standing=kept[t.id], moves=t.move_count, last_move_at=t.last_move_at,
                          problem=table_service.problem_of(t)) for t in rows]


def event_standings(session, event_id, tables=None):
    """The ruleset's standings for the event's tables that have players and replay, a
    ``provisional`` flag (any table not finished), and ``left_out``: the tables left out of
    the rankings because their logs need checking."""
    tables = tables if tables is not None else progress(session, event_id)
    event = session.get(Event, event_id)
    rules = registry.get(event.ruleset)
    parts = [t.standing for t in tables if t.standing is not None and not t.broken]
    left_out = [t.table.name for t in tables if t.broken]
    ranking = rules.event_ranking(parts)
    extra = {k: v for k, v in ranking.items() if k not in ("teams", "individuals", "ranked_by")}
    return {
        **extra,
        "ruleset": rules.key,
        "format": rules.standings_format,
        "tables": parts,
        "teams": ranking.get("teams", []),
        "individuals": ranking.get("individuals", []),
        "ranked_by": ranking.get("ranked_by"),
        "left_out": left_out,
        # provisional until every table, including one still at its setup, has finished
        "provisional": not parts or len(parts) < len(tables) or any(not t["finished"] for t in parts),
    }


def event_version(session, event_id):
    """A fingerprint of everything the public pages show, read in one row: every write to a
    table of the event, a renamed or added table and an announcement step change it (ETags)."""
    event = session.get(Event, event_id)
    if event is None:
        return None
    return f"{event_id}-{event.version}-{event.announce_step}"


#: the event's version, its announcement step and whether a game of it is still on (a table not
#: finished, or none yet: its rankings provisional, as ``event_standings`` says)
_VERSION = ("SELECT version, announce_step, "
            "EXISTS (SELECT 1 FROM game_table WHERE event_id = event.id AND status <> 'finished') "
            "OR NOT EXISTS (SELECT 1 FROM game_table WHERE event_id = event.id) "
            "FROM event WHERE id = ?")


class Version(NamedTuple):
    """What a projector's poll reads of its event: ``tag`` (``event_version``), whether places
    are being announced, and whether a game is still on (the rankings provisional)."""
    tag: str
    announcing: bool
    playing: bool


def version_check(engine, event_id):
    """The event's ``Version`` read as a poll reads it: one row by its key on a pooled driver
    connection, no unit of work (``db.read_row``; on a server alone on its SQLite file, no read
    while no write since touched the event's row or any table's: ``storage.changes``); None
    for an unknown event."""
    if not isinstance(event_id, int) or not 0 < event_id < 2 ** 31:
        return None
    return read_row(engine, _VERSION, (event_id,), rows=lambda _row: (("event", event_id), ("game_table", "*")),
                    build=lambda row: Version(f"{event_id}-{row[0]}-{row[1]}", bool(row[1]), bool(row[2])))


# ----- backups ---------------------------------------------------------------------------------
def backup(session, event_id):
    """The whole event as one JSON object: settings, each pack version once, and every table's
    full log (taken-back moves and the rows taking them back included), read as stored: a table
    whose log does not replay is in the backup as it is."""
    event = session.get(Event, event_id)
    tables = tables_of(session, event_id)
    logs = {t.id: [] for t in tables}
    if tables:
        for row in session.exec(select(MoveRow).where(MoveRow.table_id.in_(list(logs)))
                                .order_by(MoveRow.table_id, MoveRow.seq)).all():
            logs[row.table_id].append(row)
    pack_ids = sorted({t.pack_id for t in tables} | ({event.pack_id} if event.pack_id else set()))
    packs = {r.id: r for r in session.exec(select(ContentPackRow).where(ContentPackRow.id.in_(pack_ids))).all()} \
        if pack_ids else {}
    index = {pid: i for i, pid in enumerate(pack_ids)}
    rules = registry.get(event.ruleset)
    return {
        "format": BACKUP_FORMAT,
        "ruleset": event.ruleset,
        "packs": [json.loads(packs[pid].data) for pid in pack_ids],
        "event": {"name": event.name, "date": event.date,
                  "pack": index[event.pack_id] if event.pack_id else None,
                  **({"language": event.language} if event.language else {})},
        "tables": [{
            "name": t.name, "host_name": t.host_name, "timer_seconds": t.timer_seconds, "deck_seed": t.deck_seed,
            "pack": index[t.pack_id],
            "players": json.loads(t.players) if t.players else None,
            "log": [{"seq": r.seq, "kind": r.kind, "data": json.loads(r.data) if r.data else None,
                     "undoes": r.undoes, "author": r.author, "created_at": r.created_at.isoformat()}
                    for r in logs[t.id]],
            "record": _record_without_pack(rules, t, logs[t.id]),
        } for t in tables],
    }


def _record_without_pack(rules, table, log):
    """The table's game record as its ruleset writes it, but for the inline pack (the backup
    holds each pack once, under ``packs``): the moves in force, read from the log as stored."""
    if not table.players:
        return None
    undone = {r.undoes for r in log if r.kind in table_service.TAKE_BACK}
    setup = json.loads(table.players)
    out = {"format": rules.record_format, "table": table.name}
    out.update({"players": setup} if isinstance(setup, list) else setup)
    out["moves"] = [json.loads(r.data) for r in log if r.kind == "move" and r.seq not in undone]
    return out


def restore(session, data, rename=None):
    """A new event from a backup (this version's or the earlier one). Everything is checked
    before anything is written, as strictly as the forms check it: every field's type and
    length, every pack, every table's log replayed (a table that did not replay when it was
    backed up is restored as it was, marked broken). An event with the same name and date is
    never overwritten: ``EventExists`` is raised unless a new name is given."""
    from facilitator.services.restore_check import checked_backup
    plan = checked_backup(data, rename)
    existing = session.exec(select(Event).where(Event.name == plan.name, Event.date == plan.date)).first()
    if existing is not None:
        raise EventExists(existing)
    pack_rows = [store_pack(session, pack, plan.ruleset) for pack in plan.packs]
    event = create_event(session, plan.name, plan.date,
                         pack_rows[plan.event_pack] if plan.event_pack is not None else None, ruleset=plan.ruleset,
                         language=plan.language)
    for t in plan.tables:
        table = GameTable(name=t.name, pack_id=pack_rows[t.pack].id, ruleset=plan.ruleset, event_id=event.id,
                          host_name=t.host_name, deck_seed=t.deck_seed, timer_seconds=t.timer_seconds,
                          players=json.dumps(t.players, ensure_ascii=False) if t.players is not None else None,
                          token=new_token(), pin=new_pin(session))
        session.add(table)
        session.flush()
        for row in t.log:
            session.add(MoveRow(table_id=table.id, seq=row["seq"], kind=row["kind"],
                                data=json.dumps(row["data"], ensure_ascii=False) if row.get("data") is not None else None,
                                undoes=row.get("undoes"), author=row.get("author"),
                                created_at=row["created_at"]))
        session.flush()
        table_service.refresh_head(session, table)
    return event


__all__ = ["BACKUP_FORMAT", "BackupError", "EventExists", "STALLED_SECONDS", "TableProgress", "add_table",
           "add_tables", "announce", "backup", "bump", "create_event", "ensure_access", "event_pack_row",
           "event_standings", "event_version", "version_check", "Version", "events", "get_event", "progress", "reissue_access", "restore",
           "tables_of", "PackError", "RulesError", "pack_of"]
