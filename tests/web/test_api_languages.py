"""The API answers in the language asked (issue 20 item 5): ``Accept-Language`` among the app's
languages (ru, en, fi, sv), narrowed to a table's game's languages (English when the game does
not speak the one asked); a refusal names cards, actives and players by their names in it."""

import pytest

from facilitator import services
from facilitator.rules import registry
from tests.games.drivers import new_table
from tests.pages import db

import conftest as root  # tests/conftest.py: how a fresh database is made


@pytest.fixture
def db_url(tmp_path, tmp_path_factory):
    """SQLite only: nothing here is about the storage (the language of the API's answers)."""
    return root.sqlite_database(tmp_path, tmp_path_factory)

AE = [{"name": "Aino", "born": "1991-04-02", "actives": ["pare", "ville", "meira"]},
      {"name": "Bertta", "born": "1985-11-20", "actives": ["niksu", "tommi", "imaami"]}]


def token_of(app, table_id):
    with db(app) as s:
        return services.get_table(s, table_id).token


def call(client, method, url, token=None, lang=None, body=None):
    headers = {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if lang:
        headers["Accept-Language"] = lang
    response = client.open(url, method=method, headers=headers, json=body)
    return response.status_code, response.get_json()


def seated(app, client, key, setup):
    table_id = new_table(app, key)
    token = token_of(app, table_id)
    status, body = call(client, "PUT", f"/api/v1/tables/{table_id}/players", token, body={"rev": 0, "players": setup})
    assert status == 200, body
    return table_id, token


@pytest.mark.parametrize("lang, wrong", [
    ("fi", "Väärä salasana"), ("sv", "Fel lösenord"), ("ru", "Неверный пароль"), ("en", "Wrong password"),
    ("sv-SE,sv;q=0.9,en;q=0.5", "Fel lösenord"), ("de-DE,fi;q=0.8", "Väärä salasana"),
    ("de", "Wrong password"),  # none of the app's languages: English
])
def test_an_error_of_no_table_is_in_the_language_asked(client, lang, wrong):
    status, body = call(client, "POST", "/api/v1/session", lang=lang, body={"password": "not it"})
    assert (status, body["error"]["code"], body["error"]["message"]) == (401, "wrong_password", wrong)


def test_a_tables_errors_are_in_its_games_language_asked(app, client):
    ae = new_table(app, "alter-ego-3")
    lyceum = new_table(app, "lyceum-16-25")
    na = new_table(app, "new-angeles")
    expected = {(ae, "fi"): "Tämä tunniste ei avaa tätä pöytää", (na, "sv"): "Den här nyckeln öppnar inte det här bordet",
                (ae, "ru"): "Этот токен не открывает этот стол",
                # «16/25» speaks Russian and English: a Finnish or Swedish client gets English
                (lyceum, "fi"): "This token does not open this table", (lyceum, "sv"): "This token does not open this table",
                (lyceum, "ru"): "Этот токен не открывает этот стол"}
    for (table_id, lang), text in expected.items():
        status, body = call(client, "GET", f"/api/v1/tables/{table_id}", token="wrong", lang=lang)
        assert (status, body["error"]["message"]) == (403, text), (table_id, lang)
    status, body = call(app.test_client(), "GET", f"/api/v1/tables/{ae}", lang="fi")  # no credential at all
    assert (status, body["error"]["message"]) == (401, "Lähetä pöydän pelinjohtajan tunniste (Authorization: Bearer …) "
                                                       "tai avaa pöytä ensin selaimessa")
    status, body = call(client, "POST", f"/api/v1/tables/{na}/moves", token=token_of(app, na), lang="sv",
                        body={"after": -1, "move": {}})
    assert (status, body["error"]["message"]) == (400, "after: löpnumret på draget som den här skrivningen följer "
                                                       "efter, ett heltal >= 0")


def test_an_alter_ego_refusal_names_actives_and_cards_in_finnish(app, client):
    table_id, token = seated(app, client, "alter-ego-3", {"players": AE, "first": "Aino"})
    status, body = call(client, "POST", f"/api/v1/tables/{table_id}/moves", token, "fi",
                        {"after": 0, "move": {"type": "draw", "player": "Bertta"}})
    assert (status, body["error"]["message"]) == (422, "§3: ei sinun vuorosi: nyt on pelaajan Aino vuoro, ei "
                                                       "pelaajan Bertta")
    # the refusals the state gives for the options of a move: names, never keys, in Finnish
    call(client, "POST", f"/api/v1/tables/{table_id}/moves", token, "fi",
         {"after": 0, "move": {"type": "draw", "player": "Aino"}})
    status, state = call(client, "GET", f"/api/v1/tables/{table_id}", token, "fi")
    messages = [o["message"] for m in state["legal_moves"] for o in _refusals(m)]
    assert messages, state["legal_moves"]
    pack = registry.get("alter-ego-3").read_pack(registry.get("alter-ego-3").default_pack_data())
    keys = {a.key for a in pack.actives} | {c.key for c in pack.cards}
    for text in messages:
        assert not any(f" {k} " in f" {text} " or f" {k};" in text for k in keys), text
    assert "P9: Pare kuuluu pelaajalle Aino; Seurustelu pelataan kahdelle muiden pelaajien aktiiville" in messages


def _refusals(node):
    if isinstance(node, dict):
        if {"rule", "code", "message"} <= node.keys() and isinstance(node["message"], str):
            yield node
        for value in node.values():
            yield from _refusals(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refusals(value)


def test_a_new_angeles_refusal_is_in_swedish(app, client):
    from tests.newangeles_web.helpers import example
    setup = example("example_takeover.json")["setup"]
    table_id, token = seated(app, client, "new-angeles", {"setup": setup})
    status, body = call(client, "POST", f"/api/v1/tables/{table_id}/moves", token, "sv",
                        {"after": 0, "move": {"type": "capital", "player": "Anna", "amount": -99, "reason": "event"}})
    assert (status, body["error"]["code"], body["error"]["message"]) == (422, "capital_negative",
                                                                         "kapitalet för Anna skulle bli -89")
    status, body = call(client, "POST", f"/api/v1/tables/{table_id}/moves", token, "sv",
                        {"after": 0, "move": {"type": "capital", "player": "Anna", "reason": "event"}})
    assert (status, body["error"]["path"]) == (400, "move.amount") and "saknas" in body["error"]["message"]
