"""Time to record one move over HTTP on the host's tablet (issue 3): the move form's POST
to ``/table/<id>/move/<kind>`` plus following its redirect to the rendered turn screen
``GET /table/<id>``, exactly what a tablet waits for after a tap.

    python3 benchmarks/bench_http_moves.py [--moves 200] [--tables 100] [--db sqlite|postgresql]

Two situations, each on its own fresh database (a temporary SQLite file, the default, or a
database created for the run on the local PostgreSQL server and dropped after it), served by
``facilitator serve`` (waitress) in a subprocess on 127.0.0.1:

* **round 10**: tables whose game stands at the start of round 10 (the longest logs the
  server replays); moves are made on one table until its game is finished, then on the next.
* **100 active tables**: 100 tables with games at rounds 1 to 10 (random legal games of
  ``simulate.random_game`` cut at a random turn, imported with ``services.import_record``);
  each move goes to a table picked at random.

The client is a plain keep-alive ``http.client`` connection that signs in as the organizer,
keeps the session cookie, reads the CSRF token and sequence number from each rendered screen
(as the tablet's forms carry them) and posts the move a plausible host would make; a local
copy of each game (the rules engine) picks legal moves. Every answer is checked: the POST
must redirect, the screen must show the next sequence number.

Reports median and 95th percentile (and the POST/GET split) beside the target: under 50 ms
median. Loopback only, bounded (a deadline stops it), stops the server itself.
"""

import argparse
import http.client
import http.cookies
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from facilitator.rules.lyceum.ruleset import sample_pack  # noqa: E402
from facilitator.rules.lyceum import Game, Record  # noqa: E402
from facilitator.rules.errors import IllegalMoveError  # noqa: E402
from facilitator.rules.lyceum.simulate import choose_move, random_game  # noqa: E402
from facilitator.rules.lyceum.skills import SKILLS  # noqa: E402
from benchmarks.rig import postgres_database  # noqa: E402

TARGET_MS = 50
DEADLINE_SECONDS = 300
PASSWORD = "bench-organizer-password"
CSRF = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')
SEQ = re.compile(r'class="actions" data-seq="(\d+)"')
ERROR = re.compile(r'data-flash="error"[^>]*>(.*?)</div>', re.S)


# ----- games to serve ------------------------------------------------------------------------
def cut_game(pack, seed, round_no, players=4):
    """A random legal game stopped just before a main move of ``round_no`` (at a random turn
    of that round): ``(record, game)`` with the game replayed up to the cut."""
    full, _ = random_game(pack, seed=seed, players=players)
    rng = random.Random(seed)
    want_turn = rng.randrange(players)
    game = Game(pack, full.players, table=full.table)
    for i, move in enumerate(full.moves):
        nxt = game.next()
        upcoming = game._next_turn()
        if nxt and nxt["expects"] == "main" and upcoming and upcoming[0] == round_no and upcoming[1] >= want_turn:
            return Record(table=full.table, pack=pack, players=full.players, moves=full.moves[:i]), game
        game.apply(move)
    raise ValueError(f"game {seed} never reached round {round_no}")


def populate(url, instance, positions):
    """Import one table per ``(seed, round)``; returns ``[(table_id, game)]``."""
    from facilitator import services
    from facilitator.storage import session_scope
    from facilitator.storage.db import dispose_all
    from facilitator.web import create_app
    app = create_app({"DATABASE_URL": url, "INSTANCE_PATH": str(instance)})
    pack = sample_pack()
    tables = []
    with session_scope(app.extensions["facilitator.engine"]) as s:
        for i, (seed, round_no) in enumerate(positions):
            record, game = cut_game(pack, seed, round_no)
            record.table = f"Стол {i + 1}"
            tables.append((services.import_record(s, record.to_dict()).id, game))
    dispose_all()
    return tables


