"""Guessing is slowed down (issue 5, item 2): after ``free`` wrong PINs or passwords from one
address, every further attempt must wait — the right one too — and the wait doubles with each
new failure up to ``max_wait``; old failures leave the window, and a success forgives none of
them (issue 17: tests/events/test_guessing.py)."""

import re

import pytest

from facilitator.services import access
from facilitator.web.auth import Throttle

from .helpers import PASSWORD, csrf_token, english, flashes, new_event, seated_table, set_password, table_row


# ----- the rule, with explicit clock readings ---------------------------------------------------
@pytest.mark.parametrize("failures, wait", [
    (0, 0), (1, 0), (2, 0),  # the first three mistakes are free
    (3, 2), (4, 4), (5, 8),  # then the wait doubles with every failure
    (6, 10), (9, 10),  # up to max_wait
])
def test_the_wait_after_failures(failures, wait):
    gate = Throttle(free=3, window=60, base_wait=2, max_wait=10)
    for _ in range(failures):
        gate.failed("10.0.0.7", now=100.0)
    assert gate.wait_left("10.0.0.7", now=100.0) == wait


def test_the_wait_counts_down_from_the_last_failure_and_is_never_0_before_it_is_over():
    gate = Throttle(free=3, window=60, base_wait=2, max_wait=10)
    for t in (0.0, 1.0, 2.0):  # a clock may well read 0.0
        gate.failed("10.0.0.7", now=t)
    assert [gate.wait_left("10.0.0.7", now=t) for t in (2.0, 3.0, 3.5, 3.99, 4.0, 9.0)] == [2, 1, 1, 1, 0, 0]


def test_failures_older_than_the_window_are_forgotten():
    gate = Throttle(free=3, window=60, base_wait=2, max_wait=10)
    for t in (0.0, 30.0, 50.0):
        gate.failed("10.0.0.7", now=t)
    assert gate.wait_left("10.0.0.7", now=51.0) == 1
    assert gate.wait_left("10.0.0.7", now=59.9) == 0  # the wait is over, the failures still count
    gate.failed("10.0.0.7", now=59.9)
    assert gate.wait_left("10.0.0.7", now=59.9) == 4  # the fourth failure in the window
    # the failure at 0.0 leaves the window: three remain, so the wait from 59.9 is 2 s again
    assert gate.wait_left("10.0.0.7", now=60.0) == 2
    assert gate.wait_left("10.0.0.7", now=111.0) == 0  # 30.0 left too: two failures, free again




def test_one_address_guessing_does_not_slow_another():
    gate = Throttle(free=3, window=60, base_wait=2, max_wait=10)
    for t in (1.0, 2.0, 3.0):
        gate.failed("10.0.0.66", now=t)
    assert gate.wait_left("10.0.0.66", now=3.0) == 2
    assert gate.wait_left("10.0.0.7", now=3.0) == 0


# ----- over HTTP: the PIN form and the organizer's sign-in ----------------------------------------
class Clock:
    """The throttle's clock, moved by the test instead of by sleeping."""

    def __init__(self):
        self.now = 1000.0

    def monotonic(self):
        return self.now


@pytest.fixture
def clock(app, monkeypatch):
    app.config["THROTTLE"] = {"free": 3, "window": 300, "base_wait": 30, "max_wait": 120}
    clock = Clock()
    # the failures are stored with the throttle's wall clock (shared by every server process)
    monkeypatch.setattr(access, "clock", clock.monotonic)
    return clock


def waits(response):
    """The wait the refusal names, in seconds."""
    message = " ".join(flashes(response, "error"))
    match = re.search(r"Try again in (\d+) s", message)
    assert match, message
    return int(match.group(1))


def try_pin(browser, pin, address="10.0.0.66"):
    token = csrf_token(browser)
    return browser.post("/pin", data={"pin": pin, "csrf_token": token}, environ_base={"REMOTE_ADDR": address})


@pytest.mark.db
def test_wrong_pins_are_slowed_down_even_for_the_right_pin_until_the_wait_is_over(app, clock):
    table_id = seated_table(app, new_event(app), "Стол А")
    right = table_row(app, table_id).pin
    wrong = "%06d" % ((int(right) + 1) % 10 ** 6)
    browser = english(app.test_client())

    for _ in range(3):
        response = try_pin(browser, wrong)
        assert response.status_code == 401
        assert flashes(response, "error") == ["No table has this PIN"]
    response = try_pin(browser, right)
    assert response.status_code == 429 and waits(response) == 30
    assert browser.get(f"/table/{table_id}").status_code == 403

    clock.now += 29.5
    response = try_pin(browser, right)
    assert response.status_code == 429 and waits(response) == 1
    # the tablet next to it, on another address, is not slowed down
    neighbour = english(app.test_client())
    assert try_pin(neighbour, right, address="10.0.0.7").status_code == 303

    clock.now += 0.5
    assert try_pin(browser, right).status_code == 303
    assert browser.get(f"/table/{table_id}").status_code == 200
    # the right PIN forgave nothing: the three mistakes still count, the next one waits again
    assert [try_pin(browser, wrong).status_code for _ in range(2)] == [401, 429]


@pytest.mark.db
def test_the_wait_doubles_with_each_further_wrong_pin(app, clock):
    seated_table(app, new_event(app), "Стол А")
    browser = english(app.test_client())
    seen = []
    for _ in range(3):
        assert try_pin(browser, "999999").status_code == 401
    for _ in range(3):
        response = try_pin(browser, "999999")
        assert response.status_code == 429
        seen.append(waits(response))
        clock.now += seen[-1]
        assert try_pin(browser, "999999").status_code == 401  # the wait is over: a new attempt, wrong again
    assert seen == [30, 60, 120]


@pytest.mark.db
def test_wrong_passwords_are_slowed_down_even_for_the_right_password(app, clock):
    set_password(app)
    browser = english(app.test_client())

    def sign_in(password):
        token = csrf_token(browser, "/organizer/login")
        return browser.post("/organizer/login", data={"password": password, "csrf_token": token})

    assert [sign_in("guess-%d" % i).status_code for i in range(3)] == [401, 401, 401]
    response = sign_in(PASSWORD)
    assert response.status_code == 429 and waits(response) == 30
    assert browser.get("/organizer/").status_code == 302

    clock.now += 30
    assert sign_in(PASSWORD).status_code == 303
    assert browser.get("/organizer/").status_code == 200
    # signing in forgave nothing: a later mistake in the window is counted with the first three
    assert sign_in("typo").status_code == 401
    assert sign_in(PASSWORD).status_code == 429
