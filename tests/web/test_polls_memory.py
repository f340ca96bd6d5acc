"""Polls answered from memory (issue 21, item 6): a server alone on its SQLite file answers a
player's page's or a projector's poll without reading the database while no write since has
touched the rows its change check reads (``storage.changes``), and never misses a write: its
own (moves, take-backs, revocations, a statement of text), nor another process's (a command or
a second server on the same file, short-lived or running beside it). ``serve --workers N``
answers every poll from the database.

Every poll is held to what a 304 means by ``tests.pages.Phones``: the page the phone holds is
the very page the server draws now."""

import contextlib
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import bindparam, delete, select, text, update

from facilitator import services
from facilitator.rules.lyceum import Move
from facilitator.storage import changes
from facilitator.storage import db as storage_db
from facilitator.storage.models import Event, GameTable, MoveRow, Seat
from tests.pages import Phones

from .helpers import record

pytestmark = pytest.mark.db
SQLITE = pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
ROOT = Path(__file__).resolve().parents[2]

#: another process writing to the test's database: one command a line read from its input
#: ("move": the next player's rest or allocation; "revoke NAME"; "announce"), "done" after each
WRITER = r"""
import sys
from facilitator import services
from facilitator.rules.lyceum import Move
url, table = sys.argv[1], int(sys.argv[2])
engine = services.db.engine_for(url)
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    with services.db.session_scope(engine) as s:
        if words[0] == "move":
            loaded = services.load(s, table)
            nxt = loaded.game.next()
            if nxt["expects"] == "allocate":
                who = loaded.game.players[nxt["player"]]
                move = Move("allocate", player=who.name, sp={"creativity": who.pending})
            else:
                move = Move("rest", player=nxt["player"])
            services.record_move(s, table, move, loaded.seq)
        elif words[0] == "revoke":
            assert services.seats.revoke(s, table, words[1])
        elif words[0] == "announce":
            row = services.get_table(s, table)
            services.events.announce(s, services.events.get_event(s, row.event_id), "start")
    print("done", flush=True)
"""


