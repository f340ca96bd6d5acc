"""Tables and their games: load a table's log -> its game -> check a new move -> append it.

Views and the API call these functions and never re-implement a rule (ARCHITECTURE.md 5).

**Safe writes.** Every write names the sequence number it follows (``after``) and is one
compare-and-set on the table's row: ``seq`` (its log's last number) and ``rev`` (the revision
of its players and pack version) must still be what the write was checked against. So a double
tap, a resent form, a second tablet, a setup change racing a first move, or a pack edit racing
a draw of the card it removes: exactly one write wins, the other is refused (``StaleMove``,
``StaleSetup``, HTTP 409) and nothing half-done is stored.

**No replay on the write path.** Each server process keeps the game of every table's newest
position (by ``seq`` and ``rev``); a move is applied to a copy of it. The copy is kept only once
its move is committed. A table whose log no longer replays (a pack or engine changed under it)
is *broken*: it is shown as "needs checking", the rest of the event goes on, and the organizer
voids the first move that fails.
"""

import contextlib
import json
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from datetime import datetime, timezone

import orjson
from sqlalchemy import LargeBinary, bindparam, cast, event, func, insert, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, select

from facilitator.rules import registry
from facilitator.rules.errors import MalformedError, RulesError
from facilitator.rules import ReplayError
from facilitator.storage.models import ContentPackRow, Event, GameTable, MoveRow
from facilitator.services.db import after_commit, has_written, is_writing, pending
from facilitator.storage import changes
from facilitator.storage.db import changed_nothing, read_row, touched_watched
from facilitator.services.kept import KeptByTable, PerDatabase
from facilitator.services.packs import pack_of, pack_row_of, store_pack

#: log rows that take a move back: the host's undo, the organizer's void and reopen
TAKE_BACK = ("undo", "void", "reopen")


class TableNotFound(LookupError):
    pass


class SetupLocked(Exception):
    """The setup cannot change once moves are recorded."""


class StaleSetup(Exception):
    """The table's players or pack changed on another device since the setup form was drawn."""


class TableBroken(Exception):
    """The table's log does not replay: only the organizer's repair may write to it."""

    def __init__(self, problem):
        self.problem = problem
        super().__init__("the table's log does not replay")


class StaleMove(Exception):
    """The table moved on since the screen was drawn. ``already`` is True when the very same
    move is already recorded (a double tap, a resent form, a queued move sent twice)."""

    def __init__(self, expected, actual, already, recorded_seq=None):
        self.expected = expected
        self.actual = actual
        self.already = already
        self.recorded_seq = recorded_seq
        super().__init__(f"move expected after #{expected}, the table is at #{actual}")


@dataclass
class Problem:
    """Why a table's log does not replay: the first move that fails (``seq`` None: the setup)."""

    seq: int | None
    number: int | None  # 1-based among the moves in force
    move: dict | None
    error: Exception

    def to_json(self):
        err = self.error
        return {"seq": self.seq, "number": self.number, "move": self.move,
                "template": getattr(err, "template", None), "params": _plain(getattr(err, "params", {})),
                "message": str(err), "path": getattr(err, "path", None)}


def _plain(params):
    return {k: v if isinstance(v, (str, int, float, bool, type(None), list, dict)) else str(v)
            for k, v in (params or {}).items()}


class LoadedTable:
    """A table as the screens see it: its row, ruleset, pack, the game of its newest position,
    the result of its last move in force, and its log (read from the database only when asked
    for: a write whose game is cached, and a turn screen, never read the log)."""

    def __init__(self, table, pack_row, pack, game=None, log=None, undone=None, last=None, problem=None,
                 session=None, moves_in_force=None):
        self.table = table
        self.pack_row = pack_row
        self.pack = pack
        self.game = game  # None until the setup is done
        self._log = log
        self._undone = undone
        self.last = last  # (seq, result) of the last move in force, None before the first
        self.problem = problem  # a Problem when the log does not replay
        self._session = session
        self._moves_in_force = moves_in_force
        self.standing = None  # the table's standing of this position, once worked out
        self.position = None  # the ``Position`` its game, last and problem are, where one is kept

    def kept(self, key, make):
        """What ``make()`` gives for this position, worked out once per position and kept with
        the game in this process's cache (``Position.kept``): a move's POST works out the
        table's standing and what the move changed, the turn screen drawn next reads them
        instead of working them out again. ``key`` names what it is and everything else it
        depends on (the language of a text). The value is shared: read it, never change it."""
        if self.position is None:
            return make()
        return self.position.remember(key, make)

    def table_standing(self):
        """The ruleset's standing of this position, worked out once per position (a move's
        write works it out for the table's row: its answer, its next screen and the players'
        links read that one). Shared: read it, never change it."""
        if self.standing is None:
            self.standing = self.kept("standing", lambda: self.ruleset.table_standing(self.game))
        return self.standing

    @property
    def moves_in_force(self):
        """How many moves are in force (not taken back): from the cached position, so a screen
        that only asks whether there is a move to undo reads no log."""
        if self._moves_in_force is None:
            self._moves_in_force = len(self.active)
        return self._moves_in_force

    @property
    def log(self):
        """Every row of the log, take-back rows included, in seq order: up to the table's
        ``seq`` as this request read it (a write committed meanwhile by another request is not
        mixed into this one's position)."""
        if self._log is None:
            self._log = read_log(self._session, self.table.id, upto=self.table.seq)
        return self._log

    @property
    def undone(self):
        """seq of a taken-back move -> the row taking it back."""
        if self._undone is None:
            self._undone = _undone_of(self.log)
        return self._undone

    @undone.setter
    def undone(self, value):
        self._undone = value

    @property
    def ruleset(self):
        return registry.get(self.table.ruleset)

    @property
    def seq(self):
        """The last sequence number used: what the next write must name as ``after``."""
        return self.table.seq

    @property
    def rev(self):
        return self.table.rev

    @property
    def broken(self):
        return self.problem is not None

    @property
    def active(self):
        """The move rows in force (not taken back), in order."""
        undone = self.undone
        return [r for r in self.log if r.kind == "move" and r.seq not in undone]

    @property
    def setup(self):
        return self.ruleset.read_setup(json.loads(self.table.players)) if self.table.players else None

    @property
    def players(self):
        """«16/25»: the seated players (``PlayerSetup``); other games: their setup's players."""
        setup = self.setup
        if setup is None:
            return []
        return setup if isinstance(setup, list) else getattr(setup, "players", [])

    def record(self):
        """The table's game record: the moves in force, taken-back ones left out."""
        rules = self.ruleset
        moves = [rules.read_move(json.loads(r.data), strict=False) for r in self.active]
        return rules.make_record(self.table.name, self.pack, self.setup, moves)

    def public_record(self):
        """The record as a host or a script may read it: a game's sealed information (New
        Angeles's rivals) is left out until the game reveals it."""
        data = self.record().to_dict()
        sealed_out = getattr(self.ruleset._impl(), "sealed_out", None)
        return sealed_out(data, self.game) if sealed_out else data

    def undone_moves(self):
        """Taken-back moves with who, when and how (undo, void, reopen), for the protocol:
        ``[(move dict, row taking it back)]``."""
        undone = self.undone
        return [(json.loads(r.data), undone[r.seq]) for r in self.log if r.kind == "move" and r.seq in undone]

    def last_result(self):
        """What the last move in force did (the screen's "what changed" lines), without the log."""
        return self.last[1] if self.last is not None else None


