"""Storage: SQLModel tables and the database engine (SQLite by default, PostgreSQL by URL)."""

from .db import database_url, get_engine, init_db, session_scope
from .models import ContentPackRow, Event, GameTable, MoveRow

__all__ = ["database_url", "get_engine", "init_db", "session_scope", "ContentPackRow", "Event",
           "GameTable", "MoveRow"]
