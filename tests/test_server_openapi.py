"""/openapi.json (OpenAPI 3.1): it lists exactly the app's API routes, and schemathesis,
run over every operation against a live `cardcore serve`, finds no server error, no answer
outside its schema and no undocumented status."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from starlette.routing import Route

import cardcore

from cardcore.server import create_app
from cardcore.server.openapi import OPERATIONS

from server_helpers import ServerProcess, TestClient

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

PAGES = {"/", "/tables/{table}", "/cards/{card}.svg", "/games/{game}/{file}"}


def test_the_document_lists_every_api_route(tmp_path):
    app = create_app(tmp_path / "t.sqlite3")
    routes = {(r.path, m.lower()) for r in app.routes if isinstance(r, Route)
              and r.path not in PAGES for m in r.methods if m != "HEAD"}
    assert routes == set(OPERATIONS)
    with TestClient(app) as c:
        spec = c.get("/openapi.json").json()
    assert spec["openapi"] == "3.1.0"
    assert {(p, m) for p, ops in spec["paths"].items() for m in ops} == set(OPERATIONS)
    from jsonschema import Draft202012Validator
    for schema in spec["components"]["schemas"].values():
        Draft202012Validator.check_schema(schema)


def test_schemathesis_finds_nothing(tmp_path):
    s = ServerProcess(tmp_path / "t.sqlite3", extra=(
        "--create-rate", "100000", "--create-burst", "100000",
        "--max-tables-per-client", "100000", "--max-tables", "100000",
        "--message-rate", "100000", "--guess-rate", "100000", "--guess-burst", "100000",
        "--log-level", "warning"))
    try:
        cli = Path(sys.executable).with_name("schemathesis")
        result = subprocess.run(
            [str(cli), "run", s.base + "/openapi.json", "--checks", "all",
             "--exclude-checks", "positive_data_acceptance,ignored_auth,"
                                 "use_after_free,ensure_resource_availability",
             "--max-examples", "40", "--workers", "1", "--seed", "1",
             "--phases", "examples,coverage,fuzzing,stateful", "--no-color",
             # what the server answers, not how fast: a finished match's review takes
             # seconds of a bot-pool thread, more on a loaded machine than the default 10 s
             "--request-timeout", "60"],
            capture_output=True, text=True, timeout=600, cwd=tmp_path,
            env={**os.environ, "SCHEMATHESIS_HOOKS": ""})
        assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
        assert "Traceback" not in s.log_text()
    finally:
        s.stop()


def test_websocket_messages_match_the_documents_schemas(tmp_path):
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    with TestClient(create_app(tmp_path / "t.sqlite3")) as c:
        spec = c.get("/openapi.json").json()
        registry = Registry().with_resource("urn:openapi", Resource.from_contents(
            spec, default_specification=DRAFT202012))

        def check(name, message):
            Draft202012Validator({"$ref": f"urn:openapi#/components/schemas/{name}"},
                                 registry=registry).validate(message)
        made = c.post("/api/tables", json={"game": "kings_stakes", "players": 2,
                                           "bots": {"1": "random"}}).json()
        with c.websocket_connect(f"/ws/tables/{made['table']}",
                                 subprotocols=["cardcore",
                                               f"cardcore.token.{made['seats']['0']}"]) as ws:
            first = ws.receive_json()
            check("WsState", first)
            from jsonschema import ValidationError
            with pytest.raises(ValidationError):              # the schemas do check
                check("WsState", {**first, "over": "no"})
            ping = {"type": "ping"}
            check("WsPing", ping)
            ws.send_json(ping)
            check("WsPong", ws.receive_json())
            bad = {"type": "action", "action": 10 ** 6}
            check("WsAction", bad)
            ws.send_json(bad)
            check("WsError", ws.receive_json())
        from cardcore.server.limits import WS_CLOSE
        assert set(spec["x-websocket"]["close_codes"]) == {str(c) for c in WS_CLOSE.values()}


def test_the_request_bodies_are_the_handlers_own_types(tmp_path):
    """issue 46, item 5: the document's request bodies are generated from the TypedDicts the
    handlers read their fields from (requests.py), so a field the document lists is one the
    handler accepts, and a field it does not list is refused."""
    from cardcore.server.openapi import openapi_spec
    from cardcore.server.requests import (NEW_TABLE_FROM_SERVER, WS_CLIENT_MESSAGES,
                                          ActionRequest, ClaimRequest, NewTableRequest,
                                          TakebackRequest, fields_of, json_schema)
    schemas = openapi_spec()["components"]["schemas"]
    for name, request in (("Action", ActionRequest), ("Takeback", TakebackRequest),
                          ("Claim", ClaimRequest)):
        assert schemas[name] == json_schema(request), name
        assert set(schemas[name]["properties"]) == fields_of(request)
        assert schemas[name]["additionalProperties"] is False
    for name, message in WS_CLIENT_MESSAGES.items():
        assert schemas[name] == json_schema(message, closed=False), name
    assert schemas["Action"]["required"] == ["action"]
    assert schemas["Action"]["properties"]["after"] == {"type": ["integer", "null"],
                                                        "minimum": 0}
    assert schemas["Claim"]["required"] == ["name"]
    new_table, typed = schemas["NewTable"], json_schema(NewTableRequest)
    assert set(new_table["properties"]) == fields_of(NewTableRequest)
    assert {k: v for k, v in new_table["properties"].items()
            if k not in NEW_TABLE_FROM_SERVER} == \
        {k: v for k, v in typed["properties"].items() if k not in NEW_TABLE_FROM_SERVER}
    assert new_table["properties"]["game"]["enum"] == list(cardcore.available_games())
    with TestClient(create_app(tmp_path / "t.sqlite3")) as client:
        made = client.post("/api/tables", json={"game": "crazy_eights", "players": 2}).json()
        token = made["seats"]["0"]
        r = client.post("/api/tables", json={"game": "crazy_eights", "extra": 1})
        assert r.status_code == 400 and r.json()["error"] == "unknown field 'extra'"
        for path, body in (("actions", {"action": 0, "token": token, "extra": 1}),
                           ("takeback", {"token": token, "action": 0})):
            r = client.post(f"/api/tables/{made['table']}/{path}", json=body)
            assert r.status_code == 400 and r.json()["error"].startswith("unknown field"), r.text


def test_the_answers_are_the_handlers_own_types(tmp_path):
    """issue 46, item 5: the document's answers are generated from the TypedDicts the
    handlers build (responses.py), and what a live server sends has exactly those fields: none
    undocumented, every required one."""
    from typing import get_type_hints

    from cardcore.server.json_types import json_schema
    from cardcore.server.openapi import REFS, openapi_spec
    from cardcore.server.responses import (COMPONENTS, FROM_SERVER, Claimed, Created, Health,
                                           RematchMade, TableState)
    schemas = openapi_spec()["components"]["schemas"]
    for name, typed in COMPONENTS.items():
        made = json_schema(typed, closed=typed is Claimed, refs=REFS)
        served = {k: v for k, v in schemas[name]["properties"].items()
                  if k not in FROM_SERVER.get(name, ())}
        assert served == {k: v for k, v in made["properties"].items()
                          if k not in FROM_SERVER.get(name, ())}, name
        assert schemas[name].get("required") == made.get("required"), name
    assert schemas["State"]["properties"]["seats"] == {
        "type": "array", "items": {"$ref": "#/components/schemas/Seat"}}

    def fields(typed):
        return set(get_type_hints(typed)), set(typed.__required_keys__)

    def check(answer, typed):
        every, required = fields(typed)
        assert set(answer) <= every, set(answer) - every
        assert required <= set(answer), required - set(answer)

    with TestClient(create_app(tmp_path / "t.sqlite3")) as client:
        made = client.post("/api/tables", json={"game": "kings_stakes", "players": 2,
                                                "open_seats": [1]}).json()
        check(made, Created)
        check(client.get("/healthz").json(), Health)
        check(client.get("/readyz").json(), Health)
        token, table = made["seats"]["0"], made["table"]
        state = client.get(f"/api/tables/{table}", params={"token": token}).json()
        check(state, TableState)
        claimed = client.post(f"/api/tables/{table}/seats",
                              json={"name": "Ann", "invite": made["invite"]}).json()
        check(claimed, Claimed)
        done = client.post("/api/tables", json={"game": "kings_stakes", "players": 2,
                                                "bots": {"1": "random"}}).json()
        tok = done["seats"]["0"]
        while not (s := client.get(f"/api/tables/{done['table']}",
                                   params={"token": tok}).json())["over"]:
            if s["legal"]:
                client.post(f"/api/tables/{done['table']}/actions",
                            json={"action": s["legal"][0]["id"], "token": tok})
        check(client.post(f"/api/tables/{done['table']}/rematch",
                          headers={"Authorization": f"Bearer {tok}"}).json(), RematchMade)
