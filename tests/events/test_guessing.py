"""Guessing is throttled whatever is typed in between (issue 17): anyone can get a right PIN by
creating a table of their own, so a right PIN (or password) forgives no wrong one; besides the
limit per address there is one over the whole server (PINs are unique across the server, so a
wrong guess belongs to no event), which never stops an address with no failure of its own or
a single typo; and tables created without signing in are limited per address. Behind the
reverse proxy every rule counts the forwarded address."""

import re
import threading

import pytest
from sqlalchemy import delete

from facilitator import services
from facilitator.services import access
from facilitator.services.access import Quota, Throttle
from facilitator.storage.models import ContentPackRow, Event, GameTable, LoginFailure, MoveRow, Setting
from tests import pages
from tests.web.helpers import each_case

from .helpers import PASSWORD, csrf_token, db, english, flashes, new_event, seated_table, set_password, table_row

ATTACKER, HOST, NEIGHBOUR = "10.0.0.66", "10.0.0.7", "10.0.0.8"


# ----- the rules, with explicit clock readings ---------------------------------------------------
def attempts(gate, pattern, key=ATTACKER, now=100.0):
    """Type ``pattern`` at ``gate`` (``R`` the right answer, ``W`` a wrong one) the way the views
    do; returns what each attempt got: ``r`` let in, ``w`` refused as wrong, ``-`` told to wait
    (not checked at all)."""
    out = ""
    for typed in pattern:
        if gate.wait_left(key, now=now):
            out += "-"
        elif typed == "R":
            out += "r"
        else:
            gate.failed(key, now=now)
            out += "w"
    return out


@pytest.mark.parametrize("pattern, outcome", [
    ("WWWR", "www-"),  # three mistakes: the right answer waits too
    ("WRWRWR", "wrwrw-"),  # a right answer between wrong ones wipes nothing
    ("WWWRWWWR", "www-----"),  # three wrong, one right, repeated: the attack
    ("RRRRRRWW", "rrrrrrww"),  # right answers cost nothing
])
def test_a_right_answer_forgives_no_wrong_one(pattern, outcome):
    assert attempts(Throttle(free=3, window=60, base_wait=2, max_wait=10), pattern) == outcome


@pytest.mark.parametrize("name, own, others, wait", [
    ("a clean address while the server is under attack", 0, 40, 0),
    ("one honest typo while the server is under attack", 1, 40, 0),
    ("two mistakes while the server is under attack: the long wait", 2, 40, 10),
    ("two mistakes on a quiet server", 2, 5, 0),
    ("three mistakes on a quiet server: the address's own rule", 3, 5, 2),
    ("three mistakes while the server is under attack", 3, 40, 10),
    ("two mistakes just under the server-wide limit", 2, 17, 0),
    ("two mistakes at the server-wide limit", 2, 18, 10),
])
def test_the_server_wide_limit_stops_only_addresses_that_keep_failing(name, own, others, wait):
    gate = Throttle(free=3, window=60, base_wait=2, max_wait=10, server_limit=20, alarm_free=2)
    for i in range(others):  # guessing spread over many addresses, none of them past its own limit
        gate.failed(f"10.1.{i // 2}.{i % 2}", now=90.0)
    for _ in range(own):
        gate.failed(HOST, now=100.0)
    assert gate.wait_left(HOST, now=100.0) == wait, name


def test_the_server_wide_limit_counts_only_the_window():
    gate = Throttle(free=3, window=60, base_wait=2, max_wait=10, server_limit=20, alarm_free=2)
    for i in range(40):
        gate.failed(f"10.1.0.{i}", now=0.0)
    for t in (99.0, 100.0):
        gate.failed(HOST, now=t)
    assert gate.wait_left(HOST, now=100.0) == 0  # the attack ended a minute and a half ago