# ----- the server ------------------------------------------------------------------------------
def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``facilitator serve`` on a loopback port, stopped on exit."""

    def __init__(self, url, instance):
        self.port = free_port()
        self.log = open(Path(instance) / "server.log", "wb")
        env = dict(os.environ, DATABASE_URL=url, FACILITATOR_INSTANCE=str(instance),
                   FACILITATOR_ORGANIZER_PASSWORD=PASSWORD)
        self.proc = subprocess.Popen([sys.executable, "-m", "facilitator", "serve", "--host", "127.0.0.1",
                                      "--port", str(self.port)], cwd=instance, env=env,
                                     stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"the server exited: see {self.log.name}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise SystemExit("the server did not start within 30 s")

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self.log.close()


# ----- the tablet ------------------------------------------------------------------------------
class Tablet:
    """A browser reduced to what a move needs: one keep-alive connection and a cookie jar."""

    def __init__(self, port):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.cookies = http.cookies.SimpleCookie()

    def request(self, method, path, form=None):
        headers = {"Cookie": "; ".join(f"{k}={m.value}" for k, m in self.cookies.items())}
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        self.conn.request(method, path, body=body, headers=headers)
        response = self.conn.getresponse()
        text = response.read().decode("utf-8")
        for value in response.headers.get_all("Set-Cookie") or []:
            self.cookies.load(value)
        return response.status, response.headers.get("Location"), text

    def sign_in(self):
        status, _, page = self.request("GET", "/organizer/login")
        status, location, page = self.request("POST", "/organizer/login",
                                              {"csrf_token": CSRF.search(page).group(1), "password": PASSWORD})
        if status != 303:
            raise SystemExit(f"organizer sign-in failed with HTTP {status}")


def move_form(move, after, csrf):
    """The form the turn or draw screen posts for ``move`` (field names of web/forms.py)."""
    form = {"csrf_token": csrf, "after": after}
    if move.player is not None:
        form["player"] = move.player
    if move.type in ("share", "pass", "finish"):
        form["type"] = move.type
    if move.type == "draw":
        form.update(color=move.color, card=move.card, decision=move.decision, source="deck")
    for prefix, values in (("redistribute", move.redistribute), ("sp", move.sp)):
        for skill in SKILLS:
            if values and values.get(skill):
                form[f"{prefix}-{skill}"] = values[skill]
    return form


class Table:
    """One table as the benchmark's tablet sees it, with a local copy of its game."""

    def __init__(self, table_id, game, rng):
        self.id, self.game, self.rng = table_id, game, rng
        self.seq = len(game.moves)
        self.csrf = None

    def open(self, tablet):
        status, _, page = tablet.request("GET", f"/table/{self.id}")
        self.read_screen(status, page)

    def read_screen(self, status, page):
        if status != 200:
            raise SystemExit(f"table {self.id}: the turn screen answered HTTP {status}")
        self.csrf = CSRF.search(page).group(1)
        self.seq = int(SEQ.search(page).group(1))

    def next_move(self):
        while True:
            move = choose_move(self.game, self.rng)
            try:
                self.game.check(move)
                return move
            except IllegalMoveError:  # a random redistribution the rules refuse: pick again
                continue

    def play(self, tablet):
        """One move, timed from the tap to the rendered screen: ``(total, post, get)`` in s."""
        move = self.next_move()
        form = move_form(move, self.seq, self.csrf)
        t0 = time.perf_counter()
        status, location, page = tablet.request("POST", f"/table/{self.id}/move/{move.type}", form)
        t1 = time.perf_counter()
        if status != 303:
            error = ERROR.search(page)
            raise SystemExit(f"table {self.id}: {move.describe()} refused with HTTP {status}: "
                             f"{error.group(1).strip() if error else page[:300]}")
        status, _, page = tablet.request("GET", location)
        t2 = time.perf_counter()
        self.game.apply(move)
        if self.game.finished:
            if status != 200 or "/final" not in location:
                raise SystemExit(f"table {self.id}: the finished game did not show the final screen")
        else:
            before = self.seq
            self.read_screen(status, page)
            if self.seq != before + 1:
                raise SystemExit(f"table {self.id}: move #{before + 1} expected, the screen shows #{self.seq}")
        return t2 - t0, t1 - t0, t2 - t1


