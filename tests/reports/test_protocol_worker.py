"""Every game's protocol PDF is laid out in the worker process and kept until the table's log
changes (issue 17.6), as «16/25»'s was: the request threads never render one. A worker that died
is replaced on the next request (the protocols and the access sheet keep printing), and
stopping the server with SIGTERM stops its worker processes too."""

import io
import os
import signal
import socket
import subprocess
import sys
import time

import pytest
from pypdf import PdfReader

from facilitator import services
from facilitator.rules import registry
from facilitator.storage import session_scope
from tests.processes import descendants

from .game_records import GAMES, LYCEUM, game_record, names_of

pytestmark = [pytest.mark.db, pytest.mark.server]

#: each game's table name here (its protocol prints it)
TABLE = {"lyceum-16-25": "Стол Ω", "alter-ego-3": "Pöytä Ω", "new-angeles": "Table Ω"}


@pytest.fixture
def db_url(tmp_path, tmp_path_factory):
    """The worker process and the file cache are the machine's, not the database's: these tests
    run on the embedded SQLite default only (the services' writes run on both elsewhere)."""
    import shutil

    import conftest as root  # tests/conftest.py: how a fresh database is made
    shutil.copyfile(root._sqlite_template(tmp_path_factory), tmp_path / "test.db")
    return f"sqlite:///{tmp_path / 'test.db'}"


def engine(app):
    return app.extensions["facilitator.engine"]


def imported(app, data, name, event=None):
    """A table of the record's game holding the record's moves; its id."""
    with session_scope(engine(app)) as s:
        event_id = None
        if event:
            rules = registry.of_record(data)
            pack_row = services.packs.ensure_sample(s, rules.key)
            event_id = services.events.create_event(s, event, "2026-05-01", pack_row).id
        table = services.import_record(s, data, name, event_id=event_id)
        services.access.ensure_access(s, table)
        return table.id


def record_move(app, table_id, move):
    with session_scope(engine(app)) as s:
        loaded = services.load(s, table_id)
        services.record_move(s, table_id, loaded.ruleset.read_move(move), loaded.seq)


def pdf_text(data):
    return "".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def cached_files():
    return sorted(p.name for p in services.exports.cache_folder().glob("*.pdf"))


@pytest.fixture
def renders(monkeypatch):
    """What was sent to the worker process to be made; and no protocol PDF can be laid out in
    this (the server's) process: each game's own printer refuses here, the worker has its own."""
    sent = []
    real = services.exports._submit

    def counting(fn, *args):
        sent.append(args)
        return real(fn, *args)
    monkeypatch.setattr(services.exports, "_submit", counting)

    def not_here(*args, **kwargs):
        raise AssertionError("a protocol PDF was laid out in the server's own process")
    for module in ("facilitator.games.lyceum.pdf", "facilitator.games.alterego.words", "facilitator.games.newangeles.words"):
        monkeypatch.setattr(f"{module}.table_protocol_pdf", not_here)
    return sent


@pytest.mark.parametrize("game", GAMES)
def test_every_games_protocol_pdf_is_made_in_the_worker_and_kept_until_a_move(app, client, renders, game):
    data = game_record(game)
    last = data["moves"].pop()  # the game's last move is made after the first download
    table_id = imported(app, data, TABLE[game], event="Кубок Ω")
    first = client.get(f"/table/{table_id}/protocol.pdf")
    assert first.status_code == 200 and first.mimetype == "application/pdf"
    text = pdf_text(first.data)
    assert TABLE[game] in text and "Кубок Ω" in text and names_of(data)[0] in text
    assert len(renders) == 1 and len(cached_files()) == 1

    again = client.get(f"/table/{table_id}/protocol.pdf")
    assert again.data == first.data and len(renders) == 1  # the kept file, not made again

    record_move(app, table_id, last)
    after_move = client.get(f"/table/{table_id}/protocol.pdf")
    assert after_move.status_code == 200 and after_move.data != first.data
    assert len(renders) == 2 and len(cached_files()) == 2  # a new position, a new protocol


@pytest.mark.parametrize("game", GAMES)
def test_finishing_any_game_over_the_api_starts_its_protocol(app, client, renders, game):
    app.config["PREPARE_PROTOCOLS"] = True
    data = game_record(game)
    last = data["moves"].pop()
    table_id = imported(app, data, TABLE[game])
    with session_scope(engine(app)) as s:
        after = services.load(s, table_id).seq
    response = client.post(f"/api/v1/tables/{table_id}/moves", json={"after": after, "move": last, "client_id": "end"})
    assert response.status_code == 201, response.get_json()
    assert len(renders) == 1  # started at the finish, before anyone asked
    app.config["PROTOCOL_WAIT_SECONDS"] = 0.0
    deadline = time.monotonic() + 120
    while True:  # the host's download: the progress page until the worker is done
        page = client.get(f"/table/{table_id}/protocol.pdf")
        if page.status_code != 202 or time.monotonic() > deadline:
            break
        assert page.headers["Refresh"] == "1"
        time.sleep(0.2)
    assert page.status_code == 200 and page.data.startswith(b"%PDF") and len(renders) == 1


