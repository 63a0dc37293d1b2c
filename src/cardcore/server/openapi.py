"""``GET /openapi.json``: the HTTP API of the table server as OpenAPI 3.1 (docs/server.md).

Generated from the code's own lists (the games of the registry, the bots, the statuses each
route answers), and checked against the app's routes by ``tests/test_server_openapi.py``,
which also runs schemathesis over every operation against a live server.
"""
from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from cardcore._version import __version__
from cardcore.i18n import LANGUAGES
from cardcore.bots import LEVELS
from cardcore.registry import available_games
from cardcore.server.clocks import FORFEIT, MAX_SECONDS, MIN_SECONDS
from cardcore.server.requests import REQUEST_ID as REQUEST_ID_KEYWORDS
from cardcore.server.json_types import json_schema
from cardcore.server.requests import (NEW_TABLE_FROM_SERVER, WS_CLIENT_MESSAGES,
                                      ActionRequest, ClaimRequest, NewTableRequest,
                                      TakebackRequest)
from cardcore.server.responses import (COMPONENTS, FROM_SERVER, Alive, Catalog, Claimed,
                                       Draining, GamesList, TableList)
from cardcore.server.seats import JOIN_MODES
from cardcore.server.table_bots import table_bots

__all__ = ["openapi_spec", "OPERATIONS"]

ERROR = {"$ref": "#/components/schemas/Error"}

# Statuses any operation may answer: a foreign Origin (403), a foreign Host (421), an
# oversized head (431), a bug (500, never expected: schemathesis checks it does not happen).
COMMON = {"403": "an Origin outside the allow-list; a bad token",
          "421": "a Host this server does not serve",
          "431": "the request head is too large"}


def _responses(ok: dict[str, Any], **errors: str) -> dict[str, Any]:
    out = dict(ok)
    for status, text in {**COMMON, **{k.lstrip("_"): v for k, v in errors.items()}}.items():
        out[status] = {"description": text,
                       "content": {"application/json": {"schema": ERROR}}}
    return out


def _json(schema: dict[str, Any], text: str) -> dict[str, Any]:
    return {"description": text, "content": {"application/json": {"schema": schema}}}


# An action's exact cards (docs/server.md, "Exact cards"; Game.apply's cards=).
# A request id as the socket's messages carry it and its answers echo it (requests.py).
REQUEST_ID = {"type": ["string", "integer"], **REQUEST_ID_KEYWORDS.keywords}

TABLE_ID = {"name": "table", "in": "path", "required": True,
            "schema": {"type": "string", "minLength": 1, "maxLength": 100}}
BEARER: list[dict[str, list[str]]] = [{}, {"bearer": []}]
# From a new table to what may be done with it (schemathesis' stateful phase follows them).
LINKS = {
    "GetTable": {"operationId": "getTable",
                 "parameters": {"path.table": "$response.body#/table",
                                "query.token": "$response.body#/seats/0"}},
    "Act": {"operationId": "act", "parameters": {"path.table": "$response.body#/table"},
            "requestBody": {"token": "$response.body#/seats/0", "action": 0}},
    "DeleteTable": {"operationId": "deleteTable",
                    "parameters": {"path.table": "$response.body#/table"}},
}

# (path, method) of every operation: the test compares them with the app's routes.
OPERATIONS = [("/api/games", "get"), ("/api/i18n", "get"), ("/api/tables", "get"), ("/api/tables", "post"),
              ("/api/tables/{table}", "get"), ("/api/tables/{table}", "delete"),
              ("/api/tables/{table}/actions", "post"), ("/api/tables/{table}/hint", "get"),
              ("/api/tables/{table}/takeback", "post"),
              ("/api/tables/{table}/record", "get"), ("/howto/{game}", "get"),
              ("/api/tables/{table}/review", "get"),
              ("/api/tables/{table}/seats", "post"),
              ("/api/tables/{table}/seats/{seat}", "delete"),
              ("/api/tables/{table}/rematch", "post"), ("/healthz", "get"),
              ("/livez", "get"), ("/readyz", "get"),
              ("/metrics", "get"), ("/openapi.json", "get")]


