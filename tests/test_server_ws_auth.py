"""A WebSocket's seat token as its first message, {"type": "auth", "token": T}
(docs/server.md, "WebSocket"): the socket becomes the seat's; a bad token, a late auth, a full
seat; ``?token=`` still works."""
from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator
from starlette.websockets import WebSocketDisconnect

from cardcore.server import Limits, create_app
from server_helpers import TestClient

pytestmark = pytest.mark.slow       # the server's front end (conftest.py's rule)


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(tmp_path / "t.sqlite3",
                               limits=Limits(max_seat_connections=1))) as c:
        yield c


def new_table(client):
    r = client.post("/api/tables", json={"game": "kings_stakes", "seed": 4})
    assert r.status_code == 201
    return r.json()


def closed_with(ws) -> int:
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    return closed.value.code


def test_a_socket_becomes_the_seats_by_its_first_message(client):
    made = new_table(client)
    table = made["table"]
    mover = client.get(f"/api/tables/{table}").json()["current_player"]
    token = made["seats"][str(mover)]
    spec = client.get("/openapi.json").json()
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        first = ws.receive_json()
        assert first["seat"] is None and first["legal"] == []      # a spectator until then
        auth = {"type": "auth", "token": token}
        Draft202012Validator(spec["components"]["schemas"]["WsAuth"]).validate(auth)
        assert {"$ref": "#/components/schemas/WsAuth"} in spec["x-websocket"]["client"]
        ws.send_json(auth)
        mine = ws.receive_json()
        assert mine["type"] == "state" and mine["seat"] == mover and mine["legal"]
        assert mine["view"]["hand"] and len(mine["events"]) == mine["event_count"]
        ws.send_json({"type": "action", "action": mine["legal"][0]["id"],
                      "after": mine["event_count"]})
        after = ws.receive_json()
        assert after["type"] == "state" and after["event_count"] > mine["event_count"]
        ws.send_json({"type": "auth", "token": token})                 # only first
        late = ws.receive_json()
        assert late["type"] == "error" and late["status"] == 400 and "first" in late["error"]
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}                   # still open


def test_a_bad_token_in_auth_is_refused_and_closed(client):
    made = new_table(client)
    with client.websocket_connect(f"/ws/tables/{made['table']}") as ws:
        ws.receive_json()
        ws.send_json({"type": "auth", "token": "forged"})
        error = ws.receive_json()
        assert error["type"] == "error" and error["status"] == 403
        assert closed_with(ws) == 1008


def test_auth_after_a_token_in_the_url_is_refused_and_the_url_token_still_works(client):
    made = new_table(client)
    token = made["seats"]["0"]
    with client.websocket_connect(f"/ws/tables/{made['table']}?token={token}") as ws:
        assert ws.receive_json()["seat"] == 0
        ws.send_json({"type": "auth", "token": token})
        assert ws.receive_json()["status"] == 400


def test_auth_for_a_full_seat_is_refused_with_1013(client):
    made = new_table(client)
    token = made["seats"]["0"]
    with client.websocket_connect(f"/ws/tables/{made['table']}",
                                  subprotocols=["cardcore", f"cardcore.token.{token}"]) as ws:
        assert ws.receive_json()["seat"] == 0
        with client.websocket_connect(f"/ws/tables/{made['table']}") as second:
            second.receive_json()
            second.send_json({"type": "auth", "token": token})
            assert second.receive_json()["status"] == 503
            assert closed_with(second) == 1013
