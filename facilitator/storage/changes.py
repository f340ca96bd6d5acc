"""What this process's own writes changed, so that a poll is answered from memory (issue 21).

A room of phones and projectors asks every few seconds whether anything changed: one row each
(``services.seats.change_check``, ``services.events.version_check``). On the embedded database
served by one process, every write goes through that process, so the answer is known without
reading: ``kept_row`` hands back the row it read last time for the same query while no committed
write since has touched the rows it came from.

**What a write touched** is read from the statements themselves, never from a list of the
services that write (a write path forgotten there would be a poll answered 304 on a page that
changed): every INSERT, UPDATE or DELETE on the engine is noted while its transaction runs, and
applied once its COMMIT has returned (a rollback forgets it). An UPDATE of a watched table
(``seat``, ``game_table``, ``event``) whose WHERE names its rows by id (``id = ?``, ``id IN
(…)``, as the moves', undos', renames' and revocations' do) touches those rows; any other
UPDATE or INSERT of a watched table touches the whole table; a DELETE of one, a statement of
text naming one, and any change of the schema touch every watched table. So a read is answered
again only while nothing that could have changed it was committed since it was read.

**Other processes.** ``facilitator serve --workers N`` turns this off (``set_enabled``), and
PostgreSQL never uses it (other servers share the database). Still, a second server or a command
may open the same SQLite file while a server runs: every process that connects to a database
file registers in ``<file>.processes`` beside it: it holds a shared lock there as long as it
runs, and adds one to the count kept in the file's first bytes once. A process answers from
memory only while it is alone: the count it saw last has not moved (one read of a page of
shared memory per poll), and, when it has moved, no other process holds the lock (tested then,
and about once a second until it is alone again); each time it looks, all it kept is forgotten.
While it is not alone every poll reads its row. A process that came and went between two polls
has moved the count, so what it wrote is never missed either.
"""

import fcntl
import mmap
import os
import struct
import threading
import time

from sqlalchemy.sql import dml, operators
from sqlalchemy.sql.elements import BinaryExpression, BindParameter, BooleanClauseList, Grouping

#: the tables a poll's change check reads
WATCHED = ("seat", "game_table", "event")
#: every watched table, whole
EVERYTHING = frozenset((name, None) for name in WATCHED)
#: a read's row that comes from any row of a table (``(table, ANY)``: outdated by any write to it)
ANY = "*"
#: reads kept at most per database (a poller's row each: the players' seats, the events)
KEEP = 20_000
#: while other processes use the database, how often a process looks whether it is alone again
LOOK_SECONDS = 1.0

_DML = ("insert", "update", "delete", "replace")
_DDL = ("create", "drop", "alter")
_enabled = True


def set_enabled(on):
    """Whether this process may answer a read from memory at all: ``serve --workers N`` turns it
    off before forking its workers (each of them is one of several writers)."""
    global _enabled
    _enabled = bool(on)


def enabled():
    return _enabled


# ----- what a statement touches ------------------------------------------------------------------
_NOTHING = frozenset()


def touched(statement, context):
    """The ``(table, id)`` a DML or DDL statement may change among the watched tables (``id``
    None: the whole table); an empty set for a statement that changes none of them. What to look
    at is worked out once per compiled statement (the app's statements are compiled once and run
    again: a move's cost the same as before), the ids then read from the parameters it runs with."""
    compiled = getattr(context, "compiled", None)
    plan = getattr(compiled, "_facilitator_plan", None)
    if plan is None:
        plan = _plan(statement, compiled)
        if compiled is not None:
            try:
                compiled._facilitator_plan = plan
            except AttributeError:  # a compiled object that takes no attribute: worked out each time
                pass
    if plan.__class__ is frozenset:
        return plan
    table, name, expanding = plan
    ids = _values(name, expanding, context)
    return frozenset({(table, None)}) if ids is None else frozenset((table, row_id) for row_id in ids)


