"""The OpenAPI 3.1 document describing ``/api/v1``.

Every installed game is described by what its engine declares (``Ruleset.schemas``: its moves
and its table state as JSON Schema): ``<ruleset key>.Move`` and ``<ruleset key>.TableState``
for each game, and ``Move``/``TableState`` as any of them. A game that declares nothing gets
the shape every game shares (a move has a ``type``; a state its ``seq``, ``ruleset`` and legal
moves)."""

from facilitator.rules import registry


def _error(description):
    return {"description": description,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}


def _json_body(schema, required=True):
    return {"required": required, "content": {"application/json": {"schema": schema}}}


def _ok(description, schema=None):
    out = {"description": description}
    if schema is not None:
        out["content"] = {"application/json": {"schema": schema}}
    return out


AUTH_ERRORS = {"401": _error("No credential: send a table token or an organizer token, or use a browser session"),
               "403": _error("The credential does not open this")}


def openapi_document(self_url="/api/v1/openapi.json"):
    rulesets = sorted(registry.all_rulesets(), key=lambda r: r.key)
    table_id = {"name": "table_id", "in": "path", "required": True, "schema": {"type": "integer"}}
    event_id = {"name": "event_id", "in": "path", "required": True, "schema": {"type": "integer"}}
    state = {"$ref": "#/components/schemas/TableState"}
    event = {"$ref": "#/components/schemas/Event"}
    return {
        "openapi": "3.1.0",
        "info": {"title": "facilitator API", "version": "1",
                 "description": "The host's actions at a table of any game the app hosts ("
                                + ", ".join(f"{r.name}: `{r.key}`" for r in rulesets) + "): read the state "
                                "(`<ruleset>.TableState`), post a move (a record move object of the table's "
                                "game: `<ruleset>.Move`) or a batch of moves queued offline, undo, seat the "
                                "players; and the organizer's set-up of an event: sign in for a token, create an "
                                "event and its tables, read each table's link and PIN. Every write names the "
                                "sequence number it follows (`after`), so a repeated request never records "
                                "twice. Error `code`s are stable in every language; `message`s are in the "
                                "language asked (`Accept-Language`: " + ", ".join(LANGUAGES) + "; a table's "
                                "answers in one of its game's languages), naming cards, actives and players "
                                "by their names in it."},
        "servers": [{"url": "/"}],
        "security": [{"tableToken": []}, {"organizerToken": []}, {"session": []}],
        "paths": {
            "/api/v1/session": {
                "post": {"summary": "Sign in as the organizer: a token for `Authorization: Bearer <token>`",
                         "security": [],
                         "requestBody": _json_body({"type": "object", "required": ["password"],
                                                    "properties": {"password": {"type": "string"}}}),
                         "responses": {"201": _ok("Signed in", {"type": "object", "properties": {
                             "token": {"type": "string"}}}),
                             "401": _error("Wrong password"), "400": _error("Malformed body"),
                             "415": _error("The body is not JSON"),
                             "429": {"description": "Too many wrong passwords: wait as `Retry-After` says",
                                     "headers": {"Retry-After": {"schema": {"type": "integer"}}},
                                     "content": {"application/json": {"schema": {
                                         "$ref": "#/components/schemas/Error"}}}}}},
                "delete": {"summary": "Sign out: the organizer token (or browser session) ends",
                           "responses": {"204": _ok("Signed out")}}},
            "/api/v1/events": {
                "get": {"summary": "The events (organizer)", "responses": {
                    "200": _ok("The events", {"type": "object"}), **AUTH_ERRORS}},
                "post": {"summary": "Create an event, with `tables` tables opened at once (organizer)",
                         "requestBody": _json_body({"type": "object", "required": ["name"], "properties": {
                             "name": {"type": "string", "maxLength": 200}, "date": {"type": "string", "format": "date"},
                             "pack": {"type": "integer", "description": "a pack version's id (its game is the event's)"},
                             "game": {"type": "string", "description": "the event's game (the ruleset key of an "
                                                                       "installed game) when no pack is given: one of "
                                                                       "them is required, no game is the default"},
                             "language": {"type": "string", "enum": ["ru", "en", "fi", "sv"],
                                          "description": "the event's language (its projector, access sheet, "
                                                         "certificates, new tables' names): one of its game's; "
                                                         "by default the game's first"},
                             "tables": {"type": "integer", "minimum": 0, "maximum": 100}}}),
                         "responses": {"201": _ok("The event with its tables' links and PINs", event),
                                       "400": _error("Malformed body"), **AUTH_ERRORS}}},
            "/api/v1/events/{event_id}": {"get": {
                "summary": "An event with every table's link, token and PIN (organizer)", "parameters": [event_id],
                "responses": {"200": _ok("The event", event), "404": _error("No such event"), **AUTH_ERRORS}}},
            "/api/v1/events/{event_id}/tables": {"post": {
                "summary": "Add a table to an event (organizer)", "parameters": [event_id],
                "requestBody": _json_body({"type": "object", "required": ["name"], "properties": {
                    "name": {"type": "string", "maxLength": 100}, "host_name": {"type": "string", "maxLength": 100}}}),
                "responses": {"201": _ok("The table with its link and PIN", {"$ref": "#/components/schemas/Table"}),
                              "400": _error("Malformed body"), "404": _error("No such event"),
                              "409": _error("The event holds its most tables (`event_full`, `limit`)"),
                              **AUTH_ERRORS}}},
            "/api/v1/tables/{table_id}/players": {"put": {
                "summary": "Seat the players before the first move (the setup of the table's game)",
                "parameters": [table_id],
                "requestBody": _json_body({"type": "object", "required": ["rev", "players"], "properties": {
                    "rev": {"type": "integer", "minimum": 0, "description": "the setup revision it follows"},
                    "players": {"description": "the record's setup: «16/25» its players list, other games "
                                               "their setup keys"}}}),
                "responses": {"200": _ok("Seated; the new state", state), "400": _error("Malformed setup"),
                              "404": _error("No such table"),
                              "409": _error("Moves are recorded, or the setup changed on another device"),
                              "422": _error("The rules refuse the setup"), **AUTH_ERRORS}}},
            "/api/v1/tables/{table_id}/moves/batch": {"post": {
                "summary": "Moves a tablet queued offline, in order: the longest valid run is recorded, the first "
                           "refused is named (moves already recorded count as recorded)",
                "parameters": [table_id],
                "requestBody": _json_body({"type": "object", "required": ["moves"], "properties": {
                    "moves": {"type": "array", "minItems": 1, "maxItems": 500, "items": {
                        "type": "object", "required": ["after"], "properties": {
                            "after": {"type": "integer", "minimum": 0},
                            "move": {"$ref": "#/components/schemas/Move"},
                            "undo": {"type": "boolean"},
                            "client_id": {"type": "string", "maxLength": 64}}}},
                    "flash": {"type": "boolean", "description": "a browser's outbox: the next screen says what "
                                                                "the moves changed"}}}),
                "responses": {"200": _ok("Every move recorded; the new state", {"$ref": "#/components/schemas/Batch"}),
                              "207": _ok("Recorded up to the first move refused", {"$ref": "#/components/schemas/Batch"}),
                              "400": _error("Malformed body"), "404": _error("No such table"),
                              "415": _error("The body is not JSON"), **AUTH_ERRORS}}},
            "/api/v1/tables/{table_id}/queued": {"post": {
                "summary": "Move forms a tablet's outbox queued, each as the form would post it: read by the game's "
                           "own form reading (the same bounds and refusals as the screen without JavaScript) as "
                           "the table stands just before it; the longest valid run is recorded, the first refused "
                           "is named in the screen's words (forms already recorded count as recorded)",
                "parameters": [table_id],
                "requestBody": _json_body({"type": "object", "required": ["moves"], "properties": {
                    "moves": {"type": "array", "minItems": 1, "maxItems": 500, "items": {
                        "type": "object", "required": ["action", "fields", "after"], "properties": {
                            "action": {"type": "string", "maxLength": 500,
                                       "description": "the form's action: this table's move or undo address"},
                            "fields": {"type": "array", "maxItems": 2000, "description": "the form's fields as "
                                       "the browser posts them, [name, value] pairs (csrf_token and after are "
                                       "not read from them)",
                                       "items": {"type": "array", "minItems": 2, "maxItems": 2,
                                                 "items": {"type": "string"}}},
                            "after": {"type": "integer", "minimum": 0},
                            "client_id": {"type": "string", "maxLength": 64}}}},
                    "flash": {"type": "boolean", "description": "the next screen says what the moves changed"}}}),
                "responses": {"200": _ok("Every form recorded; the table's new seq (no standing: the next screen "
                                         "draws it)", {"$ref": "#/components/schemas/Batch"}),
                              "207": _ok("Recorded up to the first form refused", {"$ref": "#/components/schemas/Batch"}),
                              "400": _error("Malformed body"), "404": _error("No such table"),
                              "415": _error("The body is not JSON"), **AUTH_ERRORS}}},
            "/api/v1/tables": {"get": {"summary": "The tables this client may open (every table for the organizer)", "responses": {"200": {
                "description": "The tables", "content": {"application/json": {"schema": {
                    "type": "object", "properties": {"tables": {"type": "array", "items": {
                        "type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"},
                                                         "url": {"type": "string"}}}}}}}}}}}},
            "/api/v1/tables/{table_id}": {"get": {
                "summary": "A table's state: its part of its game's standings (`<ruleset>.TableState`), legal "
                           "moves and seq",
                "parameters": [table_id],
                "responses": {"200": {"description": "The state", "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/TableState"}}}},
                    "401": _error("No credential"),
                    "403": _error("Not this table's host"), "404": _error("No such table")}}},
            "/api/v1/tables/{table_id}/moves": {"post": {
                "summary": "Record a move after sequence number `after`",
                "parameters": [table_id],
                "requestBody": {"required": True, "content": {"application/json": {"schema": {
                    "type": "object", "required": ["after", "move"],
                    "properties": {"after": {"type": "integer", "minimum": 0},
                                   "move": {"$ref": "#/components/schemas/Move"},
                                   "client_id": {"type": "string", "maxLength": 64}}}}}},
                "responses": {
                    "201": {"description": "Recorded; the new state", "content": {"application/json": {
                        "schema": {"$ref": "#/components/schemas/TableState"}}}},
                    "400": _error("Malformed move or body (`path` names the bad field; a key the move's type does "
                                  "not take is refused by name), or the table's log is full"),
                    "404": _error("No such table"),
                    "409": _error("The table is not at `after`: `already_recorded` is true for a repeat"),
                    "403": _error("Not this table's host"),
                    "415": _error("The body is not JSON"),
                    "422": _error("The rules refuse the move (`rule` names the RULES.md section)")}}},
            "/api/v1/tables/{table_id}/undo": {"post": {
                "summary": "Undo the last move in force (kept in the log, marked undone)",
                "parameters": [table_id],
                "requestBody": {"required": True, "content": {"application/json": {"schema": {
                    "type": "object", "required": ["after"],
                    "properties": {"after": {"type": "integer", "minimum": 0}}}}}},
                "responses": {"200": {"description": "Undone; the new state", "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/TableState"}}}},
                    "400": _error("Malformed body"), "404": _error("No such table"),
                    "403": _error("Not this table's host"),
                    "409": _error("Stale sequence number, or nothing to undo"),
                    "415": _error("The body is not JSON")}}},
            "/api/v1/tables/{table_id}/record": {"get": {
                "summary": "The table's game record in its game's record format (" + ", ".join(
                    r.record_format for r in rulesets) + "), undone moves left out",
                "parameters": [table_id],
                "responses": {"200": {"description": "The record", "content": {"application/json": {
                    "schema": {"type": "object"}}}},
                    "403": _error("Not this table's host"), "404": _error("No such table"),
                    "409": _error("The table has no players yet")}}},
        },
        "components": {
          "securitySchemes": {
            "tableToken": {"type": "http", "scheme": "bearer",
                           "description": "The table's host token (from its host link)"},
            "organizerToken": {"type": "http", "scheme": "bearer",
                               "description": "An organizer token from POST /api/v1/session (starts with org_)"},
            "session": {"type": "apiKey", "in": "cookie", "name": "session",
                        "description": "A browser session that opened the table by link or PIN, or the organizer's"}},
          "schemas": {
            "Error": {"type": "object", "required": ["error"], "properties": {"error": {
                "type": "object", "required": ["code", "message"],
                "properties": {"code": {"type": "string"}, "message": {"type": "string"},
                               "rule": {"type": "string"}, "path": {"type": "string"},
                               "already_recorded": {"type": "boolean"}, "seq": {"type": "integer"}}}}},
            **game_schemas(rulesets),
            "Table": {"type": "object", "properties": {
                "id": {"type": "integer"}, "name": {"type": "string"}, "host_name": {"type": ["string", "null"]},
                "ruleset": {"type": "string"}, "seq": {"type": "integer"}, "rev": {"type": "integer"},
                "status": {"enum": ["setup", "playing", "finished", "broken"]}, "url": {"type": "string"},
                "pin": {"type": ["string", "null"]}, "token": {"type": ["string", "null"]},
                "link": {"type": ["string", "null"]}}},
            "Event": {"type": "object", "properties": {
                "id": {"type": "integer"}, "name": {"type": "string"}, "date": {"type": ["string", "null"]},
                "ruleset": {"type": "string"}, "pack_id": {"type": ["integer", "null"]},
                "tables": {"type": "array", "items": {"$ref": "#/components/schemas/Table"}}}},
            "Batch": {"type": "object", "properties": {
                "id": {"type": "integer"}, "seq": {"type": "integer"}, "rev": {"type": "integer"},
                "recorded": {"type": "array", "items": {"type": "object", "properties": {
                    "client_id": {"type": ["string", "null"]}, "seq": {"type": "integer"},
                    "already": {"type": "boolean"}}}},
                "refused": {"type": ["object", "null"], "properties": {
                    "index": {"type": "integer"}, "client_id": {"type": ["string", "null"]},
                    "code": {"type": "string"}, "message": {"type": "string"}}},
                "done": {"type": "integer", "description": "with flash: the seq of the one move the next screen "
                         "is to confirm, at the table's address with ?done=<seq> (then nothing was flashed)"}}},
        }},
    }