STATE_OK = {"200": _json({"$ref": "#/components/schemas/State"}, "the seat's state")}
GUESSES = "too many wrong tokens or invites from this address (Retry-After)"


def openapi_spec(extra_bots: Mapping[str, Sequence[str]] | None = None) -> dict[str, Any]:
    """The OpenAPI document; ``extra_bots``: the plug-in bots a server offers, per game
    (``TableServer.extra_bots``), listed among the bot names."""
    spec = _spec(extra_bots)
    # Any request about a table may be refused by the guess limit of its address (app.py).
    for path, item in spec["paths"].items():
        if "{table}" not in path:
            continue
        for operation in item.values():
            responses = operation["responses"]
            if "429" in responses:
                responses["429"] = {**responses["429"], "description":
                                    f"{responses['429']['description']}; {GUESSES}"}
            else:
                responses["429"] = {"description": GUESSES,
                                    "content": {"application/json": {"schema": ERROR}}}
    return spec


# The answers' types that are components of their own, by type (a $ref where used).
REFS = {typed: name for name, typed in COMPONENTS.items()}


def answer(typed: type) -> dict[str, Any]:
    """An answer's schema, inline: its type's fields (responses.py), others allowed."""
    return json_schema(typed, closed=False, refs=REFS)


def _answers(games: list[str], clock_option: dict[str, Any]) -> dict[str, Any]:
    """The answers' components (responses.COMPONENTS), the fields ``FROM_SERVER`` names
    completed from the server's own lists. A seat's claim is closed: it says everything."""
    server_lists = {"game": {"type": "string", "enum": games},
                    "clock": {"anyOf": [clock_option, {"type": "null"}]}}
    schemas = {name: json_schema(typed, closed=typed is Claimed, refs=REFS)
               for name, typed in COMPONENTS.items()}
    for name, fields in FROM_SERVER.items():
        schemas[name]["properties"].update({f: server_lists[f] for f in fields})
    schemas["Record"]["description"] = ("docs/server.md, Records; per game: `cardcore schema "
                                        "GAME record`")
    return schemas


def _new_table(games: list[str], bots: list[str], clock_option: dict[str, Any]
               ) -> dict[str, Any]:
    """``POST /api/tables``'s body: the handler's type (requests.NewTableRequest), its
    ``NEW_TABLE_FROM_SERVER`` fields completed from the server's own lists."""
    schema = json_schema(NewTableRequest)
    properties = schema["properties"]
    server_lists = {"game": {"type": "string", "enum": games},
                    "bots": {"type": ["object", "null"],
                             "additionalProperties": {"type": "string", "enum": bots}},
                    "clock": {"anyOf": [clock_option, {"type": "null"}]},
                    "join": {"enum": [*JOIN_MODES, None]}}
    assert set(server_lists) == set(NEW_TABLE_FROM_SERVER)
    properties.update({name: server_lists[name] for name in NEW_TABLE_FROM_SERVER})
    return schema


def _clock_option() -> dict[str, Any]:
    """A table's clock as ``POST /api/tables`` takes it (clocks.parse_clock)."""
    return {
        "type": "object", "additionalProperties": False,
        "description": "per_move, or bank and increment (seconds); on_timeout: level:N or "
                       "forfeit (docs/server.md, Clocks)",
        "properties": {"per_move": {"type": "number", "minimum": MIN_SECONDS,
                                    "maximum": MAX_SECONDS},
                       "bank": {"type": "number", "minimum": MIN_SECONDS,
                                "maximum": MAX_SECONDS},
                       "increment": {"type": "number", "minimum": 0, "maximum": MAX_SECONDS},
                       "on_timeout": {"type": "string",
                                      "enum": [FORFEIT] + [f"level:{n}" for n in LEVELS]}},
        "oneOf": [{"required": ["per_move"], "not": {"anyOf": [{"required": ["bank"]},
                                                               {"required": ["increment"]}]}},
                  {"required": ["bank", "increment"],
                   "not": {"required": ["per_move"]}}]}


