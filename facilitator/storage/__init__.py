"""Storage: SQLModel tables and the database engine (SQLite by default, PostgreSQL by URL)."""

from facilitator.storage.db import database_url, get_engine, init_db, session_scope
from facilitator.storage.models import ContentPackRow, Event, GameTable, MoveRow

__all__ = ["database_url", "get_engine", "init_db", "session_scope", "ContentPackRow", "Event",
           "GameTable", "MoveRow"]
