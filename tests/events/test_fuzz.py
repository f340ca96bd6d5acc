"""A fuzzer over the JSON API and every upload path (issue 10): random JSON — any shape, deep
nesting, huge and tiny numbers, odd strings — and random files are sent where a client or an
organizer can send them. Whatever arrives, the answer is never a server error (5xx), and a
refused write stores nothing. Bounded: a fixed number of examples per target (hypothesis)."""

import io
import json
import zipfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from facilitator import services
from facilitator.rules.lyceum.ruleset import sample_pack_data
from facilitator.rules.alterego.moves import ALLOWED as ALTER_EGO_KEYS
from facilitator.rules.lyceum.moves import ALLOWED as LYCEUM_KEYS
from facilitator.rules.newangeles.moves import ALLOWED as NEW_ANGELES_KEYS

from .helpers import csrf_token, db, everything, new_event, seated_table
from .test_move_bounds import FIRST_MOVES, seated

pytestmark = [pytest.mark.db, pytest.mark.slow]

FUZZ = settings(max_examples=120, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

# ----- what is sent -----------------------------------------------------------------------------
texts = st.one_of(st.text(max_size=30), st.sampled_from(["", " ", "\x00", "\n", "Аня", "=1+1", "a" * 5000, "🂡",
                                                          "lyceum-record/1", "facilitator-event-backup/1",
                                                          "facilitator-outbox/1", "draw", "pass", "finish"]))
numbers = st.one_of(st.integers(min_value=-10, max_value=10), st.integers(), st.sampled_from(
    [2 ** 31, -2 ** 31 - 1, 10 ** 100, 10 ** 300, 0]), st.floats(allow_nan=False, allow_infinity=False),
    st.booleans(), st.none())
scalars = st.one_of(texts, numbers)
json_values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=5),
                                                            st.dictionaries(texts, inner, max_size=5)), max_leaves=25)
keys = st.sampled_from(["after", "move", "moves", "undo", "client_id", "type", "player", "card", "color", "decision",
                        "sp", "xp", "reason", "players", "rev", "name", "tables", "date", "pack", "password", "format",
                        "table", "content", "event", "log", "seq", "kind", "data", "flash", "redistribute"])
shaped = st.dictionaries(keys, json_values, max_size=8)
deep = st.integers(min_value=60, max_value=100_000).map(lambda n: "[" * n + "]" * n)
bodies = st.one_of(shaped.map(json.dumps), json_values.map(json.dumps), deep,
                   st.binary(max_size=200).map(lambda b: b.decode("latin-1")),
                   st.sampled_from(['{"after": 0, "move": {"type": "pass", "player": "Аня"}}', "NaN", "[1e999]",
                                    '{"after": ' + "9" * 5000 + "}", "\ufeff{}", "{"]))


def record_like():
    """Records (and backups) near the real thing: a real record with one field replaced."""
    return st.tuples(st.sampled_from(["format", "table", "players", "moves", "content"]), json_values)


# ----- the API ------------------------------------------------------------------------------------
@pytest.fixture
def target(app):
    event_id = new_event(app)
    table = seated_table(app, event_id, "Стол 1", seed=3, moves=4)
    with db(app) as s:
        row = services.get_table(s, table)
        services.access.ensure_access(s, row)
        token = row.token
    return event_id, table, token


API = ["/api/v1/tables/{t}/moves", "/api/v1/tables/{t}/moves/batch", "/api/v1/tables/{t}/undo",
       "/api/v1/session", "/api/v1/events", "/api/v1/events/{e}/tables"]


@FUZZ
@given(path=st.sampled_from(API), body=bodies, with_token=st.booleans())
def test_the_api_answers_anything_without_a_server_error(app, target, path, body, with_token):
    event_id, table, token = target
    client = app.test_client()
    before = everything(app)
    headers = {"Content-Type": "application/json"}
    if with_token:
        headers["Authorization"] = f"Bearer {token}"
    response = client.post(path.format(t=table, e=event_id), data=body.encode("utf-8", "surrogatepass"),
                           headers=headers)
    assert response.status_code < 500, (path, body[:200], response.get_data(as_text=True)[:500])
    if response.status_code >= 400:
        assert everything(app) == before