def _lobby_paths(games: list[str]) -> dict[str, Any]:
    """The games, their words and the lobby."""
    return {
        "/api/games": {"get": {
            "operationId": "listGames", "summary": "the games, their options and bots",
            "responses": _responses({"200": _json(answer(GamesList), "the games")})}},
        "/api/i18n": {"get": {
            "operationId": "getWords",
            "summary": "the web table's words in a language (the gettext catalogs)",
            "parameters": [
                {"name": "lang", "in": "query", "required": False,
                 "schema": {"type": "string", "enum": list(LANGUAGES)},
                 "description": "default: the Accept-Language header's pick"},
                {"name": "game", "in": "query", "required": False,
                 "schema": {"type": "string", "enum": games},
                 "description": "default: every game's words, each apart"}],
            "responses": _responses({"200": _json(
                answer(Catalog), "msgid (the English text) -> its translation")},
                _404="an unknown game", _422="an unknown language")}},
        "/api/tables": {
            "get": {
                "operationId": "listTables", "summary": "open tables, newest first",
                "parameters": [{"name": "over", "in": "query", "required": False,
                                "schema": {"type": "string",
                                           "enum": ["0", "1", "false", "true"]}},
                               {"name": "limit", "in": "query", "required": False,
                                "schema": {"type": "integer", "minimum": 1,
                                           "maximum": 100, "default": 100}},
                               {"name": "cursor", "in": "query", "required": False,
                                "description": "the next of the page before",
                                "schema": {"type": "string", "maxLength": 120}}],
                "responses": _responses({"200": _json(answer(TableList), "the lobby")},
                                        _400="a bad over, limit or cursor")},
            "post": {
                "operationId": "createTable", "summary": "a new table",
                "requestBody": {"required": True, "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/NewTable"}}}},
                "responses": _responses(
                    {"201": {**_json({"$ref": "#/components/schemas/Created"},
                                     "the table and its tokens"), "links": LINKS}},
                    _400="not JSON, not an object, a field of the wrong type",
                    _413="the body is too large",
                    _415="not sent as application/json",
                    _422="a bad game configuration (players, option, bot)",
                    _429="too many creations from this address (Retry-After)",
                    _503="the open-table limit; storage failed")}},
    }


def _table_paths() -> dict[str, Any]:
    """A table: read it, delete it, act and ask for a hint."""
    return {
        "/api/tables/{table}": {
            "get": {
                "operationId": "getTable", "summary": "a seat's (or the spectator's) state",
                "security": BEARER,
                "parameters": [TABLE_ID,
                               {"name": "since", "in": "query", "required": False,
                                "description": "the first event of the page (0.."
                                "event_count); without it, the last 100 events",
                                "schema": {"type": "integer", "minimum": 0}},
                               {"name": "token", "in": "query", "required": False,
                                "deprecated": True, "schema": {"type": "string"}}],
                "responses": _responses(STATE_OK, _400="a bad since",
                                        _403="a bad token; no token at a table without "
                                             "spectators",
                                        _404="no such table",
                                        _503="storage failed")},
            "delete": {
                "operationId": "deleteTable", "summary": "delete with the creator token",
                "security": [{"bearer": []}],
                "parameters": [TABLE_ID],
                "responses": _responses({"204": {"description": "deleted"}},
                                        _401="no Authorization header",
                                        _404="no such table",
                                        _503="storage failed")}},
        "/api/tables/{table}/actions": {"post": {
            "operationId": "act", "summary": "play an action for a seat",
            "security": BEARER,
            "parameters": [TABLE_ID],
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/Action"}}}},
            "responses": _responses(
                STATE_OK, _400="not JSON, not an object, a field of the wrong type",
                _404="no such table", _409="not this seat's turn; over; stale after",
                _413="the body is too large", _415="not sent as application/json",
                _422="an illegal or unknown action", _503="storage failed")}},
        "/api/tables/{table}/hint": {"get": {
            "operationId": "hint", "summary": "the best moves for the seat to move",
            "security": BEARER,
            "parameters": [TABLE_ID,
                           {"name": "token", "in": "query", "required": False,
                            "deprecated": True, "schema": {"type": "string"}}],
            "responses": _responses(
                {"200": _json({"$ref": "#/components/schemas/Hints"}, "the hints")},
                _403="no seat token, or a bad one", _404="no such table",
                _409="not this seat's turn; over",
                _429="too many hints for this seat (Retry-After)",
                _503="storage failed")}},
    }


