"""The JSON API under /api/v1 (issue 3, item 7): a table's state (the table part of
`lyceum-standings/1`, the legal moves and the sequence number), posting a move with the
sequence number it follows, undo, the record; errors as JSON with the screens' messages;
an OpenAPI 3.1 document. A whole game played through it replays to the same standings."""

import random
import re

import pytest

from facilitator.i18n import translate_error, use_locale
from facilitator.rules import IllegalMoveError
from facilitator.rules.lyceum import Game, Move, read_move, read_record, standings, table_standing
from facilitator.rules.lyceum import replay
from facilitator.rules.lyceum.simulate import choose_move

from .test_seats import brute_force as brute_force_odds
from .helpers import THREE, api_post, create_table, each_case, load, move_form, record, seated_table, seq

pytestmark = pytest.mark.db

PASS = {"type": "pass", "player": "Аня"}


def state(client, table_id):
    response = client.get(f"/api/v1/tables/{table_id}")
    assert response.status_code == 200
    return response.get_json()


def post_move(client, table_id, move, after):
    return api_post(client, f"/api/v1/tables/{table_id}/moves", {"after": after, "move": move})


def error_of(response, status):
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.is_json
    return response.get_json()["error"]


# ----- reading ------------------------------------------------------------------------------------
def test_the_tables_are_listed_with_their_addresses(host, table):
    body = host.get("/api/v1/tables").get_json()
    assert body == {"tables": [{"id": table, "name": "Стол 1", "url": f"/api/v1/tables/{table}"}]}


def test_a_tables_state_is_its_standings_part_with_legal_moves_and_seq(host, table):
    record(host.application, table, Move("draw", player="Аня", color="green", card="L-G-01", decision="play"))
    body = state(host, table)
    game = load(host.application, table).game
    expected = table_standing(game)
    # each player also has the link of their own page and their odds (issue 21: tests/web/test_seats.py)
    players = [{k: v for k, v in p.items() if k not in ("page", "playable")} for p in body["players"]]
    assert {k: body[k] for k in expected if k != "players"} | {"players": players} == expected
    assert body["legal_moves"] == game.legal_moves()
    assert (body["id"], body["seq"], body["setup_done"]) == (table, 1, True)
    assert body["next"] == {"player": "Борис", "expects": "main"}
    assert body["players"][0]["skills"] == {"health": 3, "intellect": 9, "creativity": 2, "communication": 2,
                                            "energy": 6}


def test_the_state_of_a_table_still_in_setup(host):
    table_id = create_table(host)
    body = state(host, table_id)
    assert body["setup_done"] is False and body["players"] == [] and body["legal_moves"] == []
    assert error_of(host.get(f"/api/v1/tables/{table_id}/record"), 409)["code"] == "no_setup"


def test_an_unknown_table_is_a_json_404(host):
    def check(method, url):
        response = getattr(host, method)(url, json={"after": 0, "move": PASS})
        assert error_of(response, 404)["code"] == "not_found"
    each_case([("get", "/api/v1/tables/999"), ("post", "/api/v1/tables/999/moves"),
               ("post", "/api/v1/tables/999/undo"), ("get", "/api/v1/tables/999/record")], check)


# ----- posting moves ------------------------------------------------------------------------------
def test_a_legal_move_is_recorded_with_201_and_the_new_state(host, table):
    response = post_move(host, table, PASS, 0)
    assert response.status_code == 201
    body = response.get_json()
    assert body["seq"] == 1 and body["recorded"]["seq"] == 1
    assert body["recorded"]["move"] == PASS
    assert body["next"] == {"player": "Борис", "expects": "main"}
    assert load(host.application, table).record().moves[0].type == "pass"


