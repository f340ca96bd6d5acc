"""Two machines, one event (issue 22): two ``facilitator serve`` processes, each with its own
instance folder, on one PostgreSQL database, as behind a round-robin reverse proxy.

One tablet's requests alternate between the two servers, each request on the other one: the
PIN, the setup form, moves by form and by the outbox's batch endpoint, an undo each way, the
finish, the protocol download (asked of one server, its progress page polled on whichever
answers); an organizer's too (signing in on one, the dashboard and the backup on the other).
Nothing is refused for a session or a form token, and the log holds every move once.

The alternation is done by the test itself, port after port: what a round-robin proxy does,
without a proxy to install. Where nginx is installed (Debian: ``apt-get install nginx``), the
last test plays the same evening through the README's own nginx configuration (HTTPS, two
upstreams, ``--behind-proxy``), then stops one machine and goes on through the other. Two
servers starting at the same moment on a fresh database agree on one secret key: the first
test races two start-ups.
"""

import http.cookiejar
import json
import os
import random
import shutil
import socket
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from facilitator import services
from facilitator.rules.lyceum.simulate import choose_move
from facilitator.storage.models import Setting
from tests.pages import Page

from .helpers import fresh_database

pytestmark = [pytest.mark.db, pytest.mark.slow, pytest.mark.server]
PASSWORD = "two-servers-password"
PLAYERS = {  # the setup form's fields for three players (tests/web/helpers.py's THREE)
    "players-0-name": "Аня", "players-0-born": "2009-03-14", "players-0-character": "C01",
    "players-0-extra-energy": 3, "players-0-extra-intellect": 2,
    "players-1-name": "Борис", "players-1-born": "2009-05-01", "players-1-character": "C02",
    "players-1-extra-communication": 3, "players-1-extra-health": 2,
    "players-2-name": "Вика", "players-2-born": "2008-11-30", "players-2-character": "C06",
    "players-2-extra-creativity": 3, "players-2-extra-energy": 2,
    "players-3-name": "",
}


# ----- a fresh database and two servers on it ------------------------------------------------------
@pytest.fixture
def fresh_postgres(tmp_path):
    """A PostgreSQL database with nothing in it, not even the schema (dropped afterwards)."""
    url, drop = fresh_database("postgresql", tmp_path)
    try:
        yield url
    finally:
        services.db.dispose_all()
        drop()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def machine_env(url, folder):
    """One machine's environment: the shared database, an instance folder of its own."""
    env = dict(os.environ, DATABASE_URL=url, FACILITATOR_INSTANCE=str(folder / "instance"),
               FACILITATOR_ORGANIZER_PASSWORD=PASSWORD, PYTHONUNBUFFERED="1")
    env.pop("SECRET_KEY", None)
    return env


class Server:
    """``facilitator serve`` (waitress, one process) as an organizer starts it on one machine."""

    def __init__(self, url, folder, *options):
        folder.mkdir(parents=True, exist_ok=True)
        self.folder, self.port = folder, free_port()
        self.log = open(folder / "server.log", "wb")
        self.proc = subprocess.Popen([sys.executable, "-m", "facilitator", "serve", "--host", "127.0.0.1",
                                      "--port", str(self.port), "--public-url", "https://play.example.org", *options],
                                     cwd=folder, env=machine_env(url, folder), stdout=self.log,
                                     stderr=subprocess.STDOUT)

    def wait_ready(self, seconds=60):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.output()
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return
            except OSError:
                time.sleep(0.1)
        raise AssertionError(f"the server did not start within {seconds} s: {self.output()}")

    def output(self):
        return (self.folder / "server.log").read_text(errors="replace")

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