@pytest.mark.parametrize("uses, now, wait", [
    ((0.0, 10.0), 30.0, 0),  # under the limit
    ((0.0, 10.0, 20.0), 30.0, 3570),  # at the limit: until the first use leaves the hour
    ((0.0, 10.0, 20.0), 3599.5, 1),  # never 0 before the wait is over
    ((0.0, 10.0, 20.0), 3600.0, 0),  # the first use has left the hour
    ((0.0, 10.0, 20.0, 3600.0), 3605.0, 5),  # 10.0 leaves next
])
def test_a_quota_of_uses_per_window(uses, now, wait):
    quota = Quota(limit=3, window=3600)
    for t in uses:
        quota.used(ATTACKER, now=t)
    assert quota.wait_left(ATTACKER, now=now) == wait
    assert quota.wait_left(HOST, now=now) == 0  # another address has its own quota


# ----- over HTTP ---------------------------------------------------------------------------------
class Clock:
    """The throttle's wall clock, moved by the test instead of by sleeping."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


@pytest.fixture
def clock(app, monkeypatch):
    app.config["THROTTLE"] = {"free": 3, "window": 300, "base_wait": 30, "max_wait": 120, "server_limit": 10}
    app.config["LONE_TABLES"] = {"limit": 3, "window": 3600}
    clock = Clock()
    monkeypatch.setattr(access, "clock", clock)
    return clock


def stored(app):
    """Every row a refusal must leave as it was, the counted failures included."""
    return pages.everything(app, (ContentPackRow, Event, GameTable, MoveRow, Setting, LoginFailure))


def try_pin(browser, pin, address):
    return browser.post("/pin", data={"pin": pin, "csrf_token": csrf_token(browser, "/pin")},
                        environ_base={"REMOTE_ADDR": address})


def new_lone_table(browser, address, name="Свой стол"):
    """A table created from the host's start page without signing in: the response."""
    form = pages.get(browser, "/?game=lyceum-16-25").form("/tables")
    return browser.post(form.action, data=form.data(name=name), environ_base={"REMOTE_ADDR": address})


def lone_pin(browser, address):
    """The PIN of a table this tablet creates on its own: the right PIN anyone can have."""
    response = new_lone_table(browser, address)
    assert response.status_code == 303, response.status_code
    page = browser.get(response.headers["Location"])
    return re.search(r"Its PIN is (\d+)", " ".join(flashes(page, "ok"))).group(1)


def wrong_pin(right, i=1):
    return "%06d" % ((int(right) + i) % 10 ** 6)


@pytest.mark.db
def test_wrong_pins_with_the_attackers_own_right_pin_in_between_are_throttled(app, clock):
    """The issue's attack: a right PIN (of a table the attacker made itself) after every three
    wrong ones. The fourth attempt already waits, and no wait is ever wiped."""
    event_table = seated_table(app, new_event(app), "Стол 8")
    target = table_row(app, event_table).pin
    attacker = english(app.test_client())
    own = lone_pin(attacker, ATTACKER)
    guesses = [wrong_pin(target, i) for i in range(1, 7)]
    seen = []
    for round_ in range(2):
        for guess in guesses[3 * round_:3 * round_ + 3]:
            seen.append(try_pin(attacker, guess, ATTACKER).status_code)
        seen.append(try_pin(attacker, own, ATTACKER).status_code)
        clock.now += 30  # the first wait (30 s) is over
    assert seen == [401, 401, 401, 429, 401, 429, 429, 429]
    with db(app) as s:
        failures = services.access.DatabaseFailures(s).recent("pin", ATTACKER, 0)
    assert len(failures) == 4  # every wrong PIN checked is counted; the refused ones were not checked


def password_gates(app):
    """The organizer's password, typed on the sign-in page or sent to the API: ``(name, try)``
    where ``try(password)`` returns the status (303/201 in, 401 wrong, 429 wait)."""
    def page(password):
        browser = app.test_client()
        return browser.post("/organizer/login", data={"password": password,
                                                      "csrf_token": csrf_token(browser, "/organizer/login")},
                            environ_base={"REMOTE_ADDR": ATTACKER}).status_code

    def api(password):
        return app.test_client().post("/api/v1/session", json={"password": password},
                                      environ_base={"REMOTE_ADDR": ATTACKER}).status_code
    return [("the sign-in page", page, 303), ("POST /api/v1/session", api, 201)]


