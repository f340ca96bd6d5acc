"""The database tables. A table's game is its append-only move log (ARCHITECTURE.md decision 2):
rows are only ever added; an undo (and the organizer's void and reopen) is a row of its own that
names the move it takes back.

Every game is played under a **ruleset** (its key, found through the game packages):
packs, events and tables name theirs, so one database holds the games of several rulesets.
"""

from datetime import datetime, timezone

from sqlalchemy import Column, Index, Text, UniqueConstraint, text
from sqlmodel import Field, SQLModel


def utcnow():
    return datetime.now(timezone.utc)


class ContentPackRow(SQLModel, table=True):
    """One immutable version of a content pack. Editing a pack stores a new version; games
    keep the version they started with."""

    __tablename__ = "content_pack"
    __table_args__ = (UniqueConstraint("ruleset", "key", "version"),)

    id: int | None = Field(default=None, primary_key=True)
    ruleset: str = Field(max_length=40)
    key: str = Field(index=True, max_length=100)
    version: int = 1
    title: str = Field(max_length=300)
    data: str = Field(sa_column=Column(Text, nullable=False))  # the pack's JSON (lyceum-pack/1, …)
    created_at: datetime = Field(default_factory=utcnow)


class Event(SQLModel, table=True):
    """An event: one or many tables playing at once, run by an organizer."""

    id: int | None = Field(default=None, primary_key=True)
    ruleset: str = Field(max_length=40)  # an event plays one game
    name: str = Field(max_length=200)
    date: str | None = Field(default=None, max_length=10)
    pack_id: int | None = Field(default=None, foreign_key="content_pack.id")
    # the language of its projector, access sheet, certificates and new tables' names: one of its
    # game's; None for events of before (``i18n.event_locale``: then its game's first)
    language: str | None = Field(default=None, max_length=8)
    announce_step: int = 0  # the projector's announcement: 0 off, k = the last k places shown
    version: int = 0  # +1 with every change of its tables: the projector's O(1) change check
    created_at: datetime = Field(default_factory=utcnow)


class GameTable(SQLModel, table=True):
    """One physical table and its game: the setup and the pack version it plays with.

    ``seq`` is the last sequence number of its log and ``rev`` the revision of what its replay
    depends on besides the log (players, pack version). Every write to a table is one
    compare-and-set of ``(seq, rev)`` on this row, so of two racing writes exactly one wins.
    ``status``, ``standing``, ``move_count`` and ``last_move_at`` are kept up to date by every
    write, so pages that list many tables never replay their games."""

    __tablename__ = "game_table"

    id: int | None = Field(default=None, primary_key=True)
    event_id: int | None = Field(default=None, foreign_key="event.id", index=True)
    ruleset: str = Field(max_length=40)
    name: str = Field(max_length=100)
    host_name: str | None = Field(default=None, max_length=100)
    pack_id: int = Field(foreign_key="content_pack.id")
    # the setup as its ruleset's record writes it: for «16/25» the list of record players
    players: str | None = Field(default=None, sa_column=Column(Text))
    timer_seconds: int | None = None  # the optional turn timer, off when None
    deck_seed: int = 0  # seeds the app's own shuffled copy of the deck
    token: str | None = Field(default=None, max_length=64, unique=True)  # the host link's secret
    pin: str | None = Field(default=None, max_length=12, unique=True)  # the short code typed on a tablet
    seq: int = 0
    rev: int = 0
    status: str = Field(default="setup", max_length=10)  # setup | playing | finished | broken
    standing: str | None = Field(default=None, sa_column=Column(Text))  # the engine's table standing, JSON
    move_count: int = 0  # moves in force
    last_move_at: datetime | None = None
    problem: str | None = Field(default=None, sa_column=Column(Text))  # why a broken log does not replay, JSON
    created_at: datetime = Field(default_factory=utcnow)
    # counts the table's seats revoked: a move's answer names the players' links, kept per process
    # by this number instead of read on every move (services.seats.links)
    seats_version: int = Field(default=0, sa_column_kwargs={"server_default": "0"})


class MoveRow(SQLModel, table=True):
    """One entry of a table's log: a move (``kind`` "move", ``data`` its record JSON) or an
    undo (``kind`` "undo", ``undoes`` the seq it takes back). ``seq`` counts from 1."""

    __tablename__ = "move"
    __table_args__ = (UniqueConstraint("table_id", "seq"), UniqueConstraint("table_id", "client_id"))

    id: int | None = Field(default=None, primary_key=True)
    table_id: int = Field(foreign_key="game_table.id", index=True)
    seq: int
    kind: str = Field(default="move", max_length=10)  # move | undo | void | reopen
    data: str | None = Field(default=None, sa_column=Column(Text))
    undoes: int | None = None  # undo, void, reopen: the seq of the move taken back
    author: str | None = Field(default=None, max_length=100)
    client_id: str | None = Field(default=None, max_length=64)  # a tablet's id for a queued write
    created_at: datetime = Field(default_factory=utcnow)


class Setting(SQLModel, table=True):
    """Server-wide settings, e.g. the organizer's password hash."""

    key: str = Field(primary_key=True, max_length=100)
    value: str = Field(sa_column=Column(Text, nullable=False))


class OrganizerSession(SQLModel, table=True):
    """A signed-in organizer's browser: the cookie holds a secret whose hash is the key, so
    signing out ends the session for every copy of its cookie, and a password change ends
    them all."""

    __tablename__ = "organizer_session"

    id: str = Field(primary_key=True, max_length=64)  # sha256 of the cookie's secret
    created_at: datetime = Field(default_factory=utcnow)


class LoginFailure(SQLModel, table=True):
    """One wrong PIN or password from one client, or one table it created without signing in:
    the throttle and the quota count these rows, so every server process sees the same count."""

    __tablename__ = "login_failure"
    __table_args__ = (Index("ix_login_failure_gate_client", "gate", "client"),)

    id: int | None = Field(default=None, primary_key=True)
    gate: str = Field(max_length=20)  # "pin", "password" or "lone_table"
    client: str = Field(max_length=100)
    at: float  # time.time() of the attempt


class Seat(SQLModel, table=True):
    """A player's own page (issue 21): the secret of the link that opens it, read-only, with no
    sign-in. Made on demand, one live seat per player of a table; the organizer revokes a seat
    (``revoked_at``: its link answers 410 Gone) and the next look makes a new one."""

    __tablename__ = "seat"
    __table_args__ = (Index("ix_seat_table_player_live", "table_id", "player", unique=True,
                            sqlite_where=text("revoked_at IS NULL"), postgresql_where=text("revoked_at IS NULL")),)

    id: int | None = Field(default=None, primary_key=True)
    table_id: int = Field(foreign_key="game_table.id", index=True)
    player: str = Field(max_length=200)  # the player's name at the table
    token: str = Field(max_length=64, unique=True)  # the link's secret
    revoked_at: datetime | None = None
    created_at: datetime = Field(default_factory=utcnow)
