"""The OpenAPI 3.1 document describing ``/api/v1``."""


def _error(description):
    return {"description": description,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}


def openapi_document(self_url="/api/v1/openapi.json"):
    table_id = {"name": "table_id", "in": "path", "required": True, "schema": {"type": "integer"}}
    return {
        "openapi": "3.1.0",
        "info": {"title": "facilitator API", "version": "1",
                 "description": "The host's actions for one «16/25» table: read the state, post a move "
                                "(a lyceum-record/1 move object), undo. Every write names the sequence "
                                "number it follows (`after`), so a repeated request never records twice."},
        "servers": [{"url": "/"}],
        "security": [{}, {"tableToken": []}, {"session": []}],
        "paths": {
            "/api/v1/tables": {"get": {"summary": "The tables this client may open (every table for the organizer)", "responses": {"200": {
                "description": "The tables", "content": {"application/json": {"schema": {
                    "type": "object", "properties": {"tables": {"type": "array", "items": {
                        "type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"},
                                                         "url": {"type": "string"}}}}}}}}}}}},
            "/api/v1/tables/{table_id}": {"get": {
                "summary": "A table's state: its lyceum-standings/1 table part, legal moves and seq",
                "parameters": [table_id],
                "responses": {"200": {"description": "The state", "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/TableState"}}}},
                    "403": _error("Not this table's host"), "404": _error("No such table")}}},
            "/api/v1/tables/{table_id}/moves": {"post": {
                "summary": "Record a move after sequence number `after`",
                "parameters": [table_id],
                "requestBody": {"required": True, "content": {"application/json": {"schema": {
                    "type": "object", "required": ["after", "move"],
                    "properties": {"after": {"type": "integer", "minimum": 0},
                                   "move": {"$ref": "#/components/schemas/Move"}}}}}},
                "responses": {
                    "201": {"description": "Recorded; the new state", "content": {"application/json": {
                        "schema": {"$ref": "#/components/schemas/TableState"}}}},
                    "400": _error("Malformed move or body (`path` names the bad field)"),
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
                "summary": "The table's game record (lyceum-record/1), undone moves left out",
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
            "session": {"type": "apiKey", "in": "cookie", "name": "session",
                        "description": "A browser session that opened the table by link or PIN, or the organizer's"}},
          "schemas": {
            "Error": {"type": "object", "required": ["error"], "properties": {"error": {
                "type": "object", "required": ["code", "message"],
                "properties": {"code": {"type": "string"}, "message": {"type": "string"},
                               "rule": {"type": "string"}, "path": {"type": "string"},
                               "already_recorded": {"type": "boolean"}, "seq": {"type": "integer"}}}}},
            "SkillMap": {"type": "object", "additionalProperties": False, "properties": {
                s: {"type": "integer"} for s in ("health", "intellect", "creativity", "communication", "energy")}},
            "Move": {"type": "object", "required": ["type"], "properties": {
                "type": {"enum": ["draw", "rest", "share", "pass", "play_deferred", "allocate", "adjust", "finish"]},
                "player": {"type": "string"},
                "color": {"enum": ["green", "yellow", "red"]},
                "card": {"oneOf": [{"type": "string"}, {"type": "object"}]},
                "decision": {"enum": ["play", "defer", "discard"]},
                "sp": {"$ref": "#/components/schemas/SkillMap"},
                "xp": {"type": "integer"},
                "redistribute": {"$ref": "#/components/schemas/SkillMap"},
                "reason": {"type": "string"}, "at": {"type": "string"}, "note": {"type": "string"}}},
            "TableState": {"type": "object", "properties": {
                "id": {"type": "integer"}, "seq": {"type": "integer"}, "setup_done": {"type": "boolean"},
                "table": {"type": "string"}, "finished": {"type": "boolean"}, "round": {"type": "integer"},
                "era": {"type": "string"}, "next": {"type": ["object", "null"]},
                "players": {"type": "array", "items": {"type": "object"}},
                "total_xp": {"type": "integer"}, "average_xp": {"type": "number"},
                "legal_moves": {"type": "array", "items": {"type": "object"}}}},
        }},
    }
