"""PIN guessing against ``facilitator serve`` (issue 17): how many guesses one address gets
checked per minute when it types a right PIN (of a table it created itself, without signing
in) after every three wrong ones, and how many tables it can create without signing in.
Loopback only; bounded in time; stops the server itself.

    python benchmarks/bench_guessing.py [--seconds 60] [--tables 100] [--addresses 1]
                                        [--connections 1] [--db sqlite|postgresql]

An event of ``--tables`` tables (each with its PIN) on a fresh database (a temporary SQLite
file, or a database of its own on the local PostgreSQL server), served by ``facilitator serve``
(waitress, the default settings) in a subprocess on 127.0.0.1. Then:

1. **guessing** for ``--seconds``: the troublemaker at 127.0.0.66 (``--addresses K`` spreads it
   over 127.0.1.1 … 127.0.1.K, ``--connections N`` sends from N connections at once per
   address) creates a table of its own to learn a right PIN, then posts random six-digit
   PINs to ``/pin``, its own right PIN after every three, never waiting for ``Retry-After``
   (a script ignores it);
2. **a host** at 127.0.0.7 types the right PIN of the event's table 8: it must get in;
3. **lone tables** for at most ``--lone-seconds``: the troublemaker creates tables without
   signing in as fast as it can.

Prints the guesses checked per minute (answered 401 or opened a table, not told to wait), the
429s, whether any guessed PIN opened a table of the event, whether the host got in, and the
lone tables created per minute. Linux routes all of 127.0.0.0/8 to the loopback, so each
address is a client of its own to the server.
"""

import argparse
import http.client
import http.cookies
import re
import secrets
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_http_moves import Server  # noqa: E402  (the same server)
from benchmarks.rig import postgres_database  # noqa: E402

CSRF = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')
PACK = re.compile(r'<select name="pack"><option value="([^"]+)"')
OWN_PIN = re.compile(r"PIN[^0-9]{1,12}(\d{6})")
ATTACKER, HOST = "127.0.0.66", "127.0.0.7"


def populate(url, instance, tables):
    """An event of ``tables`` tables, each with its host link and PIN: ``{pin: table number}``."""
    from facilitator import services
    from facilitator.storage import session_scope
    from facilitator.storage.db import dispose_all
    from facilitator.web import create_app
    app = create_app({"DATABASE_URL": url, "INSTANCE_PATH": str(instance)})
    with session_scope(app.extensions["facilitator.engine"]) as s:
        event = services.events.create_event(s, "Кубок лицея", "2026-11-29", ruleset="lyceum-16-25")
        rows = services.events.add_tables(s, event, [f"Стол {i + 1}" for i in range(tables)])
        for row in rows:
            services.access.ensure_access(s, row)
        pins = {row.pin: i + 1 for i, row in enumerate(rows)}
    dispose_all()
    return pins


class Client:
    """One browser at a loopback ``address``: a keep-alive connection and its cookies."""

    def __init__(self, port, address):
        self.port, self.address = port, address
        self.conn = None
        self.cookies = http.cookies.SimpleCookie()

    def request(self, method, path, form=None):
        if self.conn is None:
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30,
                                                   source_address=(self.address, 0))
        headers = {"Cookie": "; ".join(f"{k}={m.value}" for k, m in self.cookies.items()),
                   "Accept-Language": "en"}
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            self.conn.request(method, path, body=body, headers=headers)
            response = self.conn.getresponse()
            text = response.read().decode("utf-8", "replace")
        except (OSError, http.client.HTTPException):
            self.conn.close()
            self.conn = None
            raise
        for value in response.headers.get_all("Set-Cookie") or []:
            self.cookies.load(value)
        return response.status, response.headers, text

    def create_table(self, name):
        """A table created without signing in: ``(status, its PIN or None, Retry-After)``."""
        _status, _headers, page = self.request("GET", "/?lang=en&game=lyceum-16-25")
        status, headers, _page = self.request("POST", "/tables", {"csrf_token": CSRF.search(page).group(1),
                                                                   "name": name, "pack": PACK.search(page).group(1)})
        if status != 303:
            return status, None, headers.get("Retry-After")
        _status, _headers, setup = self.request("GET", headers["Location"])
        match = OWN_PIN.search(setup)
        return status, match.group(1) if match else None, None


class Tally:
    """What the guessing got, from every thread."""

    def __init__(self):
        self.lock = threading.Lock()
        self.wrong = self.right = self.waited = self.other = 0
        self.opened = []  # event tables a guess opened
        self.retry_after = set()

    def add(self, status, guess, pins, own, headers):
        with self.lock:
            if status == 401:
                self.wrong += 1
            elif status == 303 and guess == own:
                self.right += 1
            elif status == 303:
                self.opened.append(pins.get(guess, guess))
            elif status == 429:
                self.waited += 1
                self.retry_after.add(int(headers.get("Retry-After", 0)))
            else:
                self.other += 1