MALFORMED = [
    # (the body, the field its error names)
    ([PASS], None),  # not an object
    ({"move": PASS}, "after"),
    ({"after": -1, "move": PASS}, "after"),
    ({"after": "0", "move": PASS}, "after"),
    ({"after": True, "move": PASS}, "after"),
    ({"after": 0}, "move"),
    ({"after": 0, "move": {"type": "teleport", "player": "Аня"}}, "move.type"),
    ({"after": 0, "move": {"type": "pass"}}, "move"),
    ({"after": 0, "move": {"type": "draw", "player": "Аня", "color": "blue", "card": "L-G-01",
                           "decision": "play"}}, "move.color"),
    ({"after": 0, "move": {"type": "rest", "player": "Аня", "redistribute": {"health": "два"}}},
     "move.redistribute.health"),
    ({"after": 0, "move": {"type": "rest", "player": "Аня", "redistribute": {"luck": 1}}}, "move.redistribute"),
]


def test_a_malformed_body_is_a_400_naming_the_field(host, table):
    def check(body, path):
        err = error_of(api_post(host, f"/api/v1/tables/{table}/moves", body), 400)
        assert err["code"] == "malformed" and err["message"]
        if path:
            assert err["path"].startswith(path)
        assert seq(host.application, table) == 0
    each_case(MALFORMED, check)


def test_a_body_that_is_not_json_is_a_415(host, table):
    response = host.post(f"/api/v1/tables/{table}/moves", data="after=0&type=pass", content_type="text/plain")
    assert error_of(response, 415)["code"] == "json_required"
    assert error_of(host.post(f"/api/v1/tables/{table}/undo", data="after=0"), 415)["code"] == "json_required"
    assert seq(host.application, table) == 0


def test_a_repeated_move_is_a_409_already_recorded(host, table):
    assert post_move(host, table, PASS, 0).status_code == 201
    err = error_of(post_move(host, table, PASS, 0), 409)
    assert err["already_recorded"] is True and err["code"] == "already_recorded" and err["seq"] == 1
    assert err["message"] == "This move was already recorded; nothing was added."
    assert seq(host.application, table) == 1


def test_a_different_move_after_a_stale_seq_is_a_409_not_recorded(host, table):
    assert post_move(host, table, PASS, 0).status_code == 201
    err = error_of(post_move(host, table, {"type": "rest", "player": "Аня"}, 0), 409)
    assert err["already_recorded"] is False and err["code"] == "stale" and err["seq"] == 1
    assert err["message"].startswith("The table has changed on another device since this screen was drawn "
                                     "(move #0, now #1)")
    # a seq from the future is stale too
    err = error_of(post_move(host, table, {"type": "pass", "player": "Борис"}, 5), 409)
    assert err["already_recorded"] is False
    assert seq(host.application, table) == 1


ILLEGAL = [
    # (what, moves before, the move, RULES.md section, code)
    ("not their turn", [], {"type": "pass", "player": "Вика"}, "3.8", "not_your_turn"),
    ("not eligible", [], {"type": "draw", "player": "Аня", "color": "red", "card": "L-R-05", "decision": "play"},
     "3.1", "not_eligible"),
    ("share below level 3", [], {"type": "share", "player": "Аня"}, "3.2", "share_level"),
    ("finish too early", [], {"type": "finish"}, "4", "finish_early"),
    ("rest over the era's limit", [],
     {"type": "rest", "player": "Аня", "redistribute": {"intellect": -4, "health": 4}}, "3.2", "redistribute_limit"),
    ("allocate a wrong sum", [Move("rest", player="Аня")], {"type": "allocate", "player": "Аня",
                                                            "sp": {"health": 2}}, "3.6", "allocate_sum"),
    ("a move while SP are pending", [Move("rest", player="Аня")], {"type": "pass", "player": "Борис"},
     "3.6", "pending_sp"),
]


def test_an_illegal_move_is_a_422_with_the_screens_message(host):
    each_case(ILLEGAL, lambda *case: illegal_move_refused(host, *case))


