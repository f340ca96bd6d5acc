"""A fourth game proves the app hosts any game (issue 19, item 8): Tally, a package of its own
(``tests/plugin_game``: its engine, screens, protocol and templates), installed as its own
distribution (``plugin.py``) and found through the ``facilitator.games`` entry point, is set
up, played, undone, exported and shown in an event through the app, with nothing under
``facilitator/`` naming it.
"""

import io
import json
import re
from importlib import metadata
from pathlib import Path

import pytest

from facilitator import games, services
from facilitator.rules import registry
from tests.pages import Page, csrf_token, db, english, get, submit

from . import plugin

FACILITATOR = Path(__file__).resolve().parents[2] / "facilitator"
#: how a file would name the test game: its package, its key as a value, its formats, its screens
NAMED = re.compile(r"facilitator_tally|[\"']tally[\"']|tally-(pack|record|standings)|[\"']tally\.|/tally\b")


def pack_id(app):
    with db(app) as s:
        return next(p.id for p in services.packs.list_packs(s, plugin.KEY))


def scores(page):
    """``{player: score}`` as the screen shows them."""
    return {name: int(score) for name, score in re.findall(r'data-player="([^"]+)" data-score="(\d+)"', page.html)}


def play(client, table_id, *moves):
    """Moves tapped on the turn screen: ``("add", points)`` or ``("pass",)``, each by whoever's
    turn it is. Returns the last response."""
    for kind, *points in moves:
        page = get(client, f"/tally/table/{table_id}")
        assert page.status == 200, (page.status, page.text[:500])
        done = submit(client, page.form(f"/move/{kind}"), **({"points": points[0]} if points else {}))
        assert done.status == 303, (kind, done.status, done.text[:800])
    return done


def seat(client, table_id, *names):
    page = get(client, f"/tally/table/{table_id}/setup")
    assert page.status == 200, page.status
    done = submit(client, page.form("/setup"), **{f"player-{i}": n for i, n in enumerate(names)})
    assert done.status == 303 and done.response.headers["Location"] == f"/tally/table/{table_id}", done.text[:500]


# ----- installed as a distribution of its own --------------------------------------------------------
def test_the_game_is_found_through_its_own_distributions_entry_point(tally, tally_site):
    assert type(tally).__module__ == "facilitator_tally" and Path(tally.folder).is_relative_to(tally_site)
    [point] = [ep for ep in metadata.entry_points(group=games.GROUP) if ep.name == plugin.KEY]
    assert (point.value, point.dist.name) == ("facilitator_tally:GAME", "facilitator-tally")
    assert registry.get("tally") is tally.ruleset and registry.of_pack({"format": "tally-pack/1"}) is tally.ruleset
    plugin.uninstall(tally_site)
    try:
        assert plugin.KEY not in {g.key for g in games.registered()}
        with pytest.raises(KeyError):
            registry.get(plugin.KEY)
    finally:
        plugin.install(tally_site)
    assert games.get(plugin.KEY).ruleset is tally.ruleset


def test_no_file_of_the_app_names_the_game():
    named = [str(path.relative_to(FACILITATOR)) for path in FACILITATOR.rglob("*")
             if path.suffix in (".py", ".html", ".js", ".css", ".po", ".toml", ".json")
             and NAMED.search(path.read_text(encoding="utf-8", errors="replace"))]
    assert named == []


