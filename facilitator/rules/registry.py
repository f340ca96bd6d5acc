"""The ruleset registry: every game the app hosts, found by its key or by a file's ``format``
(ARCHITECTURE.md decision 10), as a PGN reader picks a board class by its ``Variant`` header.

A ruleset is what the app and the CLI need of a game, and nothing more; what the games really
share is small:

* a content **pack** read from JSON (``read_pack``, refused as a whole with ``PackError``);
* a **setup** stored as JSON (``read_setup``/``setup_json``: «16/25» stores its list of record
  players, the other games the record's setup keys);
* a **game** made from pack and setup that applies **moves** read from JSON (``read_move``,
  ``Move.to_dict``), checks before it applies (``IllegalMoveError``), says what it waits for
  (``next``), whether it is ``finished``, and copies itself (``copy``);
* a **record** (the move log exported) and its replay, and the **standings** of one table and of
  several.

Pure: standard library only. The rulesets are those of the games installed through the
``facilitator.games`` entry points (``facilitator.games``); each engine module is imported on
first use, so a command that replays one game's records never loads the other engines.
The games are found once per process; ``rediscover()`` finds them again (a test that installs
a game of its own while it runs), and ``on_change`` tells the caches built from them.
"""

from dataclasses import dataclass, field
from importlib import import_module


class UnknownFormat(ValueError):
    """A file whose ``format`` no ruleset reads."""

    def __init__(self, got, known):
        self.got, self.known = got, known
        super().__init__(f"unknown format {got!r} (known: {', '.join(known)})")


@dataclass(frozen=True)
class Ruleset:
    key: str  # the game's key, as its tables, packs and events store it
    name: str  # the game's own name, as printed on its box
    pack_format: str
    record_format: str
    standings_format: str
    locales: tuple  # the languages of its screens and sheets, its players' own first
    engine: str  # the module that implements the adapter functions below
    players: tuple = (3, 4)  # how many players a table seats
    extra: dict = field(default_factory=dict)

    def _impl(self):
        return import_module(self.engine)

    def __getattr__(self, name):
        # adapter functions live in the engine's module: read_pack, default_pack, read_setup,
        # setup_json, new_game, read_move, read_record, make_record, replay, table_standing,
        # standings, event_ranking; and, when the engine declares them, schemas (its move and
        # table state as JSON Schema, for the API's OpenAPI document)
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._impl(), name)


#: the entry-point group every game registers itself in (``pyproject.toml``); its object has
#: a ``ruleset`` (``facilitator.games.GamePackage``)
GAMES_GROUP = "facilitator.games"

RULESETS = {}
_GAMES = []
_found = False


def _discover():
    """Load every game of the ``facilitator.games`` entry points once (standard library only:
    ``importlib.metadata``). A game's object module is light, its ruleset pure."""
    global _found
    if _found:
        return
    from importlib.metadata import entry_points
    found = sorted(entry_points(group=GAMES_GROUP), key=lambda ep: ep.name)  # the same order everywhere
    if not found:
        raise LookupError("no game is installed: the entry points of 'facilitator.games' are missing "
                          "(install the app with: pip install -e .)")
    for ep in found:
        add_game(ep.load())
    _found = True


def add_game(game):
    """Register a game object (its ``ruleset`` joins the rulesets); a second object of the same
    key replaces the first (a plugin reinstalled)."""
    ruleset = game.ruleset
    _GAMES[:] = [g for g in _GAMES if g.ruleset.key != ruleset.key] + [game]
    RULESETS[ruleset.key] = ruleset
    _changed()
    return game


def remove_game(key):
    """Forget a game (a test that installed one of its own)."""
    _GAMES[:] = [g for g in _GAMES if g.ruleset.key != key]
    RULESETS.pop(key, None)
    _changed()


def rediscover():
    """Forget every game found so far; the next question finds them again through the entry
    points. For a process that outlives a change of what is installed: a test that puts a
    game's distribution on ``sys.path`` (or takes it off) calls this after it (and
    ``importlib.invalidate_caches()`` before it, so ``importlib.metadata`` looks again). What
    was built from the registered games (``on_change``) is built again on its next use."""
    global _found
    _GAMES.clear()
    RULESETS.clear()
    _found = False
    _changed()


#: what to call when the registered games change: caches built from them (a game's print
#: templates in the PDF environment, its catalogs in the merged translations)
_LISTENERS = []


def on_change(listener):
    """Call ``listener()`` whenever a game is added or removed, or the games are found again
    (``rediscover``): a module whose cache is built from the registered games clears it there.
    Returns the listener (usable as a decorator)."""
    _LISTENERS.append(listener)
    return listener


def _changed():
    for listener in list(_LISTENERS):
        listener()


def games():
    """Every registered game object, in the order of their entry-point names (no game comes first
    for being the default: there is none)."""
    _discover()
    return list(_GAMES)


def get(key):
    """The ruleset of a key; a ``KeyError`` names the known ones."""
    _discover()
    try:
        return RULESETS[key]
    except KeyError:
        raise KeyError(f"unknown ruleset {key!r} (known: {', '.join(RULESETS)})") from None


def all_rulesets():
    _discover()
    return list(RULESETS.values())


def by_format(fmt):
    """The ruleset whose pack, record or standings format is ``fmt``; ``UnknownFormat`` else."""
    _discover()
    for r in RULESETS.values():
        if fmt in (r.pack_format, r.record_format, r.standings_format):
            return r
    raise UnknownFormat(fmt, [r.record_format for r in RULESETS.values()])


def of_record(data):
    """The ruleset of a game record (a JSON object) by its ``format``."""
    _discover()
    fmt = data.get("format") if isinstance(data, dict) else None
    for r in RULESETS.values():
        if fmt == r.record_format:
            return r
    raise UnknownFormat(fmt, [r.record_format for r in RULESETS.values()])


def of_pack(data):
    """The ruleset of a content pack (a JSON object) by its ``format``."""
    _discover()
    fmt = data.get("format") if isinstance(data, dict) else None
    for r in RULESETS.values():
        if fmt == r.pack_format:
            return r
    raise UnknownFormat(fmt, [r.pack_format for r in RULESETS.values()])