class Writer:
    """Another process on the test's database, running until ``close``."""

    def __init__(self, app, table):
        self.proc = subprocess.Popen([sys.executable, "-c", WRITER, app.config["DATABASE_URL"], str(table)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8",
                                     cwd=ROOT)

    def __call__(self, command):
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        assert self.proc.stdout.readline().strip() == "done", f"the other process failed at {command!r}"

    def close(self):
        self.proc.stdin.close()
        assert self.proc.wait(timeout=60) == 0


def write_once(app, table, *commands):
    """Another process that writes and ends before the next poll."""
    done = subprocess.run([sys.executable, "-c", WRITER, app.config["DATABASE_URL"], str(table)],
                          input="".join(c + "\n" for c in commands), capture_output=True, text=True,
                          encoding="utf-8", cwd=ROOT, timeout=120)
    assert done.returncode == 0 and done.stdout.split() == ["done"] * len(commands), done.stderr


@pytest.fixture
def reads(monkeypatch):
    """How many change checks read the database (a list of one count)."""
    count = [0]
    real = storage_db._read_row

    def counted(*args):
        count[0] += 1
        return real(*args)
    monkeypatch.setattr(storage_db, "_read_row", counted)
    return count


def links_of(host, table):
    players = host.get(f"/api/v1/tables/{table}").get_json()["players"]
    return {p["name"]: "/" + p["page"].split("://", 1)[1].split("/", 1)[1] for p in players}


def next_player(app, table):
    from .helpers import load
    return load(app, table).game.next()["player"]


def test_every_write_of_the_server_itself_is_seen(app, host, table, anon_client, reads):
    """Moves, a take-back, a revocation and a statement of text the feed cannot read: each is
    seen by the next poll; between them, on SQLite, a poll reads nothing."""
    sqlite = app.config["DATABASE_URL"].startswith("sqlite")
    links = links_of(host, table)
    phones = Phones(app, links, "en")
    try:
        assert phones.poll() == set()
        before = reads[0]
        assert phones.poll() == set()
        assert (reads[0] == before) if sqlite else (reads[0] - before >= len(links))
        mover = next_player(app, table)
        record(app, table, Move("rest", player=mover))
        assert mover in phones.poll()
        before = reads[0]
        assert phones.poll() == set()
        assert (reads[0] == before) if sqlite else reads[0] > before
        with services.db.session_scope(app.extensions["facilitator.engine"]) as s:
            services.undo(s, table, services.load(s, table).seq)
        assert phones.poll() == set(links)  # a move taken back: every page drawn again
        # a write the feed cannot attribute to rows (text): every watched row counts as touched
        with app.extensions["facilitator.engine"].begin() as conn:
            conn.execute(text("UPDATE seat SET revoked_at = CURRENT_TIMESTAMP WHERE player = 'Вика'"))
        vika = phones.links["Вика"]
        assert anon_client.get(vika, headers={"If-None-Match": phones.held["Вика"][1]}).status_code == 410
    finally:
        phones.close()
    # a revocation through the organizer's page: 410 at the next poll
    links = links_of(host, table)
    phones = Phones(app, {"Аня": links["Аня"]}, "en")
    try:
        assert phones.poll() == set()
        with services.db.session_scope(app.extensions["facilitator.engine"]) as s:
            assert services.seats.revoke(s, table, "Аня")
        assert anon_client.get(phones.links["Аня"], headers={"If-None-Match": phones.held["Аня"][1]}).status_code == 410
    finally:
        phones.close()


@SQLITE
def test_a_write_by_a_process_that_came_and_went_is_never_missed(app, host, table, anon_client, reads):
    links = links_of(host, table)
    phones = Phones(app, links, "en")
    try:
        assert phones.poll() == set()
        mover = next_player(app, table)
        write_once(app, table, "move")  # a command run beside the server, ended before the poll
        assert mover in phones.poll()
        before = reads[0]
        assert phones.poll() == set() and reads[0] == before  # alone again: from memory
        write_once(app, table, "revoke Борис")
        assert anon_client.get(phones.links["Борис"], headers={"If-None-Match": phones.held["Борис"][1]}).status_code \
            == 410
    finally:
        phones.close()


@SQLITE
def test_while_another_process_runs_beside_it_every_poll_reads(app, host, table, anon_client, reads, monkeypatch):
    monkeypatch.setattr(changes, "LOOK_SECONDS", 0)
    links = links_of(host, table)
    phones = Phones(app, links, "en")
    feed = changes.feed(app.extensions["facilitator.engine"])
    writer = Writer(app, table)
    try:
        assert phones.poll() == set()
        for _ in range(3):
            mover = next_player(app, table)
            writer("move")
            assert mover in phones.poll()
            before = reads[0]
            assert phones.poll() == set()
            assert reads[0] - before >= len(links) and not feed.watch.alone()  # read, never remembered
        writer("revoke Вика")
        assert anon_client.get(phones.links["Вика"], headers={"If-None-Match": phones.held["Вика"][1]}).status_code \
            == 410
        del phones.links["Вика"]
    finally:
        writer.close()
        phones.close()
    assert feed.watch.alone()  # it is gone: memory again
    phones.poll()
    before = reads[0]
    assert phones.poll() == set() and reads[0] == before


@SQLITE
def test_the_projector_sees_another_process_write(app, host, anon_client, reads):
    from tests.events.helpers import new_event

    from .helpers import THREE, post_setup
    event_id = new_event(app)
    with services.db.session_scope(app.extensions["facilitator.engine"]) as s:
        table = services.events.add_tables(s, services.events.get_event(s, event_id), ["Стол 1"])[0].id
    assert post_setup(host, table, THREE).status == 303
    url = f"/e/{event_id}/standings.json"
    etag = anon_client.get(url).headers["ETag"]
    before = reads[0]
    assert anon_client.get(url, headers={"If-None-Match": etag}).status_code == 304 and reads[0] == before
    for command in ("move", "announce"):
        write_once(app, table, command)
        answer = anon_client.get(url, headers={"If-None-Match": etag})
        assert answer.status_code == 200 and answer.headers["ETag"] != etag, command
        etag = answer.headers["ETag"]
    assert answer.get_json()["announcement"]["step"] == 1


@SQLITE
def test_what_a_statement_touches(app):
    """The rows a statement touches, read from the statement as it is run (on SQLite: the only
    database whose polls are answered from memory)."""
    engine = app.extensions["facilitator.engine"]
    seen = []
    real = changes.touched

    def spy(statement, context):
        found = real(statement, context)
        if found:
            seen.append(found)
        return found
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(changes, "touched", spy)
        with engine.begin() as conn:
            conn.execute(update(GameTable).where(GameTable.id == 7).values(name="x"))
            conn.execute(update(Event).where(Event.id == bindparam("e")).values(version=Event.version + 1),
                         [{"e": 3}, {"e": 4}])
            conn.execute(update(Seat).where(Seat.id.in_([5, 6]), Seat.player == "x").values(player="y"))
            conn.execute(update(GameTable).where(GameTable.players.is_not(None)).values(rev=GameTable.rev + 1))
            conn.execute(update(GameTable).where((GameTable.id == 8) | (GameTable.id == 9)).values(name="x"))
            conn.execute(delete(Seat).where(Seat.id == 1))
            conn.execute(delete(MoveRow).where(MoveRow.id == 1))  # not a watched table
            conn.execute(text("UPDATE event SET name = 'x' WHERE id = 1"))
            conn.execute(update(MoveRow).where(MoveRow.id == 1).values(author="x"))
            conn.execute(text("WITH t AS (SELECT 1) UPDATE seat SET player = 'z' WHERE id IN (SELECT * FROM t)"))
            conn.execute(text("WITH t AS (SELECT 1) SELECT * FROM seat, t"))  # text: by the names, to be safe
            cte = select(GameTable.id).cte("t")
            conn.execute(select(cte))  # a query: it reads
    assert seen == [{("game_table", 7)}, {("event", 3), ("event", 4)}, {("seat", 5), ("seat", 6)},
                    {("game_table", None)}, {("game_table", None)}, changes.EVERYTHING, changes.EVERYTHING,
                    changes.EVERYTHING, changes.EVERYTHING]
    assert changes.feed(engine) is not None
    # other servers may share a PostgreSQL database: nothing is answered from memory there
    from sqlalchemy import create_engine
    assert changes.feed(create_engine("postgresql+psycopg://nobody@127.0.0.1:1/none")) is None


@SQLITE
def test_a_write_rolled_back_or_committed_after_a_read_keeps_no_stale_answer(app, host, table):
    """The feed's order: a read keeps the count of commits seen before it, so a commit that lands
    while it reads outdates what it read; a rollback touches nothing."""
    engine = app.extensions["facilitator.engine"]
    token = links_of(host, table)["Аня"].rsplit("/", 1)[1]
    first = services.seats.change_check(engine, token)
    assert services.seats.change_check(engine, token) is first  # kept
    feed = changes.feed(engine)
    with pytest.raises(RuntimeError):
        with services.db.session_scope(engine) as s:
            s.connection().execute(update(GameTable).where(GameTable.id == table).values(name="x"))
            raise RuntimeError
    assert services.seats.change_check(engine, token) is first  # rolled back: still kept
    real, done = storage_db._read_row, []

    def racing(*args):
        row = real(*args)  # read before the commit below
        if not done:
            done.append(1)
            with services.db.session_scope(engine) as s:
                s.connection().execute(update(GameTable).where(GameTable.id == table).values(rev=GameTable.rev + 1))
        return row
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(storage_db, "_read_row", racing)
        feed.forget()
        stale = services.seats.change_check(engine, token)
    assert stale.rev == first.rev  # read before the commit
    fresh = services.seats.change_check(engine, token)
    assert fresh is not stale and fresh.rev == first.rev + 1


# ----- the real server: one process, and --workers ---------------------------------------------
@contextlib.contextmanager
def serving(url, folder, workers):
    """``facilitator serve`` on ``url`` (SQLite), with ``workers`` processes, until the block ends."""
    from tests.processes import alive, children, descendants
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, DATABASE_URL=url, FACILITATOR_INSTANCE=str(folder / "served"))
    log = open(folder / "server.log", "w+")
    proc = subprocess.Popen([sys.executable, "-m", "facilitator", "serve", "--host", "127.0.0.1", "--port", str(port),
                             "--workers", str(workers), "--threads", "2", "--public-url", f"http://127.0.0.1:{port}"],
                            env=env, stdout=log, stderr=subprocess.STDOUT, cwd=folder)
    below = []
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, (folder / "server.log").read_text()
            assert time.monotonic() < deadline, "the server did not start within 60 s"
            try:
                if http_get(port, "/pin")[0] == 200 and (workers == 1 or len(children(proc.pid)) == workers):
                    break
            except OSError:
                pass
            time.sleep(0.1)
        below = descendants(proc.pid)
        yield port
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
        for pid in below:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        log.close()


