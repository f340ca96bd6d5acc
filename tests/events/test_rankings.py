"""The live rankings of an event (issue 5, item 3; RULES.md 5): teams ranked by the sum of
their final XP when every table has the same number of players and by the average per player
when sizes differ — the rule shown in words —, equal scores sharing a place, and a table still
playing making the figures provisional, marked as such on the dashboard and the projector.

The tables play random legal games (``simulate.random_game``); the expected figures come from
the engine's own game of each table, the places from the rule of competition places."""

import re

import pytest

from facilitator.services import events

from facilitator.storage.models import Event

from .helpers import db, english, final_xp, game_record, import_table, new_event, text

import conftest as root  # tests/conftest.py: how a fresh database is made

pytestmark = pytest.mark.db


@pytest.fixture
def db_url(tmp_path, tmp_path_factory):
    """SQLite only: nothing here is about the storage (the rankings worked out and shown; events and
    tables are stored on both backends by test_dashboard.py, test_backups.py and
    test_restore_checks.py)."""
    return root.sqlite_database(tmp_path, tmp_path_factory)


def competition_places(scores):
    """1 + the number of strictly better scores: equal scores share a place, the next is skipped."""
    return [1 + sum(other > score for other in scores) for score in scores]


def event_of(app, tables):
    """An event whose tables play ``(name, seed, players, moves)`` (moves None: to the end);
    returns the event id and each table's final XP by player, as the engine counts it."""
    event_id = new_event(app)
    scores = {}
    for name, seed, players, moves in tables:
        record, game = game_record(seed, players, moves)
        import_table(app, event_id, name, record)
        if moves is None:
            scores[name] = final_xp(game)
    return event_id, scores


def standings(app, event_id):
    with db(app) as s:
        return events.event_standings(s, event_id)


def team_order(result):
    return [(row["place"], row["table"]) for row in result["teams"]]


def section(page_text, start, end):
    return page_text[page_text.index(start):page_text.index(end)]


def in_order(haystack, names):
    positions = [haystack.index(name) for name in names]
    return positions == sorted(positions)


EQUAL_SIZES = [("Стол 1", 0, 3, None), ("Стол 2", 1, 3, None), ("Стол 3", 4, 3, None)]
# a table of four with the larger sum but the smaller average than «Стол 3a»
MIXED_SIZES = [("Стол 4a", 11, 4, None), ("Стол 3a", 11, 3, None), ("Стол 3b", 14, 3, None)]


def test_equal_table_sizes_are_ranked_by_the_sum_of_final_xp(app, client):
    event_id, scores = event_of(app, EQUAL_SIZES)
    totals = {name: sum(xp.values()) for name, xp in scores.items()}
    result = standings(app, event_id)
    assert result["ranked_by"] == "total"
    assert result["provisional"] is False
    assert {row["table"]: row["total_xp"] for row in result["teams"]} == totals
    names = list(totals)
    expected = sorted(zip(competition_places([totals[n] for n in names]), names))
    assert team_order(result) == expected == [(1, "Стол 2"), (2, "Стол 1"), (3, "Стол 3")]
    # every player of every table in the individual ranking, best first, places by final XP
    people = [(row["table"], row["name"], row["final_xp"]) for row in result["individuals"]]
    assert sorted(people) == sorted((t, n, xp) for t, xp_of in scores.items() for n, xp in xp_of.items())
    xps = [row["final_xp"] for row in result["individuals"]]
    assert xps == sorted(xps, reverse=True)
    assert [row["place"] for row in result["individuals"]] == competition_places(xps)

    page = text(english(client).get(f"/organizer/events/{event_id}"))
    teams = section(page, "Team ranking", "Individual ranking")
    assert "Ranked by the sum of final XP: every table has the same number of players." in teams
    assert in_order(teams, ["Стол 2", "Стол 1", "Стол 3"])
    assert "provisional" not in teams


