"""What a server process keeps of each table between requests (a position's game, the players'
links), per database: an entry holds while the key it was kept under (what it depends on: the
table's identity, its position, its seats' count) still matches; the newest few thousand tables."""

import threading
from collections import OrderedDict
from weakref import WeakKeyDictionary


class KeptByTable:
    """``{table id: (key, value)}``, the least recently used dropped past ``size``."""

    def __init__(self, size=4096):
        self.size = size
        self._items = OrderedDict()
        self._lock = threading.Lock()

    def get(self, table_id, key):
        """The value kept for ``table_id`` under ``key``; None if none, or kept under another."""
        with self._lock:
            hit = self._items.get(table_id)
            if hit is None or hit[0] != key:
                return None
            self._items.move_to_end(table_id)
            return hit[1]

    def put(self, table_id, key, value):
        with self._lock:
            self._items[table_id] = (key, value)
            self._items.move_to_end(table_id)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self):
        with self._lock:
            self._items.clear()


class PerDatabase:
    """One ``make()`` per database engine a session is bound to (a test's fresh database, a
    server's one), gone with its engine."""

    def __init__(self, make):
        self._make, self._by_engine = make, WeakKeyDictionary()

    def __call__(self, session):
        engine = session.get_bind()
        kept = self._by_engine.get(engine)
        if kept is None:
            kept = self._by_engine.setdefault(engine, self._make())
        return kept

    def forget(self):
        """Everything kept, for every database: as a process that never kept any."""
        self._by_engine.clear()


__all__ = ["KeptByTable", "PerDatabase"]
