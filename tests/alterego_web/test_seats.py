"""Alter Ego's player pages (issue 21): each player's own page shows their influence and actives
as the standings give them, which cards they could play now exactly as the engine's ``offer``
says (with its reason when not), and their influence season by season as the positions before
each season card had it; the projector's chart reads back the standings; the player's one-page
sheet lists their place, actives and moves in the page's language."""

import dataclasses
import io
import random
import re

import pytest
from pypdf import PdfReader

from facilitator import services
from facilitator.reports.svgchart import read_back
from facilitator.rules.alterego import simulate
from facilitator.rules.alterego.record import write_record
from facilitator.rules.alterego.standings import table_standing
from facilitator.rules.alterego.game import Game
from facilitator.services.db import session_scope
from tests.pages import Phones

from .helpers import engine, game_of

pytestmark = pytest.mark.db


def influence(game):
    return {p["name"]: p["influence"] for p in table_standing(game)["players"]}


def mid_game(app, seed=7, event_id=None, name="Pöytä 1"):
    """A random game of three cut off in its third season, imported as a table: ``(id, record)``."""
    record, _game = simulate.play_random(random.Random(seed), players=3, max_moves=400, table=name)
    game, cut = Game(record.pack, record.setup, table=name), 0
    for cut, move in enumerate(record.moves):
        if game.season == 3 and move.type == "season":
            break
        game.apply(move)
    record = dataclasses.replace(record, moves=record.moves[:cut])
    with session_scope(engine(app)) as s:
        table = services.import_record(s, write_record(record), event_id=event_id)
        return table.id, record


def page_of(client, table_id, name):
    players = client.get(f"/api/v1/tables/{table_id}").get_json()["players"]
    link = next(p["page"] for p in players if p["name"] == name)
    return "/" + link.split("://", 1)[1].split("/", 1)[1]


def test_a_players_page_shows_the_engines_answers(app, host, anon_client):
    table_id, record = mid_game(app)
    game = game_of(app, table_id)
    assert game.season == 3
    standing = table_standing(game)
    # the influence at the end of each season: the position just before its season card
    ends, replayed = {}, Game(record.pack, record.setup, table=record.table)
    for move in record.moves:
        if move.type == "season":
            ends[replayed.season] = influence(replayed)
        replayed.apply(move)
    ends[replayed.season] = influence(replayed)
    assert set(ends) == {1, 2, 3}
    for p in standing["players"]:
        name = p["name"]
        text = anon_client.get(page_of(host, table_id, name) + "?lang=en").get_data(as_text=True)
        assert f"data-influence>{p['influence']}<" in text
        for a in (a for a in standing["actives"] if a["owner"] == name):
            assert f'data-active="{a["key"]}"' in text
        chart = read_back(re.search(r"<svg.*?</svg>", text, re.S).group(0))
        assert chart == {name: [ends[1][name], ends[2][name], ends[3][name], None]}
        # the cards: playable exactly when the engine's offer says so, else with its reason
        playable = re.search(r"data-playable>(.*?)</ul>", text, re.S).group(1)
        refused = re.search(r"data-not-playable>(.*?)</ul>", text, re.S).group(1)
        for card in record.pack.activity_cards + record.pack.event_cards:
            kind = "play_activity" if card in record.pack.activity_cards else "play_event"
            offer = game.offer({"type": kind, "player": name, "card": card.key})
            assert (f"<b>{card.name}</b>" in playable) == offer["legal"], (name, card.key)
            assert (f"<b>{card.name}</b>" in refused) != offer["legal"], (name, card.key)
        if name != game.current:
            assert "data-my-turn" not in text and "<b>" not in playable


def test_a_move_draws_again_only_the_pages_it_changed(app, host):
    """The game goes on move by move: a poll is answered 304 only while the page it holds is the
    page the server would draw now (``tests.pages.Phones`` checks each one), and some pages are
    left as they were while others are drawn again."""
    full, _game = simulate.play_random(random.Random(7), players=3, max_moves=400, table="Pöytä 1")
    table_id, record = mid_game(app)
    names = [p["name"] for p in host.get(f"/api/v1/tables/{table_id}").get_json()["players"]]
    phones = Phones(app, {name: page_of(host, table_id, name) for name in names}, "en")
    try:
        kept = drawn = 0
        for move in full.moves[len(record.moves):len(record.moves) + 16]:
            with session_scope(engine(app)) as s:
                services.record_move(s, table_id, move, services.load(s, table_id).seq)
            changed = phones.poll()
            kept, drawn = kept + len(names) - len(changed), drawn + len(changed)
        assert kept and drawn
    finally:
        phones.close()


