"""Reading game record files from disk, with one-line errors that name the file.

Shared by every command that takes record files (replay, export): a file is handed to its
game's ruleset by its ``format``; a malformed file, a setup that breaks the rules and an
illegal move all become a ``RecordFileError`` whose text is the single line the CLI prints,
e.g. ``stol3.json: move 7 (draw by Борис): not eligible: intellect 3 < 5`` or
``poyta2.json: move 11 (play_activity by Bertta): P6: meira already received an activity this turn (a10)``;
a move that is not a move of the format is named the same way: ``stol1.json: move 10 (adjust by
Вика): reason is missing``.
"""

import json

from facilitator.rules import registry
from facilitator.safejson import JSONInputError, loads
from facilitator.rules.errors import MalformedError, MalformedMoveError, RulesError, SetupError
from facilitator.rules import ReplayError


class RecordFileError(Exception):
    def __init__(self, path, detail):
        self.path = path
        self.detail = detail
        super().__init__(f"{path}: {detail}")


def ruleset_of(data, path=""):
    """The ruleset a record's ``format`` names; ``RecordFileError`` for a file that is not a
    JSON object or names no format (with the formats every installed game reads)."""
    if not isinstance(data, dict):
        raise RecordFileError(path, "must be an object: a game record")
    if "format" not in data:
        known = ", ".join(r.record_format for r in registry.all_rulesets())
        raise RecordFileError(path, f"format: is missing (known: {known})")
    return registry.of_record(data)


def load_record(path):
    """``(ruleset, record)`` of a JSON file; raises ``RecordFileError``."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except OSError as err:
        raise RecordFileError(path, f"cannot read the file: {err.strerror or err}") from None
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordFileError(path, "not a UTF-8 text file") from None
    try:
        data = loads(raw, what="")
    except JSONInputError as err:
        cause = err.__cause__ or err.__context__
        if isinstance(cause, json.JSONDecodeError):  # a plain syntax error: where, as json says it
            raise RecordFileError(path, f"not valid JSON: line {cause.lineno} column {cause.colno}: {cause.msg}") \
                from None
        raise RecordFileError(path, f"not valid JSON: {err.message}") from None
    try:
        rules = ruleset_of(data, path)
    except registry.UnknownFormat as err:
        known = ", ".join(err.known)
        raise RecordFileError(path, f'unknown format "{err.got}" (known: {known})') from None
    try:
        return rules, rules.read_record(data)
    except MalformedMoveError as err:  # RECORD.md §3: the move by number, type and player, then why
        raise RecordFileError(path, err.line()) from None
    except (SetupError, MalformedError, RulesError) as err:
        raise RecordFileError(path, str(err)) from None


def replay_file(path):
    """``(record, game)`` for a record file replayed to its last move; raises ``RecordFileError``."""
    rules, record, game = replay_any(path)
    return record, game


def replay_any(path):
    """``(ruleset, record, game)`` for a record file of any game; raises ``RecordFileError``."""
    rules, record = load_record(path)
    try:
        return rules, record, rules.replay(record)
    except (SetupError, ReplayError) as err:
        raise RecordFileError(path, str(err)) from None