# ----- a lone host's table -----------------------------------------------------------------------------
def test_a_table_is_set_up_played_undone_and_exported(app, client):
    host = english(client)
    assert "Tally" in get(host, "/").text, "the start page offers the game by its name"
    start = get(host, "/?game=tally")
    assert "Tally to 10" in start.text, "then the game's pack"
    created = host.post("/tables", data=start.form("/tables").data(name="Kitchen", pack=pack_id(app)))
    assert created.status_code == 303
    table_id = int(re.search(r"/tally/table/(\d+)/setup$", created.headers["Location"]).group(1))
    seat(host, table_id, "Ann", "Ben")
    assert host.get(f"/table/{table_id}").headers["Location"] == f"/tally/table/{table_id}", \
        "the table's generic address opens its own game's screen"

    play(host, table_id, ("add", 3), ("pass",))
    turn = get(host, f"/tally/table/{table_id}")
    assert scores(turn) == {"Ann": 3, "Ben": 0} and 'data-turn="Ann"' in turn.html
    undone = submit(host, turn.form("/undo"), follow=True)
    assert "Move #2 (pass) was undone; it stays in the history, marked undone." in undone.messages("ok")
    assert 'data-turn="Ben"' in undone.html
    last = play(host, table_id, ("add", 2), ("add", 3), ("add", 3), ("add", 3), ("add", 3), ("add", 3))
    assert last.response.headers["Location"] == f"/tally/table/{table_id}/final"
    final = get(host, f"/tally/table/{table_id}/final")
    assert 'data-winner="Ann"' in final.html and scores(final) == {"Ann": 12, "Ben": 8}
    with db(app) as s:
        assert services.get_table(s, table_id).status == "finished"
    refused = Page(host.post(f"/tally/table/{table_id}/undo", data={"after": 9, "csrf_token": csrf_token(host)}))
    assert refused.status == 409 and "only the organizer can reopen it" in refused.text

    record = host.get(f"/table/{table_id}/record.json")
    assert record.status_code == 200
    data = json.loads(record.get_data())
    assert data["format"] == "tally-record/1" and data["setup"] == {"players": ["Ann", "Ben"]}
    assert [(m["player"], m["type"], m.get("points")) for m in data["moves"]] == [
        ("Ann", "add", 3), ("Ben", "add", 2), ("Ann", "add", 3), ("Ben", "add", 3), ("Ann", "add", 3),
        ("Ben", "add", 3), ("Ann", "add", 3)], "the moves in force, the undone pass left out"
    rules = registry.of_record(data)
    replayed = rules.replay(rules.read_record(data))
    assert replayed.winner == "Ann" and replayed.scores == {"Ann": 12, "Ben": 8}

    workbook = host.get(f"/table/{table_id}/protocol.xlsx")
    assert workbook.status_code == 200
    from openpyxl import load_workbook
    book = load_workbook(io.BytesIO(workbook.get_data()))
    assert book.sheetnames == ["Result", "Log"]
    assert list(book["Result"].iter_rows(min_row=5, values_only=True)) == [(1, "Ann", 12), (2, "Ben", 8)]
    log = list(book["Log"].iter_rows(min_row=2))
    assert [(r[1].value, r[2].value, r[3].value) for r in log if r[1].font.strike] == [("Ben", "pass", "undone")]
    assert len(log) == 8, "seven moves in force and the undone one"
    assert host.get(f"/table/{table_id}/blank.pdf").status_code == 404, "the game prints no paper protocol"

    imported = host.post("/tables/import", data={"record": (io.BytesIO(record.get_data()), "record.json"),
                                                 "csrf_token": csrf_token(host)}, content_type="multipart/form-data")
    assert imported.status_code == 303 and re.fullmatch(r"/tally/table/\d+", imported.headers["Location"])
    assert scores(get(host, imported.headers["Location"] + "/final")) == {"Ann": 12, "Ben": 8}


def test_its_protocol_pdf_is_made_from_its_record_as_the_pdf_worker_makes_it(tally, tally_site):
    """The worker process finds a record's game by its format and prints it with the game's own
    module and print template, also when the print templates were gathered before it was
    installed (``registry.on_change``)."""
    from pypdf import PdfReader

    from facilitator.reports import pdf
    from facilitator.reports.games import protocol_pdf_from_record
    plugin.uninstall(tally_site)
    try:
        pdf.environment()  # the print templates gathered without the game
    finally:
        plugin.install(tally_site)
    engine = tally.ruleset
    pack = engine.read_pack(engine.default_pack_data())
    moves = [engine.read_move({"type": "add", "player": p, "points": 3}) for p in ("Ann", "Ben") * 3 + ("Ann",)]
    record = engine.make_record("Kitchen", pack, engine.read_setup({"setup": {"players": ["Ann", "Ben"]}}), moves)
    undone = [{"move": {"type": "pass", "player": "Ben"}, "kind": "undo", "undone_by": "host"}]
    data = protocol_pdf_from_record(record.to_dict(), undone=undone, event="Tally night", locale="en")
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)
    assert "Tally · Kitchen" in text and "final" in text and "undone (host)" in text
    assert re.search(r"1\s+Ann\s+12", text) and re.search(r"2\s+Ben\s+9", text), text