def http_get(port, path, etag=None):
    """A GET on a new connection (with ``--workers`` any worker may take it): (status, ETag, body)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path, headers={"If-None-Match": etag} if etag else {})
        response = conn.getresponse()
        return response.status, response.getheader("ETag"), response.read().decode("utf-8")
    finally:
        conn.close()


def http_post(port, path, body, token):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("POST", path, body=json.dumps(body),
                     headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


class HttpPhones:
    """The players' pages as phones hold them, polled over HTTP; each 304 is checked against the
    page the server draws now (``Phones``'s rule)."""

    def __init__(self, port, links):
        self.port, self.links, self.held = port, {n: link + "?lang=en" for n, link in links.items()}, {}
        for name, link in self.links.items():
            status, etag, body = http_get(port, link)
            assert status == 200
            self.held[name] = (body, etag)

    def poll(self, names=None):
        drawn = set()
        for name in names or self.links:
            body, etag = self.held[name]
            status, new_etag, new_body = http_get(self.port, self.links[name], etag)
            if status == 304:
                now = http_get(self.port, self.links[name])[2]
                assert Phones.ETAG_ATTR.sub("", now) == Phones.ETAG_ATTR.sub("", body), f"{name}: a 304 for a changed page"
                self.held[name] = (body, new_etag or etag)
            else:
                assert status == 200, (name, status)
                drawn.add(name)
                self.held[name] = (new_body, new_etag)
        return drawn


def prepared(app, host, table):
    """The table's players' links, its host token and its game, then the test's own process lets
    go of the database (so a server started on it is alone there until another process comes)."""
    from .helpers import load
    links = links_of(host, table)
    with services.db.session_scope(app.extensions["facilitator.engine"]) as s:
        token = services.access.ensure_access(s, services.get_table(s, table)).token
    loaded = load(app, table)
    services.db.dispose_all()
    return links, token, loaded.game, loaded.seq


def next_move(game):
    nxt = game.next()
    if nxt["expects"] == "allocate":
        who = game.players[nxt["player"]]
        return Move("allocate", player=who.name, sp={"creativity": who.pending})
    return Move("rest", player=nxt["player"])


@SQLITE
@pytest.mark.server
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_one_server_alone_on_its_file_misses_no_write_of_another_process(app, host, table, tmp_path):
    links, _token, game, _seq = prepared(app, host, table)
    with serving(app.config["DATABASE_URL"], tmp_path, workers=1) as port:
        phones = HttpPhones(port, links)
        assert phones.poll() == set() and phones.poll() == set()
        for _ in range(3):  # a command beside the server records a move: the mover's page changes
            mover = next_move(game).player
            game.apply(next_move(game))
            write_once(app, table, "move")
            assert mover in phones.poll()
            assert phones.poll() == set()
        write_once(app, table, "revoke Вика")
        assert http_get(port, phones.links["Вика"], phones.held["Вика"][1])[0] == 410


@SQLITE
@pytest.mark.server
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks, and reads /proc")
def test_with_workers_every_poll_sees_the_other_workers_writes(app, host, table, tmp_path):
    links, token, game, seq = prepared(app, host, table)
    with serving(app.config["DATABASE_URL"], tmp_path, workers=2) as port:
        phones = HttpPhones(port, links)
        for _ in range(6):  # each move through whichever worker takes it, each poll too
            move = next_move(game)
            status, _body = http_post(port, f"/api/v1/tables/{table}/moves", {"after": seq, "move": move.to_dict()},
                                      token)
            assert status == 201
            game.apply(move)
            seq += 1
            assert move.player in phones.poll()
            assert phones.poll() == set()