def read_log(session, table_id, upto=None):
    query = select(MoveRow).where(MoveRow.table_id == table_id)
    if upto is not None:
        query = query.where(MoveRow.seq <= upto)
    return list(session.exec(query.order_by(MoveRow.seq)).all())


def now_iso():
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


def utcnow():
    return datetime.now(timezone.utc)


# ----- the games of the newest positions, per server process -----------------------------------
class GameCache:
    """The game of each table's newest position, by everything it depends on (the table's
    identity, ``seq``, ``rev``, pack). A cached game is only read, never moved: a write moves a
    copy and puts it here once committed."""

    def __init__(self, size=4096):
        self.size = size
        self._positions = KeptByTable(size)
        self._log_bytes = OrderedDict()  # (table id, created at, seq) -> the bytes of its log's moves
        self._lock = threading.Lock()

    @staticmethod
    def key(table, seq):
        return (table.created_at, table.name, seq, table.rev, table.pack_id, table.players)

    def get(self, table, seq):
        return self._positions.get(table.id, self.key(table, seq))

    def put(self, table_id, key, value):
        self._positions.put(table_id, key, value)

    def clear(self):
        self._positions.clear()
        with self._lock:
            self._log_bytes.clear()

    def log_bytes(self, key):
        """The bytes a table's log held at a position this process wrote (None: not known)."""
        with self._lock:
            return self._log_bytes.get(key)

    def keep_log_bytes(self, key, value):
        with self._lock:
            self._log_bytes[key] = value
            self._log_bytes.move_to_end(key)
            while len(self._log_bytes) > self.size:
                self._log_bytes.popitem(last=False)


#: one cache per database engine (a test's fresh database, a server's one)
game_cache = PerDatabase(GameCache)


# ----- reading ------------------------------------------------------------------------------
class TableRow:
    """A table's row as one request read it: the ``game_table`` columns as attributes, read
    with one plain SELECT instead of through the ORM (the access check of every move and every
    screen reads it: the ORM's load cost more than the move's own writes). A write to the row
    sets what it wrote here too (``_store``); a rollback drops every row the session held, so a
    screen drawn after a refused write reads the table again."""

    __slots__ = tuple(c.name for c in GameTable.__table__.columns)

    def __init__(self, row):
        for name, value in zip(self.__slots__, row):
            setattr(self, name, value)

    def __repr__(self):
        return f"TableRow(id={self.id!r}, name={self.name!r}, seq={self.seq!r}, rev={self.rev!r})"


def get_table(session, table_id):
    """A table's row (``TableRow``), read once per session: the session holds it until it
    rolls back (its identity map alone would forget an object nobody holds between two uses in
    one request, and a rollback may undo what was written to it)."""
    held = session.info.setdefault("tables", {})
    table = held.get(table_id)
    if table is None:
        row = _table_row(session, table_id) if _valid_id(table_id) else None
        if row is None:
            raise TableNotFound(table_id)
        table = held[table_id] = TableRow(row)
    return table


def _table_row(session, table_id):
    """A table's row as stored, read with one plain SELECT (``storage.db.read_row``: no ORM, no
    statement compiled): every move and every screen asks for it first. A read outside a
    transaction reads on this thread's reader (no pool, no transaction of its own); a write, or
    a read that already holds a snapshot, reads in its own transaction (what it reads next
    agrees with the row; a write reads its own writes). On a server alone on its SQLite file the
    row is then answered from memory (``changes.Feed.kept_row``) while no commit touches it: a
    read outside a transaction, and a write, which takes its lock first (decision 15: no commit
    can come between), while its transaction has changed no watched row."""
    bind = session.get_bind()
    writing = is_writing()
    within = session.connection() if writing or session.in_transaction() else None
    kept = changes.feed(bind) is not None and (within is None or (writing and not touched_watched(within)))
    return read_row(bind, _TABLE_ROW_SQL, (table_id,), rows=(lambda _row: (("game_table", table_id),)) if kept else None,
                    build=_table_values(bind.dialect), within=within)


_TABLE_ROW_SQL = f"SELECT {', '.join(TableRow.__slots__)} FROM game_table WHERE id = ?"


@lru_cache(maxsize=8)
def _table_values(dialect):
    """A driver's row of ``_TABLE_ROW_SQL`` as SQLAlchemy would read it (dates as datetimes)."""
    columns = GameTable.__table__.c
    processors = [(i, p) for i, name in enumerate(TableRow.__slots__)
                  if (p := columns[name].type.dialect_impl(dialect).result_processor(dialect, None)) is not None]

    def values(row):
        row = list(row)
        for i, process in processors:
            row[i] = process(row[i])
        return tuple(row)
    return values


@event.listens_for(Session, "after_soft_rollback")
def _forget_tables(session, _previous_transaction):
    session.info.pop("tables", None)


