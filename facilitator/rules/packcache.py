"""A content pack read once per content: a game record carries its pack inline, and reading
it (every card held to the pack's rules) cost about as much as replaying the game's moves, on
every replay of every record of the same pack. So a game's ``read_record`` asks
``read_once(read_pack, content)``: the pack of a content read before comes back as it was
read (the ``PackError`` of a refused one is raised again each time, nothing of it is kept).

A pack is found by a digest of its content (``marshal``'s bytes of the JSON object, which
differ whenever the content does): two records of one event find one pack. The last
``SIZE`` packs are kept.

The pack objects are shared by every game made from them: the engines never change a pack
(its objects are frozen dataclasses; a game copies what it changes, such as a player's
starting skills), and ``tests/rules/test_pack_cache.py`` holds them to it.
"""

import hashlib
import marshal
import threading
from collections import OrderedDict

#: how many packs are kept (an event plays one or two; a server hosts a few games)
SIZE = 64

_packs = OrderedDict()  # (reader, digest) -> pack
_lock = threading.Lock()


def digest(content):
    """A digest of a JSON object's content (its keys in their order), or None for an object
    that is not plain JSON data (it is then read, never kept)."""
    try:
        data = marshal.dumps(content, 2)  # version 2: no back-references, bytes follow the content alone
    except ValueError:
        return None
    return hashlib.sha256(data).digest()


def read_once(reader, content):
    """``reader(content)`` (a game's ``read_pack``), the first time this content is read; the
    same pack object after that."""
    key = digest(content)
    if key is None:
        return reader(content)
    key = (reader, key)
    with _lock:
        pack = _packs.get(key)
        if pack is not None:
            _packs.move_to_end(key)
            return pack
    pack = reader(content)  # a refused pack raises here: nothing is kept
    with _lock:
        _packs[key] = pack
        _packs.move_to_end(key)
        while len(_packs) > SIZE:
            _packs.popitem(last=False)
    return pack


def clear():
    """Forget every pack read (for tests that count reads)."""
    with _lock:
        _packs.clear()