@pytest.mark.db
def test_the_password_gates_forgive_no_wrong_password_either(app, clock):
    set_password(app)

    def check(name, attempt, ok):
        with db(app) as s:
            s.exec(delete(LoginFailure))  # each gate from a clean count
        statuses = [attempt(p) for p in ("guess-1", PASSWORD, "guess-2", PASSWORD, "guess-3", PASSWORD)]
        assert statuses == [401, ok, 401, ok, 401, 429], statuses
        before = stored(app)
        assert attempt(PASSWORD) == 429
        assert stored(app) == before  # a refused attempt stores nothing
    each_case([(name, attempt, ok) for name, attempt, ok in password_gates(app)], check)


@pytest.mark.db
def test_a_host_with_the_right_pin_gets_in_while_others_are_throttled_and_the_server_limit_is_hit(app, clock):
    table_id = seated_table(app, new_event(app), "Стол А")
    right = table_row(app, table_id).pin
    # one address past its own limit
    attacker = english(app.test_client())
    assert [try_pin(attacker, wrong_pin(right, i), ATTACKER).status_code for i in range(1, 5)] == [401] * 3 + [429]
    # the same guessing spread over four more addresses, two each (one mistake each is let
    # through whatever happens): eleven wrong PINs, past the server-wide limit of ten
    for i in range(1, 5):
        spread = english(app.test_client())
        assert [try_pin(spread, wrong_pin(right, 10 + i), f"10.2.0.{i}").status_code for _ in range(2)] == [401] * 2
    with db(app) as s:
        assert services.access.DatabaseFailures(s).count("pin", 0) == 11

    def check(name, address, typos, statuses):
        browser = english(app.test_client())
        seen = [try_pin(browser, wrong_pin(right, 50 + i), address).status_code for i in range(typos)]
        before = stored(app)
        seen.append(try_pin(browser, right, address).status_code)
        assert seen == statuses
        assert stored(app) == before  # the right PIN, let in or refused, stores nothing
        assert browser.get(f"/table/{table_id}").status_code == (200 if statuses[-1] == 303 else 403)
    each_case([
        ("a host with the right PIN", HOST, 0, [303]),
        ("a host with one typo first", NEIGHBOUR, 1, [401, 303]),
        ("a tablet with two mistakes waits while the server is under attack", "10.0.0.9", 2, [401, 401, 429]),
        ("the attacker with the right PIN still waits", ATTACKER, 0, [429]),
    ], check)


@pytest.mark.db
def test_tables_created_without_signing_in_are_limited_per_address(app, clock):
    lone = english(app.test_client())
    made = []
    for at in (1000.0, 1010.0, 1020.0):
        clock.now = at
        made.append(new_lone_table(lone, ATTACKER).status_code)
    assert made == [303] * 3
    clock.now = 1030.0
    before = stored(app)
    refused = new_lone_table(lone, ATTACKER, name="Четвёртый")
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "3570"  # until 1000 + 1 h
    assert flashes(refused, "error") == ["Without signing in, one device may create 3 tables in 60 min. Try again in "
                                         "60 min, or ask the organizer to create them."]
    assert stored(app) == before  # nothing created, nothing counted

    russian = app.test_client()
    russian.get("/?lang=ru")
    clock.now = 2830.0
    refused = new_lone_table(russian, ATTACKER)
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "1770"
    assert flashes(refused, "error") == ["Без входа организатора одно устройство может создать 3 стола за 60 мин. "
                                         "Попробуйте снова через 30 мин или попросите организатора создать столы."]

    # another tablet has its own count; the organizer signed in on the same address has none
    assert new_lone_table(english(app.test_client()), HOST).status_code == 303
    organizer = pages.organizer_browser(app, lang="en")
    assert [new_lone_table(organizer, ATTACKER).status_code for _ in range(4)] == [303] * 4
    # an hour after the first table, one more may be made
    clock.now = 4600.0
    assert new_lone_table(lone, ATTACKER).status_code == 303
    assert new_lone_table(lone, ATTACKER).status_code == 429
    with db(app) as s:
        lone_tables = [t for t in services.list_tables(s) if t.event_id is None]
    assert len(lone_tables) == 3 + 1 + 4 + 1


