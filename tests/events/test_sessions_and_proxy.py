"""Organizer sessions end for every copy of their cookie (issue 10, item 8), the API's organizer
token lets a script set up an event, wrong passwords are slowed down across server processes,
and the documented reverse-proxy mode works end to end under a real waitress server (item 4):
each tablet is seen by its forwarded address and cookies are Secure behind HTTPS."""

import argparse
import http.client
import json
import re
import threading
from urllib.parse import urlencode

import pytest

from facilitator import services
from tests.conftest import organizer_browser
from tests.web.helpers import THREE, each_case

from .helpers import PASSWORD, db, post, set_password

pytestmark = pytest.mark.db

SLOW_GUESSING = {"free": 5, "window": 300, "base_wait": 30, "max_wait": 120}


def copy_of(app, browser):
    """Another browser holding a copy of ``browser``'s session cookie."""
    copy = app.test_client()
    copy.set_cookie("session", browser.get_cookie("session").value)
    return copy


def signed_in(browser):
    return browser.get("/organizer/").status_code == 200


# ----- sessions -----------------------------------------------------------------------------------
def test_signing_out_ends_the_session_for_a_copied_cookie_too(app, client):
    copy = copy_of(app, client)
    assert signed_in(copy)
    assert post(client, "/organizer/logout").status_code == 303
    response = copy.get("/organizer/")
    assert response.status_code == 302 and "/organizer/login" in response.headers["Location"]
    assert post(copy, "/organizer/events", {"name": "Чужое"}).status_code == 403
    with db(app) as s:
        assert services.events.events(s) == []


def test_a_password_change_ends_every_organizer_session(app):
    set_password(app)
    client, other = organizer_browser(app), organizer_browser(app)
    token = api(app.test_client(), "POST", "/api/v1/session", {"password": PASSWORD}).get_json()["token"]
    assert signed_in(client) and signed_in(other)
    assert bearer(app, token).get("/api/v1/events").status_code == 200
    with db(app) as s:
        services.access.set_password(s, "a-new-organizer-password")
    assert not signed_in(client) and not signed_in(other)
    assert bearer(app, token).get("/api/v1/events").status_code == 403


# ----- the API's organizer token --------------------------------------------------------------------
def api(browser, method, url, body=None, **headers):
    return browser.open(url, method=method, data=None if body is None else json.dumps(body),
                        content_type="application/json", headers=headers)


class bearer:
    """A script's HTTP client sending ``Authorization: Bearer <token>`` with every request."""

    def __init__(self, app, token):
        self.client, self.headers = app.test_client(), {"Authorization": f"Bearer {token}"}

    def get(self, url):
        return self.client.get(url, headers=self.headers)

    def send(self, method, url, body=None):
        return api(self.client, method, url, body, **self.headers)


def test_a_script_sets_up_an_event_with_the_organizers_token_until_it_signs_out(app):
    set_password(app)
    response = api(app.test_client(), "POST", "/api/v1/session", {"password": PASSWORD})
    assert response.status_code == 201
    token = response.get_json()["token"]
    assert token.startswith("org_")
    script = bearer(app, token)

    created = script.send("POST", "/api/v1/events", {"name": "Кубок лицея", "tables": 3, "game": "lyceum-16-25"})
    assert created.status_code == 201, created.get_json()
    event = created.get_json()
    read = script.get(f"/api/v1/events/{event['id']}").get_json()
    assert [t["name"] for t in read["tables"]] == ["Стол 1", "Стол 2", "Стол 3"]
    with db(app) as s:
        stored = {t.id: (t.pin, t.token) for t in services.events.tables_of(s, event["id"])}
    for t in read["tables"]:
        assert (t["pin"], t["token"]) == stored[t["id"]]
        assert t["link"].endswith(f"/t/{t['token']}")

    first = read["tables"][0]
    seated = script.send("PUT", f"/api/v1/tables/{first['id']}/players", {"rev": first["rev"], "players": THREE})
    assert seated.status_code == 200, seated.get_json()
    assert [p["name"] for p in seated.get_json()["players"]] == ["Аня", "Борис", "Вика"]
    stale = script.send("PUT", f"/api/v1/tables/{first['id']}/players", {"rev": first["rev"], "players": THREE})
    assert stale.status_code == 409 and stale.get_json()["error"]["code"] == "stale"

    assert script.send("DELETE", "/api/v1/session").status_code == 204
    assert script.get(f"/api/v1/events/{event['id']}").status_code == 403
    assert script.send("POST", "/api/v1/events", {"name": "После выхода"}).status_code == 403
    with db(app) as s:
        assert [e.name for e in services.events.events(s)] == ["Кубок лицея"]


