"""The database tables. A table's game is its append-only move log (ARCHITECTURE.md decision 2):
rows are only ever added; an undo is a row of its own that names the move it takes back."""

from datetime import datetime, timezone

from sqlalchemy import Column, Text, UniqueConstraint
from sqlmodel import Field, SQLModel


def utcnow():
    return datetime.now(timezone.utc)


class ContentPackRow(SQLModel, table=True):
    """One immutable version of a content pack. Editing a pack stores a new version; games
    keep the version they started with."""

    __tablename__ = "content_pack"
    __table_args__ = (UniqueConstraint("key", "version"),)

    id: int | None = Field(default=None, primary_key=True)
    key: str = Field(index=True, max_length=100)
    version: int = 1
    title: str = Field(max_length=300)
    data: str = Field(sa_column=Column(Text, nullable=False))  # the lyceum-pack/1 JSON
    created_at: datetime = Field(default_factory=utcnow)


class Event(SQLModel, table=True):
    """An event: one or many tables playing at once, run by an organizer."""

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=200)
    date: str | None = Field(default=None, max_length=10)
    pack_id: int | None = Field(default=None, foreign_key="content_pack.id")
    announce_step: int = 0  # the projector's announcement: 0 off, k = the last k places shown
    created_at: datetime = Field(default_factory=utcnow)


class GameTable(SQLModel, table=True):
    """One physical table and its game: the setup and the pack version it plays with."""

    __tablename__ = "game_table"

    id: int | None = Field(default=None, primary_key=True)
    event_id: int | None = Field(default=None, foreign_key="event.id", index=True)
    name: str = Field(max_length=100)
    host_name: str | None = Field(default=None, max_length=100)
    pack_id: int = Field(foreign_key="content_pack.id")
    players: str | None = Field(default=None, sa_column=Column(Text))  # JSON list of record players
    timer_seconds: int | None = None  # the optional turn timer, off when None
    deck_seed: int = 0  # seeds the app's own shuffled copy of the deck
    token: str | None = Field(default=None, max_length=64, unique=True)  # the host link's secret
    pin: str | None = Field(default=None, max_length=12, unique=True)  # the short code typed on a tablet
    created_at: datetime = Field(default_factory=utcnow)


class MoveRow(SQLModel, table=True):
    """One entry of a table's log: a move (``kind`` "move", ``data`` its record JSON) or an
    undo (``kind`` "undo", ``undoes`` the seq it takes back). ``seq`` counts from 1."""

    __tablename__ = "move"
    __table_args__ = (UniqueConstraint("table_id", "seq"),)

    id: int | None = Field(default=None, primary_key=True)
    table_id: int = Field(foreign_key="game_table.id", index=True)
    seq: int
    kind: str = Field(default="move", max_length=10)
    data: str | None = Field(default=None, sa_column=Column(Text))
    undoes: int | None = None
    author: str | None = Field(default=None, max_length=100)
    created_at: datetime = Field(default_factory=utcnow)


class Setting(SQLModel, table=True):
    """Server-wide settings, e.g. the organizer's password hash."""

    key: str = Field(primary_key=True, max_length=100)
    value: str = Field(sa_column=Column(Text, nullable=False))