def illegal_move_refused(host, what, before, move, rule, code):
    table = seated_table(host, THREE, name=what)
    record(host.application, table, *before)
    after = len(before)
    err = error_of(post_move(host, table, move, after), 422)
    assert (err["rule"], err["code"]) == (rule, code)
    # the engine's own message in the browser's language ...
    loaded = load(host.application, table)
    with pytest.raises(IllegalMoveError) as engine:
        loaded.game.check(read_move(move))
    with use_locale("en"):
        assert err["message"] == translate_error(engine.value)
    # ... and word for word what the host's screen says for the same move
    form = {k: v for k, v in move.items() if not isinstance(v, dict)}
    for group in ("redistribute", "sp"):
        form.update({f"{group}-{s}": v for s, v in move.get(group, {}).items()})
    page = move_form(host, table, move["type"], after=after, **form)
    assert page.status == 422
    assert page.error == f"The move was not recorded: {err['message']}"
    assert seq(host.application, table) == after


def test_errors_speak_russian_by_default(client):
    table_id = seated_table(client, THREE)
    err = error_of(post_move(client, table_id, {"type": "share", "player": "Аня"}, 0), 422)
    page = move_form(client, table_id, "share", after=0, type="share", player="Аня")
    assert page.status == 422
    assert err["message"] in page.error
    assert "уровн" in err["message"]  # «уровень»: the level, in Russian
    post_move(client, table_id, PASS, 0)
    assert "уже записан" in error_of(post_move(client, table_id, PASS, 0), 409)["message"]


def test_a_browser_that_does_not_host_the_table_cannot_write(anon_client, host, table):
    anon_client.get("/")  # a browser on the venue's Wi-Fi: it has a session, but no grant for this table
    response = post_move(anon_client, table, PASS, 0)
    assert error_of(response, 403)["code"] == "forbidden"
    assert seq(host.application, table) == 0


def test_a_request_with_no_credential_at_all_is_a_401(anon_client, host, table):
    """A script that sends neither a token nor a browser session is told to authenticate."""
    response = post_move(anon_client, table, PASS, 0)
    assert error_of(response, 401)["code"] == "unauthorized"
    assert error_of(anon_client.get(f"/api/v1/tables/{table}"), 401)["code"] == "unauthorized"
    assert seq(host.application, table) == 0


# ----- undo and the record ------------------------------------------------------------------------
def test_undo_through_the_api(host, table):
    post_move(host, table, PASS, 0)
    response = api_post(host, f"/api/v1/tables/{table}/undo", {"after": 1})
    assert response.status_code == 200
    body = response.get_json()
    assert body["undone"] == {"seq": 1} and body["seq"] == 2
    assert body["next"] == {"player": "Аня", "expects": "main"}
    loaded = load(host.application, table)
    assert set(loaded.undone) == {1} and loaded.record().moves == []


def test_a_stale_undo_and_an_undo_of_nothing_are_409(host, table):
    err = error_of(api_post(host, f"/api/v1/tables/{table}/undo", {"after": 0}), 409)
    assert err["code"] == "nothing_to_undo" and err["message"] == "There is no move to undo"
    post_move(host, table, PASS, 0)
    err = error_of(api_post(host, f"/api/v1/tables/{table}/undo", {"after": 0}), 409)
    assert err["code"] == "stale" and err["already_recorded"] is False
    assert err["message"] == "The table has changed on another device (move #0, now #1); nothing was undone."
    assert error_of(api_post(host, f"/api/v1/tables/{table}/undo", {"after": "1"}), 400)["path"] == "after"
    assert load(host.application, table).undone == {}


def test_the_record_is_the_tables_game_record(host, table):
    post_move(host, table, PASS, 0)
    body = host.get(f"/api/v1/tables/{table}/record").get_json()
    assert body["format"] == "lyceum-record/1" and body["table"] == "Стол 1"
    assert [p["name"] for p in body["players"]] == ["Аня", "Борис", "Вика"]
    assert [{k: v for k, v in m.items() if k != "at"} for m in body["moves"]] == [PASS]
    assert body == host.get(f"/table/{table}/record.json").get_json()