# ----- the two situations ------------------------------------------------------------------------
def run(label, db, positions, moves, pick, seed, deadline):
    with tempfile.TemporaryDirectory(prefix="bench-http-") as tmp:
        instance = Path(tmp) / "instance"
        instance.mkdir()
        if db == "sqlite":
            db_url, drop = f"sqlite:///{Path(tmp) / 'bench.db'}", None
        else:
            db_url, drop = postgres_database("facilitator_bench_http")
        tables = populate(db_url, instance, positions)
        server = Server(db_url, instance)
        try:
            tablet = Tablet(server.port)
            tablet.sign_in()
            rng = random.Random(seed)
            live = [Table(tid, game, random.Random(seed + i)) for i, (tid, game) in enumerate(tables)]
            warm = live.pop()  # one extra table: the first requests compile templates, not counted
            warm.open(tablet)
            for _ in range(5):
                warm.play(tablet)
            samples = []
            current = None
            while len(samples) < moves:
                if time.monotonic() > deadline:
                    raise SystemExit(f"{label}: deadline of {DEADLINE_SECONDS} s reached after {len(samples)} moves")
                if not live:
                    raise SystemExit(f"{label}: ran out of unfinished tables after {len(samples)} moves")
                table = pick(live, current, rng)
                if table is not current:
                    table.open(tablet)
                    current = table
                samples.append(table.play(tablet))
                if table.game.finished:
                    live.remove(table)
                    current = None
        finally:
            server.stop()
            if drop is not None:
                drop()
    return label, samples


def same_table_until_finished(live, current, rng):
    return current if current is not None else live[0]


def random_table(live, current, rng):
    return rng.choice(live)


def percentile(values, q):
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, -(-len(ordered) * q // 100) - 1))]


def report(label, samples):
    ms = lambda xs: [x * 1000 for x in xs]  # noqa: E731
    total = ms([s[0] for s in samples])
    post = ms([s[1] for s in samples])
    get = ms([s[2] for s in samples])
    median = statistics.median(total)
    verdict = "meets" if median < TARGET_MS else "MISSES"
    print(f"{label}: {len(samples)} moves")
    print(f"  tap to rendered screen: median {median:.1f} ms, p95 {percentile(total, 95):.1f} ms "
          f"(min {min(total):.1f}, max {max(total):.1f})   target: median < {TARGET_MS} ms -> {verdict}")
    print(f"  of which POST (record the move) median {statistics.median(post):.1f} ms, p95 {percentile(post, 95):.1f};"
          f" GET (render the turn screen) median {statistics.median(get):.1f} ms, p95 {percentile(get, 95):.1f}")
    return median < TARGET_MS


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=200, help="timed moves per situation (default 200)")
    parser.add_argument("--tables", type=int, default=100, help="active tables in the second situation")
    parser.add_argument("--seed", type=int, default=2516)
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite",
                        help="a temporary SQLite file (default) or a database created on the local PostgreSQL")
    args = parser.parse_args(argv)
    deadline = time.monotonic() + DEADLINE_SECONDS
    rng = random.Random(args.seed)
    # ~6 moves remain in a 4-player game at the start of round 10: enough tables for every sample
    round10 = [(args.seed + i, 10) for i in range(args.moves // 4 + 6)] + [(args.seed - 1, 5)]
    spread = [(args.seed + 1000 + i, rng.randint(1, 10)) for i in range(args.tables)] + [(args.seed - 1, 5)]
    print(f"facilitator HTTP move benchmark · Python {sys.version.split()[0]} · {os.cpu_count()} CPUs · "
          f"{'SQLite (temporary file)' if args.db == 'sqlite' else 'PostgreSQL (127.0.0.1:5432)'} · "
          f"waitress on 127.0.0.1")
    ok = True
    for label, positions, pick in (("a table at round 10", round10, same_table_until_finished),
                                   (f"a table among {args.tables} active tables", spread, random_table)):
        ok &= report(*run(label, args.db, positions, args.moves, pick, args.seed, deadline))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
