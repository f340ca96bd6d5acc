"""Idle and half-sent connections cannot starve the server (issue 17): the hardened waitress of
``facilitator serve`` (facilitator/web/server.py) drops a request whose headers do not arrive in
time — even one trickled a byte at a time — caps the connections of one address, makes room for
a newcomer when full, and leaves a slow but progressing upload alone.

Each test runs the real server on a free port of 127.0.0.1 (a small WSGI app behind it: the
server is what is under test) with a head deadline shortened to 1 s."""

import http.client
import socket
import threading
import time

import pytest

from facilitator.web.server import Guard, create_server, fit_open_files
from tests.connections import closed_by_server

HEAD_TIMEOUT = 1.0


def echo(environ, start_response):
    """Answers with how many body bytes it read."""
    size = int(environ.get("CONTENT_LENGTH") or 0)
    body = environ["wsgi.input"].read(size) if size else b""
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [f"read {len(body)}".encode()]


class Server:
    """The guarded server in a thread, stepping its loop until the test is done."""

    def __init__(self, guard=Guard(head_timeout=HEAD_TIMEOUT), **settings):
        settings = {"threads": 2, "cleanup_interval": 0, **settings}  # deadlines checked every step
        self.server = create_server(echo, guard=guard, host="127.0.0.1", port=0, **settings)
        self.port = int(self.server.effective_port)
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.sockets = []

    def serve(self):
        from waitress import wasyncore
        while not self.stopping.is_set():
            wasyncore.loop(timeout=0.05, map=self.server._map, count=1, use_poll=True)
        self.server.close()
        self.server.task_dispatcher.shutdown()

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        for sock in self.sockets:
            sock.close()
        self.stopping.set()
        self.thread.join(10)

    def connect(self, source="127.0.0.1", send=b""):
        sock = socket.socket()
        sock.bind((source, 0))
        sock.connect(("127.0.0.1", self.port))
        sock.sendall(send)
        self.sockets.append(sock)
        return sock

    def get(self, path="/", source="127.0.0.1"):
        """A fresh client's GET: (status, body, seconds)."""
        started = time.monotonic()
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10, source_address=(source, 0))
        try:
            conn.request("GET", path)
            response = conn.getresponse()
            return response.status, response.read().decode(), time.monotonic() - started
        finally:
            conn.close()


def still_open(sock):
    sock.setblocking(False)
    try:
        sock.recv(1)  # b"": closed; an answer: a half-sent request never gets one
        return False
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        sock.setblocking(True)


HALF_SENT = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n"


def test_a_half_sent_request_is_dropped_after_the_head_deadline():
    with Server() as server:
        started = time.monotonic()
        sock = server.connect(send=HALF_SENT)
        assert not closed_by_server(sock, within=HEAD_TIMEOUT * 0.8)
        assert closed_by_server(sock, within=2.0)
        assert HEAD_TIMEOUT <= time.monotonic() - started < HEAD_TIMEOUT + 1.5


def test_a_client_trickling_its_headers_is_dropped_although_never_silent():
    with Server() as server:  # waitress alone would keep it: it is never 120 s silent
        started = time.monotonic()
        sock = server.connect(send=HALF_SENT)
        dropped = False
        while not dropped and time.monotonic() - started < HEAD_TIMEOUT + 2:
            try:
                sock.sendall(b"X")
            except OSError:
                dropped = True
                break
            dropped = closed_by_server(sock, within=0.2)
        assert dropped and time.monotonic() - started >= HEAD_TIMEOUT


def test_a_new_tablet_is_served_at_once_while_one_address_holds_the_connection_limit():
    # no cap per address here: the connection limit itself is full of half-sent requests
    with Server(guard=Guard(head_timeout=60, per_client_limit=0), connection_limit=30) as server:
        held = [server.connect("127.0.0.2", HALF_SENT) for _ in range(40)]
        time.sleep(0.3)
        for _ in range(3):
            status, body, seconds = server.get()
            assert (status, body) == (200, "read 0") and seconds < 1.0
        assert sum(still_open(sock) for sock in held) >= 20  # room made by closing only a few


