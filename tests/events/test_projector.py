"""The projector view (issue 5, item 4): a public read-only page that polls its standings with
conditional requests — 304 while nothing changed, a new ETag after every move, undo, table
change or announcement step — and the announcement mode the organizer steps through from
the last place to the first."""

import random
import re

import pytest

from facilitator import services
from facilitator.services import events
from facilitator.rules.lyceum.simulate import random_setup
from facilitator.storage.models import Event

from .helpers import PACK, db, english, game_record, import_table, move_forms, new_event, post, seated_table

pytestmark = pytest.mark.db


def standings_url(event_id):
    return f"/e/{event_id}/standings.json"


def test_the_standings_json_is_304_until_something_changes(app, client, anon_client):
    event_id = new_event(app)
    table_id = seated_table(app, event_id, "Стол 1", seed=1, moves=2)
    url = standings_url(event_id)
    first = anon_client.get(url)
    assert first.status_code == 200
    assert first.headers["Cache-Control"] == "no-cache"
    assert first.get_json()["tables"] == [{"name": "Стол 1", "round": 1, "finished": False}]
    etags = [first.headers["ETag"]]

    def unchanged():
        response = anon_client.get(url, headers={"If-None-Match": etags[-1]})
        assert response.status_code == 304 and response.get_data() == b""
        assert response.headers["ETag"] == etags[-1]

    def changed(what):
        response = anon_client.get(url, headers={"If-None-Match": etags[-1]})
        assert response.status_code == 200, what
        assert response.headers["ETag"] not in etags, what  # never an ETag seen before
        etags.append(response.headers["ETag"])
        unchanged()
        return response.get_json()

    unchanged()
    organizer = english(client)
    label, form_url, fields = move_forms(app, table_id)[0]
    assert post(organizer, form_url, fields).status_code == 303
    changed("a move")
    with db(app) as s:
        services.undo(s, table_id, services.load(s, table_id).seq)
    changed("an undo")
    assert post(organizer, f"/organizer/events/{event_id}/tables/{table_id}/rename", {"name": "Стол один"}
                ).status_code == 303
    assert [t["name"] for t in changed("a rename")["tables"]] == ["Стол один"]
    with db(app) as s:
        new_id = events.add_table(s, s.get(Event, event_id), "Стол 2").id
    changed("a new table")
    with db(app) as s:
        services.set_players(s, new_id, random_setup(PACK, random.Random(1), 3))
    assert len(changed("a table seated")["individuals"]) == 6
    with db(app) as s:  # the same table seated again, other players (no move recorded yet)
        services.set_players(s, new_id, random_setup(PACK, random.Random(2), 4))
    assert len(changed("a table seated again")["individuals"]) == 7
    assert post(organizer, f"/organizer/events/{event_id}/announce", {"action": "start"}).status_code == 303
    changed("an announcement step")


def test_the_projector_page_shows_the_standings_or_the_chart_asked_for_without_javascript(app, client, anon_client):
    """The page as served (before any script runs): the standings by default, the chart with
    ``?view=chart`` (a hall's screen without JavaScript, or a second screen); an announcement
    draws no chart, so a screen pinned to the chart shows the places being revealed."""
    event_id = new_event(app)
    seated_table(app, event_id, "Стол 1", seed=1, moves=2)

    def page(query=""):
        body = anon_client.get(f"/e/{event_id}{query}").get_data(as_text=True)
        main = re.search(r'<main id="standings" class="([^"]*)" data-view="([^"]*)"', body)
        return main.group(1), main.group(2), body

    view, pinned, body = page()
    assert (view, pinned) == ("view-standings", "auto")
    assert body.count('<section class="proj-chart">') == 1 and 'class="proj-standings with-chart"' in body
    assert page("?view=chart")[:2] == ("view-chart", "chart")
    assert page("?view=standings")[:2] == ("view-standings", "standings")
    assert page("?view=nonsense")[:2] == ("view-standings", "auto")
    assert post(english(client), f"/organizer/events/{event_id}/announce", {"action": "start"}).status_code == 303
    view, pinned, body = page("?view=chart")
    assert view == "view-chart" and '<section class="proj-chart">' not in body and "with-chart" not in body