def _plan(statement, compiled):
    """What a statement touches, as far as its text and compiled form tell: a set of ``(table,
    id or None)``, or ``(table, name, expanding)``: the rows of ``table`` whose ids the parameter
    ``name`` holds (``expanding``: an ``IN`` list)."""
    head = statement.lstrip()[:7].lower()
    if head.startswith(_DDL):
        return EVERYTHING
    if not head.startswith(_DML + ("with",)):
        return _NOTHING
    stmt = getattr(compiled, "statement", None)
    if not isinstance(stmt, (dml.Insert, dml.Update, dml.Delete)):
        if stmt is not None and head.startswith("with") and getattr(stmt, "is_select", False):
            return _NOTHING  # a query with a WITH clause: it reads
        # text or a driver statement (a WITH clause before an INSERT, UPDATE or DELETE too): by
        # the names it mentions
        lowered = statement.lower()
        return EVERYTHING if any(name in lowered for name in WATCHED) else _NOTHING
    table = getattr(stmt.table, "name", None)
    if table not in WATCHED:
        return _NOTHING
    if isinstance(stmt, dml.Delete):
        return EVERYTHING
    if isinstance(stmt, dml.Update):
        bind = _id_bind(stmt.whereclause, table)
        name = compiled.bind_names.get(bind) if bind is not None else None
        if name is not None:
            return (table, name, bool(bind.expanding))
    return frozenset({(table, None)})


def _id_bind(where, table):
    """The parameter an UPDATE's WHERE limits its rows' ids to (one of its conditions ``id = ?``
    or ``id IN (…)``), or None when it names no ids so."""
    if where is None:
        return None
    todo = [where]
    while todo:
        clause = todo.pop()
        if isinstance(clause, Grouping):
            todo.append(clause.element)
        elif isinstance(clause, BooleanClauseList) and clause.operator is operators.and_:
            todo.extend(clause.clauses)
        elif (isinstance(clause, BinaryExpression) and clause.operator in (operators.eq, operators.in_op)
              and _is_id(clause.left, table) and isinstance(clause.right, BindParameter)):
            return clause.right
    return None


def _is_id(column, table):
    return getattr(column, "name", None) == "id" and getattr(getattr(column, "table", None), "name", None) == table


def _values(name, expanding, context):
    """The values of the parameter ``name`` in the parameters this execution runs with (each an
    int), or None."""
    sets = getattr(context, "compiled_parameters", None)
    if not sets:
        return None
    out = []
    for params in sets:
        if name in params:
            value = params[name]
        elif expanding:  # ``IN (…)``: its values were spread over name_1, name_2, …
            value, i = [], 1
            while f"{name}_{i}" in params:
                value.append(params[f"{name}_{i}"])
                i += 1
            if not value:
                return None
        else:
            return None
        for one in (value if isinstance(value, (list, tuple)) else (value,)):
            if not isinstance(one, int) or isinstance(one, bool):
                return None
            out.append(one)
    return out


# ----- one database file's record ------------------------------------------------------------------
class Feed:
    """What was committed to one database file by this process, and the reads kept from it."""

    def __init__(self, path):
        self.path = path
        self._lock = threading.Lock()
        self.seq = 0  # commits noted so far
        self._rows = {}  # (table, id) -> seq of the last commit that touched the row
        self._tables = {}  # table -> seq of the last commit that touched it whole
        self._any = {}  # table -> seq of the last commit that touched any of its rows
        self._kept = {}  # the query's key -> (row, its rows, seq read at, generation)
        self.generation = 0  # bumped whenever all that is kept is forgotten
        self.watch = Watch(path + ".processes", self.forget)

    def committed(self, rows):
        """A transaction touching ``rows`` has committed (its COMMIT returned)."""
        with self._lock:
            self.seq += 1
            seq = self.seq
            for table, row_id in rows:
                self._any[table] = seq
                if row_id is None:
                    self._tables[table] = seq
                else:
                    self._rows[(table, row_id)] = seq

    def forget(self):
        with self._lock:
            self.generation += 1
            self._kept.clear()

    def kept_row(self, key, read, rows, build=None):
        """``read()``'s row (``build(row)`` with ``build``), or the very one it gave last time for
        ``key`` when no commit since has touched ``rows(row)`` and this process is alone on the
        database."""
        if not (_enabled and self.watch.alone()):
            row = read()
            return row if build is None or row is None else build(row)
        kept = self._kept.get(key)
        if kept is not None:
            row, keys, seq, generation = kept
            if generation == self.generation and self._untouched(keys, seq):
                return row
        seq, generation = self.seq, self.generation  # taken before the read: a later commit outdates it
        row = read()
        if row is not None:
            keys = tuple(rows(row))
            row = row if build is None else build(row)
            if len(self._kept) >= KEEP:
                self._kept.clear()
            self._kept[key] = (row, keys, seq, generation)
        return row

    def _untouched(self, keys, seq):
        rows, tables = self._rows, self._tables
        for key in keys:
            if key[1] == ANY:
                if self._any.get(key[0], 0) > seq:
                    return False
            elif rows.get(key, 0) > seq or tables.get(key[0], 0) > seq:
                return False
        return True