def test_mixed_table_sizes_are_ranked_by_the_average_with_the_rule_in_words(app, client, anon_client):
    event_id, scores = event_of(app, MIXED_SIZES)
    totals = {name: sum(xp.values()) for name, xp in scores.items()}
    averages = {name: sum(xp.values()) / len(xp) for name, xp in scores.items()}
    # the premise: the sum and the average order these tables differently
    assert totals["Стол 4a"] > totals["Стол 3a"] and averages["Стол 4a"] < averages["Стол 3a"]

    result = standings(app, event_id)
    assert result["ranked_by"] == "average"
    assert team_order(result) == [(1, "Стол 3a"), (2, "Стол 4a"), (3, "Стол 3b")]
    for row in result["teams"]:
        assert row["average_xp"] == pytest.approx(averages[row["table"]])
        assert row["players"] == len(scores[row["table"]])

    page = text(english(client).get(f"/organizer/events/{event_id}"))
    teams = section(page, "Team ranking", "Individual ranking")
    assert "Ranked by the average final XP per player: tables have different numbers of players." in teams
    assert in_order(teams, ["Стол 3a", "Стол 4a", "Стол 3b"])

    projector = anon_client.get(f"/e/{event_id}?lang=en")  # the event speaks Russian; asked in English
    assert projector.status_code == 200
    shown = text(projector)
    assert "team score: the average final XP per player (tables of different sizes)" in shown
    assert in_order(shown, ["Стол 3a", "Стол 4a", "Стол 3b"])
    assert str(round(averages["Стол 3a"])) in shown  # the score shown is the average, not the sum
    data = anon_client.get(f"/e/{event_id}/standings.json").get_json()
    assert data["ranked_by"] == "average"
    assert [(t["place"], t["table"]) for t in data["teams"]] == team_order(result)


@pytest.mark.parametrize("tables, expected", [
    # the same game played at two tables of three: equal sums share the first place, the next is third
    ([("Стол 1", 0, 3, None), ("Стол 2", 4, 3, None), ("Стол 3", 0, 3, None)],
     [(1, "Стол 1"), (1, "Стол 3"), (3, "Стол 2")]),
    # tables of three and four with the same average (700 XP a player) share the first place
    ([("Стол 3", 6, 3, None), ("Стол 4", 6, 4, None), ("Стол 5", 14, 3, None)],
     [(1, "Стол 3"), (1, "Стол 4"), (3, "Стол 5")]),
], ids=["equal sums", "equal averages"])
def test_ties_share_the_place(app, client, tables, expected):
    event_id, scores = event_of(app, tables)
    result = standings(app, event_id)
    assert sorted(team_order(result)) == expected
    xps = [row["final_xp"] for row in result["individuals"]]
    assert [row["place"] for row in result["individuals"]] == competition_places(xps)
    assert len(set(xps)) < len(xps)  # some players tie too, and share their place
    page = text(english(client).get(f"/organizer/events/{event_id}"))
    teams = section(page, "Team ranking", "Individual ranking")
    assert len(re.findall(r"(?<!\d)1 Стол", teams)) == 2 and "3 Стол" in teams


def test_a_table_still_playing_makes_the_figures_provisional(app, client, anon_client):
    event_id, scores = event_of(app, [("Стол 1", 1, 3, None), ("Стол 2", 0, 3, 20)])
    result = standings(app, event_id)
    assert result["provisional"] is True
    playing = next(t for t in result["tables"] if t["table"] == "Стол 2")
    assert playing["finished"] is False and playing["round"] < 16
    # its figures are there, counted so far
    assert next(r for r in result["teams"] if r["table"] == "Стол 2")["total_xp"] == playing["total_xp"]

    assert anon_client.get(f"/e/{event_id}/standings.json").get_json()["provisional"] is True
    projector = anon_client.get(f"/e/{event_id}?lang=en").get_data(as_text=True)
    assert re.search(r'class="badge warn">provisional: the games are still on<', projector)
    dashboard = text(english(client).get(f"/organizer/events/{event_id}"))
    assert "provisional" in section(dashboard, "Team ranking", "Individual ranking")


def test_the_projector_marks_provisional_figures_in_russian(app, anon_client):
    """The hall sees the projector in the app's default language."""
    event_id, _ = event_of(app, [("Стол 1", 1, 3, None), ("Стол 2", 0, 3, 20)])
    page = anon_client.get(f"/e/{event_id}").get_data(as_text=True)
    badge = re.search(r'class="badge warn">([^<]*)<', page)
    assert badge, "no provisional badge on the projector"
    assert re.search(r"предварительн", badge.group(1), re.I), badge.group(1)


def test_when_every_table_has_finished_the_results_are_final(app, anon_client):
    event_id, _ = event_of(app, EQUAL_SIZES)
    data = english(anon_client).get(f"/e/{event_id}/standings.json?lang=en").get_json()
    assert data["provisional"] is False
    assert "final results" in data["rendered"] and "provisional" not in data["rendered"]


def test_a_table_still_at_its_setup_keeps_the_results_provisional(app):
    """Every other table finished, one not seated yet: the event is not over."""
    event_id = new_event(app)
    import_table(app, event_id, "Стол 1", game_record(0, 3)[0])
    with db(app) as s:
        assert events.event_standings(s, event_id)["provisional"] is False
        events.add_table(s, s.get(Event, event_id), "Стол 2")
    with db(app) as s:
        assert events.event_standings(s, event_id)["provisional"] is True
