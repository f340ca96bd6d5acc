"""The protocol PDF is made once per position of the game, in a worker process, and kept until
the log changes (issue 9.10): finishing a game starts it in the background, a download that
would wait shows its progress instead, and the next request gets the kept file."""

import json
from concurrent.futures import Future

import pytest

from facilitator import services
from facilitator.rules.lyceum import Move

from .helpers import get, load, pass_until, record, submit

pytestmark = [pytest.mark.db, pytest.mark.server]


def finish(host, table):
    pass_until(host.application, table, lambda g: g.next()["expects"] == "finish")
    return submit(host, get(host, f"/table/{table}/finish").form("/move/finish"))


def cached_files():
    return sorted(p.name for p in services.exports.cache_folder().glob("*.pdf"))


@pytest.fixture(autouse=True)
def _prepared(request):
    """These tests look at the protocols made in the background (the other tests turn it off).
    A test without the app (the access sheet's) runs once, not once per database backend."""
    if "app" in request.fixturenames:
        request.getfixturevalue("app").config["PREPARE_PROTOCOLS"] = True


class NeverDone:
    """A worker that notes what it was asked to make and never finishes it: the protocol is
    "being made" for as long as the test runs."""

    def __init__(self):
        self.submitted = 0

    def submit(self, *args, **kwargs):
        self.submitted += 1
        return Future()


def test_finishing_starts_the_protocol_and_the_download_is_the_kept_file(host, table):
    assert finish(host, table).status == 303
    first = host.get(f"/table/{table}/protocol.pdf")
    assert first.status_code == 200 and first.mimetype == "application/pdf"
    assert len(cached_files()) == 1  # made once, at the finish
    again = host.get(f"/table/{table}/protocol.pdf")
    assert again.get_data() == first.get_data() and len(cached_files()) == 1


@pytest.mark.parametrize("how", ["move", "batch"])
def test_a_game_finished_over_the_api_or_by_the_outbox_starts_its_protocol_too(host, table, monkeypatch, how):
    """Every finish tapped with JavaScript on goes through the tablet's outbox (the batch
    endpoint): its protocol is started at once, as the form's finish does."""
    worker = NeverDone()
    monkeypatch.setattr(services.exports, "_executor", lambda: worker)
    pass_until(host.application, table, lambda g: g.next()["expects"] == "finish")
    after = load(host.application, table).seq
    finish = {"after": after, "move": {"type": "finish"}, "client_id": "f1"}
    url = f"/api/v1/tables/{table}/moves" + ("/batch" if how == "batch" else "")
    body = {"moves": [finish], "flash": True} if how == "batch" else finish
    response = host.post(url, data=json.dumps(body), content_type="application/json")
    assert response.status_code in (200, 201), response.get_json()
    assert load(host.application, table).game.finished and worker.submitted == 1


def test_a_new_position_gets_a_new_protocol(host, table):
    host.get(f"/table/{table}/protocol.pdf")
    record(host.application, table, Move("pass", player="Аня"))
    host.get(f"/table/{table}/protocol.pdf")
    assert len(cached_files()) == 2  # the provisional protocol of each position, never a stale one


def test_a_protocol_still_being_made_shows_its_progress_and_is_asked_for_again(host, table, monkeypatch):
    worker = NeverDone()
    monkeypatch.setattr(services.exports, "_executor", lambda: worker)
    host.application.config["PROTOCOL_WAIT_SECONDS"] = 0.05
    page = host.get(f"/table/{table}/protocol.pdf")
    assert page.status_code == 202 and page.headers["Refresh"] == "1"
    assert "The protocol is being prepared" in page.get_data(as_text=True)
    host.get(f"/table/{table}/protocol.pdf")
    assert worker.submitted == 1  # asked again while it is being made: not started twice
    assert load(host.application, table).game is not None


def test_a_sheet_laid_out_in_the_worker_process_is_the_same_pdf():
    """The access sheet of 60 tables is laid out in the worker process (never stalling the
    tablets' moves) and reads back as the one laid out here."""
    from pypdf import PdfReader
    import io
    cards = [{"name": f"Стол {i}", "host": "", "pin": f"{i:06d}", "url": f"http://10.0.0.2:8000/t/token{i}"}
             for i in range(1, 61)]
    args = ("facilitator.reports.access", "access_sheet_pdf", "Кубок", "2026-11-29", cards, "http://10.0.0.2:8000/pin")

    def text(pdf):
        return "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    there = services.exports.in_worker(*args, locale="ru")
    here = services.exports.in_worker(*args, locale="ru", inline=True)
    assert text(there) == text(here) and "Стол 60" in text(there) and "000060" in text(there)