def _store(table, values):
    """Put the values just written to a table's row on the object that holds it (a ``TableRow``
    or an ORM ``GameTable``), as committed: nothing is written twice."""
    if isinstance(table, TableRow):
        for key, value in values.items():
            setattr(table, key, value)
    else:
        for key, value in values.items():
            set_committed_value(table, key, value)


def _write_table(session, table, values):
    """One UPDATE of a table's row that is no move (a name, a timer, access codes): not bound to
    ``seq``, as these change nothing the replay depends on."""
    session.connection().execute(update(GameTable).where(GameTable.id == table.id).values(**values))
    _store(table, values)


def _valid_id(value):
    """Ids beyond the database's integer range are no table (PostgreSQL would refuse the query)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value < 2 ** 31


def table_by_token(session, token):
    if not token or len(token) > 64:
        return None
    return session.exec(select(GameTable).where(GameTable.token == token)).first()


def table_by_pin(session, pin):
    if not pin or len(pin) > 12:
        return None
    return session.exec(select(GameTable).where(GameTable.pin == pin)).first()


def list_tables(session, ids=None):
    """Tables, newest first (only ``ids`` when given): rows with their kept standings, no replay."""
    query = select(GameTable).order_by(GameTable.id.desc())
    if ids is not None:
        ids = [i for i in ids if _valid_id(i)]
        if not ids:
            return []
        query = query.where(GameTable.id.in_(ids))
    return list(session.exec(query).all())


def log_row(session, table_id, seq):
    """One row of a table's log (a move, an undo, …) with its move decoded, or None."""
    row = session.exec(select(MoveRow).where(MoveRow.table_id == table_id, MoveRow.seq == seq)).first()
    if row is None:
        return None
    undone = session.exec(select(MoveRow).where(MoveRow.table_id == table_id, MoveRow.undoes == seq)).first()
    return {"seq": row.seq, "kind": row.kind, "move": json.loads(row.data) if row.data else None,
            "undone": undone is not None, "author": row.author}


def load(session, table_id, fresh=False):
    """A table with the game of its newest position (from this process's cache, or replayed
    once). A log that does not replay is not raised: the table comes back ``broken`` with its
    ``problem`` and the game as it was before the failing move. ``fresh`` replays even when
    the cache holds the position."""
    table = get_table(session, table_id)
    pack_row = pack_row_of(session, table.pack_id)
    return _assemble(session, table, pack_row, None, fresh)


def load_many(session, tables):
    """``{table id: LoadedTable}`` for several tables in two queries (their packs and logs)
    instead of three per table."""
    if not tables:
        return {}
    pack_ids = {t.pack_id for t in tables}
    packs = {r.id: r for r in session.exec(select(ContentPackRow).where(ContentPackRow.id.in_(pack_ids))).all()}
    logs = {t.id: [] for t in tables}
    for row in session.exec(select(MoveRow).where(MoveRow.table_id.in_(list(logs)))
                            .order_by(MoveRow.table_id, MoveRow.seq)).all():
        logs[row.table_id].append(row)
    return {t.id: _assemble(session, t, packs[t.pack_id], logs[t.id]) for t in tables}


def _undone_of(log):
    return {r.undoes: r for r in log if r.kind in TAKE_BACK}


def _assemble(session, table, pack_row, log, fresh=False):
    pack = pack_of(pack_row)
    loaded = LoadedTable(table=table, pack_row=pack_row, pack=pack, log=log, session=session)
    if table.players:
        cache = game_cache(session)
        seq = table.seq
        hit = None if fresh else (_pending_position(session, table, seq) or cache.get(table, seq))
        if hit is None:
            active = loaded.active
            hit = replay_log(loaded.ruleset, pack, table.players, table.name, active)
            if has_written(session):
                # the log read holds this transaction's own moves, which may never be stored: the
                # process's cache gets the position when they are
                _keep_at_commit(session, table, GameCache.key(table, seq), hit)
            else:
                cache.put(table.id, GameCache.key(table, seq), hit)
                # what the log's moves take, for the next move's room check (the log is read now anyway)
                cache.keep_log_bytes((table.id, table.created_at, seq),
                                     _bytes_of(r for r in loaded.log if r.seq <= seq))
        loaded.game, loaded.last, loaded.problem, loaded._moves_in_force = hit
        loaded.position = hit
        if loaded.problem is not None and table.status != "broken":
            _mark_broken(session, loaded)
    return loaded


def _bytes_of(log):
    """The UTF-8 bytes of the moves of a log (taken-back ones included), as ``_log_bytes`` counts them."""
    return sum(len(r.data.encode("utf-8")) for r in log if r.data is not None)


def _mark_broken(session, loaded):
    """A table found not to replay (an engine or pack changed under its log) is marked on its
    row at once, so the dashboard, the projector and the rankings leave it out too."""
    values = _head_values(loaded, loaded.game, loaded.problem, loaded.table.move_count, moved=False)
    values.pop("last_move_at", None)
    _write_table(session, loaded.table, values)
    if loaded.table.event_id is not None:
        session.connection().execute(update(Event).where(Event.id == loaded.table.event_id)
                                     .values(version=Event.version + 1))


class Position(tuple):
    """What the cache keeps of a table's newest position: ``(game, last, problem, moves)`` —
    the game, ``(seq, result)`` of the last move in force (None before the first: what the turn
    screen's "what changed" lines need, so it never reads the log), the ``Problem`` of a log
    that does not replay (or None), and how many moves are in force. ``kept`` holds what was
    worked out from it (``LoadedTable.kept``): it lives and goes with the position."""

    def __new__(cls, game, last, problem, moves):
        position = super().__new__(cls, (game, last, problem, moves))
        position.kept = {}
        return position

    def remember(self, key, make):
        value = self.kept.get(key, _NOTHING)
        if value is _NOTHING:
            value = self.kept[key] = make()
        return value


_NOTHING = object()