# ----- a browser whose requests a round-robin proxy spreads over the servers ---------------------------
class _Keep3xx(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # a redirect is an answer to look at, not followed


class Answer:
    """One response, shaped for ``tests.pages.Page`` (status, body, the path it answered), and
    the port of the server that answered it."""

    def __init__(self, status, headers, body, path, port):
        self.status_code, self.headers, self.body = status, headers, body
        upstream = headers.get("X-Upstream")  # behind the proxy: the server it chose (test configuration)
        self.port = int(upstream.rsplit(":", 1)[1]) if upstream else port
        self.request = type("Request", (), {"path": urllib.parse.urlsplit(path).path})()

    def get_data(self, as_text=False):
        return self.body.decode("utf-8") if as_text else self.body

    def json(self):
        return json.loads(self.body)


class Browser:
    """A tablet's (or organizer's) browser: one cookie jar; each request to the next of
    ``addresses`` (the two servers, as a round-robin proxy would), or to the one proxy."""

    def __init__(self, addresses):
        self.addresses, self.sent, self.last_page = addresses, 0, None
        self.jar = http.cookiejar.CookieJar()
        https = urllib.request.HTTPSHandler(context=ssl._create_unverified_context())  # the test's own certificate
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), https, _Keep3xx())
        self.log = []  # (method, path, port of the server that answered, status)

    def request(self, method, path, form=None, body=None, headers=None):
        address = self.addresses[self.sent % len(self.addresses)]
        self.sent += 1
        data, headers = None, dict(headers or {})
        if form is not None:
            data = urllib.parse.urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        elif body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if method != "GET" and self.last_page is not None:
            headers["Referer"] = self.last_page  # as a browser sends it (over HTTPS the form check wants it)
        port = urllib.parse.urlsplit(address).port
        req = urllib.request.Request(address + path, data=data, headers=headers, method=method)
        try:
            with self.opener.open(req, timeout=60) as response:
                answer = Answer(response.status, response.headers, response.read(), path, port)
        except urllib.error.HTTPError as err:
            answer = Answer(err.code, err.headers, err.read(), path, port)
        self.log.append((method, path, answer.port, answer.status_code))
        if method == "GET" and answer.headers.get("Content-Type", "").startswith("text/html"):
            self.last_page = address + path  # the page the next form is sent from
        return answer

    def get(self, path):
        return self.request("GET", path)

    def page(self, path):
        return Page(self.get(path))

    def submit(self, form, **changes):
        """Post one of a page's forms (its CSRF token included) as the browser would."""
        return self.request("POST", form.action, form=form.data(**changes))


def expect(answer, status, where=""):
    assert answer.status_code == status, (where, answer.status_code, answer.port,
                                          answer.get_data(as_text=True)[:1500])
    return answer


def moved_to(answer, path_end, status=303):
    expect(answer, status)
    assert answer.headers["Location"].split("?")[0].endswith(path_end), answer.headers["Location"]


# ----- the tests ----------------------------------------------------------------------------------------
#: a server's start in a process of its own: everything imported first, then, at the signal, the app
RACER = """
import sys
from facilitator.web import create_app
print("ready", flush=True)
sys.stdin.readline()
print(create_app().secret_key, flush=True)
"""


