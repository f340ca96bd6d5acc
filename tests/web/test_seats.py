"""A seat for every player and the odds of a draw (issue 21), in «16/25»: the API's ``playable``
counted by the engine's eligibility, each player's secret page (its figures, its curve, 304 while
the table has not moved), the host's QR codes and the organizer's revocation (410)."""

import io
import re

import pytest
from pypdf import PdfReader

from facilitator.reports.svgchart import read_back
from facilitator.rules.lyceum import COLORS, Move, era_of_round

from facilitator import services
from facilitator.services.db import session_scope
from tests.pages import Phones

from .helpers import get, load, post, record

pytestmark = pytest.mark.db


def brute_force(game, name):
    """The odds counted the long way: every card of the pack, asked of the engine one by one."""
    upcoming = game.upcoming()
    era = era_of_round(upcoming[0] if upcoming else game.round).key
    out = {}
    for color in COLORS:
        cards = [c for c in game.pack.cards if c.era == era and c.color == color]
        out[color] = [sum(1 for c in cards if game.eligible(name, c)), len(cards)]
    return out


def table_state(client, table_id):
    response = client.get(f"/api/v1/tables/{table_id}")
    assert response.status_code == 200
    return response.get_json()


def play_some(app, table_id, turns):
    """Rest and allocate through a few turns, so the players' skills (and odds) move apart."""
    for _ in range(turns):
        game = load(app, table_id).game
        nxt = game.next()
        if nxt["expects"] == "allocate":
            who = game.players[nxt["player"]]
            record(app, table_id, Move("allocate", player=who.name, sp={"creativity": who.pending}))
        else:
            record(app, table_id, Move("rest", player=nxt["player"]))


def test_the_apis_odds_are_the_engines_eligibility_over_the_pack(app, host, table):
    for turns in (0, 7):
        play_some(app, table, turns)
        game = load(app, table).game
        players = table_state(host, table)["players"]
        assert [p["name"] for p in players] == game.order
        for p in players:
            assert p["playable"] == brute_force(game, p["name"])
            assert all(n > 0 for _k, n in p["playable"].values())
    # the era moves on: the odds are counted in the era of the next main move
    assert sum(1 for p in players for k, n in p["playable"].values() if 0 < k < n) > 0


def test_the_turn_screen_says_the_movers_odds(app, host, table):
    game = load(app, table).game
    odds = brute_force(game, game.order[0])
    page = get(host, f"/table/{table}")
    line = re.search(r'<p class="odds[^>]*>([^<]*)</p>', page.html).group(1)
    assert line == (f"{game.order[0]}: {odds['green'][0]} of {odds['green'][1]} green, "
                    f"{odds['yellow'][0]} of {odds['yellow'][1]} yellow, {odds['red'][0]} of {odds['red'][1]} red")


