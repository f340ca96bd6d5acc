"""The end and the reveal (RULES.md §8): ``finish`` with every rival not sealed at setup, then
who won and why. Both example records of RECORD.md, imported, show their printed winners."""

import re

import pytest

from facilitator import services
from facilitator.storage import session_scope
from tests.newangeles_web.helpers import (engine, example, get, load, move_post, post, record, screen, seated, seq,
                                          submit)

import conftest as root  # tests/conftest.py: how a fresh database is made


@pytest.fixture
def db_url(tmp_path, tmp_path_factory):
    """SQLite only: nothing here is about the storage (the reveal's screens and winners; New Angeles'
    moves are stored on both backends by test_table_moves.py)."""
    return root.sqlite_database(tmp_path, tmp_path_factory)


def takeover(app, table_id):
    record(app, table_id, {"type": "threat", "amount": 13, "reason": "event"})


def test_the_reveal_asks_only_for_the_rivals_not_sealed_and_names_the_winners(app, client):
    table_id = seated(app, client, rivals={"Vera": "federalist"}, capital={"Anna": 10, "Boris": 10, "Vera": 25,
                                                                              "Dmitri": 10})
    early = get(client, f"/na/table/{table_id}/finish")
    assert early.status == 302
    takeover(app, table_id)
    page = screen(client, table_id)
    assert "Reveal the rival cards" in page.text
    reveal = get(client, f"/na/table/{table_id}/finish?after={seq(app, table_id)}")
    assert reveal.status == 200
    form = reveal.form("/move/finish")
    assert 'data-move="finish"' in reveal.html
    assert {k for k in form.fields if k.startswith("rivals-")} == {"rivals-Anna", "rivals-Boris", "rivals-Dmitri"}
    assert "sealed at setup: shown with the result" in reveal.text
    assert "federalist" not in reveal.html.split('data-player="Vera"')[1].split("</tr>")[0].lower()
    repeated = submit(client, form, **{"rivals-Anna": "nbn", "rivals-Boris": "nbn", "rivals-Dmitri": "jinteki"})
    assert repeated.status == 422 and "rival repeated: NBN for Anna and Boris" in repeated.error
    assert repeated.has_form("/move/finish")
    done = submit(client, form, follow=True, **{"rivals-Anna": "nbn", "rivals-Boris": "haas-bioroid",
                                                "rivals-Dmitri": "jinteki"})
    assert done.response.request.path == f"/na/table/{table_id}/final"
    assert re.search(r'data-winners="Vera"', done.html)
    assert "Winner: Vera" in done.text
    row = done.html.split('data-player="Vera"')[1].split("</tr>")[0]
    assert 'data-result="won"' in row and "Federalist" in row
    assert "Federalist and the city was taken over: 25 capital, 25 needed" in done.text
    assert "the city was taken over: only a Federalist can win" in done.text
    assert screen_redirects_to_final(client, table_id)
    assert get(client, f"/na/table/{table_id}/finish?after=1").status == 409  # the reveal page drawn before


def screen_redirects_to_final(client, table_id):
    response = client.get(f"/na/table/{table_id}")
    return response.status_code == 302 and response.headers["Location"].endswith("/final")


def test_before_the_reveal_the_results_are_provisional_and_name_no_rival(app, client):
    table_id = seated(app, client, rivals={"Boris": "nbn", "Dmitri": "jinteki"})
    takeover(app, table_id)
    page = get(client, f"/na/table/{table_id}/final")
    assert page.status == 200 and "Provisional results" in page.text
    assert 'data-finished="0"' in page.html and "Why" not in page.text


def import_example(app, name):
    with session_scope(engine(app)) as s:
        table = services.import_record(s, example(name))
        services.access.ensure_access(s, table)
        return table.id


def printed(name):
    return example(name.replace(".json", "_standings.json"))["tables"][0]


def test_both_example_records_show_their_printed_winners(app, client):
    for name in ("example_takeover.json", "example_rounds.json"):
        table_id = import_example(app, name)
        expected = printed(name)
        page = get(client, f"/na/table/{table_id}/final")
        assert page.status == 200
        shown = re.search(r'data-winners="([^"]*)"', page.html).group(1).split("|")
        assert shown == expected["winners"], name
        results = dict(re.findall(r'data-player="([^"]+)" data-result="(won|lost)"', page.html))
        assert results == {p["name"]: p["result"] for p in expected["players"]}, name
        game = load(app, table_id).game
        assert game.winners() == expected["winners"]
    # the table of the rounds example: Boris's own card beats one other only
    assert "own corporation: more capital than 1 of 3 others (2 needed)" in page.text
    assert "Federalist, but the city held: the Federalist loses" in page.text
    assert "31 capital against 30 of Vera" in page.text


def test_a_finished_table_takes_no_move_and_no_undo(app, client):
    table_id = import_example(app, "example_takeover.json")
    after = seq(app, table_id)
    refused = move_post(client, table_id, "capital", {"after": after, "player": "Anna", "amount": 1,
                                                      "reason": "other"})
    assert refused.status == 422 and "a move after the reveal: the game is finished" in refused.error
    refused = post(client, f"/na/table/{table_id}/undo", {"after": after})
    assert refused.status == 409 and "only the organizer can reopen it" in refused.error
