"""Turn clocks of a table held by two `cardcore serve` processes on one PostgreSQL
(docs/server.md, "Clocks"): both time the turn to the stored deadline, both expire it, and
the store's compare-and-set on the action count applies each expiry exactly once; every
socket, on either process, is told of each timeout once."""
from __future__ import annotations

import asyncio
import json
import time

import pytest
import websockets

from server_helpers import ServerProcess
from test_server_pg import stored_game

pytestmark = pytest.mark.slow       # server processes and a PostgreSQL cluster

PER_MOVE = 0.4


@pytest.fixture
def pair(pg_url, tmp_path):
    servers = [ServerProcess(pg_url, bot_delay=0, log=tmp_path / f"server{k}.log")
               for k in range(2)]
    yield pg_url, servers
    for server in servers:
        server.stop()
    for server in servers:
        text = server.log_path.read_text()
        assert "Traceback" not in text and "ERROR" not in text, text[-3000:]


async def watch(server: ServerProcess, table: str, seconds: float) -> list[dict]:
    """Everything a spectator socket on ``server`` is sent for ``seconds``."""
    messages: list[dict] = []
    uri = f"ws://127.0.0.1:{server.port}/ws/tables/{table}"
    async with websockets.connect(uri, subprotocols=["cardcore"]) as ws:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                raw = await asyncio.wait_for(ws.recv(), max(0.01, end - time.monotonic()))
            except asyncio.TimeoutError:
                break
            messages.append(json.loads(raw))
            if messages[-1].get("over"):
                break
    return messages


def clocked_table(creator: ServerProcess, servers: list[ServerProcess], on_timeout: str,
                  seconds: float) -> tuple[str, list[list[dict]]]:
    """A 2-person table with a clock, created through ``creator``, and what a spectator on
    each process is sent for ``seconds`` while nobody moves."""
    status, made = creator.request("POST", "/api/tables", {
        "game": "crazy_eights", "players": 2,
        "clock": {"per_move": PER_MOVE, "on_timeout": on_timeout}})
    assert status == 201
    table = made["table"]

    async def both() -> list[list[dict]]:
        return list(await asyncio.gather(*(watch(s, table, seconds) for s in servers)))
    return table, asyncio.run(both())


def test_two_processes_expire_each_turn_once(pair):
    """Nobody moves at a table of two people whose clock plays for them: both processes
    hold it (a socket on each), each timeout is stored once, one move per timeout."""
    url, servers = pair
    table, seen = clocked_table(servers[0], servers, "level:1", 12 * PER_MOVE)
    game = stored_game(url, table)
    _, state = servers[0].request("GET", f"/api/tables/{table}")
    timeouts = state["clock"]["timeouts"]
    assert timeouts >= 4                              # several turns ran out meanwhile
    # One move per timeout, none twice: the stored log is the timeouts' moves.
    log = game.action_log()
    assert len(log) in (timeouts, timeouts + 1)   # (+1: one expiring as the state was read)
    for server in servers:
        _, other = server.request("GET", f"/api/tables/{table}")
        assert abs(other["event_count"] - state["event_count"]) <= 2 * len(log)
    for messages in seen:
        clock = [(m["seat"], m["move"]) for m in messages if m["type"] == "clock"]
        assert len(clock) == len(set(clock))          # each timeout told once ...
        assert len(clock) >= timeouts - 1             # ... to the sockets of both processes
        moves = [m for _, m in clock]
        assert moves == sorted(moves) and len(set(moves)) == len(moves)
        assert not [m for m in messages if m["type"] == "error"]


def test_two_processes_forfeit_a_seat_once(pair):
    url, servers = pair
    table, seen = clocked_table(servers[1], servers, "forfeit", 10 * PER_MOVE)
    for messages in seen:
        assert len([m for m in messages if m["type"] == "clock"]) == 1
        assert messages[-1]["type"] in ("state", "record")
    records = []
    for server in servers:
        _, state = server.request("GET", f"/api/tables/{table}")
        assert state["ended"] == "forfeit" and state["over"]
        assert state["clock"]["timeouts"] == 1
        status, record = server.request("GET", f"/api/tables/{table}/record")
        assert status == 200 and record["ended"] == "forfeit"
        records.append(record)
    assert records[0]["timeouts"] == records[1]["timeouts"] and len(records[0]["timeouts"]) == 1
    assert stored_game(url, table).action_log() == []
