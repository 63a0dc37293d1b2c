"""Seats and presence with two `cardcore serve` processes on one PostgreSQL database behind
the documented proxy (docs/server.md, "Presence" and "Rematch"; docs/operations.md): presence
is the table's, not the process's (a socket through the proxy reads as connected through
either process, and a killed process's sockets expire); one seat claimed through both
processes at once goes to one claimer; a leave closes the seat's socket; a rematch asked
through both at once is one table."""
from __future__ import annotations

import asyncio
import json
import threading
import time
import urllib.request

import pytest
import websockets

from server_helpers import Proxy, ServerProcess

pytestmark = pytest.mark.slow       # server processes and a PostgreSQL cluster

# --stall-after 1: the sweep (and so the presence heartbeat) runs every 0.25 s, rows of a
# killed process expire after 0.75 s.
EXTRA = ("--create-burst", "100", "--create-rate", "50", "--message-rate", "1000",
         "--stall-after", "1")


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def at_once(calls):
    """Run the calls in threads released together; their answers in order."""
    barrier = threading.Barrier(len(calls))
    answers = [None] * len(calls)

    def run(k, call):
        barrier.wait()
        answers[k] = call()
    threads = [threading.Thread(target=run, args=(k, c)) for k, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return answers


def presences(server, table, token):
    _, state = server.request("GET", f"/api/tables/{table}", headers=bearer(token))
    return [s["presence"] for s in state["seats"]]


async def soon(read, want, timeout=10.0):
    """``read()`` once it equals ``want`` (polled without blocking the test's sockets), or
    its last value after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while (got := read()) != want and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    return got


def wait_for(check, timeout=20.0):
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_presence_claims_leaves_and_rematch_across_processes(pg_cluster, tmp_path):
    url = pg_cluster.new_database()
    a, b = [ServerProcess(url, bot_delay=0, log=tmp_path / f"server{k}.log", extra=EXTRA)
            for k in range(2)]
    proxy = Proxy([a, b], tmp_path)
    try:
        status, made = a.request("POST", "/api/tables", {
            "game": "crazy_eights", "players": 2, "open_seats": [0, 1]})
        assert status == 201 and made["seats"] == {}
        table, invite = made["table"], made["invite"]
        answers = at_once([lambda s=s, n=n: s.request("POST", f"/api/tables/{table}/seats",
                                                      {"invite": invite, "name": n, "seat": 0})
                           for s, n in ((a, "Ann"), (b, "Bob"))])
        assert sorted(code for code, _ in answers) == [201, 409]
        winner = next(body for code, body in answers if code == 201)
        status, other = b.request("POST", f"/api/tables/{table}/seats",
                                  {"invite": invite, "name": "Cy"})
        assert status == 201 and other["seat"] == 1
        tokens = {0: winner["token"], 1: other["token"]}
        # Claimed through B, its token works through A at once (A re-reads the seats).
        status, state = a.request("GET", f"/api/tables/{table}", headers=bearer(tokens[1]))
        assert status == 200 and state["seat"] == 1
        assert [s["name"] for s in state["seats"]] == [winner["name"], "Cy"]

        async def sockets() -> None:
            watcher = await websockets.connect(
                f"ws://127.0.0.1:{proxy.port}/ws/tables/{table}?presence=1",
                subprotocols=["cardcore"])
            first = json.loads(await watcher.recv())
            assert [s["presence"] for s in first["seats"]] == ["away", "away"]

            async def next_presence():
                while True:
                    message = json.loads(await asyncio.wait_for(watcher.recv(), 10))
                    if message["type"] == "presence":
                        return message
            seat1 = await websockets.connect(
                f"ws://127.0.0.1:{proxy.port}/ws/tables/{table}",
                subprotocols=["cardcore", f"cardcore.token.{tokens[1]}"])
            assert json.loads(await seat1.recv())["seat"] == 1
            assert await next_presence() == {"type": "presence", "seat": 1,
                                             "presence": "connected", "name": "Cy"}
            # Either process: the one not holding the socket reads the others' sockets in the
            # background (deployment.py), so it may answer a moment later on a loaded machine.
            for server in (a, b):
                assert await soon(lambda: presences(server, table, tokens[0]),
                                  ["away", "connected"]) == ["away", "connected"]

            def lobby_row():
                _, listed = a.request("GET", "/api/tables")
                return next(r for r in listed["tables"] if r["table"] == table)["presence"]
            assert await soon(lobby_row, ["away", "connected"]) == ["away", "connected"]  # lobby
            await seat1.close()
            assert (await next_presence())["presence"] == "away"
            # A leave closes seat 0's socket (4010), and reads as open.
            seat0 = await websockets.connect(
                f"ws://127.0.0.1:{proxy.port}/ws/tables/{table}",
                subprotocols=["cardcore", f"cardcore.token.{tokens[0]}"])
            json.loads(await seat0.recv())
            assert (await next_presence())["presence"] == "connected"
            request = urllib.request.Request(f"{proxy.base}/api/tables/{table}/seats/0",
                                             method="DELETE", headers=bearer(tokens[0]))
            with urllib.request.urlopen(request, timeout=30) as response:
                assert response.status == 204
            error = json.loads(await asyncio.wait_for(seat0.recv(), 10))
            assert error["status"] == 403
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(seat0.recv(), 10)
            assert closed.value.rcvd.code == 4010
            message = await next_presence()
            assert (message["seat"], message["presence"]) == (0, "open")
            await watcher.close()
        asyncio.run(sockets())
        status, again = a.request("POST", f"/api/tables/{table}/seats",
                                  {"invite": invite, "name": "Dee"})
        assert status == 201 and again["seat"] == 0
        tokens[0] = again["token"]
        # A rematch asked through both processes at once is one table.
        for _ in range(1000):
            _, state = a.request("GET", f"/api/tables/{table}", headers=bearer(tokens[0]))
            if state["over"]:
                break
            token = tokens[state["current_player"]]
            _, mine = a.request("GET", f"/api/tables/{table}", headers=bearer(token))
            a.request("POST", f"/api/tables/{table}/actions",
                      {"action": mine["legal"][0]["id"]}, headers=bearer(token))
        assert state["over"]
        answers = at_once([lambda s=s, t=t: s.request("POST", f"/api/tables/{table}/rematch",
                                                      headers=bearer(t))
                           for s, t in ((a, tokens[0]), (b, tokens[1]))])
        assert [code for code, _ in answers] == [200, 200]
        assert answers[0][1]["table"] == answers[1][1]["table"]
        new = answers[0][1]["table"]
        for server in (a, b):
            status, fresh = server.request("GET", f"/api/tables/{new}",
                                           headers=bearer(tokens[1]))
            assert status == 200 and fresh["seat"] == 1
        # A killed process's sockets read as away once its rows expire (0.75 s here).
        async def then_kill() -> None:
            seat1 = await websockets.connect(
                f"ws://127.0.0.1:{b.port}/ws/tables/{new}",
                subprotocols=["cardcore", f"cardcore.token.{tokens[1]}"])
            await seat1.recv()
            wait_for(lambda: presences(a, new, tokens[0])[1] == "connected")
            b.kill()
            start = time.monotonic()
            wait_for(lambda: presences(a, new, tokens[0])[1] == "away", timeout=20)
            took = time.monotonic() - start
            print(f"away {took:.2f} s after kill -9")
            assert took < 10           # the rows expire after 0.75 s; a loaded machine's margin
        asyncio.run(then_kill())
    finally:
        proxy.stop()
        for server in (a, b):
            server.stop()
    assert "Traceback" not in a.log_path.read_text()
