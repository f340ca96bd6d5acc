"""Shared fixtures. Database tests run on the embedded SQLite default and, when a PostgreSQL
server is reachable on 127.0.0.1:5432 (as in CI), on PostgreSQL too."""

import os
import sys
from pathlib import Path

import pytest

# the tests' shared modules (``tests.pages``) are found from the repository, however pytest is run
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# SQLite waits for the disk at every commit in the app (synchronous=FULL: a move survives a power
# cut); the tests make hundreds of thousands of commits and check no power cut, so they skip the
# 1.5 ms wait (servers they start inherit it). tests/events/test_write_lock.py checks the app's own.
os.environ.setdefault("FACILITATOR_SQLITE_SYNCHRONOUS", "NORMAL")
# The PDF worker gives way to the server's threads (niceness 10); beside two busy test processes
# and Chromium it would get a tenth of a core and the protocol tests wait on it. No test checks
# the niceness itself.
os.environ.setdefault("FACILITATOR_PDF_NICENESS", "0")

# Compiled modules: where the environment turns them off (PYTHONDONTWRITEBYTECODE, as this
# project's CI machines do), every process the tests start (servers, their workers, the command
# line) compiled the app from source again. The run keeps them in a cache outside the tree
# instead (PYTHONPYCACHEPREFIX, inherited by the test processes and everything they start).
if os.environ.pop("PYTHONDONTWRITEBYTECODE", None):
    import tempfile
    os.environ.setdefault("PYTHONPYCACHEPREFIX", os.path.join(tempfile.gettempdir(), "facilitator-test-pycache"))
    sys.pycache_prefix = sys.pycache_prefix or os.environ["PYTHONPYCACHEPREFIX"]
    sys.dont_write_bytecode = False

PG_CANDIDATES = [
    os.environ.get("TEST_POSTGRES_URL"),
    "postgresql+psycopg://postgres@127.0.0.1:5432/test",
    "postgresql+psycopg://root@127.0.0.1:5432/test",
]


def _reachable_postgres():
    try:
        import psycopg
    except ImportError:
        return None
    for url in filter(None, PG_CANDIDATES):
        dsn = url.replace("postgresql+psycopg://", "postgresql://")
        try:
            with psycopg.connect(dsn, connect_timeout=3):
                return url
        except Exception:
            continue
    return None


SERVER_URL = _reachable_postgres()


def _own_database(server_url):
    """The address of a database of this test process's own on the server (so parallel runs never
    drop each other's tables); it is created on first use (``_created_database``), so processes
    that never touch PostgreSQL (xdist's controller, a run of pure rules tests) create and drop
    nothing: dropping a database makes the server write a checkpoint, seconds on a busy disk."""
    if server_url is None:
        return None
    return server_url.rsplit("/", 1)[0] + "/" + f"test_facilitator_{os.getpid()}"


POSTGRES_URL = _own_database(SERVER_URL)


def _created_database():
    """Create this process's database on the server on first use, or fall back on the server's
    own ``test`` database if one cannot be created. The module may be imported twice (as pytest's
    ``conftest`` and as ``tests.conftest``): the environment says whether either copy created it
    already. Its commits do not wait for the disk (``synchronous_commit`` off, as SQLite's
    ``synchronous`` above): the tests check no power cut."""
    global POSTGRES_URL
    name = POSTGRES_URL.rsplit("/", 1)[1]
    if os.environ.get("FACILITATOR_TEST_DATABASE") == name or POSTGRES_URL == SERVER_URL:
        return
    import psycopg
    try:
        with psycopg.connect(SERVER_URL.replace("postgresql+psycopg://", "postgresql://"), autocommit=True,
                             connect_timeout=3) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
            admin.execute(f'CREATE DATABASE "{name}"')
            admin.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = off')
    except psycopg.Error:
        POSTGRES_URL = SERVER_URL
        return
    os.environ["FACILITATOR_TEST_DATABASE"] = name


def _seconds(items):
    """A rough guess of how long a module's tests take, from their markers: a browser module starts
    a server and Chromium and taps through screens, a ``server`` one starts processes of its own,
    a ``slow`` one plays thousands of games or a whole evening; the others take a fraction of a
    second a test, more on a database, more for random games or laid-out PDFs."""
    seconds = 0.0
    for item in items:
        if item.get_closest_marker("browser") or item.get_closest_marker("server"):
            seconds += 3
        if item.get_closest_marker("slow"):
            seconds += 5
        elif any(word in item.path.name for word in ("properties", "pdf", "whole_game")):
            seconds += 0.5
        else:
            seconds += 0.2 if "db_url" in item.fixturenames else 0.01
    if any(item.get_closest_marker("browser") for item in items):
        seconds += 25  # a server and Chromium started for the module, whole games played
    elif any(item.get_closest_marker("server") for item in items):
        seconds += 10
    return seconds