def test_a_players_page_its_poll_and_its_revocation(app, host, table, anon_client):
    players = table_state(host, table)["players"]
    links = {p["name"]: p["page"] for p in players}
    assert len(set(links.values())) == 3 and all(re.search(r"/p/[\w-]{20,}$", u) for u in links.values())
    vika = links["Вика"].split("://", 1)[-1].split("/", 1)[1]
    vika = "/" + vika
    # anyone holding the link (no sign-in) sees Вика's own page
    page = anon_client.get(vika + "?lang=en")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    game = load(app, table).game
    me = game.players["Вика"]
    assert 'class="seat-name">Вика<' in text and f"data-xp>{me.xp}<" in text
    for skill, value in me.skills.items():
        assert f'data-skill="{skill}">{value}<' in text
    odds = brute_force(game, "Вика")
    for color, (k, n) in odds.items():
        assert f'data-color="{color}" data-k="{k}" data-n="{n}"' in text
    chart = re.search(r"<svg.*?</svg>", text, re.S).group(0)
    assert read_back(chart) == {"Вика": [0] + [None] * 10}
    # the poll: 304 while the table has not moved, the page again once it has
    etag = page.headers["ETag"]
    again = anon_client.get(vika, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.get_data() == b""
    play_some(app, table, 6)  # Аня, Борис and Вика rest (and allocate): round 1 is over
    moved = anon_client.get(vika, headers={"If-None-Match": etag})
    assert moved.status_code == 200 and moved.headers["ETag"] != etag
    text = moved.get_data(as_text=True)
    game = load(app, table).game
    assert f'data-skill="energy">{game.players["Вика"].skills["energy"]}<' in text
    assert "Вика rested" in text and "Аня rested" not in text  # the moves that concern her only
    assert read_back(re.search(r"<svg.*?</svg>", text, re.S).group(0))["Вика"][:2] == [0, 0]
    # an unknown secret: 404; no page of anyone else's is reachable without its own link
    assert anon_client.get("/p/" + "x" * 32).status_code == 404
    # the host's screen shows each player's link as a QR code
    seats = get(host, f"/table/{table}/seats")
    assert seats.html.count('class="seat-card"') == 3 and seats.html.count("<svg") >= 3
    assert links["Вика"] in seats.html
    # the organizer revokes Вика's link: it answers 410; her new link works, the others' stay
    current = anon_client.get(vika + "?lang=en", headers={"If-None-Match": etag})  # as seat.js polls: its link's ?lang=
    assert current.status_code == 200
    current = current.headers["ETag"]
    assert anon_client.get(vika + "?lang=en", headers={"If-None-Match": current}).status_code == 304
    form = post(host, f"/table/{table}/seats/revoke", {"player": "Вика"})
    assert form.status == 303
    assert anon_client.get(vika).status_code == 410
    assert anon_client.get(vika, headers={"If-None-Match": etag}).status_code == 410
    # the revoked link's very next poll, with the ETag of the page it holds: 410, never a 304 (also
    # once the table moved on without changing her page, the players' states known to the server)
    gone = anon_client.get(vika + "?lang=en", headers={"If-None-Match": current})
    assert gone.status_code == 410 and "This link was revoked" in gone.get_data(as_text=True)
    play_some(app, table, 1)
    assert anon_client.get(vika + "?lang=en", headers={"If-None-Match": current}).status_code == 410
    fresh = {p["name"]: p["page"] for p in table_state(host, table)["players"]}
    assert fresh["Вика"] != links["Вика"] and fresh["Аня"] == links["Аня"]
    new = "/" + fresh["Вика"].split("://", 1)[-1].split("/", 1)[1]
    assert anon_client.get(new).status_code == 200
    # only the organizer revokes: a host's browser that is not the organizer's gets 403
    assert anon_client.post(f"/table/{table}/seats/revoke", data={"player": "Аня"}).status_code in (400, 403)


def test_a_move_draws_again_only_the_pages_it_changed(app, host, table):
    """A poll is answered 304 while nothing of the player's own changed, even when the table
    moved (and then its ETag names the table's newer position); a page is drawn again when the
    player's figures, odds, turn or moves changed. A move taken back draws every page again."""
    links = {p["name"]: "/" + p["page"].split("://", 1)[1].split("/", 1)[1]
             for p in table_state(host, table)["players"]}
    phones = Phones(app, links, "en")
    try:
        assert phones.poll() == set()
        reached = phones.reached
        assert phones.poll() == set() and phones.reached == reached  # the change check alone, before the app
        play_some(app, table, 2)  # Аня rests and allocates: round 1 begun (a point on every curve)
        assert phones.poll() == set(links)
        mover = load(app, table).game.next()["player"]
        record(app, table, Move("rest", player=mover))  # the mover's SP change; the other two's pages do not
        assert mover == "Борис" and phones.poll() == {mover}
        reached = phones.reached
        assert phones.poll() == set() and phones.reached == reached  # their ETags moved on with the table
        kept = drawn_any = 0
        for _ in range(12):
            play_some(app, table, 1)
            drawn = phones.poll()
            drawn_any += len(drawn)
            kept += len(links) - len(drawn)
        assert kept and drawn_any
        with session_scope(app.extensions["facilitator.engine"]) as s:
            services.undo(s, table, services.load(s, table).seq)
        assert phones.poll() == set(links)  # a move taken back: every page drawn again
    finally:
        phones.close()


def test_the_personal_sheet_is_a_pdf(app, host, table, anon_client):
    play_some(app, table, 6)
    link = table_state(host, table)["players"][0]["page"]
    path = "/" + link.split("://", 1)[-1].split("/", 1)[1]
    sheet = anon_client.get(path + "/sheet.pdf?lang=en")
    assert sheet.status_code == 200 and sheet.mimetype == "application/pdf"
    reader = PdfReader(io.BytesIO(sheet.data))
    assert len(reader.pages) == 1
    text = reader.pages[0].extract_text()
    assert "Аня" in text and "Place" in text and "Аня rested" in text and "Борис rested" not in text


def test_the_projector_draws_each_teams_xp_round_by_round(app, host, anon_client):
    from facilitator import services
    from tests.events.helpers import new_event

    from .helpers import THREE, post_setup
    event_id = new_event(app)
    with services.db.session_scope(app.extensions["facilitator.engine"]) as s:
        tables = [t.id for t in services.events.add_tables(s, services.events.get_event(s, event_id),
                                                            ["Стол 1", "Стол 2"])]
    for table in tables:
        assert post_setup(host, table, THREE).status == 303
    play_some(app, tables[0], 7)  # round 1 over at table 1, and a turn of round 2
    record(app, tables[1], Move("draw", player="Аня", color="green", card="L-G-01", decision="play"))
    data = anon_client.get(f"/e/{event_id}/standings.json?lang=en").get_json()
    svg = re.findall(r"<svg.*?</svg>", data["rendered"], re.S)
    assert len(svg) == 1 and 'class="band"' in svg[0] and "Team XP by round" in svg[0]
    series = read_back(svg[0])
    teams = {t["table"]: t["total_xp"] for t in data["teams"]}
    assert set(series) == set(teams) == {"Стол 1", "Стол 2"}
    assert series["Стол 2"] == [0, 100] + [None] * 9 and teams["Стол 2"] == 100
    assert series["Стол 1"][2] == teams["Стол 1"] and series["Стол 1"][3:] == [None] * 8
    # the labels are big enough for the back of a hall: 28 units in a 1840-unit-wide chart
    assert 'viewBox="0 0 1840 ' in svg[0] and 'font-size="28"' in svg[0]
    # nothing changed: the poll is a 304 from the change check
    etag = anon_client.get(f"/e/{event_id}/standings.json").headers["ETag"]
    assert anon_client.get(f"/e/{event_id}/standings.json", headers={"If-None-Match": etag}).status_code == 304


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # a laid-out PDF: one database shows it
def test_the_access_sheet_prints_a_card_per_player_and_the_organizer_reaches_revoke(app, host, monkeypatch):
    import weasyprint

    from facilitator import i18n, services
    from tests.events.helpers import new_event
    from tests.events.test_dashboard import encodes

    from .helpers import THREE, post_setup
    printed = []

    class Recording(weasyprint.HTML):
        def __init__(self, *args, **kwargs):
            printed.append(kwargs.get("string"))
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(weasyprint, "HTML", Recording)
    event_id = new_event(app)
    with services.db.session_scope(app.extensions["facilitator.engine"]) as s:
        seated, empty = [t.id for t in services.events.add_tables(s, services.events.get_event(s, event_id),
                                                                  ["Стол 1", "Стол 2"])]
    assert post_setup(host, seated, THREE).status == 303
    # the organizer's page of a table leads to its players' pages, where a link is revoked
    table_page = get(host, f"/organizer/events/{event_id}/tables/{seated}")
    assert f'href="/table/{seated}/seats" data-seats' in table_page.html
    assert get(host, f"/table/{seated}/seats").html.count('name="player"') == 3
    # the dashboard offers the access sheet with a card per player: their name, table and code
    dashboard = get(host, f"/organizer/events/{event_id}")
    sheet_url = f"/organizer/events/{event_id}/access.pdf?players=1"
    assert f'href="{sheet_url}" data-seat-cards' in dashboard.html
    response = host.get(sheet_url)
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    reader = PdfReader(io.BytesIO(response.data))
    assert len(reader.pages) == 2  # the tables' cards, then the players' from a page of their own
    players = reader.pages[1].extract_text()
    # (the sheet speaks the event's language; its cards hold names and links in any)
    assert all(name in players for name in ("Аня", "Борис", "Вика")) and players.count("Стол 1") == 3
    assert "Стол 2" not in players  # a table not seated has no players' cards yet
    links = {p["name"]: p["page"] for p in table_state(host, seated)["players"]}
    cards = re.findall(r'<td class="card seat" data-player="([^"]+)"><img src="(data:image/png;base64,[^"]+)"',
                       printed[-1])
    assert sorted(name for name, _code in cards) == sorted(links)
    with services.db.session_scope(app.extensions["facilitator.engine"]) as s:
        spoken = i18n.event_locale(services.events.get_event(s, event_id))
    for name, code in cards:  # each code opens that player's page, in the event's language
        assert encodes(code, links[name] + f"?lang={spoken}"), name
        assert "".join(players.split()).count(links[name] + f"?lang={spoken}") == 1


def test_the_players_links_carry_the_language_and_the_page_offers_the_games(app, host, table, anon_client):
    english = get(host, f"/table/{table}/seats")
    links = re.findall(r'class="seat-link">([^<]+)<', english.html)
    assert len(links) == 3 and all(link.endswith("?lang=en") for link in links)
    host.get("/?lang=ru")
    russian = get(host, f"/table/{table}/seats")
    assert re.findall(r'class="seat-link">([^<]+)<', russian.html) == [link[:-2] + "ru" for link in links]
    page = anon_client.get("/" + links[0].split("://", 1)[1].split("/", 1)[1])
    text = page.get_data(as_text=True)
    assert '<html lang="en">' in text  # the language the link carried
    assert re.findall(r'<a href="\?lang=(\w+)"', text) == ["ru", "en"]  # the game's languages
    sheet = re.search(r'href="([^"]*/sheet\.pdf[^"]*)"', text).group(1)
    assert sheet.endswith("?lang=en")  # the personal sheet in the page's language


def test_the_players_links_name_the_address_the_server_is_reached_at(app, host, table, monkeypatch):
    """Built once per address and language (a move's answer names every link), each link follows
    the host the request came to, or the public address when one is set."""
    import facilitator.web.seats as seats_web
    made = []
    real = seats_web.url_for
    monkeypatch.setattr(seats_web, "url_for", lambda *a, **k: made.append(a) or real(*a, **k))

    with session_scope(app.extensions["facilitator.engine"]) as s:
        token = services.access.ensure_access(s, services.get_table(s, table)).token

    def pages(host_name):  # a script with the table's token (a browser's cookie is its host's)
        answer = host.get(f"/api/v1/tables/{table}", headers={"Host": host_name, "Authorization": f"Bearer {token}"})
        return [p["page"] for p in answer.get_json()["players"]]
    lan = pages("192.168.1.20:5000")
    assert len(lan) == 3 and all(p.startswith("http://192.168.1.20:5000/p/") for p in lan)
    assert pages("192.168.1.20:5000") == lan and len(made) == 1  # built once for that address
    assert all(p.startswith("http://hall.local/p/") for p in pages("hall.local"))
    assert len(made) == 2
    app.config["PUBLIC_URL"] = "https://event.example.org"
    assert [p.split("/p/")[1] for p in pages("hall.local")] == [p.split("/p/")[1] for p in lan]
    assert all(p.startswith("https://event.example.org/p/") for p in pages("192.168.1.20:5000"))


def test_a_table_opened_names_its_links_in_its_first_moves_answer_reading_no_seats(app, host, table):
    """The links made when a table is opened (its state read) are kept once that commits: the
    first move's answer names the same links without reading the seats again; a revoke counts on
    the table's row, and the next answer names the new link."""
    from sqlalchemy import event
    engine = app.extensions["facilitator.engine"]
    state = table_state(host, table)
    links = {p["name"]: p["page"] for p in state["players"]}
    sent = []
    note = lambda _conn, _cursor, statement, *_args: sent.append(statement)  # noqa: E731
    event.listen(engine, "before_cursor_execute", note)
    try:
        mover = load(app, table).game.next()["player"]
        moved = host.post(f"/api/v1/tables/{table}/moves", json={"after": state["seq"],
                                                                   "move": {"type": "rest", "player": mover}})
    finally:
        event.remove(engine, "before_cursor_execute", note)
    assert moved.status_code == 201, moved.get_json()
    assert {p["name"]: p["page"] for p in moved.get_json()["players"]} == links
    assert not [s for s in sent if re.search(r"\bseat\b", s, re.I)], sent
    assert post(host, f"/table/{table}/seats/revoke", {"player": "Вика"}).status == 303
    after = {p["name"]: p["page"] for p in table_state(host, table)["players"]}
    assert after["Вика"] != links["Вика"] and {k: v for k, v in after.items() if k != "Вика"} == \
        {k: v for k, v in links.items() if k != "Вика"}
