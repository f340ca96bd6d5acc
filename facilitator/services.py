"""The one adapter between storage and rules (ARCHITECTURE.md decision 5).

Load a table's log -> replay it with the engine -> check a new move -> append it. Views
and the API call these functions and never re-implement a rule.

Every write names the sequence number it follows (``after``): a double tap, a resent form
or a second tablet finds the number taken and changes nothing (decision 4).
"""

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime, timezone

from sqlalchemy.exc import IntegrityError
from sqlmodel import select

from .content.library import pack_of, store_pack
from .rules import Game, Record, read_move, read_player, read_record, replay
from .rules.errors import MalformedError
from .storage.models import ContentPackRow, GameTable, MoveRow


class TableNotFound(LookupError):
    pass


class SetupLocked(Exception):
    """The setup cannot change once moves are recorded."""


class StaleMove(Exception):
    """The table moved on since the screen was drawn. ``already`` is True when the very same
    move is already recorded (a double tap or a resent form)."""

    def __init__(self, expected, actual, already):
        self.expected = expected
        self.actual = actual
        self.already = already
        super().__init__(f"move expected after #{expected}, the table is at #{actual}")


@dataclass
class LoadedTable:
    """A table as the screens see it: its row, pack, the replayed game and its log."""

    table: GameTable
    pack_row: ContentPackRow
    pack: object
    game: Game | None  # None until the setup is done
    log: list  # every MoveRow, undo rows included, in seq order
    undone: dict = field(default_factory=dict)  # seq of an undone move -> the undo row
    results: dict = field(default_factory=dict)  # seq of an active move -> its MoveResult

    @property
    def seq(self):
        """The last sequence number used: what the next write must name as ``after``."""
        return self.log[-1].seq if self.log else 0

    @property
    def active(self):
        """The move rows in force (not undone), in order."""
        return [r for r in self.log if r.kind == "move" and r.seq not in self.undone]

    @property
    def players(self):
        return [read_player(p, f"players[{i}]") for i, p in enumerate(json.loads(self.table.players or "[]"))]

    def record(self):
        """The table's game record (`lyceum-record/1`): the moves in force, undone ones left out."""
        return Record(table=self.table.name, pack=self.pack, players=self.players,
                      moves=[read_move(json.loads(r.data)) for r in self.active])

    def undone_moves(self):
        """Undone moves with who and when, for the protocol: ``[(move dict, undo row)]``."""
        return [(json.loads(r.data), self.undone[r.seq]) for r in self.log
                if r.kind == "move" and r.seq in self.undone]


def now_iso():
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


def get_table(session, table_id):
    table = session.get(GameTable, table_id)
    if table is None:
        raise TableNotFound(table_id)
    return table


class _ReplayCache:
    """Replayed games of the most recently used tables, by everything the replay depends on
    (the table's setup and name, its pack version and the last row of its log). A cached game
    is only read, never moved: a write replays its own copy and then stores it here."""

    def __init__(self, size=256):
        self.size = size
        self._items = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def key(table, log):
        last = log[-1] if log else None
        return (table.id, table.created_at, table.name, table.players, table.pack_id, len(log),
                last and (last.id, last.seq, last.kind, last.data, last.undoes))

    def get(self, key):
        with self._lock:
            hit = self._items.get(key)
            if hit is not None:
                self._items.move_to_end(key)
            return hit

    def put(self, key, value):
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)


_replays = _ReplayCache()


def load(session, table_id, fresh=False):
    """Replay a table's log. The stored log was checked move by move when it was written, so
    a replay failure here means the pack or engine changed under it: it is raised, not hidden.

    ``fresh`` replays a private copy that the caller may move (writes do); otherwise a game
    replayed earlier from exactly the same log may be shared, read-only."""
    table = get_table(session, table_id)
    pack_row = session.get(ContentPackRow, table.pack_id)
    log = list(session.exec(select(MoveRow).where(MoveRow.table_id == table.id).order_by(MoveRow.seq)).all())
    return _assemble(table, pack_row, log, fresh)


def load_many(session, tables):
    """``{table id: LoadedTable}`` for several tables in two queries (their packs and their
    logs) instead of three per table: what the dashboard and the projector need."""
    if not tables:
        return {}
    pack_ids = {t.pack_id for t in tables}
    packs = {r.id: r for r in session.exec(select(ContentPackRow).where(ContentPackRow.id.in_(pack_ids))).all()}
    logs = {t.id: [] for t in tables}
    for row in session.exec(select(MoveRow).where(MoveRow.table_id.in_(list(logs)))
                            .order_by(MoveRow.table_id, MoveRow.seq)).all():
        logs[row.table_id].append(row)
    return {t.id: _assemble(t, packs[t.pack_id], logs[t.id]) for t in tables}


