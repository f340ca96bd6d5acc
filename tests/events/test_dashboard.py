"""The organizer's dashboard during the event (issue 5, items 1 and 3): every table's progress
at a glance (round and era, whose turn, moves recorded, time since the last move with a
"stalled" warning, finished or not), tables added and renamed while games are on, a table's
game record imported, and the printable access sheet with each table's PIN and host link."""

import io
import json
import re
from datetime import datetime, timedelta, timezone

import pytest
import segno
import weasyprint
from pypdf import PdfReader
from sqlmodel import select

from facilitator import services
from facilitator.services import events
from facilitator.i18n import era_name, use_locale
from facilitator.rules.lyceum import Move
from facilitator.storage.models import Event, GameTable, MoveRow

from .helpers import (db, english, everything, flashes, game_record, host_browser, import_table, loaded, log_of,
                      new_event, post, seated_table, table_row, text)

pytestmark = pytest.mark.db

COLUMNS = ("table", "host", "pin", "round", "turn", "moves", "last move", "state")


def dashboard(client, event_id):
    """The dashboard's table rows by table id: their CSS classes and cells by column."""
    response = client.get(f"/organizer/events/{event_id}")
    assert response.status_code == 200
    rows = {}
    for classes, table_id, inner in re.findall(r'<tr class="([^"]*)" data-table="(\d+)">(.*?)</tr>',
                                               response.get_data(as_text=True), re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", inner, re.S)
        plain = [" ".join(re.sub(r"<[^>]+>", " ", c).split()) for c in cells]
        rows[int(table_id)] = {"classes": classes.split(), **dict(zip(COLUMNS, plain))}
    return rows


def move_back(app, table_id, minutes):
    """Make a table's moves look ``minutes`` older than now (in its log and on its row, which
    keeps the time of its last move)."""
    then = datetime.now(timezone.utc) - timedelta(minutes=minutes)
    with db(app) as s:
        for row in s.exec(select(MoveRow).where(MoveRow.table_id == table_id)).all():
            row.created_at = then
            s.add(row)
        table = s.get(GameTable, table_id)
        table.last_move_at = then
        s.add(table)


@pytest.fixture
def event(app):
    """Three tables: one two moves into its game, one finished, one still at the setup."""
    event_id = new_event(app)
    playing = seated_table(app, event_id, "Стол 1", seed=1, moves=2)
    record, _ = game_record(0, 4)
    finished = import_table(app, event_id, "Стол 2", record)
    with db(app) as s:
        waiting = events.add_table(s, s.get(Event, event_id), "Стол 3", host_name="Маша").id
    return event_id, playing, finished, waiting, len(record["moves"])


def test_the_dashboard_shows_every_tables_progress(app, client, event):
    event_id, playing, finished, waiting, finished_moves = event
    game = loaded(app, playing).game
    with use_locale("en"):
        era = era_name(game.era.key)
    rows = dashboard(english(client), event_id)
    assert rows[playing]["round"] == f"1 · {era}"
    assert rows[playing]["turn"] == game.next()["player"]
    assert rows[playing]["moves"] == "2"
    assert rows[playing]["last move"] == "less than a minute ago"  # never «0 min ago»
    assert rows[playing]["state"] == "playing"
    assert rows[playing]["pin"] == table_row(app, playing).pin and re.fullmatch(r"\d{6}", rows[playing]["pin"])

    assert rows[finished]["state"] == "finished"
    assert rows[finished]["moves"] == str(finished_moves)
    assert rows[finished]["round"].startswith(f"{loaded(app, finished).game.round} · ")

    assert rows[waiting]["state"] == "setup"
    assert rows[waiting]["host"] == "Маша"
    assert (rows[waiting]["moves"], rows[waiting]["last move"], rows[waiting]["round"]) == ("0", "—", "—")
    assert not any("stalled" in row["classes"] for row in rows.values())


def test_a_table_without_a_move_for_ten_minutes_is_flagged_as_stalled(app, client, event):
    event_id, playing, finished, waiting, _ = event
    organizer = english(client)
    dashboard(organizer, event_id)  # seen once already: nothing may stick from an earlier look
    move_back(app, playing, 10)
    move_back(app, finished, 60)  # a finished table is never stalled, however long ago it ended
    rows = dashboard(organizer, event_id)
    assert "stalled" in rows[playing]["classes"]
    assert rows[playing]["last move"] == "10 min ago stalled?"
    assert "stalled" not in rows[finished]["classes"] and "stalled?" not in rows[finished]["last move"]
    assert "stalled" not in rows[waiting]["classes"]

    status = {t["id"]: t for t in organizer.get(f"/organizer/events/{event_id}/status.json").get_json()["tables"]}
    assert status[playing]["stalled"] is True and status[playing]["seconds_since_last_move"] >= 600
    assert status[finished]["stalled"] is False and status[finished]["finished"] is True
    assert status[waiting]["stalled"] is False and status[waiting]["moves"] == 0

    # the next move clears the warning
    game = loaded(app, playing).game
    with db(app) as s:
        services.record_move(s, playing, Move("pass", player=game.next()["player"]), loaded(app, playing).seq)
    rows = dashboard(organizer, event_id)
    assert "stalled" not in rows[playing]["classes"] and rows[playing]["moves"] == "3"


def test_tables_are_added_and_renamed_while_the_games_are_on(app, client, event):
    event_id, playing, finished, waiting, _ = event
    organizer = english(client)
    dashboard(organizer, event_id)
    log = log_of(app, playing)

    response = post(organizer, f"/organizer/events/{event_id}/tables/{playing}/rename",
                    {"name": "Стол Альфа", "host_name": "Петя"}, follow_redirects=True)
    assert flashes(response, "ok") == ["Table renamed: «Стол Альфа»"]
    rows = dashboard(organizer, event_id)
    assert (rows[playing]["table"], rows[playing]["host"]) == ("Стол Альфа", "Петя")
    assert log_of(app, playing) == log  # the game goes on as it was
    page = text(organizer.get(f"/organizer/events/{event_id}"))
    ranking = page[page.index("Team ranking"):page.index("Individual ranking")]
    assert "Стол Альфа" in ranking and "Стол 1" not in ranking
    assert "Стол Альфа" in text(host_browser(app, playing).get(f"/table/{playing}"))

    response = post(organizer, f"/organizer/events/{event_id}/tables", {"name": "Стол 4", "host_name": "Оля"},
                    follow_redirects=True)
    assert flashes(response, "ok") == ["Table «Стол 4» added"]
    rows = dashboard(organizer, event_id)
    with db(app) as s:
        added = s.exec(select(GameTable).where(GameTable.name == "Стол 4")).one()
    assert added.event_id == event_id and added.host_name == "Оля"
    assert rows[added.id]["state"] == "setup" and re.fullmatch(r"\d{6}", rows[added.id]["pin"])
    assert len({row["pin"] for row in rows.values()}) == 4  # every table its own PIN
    assert host_browser(app, added.id).get(f"/table/{added.id}/setup").status_code == 200

    # a name is needed, for a new table and a renamed one
    before = everything(app)
    for url in (f"/organizer/events/{event_id}/tables", f"/organizer/events/{event_id}/tables/{playing}/rename"):
        response = post(organizer, url, {"name": "  "}, follow_redirects=True)
        assert flashes(response, "error") == ["The table needs a name (up to 100 characters)"]
    assert everything(app) == before


def test_a_table_that_played_on_paper_is_imported_from_its_game_record(app, client, event):
    event_id = event[0]
    organizer = english(client)
    record, game = game_record(4, 3)
    upload = {"record": (io.BytesIO(json.dumps(record).encode()), "record.json"), "name": "Стол на бумаге"}
    response = post(organizer, f"/organizer/events/{event_id}/import", upload, follow_redirects=True)
    assert flashes(response, "ok") == ["Game record imported as table «Стол на бумаге»"]
    with db(app) as s:
        table = s.exec(select(GameTable).where(GameTable.name == "Стол на бумаге")).one()
    assert table.event_id == event_id and table.token and table.pin
    assert loaded(app, table.id).game.finished
    assert "Стол на бумаге" in text(response)

    # a record that breaks the rules is refused as a whole
    broken = json.loads(json.dumps(record))
    broken["moves"].insert(3, {"type": "finish"})
    before = everything(app)
    upload = {"record": (io.BytesIO(json.dumps(broken).encode()), "record.json")}
    response = post(organizer, f"/organizer/events/{event_id}/import", upload, follow_redirects=True)
    assert flashes(response, "error")[0].startswith("The game record was not imported")
    assert everything(app) == before


def qr_modules(data_uri):
    """The dark modules of a QR code printed as a PNG data URI (one pixel per module, segno),
    shifted to start at (0, 0)."""
    import base64

    from PIL import Image
    image = Image.open(io.BytesIO(base64.b64decode(data_uri.split(",", 1)[1]))).convert("L")
    width, height = image.size
    dark = {(x, y) for y in range(height) for x in range(width) if image.getpixel((x, y)) < 128}
    left, top = min(c for c, _ in dark), min(r for _, r in dark)
    return {(c - left, r - top) for c, r in dark}


def encodes(code, text):
    """Whether a printed QR code holds ``text`` (at any error correction level)."""
    drawn = qr_modules(code)
    for level in "lmqh":
        matrix = segno.make(text, error=level, boost_error=False).matrix
        dark = {(c, r) for r, row in enumerate(matrix) for c, v in enumerate(row) if v}
        if drawn == dark:
            return True
    return False


def test_the_access_sheet_lists_every_tables_name_pin_and_host_link(app, client, event, monkeypatch):
    printed = []

    class Recording(weasyprint.HTML):
        def __init__(self, *args, **kwargs):
            printed.append(kwargs.get("string"))
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(weasyprint, "HTML", Recording)
    event_id, *table_ids, _ = event
    response = client.get(f"/organizer/events/{event_id}/access.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert "attachment" in response.headers["Content-Disposition"]
    reader = PdfReader(io.BytesIO(response.get_data()))
    sheet = "".join(page.extract_text() for page in reader.pages)
    squeezed = "".join(sheet.split())  # long links wrap across lines
    assert "Кубок лицея" in sheet
    links = {}
    for table_id in table_ids:
        table = table_row(app, table_id)
        links[table.name] = f"http://localhost/t/{table.token}"
        assert table.name in sheet and table.pin in sheet
        assert links[table.name] in squeezed  # printed under the code, for a tablet without a camera
    assert "Маша" in sheet  # the host's name, when known
    assert "http://localhost/pin" in squeezed

    # each card's QR code is the code of that card's host link
    cards = re.findall(r'<td class="card"><img src="(data:image/png;base64,[^"]+)".*?<h2>([^<]*)</h2>', printed[0], re.S)
    assert sorted(name for _, name in cards) == sorted(links)
    for svg, name in cards:
        assert encodes(svg, links[name]), name
        assert not encodes(svg, links[name] + "x")
