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

Pure: standard library only. Each engine package is imported on first use, so a command that
replays «16/25» records never loads the other games.
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
    key: str  # "lyceum-16-25"
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
        # standings, event_ranking
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._impl(), name)


LYCEUM = Ruleset(key="lyceum-16-25", name="16/25", pack_format="lyceum-pack/1",
                 record_format="lyceum-record/1", standings_format="lyceum-standings/1",
                 locales=("ru", "en"), engine="facilitator.rules.lyceum.ruleset", players=(3, 4))

ALTER_EGO = Ruleset(key="alter-ego-3", name="Alter Ego", pack_format="alterego-pack/1",
                    record_format="alterego-record/1", standings_format="alterego-standings/1",
                    locales=("fi", "en", "ru"), engine="facilitator.rules.alterego.ruleset", players=(2, 3))

NEW_ANGELES = Ruleset(key="new-angeles", name="New Angeles", pack_format="newangeles-pack/1",
                      record_format="newangeles-record/1", standings_format="newangeles-standings/1",
                      locales=("en", "sv", "ru"), engine="facilitator.rules.newangeles.ruleset", players=(4, 6))

RULESETS = {r.key: r for r in (LYCEUM, ALTER_EGO, NEW_ANGELES)}


def register(ruleset):
    RULESETS[ruleset.key] = ruleset
    return ruleset


def get(key):
    """The ruleset of a key; a ``KeyError`` names the known ones."""
    try:
        return RULESETS[key]
    except KeyError:
        raise KeyError(f"unknown ruleset {key!r} (known: {', '.join(RULESETS)})") from None


def all_rulesets():
    return list(RULESETS.values())


def by_format(fmt):
    """The ruleset whose pack, record or standings format is ``fmt``; ``UnknownFormat`` else."""
    for r in RULESETS.values():
        if fmt in (r.pack_format, r.record_format, r.standings_format):
            return r
    raise UnknownFormat(fmt, [r.record_format for r in RULESETS.values()])


def of_record(data):
    """The ruleset of a game record (a JSON object) by its ``format``."""
    fmt = data.get("format") if isinstance(data, dict) else None
    for r in RULESETS.values():
        if fmt == r.record_format:
            return r
    raise UnknownFormat(fmt, [r.record_format for r in RULESETS.values()])


def of_pack(data):
    """The ruleset of a content pack (a JSON object) by its ``format``."""
    fmt = data.get("format") if isinstance(data, dict) else None
    for r in RULESETS.values():
        if fmt == r.pack_format:
            return r
    raise UnknownFormat(fmt, [r.pack_format for r in RULESETS.values()])
