"""The players' seats (issue 21): each player of a table gets a page of their own, opened on their
phone by a secret link with no sign-in. A seat is made on demand (the first time a host's screen,
the API or the organizer asks for the table's links), one live seat per player; the organizer
revokes one (its link then answers 410 Gone) and the next look makes a new secret.

Game-agnostic: a seat names its table and the player's name at it; what the page shows is the
game's (``GamePackage.player_view``).
"""

import secrets
from typing import NamedTuple
from functools import lru_cache

from sqlalchemy import text
from sqlmodel import select

from facilitator.services.db import after_commit, read_row
from facilitator.services.kept import KeptByTable, PerDatabase
from facilitator.storage.models import GameTable, Seat, utcnow

#: the longest secret a link may carry (longer ones are not looked up at all)
MAX_TOKEN = 64


def new_secret():
    return secrets.token_urlsafe(24)


def live_seats(session, table_id):
    """``{player: Seat}`` of the table's seats not revoked."""
    rows = session.exec(select(Seat).where(Seat.table_id == table_id, Seat.revoked_at.is_(None))).all()
    return {row.player: row for row in rows}


#: the live seats' secrets of a table, read without the ORM (a move's answer in the API names
#: every player's link: this keeps that read to one indexed query)
_LIVE_TOKENS = text("SELECT player, token FROM seat WHERE table_id = :table AND revoked_at IS NULL")


class _Link:
    """A live seat as a link needs it: its player and its secret."""
    __slots__ = ("player", "token")

    def __init__(self, player, token):
        self.player, self.token = player, token


def ensure_seats(session, table_id, names):
    """``{player: seat}`` with a live seat for every name of ``names`` (those missing are made
    now), each seat as a link needs it: its ``player`` and its ``token``. Every look after the
    first reads the live seats' secrets in one query; the first makes the missing seats in one
    INSERT that skips a seat another request has just made (the unique index of live seats:
    ``ON CONFLICT DO NOTHING``, so this request's transaction goes on) and reads them again."""
    names = list(names)
    connection = session.connection()
    known = dict(connection.execute(_LIVE_TOKENS, {"table": table_id}).all())
    for attempt in range(3):  # a new secret equal to another seat's (never seen) is made again
        missing = [name for name in names if name not in known]
        if not missing:
            break
        now = utcnow()
        connection.execute(_insert_seats(connection.dialect.name),
                           [{"table_id": table_id, "player": name, "token": new_secret(), "revoked_at": None,
                             "created_at": now} for name in missing])
        known = dict(connection.execute(_LIVE_TOKENS, {"table": table_id}).all())
    return {name: _Link(name, known[name]) for name in names if name in known}


#: a table's seat revoked: its row counts it, so the links kept by the count before (``links``)
#: are read again (a seat made needs no count: links kept without its player are not used for it)
_BUMP = text("UPDATE game_table SET seats_version = seats_version + 1 WHERE id = :table")


def _changed(session, table_id):
    session.connection().execute(_BUMP, {"table": table_id})
    session.info.setdefault("seats_changed", set()).add(table_id)  # nothing kept by this transaction


#: the live seats' secrets of tables as last read: ``{player: secret}`` under (created at, seats
#: version) (``links``)
_kept = PerDatabase(KeptByTable)


def links(session, table, names):
    """``{player: secret}`` of the live seats of ``table`` (a row read in this transaction),
    one for every name of ``names`` (``ensure_seats``), kept in this process by the table's
    ``seats_version``: a move's answer, which names every player's link, reads no seats while
    they stay as they were. A revoke counts on the table's row, in its own transaction, which
    keeps nothing; a seat made is kept once its transaction commits (the table opened, its links
    made: its first move reads no seats), and one made elsewhere is one a kept entry lacks, which
    is then not used (a seat is made only for a player without a live one)."""
    names = tuple(names)
    version = getattr(table, "seats_version", None)
    key = (table.created_at, version)
    kept = _kept(session)
    if version is not None:
        hit = kept.get(table.id, key)
        if hit is not None and all(name in hit for name in names):
            return {name: hit[name] for name in names}
    found = {name: seat.token for name, seat in ensure_seats(session, table.id, names).items()}
    if version is not None and table.id not in session.info.get("seats_changed", ()):  # as the row counts them
        after_commit(session, lambda: kept.put(table.id, key, found))
    return found


@lru_cache(maxsize=8)
def _insert_seats(dialect):
    """The seats' INSERT, built once per database kind: a seat that meets a live one of the same
    player (or a secret already taken) is skipped, not an error."""
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as insert_or_nothing
    elif dialect == "sqlite":
        from sqlalchemy.dialects.sqlite import insert as insert_or_nothing
    else:
        from sqlalchemy import insert
        return insert(Seat.__table__)
    return insert_or_nothing(Seat.__table__).on_conflict_do_nothing()


def by_token(session, token):
    """``(seat, table row)`` of a link's secret, revoked or not, or None: one indexed row each,
    the change check of a player's page (the table's ``seq`` and ``rev``) without its log."""
    if not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN:
        return None
    row = session.exec(select(Seat, GameTable).join(GameTable, GameTable.id == Seat.table_id)
                       .where(Seat.token == token)).first()
    return tuple(row) if row else None


#: a player's page's change check: its seat and its table's position in one indexed row
_CHECK = ("SELECT seat.id, seat.player, seat.revoked_at, game_table.id, game_table.seq, game_table.rev, "
          "game_table.move_count, game_table.ruleset "
          "FROM seat JOIN game_table ON game_table.id = seat.table_id WHERE seat.token = ?")


class Check(NamedTuple):
    """What a poll of a player's page reads: the seat and where its table stands. ``line``
    (``seq`` less the moves in force) grows with every move taken back (a take-back row adds to
    ``seq`` and takes a move out of force) and with nothing else: two positions of one ``rev``
    and one ``line`` are one game going on, the later one's moves in force the earlier one's and
    more."""
    seat: int
    player: str
    revoked: bool
    table: int
    seq: int
    rev: int
    line: int
    ruleset: str


def _check_rows(row):
    """The rows a ``_CHECK`` row comes from: its seat and its table."""
    return (("seat", row[0]), ("game_table", row[3]))


def change_check(engine, token):
    """The ``Check`` of a link's secret, or None: a poll's one query, on a pooled driver
    connection without a unit of work (``db.read_row``, the cheapest read there is), so that a
    room of phones asking "anything new?" costs the server next to nothing; on a server alone on
    its SQLite file, no read at all while no write since the last one touched the seat or its
    table (``storage.changes``)."""
    if not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN:
        return None
    return read_row(engine, _CHECK, (token,), rows=_check_rows, build=_check)


def _check(row):
    seat, player, revoked, table, seq, rev, moves, ruleset = row
    return Check(seat, player, revoked is not None, table, seq, rev, seq - (moves or 0), ruleset)


def revoke(session, table_id, player):
    """Revoke the player's live seat (its link answers 410 from now on); False when none was live."""
    seat = live_seats(session, table_id).get(player)
    if seat is None:
        return False
    _changed(session, table_id)
    seat.revoked_at = utcnow()
    session.add(seat)
    session.flush()
    return True


__all__ = ["MAX_TOKEN", "live_seats", "ensure_seats", "links", "by_token", "change_check", "Check", "revoke"]