#: the languages the API's messages are in (``Accept-Language``)
LANGUAGES = ("ru", "en", "fi", "sv")

#: what a table's state holds whatever its game (``web.api.state``)
STATE_HEAD = {"id": {"type": "integer"}, "seq": {"type": "integer", "minimum": 0},
              "rev": {"type": "integer", "minimum": 0}, "setup_done": {"type": "boolean"},
              "needs_checking": {"type": "boolean"}, "table": {"type": "string"},
              "players": {"type": "array"},
              "legal_moves": {"type": "array", "items": {"type": "object", "required": ["type"]},
                              "description": "the moves the rules take now, each with its type and what the "
                                             "game says of it (options, refusals with their rule, code and "
                                             "message)"}}
_HEAD_REQUIRED = ["id", "seq", "rev", "setup_done", "ruleset", "needs_checking", "table", "players", "legal_moves"]
#: a move of a game that declares none
ANY_MOVE = {"type": "object", "required": ["type"], "properties": {"type": {"type": "string", "minLength": 1}}}


def _ref(name):
    return {"$ref": f"#/components/schemas/{name}"}


def game_schemas(rulesets):
    """``<key>.Move`` and ``<key>.TableState`` of every game, as its engine declares them
    (``Ruleset.schemas``), and ``Move``/``TableState`` as any of them."""
    out = {}
    for r in rulesets:
        try:
            declared = r.schemas()
        except AttributeError:  # a game whose engine declares no schema: the shape every game shares
            declared = {}
        move = dict(declared.get("Move") or ANY_MOVE)
        move.setdefault("description", f"A move of {r.name} ({r.record_format})")
        game_state = declared.get("TableState") or {}
        seated = {"type": "object", "title": f"{r.name}: seated",
                  "required": _HEAD_REQUIRED + [k for k in game_state.get("required", ()) if k not in _HEAD_REQUIRED],
                  "properties": {**game_state.get("properties", {}), **STATE_HEAD, "ruleset": {"const": r.key},
                                 "setup_done": {"const": True}, "needs_checking": {"const": False}}}
        unseated = {"type": "object", "title": f"{r.name}: no players yet, or its log needs checking",
                    "required": _HEAD_REQUIRED,
                    "properties": {**STATE_HEAD, "ruleset": {"const": r.key},
                                   "players": {"type": "array", "maxItems": 0},
                                   "legal_moves": {"type": "array", "maxItems": 0}}}
        out[f"{r.key}.Move"] = move
        out[f"{r.key}.TableState"] = {"description": f"A {r.name} table's state: its part of {r.standings_format} "
                                                     f"with the legal moves, seq and rev",
                                      "oneOf": [seated, unseated]}
    out["Move"] = {"description": "A move of the table's game: " + ", ".join(f"`{r.key}.Move`" for r in rulesets),
                   "anyOf": [_ref(f"{r.key}.Move") for r in rulesets]}
    out["TableState"] = {"description": "A table's state, by its `ruleset`",
                         "oneOf": [_ref(f"{r.key}.TableState") for r in rulesets]}
    return out