def replay_log(rules, pack, players_json, table_name, rows):
    """``Position(game, last, problem, moves)`` of the move rows in force: ``last`` is ``(seq,
    result)`` of the last move applied. A setup or move the engine refuses stops the replay
    there, as a ``Problem``."""
    try:
        game = rules.new_game(pack, rules.read_setup(json.loads(players_json)), table_name)
    except (RulesError, ValueError, TypeError, KeyError) as err:
        return Position(None, None, Problem(seq=None, number=None, move=None, error=err), len(rows))
    last = None
    for number, row in enumerate(rows, start=1):
        data = None
        try:
            data = json.loads(row.data)
            # read as a record's move: a key a log stored before moves were held to their
            # fields (issue 17) is ignored, so that log still replays
            last = (row.seq, game.apply(rules.read_move(data, strict=False)))
        except (RulesError, ValueError, TypeError, KeyError) as err:
            return Position(game, last, Problem(seq=row.seq, number=number, move=data, error=err), len(rows))
    return Position(game, last, None, len(rows))


# ----- writing --------------------------------------------------------------------------------
def _head_values(loaded, game, problem, moves_in_force, moved):
    """What the table's row keeps of its newest position: status, standing, counts."""
    values = {"move_count": moves_in_force}
    if moved:
        values["last_move_at"] = utcnow()
    if problem is not None:
        values.update(status="broken", standing=None, problem=json.dumps(problem.to_json(), ensure_ascii=False))
    elif game is None:
        values.update(status="setup", standing=None, problem=None)
    else:
        standing = loaded.ruleset.table_standing(game)
        loaded.standing = standing
        values.update(status="finished" if game.finished else "playing", problem=None,
                      standing=standing_text(standing))
    return values


def standing_text(standing):
    """A standing as the table's row keeps it: compact JSON, text as UTF-8, written by orjson
    (every move writes it: the standard library's encoder took a tenth of an API move's work);
    whatever orjson refuses (an integer past 64 bits) by the standard library."""
    try:
        return orjson.dumps(standing, option=orjson.OPT_NON_STR_KEYS).decode()
    except (TypeError, orjson.JSONEncodeError):
        return json.dumps(standing, ensure_ascii=False, separators=(",", ":"))


def _compare_and_set(session, table, seq, rev, values, bump=True, store=True):
    """The one serialised write of a table: its row moves from ``(seq, rev)`` to ``values``,
    or nothing is written and ``False`` comes back (another write came first). ``store``
    False leaves the values off the row object (the caller puts them there once its next
    statement is in too).

    Lock order: a write takes its table's row, then its event's row (``bump``: the projector's
    change check), never the other way round, so two writes never wait for each other in a
    circle (PostgreSQL would abort one as a deadlock)."""
    done = session.connection().execute(_compare_and_set_statement(tuple(sorted(values))),
                                        {"t_id": table.id, "t_seq": seq, "t_rev": rev,
                                         **{"v_" + key: value for key, value in values.items()}})
    if done.rowcount != 1:
        return False
    if store:
        _store(table, values)
    if bump and table.event_id is not None:
        session.connection().execute(_BUMP_EVENT, {"e_id": table.event_id})
    return True


@lru_cache(maxsize=64)
def _compare_and_set_statement(keys):
    """The table row's compare-and-set UPDATE for these columns, built once: on every move,
    building the statement cost about as much as running it."""
    return (update(GameTable)
            .where(GameTable.id == bindparam("t_id"), GameTable.seq == bindparam("t_seq"),
                   GameTable.rev == bindparam("t_rev"))
            .values({key: bindparam("v_" + key) for key in keys}))


_BUMP_EVENT = update(Event).where(Event.id == bindparam("e_id")).values(version=Event.version + 1)


def _latest_seq(session, table_id):
    return session.exec(select(func.max(MoveRow.seq)).where(MoveRow.table_id == table_id)).one() or 0


def _same_move(a, b):
    strip = ("at", "note")
    return {k: v for k, v in a.items() if k not in strip} == {k: v for k, v in b.items() if k not in strip}


def _stale(session, table_id, after, move_dict=None):
    """The ``StaleMove`` for a write that found the table at another number: ``already`` when
    the very same move was recorded right after the position the screen showed."""
    latest = _latest_seq(session, table_id)
    already, recorded = False, None
    if move_dict is not None and after < latest:
        nxt = session.exec(select(MoveRow).where(MoveRow.table_id == table_id, MoveRow.seq == after + 1)).first()
        if nxt is not None and nxt.kind == "move" and nxt.data:
            undone = session.exec(select(MoveRow).where(MoveRow.table_id == table_id, MoveRow.undoes == nxt.seq)).first()
            if undone is None and _same_move(json.loads(nxt.data), move_dict):
                already, recorded = True, nxt.seq
    return StaleMove(after, latest, already, recorded)


def _by_client_id(session, table_id, client_id):
    if not client_id:
        return None
    return session.exec(select(MoveRow).where(MoveRow.table_id == table_id, MoveRow.client_id == client_id)).first()


def _keep(session, loaded, seq, position):
    """Keep the new position in this process's cache once the write commits (this session's own
    later reads find it at once: a batch's next move)."""
    _keep_at_commit(session, loaded.table, GameCache.key(loaded.table, seq), position)


def _keep_at_commit(session, table, key, position):
    cache = game_cache(session)
    pending(session)[("position", table.id)] = (key, position)
    after_commit(session, lambda: cache.put(table.id, key, position))


def _pending_position(session, table, seq):
    kept = session.info.get("pending", {}).get(("position", table.id))
    return kept[1] if kept is not None and kept[0] == GameCache.key(table, seq) else None


class LogRow:
    """A log row this process appends: what a ``MoveRow`` read back would hold, without the
    ORM's bookkeeping (the row is only inserted, never changed)."""

    __slots__ = ("author", "client_id", "created_at", "data", "kind", "seq", "table_id", "undoes")

    def __init__(self, table_id, seq, kind="move", data=None, undoes=None, author=None, client_id=None):
        self.table_id, self.seq, self.kind, self.data, self.undoes = table_id, seq, kind, data, undoes
        self.author, self.client_id, self.created_at = author, client_id, utcnow()

    def values(self):
        return {name: getattr(self, name) for name in self.__slots__}