def _after_paths() -> dict[str, Any]:
    """Take-backs, and what a match leaves: its record and its review."""
    return {
        "/api/tables/{table}/takeback": {"post": {
            "operationId": "takeBack",
            "summary": "undo the seat's last move and the bots' moves after it",
            "security": BEARER,
            "parameters": [TABLE_ID],
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/Takeback"}}}},
            "responses": _responses(
                {"200": _json({"$ref": "#/components/schemas/State"},
                              "the seat's state after the take-back (rewound: true)")},
                _400="not JSON, not an object, a field of the wrong type",
                _403="no seat token, or a bad one", _404="no such table",
                _409="no take-backs at this table; over; nothing to take back; stale "
                     "after",
                _413="the body is too large", _415="not sent as application/json",
                _503="storage failed")}},
        "/api/tables/{table}/record": {"get": {
            "operationId": "record", "summary": "the match record, once the match ended",
            "security": BEARER,
            "parameters": [TABLE_ID],
            "responses": _responses(
                {"200": _json({"$ref": "#/components/schemas/Record"},
                              "the record: `cardcore schema GAME record`")},
                _403="a bad token; no token at a table without spectators",
                _404="no such table",
                _409="the match has not ended (or was abandoned)",
                _503="storage failed")}},
        "/api/tables/{table}/review": {"get": {
            "operationId": "review",
            "summary": "a seat's decisions against the best moves, once the match ended",
            "security": BEARER,
            "parameters": [TABLE_ID,
                           {"name": "seat", "in": "query", "required": True,
                            "schema": {"type": "integer", "minimum": 0, "maximum": 99}}],
            "responses": _responses(
                {"200": _json({"$ref": "#/components/schemas/Review"},
                              "the review (cardcore review --json, with the table)")},
                _400="no seat, or not a seat of the table",
                _403="a bad token; no token at a table without spectators",
                _404="no such table",
                _409="the match has not ended (or was abandoned)",
                _429="too many new reviews at this table (Retry-After)",
                _503="storage failed")}},
    }