# ----- the OpenAPI document ----------------------------------------------------------------------
def test_the_openapi_document_describes_every_route(host):
    doc = host.get("/api/v1/openapi.json").get_json()
    assert doc["openapi"].startswith("3.1")
    assert doc["info"]["title"] and doc["info"]["version"]
    routes = {(path, method) for path, item in doc["paths"].items() for method in item}
    assert routes == {("/api/v1/tables", "get"), ("/api/v1/tables/{table_id}", "get"),
                      ("/api/v1/tables/{table_id}/moves", "post"), ("/api/v1/tables/{table_id}/undo", "post"),
                      ("/api/v1/tables/{table_id}/record", "get"),
                      # issue 9: the outbox's batch of queued moves; issue 11: the organizer's set-up
                      ("/api/v1/tables/{table_id}/moves/batch", "post"), ("/api/v1/tables/{table_id}/players", "put"),
                      # issue 18: the outbox's queued forms, read as the screens read them
                      ("/api/v1/tables/{table_id}/queued", "post"),
                      ("/api/v1/session", "post"), ("/api/v1/session", "delete"), ("/api/v1/events", "get"),
                      ("/api/v1/events", "post"), ("/api/v1/events/{event_id}", "get"),
                      ("/api/v1/events/{event_id}/tables", "post")}
    # and every route the app serves under /api/v1 is in the document
    served = {(re.sub(r"<(?:int:)?(\w+)>", r"{\1}", rule.rule), method.lower())
              for rule in host.application.url_map.iter_rules() if rule.rule.startswith("/api/v1/")
              and rule.rule != "/api/v1/openapi.json" for method in rule.methods - {"HEAD", "OPTIONS"}}
    assert served == routes
    moves = doc["paths"]["/api/v1/tables/{table_id}/moves"]["post"]
    assert set(moves["responses"]) >= {"201", "400", "404", "409", "415", "422"}
    assert moves["requestBody"]["content"]["application/json"]["schema"]["required"] == ["after", "move"]
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            assert operation["responses"], (path, method)
            for parameter in operation.get("parameters", []):
                assert "{" + parameter["name"] + "}" in path
    # every reference points at a schema the document defines
    refs = set()

    def walk(node):
        if isinstance(node, dict):
            if "$ref" in node:
                refs.add(node["$ref"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(doc)
    assert refs and all(r.startswith("#/components/schemas/") for r in refs)
    assert {r.rsplit("/", 1)[1] for r in refs} <= set(doc["components"]["schemas"])
    lyceum = doc["components"]["schemas"]["lyceum-16-25.Move"]["oneOf"]  # every game's: test_openapi_games.py
    assert {v["properties"]["type"]["const"] for v in lyceum} == {
        "draw", "rest", "share", "pass", "play_deferred", "allocate", "adjust", "finish"}


# ----- a whole game ------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [3])
def test_a_full_game_through_the_api_replays_to_the_same_standings(host, table, seed):
    """Moves chosen by the engine's own simulated table, posted one by one with the seq they
    follow; the server's state after each move is the engine's; the exported record replays
    to the same standings."""
    loaded = load(host.application, table)
    mirror = Game(loaded.pack, loaded.players, table=loaded.table.name)
    rng = random.Random(seed)
    after, refused = 0, 0
    while not mirror.finished:
        move = choose_move(mirror, rng)
        response = post_move(host, table, move.to_dict(), after)
        if response.status_code == 422:  # a random redistribution the rules refuse: pick again
            with pytest.raises(IllegalMoveError):
                mirror.check(move)
            refused += 1
            continue
        assert response.status_code == 201, response.get_json()
        mirror.apply(move)
        body = response.get_json()
        after = body["seq"]
        for p in body["players"]:  # each player's odds, counted the long way (issue 21), and their page
            assert p.pop("playable") == brute_force_odds(mirror, p["name"]) and p.pop("page")
        assert body["players"] == table_standing(mirror)["players"]
        assert body["legal_moves"] == mirror.legal_moves()
    assert after >= 30 and refused < after
    final = state(host, table)
    assert final["finished"] is True and final["next"] is None and final["legal_moves"] == []
    replayed = replay(read_record(host.get(f"/api/v1/tables/{table}/record").get_json()))
    expected = standings([replayed])["tables"][0]
    final["players"] = [{k: v for k, v in p.items() if k not in ("page", "playable")} for p in final["players"]]
    assert {k: final[k] for k in expected} == expected
    assert standings([mirror])["tables"][0] == expected