def _assemble(table, pack_row, log, fresh=False):
    pack = pack_of(pack_row)
    undone = {r.undoes: r for r in log if r.kind == "undo"}
    loaded = LoadedTable(table=table, pack_row=pack_row, pack=pack, game=None, log=log, undone=undone)
    if table.players:
        key = _ReplayCache.key(table, log)
        hit = None if fresh else _replays.get(key)
        if hit is not None:
            loaded.game, loaded.results = hit
        else:
            game = Game(pack, loaded.players, table=table.name)
            for row in loaded.active:
                loaded.results[row.seq] = game.apply(read_move(json.loads(row.data)))
            loaded.game = game
            if not fresh:
                _replays.put(key, (game, loaded.results))
    return loaded


def create_table(session, name, pack_row, event_id=None, host_name=None, deck_seed=None):
    """A new table without players yet: the host's setup screen comes next."""
    import secrets
    table = GameTable(name=name.strip(), pack_id=pack_row.id, event_id=event_id, host_name=host_name,
                      deck_seed=deck_seed if deck_seed is not None else secrets.randbelow(2**31))
    session.add(table)
    session.flush()
    return table


def set_players(session, table_id, players):
    """Store the table's setup after the engine accepted it (raises ``SetupError``)."""
    loaded = load(session, table_id)
    if loaded.log:
        raise SetupLocked(table_id)
    Game(loaded.pack, players, table=loaded.table.name)  # the engine's check of RULES.md 2
    loaded.table.players = json.dumps([p.to_dict() for p in players], ensure_ascii=False)
    session.add(loaded.table)
    session.flush()
    return loaded.table


def _same_move(a, b):
    strip = ("at", "note")
    return {k: v for k, v in a.items() if k not in strip} == {k: v for k, v in b.items() if k not in strip}


def _check_after(loaded, after, move_dict=None):
    if after == loaded.seq:
        return
    already = False
    if move_dict is not None and after < loaded.seq:
        # the same move recorded right after the position the screen showed: a double tap
        nxt = [r for r in loaded.log if r.seq == after + 1]
        if nxt and nxt[0].kind == "move" and nxt[0].seq not in loaded.undone:
            already = _same_move(json.loads(nxt[0].data), move_dict)
    raise StaleMove(after, loaded.seq, already)


def record_move(session, table_id, move, after, author=None):
    """Check ``move`` against the rules and append it after ``after``. Returns ``(loaded, result)``.

    Raises ``StaleMove`` (the table is not at ``after``), ``IllegalMoveError`` (the rules refuse
    it), ``SetupLocked``/``MalformedError`` for a table without players.
    """
    loaded = load(session, table_id, fresh=True)
    if loaded.game is None:
        raise MalformedError("players", "the table has no players yet: finish the setup first")
    data = move.to_dict()
    _check_after(loaded, after, data)
    if "at" not in data:
        data["at"] = now_iso()
    result = loaded.game.apply(move)
    row = MoveRow(table_id=loaded.table.id, seq=loaded.seq + 1, kind="move",
                  data=json.dumps(data, ensure_ascii=False), author=author)
    _append(session, row, after, data)
    loaded.log.append(row)
    loaded.results[row.seq] = result
    # the screen drawn next shows exactly this game: keep it for that read
    _replays.put(_ReplayCache.key(loaded.table, loaded.log), (loaded.game, dict(loaded.results)))
    return loaded, result


def undo(session, table_id, after, author=None):
    """Take back the last move in force (kept in the log, marked undone). Returns the undone row."""
    loaded = load(session, table_id)
    _check_after(loaded, after)
    active = loaded.active
    if not active:
        raise LookupError("nothing to undo")
    target = active[-1]
    row = MoveRow(table_id=loaded.table.id, seq=loaded.seq + 1, kind="undo", undoes=target.seq,
                  author=author)
    _append(session, row, after, None)
    return target


def _append(session, row, after, data):
    """Insert a log row; the unique (table, seq) refuses a second write of the same number.
    A write is the whole transaction of its request, so a refusal rolls it all back (no
    savepoint: two round trips less on every move)."""
    try:
        session.add(row)
        session.flush()
    except IntegrityError:
        # another device wrote this sequence number a moment ago
        session.rollback()
        latest = session.exec(select(MoveRow).where(MoveRow.table_id == row.table_id)
                              .order_by(MoveRow.seq.desc())).first()
        nxt = session.exec(select(MoveRow).where(MoveRow.table_id == row.table_id,
                                                 MoveRow.seq == after + 1)).first()
        already = bool(data and nxt is not None and nxt.kind == "move" and _same_move(json.loads(nxt.data), data))
        raise StaleMove(after, latest.seq if latest else 0, already) from None


def import_record(session, data, name=None, event_id=None):
    """A new table from a game record (checked by a full replay); its pack is stored as a
    library version. Returns the table."""
    record = read_record(data)
    replay(record)  # refuse a record that breaks the rules before anything is written
    pack_row = store_pack(session, record.pack)
    table = create_table(session, name or record.table, pack_row, event_id=event_id)
    table.players = json.dumps([p.to_dict() for p in record.players], ensure_ascii=False)
    session.add(table)
    for i, move in enumerate(record.moves, start=1):
        session.add(MoveRow(table_id=table.id, seq=i, kind="move",
                            data=json.dumps(move.to_dict(), ensure_ascii=False), author="import"))
    session.flush()
    return table