def test_servers_starting_together_on_a_fresh_database_agree_on_one_secret_key(fresh_postgres, tmp_path):
    racers = [subprocess.Popen([sys.executable, "-c", RACER], cwd=tmp_path, text=True,
                               env=machine_env(fresh_postgres, tmp_path / f"machine-{i}"),
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
              for i in range(2)]
    for racer in racers:
        assert racer.stdout.readline().strip() == "ready", racer.stderr.read()
    for racer in racers:  # both start on the database without its schema at the same moment
        racer.stdin.write("go\n")
        racer.stdin.flush()
    keys = []
    for racer in racers:
        out, err = racer.communicate(timeout=120)
        assert racer.returncode == 0, err[-3000:]
        keys.append(out.strip())
    assert len(set(keys)) == 1 and len(keys[0]) >= 32, keys
    engine = services.db.engine_for(fresh_postgres)
    with services.db.session_scope(engine) as s:
        assert s.get(Setting, services.keys.SETTING).value == keys[0]


def test_a_tablet_and_an_organizer_alternating_between_two_servers_lose_nothing(fresh_postgres, tmp_path):
    servers = [Server(fresh_postgres, tmp_path / "machine-a"), Server(fresh_postgres, tmp_path / "machine-b")]
    try:
        for server in servers:  # started at the same moment, on a database without even its schema
            server.wait_ready()
        play_an_event(servers, [f"http://127.0.0.1:{server.port}" for server in servers], fresh_postgres)
        for server in servers:
            assert "Traceback" not in server.output(), server.output()[-3000:]
    finally:
        for server in servers:
            server.stop()


def play_an_event(servers, addresses, url):
    """An organizer's and a tablet's evening, each request to the next of ``addresses``; returns
    the browsers, the event's dashboard path and the table's id."""
    organizer = Browser(addresses)
    # signing in: the form drawn by one server, sent to the other
    login = organizer.page("/organizer/login").form("/organizer/login")
    moved_to(organizer.submit(login, password=PASSWORD), "/organizer/")
    home = Page(expect(organizer.get("/organizer/?game=lyceum-16-25"), 200, "the organizer's home after signing in elsewhere"))
    created = organizer.submit(home.form("/organizer/events"), name="Кубок двух машин", date="2026-11-29",
                               tables=2)
    moved_to(created, "")
    event_path = urllib.parse.urlsplit(created.headers["Location"]).path
    event_id = int(event_path.rstrip("/").rsplit("/", 1)[1])
    expect(organizer.get(event_path), 200, "the dashboard")
    engine = services.db.engine_for(url)
    with services.db.session_scope(engine) as s:
        table = services.events.tables_of(s, event_id)[0]
        table_id, pin = table.id, table.pin

    tablet = Browser(addresses)
    # the PIN typed on a page one server drew, sent to the other
    moved_to(tablet.submit(tablet.page("/pin").form("/pin"), pin=pin), f"/table/{table_id}")
    moved_to(tablet.get(f"/table/{table_id}"), f"/table/{table_id}/setup", 302)
    setup = tablet.page(f"/table/{table_id}/setup")
    assert setup.status == 200, setup
    moved_to(tablet.submit(setup.form(f"/table/{table_id}/setup"), **PLAYERS), f"/table/{table_id}")

    sent = []  # the moves the tablet was told are recorded, in order (a form's: the fields it chose)
    # moves by form: each turn screen from one server, its form sent to the other
    turn = Page(expect(tablet.get(f"/table/{table_id}"), 200, "the turn screen"))
    rest = turn.form("/move/rest")
    moved_to(tablet.submit(rest), f"/table/{table_id}")
    sent.append({"type": "rest", "player": rest.fields["player"]})
    turn = Page(expect(tablet.get(f"/table/{table_id}"), 200, "the turn screen"))
    adjust = turn.form("/move/adjust")
    moved_to(tablet.submit(adjust, xp=100, reason="спецспособность"), f"/table/{table_id}")
    sent.append({"type": "adjust", "player": adjust.fields["player"], "xp": 100})
    turn = Page(expect(tablet.get(f"/table/{table_id}"), 200, "the turn screen"))
    moved_to(tablet.submit(turn.form(f"/table/{table_id}/undo")), f"/table/{table_id}")
    sent.pop()

    # the rest of the game through the outbox's batch endpoint (the browser's session, no token)
    with services.db.session_scope(engine) as s:
        loaded = services.load(s, table_id, fresh=True)
        game, seq = loaded.game, loaded.seq
    rng = random.Random(22)
    batches = 0
    while game.next()["expects"] != "finish":
        items, after = [], seq
        while len(items) < 8 and game.next()["expects"] != "finish":
            move = choose_move(game, rng)
            try:
                game.apply(move)
            except Exception:  # noqa: BLE001 - a random redistribution the rules refuse: pick again
                continue
            items.append({"after": after, "move": move.to_dict(), "client_id": f"m-{after}"})
            after += 1
        answer = expect(tablet.request("POST", f"/api/v1/tables/{table_id}/moves/batch",
                                       body={"moves": items, "flash": True}), 200, "a batch")
        assert answer.json()["refused"] is None and len(answer.json()["recorded"]) == len(items)
        sent += [item["move"] for item in items]
        seq = answer.json()["seq"]
        batches += 1
        if batches == 2:  # an undo from the outbox too, sent twice (the second is a repeat)
            undo = {"moves": [{"after": seq, "undo": True, "client_id": f"u-{seq}"}]}
            for _ in range(2):
                answer = expect(tablet.request("POST", f"/api/v1/tables/{table_id}/moves/batch", body=undo),
                                200, "an undo by the outbox")
                assert answer.json()["refused"] is None
            sent.pop()
            seq = answer.json()["seq"]
            with services.db.session_scope(engine) as s:
                game = services.load(s, table_id, fresh=True).game
    assert batches >= 3

    # the finish: confirmed on a page one server drew, sent to the other
    finish = Page(expect(tablet.get(f"/table/{table_id}/finish"), 200, "the finish page"))
    moved_to(tablet.submit(finish.form("/move/finish")), f"/table/{table_id}/final")
    sent.append({"type": "finish"})
    expect(tablet.get(f"/table/{table_id}/final"), 200, "the final screen")

    # the protocol: asked of one server, its progress page polled on whichever answers, until
    # each server has sent it once (each makes its own: the cache is per machine)
    answers, served = [], set()
    deadline = time.monotonic() + 90
    while len(served) < 2 and time.monotonic() < deadline:
        answer = tablet.get(f"/table/{table_id}/protocol.pdf")
        answers.append((answer.port, answer.status_code))
        assert answer.status_code in (200, 202), answer.get_data(as_text=True)[:1500]
        if answer.status_code == 200:
            assert answer.body.startswith(b"%PDF") and answer.headers["Content-Type"] == "application/pdf"
            served.add(answer.port)
        else:
            assert answer.headers["Refresh"] == "1"  # the progress page asks again by itself
            time.sleep(1)
    assert served == {server.port for server in servers}, answers

    # the organizer: the dashboard and the event's backup, each from a server
    expect(organizer.get(event_path), 200, "the dashboard after the game")
    backup = expect(organizer.get(f"/organizer/events/{event_id}/backup.json"), 200, "the backup").json()

    # both servers answered every kind of request, and none was refused
    assert {port for _m, _p, port, _s in tablet.log + organizer.log} == {server.port for server in servers}
    refused = [entry for entry in tablet.log + organizer.log if entry[3] not in (200, 201, 202, 302, 303)]
    assert refused == []
    # the log holds every move the tablet was told is recorded, once, in order
    with services.db.session_scope(engine) as s:
        loaded = services.load(s, table_id, fresh=True)
        undone = {row.undoes for row in loaded.log if row.kind == "undo"}
        stored = [json.loads(row.data) for row in loaded.log if row.kind == "move" and row.seq not in undone]
        assert loaded.game.finished and not loaded.broken
    assert len(undone) == 2
    assert [{key: move.get(key) for key in wanted} for move, wanted in zip(stored, sent)] == sent
    assert len(stored) == len(sent)
    # and the backup, made by a server the moves did not all go through, holds the same log
    assert [len(kept["log"]) for kept in backup["tables"]] == [len(loaded.log), 0]
    print("protocol download (server port, status):", answers)
    return organizer, tablet, event_path, table_id


# ----- the same through the README's nginx configuration ------------------------------------------------
README = Path(__file__).resolve().parents[2] / "README.md"


def readme_nginx(ports, http_port, https_port, folder):
    """The README's nginx configuration, as it stands, pointed at this test's two servers, ports
    and certificate; the only addition names the server that answered (``X-Upstream``)."""
    text = README.read_text(encoding="utf-8")
    assert text.count("```nginx\n") == 1, "the README shows one nginx configuration"
    conf = text.split("```nginx\n", 1)[1].split("```", 1)[0]
    for given, ours in (("192.168.1.20:8000", f"127.0.0.1:{ports[0]}"), ("192.168.1.21:8000", f"127.0.0.1:{ports[1]}"),
                        ("listen 80;", f"listen 127.0.0.1:{http_port};"),
                        ("listen 443 ssl;", f"listen 127.0.0.1:{https_port} ssl;"),
                        ("/etc/ssl/play.example.org/fullchain.pem", str(folder / "cert.pem")),
                        ("/etc/ssl/play.example.org/privkey.pem", str(folder / "key.pem")),
                        ("proxy_pass http://facilitator;",
                         "proxy_pass http://facilitator;\n        add_header X-Upstream $upstream_addr always;")):
        assert given in conf, given
        conf = conf.replace(given, ours)
    temp = "\n".join(f"    {kind}_temp_path {folder / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi",
                                                                             "scgi"))
    return (f"daemon off;\nmaster_process off;\npid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'};\n"
            f"events {{}}\nhttp {{\n    access_log off;\n{temp}\n{conf}}}\n")