def test_one_address_gets_at_most_its_cap_of_connections_and_others_are_unaffected():
    with Server(guard=Guard(head_timeout=60, per_client_limit=4)) as server:
        held = [server.connect("127.0.0.2", HALF_SENT) for _ in range(4)]
        extra = server.connect("127.0.0.2")
        assert closed_by_server(extra, within=1.0)
        assert all(still_open(sock) for sock in held)
        assert server.get(source="127.0.0.3")[:2] == (200, "read 0")

        held[0].close()  # one of its connections ends: it may open another
        time.sleep(0.2)
        assert server.get(source="127.0.0.2")[:2] == (200, "read 0")


def test_the_reverse_proxy_is_not_capped_since_every_connection_comes_from_it():
    guard = Guard(head_timeout=60, per_client_limit=2)
    with Server(guard=guard, trusted_proxy="127.0.0.5", trusted_proxy_headers={"x-forwarded-for"}) as server:
        held = [server.connect("127.0.0.5", HALF_SENT) for _ in range(5)]
        assert server.get(source="127.0.0.5")[:2] == (200, "read 0")
        assert all(still_open(sock) for sock in held)
        others = [server.connect("127.0.0.6", HALF_SENT) for _ in range(3)]  # anyone else is capped
        assert closed_by_server(others[-1], within=1.0)


def test_this_machine_itself_is_not_capped():
    with Server(guard=Guard(head_timeout=60, per_client_limit=2)) as server:
        held = [server.connect("127.0.0.1", HALF_SENT) for _ in range(5)]
        assert server.get(source="127.0.0.1")[:2] == (200, "read 0")
        assert all(still_open(sock) for sock in held)


def post_slowly(server, size, chunk, pause):
    """POST a body of ``size`` bytes in ``chunk``-byte pieces ``pause`` seconds apart: the
    server's answer, or None if it closed the connection first."""
    sock = server.connect(send=(f"POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {size}\r\n"
                                f"Connection: close\r\n\r\n").encode())
    try:
        for start in range(0, size, chunk):
            time.sleep(pause)
            sock.sendall(b"x" * min(chunk, size - start))
        sock.settimeout(5)
        answer = b""
        while data := sock.recv(4096):
            answer += data
        return answer.decode() or None
    except (ConnectionResetError, BrokenPipeError):
        return None


def test_a_slow_but_progressing_upload_is_not_dropped():
    with Server() as server:  # 3 s for the body, at 2 kB/s: three times the head deadline
        answer = post_slowly(server, size=6000, chunk=1000, pause=0.5)
        assert answer and answer.startswith("HTTP/1.1 200") and answer.endswith("read 6000")


def test_a_body_trickled_slower_than_the_minimum_pace_is_dropped():
    with Server() as server:  # 5 bytes a second: far below 500
        started = time.monotonic()
        assert post_slowly(server, size=40, chunk=1, pause=0.2) is None
        assert time.monotonic() - started < 5


@pytest.mark.skipif(not hasattr(socket, "AF_UNIX"), reason="resource limits are POSIX")
def test_the_open_file_limit_is_raised_to_fit_the_connection_limit():
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1200:
        pytest.skip(f"the hard limit of open files is {hard}")
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))  # a common default (macOS)
        assert fit_open_files(1000) == 1000
        assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] >= 1000
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_the_server_looks_over_its_young_objects_less_often_and_a_collector_turned_off_stays_off(monkeypatch):
    """``serve`` sets the garbage collector for serving requests (``COLLECT_AFTER``)."""
    import gc

    from facilitator.web import server

    class Idle:  # the server itself is not started
        def print_listen(self, _format):
            pass

        def run(self):
            pass
    monkeypatch.setattr(server, "create_server", lambda app, **kw: Idle())
    before = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        server.serve(object())
        assert gc.get_threshold() == (server.COLLECT_AFTER, 10, 10) and server.COLLECT_AFTER > 700
        gc.set_threshold(0, 10, 10)
        server.tune_collector()
        assert gc.get_threshold() == (0, 10, 10)
    finally:
        gc.set_threshold(*before)