class Watch:
    """The other processes using a database file, as ``<file>.processes`` tells them: each holds
    a shared lock on its byte ``HELD`` while it runs, and added one to the count in its first
    eight bytes when it registered (under the lock of byte ``MUTEX``)."""

    HELD, MUTEX = 64, 65

    def __init__(self, path, forget):
        self.path, self._forget = path, forget
        self._lock = threading.Lock()
        self._fd = self._map = None
        self._pid = None  # the process registered (a forked child registers again)
        self._seen = None  # the count when this process last looked
        self._alone = False
        self._looked = 0.0

    def register(self):
        """This process uses the database (at its first connection; again in a forked child)."""
        if self._pid == os.getpid():
            return
        with self._lock:
            if self._pid == os.getpid():
                return
            try:
                if self._fd is None:  # a child keeps its parent's: closing it would drop its locks
                    self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
                fcntl.lockf(self._fd, fcntl.LOCK_SH, 1, self.HELD)
                fcntl.lockf(self._fd, fcntl.LOCK_EX, 1, self.MUTEX)
                try:
                    if os.fstat(self._fd).st_size < 8:
                        os.ftruncate(self._fd, 8)
                    if self._map is None:
                        self._map = mmap.mmap(self._fd, 8)
                    count, = struct.unpack_from("<Q", self._map)
                    struct.pack_into("<Q", self._map, 0, count + 1)
                finally:
                    fcntl.lockf(self._fd, fcntl.LOCK_UN, 1, self.MUTEX)
            except OSError:
                self._map = None  # no file beside the database (a read-only folder): never alone
                return
            self._pid, self._seen, self._alone = os.getpid(), None, False

    def close(self):
        """Let go of the file (the engines are disposed of): this process registers again at its
        next connection, and until then is never alone."""
        with self._lock:
            if self._map is not None:
                self._map.close()
            if self._fd is not None:
                os.close(self._fd)  # this process's locks on the file go with it
            self._fd = self._map = self._pid = None
            self._alone = False

    def alone(self):
        """Whether no other process used the database since this one last looked, nor uses it now."""
        if self._pid != os.getpid() or self._map is None:
            return False
        count = self._map[:8]
        if count == self._seen and self._alone:
            return True
        if count == self._seen and time.monotonic() - self._looked < LOOK_SECONDS:
            return False
        return self._look(count)

    def _look(self, count):
        """Whether another process holds the lock now; whatever the answer, all kept is forgotten
        (``count``: read before the lock is tried, so a process registering meanwhile is seen)."""
        with self._lock:
            try:
                fcntl.lockf(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, self.HELD)
                alone = True
            except OSError:
                alone = False
            fcntl.lockf(self._fd, fcntl.LOCK_SH, 1, self.HELD)  # this process's own shared lock again
            self._forget()
            self._seen, self._alone, self._looked = count, alone, time.monotonic()
        return alone


_feeds = {}  # a database file's real path -> its Feed
_feeds_lock = threading.Lock()
_NONE = object()


def close_all():
    """Every database file let go of (``db.dispose_all``): what was kept is forgotten, each file
    closed (a test run opens hundreds of databases). The record of what was written stays: an
    engine made again for the same file shares it."""
    with _feeds_lock:
        feeds = list(_feeds.values())
    for one in feeds:
        one.watch.close()
        one.forget()


def feed(engine):
    """The ``Feed`` of an engine's database, or None when it has none (PostgreSQL, SQLite in
    memory); kept on the engine (a poll asks it every time)."""
    found = getattr(engine, "_facilitator_feed", _NONE)
    if found is not _NONE:
        return found
    found, url = None, engine.url
    if engine.dialect.name == "sqlite" and url.database and url.database != ":memory:" \
            and not url.database.startswith("file:"):
        path = os.path.realpath(url.database)
        with _feeds_lock:
            found = _feeds.get(path)
            if found is None:
                found = _feeds[path] = Feed(path)
    engine._facilitator_feed = found
    return found


__all__ = ["Feed", "Watch", "feed", "touched", "set_enabled", "enabled", "close_all", "WATCHED", "ANY"]