def pytest_collection_modifyitems(session, config, items):
    """The modules longest first, each kept whole and in its own order. ``-n auto --dist
    loadscope --no-loadscope-reorder`` (pyproject's addopts) hands a test module at a time to each
    test process, in this order, and the next one whenever a process is nearly done: the long
    modules are spread over the processes and the short ones fill in at the end. The browser
    modules are units of their own too (each starts its own server and Chromium): kept together
    they made one process's queue of eight minutes while the other ran everything else."""
    modules = {}
    for item in items:
        modules.setdefault(item.path, []).append(item)
    order = sorted(modules, key=lambda path: -_seconds(modules[path]))  # stable: collection order on ties
    items[:] = [item for path in order for item in modules[path]]


def pytest_sessionfinish(session, exitstatus):
    if POSTGRES_URL is None or os.environ.get("FACILITATOR_TEST_DATABASE") != POSTGRES_URL.rsplit("/", 1)[1]:
        return
    import psycopg

    from facilitator.storage.db import dispose_all
    dispose_all()
    with psycopg.connect(SERVER_URL.replace("postgresql+psycopg://", "postgresql://"), autocommit=True,
                         connect_timeout=3) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{POSTGRES_URL.rsplit("/", 1)[1]}" WITH (FORCE)')
    del os.environ["FACILITATOR_TEST_DATABASE"]


BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.skipif(
    POSTGRES_URL is None, reason="no PostgreSQL server reachable on 127.0.0.1:5432"))]


_TEMPLATES = {}


def _sqlite_template(tmp_path_factory):
    """A SQLite database migrated once per test run (the schema at its newest revision, nothing
    stored): each test starts from a copy of it instead of running the migrations again."""
    if "sqlite" not in _TEMPLATES:
        from facilitator.storage.db import get_engine
        from facilitator.migrations import upgrade
        path = tmp_path_factory.mktemp("template") / "template.db"
        engine = get_engine(f"sqlite:///{path}")
        upgrade(engine)
        engine.dispose()
        _TEMPLATES["sqlite"] = path
    return _TEMPLATES["sqlite"]


def _empty_postgres():
    """The run's PostgreSQL database, migrated on first use and emptied (every row, the
    migration's bookkeeping kept, the id sequences started again) for each further test: far
    faster than migrating again. Rows are deleted rather than truncated: a TRUNCATE gives every
    table new files on disk, a tenth of a second per test; the tables here hold a few rows."""
    from sqlalchemy import text
    from sqlmodel import SQLModel

    from facilitator.migrations import upgrade
    from facilitator.storage import get_engine
    from facilitator.storage import models  # noqa: F401
    _created_database()
    engine = get_engine(POSTGRES_URL)
    if "postgresql" not in _TEMPLATES:
        SQLModel.metadata.drop_all(engine)
        with engine.begin() as conn:
            conn.execute(text("DROP TABLE IF EXISTS alembic_version"))
        upgrade(engine)
        _TEMPLATES["postgresql"] = True
    else:
        with engine.begin() as conn:
            for table in reversed(SQLModel.metadata.sorted_tables):  # the referring rows first
                conn.execute(table.delete())
            _restart_sequences(conn)
    return engine


def _restart_sequences(conn):
    """Every id sequence of the schema from 1 again (as ``TRUNCATE … RESTART IDENTITY``), or
    just past the ids already stored."""
    from sqlalchemy import text
    owned = conn.execute(text(
        "SELECT s.relname, t.relname, a.attname FROM pg_class s"
        " JOIN pg_depend d ON d.objid = s.oid AND d.deptype IN ('a', 'i')"
        " JOIN pg_class t ON t.oid = d.refobjid"
        " JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = d.refobjsubid"
        " JOIN pg_namespace n ON n.oid = s.relnamespace"
        " WHERE s.relkind = 'S' AND n.nspname = current_schema()")).all()
    for sequence, table, column in owned:
        conn.execute(text(f'SELECT setval(\'"{sequence}"\', COALESCE((SELECT max("{column}") FROM "{table}"), 0) + 1,'
                          ' false)'))


@pytest.fixture(autouse=True)
def _language_left_as_found():
    """Every test starts in the app's default language and leaves it so: a test that switches
    the language of its thread without restoring it fails here, naming itself, instead of
    turning later tests' expected Russian into English."""
    from facilitator import i18n
    before = i18n.get_locale()
    yield
    after = i18n.get_locale()
    if after != before:
        token = i18n.set_locale(before)
        del token
        pytest.fail(f"the test left the language {after!r} (it found {before!r})")


def sqlite_database(tmp_path, tmp_path_factory):
    """The address of a fresh SQLite database (a copy of the migrated template) in ``tmp_path``.
    A module whose tests check nothing of the storage (screens drawn, words, refusals that store
    nothing) makes it its ``db_url``: its tests run on SQLite only, and the services they call
    are run on both backends by the modules that test storage (moves, safe writes, the API,
    backups, migrations)."""
    import shutil
    shutil.copyfile(_sqlite_template(tmp_path_factory), tmp_path / "test.db")
    return f"sqlite:///{tmp_path / 'test.db'}"


