"""The protocol corrections of issue 25 against a real `cardcore serve` (uvicorn's own
WebSocket and HTTP layers): one close code for oversize messages, no trailing-slash redirect
carrying a token, a request id answered over a real socket."""
from __future__ import annotations

import asyncio
import http.client
import json

import pytest
import websockets
from websockets.asyncio.client import connect

from server_helpers import ServerProcess

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = ServerProcess(tmp_path_factory.mktemp("serve") / "t.sqlite3")
    yield s
    s.stop()


def new_table(server: ServerProcess) -> dict:
    status, made = server.request("POST", "/api/tables",
                                  {"game": "crazy_eights", "players": 2,
                                   "options": {"dealer": 1}})
    assert status == 201
    return made


def socket_url(server: ServerProcess, made: dict) -> tuple[str, list[str]]:
    return (server.base.replace("http", "ws") + f"/ws/tables/{made['table']}",
            ["cardcore", f"cardcore.token.{made['seats']['0']}"])


def test_every_oversize_message_closes_1009_with_a_reason(server):
    made = new_table(server)
    url, protocols = socket_url(server, made)

    async def run() -> None:
        async with connect(url, subprotocols=protocols, max_size=None) as ws:
            await ws.recv()
            await ws.send("x" * 16385)
            reply = json.loads(await ws.recv())
            assert reply["type"] == "error" and reply["status"] == 413
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd.code == 1009
            assert closed.value.rcvd.reason == "message over 16384 bytes"
        async with connect(url, subprotocols=protocols, max_size=None) as ws:
            await ws.recv()
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await ws.send("x" * (2 * 1024 * 1024))       # past the frame cap
                while True:
                    await ws.recv()
            assert closed.value.rcvd.code == 1009
    asyncio.run(asyncio.wait_for(run(), 60))


def test_a_request_id_is_answered_over_a_real_socket(server):
    made = new_table(server)
    url, protocols = socket_url(server, made)

    async def run() -> None:
        async with connect(url, subprotocols=protocols) as ws:
            first = json.loads(await ws.recv())
            await ws.send(json.dumps({"type": "action", "action": first["legal"][0]["id"],
                                      "after": first["event_count"], "id": "one"}))
            answer = json.loads(await ws.recv())
            assert answer["type"] == "state" and answer["id"] == "one"
            assert answer["event_count"] > first["event_count"]
    asyncio.run(asyncio.wait_for(run(), 60))


def test_a_trailing_slash_is_a_404_without_a_location(server):
    made = new_table(server)
    token = made["seats"]["0"]
    for path in (f"/api/tables/{made['table']}/?token={token}", f"/api/tables/?token={token}"):
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        try:
            conn.request("GET", path)
            r = conn.getresponse()
            body = r.read().decode()
            assert r.status == 404 and r.getheader("Location") is None
            assert token not in body
        finally:
            conn.close()