def _append(session, loaded, row, values, expected_seq):
    """Compare-and-set the table's row, then insert the log row. ``False`` when another write
    came first (nothing is written). The unique (table, seq) and (table, client id) are a
    second guard: an insert they refuse raises ``StaleMove`` (``already`` with the seq of the
    move a client id names, when that is what it met), and the caller's transaction then rolls
    back as a whole. What was written is put on the table's row object only once both are in.

    On PostgreSQL both are one statement (``_append_statement``: one round trip fewer a move)."""
    connection = session.connection()
    table = loaded.table
    if connection.dialect.name == "postgresql":
        moved, inserted = connection.execute(_append_statement(tuple(sorted(values))), {
            "t_id": table.id, "t_seq": expected_seq, "t_rev": table.rev,
            **{"v_" + key: value for key, value in values.items()},
            **{"r_" + key: value for key, value in row.values().items()}}).one()
        if not moved:
            return False
        if table.event_id is not None:
            connection.execute(_BUMP_EVENT, {"e_id": table.event_id})
    else:
        if not _compare_and_set(session, table, expected_seq, table.rev, values, store=False):
            return False
        try:  # one INSERT, without the unit of work's bookkeeping (the row is only appended, never changed)
            inserted = connection.execute(_insert_row_statement(connection.dialect.name), row.values()).rowcount == 1
        except IntegrityError:
            inserted = False
    if not inserted:
        repeat = _by_client_id(session, row.table_id, row.client_id) if row.client_id else None
        if repeat is not None:
            raise StaleMove(expected_seq, expected_seq, True, repeat.seq)
        raise StaleMove(expected_seq, expected_seq + 1, False)
    _store(loaded.table, values)
    return True


@lru_cache(maxsize=64)
def _append_statement(keys):
    """PostgreSQL's compare-and-set of the table's row and the log row's insert in one
    statement, built once per set of columns: ``(rows the compare-and-set moved, the seq
    inserted or NULL)``. The insert takes its row from the update's (none when another write
    came first), and inserts nothing when it meets the unique (table, seq) or (table, client
    id), as ``_insert_row_statement``'s does."""
    from sqlalchemy.dialects.postgresql import insert as insert_or_nothing
    moved = _compare_and_set_statement(keys).returning(GameTable.id).cte("moved")
    log = MoveRow.__table__
    names = list(LogRow.__slots__)
    # the log row's values named apart from the table's columns (an UPDATE would set a column
    # whose name a parameter of its statement bears)
    rows = select(*(bindparam("r_" + name, type_=log.c[name].type) for name in names)).select_from(moved)
    inserted = (insert_or_nothing(log).from_select(names, rows).on_conflict_do_nothing()
                .returning(log.c.seq).cte("inserted"))
    return select(select(func.count()).select_from(moved).scalar_subquery(),
                  select(inserted.c.seq).scalar_subquery())


@lru_cache(maxsize=8)
def _insert_row_statement(dialect):
    """The log row's INSERT, built once per database kind: one that meets the unique (table,
    seq) or (table, client id) inserts nothing instead of failing (PostgreSQL's and SQLite's
    ``ON CONFLICT DO NOTHING``), so the transaction stays usable to say which it met. Its row
    count says whether it inserted (no row returned to be read: a move's every write counts)."""
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as insert_or_nothing
    elif dialect == "sqlite":
        from sqlalchemy.dialects.sqlite import insert as insert_or_nothing
    else:
        return insert(MoveRow.__table__)
    return insert_or_nothing(MoveRow.__table__).on_conflict_do_nothing()


# ----- how much one table's log keeps (issue 17) ----------------------------------------------------
# Every move is bounded by its game's reader, but a tablet sending large moves (or a move and its
# undo) in a loop could still grow one table, and its event's backup, past what a restore takes.
# benchmarks/bench_backup_bounds.py prints the figures these are set from.

#: Log rows a move may follow: a move is refused once the log holds this many rows (moves and the
#: undo, void and reopen rows taking them back). A whole game takes a few hundred (a «16/25» game
#: about 300, a long Alter Ego game 600); each take-back row takes back one move, so a log never
#: holds more than twice this many rows, far below what a restore accepts (``restore_check.MAX_LOG``).
MAX_LOG_MOVES = 3_000
#: The bytes (UTF-8 JSON, as stored) of the moves one table's log keeps, undone ones included: a
#: whole game takes 10 to 60 KB.
MAX_LOG_BYTES = 512 * 1024


class LogFull(MalformedError):
    """The table's log keeps no more moves (``MAX_LOG_MOVES``, ``MAX_LOG_BYTES``): nothing is
    recorded; the game's record can still be exported and the game go on at a new table."""


def _check_room(session, table, after, size):
    """Refuse (``LogFull``) a move of ``size`` bytes the table's log has no room for after row
    ``after``; else the bytes its log's moves will take with it."""
    if after >= MAX_LOG_MOVES:
        raise LogFull("move", "this table's log is full: it keeps at most {limit} moves and undos; nothing was "
                      "recorded", limit=MAX_LOG_MOVES)
    used = game_cache(session).log_bytes((table.id, table.created_at, after))  # known after this process's last move
    if used is None:
        used = _log_bytes(session, table.id, after)
    if used + size > MAX_LOG_BYTES:
        raise LogFull("move", "this table's log is full: its moves take {used} bytes, this one {size} more, and a "
                      "table keeps at most {limit}; nothing was recorded", used=used, size=size, limit=MAX_LOG_BYTES)
    return used + size


def _log_bytes(session, table_id, upto):
    """The UTF-8 bytes of the moves a table's log keeps up to row ``upto`` (one indexed sum)."""
    if session.get_bind().dialect.name == "postgresql":
        size = func.octet_length(MoveRow.data)
    else:  # SQLite: a text's length as a blob is its byte count
        size = func.length(cast(MoveRow.data, LargeBinary))
    return session.exec(select(func.coalesce(func.sum(size), 0))
                        .where(MoveRow.table_id == table_id, MoveRow.seq <= upto)).one()


