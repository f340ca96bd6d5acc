"""The services: the ONLY code that touches storage (ARCHITECTURE.md decision 5), answering with
the engine's facts. Views parse a request, call a service, render; they never import storage or
SQLAlchemy (a test checks it).

=================  ====================================================================
``tables``         a table's game: load, record a move (compare-and-set, no replay), undo,
                   reopen, void, setup, import; the kept standing of every table
``events``         events, their tables and access codes, standings, backups and restores
``packs``          the pack library of every ruleset: versions, the shipped packs
``access``         the organizer's password and sessions, host links and PINs, the throttle of
                   guessing, the quota of tables made without signing in
``keys``           the secret key signing sessions and forms: shared by every server on one database
``db``             engines, sessions, the one-time start-up work under a lock
=================  ====================================================================

The functions of ``tables`` are also here, as ``services.load``, ``services.record_move``, …
"""

from facilitator.services import access, db, events, exports, keys, packs, seats, tables  # noqa: F401
from facilitator.services.tables import (FinishedTable, LoadedTable, NotFinished, Problem, SetupLocked, StaleMove, StaleSetup,
                     TableBroken, TableNotFound, WrongGame, adopt_pack, create_table, get_table, heads,
                     import_record, list_tables, load, load_many, log_row, now_iso, problem_of, record_batch, record_move, refresh_head,
                     rename, reopen, set_players, set_timer, table_by_pin, table_by_token, undo, void)

__all__ = ["access", "db", "events", "exports", "keys", "packs", "tables", "FinishedTable", "LoadedTable", "NotFinished", "Problem",
           "SetupLocked", "StaleMove", "StaleSetup", "TableBroken", "TableNotFound", "WrongGame", "adopt_pack",
           "create_table", "get_table", "heads", "import_record", "list_tables", "load", "load_many", "log_row", "now_iso", "problem_of",
           "record_batch", "record_move", "refresh_head", "rename", "reopen", "set_players", "set_timer",
           "table_by_pin", "table_by_token", "undo", "void"]
