"""What the benchmarks that run the app share: a fresh database of a run's own (a SQLite file, or
a database on the local PostgreSQL server, dropped after the run), and the in-app meter (a WSGI
wrapper that measures each request inside the app: its wall time, the thread's CPU time, and the
SQL round trips it sent). Imported by the scripts of this folder (``python3 benchmarks/<x>.py``
puts this folder first on ``sys.path``)."""

import operator
import os
import time
from collections import namedtuple
from contextlib import contextmanager
from pathlib import Path


def postgres_database(name):
    """A fresh database ``<name>_<pid>`` on the local PostgreSQL server (as ``postgres`` or
    ``root``): ``(url, drop)``, ``drop()`` closing the app's engines and dropping it."""
    import psycopg
    admin = user = None
    for user in ("postgres", "root"):
        try:
            admin = psycopg.connect(f"host=127.0.0.1 port=5432 user={user} dbname=postgres", autocommit=True,
                                    connect_timeout=3)
            break
        except Exception:  # noqa: BLE001 - the next role, else no server
            admin = None
    if admin is None:
        raise SystemExit("no PostgreSQL server on 127.0.0.1:5432 (use --db sqlite)")
    name = f"{name}_{os.getpid()}"
    admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
    admin.execute(f'CREATE DATABASE "{name}"')

    def drop():
        from facilitator.storage.db import dispose_all
        dispose_all()
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()
    return f"postgresql+psycopg://{user}@127.0.0.1:5432/{name}", drop


@contextmanager
def database(kind, folder, name):
    """The URL of a run's own database: ``kind`` "sqlite" (a file ``<name>.db`` in ``folder``) or
    "postgresql" (``postgres_database``); the app's engines closed, and the database dropped, after."""
    if kind == "sqlite":
        url, drop = f"sqlite:///{Path(folder) / (name + '.db')}", None
    else:
        url, drop = postgres_database(f"facilitator_{name}")
    try:
        yield url
    finally:
        from facilitator.storage.db import dispose_all
        dispose_all()
        if drop:
            drop()


class Counter:
    """The SQL round trips sent on an engine: statements, BEGIN (psycopg sends it as a statement
    of its own, the app on SQLite as the dialect's ``do_begin``), COMMIT, ROLLBACK, and the
    plain reads (``storage.db.read_row``: on the engine's readers or in a transaction's own
    connection)."""

    def __init__(self, engine):
        from sqlalchemy import event
        self.count = 0
        event.listen(engine, "before_cursor_execute", self._one)
        event.listen(engine, "commit", self._one)
        event.listen(engine, "rollback", self._one)
        event.listen(engine, "begin", self._one)  # BEGIN is sent apart (psycopg's; SQLite's do_begin)
        # the plain reads (``storage.db.read_row``) go around the engine
        from facilitator.storage import db
        read = db._read_row

        def counted(on, sql, params, within=None):
            if on is engine:
                self.count += 1
            return read(on, sql, params, within)
        db._read_row = counted

    def _one(self, *args, **kwargs):
        self.count += 1


#: one request as measured inside the app: wall s, CPU s, SQL round trips (None without a counter)
Sample = namedtuple("Sample", "wall cpu trips")


class Meter:
    """A WSGI wrapper that measures each request inside the app, from the moment the app gets it
    to its last byte (the test client's own work of building the request and reading the answer
    is left out): ``last``, the ``Sample`` of the last request; round trips counted on
    ``counter`` (a ``Counter``) when one is given."""

    #: when true, each request runs inside ``operator.call`` (a C function nothing else calls), so that
    #: ``valgrind --tool=callgrind --collect-atstart=no --toggle-collect=_operator_call*`` counts the
    #: instructions of the app's requests alone
    marked = False

    def __init__(self, wsgi_app, counter=None):
        self.app, self.counter = wsgi_app, counter
        self.last = Sample(0.0, 0.0, None)

    def __call__(self, environ, start_response):
        sql = self.counter.count if self.counter else 0
        w0, c0 = time.perf_counter(), time.thread_time()
        body = operator.call(self._serve, environ, start_response) if self.marked else \
            self._serve(environ, start_response)
        self.last = Sample(time.perf_counter() - w0, time.thread_time() - c0,
                           self.counter.count - sql if self.counter else None)
        return body

    def _serve(self, environ, start_response):
        answer = self.app(environ, start_response)
        try:
            return list(answer)
        finally:
            if hasattr(answer, "close"):
                answer.close()