def test_another_event_changing_leaves_this_etag_alone(app, anon_client):
    here, there = new_event(app, "Кубок лицея"), new_event(app, "Другой турнир")
    seated_table(app, here, "Стол 1")
    other = seated_table(app, there, "Стол 1", seed=2)
    etag = anon_client.get(standings_url(here)).headers["ETag"]
    with db(app) as s:
        services.undo(s, other, services.load(s, other).seq)
    assert anon_client.get(standings_url(here), headers={"If-None-Match": etag}).status_code == 304


def test_ten_projectors_share_one_drawing_per_change_and_a_poll_with_nothing_new_never_reaches_flask(
        app, client, anon_client, monkeypatch):
    """However many screens poll, the standings are drawn once per change of the event and
    language; a poll with nothing new is answered 304 from the event's row alone, and one after
    a change is handed the drawing already made, both in front of Flask (``web.polls``)."""
    from facilitator.web import public
    event_id = new_event(app)
    table_id = seated_table(app, event_id, "Стол 1", seed=1, moves=2)
    url = standings_url(event_id)
    drawn = []
    draw = public._draw
    monkeypatch.setattr(public, "_draw", lambda *args: drawn.append(args) or draw(*args))
    polls = app.wsgi_app  # web.polls, in front of Flask
    inner, reached = polls.wsgi_app, []
    monkeypatch.setattr(polls, "wsgi_app", lambda environ, start: reached.append(environ["PATH_INFO"]) or inner(environ, start))
    screens = [app.test_client() for _ in range(10)]
    first = [screen.get(url) for screen in screens]
    assert len(drawn) == 1 and len({r.headers["ETag"] for r in first}) == 1
    etag, body = first[0].headers["ETag"], first[0].get_data()
    assert all(r.get_data() == body and "Set-Cookie" not in r.headers for r in first)
    reached.clear()
    for screen in screens:  # nothing new: answered from the event's row alone, before the app
        again = screen.get(url, headers={"If-None-Match": etag})
        assert again.status_code == 304 and again.headers["ETag"] == etag and "Set-Cookie" not in again.headers
    assert reached == []
    label, form_url, fields = move_forms(app, table_id)[0]
    assert post(english(client), form_url, fields).status_code == 303
    reached.clear()
    after = [screen.get(url, headers={"If-None-Match": etag}) for screen in screens]
    assert [r.status_code for r in after] == [200] * 10 and len(drawn) == 2  # one drawing for the ten
    assert len({r.headers["ETag"] for r in after} | {etag}) == 2 and len({r.get_data() for r in after}) == 1
    assert after[0].get_json()["rendered"] and all(r.mimetype == "application/json" for r in after)
    assert reached == [url]  # the first drew it; the nine others were handed it before the app
    # a screen asking in another of the game's languages gets its own drawing, once
    english_screens = [screen.get(url + "?lang=en") for screen in screens[:3]]
    assert len(drawn) == 3 and len({r.headers["ETag"] for r in english_screens}) == 1
    assert english_screens[0].headers["ETag"] != after[0].headers["ETag"]
    reached.clear()
    assert screens[0].get(url + "?lang=en", headers={"If-None-Match": english_screens[0].headers["ETag"]}
                          ).status_code == 304 and reached == []


# ----- the announcement ---------------------------------------------------------------------------
def announcement(anon_client, event_id):
    data = english(anon_client).get(standings_url(event_id) + "?lang=en").get_json()
    return data["announcement"], data["rendered"]


def newest(rendered):
    """The team the projector has just revealed (the one it animates)."""
    item = re.search(r'<li class="[^"]*newest[^"]*">(.*?)</li>', rendered, re.S)
    return re.search(r'class="name">([^<]*)<', item.group(1)).group(1)