def test_a_progress_page_asks_again_the_later_the_more_protocols_are_ahead(app, client, monkeypatch):
    """Forty hosts asking every second for protocols queued behind each other would cost the
    server more than the PDFs: the progress page asks again after a second for the protocol
    being made, one more for each protocol to be made before it."""
    from concurrent.futures import Future

    class NeverDone:  # a worker busy for as long as the test runs
        def submit(self, *args, **kwargs):
            return Future()
    monkeypatch.setattr(services.exports, "_executor", lambda: NeverDone())
    app.config["PROTOCOL_WAIT_SECONDS"] = 0.0
    tables = [imported(app, game_record(game), TABLE[game]) for game in GAMES]
    refresh = [client.get(f"/table/{t}/protocol.pdf").headers["Refresh"] for t in tables]
    assert refresh == ["1", "2", "3"]
    page = client.get(f"/table/{tables[2]}/protocol.pdf")
    assert page.status_code == 202 and '<meta http-equiv="refresh" content="3">' in page.get_data(as_text=True)


def worker_pid():
    """The worker process's id, asked of the worker itself (starting it if there is none)."""
    return services.exports.in_worker("os", "getpid")


def gone(pid):
    """True once a process has ended (a zombie not yet reaped counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def kill(pid):
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while not gone(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert gone(pid)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_killed_worker_is_replaced_on_the_next_protocol_and_access_sheet(app, client):
    app.config["PRINT_INLINE"] = False  # the access sheet in the worker process, as a server does
    data = game_record(LYCEUM)
    table_id = imported(app, data, "Стол 1", event="Кубок")
    with session_scope(engine(app)) as s:
        event_id = services.get_table(s, table_id).event_id
    dead = worker_pid()
    kill(dead)
    time.sleep(0.3)  # the pool's manager thread sees its worker die and marks the pool broken

    protocol = client.get(f"/table/{table_id}/protocol.pdf")
    assert protocol.status_code == 200 and "Стол 1" in pdf_text(protocol.data)
    dead = worker_pid()
    kill(dead)
    sheet = client.get(f"/organizer/events/{event_id}/access.pdf")
    assert sheet.status_code == 200 and "Стол 1" in pdf_text(sheet.data)
    assert worker_pid() != dead


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_protocol_whose_worker_dies_while_making_it_is_made_again(app, client):
    data = game_record(LYCEUM)
    table_id = imported(app, data, "Стол 2")
    working = worker_pid()
    app.config["PROTOCOL_WAIT_SECONDS"] = 0.0
    assert client.get(f"/table/{table_id}/protocol.pdf").status_code == 202  # on its way
    kill(working)
    app.config["PROTOCOL_WAIT_SECONDS"] = 120
    protocol = client.get(f"/table/{table_id}/protocol.pdf")
    assert protocol.status_code == 200 and "Стол 2" in pdf_text(protocol.data)


# ----- the server's own processes ------------------------------------------------------------------
def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http(port, path, cookie=None):
    import http.client
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", path, headers={"Cookie": cookie} if cookie else {})
        response = conn.getresponse()
        return response.status, response.getheader("Set-Cookie"), response.read()
    finally:
        conn.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("workers", [1, 2], ids=["one-process", "two-workers"])
def test_sigterm_stops_the_server_with_its_worker_processes(tmp_path, workers):
    url = f"sqlite:///{tmp_path / 'serve.db'}"
    from facilitator.services.db import engine_for, startup
    from facilitator.storage.db import dispose_all
    db = engine_for(url)
    startup(db)
    with session_scope(db) as s:
        table = services.import_record(s, game_record(LYCEUM), "Стол 1")
        services.access.ensure_access(s, table)
        table_id, token = table.id, table.token
    dispose_all()
    port = free_port()
    env = dict(os.environ, DATABASE_URL=url, FACILITATOR_INSTANCE=str(tmp_path / "instance"),
               FACILITATOR_ORGANIZER_PASSWORD="sigterm-test-password")
    log = open(tmp_path / "server.log", "w+")
    server = subprocess.Popen([sys.executable, "-m", "facilitator", "serve", "--host", "127.0.0.1", "--port",
                               str(port), "--workers", str(workers), "--threads", "4",
                               "--public-url", f"http://127.0.0.1:{port}"],
                              env=env, stdout=log, stderr=subprocess.STDOUT, cwd=tmp_path)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        status, cookie, _body = http(port, f"/t/{token}")
        assert status == 303 and cookie
        cookie = cookie.split(";", 1)[0]
        while time.monotonic() < deadline:  # the protocol: made in the worker process
            status, _cookie, body = http(port, f"/table/{table_id}/protocol.pdf", cookie)
            if status != 202:
                break
            time.sleep(0.3)
        assert status == 200 and body.startswith(b"%PDF")
        children = descendants(server.pid)
        assert len(children) >= (2 if workers == 1 else 4), children  # (server workers,) a PDF worker, its helper

        server.send_signal(signal.SIGTERM)
        assert server.wait(30) == 0
        deadline = time.monotonic() + 5
        while [p for p in children if not gone(p)] and time.monotonic() < deadline:
            time.sleep(0.1)
        assert [p for p in children if not gone(p)] == []
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)
        log.seek(0)
        print(log.read()[-3000:])
        log.close()