def test_the_organizer_api_refuses_without_the_organizers_token(app):
    from .helpers import new_event, seated_table, table_row
    table_token = table_row(app, seated_table(app, new_event(app), "Стол 1")).token

    def check(name, token, method, url, body, status):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = api(app.test_client(), method, url, body, **headers)
        assert response.status_code == status
        assert response.get_json()["error"]["code"] == {401: "unauthorized", 403: "forbidden"}[status]
    each_case([
        ("no credential lists events", None, "GET", "/api/v1/events", None, 401),
        ("no credential creates one", None, "POST", "/api/v1/events", {"name": "x"}, 401),
        ("a made-up token", "org_" + "x" * 43, "POST", "/api/v1/events", {"name": "x"}, 403),
        ("a table's host token", table_token, "POST", "/api/v1/events", {"name": "x"}, 403),
        ("a table's host token reading an event", table_token, "GET", "/api/v1/events/1", None, 403),
    ], check)
    with db(app) as s:
        assert [e.name for e in services.events.events(s)] == ["Кубок лицея"]


def test_wrong_passwords_are_slowed_down_with_retry_after_across_server_processes(app, db_url, tmp_path):
    from facilitator.web import create_app
    second = create_app({"TESTING": True, "DATABASE_URL": db_url, "INSTANCE_PATH": str(tmp_path / "second"),
                         "EXPORTS_DIR": str(tmp_path / "exports2")})
    set_password(app)
    for one in (app, second):
        one.config["THROTTLE"] = SLOW_GUESSING
    statuses = [api(one.test_client(), "POST", "/api/v1/session", {"password": "guess"}).status_code
                for one in (app, second, app, second, app)]
    assert statuses == [401] * 5
    for one in (second, app):  # five failures, whichever process answered them: even the right one waits
        response = api(one.test_client(), "POST", "/api/v1/session", {"password": PASSWORD})
        assert response.status_code == 429
        assert response.get_json()["error"]["code"] == "too_many_attempts"
        assert 0 < int(response.headers["Retry-After"]) <= 30


# ----- behind a reverse proxy: a real waitress server ----------------------------------------------
def serve_args():
    return argparse.Namespace(behind_proxy=False, proxy=None, workers=1, public_url=None, host="127.0.0.1",
                              port=8000, threads=4, connection_limit=100)