def record_move(session, table_id, move, after, author=None, client_id=None):
    """Check ``move`` against the rules and append it after ``after``. Returns ``(loaded, result)``.

    Raises ``StaleMove`` (the table is not at ``after``; ``already`` for a repeat, also by
    ``client_id``), ``IllegalMoveError`` (the rules refuse it), ``MalformedError`` for a table
    without players, ``TableBroken`` for a table whose log does not replay.

    A move at the table's newest position reads nothing but the table's row: its game comes
    from the cache, and a client id sent before is found by the insert meeting it (a queued
    move recorded before names the position it was recorded at, so it can only meet one
    whose ``after`` is behind the table)."""
    loaded = load(session, table_id)
    if loaded.game is None and loaded.problem is None:
        raise MalformedError("players", "the table has no players yet: finish the setup first")
    if loaded.problem is not None:
        raise TableBroken(loaded.problem)
    data = move.to_dict()
    if after != loaded.seq:
        repeat = _by_client_id(session, loaded.table.id, client_id)
        if repeat is not None:
            raise StaleMove(after, loaded.seq, True, repeat.seq)
        raise _stale(session, loaded.table.id, after, data)
    game = loaded.game.copy()
    result = game.apply(move)  # IllegalMoveError: nothing is written
    # a move built by a form is held to the same bounds as one read from a record file (the
    # rules speak first: a move they refuse is refused with the rule and its numbers)
    loaded.ruleset.read_move(data, "move")
    if "at" not in data:
        data["at"] = now_iso()
    seq = after + 1
    text = json.dumps(data, ensure_ascii=False)
    used = _check_room(session, loaded.table, after, len(text.encode("utf-8")))
    row = LogRow(loaded.table.id, seq, "move", text, author=author, client_id=client_id or None)
    moves = loaded.moves_in_force + 1
    values = dict(_head_values(loaded, game, None, moves, moved=True), seq=seq)
    if not _append(session, loaded, row, values, after):
        raise _stale(session, loaded.table.id, after, data)
    if loaded._log is not None:
        loaded._log.append(row)
    position = Position(game, (seq, result), None, moves)
    position.kept["standing"] = loaded.standing  # worked out for the row: the next screen reads it
    loaded.game, loaded.last, loaded._moves_in_force, loaded.position = game, (seq, result), moves, position
    _keep(session, loaded, seq, position)
    cache, table = game_cache(session), loaded.table
    after_commit(session, lambda: cache.keep_log_bytes((table.id, table.created_at, seq), used))
    return loaded, result


def record_batch(session, table_id, items, author=None):
    """Moves queued by a tablet while it was offline, in order: ``[{"after", "move", "client_id"}]``
    (moves already read by the engine's ``read_move``), or ``{"after", "read", "client_id"}``
    for a queued form: ``read(loaded)`` reads it into the move as the table stands just before
    it (a form read is refused as a malformed move, at its place in the run; a form already
    recorded by its client id counts as recorded without being read again, the table having
    moved on since). Records the longest run that is valid
    and returns ``(recorded, refused)``: ``recorded`` one ``{"client_id", "seq", "already", "result",
    "undone"}`` per move taken (already recorded ones included; ``undone`` the row an undo took back), ``refused`` None or ``{"index", "client_id",
    "error"}`` for the first move refused; nothing after it is looked at."""
    recorded = []
    for index, item in enumerate(items):
        client_id = item.get("client_id")
        # a move is undone on its own when refused: in a savepoint, except the first of a
        # transaction that has changed nothing yet (a tap sent at once), which the transaction's
        # own rollback undoes (two statements fewer a tap)
        alone = index == 0 and changed_nothing(session.connection())
        try:
            with contextlib.nullcontext() if alone else session.begin_nested():
                if item.get("undo"):
                    undone = undo(session, table_id, item["after"], author=author)
                    seq, result = item["after"] + 1, None
                else:
                    undone = None
                    move = item["move"] if "move" in item else _read_queued(session, table_id, item)
                    loaded, result = record_move(session, table_id, move, item["after"], author=author,
                                                 client_id=client_id)
                    seq = loaded.seq
            recorded.append({"client_id": client_id, "seq": seq, "already": False, "result": result,
                             "undone": undone})
        except (StaleMove, RulesError, TableBroken, FinishedTable, LookupError) as err:
            if alone:
                session.rollback()
            if isinstance(err, StaleMove):
                if item.get("undo") and _undo_at(session, table_id, item["after"] + 1):
                    err = StaleMove(err.expected, err.actual, True, item["after"] + 1)
                if err.already:
                    recorded.append({"client_id": client_id, "seq": err.recorded_seq, "already": True,
                                     "result": None, "undone": None})
                    continue
            return recorded, {"index": index, "client_id": client_id, "error": err}
    return recorded, None


def _read_queued(session, table_id, item):
    """The move of a queued form (``item["read"]``), read against the table as it stands now, as
    its screen's POST reads it; a form recorded before (its client id) is not read again."""
    loaded = load(session, table_id)
    if loaded.problem is not None:
        raise TableBroken(loaded.problem)
    if loaded.game is None:
        raise MalformedError("players", "the table has no players yet: finish the setup first")
    if item["after"] != loaded.seq:
        repeat = _by_client_id(session, table_id, item.get("client_id"))
        if repeat is not None:
            raise StaleMove(item["after"], loaded.seq, True, repeat.seq)
    return item["read"](loaded)


def _undo_at(session, table_id, seq):
    """Whether the row ``seq`` of a table's log is an undo (a queued undo sent twice)."""
    row = session.exec(select(MoveRow).where(MoveRow.table_id == table_id, MoveRow.seq == seq)).first()
    return row is not None and row.kind == "undo"


def _take_back(session, loaded, target_seq, kind, after, author):
    """Append an undo, void or reopen row taking back move ``target_seq`` and replay what stays
    in force (a take-back is rare: its replay costs a few milliseconds once)."""
    if after != loaded.seq:
        raise _stale(session, loaded.table.id, after)
    seq = after + 1
    row = LogRow(loaded.table.id, seq, kind, undoes=target_seq, author=author)
    undone = dict(loaded.undone)
    undone[target_seq] = row
    active = [r for r in loaded.log if r.kind == "move" and r.seq not in undone]
    position = replay_log(loaded.ruleset, loaded.pack, loaded.table.players, loaded.table.name, active)
    game, _last, problem, moves = position
    values = dict(_head_values(loaded, game, problem, moves, moved=True), seq=seq)
    if not _append(session, loaded, row, values, after):
        raise _stale(session, loaded.table.id, after)
    loaded._log = loaded.log + [row]
    loaded.undone = undone
    loaded.game, loaded.last, loaded.problem, loaded._moves_in_force = position
    loaded.position = position
    _keep(session, loaded, seq, position)
    cache, table = game_cache(session), loaded.table
    used = cache.log_bytes((table.id, table.created_at, after))
    if used is not None:  # a take-back row holds no move: the log's moves take what they took
        after_commit(session, lambda: cache.keep_log_bytes((table.id, table.created_at, seq), used))
    return row