def test_its_records_replay_on_the_command_line(tally, tmp_path, capsys):
    from facilitator import cli
    engine = tally.ruleset
    pack = engine.read_pack(engine.default_pack_data())
    moves = [engine.read_move({"type": "add", "player": p, "points": 2}) for p in ("Ann", "Ben", "Cleo")]
    record = engine.make_record("Kitchen", pack, engine.read_setup({"setup": {"players": ["Ann", "Ben", "Cleo"]}}),
                                moves)
    path = tmp_path / "kitchen.json"
    path.write_text(json.dumps(record.to_dict()), encoding="utf-8")
    assert cli.main(["replay", str(path)]) == 0
    assert capsys.readouterr().out.split("\n")[:2] == ["Kitchen", "  1. Ann 2"]
    assert cli.main(["replay", "--json", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["format"] == "tally-standings/1" and out["tables"][0]["next"] == "Ann"


# ----- an event of the game ---------------------------------------------------------------------------
def test_an_event_of_the_game_on_its_dashboard_projector_and_backup(app, client, anon_client):
    organizer = english(client)
    home = get(organizer, "/organizer/?game=tally")
    created = submit(organizer, home.form("/organizer/events"), name="Tally night", date="2025-05-17",
                     pack=pack_id(app), tables=2)
    event_url = created.response.headers["Location"]
    event_id = int(re.fullmatch(r"/organizer/events/(\d+)", event_url).group(1))
    with db(app) as s:
        assert services.events.get_event(s, event_id).ruleset == plugin.KEY
        (first, link), (second, token) = [(t.id, t.token) for t in services.events.tables_of(s, event_id)]

    host = english(anon_client)  # a host opens the first table by its link
    opened = host.get(f"/t/{link}", follow_redirects=True)
    assert opened.status_code == 200 and opened.request.path == f"/tally/table/{first}/setup"
    seat(host, first, "Ann", "Ben")
    play(host, first, *[("add", 3)] * 7)  # Ann reaches 12 first

    bearer = {"Authorization": f"Bearer {token}"}  # the second table by a script, through the API
    seated = anon_client.put(f"/api/v1/tables/{second}/players", headers=bearer,
                             json={"rev": 0, "players": {"setup": {"players": ["Cleo", "Dan"]}}})
    assert seated.status_code == 200, seated.get_json()
    moved = anon_client.post(f"/api/v1/tables/{second}/moves", headers=bearer,
                             json={"after": 0, "move": {"type": "add", "player": "Cleo", "points": 2}})
    assert moved.status_code == 201 and moved.get_json()["next"] == "Dan", moved.get_json()
    illegal = anon_client.post(f"/api/v1/tables/{second}/moves", headers=bearer,
                               json={"after": 1, "move": {"type": "add", "player": "Dan", "points": 4}})
    assert illegal.status_code == 422 and illegal.get_json()["error"]["code"] == "too_many_points"

    dashboard = get(organizer, event_url)
    rows = {int(t): " ".join(re.sub(r"<[^>]+>", " ", row).split())
            for t, row in re.findall(r'<tr[^>]*data-table="(\d+)">(.*?)</tr>', dashboard.html, re.S)}
    assert "Ann wins" in rows[first] and "finished" in rows[first]
    assert " Dan " in rows[second] and "playing" in rows[second]
    ranking = re.findall(r'data-player="([^"]+)" data-place="(\d+)"', dashboard.html)
    assert ranking == [("Ann", "1"), ("Ben", "2"), ("Cleo", "3"), ("Dan", "4")]
    status = organizer.get(f"/organizer/events/{event_id}/status.json").get_json()
    assert [(t["id"], t["finished"], t["round"]) for t in status["tables"]] == [(first, True, 4), (second, False, 1)]

    assert anon_client.get(f"/e/{event_id}").status_code == 200
    standings = anon_client.get(f"/e/{event_id}/standings.json").get_json()
    assert standings["ruleset"] == plugin.KEY and standings["provisional"] is True
    assert [(p["name"], p["score"]) for p in standings["individuals"]] == [("Ann", 12), ("Ben", 9), ("Cleo", 2),
                                                                         ("Dan", 0)]
    assert 'data-player="Ann"' in standings["rendered"], "the projector shows the game's own part"

    backup = organizer.get(f"/organizer/events/{event_id}/backup.json")
    assert backup.status_code == 200 and json.loads(backup.get_data())["ruleset"] == plugin.KEY
    restored = organizer.post("/organizer/restore", content_type="multipart/form-data", data={
        "backup": (io.BytesIO(backup.get_data()), "backup.json"), "name": "Tally night again",
        "csrf_token": csrf_token(organizer)})
    assert restored.status_code == 303, Page(restored).messages()
    copy_id = int(re.fullmatch(r"/organizer/events/(\d+)", restored.headers["Location"]).group(1))
    with db(app) as s:
        assert services.events.get_event(s, copy_id).ruleset == plugin.KEY
        assert [(t.name, t.status, t.move_count) for t in services.events.tables_of(s, copy_id)] == [
            ("Table 1", "finished", 7), ("Table 2", "playing", 1)]