@pytest.fixture(params=BACKENDS)
def db_url(request, tmp_path, tmp_path_factory):
    """A fresh database with the schema and nothing stored: a copy of a migrated SQLite file,
    or the PostgreSQL test database emptied."""
    if request.param == "sqlite":
        yield sqlite_database(tmp_path, tmp_path_factory)
        return
    engine = _empty_postgres()
    yield POSTGRES_URL
    engine.dispose()


#: one app for the whole run (per test process): building one compiles its ~90 URL rules and,
#: on first use, every template it renders, about 0.1 s a test; each test gets its own database,
#: instance folder, exports folder and configuration on it instead (see ``app``)
_SHARED = {}


def _test_config(db_url, tmp_path):
    return {"TESTING": True, "DATABASE_URL": db_url, "INSTANCE_PATH": str(tmp_path / "instance"),
            "EXPORTS_DIR": str(tmp_path / "exports"),
            # tests look at the projector right after a move
            "PROJECTOR_FRESH_SECONDS": 0,
            # and download a protocol as soon as they ask (not its progress page)
            "PROTOCOL_WAIT_SECONDS": 120,
            # finished games' protocols are made when asked for, not in the background
            # (tests/web/test_protocol_download.py turns this on)
            "PREPARE_PROTOCOLS": False,
            # sheets other than the protocol are laid out in the test's own process
            "PRINT_INLINE": True}


#: the rows the start-up stored on an empty database, per backend, environment password and games
_STARTED = {}


def _startup(engine):
    """``services.db.startup`` on the test's empty database, as at a server's start. What it
    stores there (the shipped packs, read and checked, the password from the environment, a
    shared database's key) is the same every time, and costs about 0.1 s: the first time in this
    process the start-up runs and the rows it stored are kept; later on an empty database those
    rows are stored again instead. The start-up itself on an empty database is tested as such
    (tests/events/test_server_setup.py, test_shared_key.py, test_migrations.py)."""
    from sqlalchemy import select, text
    from sqlmodel import SQLModel

    from facilitator import services
    tables = SQLModel.metadata.sorted_tables
    from facilitator.rules import registry
    # the shipped packs are those of the games installed now (a test may install one: tests/games)
    key = (engine.dialect.name, os.environ.get("FACILITATOR_ORGANIZER_PASSWORD"),
           tuple(game.ruleset.key for game in registry.games()))
    with engine.begin() as conn:
        stored = conn.execute(text("SELECT " + " + ".join(
            f'(SELECT count(*) FROM "{t.name}")' for t in tables))).scalar()
        if stored == 0 and key in _STARTED:
            for table in tables:
                if _STARTED[key][table.name]:
                    conn.execute(table.insert(), _STARTED[key][table.name])
            if engine.dialect.name == "postgresql":
                _restart_sequences(conn)
            return
    services.db.startup(engine)
    if stored == 0:
        with engine.connect() as conn:
            _STARTED[key] = {t.name: [dict(row._mapping) for row in conn.execute(select(t))] for t in tables}


@pytest.fixture
def app(db_url, tmp_path, monkeypatch):
    """The app on this test's fresh database, as ``create_app`` makes it at a server's start: its
    schema, the shipped packs and the password from the environment stored by the same start-up
    work. The Flask object is made once and handed to each test with its configuration reset
    (whatever a test changed in it is undone), its own instance folder and its own engine."""
    yield from app_on(db_url, tmp_path, monkeypatch, _SHARED)


def app_on(db_url, tmp_path, monkeypatch, shared):
    """``app``'s work with the Flask object kept in ``shared`` (a dict): a folder of tests whose
    app must be another one (one made while a game of the tests' own is installed,
    tests/games/conftest.py) keeps its own."""
    monkeypatch.setenv("FACILITATOR_INSTANCE", str(tmp_path / "instance"))
    from facilitator import services
    from facilitator.storage.db import dispose_all
    from facilitator.web import create_app
    config = _test_config(db_url, tmp_path)
    if "app" not in shared:
        app = create_app(config)
        shared["app"], shared["config"] = app, dict(app.config)
        shared["extensions"] = dict(app.extensions)
    else:
        app = shared["app"]
        Path(config["INSTANCE_PATH"]).mkdir(parents=True, exist_ok=True)
        app.instance_path = config["INSTANCE_PATH"]
        app.config.clear()
        app.config.update(shared["config"])
        app.config.update(config)
        engine = services.db.engine_for(db_url)
        _startup(engine)
        # what the app keeps between requests (the projector's standings cache) starts empty too
        app.extensions.clear()
        app.extensions.update(shared["extensions"])
        app.extensions["facilitator.engine"] = engine
    yield app
    dispose_all()


@pytest.fixture
def client(app):
    """A browser signed in as the organizer: it may run every table."""
    return organizer_browser(app)


def organizer_browser(app, lang=None):
    """A new browser holding a live organizer session, as signing in with the password gives one."""
    from tests.pages import organizer_browser as browser
    return browser(app, lang=lang)


@pytest.fixture
def anon_client(app):
    """A browser of anyone on the venue's Wi-Fi: public pages only."""
    return app.test_client()
