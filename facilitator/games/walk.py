"""A table's game walked through again, move by move, for what a game's engine keeps no history
of (Alter Ego's influence season by season): each position with the result of the move that led
to it, replayed from the table's moves in force by the table's own ruleset. Game-agnostic.

A walk is remembered per table position (table id, ``seq``, ``rev``) in a small per-process
cache, so a room of phones and projectors asking about one position replays it once.
"""

import json
import threading
from collections import OrderedDict

_CACHE = OrderedDict()
_LOCK = threading.Lock()
#: positions remembered (each a few numbers per move)
KEEP = 512


def walk(loaded):
    """``(game, move)`` for each of the table's moves in force, the game as it stands before the
    move: the caller applies it (``game.apply(move)``), looking before and after as it needs.
    Only for a table whose log replays (``loaded.broken`` false)."""
    rules = loaded.ruleset
    game = rules.new_game(loaded.pack, rules.read_setup(json.loads(loaded.table.players)), loaded.table.name)
    for row in loaded.active:
        yield game, rules.read_move(json.loads(row.data), strict=False)


def remembered(loaded, kind, compute):
    """``compute(loaded)`` for the table's position, remembered under ``kind``."""
    key = (kind, loaded.table.id, str(loaded.table.created_at), loaded.seq, loaded.rev)
    with _LOCK:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key]
    value = compute(loaded)
    with _LOCK:
        _CACHE[key] = value
        while len(_CACHE) > KEEP:
            _CACHE.popitem(last=False)
    return value


__all__ = ["walk", "remembered"]
