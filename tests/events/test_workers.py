"""Several server processes (issue 11, item 9): ``facilitator serve --workers 4`` (four forked
processes of its hardened waitress server on one listening socket) boots on a FRESH database —
the one-time start-up work (migrations, shipped packs, password) done once — and tables are
played from all four workers at once: nothing lost or doubled, every stale or repeated write
refused, no server error, the wrong-password throttle counted across them, and each of the four
processes seen answering connections of its own."""

import http.client
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time

import pytest

from facilitator.rules.lyceum.ruleset import sample_pack
from facilitator.rules.lyceum import Game
from facilitator.rules.errors import IllegalMoveError
from facilitator.rules.lyceum.simulate import choose_move, random_setup

from tests.processes import children, connection_holders

from .helpers import fresh_database

pytestmark = [pytest.mark.db, pytest.mark.slow, pytest.mark.server,
              pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks, and reads /proc")]
PASSWORD = "workers-test-password"
WORKERS = 4
TABLES = 6
MOVES = 25


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, url, folder):
        self.port = free_port()
        self.log = open(folder / "server.log", "wb")
        env = dict(os.environ, DATABASE_URL=url, FACILITATOR_INSTANCE=str(folder / "instance"),
                   FACILITATOR_ORGANIZER_PASSWORD=PASSWORD, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen([sys.executable, "-m", "facilitator", "serve", "--workers", str(WORKERS),
                                      "--threads", "4", "--host", "127.0.0.1", "--port", str(self.port)],
                                     cwd=folder, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, (folder / "server.log").read_text()
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return
            except OSError:
                time.sleep(0.2)
        raise AssertionError("the server did not start within 60 s")

    def request(self, method, path, body=None, token=None, address=None):
        """One request on a new connection (so the kernel hands it to any of the workers)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = conn.getresponse()
        data = response.read()
        conn.close()
        return response.status, json.loads(data) if data else None

    def serving_workers(self, most=400):
        """The worker processes seen holding a connection each: keep-alive connections are
        opened one after another, each answered once and kept open, until every worker holds
        one of them (or ``most`` are open); the kernel hands each to whichever worker accepts
        it first."""
        workers = children(self.proc.pid)
        opened = []
        try:
            for n in range(1, most + 1):
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                opened.append(conn)
                conn.request("GET", "/pin")
                conn.getresponse().read()
                if n % 8 == 0 or n == most:
                    held = connection_holders(self.port, workers)
                    if all(held.values()):
                        break
            return workers, {pid for pid, count in held.items() if count}
        finally:
            for conn in opened:
                conn.close()

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


def legal(game, rng):
    while True:
        move = choose_move(game, rng)
        try:
            game.check(move)
            return move
        except IllegalMoveError:
            continue


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_four_workers_on_a_fresh_database_lose_and_double_nothing(kind, tmp_path):
    url, drop = fresh_database(kind, tmp_path)
    server = Server(url, tmp_path)
    errors, statuses = [], []
    try:
        status, body = server.request("POST", "/api/v1/session", {"password": PASSWORD})
        assert status == 201, body
        organizer = body["token"]
        status, event = server.request("POST", "/api/v1/events", {"name": "Кубок четырёх", "tables": TABLES, "game": "lyceum-16-25"},
                                       token=organizer)
        assert status == 201, event
        pack = sample_pack()
        games = {}
        for i, table in enumerate(event["tables"]):
            players = random_setup(pack, random.Random(i), 3 + i % 2)
            status, body = server.request("PUT", f"/api/v1/tables/{table['id']}/players",
                                          {"rev": table["rev"], "players": [p.to_dict() for p in players]},
                                          token=table["token"])
            assert status == 200, body
            games[table["id"]] = (table["token"], Game(pack, players))

        def play(table_id, token, game, seed):
            rng = random.Random(seed)
            for _ in range(MOVES):
                if game.finished:
                    return
                move = legal(game, rng)
                after = len(game.history)
                body = {"after": after, "move": move.to_dict()}
                # the same move sent three times at once (a double tap from three tablets)
                answers = []
                threads = [threading.Thread(target=lambda: answers.append(
                    server.request("POST", f"/api/v1/tables/{table_id}/moves", body, token=token)))
                    for _ in range(3)]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
                codes = sorted(a[0] for a in answers)
                statuses.extend(codes)
                if codes != [201, 409, 409]:
                    errors.append(f"table {table_id} move {after + 1}: {answers}")
                    return
                if any(a[0] == 409 and a[1]["error"]["code"] != "already_recorded" for a in answers):
                    errors.append(f"table {table_id}: a repeat not said to be already recorded: {answers}")
                game.apply(move)
                # a stale write (a screen drawn before the move) is refused and records nothing
                stale = server.request("POST", f"/api/v1/tables/{table_id}/moves",
                                       {"after": after, "move": {"type": "pass", "player": "nobody"}}, token=token)
                statuses.append(stale[0])
                if stale[0] != 409 or stale[1]["error"]["code"] != "stale":
                    errors.append(f"table {table_id}: a stale write answered {stale}")

        players = [threading.Thread(target=play, args=(tid, token, game, tid)) for tid, (token, game) in games.items()]
        for t in players:
            t.start()
        for t in players:
            t.join()
        assert errors == []
        assert not [s for s in statuses if s >= 500]
        for table_id, (token, game) in games.items():
            status, record = server.request("GET", f"/api/v1/tables/{table_id}/record", token=token)
            assert status == 200
            recorded = [{k: v for k, v in m.items() if k != "at"} for m in record["moves"]]
            assert recorded == [m.to_dict() for m in game.moves], table_id  # nothing lost, nothing doubled

        # the throttle is shared: six wrong passwords, whichever worker takes each
        answers = [server.request("POST", "/api/v1/session", {"password": "wrong"})[0] for _ in range(6)]
        assert answers[:5] == [401] * 5 and answers[5] == 429
        workers, serving = server.serving_workers()
        assert len(workers) == WORKERS and serving == set(workers)
        log = (tmp_path / "server.log").read_text(errors="replace")
        assert "Traceback" not in log, log[-3000:]
    finally:
        server.stop()
        drop()