@FUZZ
@given(table_id=st.one_of(st.integers(), st.sampled_from([0, 2 ** 31, 2 ** 63, -1])), body=bodies)
def test_seating_players_answers_anything_without_a_server_error(app, target, table_id, body):
    _event_id, _table, token = target
    response = app.test_client().put(f"/api/v1/tables/{abs(table_id)}/players", data=body.encode("utf-8", "replace"),
                                     headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    assert response.status_code < 500


# ----- every game's moves: unknown keys and wrong types per field (issue 17) -------------------------
@pytest.fixture
def games(app):
    """A seated table of each game: ``{ruleset: (table id, token)}``."""
    return {ruleset: seated(app, ruleset, f"Стол {ruleset}")[1:] for ruleset in FIRST_MOVES}


#: the keys a move of a type may hold, by game
ALLOWED = {"lyceum-16-25": LYCEUM_KEYS, "alter-ego-3": ALTER_EGO_KEYS, "new-angeles": NEW_ANGELES_KEYS}
MOVE_KEYS = st.one_of(texts, st.sampled_from(["device", "timer_left", "x" * 1000, "", "player ", "Type", "__proto__"]))


@settings(FUZZ, max_examples=60)
@given(ruleset=st.sampled_from(sorted(FIRST_MOVES)), batch=st.booleans(), change=st.one_of(
    st.tuples(st.just("add"), MOVE_KEYS, json_values),
    st.tuples(st.just("replace"), st.sampled_from(["type", "player", "amount", "reason", "at", "note"]), json_values)))
def test_a_move_with_an_unknown_key_or_a_field_of_another_type_is_a_clear_4xx(app, games, ruleset, batch, change):
    """Whatever key is added to a game's move, or whatever JSON replaces one of its fields, the
    answer is never a server error and a refused move stores nothing; a key the move's type does
    not take is always a 400 naming it."""
    table, token = games[ruleset]
    kind, key, value = change
    move = dict(FIRST_MOVES[ruleset])
    if key in ALLOWED[ruleset][move["type"]]:  # a field the move may hold: any answer but a 5xx
        kind = "replace"
    move[key] = value
    with db(app) as s:
        after = services.get_table(s, table).seq
    before = everything(app)
    body = {"moves": [{"after": after, "move": move}]} if batch else {"after": after, "move": move}
    response = app.test_client().post(f"/api/v1/tables/{table}/moves" + ("/batch" if batch else ""),
                                      data=json.dumps(body), headers={"Content-Type": "application/json",
                                                                      "Authorization": f"Bearer {token}"})
    assert response.status_code < 500, (ruleset, move, response.get_data(as_text=True)[:300])
    answer = response.get_json()
    refusal = answer.get("error") or answer.get("refused")
    if kind == "add":
        assert refusal is not None and refusal["code"] == "malformed", (move, answer)
    if refusal is not None:
        assert everything(app) == before
        assert len(refusal["message"]) < 400


# ----- uploads --------------------------------------------------------------------------------------
def upload(client, path, field, content, filename, token):
    return client.post(path, data={field: (io.BytesIO(content), filename), "csrf_token": token},
                       content_type="multipart/form-data")


def real_record(app, table):
    with db(app) as s:
        return services.load(s, table).record().to_dict()


def spoiled(data, change):
    key, value = change
    out = dict(data)
    out[key] = value
    return out


def workbook_like(payload):
    """A zip that looks like a workbook to a point: random parts, sometimes an XML one."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr("[Content_Types].xml", payload[:50])
        z.writestr("xl/workbook.xml", b"<workbook>" + payload + b"</workbook")
        z.writestr("xl/worksheets/sheet1.xml", payload)
    return buffer.getvalue()


@FUZZ
@given(kind=st.sampled_from(["host record", "event record", "restore", "pack json", "pack xlsx", "outbox"]),
       body=bodies, change=record_like(), raw=st.binary(max_size=300))
def test_every_upload_answers_anything_without_a_server_error(app, client, target, kind, body, change, raw):
    event_id, table, _token = target
    token = csrf_token(client, "/organizer/")
    record = json.dumps(spoiled(real_record(app, table), change), ensure_ascii=False, default=str)
    content = {"host record": record, "event record": record, "outbox": body}.get(kind, body)
    content = content.encode("utf-8", "surrogatepass") if isinstance(content, str) else content
    if kind == "restore":
        backup = client.get(f"/organizer/events/{event_id}/backup.json").get_json()
        backup[change[0] if change[0] in ("tables", "event", "packs", "format") else "event"] = change[1]
        content = json.dumps(backup, default=str).encode()
    path, field, filename = {
        "host record": ("/tables/import", "record", "r.json"),
        "event record": (f"/organizer/events/{event_id}/import", "record", "r.json"),
        "restore": ("/organizer/restore", "backup", "b.json"),
        "pack json": ("/organizer/packs/upload", "pack", "p.json"),
        "pack xlsx": ("/organizer/packs/upload", "pack", "p.xlsx"),
        "outbox": (f"/organizer/events/{event_id}/tables/{table}/outbox", "outbox", "o.json"),
    }[kind]
    if kind == "pack xlsx":
        content = workbook_like(raw)
    response = upload(client, path, field, content, filename, token)
    assert response.status_code < 500, (kind, response.get_data(as_text=True)[:500])


def test_the_fuzzer_would_see_a_server_error(app, target, monkeypatch):
    """The checks above can fail: a view that raises answers 500, which they would report."""
    from facilitator.web import api
    monkeypatch.setattr(api, "_json_body", lambda: 1 / 0)
    _event_id, table, token = target
    response = app.test_client().post(f"/api/v1/tables/{table}/moves", json={},
                                      headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 500


def test_a_real_pack_still_uploads(app, client):
    """The upload path the fuzzer attacks does take a good file (so the fuzzer is not just
    meeting a closed door)."""
    data = sample_pack_data()
    data["id"] = "fuzz-check"
    token = csrf_token(client, "/organizer/")
    response = upload(client, "/organizer/packs/upload", "pack", json.dumps(data).encode(), "p.json", token)
    assert response.status_code == 303