@pytest.fixture
def nginx(tmp_path):
    """A function starting nginx on the README's configuration in front of two ports."""
    if shutil.which("nginx") is None or shutil.which("openssl") is None:
        pytest.skip("nginx (Debian: apt-get install nginx) and openssl are needed for the proxy test")
    folder = tmp_path / "proxy"
    folder.mkdir()
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                    "/CN=play.example.org", "-keyout", str(folder / "key.pem"), "-out", str(folder / "cert.pem")],
                   check=True, capture_output=True)
    started = []

    def start(ports):
        https_port = free_port()
        (folder / "nginx.conf").write_text(readme_nginx(ports, free_port(), https_port, folder))
        proc = subprocess.Popen(["nginx", "-p", str(folder), "-c", str(folder / "nginx.conf")],
                                stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        started.append(proc)
        deadline = time.monotonic() + 10
        while True:
            assert proc.poll() is None, (folder / "error.log").read_text()
            try:
                socket.create_connection(("127.0.0.1", https_port), timeout=0.5).close()
                return f"https://127.0.0.1:{https_port}"
            except OSError:
                assert time.monotonic() < deadline, "nginx did not start"
                time.sleep(0.1)
    yield start
    for proc in started:
        proc.terminate()
        proc.wait(10)


def test_behind_the_readmes_nginx_a_tablet_loses_nothing_even_when_a_machine_stops(fresh_postgres, tmp_path,
                                                                                  nginx):
    servers = [Server(fresh_postgres, tmp_path / f"machine-{name}", "--behind-proxy", "--proxy", "127.0.0.1")
               for name in "ab"]
    try:
        for server in servers:
            server.wait_ready()
        proxy = nginx([server.port for server in servers])
        organizer, tablet, event_path, table_id = play_an_event(servers, [proxy], fresh_postgres)
        # over HTTPS through the proxy, the session cookie is Secure (X-Forwarded-Proto believed)
        assert [cookie.secure for cookie in tablet.jar] == [True]

        servers[1].stop()  # machine B goes away: the proxy sends everything to A
        for path in (f"/table/{table_id}/final", f"/table/{table_id}/protocol.pdf"):
            for _ in range(2):
                answer = tablet.get(path)
                assert answer.status_code in (200, 202) and answer.port == servers[0].port, answer.status_code
        for _ in range(2):
            assert expect(organizer.get(event_path), 200).port == servers[0].port
        assert "Traceback" not in servers[0].output(), servers[0].output()[-3000:]
    finally:
        for server in servers:
            if server.proc.poll() is None:
                server.stop()