# ----- behind the reverse proxy: a real waitress server, the forwarded addresses ---------------------
@pytest.mark.db
def test_behind_the_proxy_every_rule_counts_the_forwarded_address(app, db_url, monkeypatch):
    from .test_sessions_and_proxy import Server
    monkeypatch.setenv("FACILITATOR_BEHIND_PROXY", "1")
    with Server(db_url, monkeypatch) as server:
        server.app.config["THROTTLE"] = {"free": 3, "window": 300, "base_wait": 30, "max_wait": 120}
        server.app.config["LONE_TABLES"] = {"limit": 2, "window": 3600}
        table_id = seated_table(server.app, new_event(server.app), "Стол 1")
        right = table_row(server.app, table_id).pin
        attack = [server.try_pin("10.0.0.21", pin)[0]
                  for pin in (wrong_pin(right, 1), wrong_pin(right, 2), right, wrong_pin(right, 3), right)]
        assert attack == [401, 401, 303, 401, 429]
        assert server.try_pin("10.0.0.22", right)[0] == 303  # the host at the next address gets in

        assert [lone_table_through(server, "10.0.0.21") for _ in range(3)] == [303, 303, 429]
        assert lone_table_through(server, "10.0.0.22") == 303
        with db(server.app) as s:
            counted = {key: len(services.access.DatabaseFailures(s).recent("lone_table", key, 0))
                       for key in ("10.0.0.21", "10.0.0.22", "127.0.0.1")}
        assert counted == {"10.0.0.21": 2, "10.0.0.22": 1, "127.0.0.1": 0}


def lone_table_through(server, address):
    """A tablet at ``address`` (as the proxy forwards it) creates a table on its own: the status."""
    from urllib.parse import urlencode
    forwarded = {"X-Forwarded-For": address, "X-Forwarded-Proto": "https"}
    _status, headers, body = server.request("GET", "/?game=lyceum-16-25", forwarded)
    cookie = headers.get_all("Set-Cookie")[0].split(";", 1)[0]
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', body).group(1)
    pack = re.search(r'<select name="pack"><option value="([^"]+)"', body).group(1)
    status, _headers, _body = server.request("POST", "/tables", {
        **forwarded, "Cookie": cookie, "Referer": f"https://127.0.0.1:{server.port}/",
        "Content-Type": "application/x-www-form-urlencoded"},
        urlencode({"name": "Стол", "pack": pack, "csrf_token": token}))
    return status


# ----- a burst sent at once ----------------------------------------------------------------------------
@pytest.mark.db
def test_a_burst_of_guesses_sent_at_once_is_checked_one_at_a_time(app, db_url, monkeypatch):
    """Twelve wrong PINs sent together from one address: each check and its count are one step,
    so exactly the free ones are checked, however the server's threads interleave them."""
    from .test_sessions_and_proxy import Server
    monkeypatch.delenv("FACILITATOR_BEHIND_PROXY", raising=False)
    with Server(db_url, monkeypatch) as server:
        server.app.config["THROTTLE"] = {"free": 3, "window": 300, "base_wait": 30, "max_wait": 120}
        ready = [form_for_pin(server) for _ in range(12)]
        statuses, start = [], threading.Barrier(len(ready))

        def send(cookie, token):
            from urllib.parse import urlencode
            start.wait(10)
            status, _h, _b = server.request("POST", "/pin", {
                "Cookie": cookie, "Referer": f"http://127.0.0.1:{server.port}/pin",
                "Content-Type": "application/x-www-form-urlencoded"}, urlencode({"pin": "000000", "csrf_token": token}))
            statuses.append(status)
        threads = [threading.Thread(target=send, args=one) for one in ready]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert sorted(statuses) == [401] * 3 + [429] * 9


def form_for_pin(server):
    """A fresh browser's cookie and CSRF token for the PIN form."""
    _status, headers, body = server.request("GET", "/pin")
    cookie = headers.get_all("Set-Cookie")[0].split(";", 1)[0]
    return cookie, re.search(r'name="csrf_token"[^>]*value="([^"]+)"', body).group(1)
