"""Fixtures for the browser tests: the real app under ``facilitator serve`` (waitress) on a
free loopback port with its own instance folder and SQLite file, and Debian's headless
Chromium driven through Playwright's sync API.

Playwright's own browser downloads are never used (no ``playwright install``): the tests run
on ``/usr/bin/chromium``, which ``.ci/run`` installs; without it the tests are skipped.
"""

import os
import re
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
REPO = Path(__file__).resolve().parents[2]
SCREENSHOTS = REPO / "test-output" / "screenshots"
SERVER_START_SECONDS = 30
#: the event organizer's password for the test server (tables are created by the organizer)
ORGANIZER_PASSWORD = "browser-test-organizer"


def at(url, screen):
    """``url`` is ``screen``'s address, whatever move its ``?done=<seq>`` confirms: a recorded
    move leads to the table's screen at that address (``web.table.confirm``)."""
    return re.sub(r"\?done=\d+$", "", url) == screen


def _free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_until_listening(proc, port, log_path):
    deadline = time.monotonic() + SERVER_START_SECONDS
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"facilitator serve exited with {proc.returncode}:\n{log_path.read_text()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"facilitator serve did not listen on port {port} within {SERVER_START_SECONDS}s:\n"
                       f"{log_path.read_text()}")


class Server:
    """``facilitator serve`` in a subprocess, as at the venue, on a free loopback port with its own
    instance folder and SQLite file and the organizer's password set through the environment;
    ``stop``/``start`` keep the port and the database (a laptop switched off and on again)."""

    def __init__(self, folder):
        self.folder = folder
        self.port = _free_port()
        self.db_url = f"sqlite:///{folder / 'facilitator.db'}"
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = folder / "server.log"
        self.proc = None

    def start(self):
        env = dict(os.environ, FACILITATOR_INSTANCE=str(self.folder / "instance"), DATABASE_URL=self.db_url,
                   PYTHONUNBUFFERED="1", FACILITATOR_ORGANIZER_PASSWORD=ORGANIZER_PASSWORD)
        env.pop("SECRET_KEY", None)
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen([sys.executable, "-m", "facilitator", "serve", "--host", "127.0.0.1",
                                          "--port", str(self.port), "--threads", "4"],
                                         cwd=self.folder, env=env, stdout=log, stderr=subprocess.STDOUT)
        _wait_until_listening(self.proc, self.port, self.log_path)

    def stop(self):
        if self.proc is None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self.proc = None

    def log_tail(self):
        """The server's side of the story (pytest shows it only when a test failed)."""
        return f"--- facilitator serve log ({self.log_path}) ---\n{self.log_path.read_text(errors='replace')[-20000:]}"


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """The app served by waitress, as ``facilitator serve`` runs it: one for every browser module
    of a test process (starting one costs a second of the machine's two cores). Each module
    works on tables and events of its own; a module that needs a server nobody else touched
    (the pack editor's, which edits the sample pack every other module plays on) starts its
    own."""
    srv = Server(tmp_path_factory.mktemp("live-server"))
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()
        print(srv.log_tail())


@pytest.fixture(scope="session")
def live_server(server):
    """The base URL of the served app (``server``)."""
    return server.base


@contextmanager
def chromium(**launch):
    """Headless Debian Chromium (``launch``: more of Playwright's launch options); the module is
    skipped when it is not installed."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is not installed (CI installs Debian's chromium package)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    playwright = sync_api.sync_playwright().start()
    try:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS,
                                             **launch)
        _russian_by_default(browser)
        try:
            yield browser
        finally:
            browser.close()
    finally:
        playwright.stop()


def _russian_by_default(browser):
    """Every page negotiates the browser's language (Accept-Language), and Chromium asks for US
    English unless told otherwise: the tablets of these tests are Russian, as a «16/25» hall's
    are, unless a context names its own ``locale`` (a test of another game asks for its
    language in the address, ``?lang=``)."""
    plain = browser.new_context

    def new_context(**options):
        options.setdefault("locale", "ru-RU")
        return plain(**options)

    browser.new_context = new_context


@pytest.fixture(scope="session")
def browser():
    """Headless Debian Chromium, one for every browser module of a test process (each test
    opens contexts of its own: their own cookies and storage); the tests are skipped when it is
    not installed."""
    with chromium() as launched:
        yield launched


@pytest.fixture
def page(browser):
    """A fresh tablet: its own cookies, a 1024×768 landscape screen, short waits."""
    context = browser.new_context(viewport={"width": 1024, "height": 768}, accept_downloads=True)
    context.set_default_timeout(10_000)
    tab = context.new_page()
    try:
        yield tab
    finally:
        context.close()


@pytest.fixture(scope="session")
def screenshots():
    """``test-output/screenshots/`` at the top of the repository (git-ignored)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
