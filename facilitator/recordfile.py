"""Reading game record files from disk, with one-line errors that name the file.

Shared by every command that takes record files (replay, export): a malformed file, a setup
that breaks the rules and an illegal move all become a ``RecordFileError`` whose text is
the single line the CLI prints, e.g.
``stol3.json: move 7 (draw by Борис): not eligible: intellect 3 < 5``.
"""

import json

from .rules import MalformedError, ReplayError, SetupError, read_record, replay


class RecordFileError(Exception):
    def __init__(self, path, detail):
        self.path = path
        self.detail = detail
        super().__init__(f"{path}: {detail}")


def load_record(path):
    """The ``Record`` in a JSON file; raises ``RecordFileError``."""
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except OSError as err:
        raise RecordFileError(path, f"cannot read the file: {err.strerror or err}") from None
    except UnicodeDecodeError:
        raise RecordFileError(path, "not a UTF-8 text file") from None
    except json.JSONDecodeError as err:
        raise RecordFileError(path, f"not valid JSON: line {err.lineno} column {err.colno}: {err.msg}") from None
    try:
        return read_record(data)
    except MalformedError as err:
        raise RecordFileError(path, str(err)) from None


def replay_file(path):
    """``(record, game)`` for a record file replayed to its last move; raises ``RecordFileError``."""
    record = load_record(path)
    try:
        return record, replay(record)
    except (ReplayError, SetupError) as err:
        raise RecordFileError(path, str(err)) from None
