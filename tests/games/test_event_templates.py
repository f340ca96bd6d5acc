"""The template contract of a game (``GamePackage.event_templates``): the shared organizer and
public pages draw a game's part of an event with templates the game declares, a table's progress
cells on the dashboard, the event's ranking panel and the projector's standings. Every
registered game, and the test game installed from a package of its own, provides them, and they
render on the live pages; a game lacking one is refused when the web app registers it."""

import re

import pytest
from flask import Flask

from facilitator import games, services
from facilitator.games import GamePackage, MissingTemplates
from facilitator.rules import registry
from facilitator.web.games import register_blueprints
from tests.pages import Page, db, english, get

from . import plugin
from .drivers import DRIVERS, new_table

GAMES = [g.key for g in games.registered()] + [plugin.KEY]


@pytest.fixture(params=GAMES)
def game(request):
    return games.get(request.param)


def test_every_game_declares_and_provides_the_templates_of_the_shared_event_pages(game):
    names = game.event_templates()
    assert set(names) == {"progress", "ranking", "public"}
    for role, name in names.items():
        assert (game.templates / name).is_file(), f"{game.key}: no {role} template {name}"
    game.check_templates()


def test_a_game_lacking_one_is_refused_when_the_app_registers_it(tmp_path, tally):
    (tmp_path / "templates" / "organizer" / "games").mkdir(parents=True)
    (tmp_path / "templates" / "organizer" / "games" / "half_progress.html").write_text("<td></td><td></td>")

    class Half(GamePackage):
        folder = tmp_path

        @property
        def key(self):
            return "half"

    with pytest.raises(MissingTemplates) as refused:
        Half().check_templates()
    message = str(refused.value)
    assert "'half'" in message and "organizer/games/half_ranking.html, public/games/half.html" in message
    assert "half_progress" not in message and str(tmp_path / "templates") in message

    # the registration itself refuses it: the app's blueprints are registered game by game
    half = type("HalfTally", (type(tally),), {"folder": tmp_path, "ranking_template": "organizer/games/none.html"})()
    registry.add_game(half)
    try:
        with pytest.raises(MissingTemplates, match="organizer/games/none.html"):
            register_blueprints(Flask(__name__))
    finally:
        registry.add_game(tally)


def _seated_with_a_move(app, client, driver, event_id):
    table_id = new_table(app, driver.key, "Table 1", event_id=event_id)
    setup = get(client, driver.url(table_id, "/setup"))
    token = next(f.fields["csrf_token"] for f in setup.forms if "csrf_token" in f.fields)
    assert client.post(driver.url(table_id, "/setup"), data={**driver.setup, "csrf_token": token}).status_code == 303
    form = get(client, driver.url(table_id)).form(f"/move/{driver.legal.kind}")
    moved = Page(client.post(form.action, data=form.data(**driver.legal.changes)))
    assert moved.status in (200, 303), (moved.status, moved.text[:1000])
    return table_id


def test_the_templates_render_on_the_dashboard_and_the_projector(app, client, anon_client, game, monkeypatch):
    organizer = english(client)
    with db(app) as s:
        event_id = services.events.create_event(s, "Contract night", ruleset=game.key).id
    _seated_with_a_move(app, organizer, DRIVERS[game.key], event_id)

    rendered = []
    get_template = app.jinja_env.get_template
    monkeypatch.setattr(app.jinja_env, "get_template",
                        lambda name, *a, **k: rendered.append(name) or get_template(name, *a, **k))
    dashboard = get(organizer, f"/organizer/events/{event_id}")
    assert dashboard.status == 200
    head = dashboard.html.split('class="grid dashboard"', 1)[1].split("</thead>")[0]
    row = dashboard.html.split('data-table="', 1)[1].split("</tr>")[0]
    assert len(re.findall(r"<td[\s>]", row)) == len(re.findall(r"<th[\s>]", head)), "the progress cells fill the row"
    projector = anon_client.get(f"/e/{event_id}")
    assert projector.status_code == 200 and "Contract night" in projector.get_data(as_text=True)
    names = game.event_templates()
    assert {names["progress"], names["ranking"], names["public"]} <= set(rendered), rendered