def test_the_announcement_steps_from_the_last_place_to_the_first(app, client, anon_client):
    event_id = new_event(app)
    for name, seed in (("Стол 1", 0), ("Стол 2", 1), ("Стол 3", 4)):  # places 2, 1 and 3
        import_table(app, event_id, name, game_record(seed, 3)[0])
    organizer = english(client)

    def step(action):
        assert post(organizer, f"/organizer/events/{event_id}/announce", {"action": action}).status_code == 303
        return announcement(anon_client, event_id)

    live, rendered = announcement(anon_client, event_id)
    assert live is None and all(name in rendered for name in ("Стол 1", "Стол 2", "Стол 3"))

    ann, rendered = step("start")
    assert (ann["step"], ann["total"], ann["done"]) == (1, 3, False)
    assert [(t["place"], t["table"]) for t in ann["teams"]] == [(3, "Стол 3")]
    assert "Стол 3" in rendered and "Стол 1" not in rendered and "Стол 2" not in rendered
    assert "Top players" not in rendered  # nothing else gives the places away
    data = english(anon_client).get(standings_url(event_id) + "?lang=en").get_json()
    assert [t["table"] for t in data["teams"]] == ["Стол 3"] and data["individuals"] == []  # nor the JSON

    ann, rendered = step("next")
    assert [(t["place"], t["table"]) for t in ann["teams"]] == [(2, "Стол 1"), (3, "Стол 3")]
    assert "Стол 2" not in rendered and newest(rendered) == "Стол 1"

    ann, rendered = step("next")
    assert [t["place"] for t in ann["teams"]] == [1, 2, 3] and ann["done"] is True
    assert newest(rendered) == "Стол 2"
    assert rendered.index("Стол 3") < rendered.index("Стол 1") < rendered.index("Стол 2")  # the winner last

    ann, _ = step("next")
    assert ann["step"] == 3  # no step past the first place
    ann, rendered = step("back")
    assert [t["place"] for t in ann["teams"]] == [2, 3] and "Стол 2" not in rendered
    ann, _ = step("back")
    ann, _ = step("back")
    assert ann["step"] == 1  # no step before the last place

    ann, rendered = step("stop")
    assert ann is None and "Top players" in rendered

    dashboard = organizer.get(f"/organizer/events/{event_id}").get_data(as_text=True)
    assert "Announcement mode is off" in dashboard
    assert post(organizer, f"/organizer/events/{event_id}/announce", {"action": "shuffle"}).status_code == 400


# ----- the freshness window ------------------------------------------------------------------------
class Clock:
    """``time`` as ``web.public`` reads it, moved on by hand."""

    def __init__(self):
        self.now = 1000.0

    def monotonic(self):
        return self.now


