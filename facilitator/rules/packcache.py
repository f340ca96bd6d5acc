"""A content pack read once per content: a game record carries its pack inline, and reading
it (every card held to the pack's rules) cost about as much as replaying the game's moves, on
every replay of every record of the same pack. So a game's ``read_record`` asks
``read_once(read_pack, content)``: the pack of a content read before comes back as it was
read (the ``PackError`` of a refused one is raised again each time, nothing of it is kept).

A pack is found by a digest of its content (``marshal``'s bytes of the JSON object, which
differ whenever the content does): two records of one event find one pack. The last
``SIZE`` packs are kept.

Making that digest was a sixth of a finished game's replay (issue 19: 0.6 ms), so a content is
first looked up by its quicker ``marshal`` bytes of version 4: the same bytes are the same
content, value for value and type for type (``marshal.loads`` gives the content back from them),
but one content can give other bytes when its texts are shared differently (version 4 writes a
text held elsewhere too once and then refers to it). Such a content is found by its digest, once.

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
_quick = OrderedDict()  # (reader, marshal version 4 bytes) -> pack
_lock = threading.Lock()


def digest(content):
    """A digest of a JSON object's content (its keys in their order), or None for an object
    that is not plain JSON data (it is then read, never kept)."""
    try:
        data = marshal.dumps(content, 2)  # version 2: no back-references, bytes follow the content alone
    except ValueError:
        return None
    return hashlib.sha256(data).digest()


def _keep(kept, key, pack):
    kept[key] = pack
    kept.move_to_end(key)
    while len(kept) > SIZE:
        kept.popitem(last=False)


def read_once(reader, content):
    """``reader(content)`` (a game's ``read_pack``), the first time this content is read; the
    same pack object after that."""
    try:
        quick = (reader, marshal.dumps(content, 4))
    except ValueError:  # not plain JSON data: read, never kept
        return reader(content)
    with _lock:
        pack = _quick.get(quick)
        if pack is not None:
            _quick.move_to_end(quick)
            return pack
    key = (reader, digest(content))
    with _lock:
        pack = _packs.get(key)
        if pack is not None:
            _packs.move_to_end(key)
            _keep(_quick, quick, pack)
            return pack
    pack = reader(content)  # a refused pack raises here: nothing is kept
    with _lock:
        _keep(_packs, key, pack)
        _keep(_quick, quick, pack)
    return pack


def clear():
    """Forget every pack read (for tests that count reads)."""
    with _lock:
        _packs.clear()
        _quick.clear()