def test_the_projector_draws_each_tables_influence(app, host, anon_client):
    with session_scope(engine(app)) as s:
        event = services.events.create_event(s, "Ropecon", ruleset="alter-ego-3")
        event_id = event.id
    table_id, _record = mid_game(app, seed=11, event_id=event_id, name="Pöytä A")
    data = anon_client.get(f"/e/{event_id}/standings.json?lang=en").get_json()
    charts = re.findall(r"<svg.*?</svg>", data["rendered"], re.S)
    assert len(charts) == 1
    game = game_of(app, table_id)
    now = influence(game)
    series = read_back(charts[0])
    assert {n: v[2] for n, v in series.items()} == now and all(v[3] is None for v in series.values())
    assert {p["name"]: p["influence"] for p in data["individuals"]} == now  # the standings' own figures


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # a laid-out PDF: one database shows it
def test_the_personal_sheet_is_one_page_of_the_players_game(app, host, anon_client, monkeypatch):
    table_id, record = mid_game(app)
    game = game_of(app, table_id)
    standing = table_standing(game)
    me = standing["players"][1]
    name = me["name"]
    # the page offers the sheet in its own language (here Finnish, as its link asked)
    page = anon_client.get(page_of(host, table_id, name) + "?lang=fi").get_data(as_text=True)
    sheet_url = re.search(r'class="button" href="([^"]*/sheet\.pdf[^"]*)"', page).group(1).replace("&amp;", "&")
    assert sheet_url.endswith("?lang=fi")
    sheet = anon_client.get(sheet_url)
    assert sheet.status_code == 200 and sheet.mimetype == "application/pdf"
    reader = PdfReader(io.BytesIO(sheet.data))
    assert len(reader.pages) == 1
    text = reader.pages[0].extract_text()
    assert name in text and "Sija" in text and f"{me['place']} / 3" in text  # in Finnish: «Place»
    assert "Vaikutusvaltani kausittain" in text  # the chart's heading (its curve: the page's, read back above)
    for active in (a for a in standing["actives"] if a["owner"] == name):
        assert f"{active['anxiety']} / {active['bo']}" in text
    # the player's own moves are listed by their number; another's that did not touch them is not
    mine = [i for i, move in enumerate(record.moves, start=1) if getattr(move, "player", None) == name]
    assert mine and all(f"#{i} {name}" in text for i in mine)
    others = {i for i, move in enumerate(record.moves, start=1) if getattr(move, "player", None) not in (name, None)}
    assert any(f"#{i} " not in text for i in others)
    # a very long game: the latest moves that fit the page, the earlier ones counted
    from facilitator.games.alterego import seat
    monkeypatch.setattr(seat, "SHEET_ROWS", 4)
    short = PdfReader(io.BytesIO(anon_client.get(sheet_url.replace("lang=fi", "lang=en")).data))
    lines = short.pages[0].extract_text()
    left_out = int(re.search(r"The latest moves; (\d+) earlier ones are on my page", lines).group(1))
    assert len(short.pages) == 1 and left_out > 0 and f"#{mine[-1]} {name}" in lines


def test_the_turn_screen_leads_to_the_players_pages_in_the_games_language(app, host, table, anon_client):
    from .helpers import get
    screen = get(host, f"/ae/table/{table}")
    assert f'href="/table/{table}/seats" data-seats' in screen.html  # in its Files
    for chosen in ("ru", "sv"):  # one of the game's languages, and one it does not speak
        host.get(f"/?lang={chosen}")
        seats = get(host, f"/table/{table}/seats")
        spoken = re.search(r'<html lang="(\w+)"', seats.html).group(1)  # the host's, as the game speaks it
        assert spoken == chosen if chosen == "ru" else spoken in ("fi", "en")
        links = re.findall(r'class="seat-link">([^<]+)<', seats.html)
        assert len(links) == 3 and all(link.endswith(f"?lang={spoken}") for link in links)
        page = anon_client.get("/" + links[0].split("://", 1)[1].split("/", 1)[1]).get_data(as_text=True)
        assert f'<html lang="{spoken}">' in page  # the player's page opens in it, and offers the game's
        assert re.findall(r'<a href="\?lang=(\w+)"', page) == ["fi", "en", "ru"]