def test_while_the_games_go_on_a_drawing_stands_for_the_freshness_window(app, client, anon_client, monkeypatch):
    """``PROJECTOR_FRESH_SECONDS`` after a drawing, the screens keep it (304, before the app),
    however the event moves on; the next poll after the window draws the event as it is, once.
    An announcement is drawn at once, and so is the final ranking (the move that finishes the last
    table), and every change after it."""
    from facilitator.rules.lyceum.moves import read_move
    from facilitator.web import public
    clock = Clock()
    monkeypatch.setattr(public, "time", clock)
    app.config["PROJECTOR_FRESH_SECONDS"] = 5
    event_id = new_event(app)
    playing = seated_table(app, event_id, "Стол 1", seed=1, moves=2)
    record, _game = game_record(0, 3)
    last = read_move(record["moves"][-1])
    record["moves"] = record["moves"][:-1]
    closing = import_table(app, event_id, "Стол 2", record)  # its finishing move still to come
    drawn = []
    draw = public._draw
    monkeypatch.setattr(public, "_draw", lambda *args: drawn.append(args) or draw(*args))
    url = standings_url(event_id)
    first = anon_client.get(url)
    etag = first.headers["ETag"]
    assert len(drawn) == 1 and first.get_json()["provisional"]
    organizer = english(client)

    def move():
        label, form_url, fields = move_forms(app, playing)[0]
        assert post(organizer, form_url, fields).status_code == 303

    clock.now += 1
    move()
    for _ in range(3):  # within the window: the drawing the screens hold stands
        held = anon_client.get(url, headers={"If-None-Match": etag})
        assert held.status_code == 304 and held.headers["ETag"] == etag
        clock.now += 1
    newcomer = anon_client.get(url)  # a screen opened now is handed the same drawing
    assert newcomer.headers["ETag"] == etag and newcomer.get_data() == first.get_data()
    assert anon_client.get(f"/e/{event_id}").status_code == 200 and len(drawn) == 1
    clock.now += 1.5  # 5.5 s after the drawing: the next poll draws the event as it is, once
    fresh = [anon_client.get(url, headers={"If-None-Match": etag}) for _ in range(3)]
    assert [r.status_code for r in fresh] == [200] * 3 and len({r.headers["ETag"] for r in fresh}) == 1
    assert len(drawn) == 2 and fresh[0].headers["ETag"] != etag
    etag = fresh[0].headers["ETag"]
    assert anon_client.get(url, headers={"If-None-Match": etag}).status_code == 304
    # an announcement is drawn at once, and every step of it
    clock.now += 1
    assert post(organizer, f"/organizer/events/{event_id}/announce", {"action": "start"}).status_code == 303
    answer = anon_client.get(url, headers={"If-None-Match": etag})
    assert answer.status_code == 200 and answer.get_json()["announcement"]["step"] == 1 and len(drawn) == 3
    etag = answer.headers["ETag"]
    clock.now += 0.5
    assert post(organizer, f"/organizer/events/{event_id}/announce", {"action": "stop"}).status_code == 303
    answer = anon_client.get(url, headers={"If-None-Match": etag})
    assert answer.status_code == 200 and answer.get_json()["announcement"] is None and len(drawn) == 4
    etag = answer.headers["ETag"]
    # play «Стол 1» to its end within windows: held back; the move finishing the last table: at once
    clock.now += 0.5
    with db(app) as s:
        game = services.load(s, playing).game
    from facilitator.rules.lyceum.simulate import choose_move
    rng = random.Random(3)
    while not game.finished:
        nxt = choose_move(game, rng)
        with db(app) as s:
            services.record_move(s, playing, nxt, services.load(s, playing).seq)
        game.apply(nxt)
    assert anon_client.get(url, headers={"If-None-Match": etag}).status_code == 304 and len(drawn) == 4
    with db(app) as s:
        services.record_move(s, closing, last, services.load(s, closing).seq)
    final = anon_client.get(url, headers={"If-None-Match": etag})
    assert final.status_code == 200 and final.get_json()["provisional"] is False and len(drawn) == 5
    etag = final.headers["ETag"]
    # a change after the final ranking (the organizer reopens a finished table): at once too
    clock.now += 0.5
    with db(app) as s:
        services.reopen(s, closing, services.load(s, closing).seq)
    reopened = anon_client.get(url, headers={"If-None-Match": etag})
    assert reopened.status_code == 200 and reopened.get_json()["provisional"] is True and len(drawn) == 6


def test_the_freshness_window_is_said_on_the_projector_and_zero_draws_every_change(app, client, anon_client):
    event_id = new_event(app)
    table_id = seated_table(app, event_id, "Стол 1", seed=1, moves=2)
    app.config["PROJECTOR_FRESH_SECONDS"] = 5
    page = english(anon_client).get(f"/e/{event_id}?lang=en").get_data(as_text=True)
    assert "The standings follow the room within 5 s" in page
    russian = anon_client.get(f"/e/{event_id}").get_data(as_text=True)
    assert "не больше чем на 5 с" in russian
    app.config["PROJECTOR_FRESH_SECONDS"] = 0
    assert 'id="freshness"' not in anon_client.get(f"/e/{event_id}").get_data(as_text=True)
    url = standings_url(event_id)
    etag = anon_client.get(url).headers["ETag"]
    for _ in range(3):  # 0: every change is drawn at the next poll
        label, form_url, fields = move_forms(app, table_id)[0]
        assert post(english(client), form_url, fields).status_code == 303
        answer = anon_client.get(url, headers={"If-None-Match": etag})
        assert answer.status_code == 200 and answer.headers["ETag"] != etag
        etag = answer.headers["ETag"]