class Server:
    """``facilitator serve``'s app under waitress, with the proxy options the command gives it,
    on a free port of 127.0.0.1 (where the proxy would be)."""

    def __init__(self, db_url, monkeypatch):
        import waitress
        from facilitator.web import commands
        monkeypatch.setenv("DATABASE_URL", db_url)
        args = serve_args()
        self.options = commands.proxy_options(args)
        self.app = commands.make_app(args)
        self.app.config["THROTTLE"] = SLOW_GUESSING
        self.server = waitress.create_server(self.app, host="127.0.0.1", port=0, threads=4, **self.options)
        self.port = self.server.effective_port
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.serve, daemon=True)

    def serve(self):
        """waitress's loop, a step at a time, closed in its own thread when the test is done."""
        from waitress import wasyncore
        while not self.stopping.is_set():
            wasyncore.loop(timeout=0.05, map=self.server._map, count=1)
        self.server.close()
        self.server.task_dispatcher.shutdown()

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stopping.set()
        self.thread.join(10)

    def request(self, method, path, headers=None, body=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            return response.status, response.msg, response.read().decode()
        finally:
            connection.close()

    def try_pin(self, address, pin="000000"):
        """A tablet at ``address`` (as the proxy forwards it, over HTTPS) tries a PIN; returns the
        status and the session cookie the server set."""
        forwarded = {"X-Forwarded-For": address, "X-Forwarded-Proto": "https"}
        _status, headers, body = self.request("GET", "/pin", forwarded)
        cookie = headers.get_all("Set-Cookie")[0]
        token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', body).group(1)
        status, _headers, _body = self.request("POST", "/pin", {
            **forwarded, "Cookie": cookie.split(";", 1)[0], "Referer": f"https://127.0.0.1:{self.port}/pin",
            "Content-Type": "application/x-www-form-urlencoded"}, urlencode({"pin": pin, "csrf_token": token}))
        return status, cookie


def failures(app, address):
    with db(app) as s:
        return len(services.access.DatabaseFailures(s).recent("pin", address, 0))


def test_behind_the_proxy_each_tablet_is_seen_by_its_forwarded_address_and_cookies_are_secure(
        app, db_url, monkeypatch):
    monkeypatch.setenv("FACILITATOR_BEHIND_PROXY", "1")
    with Server(db_url, monkeypatch) as server:
        assert server.options["trusted_proxy"] == "127.0.0.1"
        assert {"x-forwarded-for", "x-forwarded-proto"} <= set(server.options["trusted_proxy_headers"])
        first = [server.try_pin("10.0.0.21") for _ in range(6)]
        assert [status for status, _ in first] == [401] * 5 + [429]
        assert all("secure" in [p.strip().lower() for p in cookie.split(";")] for _, cookie in first)
        assert server.try_pin("10.0.0.22")[0] == 401  # the next tablet is not blocked
        assert (failures(server.app, "10.0.0.21"), failures(server.app, "10.0.0.22")) == (5, 1)
        assert failures(server.app, "127.0.0.1") == 0


def test_without_the_proxy_setting_forwarded_headers_are_ignored(app, db_url, monkeypatch):
    monkeypatch.delenv("FACILITATOR_BEHIND_PROXY", raising=False)
    with Server(db_url, monkeypatch) as server:
        assert server.options == {}
        tries = [server.try_pin(f"10.0.0.{30 + i}") for i in range(6)]
        assert [status for status, _ in tries] == [401] * 5 + [429]  # one client: the server itself
        assert not any("secure" in [p.strip().lower() for p in cookie.split(";")] for _, cookie in tries)
        assert failures(server.app, "127.0.0.1") == 5


def test_every_worker_process_leaves_the_proxy_headers_to_its_server(app, db_url, monkeypatch):
    # ``--workers N`` runs N copies of the same waitress server: each applies proxy_options
    # (tests/web/test_serve_workers.py checks it end to end)
    from facilitator.web import commands
    monkeypatch.setenv("FACILITATOR_BEHIND_PROXY", "1")
    monkeypatch.setenv("DATABASE_URL", db_url)
    args = serve_args()
    args.workers = 4
    assert commands.make_app(args).config["PROXY_HANDLED_BY_SERVER"] is True


def test_under_another_wsgi_server_only_the_proxy_may_forward_an_address(app, db_url, monkeypatch):
    """Served by a server that does not apply the proxy's headers itself (``BEHIND_PROXY``
    without ``PROXY_HANDLED_BY_SERVER``), the app believes them from the proxy's address only."""
    from facilitator.web import create_app
    monkeypatch.setenv("FACILITATOR_BEHIND_PROXY", "1")
    served = create_app({"DATABASE_URL": db_url, "BEHIND_PROXY": True, "THROTTLE": SLOW_GUESSING})

    def six_wrong_pins(remote):
        tablet = served.test_client()
        page = tablet.get("/pin", environ_base={"REMOTE_ADDR": remote}).get_data(as_text=True)
        token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1)
        return [tablet.post("/pin", data={"pin": "000000", "csrf_token": token},
                            headers={"X-Forwarded-For": f"10.9.{remote.rsplit('.', 1)[1]}.{i}"},
                            environ_base={"REMOTE_ADDR": remote}).status_code for i in range(6)]

    assert six_wrong_pins("127.0.0.1") == [401] * 6  # the proxy: each forwarded address counted apart
    assert six_wrong_pins("10.0.0.50") == [401] * 5 + [429]  # not the proxy: its own address counted


def test_signing_in_keeps_the_language_chosen_and_starts_a_fresh_session(app):
    """The password page was read in English: the dashboard after it is in English too, while
    nothing else set before the password (a table's grant) carries over."""
    set_password(app)
    browser = app.test_client()
    browser.get("/organizer/login?lang=en")
    with browser.session_transaction() as sess:
        sess["tables"] = {"1": "before"}
    assert post(browser, "/organizer/login", {"password": PASSWORD}).status_code in (302, 303)
    with browser.session_transaction() as sess:
        assert sess.get("lang") == "en" and "tables" not in sess
    assert '<html lang="en">' in browser.get("/organizer/").get_data(as_text=True)


def test_a_page_that_changes_nothing_sends_no_cookie_so_a_late_answer_cannot_undo_a_language_switch(app):
    """An answer to a request made before the language was switched would carry the old session
    back; pages that change nothing in the session send no cookie at all."""
    browser = app.test_client()
    first = browser.get("/pin?lang=ru")
    assert "session" in first.headers.get("Set-Cookie", "")
    again = browser.get("/static/app.css")
    page = browser.get("/")
    assert "Set-Cookie" not in again.headers and "Set-Cookie" not in page.headers