def _seat_paths(games: list[str]) -> dict[str, Any]:
    """How to play, seats, and the rematch."""
    return {
        "/howto/{game}": {"get": {
            "operationId": "howto", "summary": "a game's how-to-play page (HTML)",
            "parameters": [
                {"name": "game", "in": "path", "required": True,
                 "schema": {"type": "string", "enum": games}},
                {"name": "lang", "in": "query", "required": False,
                 "schema": {"type": "string", "enum": list(LANGUAGES)},
                 "description": "default: the Accept-Language header's pick"}],
            "responses": _responses(
                {"200": {"description": "the page", "content": {
                    "text/html": {"schema": {"type": "string"}}}}},
                _404="an unknown game", _422="an unknown language")}},
        "/api/tables/{table}/seats": {"post": {
            "operationId": "claimSeat",
            "summary": "claim an open seat with a name (and the invite)",
            "parameters": [TABLE_ID],
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/Claim"}}}},
            "responses": _responses(
                {"201": _json({"$ref": "#/components/schemas/Claimed"},
                              "the seat and its token (for its claimer only)")},
                _400="not JSON, not an object, a field of the wrong type",
                _403="no invite, or not this table's", _404="no such table",
                _409="the seat is not open (taken, a bot), no seat is open, the name is "
                     "taken, the match is over",
                _413="the body is too large", _415="not sent as application/json",
                _422="a bad name or seat (field names it)", _503="storage failed")}},
        "/api/tables/{table}/seats/{seat}": {"delete": {
            "operationId": "leaveSeat", "summary": "leave a seat: it is open again",
            "security": [{"bearer": []}],
            "parameters": [TABLE_ID, {"name": "seat", "in": "path", "required": True,
                                      "schema": {"type": "integer", "minimum": 0}}],
            "responses": _responses({"204": {"description": "left; the token is void"}},
                                    _401="no Authorization header",
                                    _404="no such table",
                                    _409="the seats changed meanwhile",
                                    _503="storage failed")}},
        "/api/tables/{table}/rematch": {"post": {
            "operationId": "rematch",
            "summary": "the rematch of a finished match (made once, the same for all)",
            "security": [{"bearer": []}],
            "parameters": [TABLE_ID],
            "responses": _responses(
                {"200": _json({"$ref": "#/components/schemas/Rematch"},
                              "the rematch table: the seats keep their tokens")},
                _401="no Authorization header",
                _404="no such table", _409="the match has not ended (or was abandoned)",
                _422="the table could not be made again",
                _429="the creator address has too many open tables",
                _503="the open-table limit; storage failed")}},
    }


def _ops_paths() -> dict[str, Any]:
    """What operators and programs ask: health, metrics and this document."""
    return {
        "/healthz": {"get": {
            "operationId": "health", "summary": "the server and its store",
            "responses": _responses({
                "200": _json({"$ref": "#/components/schemas/Health"}, "healthy"),
                "503": _json({"$ref": "#/components/schemas/Health"}, "failing")})}},
        "/livez": {"get": {
            "operationId": "liveness", "summary": "the process answers (restart it when not)",
            "responses": _responses({"200": _json(answer(Alive), "alive")})}},
        "/readyz": {"get": {
            "operationId": "readiness",
            "summary": "the process takes new requests: its store answers and it is not "
                       "draining after SIGTERM",
            "responses": _responses({
                "200": _json({"$ref": "#/components/schemas/Health"}, "ready"),
                "503": _json({"oneOf": [{"$ref": "#/components/schemas/Health"},
                                        answer(Draining)]}, "failing, or draining")})}},
        "/metrics": {"get": {
            "operationId": "metrics", "summary": "Prometheus text format",
            "responses": _responses({"200": {"description": "the metrics", "content": {
                "text/plain": {"schema": {"type": "string"}}}}})}},
        "/openapi.json": {"get": {
            "operationId": "openapi", "summary": "this document",
            "responses": _responses({"200": _json({"type": "object"}, "OpenAPI 3.1")})}},
    }


# The WebSocket protocol (docs/server.md, "WebSocket"): how to open one, what a client
# sends and what it is sent (their schemas are components).
WEBSOCKET: dict[str, Any] = {
        "path": "/ws/tables/{table}",
        "query": {"since": "events already seen (int >= 0)",
                  "rewinds": "the take-backs the client has seen (int >= 0; default: "
                             "the table's): another number sends the whole stream again",
                  "presence": "1: send presence messages (0, the default: not)",
                  "patches": "1: after the first whole state, send patch messages "
                             "(WsPatch; 0, the default: whole states)",
                  "token": "the seat token (deprecated: use the subprotocol)"},
        "subprotocols": ["cardcore", "cardcore.token.{SEAT_TOKEN}"],
        "client": [{"$ref": "#/components/schemas/WsAction"},
                   {"$ref": "#/components/schemas/WsTakeback"},
                   {"$ref": "#/components/schemas/WsPing"},
                   {"$ref": "#/components/schemas/WsAuth"}],
        "server": [{"$ref": "#/components/schemas/WsState"},
                   {"$ref": "#/components/schemas/WsPatch"},
                   {"$ref": "#/components/schemas/WsError"},
                   {"$ref": "#/components/schemas/WsPong"},
                   {"$ref": "#/components/schemas/WsClock"},
                   {"$ref": "#/components/schemas/WsRecord"},
                   {"$ref": "#/components/schemas/WsPresence"},
                   {"$ref": "#/components/schemas/WsRematch"},
                   {"$ref": "#/components/schemas/WsBotFallback"}],
        "close_codes": {"1008": "refused (after an error), or a socket that did not read",
                        "1009": "a message over the limit (after the error 413 where the "
                                "server read it; the close reason says the limit)",
                        "1011": "storage failed or unavailable: reconnect",
                        "1012": "reconnect: the table moved to another server "
                                "process (after the error 503), or a restart",
                        "1013": "too many connections of that kind (after the error 503)",
                        "4000": "the table was deleted (410) or abandoned (409)",
                        "4010": "the socket's seat was left: its token is void (403)"},
}