def undo(session, table_id, after, author=None):
    """Take back the last move in force (kept in the log, marked undone). Returns the undone row.
    A finished game is reopened by the organizer (``reopen``), never undone from a tablet."""
    loaded = load(session, table_id)
    if loaded.problem is not None:
        raise TableBroken(loaded.problem)
    if after != loaded.seq:
        raise _stale(session, loaded.table.id, after)
    active = loaded.active
    if not active:
        raise LookupError("nothing to undo")
    if loaded.game is not None and loaded.game.finished:
        raise FinishedTable()
    target = active[-1]
    _take_back(session, loaded, target.seq, "undo", after, author)
    return target


class FinishedTable(Exception):
    """A finished game takes no move and no undo: the organizer may reopen it."""


class NotFinished(Exception):
    """Only a finished game can be reopened."""


def reopen(session, table_id, after, author="organizer"):
    """The organizer reopens a finished table: its ``finish`` is taken back by a ``reopen`` row
    (kept in the log and the protocol), so a forgotten correction can still be entered and
    the game finished again. Returns the row of the finish taken back."""
    loaded = load(session, table_id)
    if loaded.problem is not None:
        raise TableBroken(loaded.problem)
    if loaded.game is None or not loaded.game.finished:
        raise NotFinished()
    target = loaded.active[-1]
    _take_back(session, loaded, target.seq, "reopen", after, author)
    return target


def void(session, table_id, seq, after, author="organizer"):
    """The organizer's repair of a broken table: the move ``seq`` (the first that fails) is
    taken back by a ``void`` row kept in the log and the protocol. Returns the table loaded
    again (still broken if a later move fails too)."""
    loaded = load(session, table_id)
    if loaded.problem is None or loaded.problem.seq is None or loaded.problem.seq != seq:
        raise LookupError("only the first move that fails can be voided")
    _take_back(session, loaded, seq, "void", after, author)
    return loaded


# ----- the setup and what the replay depends on ------------------------------------------------
#: the most tables one event holds: what its backup may list (``restore_check``), so every
#: backup the app writes is one it can restore
MAX_EVENT_TABLES = 500


class EventFull(ValueError):
    """An event holds ``MAX_EVENT_TABLES`` tables already: no table is added (an English
    ``template`` and its ``params``, as the screens translate them)."""

    template = "An event holds at most {limit} tables; this one has {count}. No table was added."

    def __init__(self, count, limit=MAX_EVENT_TABLES):
        self.params = {"limit": limit, "count": count}
        super().__init__(self.template.format(**self.params))


def create_table(session, name, pack_row, event_id=None, host_name=None, deck_seed=None, access=False):
    """A new table without players yet: the host's setup screen comes next. ``access`` gives it
    a host link and PIN at once (a table created by a lone host, or for an event). An event
    that holds ``MAX_EVENT_TABLES`` tables already raises ``EventFull``."""
    if event_id is not None:
        count = session.exec(select(func.count()).select_from(GameTable)
                             .where(GameTable.event_id == event_id)).one()
        if count >= MAX_EVENT_TABLES:
            raise EventFull(count, MAX_EVENT_TABLES)
    table = GameTable(name=name.strip(), pack_id=pack_row.id, ruleset=pack_row.ruleset, event_id=event_id,
                      host_name=host_name,
                      deck_seed=deck_seed if deck_seed is not None else secrets.randbelow(2 ** 31))
    session.add(table)
    session.flush()
    if access:
        from facilitator.services.access import reissue_access
        reissue_access(session, table)
    if event_id is not None:
        session.connection().execute(update(Event).where(Event.id == event_id).values(version=Event.version + 1))
    return table


def set_players(session, table_id, setup, rev=None):
    """Seat the table's players after the engine accepted the setup (raises ``SetupError``).
    ``rev`` is the revision the setup form was drawn for (None: the one read now): a setup
    changed on another device meanwhile raises ``StaleSetup``, a first move recorded meanwhile
    ``SetupLocked``."""
    loaded = load(session, table_id)
    if loaded.log:
        raise SetupLocked(table_id)
    if rev is not None and rev != loaded.table.rev:
        raise StaleSetup()
    rules = loaded.ruleset
    setup = rules.read_setup(rules.setup_json(setup))  # held to the bounds of a record's setup
    game = rules.new_game(loaded.pack, setup, loaded.table.name)  # the engine's check of the setup
    players = json.dumps(rules.setup_json(setup), ensure_ascii=False)
    values = dict(_head_values(loaded, game, None, 0, moved=False), players=players, rev=loaded.table.rev + 1)
    if not _compare_and_set(session, loaded.table, 0, loaded.table.rev, values):
        if _latest_seq(session, loaded.table.id):
            raise SetupLocked(table_id)
        raise StaleSetup()
    return loaded.table


def adopt_pack(session, table, pack_row, bump=True):
    """Move a table that has not recorded a move to another version of its pack, if its seated
    players still fit; the same compare-and-set as a move, so a first move racing it loses (or
    wins, and the table keeps its version). Returns whether the table moved. ``bump`` False
    leaves the event's version to the caller (one change for many tables, taken last)."""
    if table.seq != 0:
        return False
    new_pack = pack_of(pack_row)
    rules = registry.get(table.ruleset)
    game = None
    if table.players:
        try:
            game = rules.new_game(new_pack, rules.read_setup(json.loads(table.players)), table.name)
        except (RulesError, ValueError, TypeError, KeyError):
            return False
    loaded = LoadedTable(table=table, pack_row=pack_row, pack=new_pack, game=game, log=[], session=session)
    values = dict(_head_values(loaded, game, None, 0, moved=False), pack_id=pack_row.id, rev=table.rev + 1)
    return _compare_and_set(session, table, 0, table.rev, values, bump=bump)


