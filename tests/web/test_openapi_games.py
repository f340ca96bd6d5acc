"""The OpenAPI document describes every game (issue 20 item 5): each game's moves and table
state as its engine declares them (``Ruleset.schemas``), checked against real moves and states
of simulated games and the RECORD.md examples; a move the engine refuses as malformed is one
the schema refuses too."""

import json
import random
from importlib import import_module
from pathlib import Path

import pytest

from facilitator.rules import MalformedError, registry
from facilitator.web.api import _as_json
from facilitator.web.openapi import openapi_document
from tests.schema_check import check_document, schema_errors

import conftest as root  # tests/conftest.py: how a fresh database is made


@pytest.fixture
def db_url(tmp_path, tmp_path_factory):
    """SQLite only: nothing here is about the storage (the OpenAPI document against the engines' moves
    and states)."""
    return root.sqlite_database(tmp_path, tmp_path_factory)

TESTS = Path(__file__).resolve().parent.parent
DOC = openapi_document()
GAMES = ("lyceum-16-25", "alter-ego-3", "new-angeles")


def _simulated(key):
    """``(moves, games)`` of a few random games of ``key`` and the states they pass through."""
    rules = registry.get(key)
    sim = __import__(rules.engine.rsplit(".", 1)[0] + ".simulate", fromlist=["random_game"])
    records = []
    for seed in (1, 2):
        if key == "lyceum-16-25":
            records.append(sim.random_game(rules.sample_pack(), seed=seed, adjust_rate=0.1)[0])
        elif key == "alter-ego-3":
            records.append(sim.play_random(seed, players=1 + seed)[0])
        else:
            records.append(sim.random_game(random.Random(seed)))
    return records


def _examples(key):
    folder = {"alter-ego-3": TESTS / "alterego" / "data", "new-angeles": TESTS / "newangeles" / "data"}.get(key)
    return [json.loads(p.read_text("utf-8")) for p in sorted(folder.glob("example*record*.json"))
            + sorted(folder.glob("example_takeover.json")) + sorted(folder.glob("example_rounds.json"))] \
        if folder else []


def _state(rules, game):
    return {"id": 1, "seq": len(game.moves), "rev": 0, "setup_done": True, "ruleset": rules.key,
            "needs_checking": False, **rules.table_standing(game), "legal_moves": _as_json(game.legal_moves())}


def test_the_document_is_served_and_names_every_installed_game(client):
    doc = client.get("/api/v1/openapi.json").get_json()
    schemas = doc["components"]["schemas"]
    for rules in registry.all_rulesets():  # the test game of tests/games too, when installed
        assert {f"{rules.key}.Move", f"{rules.key}.TableState"} <= set(schemas), rules.key
        assert {"$ref": f"#/components/schemas/{rules.key}.Move"} in schemas["Move"]["anyOf"]
        assert {"$ref": f"#/components/schemas/{rules.key}.TableState"} in schemas["TableState"]["oneOf"]
        assert rules.name in doc["info"]["description"]
    assert check_document(doc) == []
    body = doc["paths"]["/api/v1/tables/{table_id}/moves"]["post"]["requestBody"]
    assert body["content"]["application/json"]["schema"]["properties"]["move"] == {"$ref": "#/components/schemas/Move"}


@pytest.mark.parametrize("key", GAMES)
def test_every_move_and_state_of_real_games_fits_the_games_schemas(key):
    rules = registry.get(key)
    move_types = {v["properties"]["type"]["const"] for v in DOC["components"]["schemas"][f"{key}.Move"]["oneOf"]}
    seen = set()
    for record in _simulated(key):
        game = rules.new_game(record.pack, getattr(record, "setup", None) or record.players, table=record.table)
        for i, move in enumerate(record.moves):
            data = move.to_dict()
            seen.add(data["type"])
            assert schema_errors(DOC, f"{key}.Move", data) == [], (i, data)
            if i % 7 == 0:
                assert schema_errors(DOC, "TableState", _state(rules, game)) == [], i
            game.apply(move)
        assert schema_errors(DOC, f"{key}.TableState", _state(rules, game)) == []
    for data in _examples(key):  # RECORD.md's examples: every move as written there
        for move in data["moves"]:
            seen.add(move["type"])
            assert schema_errors(DOC, f"{key}.Move", move) == [] and schema_errors(DOC, "Move", move) == [], move
    assert move_types == set(import_module(rules.engine.rsplit(".", 1)[0] + ".moves").MOVE_TYPES)
    assert len(seen) >= len(move_types) // 2, seen  # the games went through most move types


MALFORMED = [
    ("lyceum-16-25", {"type": "adjust", "player": "Аня", "xp": 100}),  # no reason
    ("lyceum-16-25", {"type": "pass", "player": "  "}),
    ("lyceum-16-25", {"type": "allocate", "player": "Аня", "sp": {"luck": 1}}),
    ("lyceum-16-25", {"type": "draw", "player": "Аня", "color": "blue", "card": "L-G-01", "decision": "play"}),
    ("lyceum-16-25", {"type": "adjust", "player": "Аня", "xp": 10_001, "reason": "x"}),
    ("lyceum-16-25", {"type": "pass", "player": "Аня", "sp": {"health": 1}}),  # a key its type does not take
    ("alter-ego-3", {"type": "react", "player": "Bertta", "card": "taktinen_teko", "to": 0}),
    ("alter-ego-3", {"type": "play_activity", "player": "Aino", "card": "tyo"}),  # no target
    ("alter-ego-3", {"type": "adjust", "changes": [{"active": "pare", "anxiety": 2, "hand": 1}]}),
    ("alter-ego-3", {"type": "adjust", "changes": []}),
    ("alter-ego-3", {"type": "choose", "player": "Aino", "choice": "sulk", "active": "pare"}),
    ("alter-ego-3", {"type": "season", "player": "Aino\n"}),
    ("new-angeles", {"type": "capital", "player": "Anna", "amount": "2", "reason": "contract"}),
    ("new-angeles", {"type": "capital", "player": "Anna", "amount": 2, "reason": "gift"}),
    ("new-angeles", {"type": "threat", "amount": 1_000_001, "reason": "event"}),
    ("new-angeles", {"type": "deal", "active": "Anna", "asset": "A01", "main": {"card": "X", "emergency": "nbn"},
                     "counteroffers": [], "support": []}),
    ("new-angeles", {"type": "deal", "active": "Anna", "asset": "A01", "main": {"card": "X"},
                     "counteroffers": [], "support": [{"player": "Boris", "offer": "both", "cards": 1}]}),
    ("new-angeles", {"type": "adjust", "reason": " "}),
    ("new-angeles", {"type": "transfer", "from": "Anna"}),
]


@pytest.mark.parametrize("key, move", MALFORMED, ids=[f"{k}-{i}" for i, (k, _m) in enumerate(MALFORMED)])
def test_a_move_the_engine_refuses_as_malformed_the_schema_refuses_too(key, move):
    with pytest.raises(MalformedError):
        registry.get(key).read_move(move, "move")
    assert schema_errors(DOC, f"{key}.Move", move) != []
    assert schema_errors(DOC, "Move", move) != []