def guess(port, address, pins, own, deadline, tally):
    """Three random wrong PINs, then the right one, until ``deadline``; never waits."""
    client = Client(port, address)
    _status, _headers, page = client.request("GET", "/pin?lang=en")
    token = CSRF.search(page).group(1)
    n = 0
    while time.monotonic() < deadline:
        pin = own if n % 4 == 3 else f"{secrets.randbelow(10 ** 6):06d}"
        n += 1
        try:
            status, headers, _page = client.request("POST", "/pin", {"csrf_token": token, "pin": pin})
        except (OSError, http.client.HTTPException):  # the connection dropped: a new one next time
            status, headers = None, {}
        tally.add(status, pin, pins, own, headers)


def run(args):
    with tempfile.TemporaryDirectory(prefix="bench-guessing-") as tmp:
        instance = Path(tmp) / "instance"
        instance.mkdir()
        if args.db == "sqlite":
            url, drop = f"sqlite:///{Path(tmp) / 'bench.db'}", None
        else:
            url, drop = postgres_database("facilitator_bench_http")
        pins = populate(url, instance, args.tables)
        table8 = next(pin for pin, number in pins.items() if number == min(8, args.tables))
        server = Server(url, instance)
        try:
            addresses = [ATTACKER] if args.addresses == 1 else [f"127.0.1.{i + 1}" for i in range(args.addresses)]
            status, own, _ = Client(server.port, addresses[0]).create_table("Свой стол")
            if status != 303 or not own:
                raise SystemExit(f"the troublemaker could not create a table of its own (HTTP {status})")
            tally = Tally()
            start = time.monotonic()
            deadline = start + args.seconds
            threads = [threading.Thread(target=guess, args=(server.port, a, pins, own, deadline, tally), daemon=True)
                       for a in addresses for _ in range(args.connections)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(args.seconds + 60)
            elapsed = time.monotonic() - start

            host = Client(server.port, HOST)
            _s, _h, page = host.request("GET", "/pin?lang=en")
            host_status, _h, _p = host.request("POST", "/pin", {"csrf_token": CSRF.search(page).group(1),
                                                                "pin": table8})

            lone = Client(server.port, addresses[0])
            created, refused, retry = 0, 0, None  # besides the one table made above
            lone_start = time.monotonic()
            while time.monotonic() - lone_start < args.lone_seconds and refused < 20:
                status, _pin, after = lone.create_table(f"Стол {created + refused + 2}")
                if status == 303:
                    created += 1
                else:
                    refused += 1
                    retry = after
            lone_elapsed = time.monotonic() - lone_start
        finally:
            server.stop()
            if drop is not None:
                drop()
    return tally, elapsed, host_status, created, refused, retry, lone_elapsed, addresses


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60, help="how long the troublemaker guesses (default 60)")
    parser.add_argument("--tables", type=int, default=100, help="tables of the event (default 100)")
    parser.add_argument("--addresses", type=int, default=1, choices=range(1, 251), metavar="1-250",
                        help="loopback addresses the guessing is spread over (default 1)")
    parser.add_argument("--connections", type=int, default=1, choices=range(1, 17), metavar="1-16",
                        help="connections sending at once from each address (default 1)")
    parser.add_argument("--lone-seconds", type=float, default=20, help="at most this long creating tables (default 20)")
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    args = parser.parse_args(argv)
    if args.seconds > 600 or args.lone_seconds > 120:
        parser.error("bounded: --seconds at most 600, --lone-seconds at most 120")

    tally, elapsed, host_status, created, refused, retry, lone_elapsed, addresses = run(args)
    minutes = elapsed / 60
    checked = tally.wrong + tally.right + len(tally.opened)
    print(f"guessing from {len(addresses)} address(es) x {args.connections} connection(s), {elapsed:.0f} s, "
          f"{args.tables} tables, {args.db}")
    print(f"  guesses checked: {checked} ({tally.wrong} wrong, {tally.right} own right PIN) = "
          f"{checked / minutes:.1f} per minute, {checked / minutes / len(addresses):.1f} per address")
    print(f"  wrong PINs checked per minute: {tally.wrong / minutes:.1f}")
    waits = f"{min(tally.retry_after)}..{max(tally.retry_after)} s" if tally.retry_after else "-"
    print(f"  told to wait (429): {tally.waited}; Retry-After seen: {waits}; other answers: {tally.other}")
    print(f"  event tables a guess opened: {tally.opened or 'none'}")
    print(f"  the host at {HOST} typing table 8's right PIN afterwards: HTTP {host_status} "
          f"({'got in' if host_status == 303 else 'LOCKED OUT'})")
    print(f"lone tables without signing in from {addresses[0]}: {created + 1} created in all (one before the "
          f"guessing), then {refused} refused (429, Retry-After {retry or '-'} s); {lone_elapsed:.1f} s of trying = "
          f"{created / lone_elapsed * 60:.0f} created per minute of trying")
    return 0 if host_status == 303 and not tally.opened else 1


if __name__ == "__main__":
    sys.exit(main())