def set_timer(session, table_id, seconds):
    """The optional turn timer (None: off); not part of the game, so no sequence number."""
    table = get_table(session, table_id)
    _write_table(session, table, {"timer_seconds": seconds})
    return table


def rename(session, table, name, host_name=None):
    """A table's new name (and host), also in its kept standing."""
    values = {"name": name}
    if host_name:
        values["host_name"] = host_name
    if table.standing:
        standing = json.loads(table.standing)
        standing["table"] = name
        values["standing"] = standing_text(standing)
    _write_table(session, table, values)
    if table.event_id is not None:
        session.connection().execute(update(Event).where(Event.id == table.event_id).values(version=Event.version + 1))
    return table


def import_record(session, data, name=None, event_id=None, ruleset=None):
    """A new table from a game record (checked by a full replay); its pack is stored as a
    library version. ``ruleset`` refuses a record of another game (an event plays one).
    Returns the table."""
    try:
        rules = registry.of_record(data)
    except registry.UnknownFormat:
        if ruleset is None:
            raise
        rules = registry.get(ruleset)  # its own reader says what its format must be
    if ruleset is not None and rules.key != ruleset:
        raise WrongGame(rules.key, ruleset)
    record = rules.read_record(data)
    rules.replay(record)  # refuse a record that breaks the rules before anything is written
    texts = [json.dumps(move.to_dict(), ensure_ascii=False) for move in record.moves]
    size = sum(len(text.encode("utf-8")) for text in texts)
    if size > MAX_LOG_BYTES:  # as much as a table's log keeps (its moves are at most MAX_LOG_MOVES)
        raise LogFull("moves", "the record's moves take {size} bytes, and a table keeps at most {limit}",
                      size=size, limit=MAX_LOG_BYTES)
    pack_row = store_pack(session, record.pack, rules.key)
    table = create_table(session, name or record.table, pack_row, event_id=event_id)
    setup = _record_setup(rules, record)
    table.players = json.dumps(rules.setup_json(setup), ensure_ascii=False)
    session.add(table)
    for i, text in enumerate(texts, start=1):
        session.add(MoveRow(table_id=table.id, seq=i, kind="move", data=text, author="import"))
    session.flush()
    refresh_head(session, table)
    return table


def _record_setup(rules, record):
    return getattr(record, "setup", None) if getattr(record, "setup", None) is not None else record.players


class WrongGame(ValueError):
    def __init__(self, got, wanted):
        self.got, self.wanted = got, wanted
        super().__init__(f"a record of {got} cannot join an event of {wanted}")


def refresh_head(session, table):
    """Work out a table's kept head (seq, status, standing, counts) from its log: after an
    import or restore, and for tables stored before the head was kept."""
    pack_row = pack_row_of(session, table.pack_id)
    loaded = LoadedTable(table=table, pack_row=pack_row, pack=pack_of(pack_row), session=session,
                         log=read_log(session, table.id))  # the whole log: the kept seq is what is worked out
    position = None
    if table.players:
        position = replay_log(loaded.ruleset, loaded.pack, table.players, table.name, loaded.active)
        loaded.game, loaded.last, loaded.problem, loaded._moves_in_force = position
    values = _head_values(loaded, loaded.game, loaded.problem, len(loaded.active), moved=False)
    values["seq"] = loaded.log[-1].seq if loaded.log else 0
    values["last_move_at"] = loaded.log[-1].created_at if loaded.log else None
    _write_table(session, table, values)
    if position is not None:
        # the replay just made serves the table's next page and move (its key names this
        # position: should the import roll back, no table will ever match it)
        cache = game_cache(session)
        cache.put(table.id, GameCache.key(table, table.seq), position)
        cache.keep_log_bytes((table.id, table.created_at, table.seq), _bytes_of(loaded.log))
    return loaded


def heads(session, tables):
    """The kept standing of each table (JSON decoded, read-only), working out the few kept
    before the head was: ``{table id: standing or None}``."""
    out = {}
    for table in tables:
        if table.players and table.standing is None and table.status not in ("broken", "setup"):
            refresh_head(session, table)
        out[table.id] = _decoded(table.standing) if table.standing else None
    return out


@lru_cache(maxsize=8192)
def _decoded(text):
    """A kept standing decoded once per process: a dashboard of 1,000 tables decodes only what
    changed since it was last drawn. The dict is shared: read it, never change it."""
    return json.loads(text)


def rules_fingerprint():
    """A digest of the rules engines' source: it changes with any change of a rule."""
    import hashlib
    from pathlib import Path
    digest = hashlib.sha256()
    root = Path(__file__).resolve().parent.parent / "rules"
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:32]


def recheck_after_a_rules_change(session):
    """After an upgrade that changed a rule, every seated table's kept standing is worked out
    again on first listing (its log replayed once): a log the new rules refuse shows as
    "needs checking" everywhere instead of a standing the rules no longer give."""
    from facilitator.storage.models import Setting
    current = rules_fingerprint()
    row = session.get(Setting, "rules_fingerprint")
    if row is not None and row.value == current:
        return False
    session.connection().execute(update(GameTable).where(GameTable.players.is_not(None))
                                 .values(standing=None, status="playing"))
    if row is None:
        row = Setting(key="rules_fingerprint", value=current)
    row.value = current
    session.add(row)
    return True


def problem_of(table):
    """A broken table's problem as stored (a dict), or None."""
    return json.loads(table.problem) if table.problem else None


__all__ = ["list_tables", "log_row", "TableNotFound", "EventFull", "MAX_EVENT_TABLES", "SetupLocked", "StaleSetup", "StaleMove", "TableBroken", "FinishedTable",
           "NotFinished", "WrongGame", "LoadedTable", "Problem", "load", "load_many", "get_table", "record_move",
           "record_batch", "undo", "reopen", "void", "create_table", "set_players", "adopt_pack", "set_timer",
           "rename", "import_record", "refresh_head", "heads", "problem_of", "table_by_token", "table_by_pin",
           "replay_log", "now_iso", "game_cache", "ReplayError"]