def _components(games: list[str], bots: list[str], clock_option: dict[str, Any]
                ) -> dict[str, Any]:
    """The security scheme and every schema the paths and the socket name."""
    return {
        "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer",
                                       "description": "a seat token (or, for DELETE, "
                                                      "the creator token)"}},
        "schemas": {
            # The answers: from the types the handlers build (responses.py).
            **_answers(games, clock_option),
            "NewTable": _new_table(games, bots, clock_option),
            # The request bodies: from the types the handlers read (requests.py).
            "Claim": json_schema(ClaimRequest),
            "WsBotFallback": {"allOf": [
                {"$ref": "#/components/schemas/BotFallback"},
                {"type": "object", "required": ["type", "event", "seat", "plugin", "text"],
                 "properties": {"type": {"const": "bot"}, "event": {"const": "fallback"},
                                "seat": {"type": "integer", "minimum": 0},
                                "plugin": {"type": "string",
                                           "description": "the plug-in that failed"},
                                "text": {"type": "string",
                                         "description": "the notice in the socket's "
                                                        "language"}}}]},
            "Action": json_schema(ActionRequest),
            "Takeback": json_schema(TakebackRequest),
            # The WebSocket protocol (docs/server.md, "WebSocket"): what a client sends
            # and what it is sent, described in x-websocket below.
            # A socket's messages are read by their handlers (routes/socket.py), not
            # closed: a field a handler does not read is ignored.
            **{name: json_schema(message, closed=False)
               for name, message in WS_CLIENT_MESSAGES.items()},
            "WsState": {"allOf": [{"$ref": "#/components/schemas/State"},
                                  {"type": "object", "required": ["type"],
                                   "properties": {"type": {"const": "state"},
                                                  "id": REQUEST_ID}}]},
            # On a socket opened with ?patches=1, every push after its first state.
            "WsPatch": {"type": "object", "required": ["type", "events", "patch"],
                        "properties": {
                            "type": {"const": "patch"},
                            "events": {"type": "array", "items": {"type": "object"},
                                       "description": "the events this socket has not "
                                                      "been sent yet, as in a state"},
                            "patch": {"type": "object",
                                      "description": "an RFC 7396 JSON merge patch from "
                                                     "the last state sent (without its "
                                                     "events) to the new one"},
                            "id": REQUEST_ID}},
        },
    }


def _spec(extra_bots: Mapping[str, Sequence[str]] | None) -> dict[str, Any]:
    games = list(available_games())
    bots = sorted({bot for game in games
                   for bot in table_bots(game, (extra_bots or {}).get(game, ()))})
    clock_option = _clock_option()
    return {
        "openapi": "3.1.0",
        "info": {"title": "cardcore table server", "version": __version__,
                 "description": "The HTTP part of docs/server.md; the WebSocket protocol is "
                                "described there."},
        "paths": {**_lobby_paths(games), **_table_paths(), **_after_paths(),
                  **_seat_paths(games), **_ops_paths()},
        "x-websocket": copy.deepcopy(WEBSOCKET),       # a caller may change its document
        "components": _components(games, bots, clock_option),
    }
