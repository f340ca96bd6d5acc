"""What the event-mode tests share: events and tables built straight through the services
layer (fast, exact figures), browsers in each role, and reading a page the way a browser does
(its CSRF token, its flash messages).

CSRF protection stays on in the tests: every post that should get past it carries a token read
from a page the same browser rendered.
"""

import os

import pytest

from facilitator import services
from facilitator.services import events
from facilitator.rules.lyceum.ruleset import sample_pack
from facilitator.rules.lyceum.simulate import random_game
from facilitator.storage.models import ContentPackRow, Event, GameTable, MoveRow, Setting
from tests import pages
from tests.conftest import SERVER_URL
from tests.pages import db, english, flashes, organizer_browser, text  # noqa: F401 (the tests' one page helper)

PACK = sample_pack()
PASSWORD = "lyceum-organizer-2026"


# ----- the database ---------------------------------------------------------------------------
def new_event(app, name="Кубок лицея", date="2026-11-29"):
    with db(app) as s:
        return events.create_event(s, name, date, ruleset="lyceum-16-25").id


def game_record(seed, players, moves=None):
    """A random legal game (``simulate.random_game``) as a record dict, cut after ``moves``
    moves when given (an unfinished table), with the ``Game`` of the full game."""
    record, game = random_game(PACK, seed=seed, players=players)
    data = record.to_dict()
    if moves is not None:
        data["moves"] = data["moves"][:moves]
    return data, game


def import_table(app, event_id, name, record):
    """A table of the event playing ``record`` (its host link token and PIN issued)."""
    with db(app) as s:
        table = services.import_record(s, record, name=name, event_id=event_id)
        events.ensure_access(s, table)
        return table.id


def seated_table(app, event_id, name, seed=1, players=3, moves=2):
    """A table of the event seated from a random game's setup, with its first ``moves`` moves."""
    return import_table(app, event_id, name, game_record(seed, players, moves)[0])


def everything(app):
    """Every row of the database as plain data: what a refused request must leave as it was."""
    return pages.everything(app, (ContentPackRow, Event, GameTable, MoveRow, Setting))


def table_row(app, table_id):
    with db(app) as s:
        return s.get(GameTable, table_id)


def loaded(app, table_id):
    with db(app) as s:
        return pages.loaded_table(s, table_id)


def final_xp(game):
    """Every player's final XP (XP plus the future-image bonus) as the engine counts it."""
    return {p.name: p.xp + p.bonus() for p in game.players_in_order()}


# ----- browsers -------------------------------------------------------------------------------
def host_browser(app, table_id):
    """A tablet that opened its table with the host link (QR code) of the access sheet."""
    browser = english(app.test_client())
    response = browser.get(f"/t/{table_row(app, table_id).token}")
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/table/{table_id}")
    return browser


def set_password(app, password=PASSWORD):
    from facilitator.web.auth import set_password as store
    with db(app) as s:
        store(s, password)


# ----- pages ----------------------------------------------------------------------------------
def csrf_token(client, url="/pin"):
    """The CSRF token of ``client``'s session, read from a rendered page's hidden input."""
    return pages.csrf_token(client, url)


def post(client, url, data=None, token=True, **kwargs):
    """Post a form; ``token`` True reads this browser's CSRF token first, False sends none."""
    return pages.send(client, url, data, token=token, csrf_url="/pin", **kwargs)


# ----- the host's move forms --------------------------------------------------------------------
def move_forms(app, table_id):
    """Every form of the host's turn screen, as ``(label, url, fields)``, filled in with moves
    the rules accept at the table's current position (the table must wait for a main move):
    refusing one of these can only be the access check or the CSRF check."""
    table = loaded(app, table_id)
    game = table.game
    nxt = game.next()
    assert nxt["expects"] == "main", nxt
    mover, after = nxt["player"], table.seq
    legal = {m["type"]: m for m in game.legal_moves()}
    era = legal["draw"]["era"]
    card = next(c for c in PACK.cards_of(era, "green") if "play" in game.decisions(mover, c))
    url = f"/table/{table_id}"
    return [
        ("pass", f"{url}/move/pass", {"type": "pass", "player": mover, "after": after}),
        ("rest", f"{url}/move/rest", {"player": mover, "after": after}),
        ("draw", f"{url}/move/draw", {"player": mover, "color": "green", "card": card.code,
                                      "decision": "play", "after": after}),
        ("adjust", f"{url}/move/adjust", {"player": mover, "xp": 100, "reason": "спецспособность",
                                          "after": after}),
        ("undo", f"{url}/undo", {"after": after}),
        ("timer", f"{url}/timer", {"seconds": 60}),
    ]


def log_of(app, table_id):
    """A table's whole log as plain data (what a refused request must leave untouched)."""
    return [(r.seq, r.kind, r.data, r.undoes) for r in loaded(app, table_id).log]


def organizer_of(app):
    """A new browser of ``app`` holding a live organizer session (as the sign-in form gives)."""
    return organizer_browser(app)


def fresh_database(kind, tmp_path):
    """A database with nothing in it, not even the schema: ``(url, drop)`` (the PostgreSQL one is
    a database of its own on the test server, dropped by ``drop``)."""
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'fresh.db'}", lambda: None
    if SERVER_URL is None:
        pytest.skip("no PostgreSQL server reachable on 127.0.0.1:5432")
    import psycopg
    name = f"test_facilitator_fresh_{os.getpid()}"
    admin = psycopg.connect(SERVER_URL.replace("postgresql+psycopg://", "postgresql://"), autocommit=True)
    admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
    admin.execute(f'CREATE DATABASE "{name}"')

    def drop():
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()
    return SERVER_URL.rsplit("/", 1)[0] + "/" + name, drop
