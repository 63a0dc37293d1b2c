"""Turn clocks with two `cardcore serve` processes on one PostgreSQL behind the documented
proxy (docs/server.md, "Clocks"; docs/operations.md, "One process per table"): the process
holding the table times its turns and expires each once; every socket is told of each
timeout once; reads through either process agree; when the holder is killed, the other
takes the table over and its clock runs on."""
from __future__ import annotations

import asyncio
import json
import time

import pytest
import websockets

from server_helpers import Proxy, ServerProcess
from test_server_pg import stored_game

pytestmark = pytest.mark.slow       # server processes and a PostgreSQL cluster

PER_MOVE = 0.4


@pytest.fixture
def pair(pg_url, tmp_path):
    # --stall-after 1: the sweep, which takes up a killed process's tables, runs every 0.25 s.
    servers = [ServerProcess(pg_url, bot_delay=0, log=tmp_path / f"server{k}.log",
                             extra=("--stall-after", "1"))
               for k in range(2)]
    proxy = Proxy(servers, tmp_path)
    yield pg_url, servers, proxy
    proxy.stop()
    for server in servers:
        server.stop()
    for server in servers:
        text = server.log_path.read_text()
        assert "Traceback" not in text and "ERROR" not in text, text[-3000:]


async def watch(server: ServerProcess | Proxy, table: str, seconds: float) -> list[dict]:
    """Everything a spectator socket through ``server`` is sent for ``seconds``."""
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


def clocked_table(creator: ServerProcess, servers: list[ServerProcess | Proxy],
                  on_timeout: str, seconds: float) -> tuple[str, list[list[dict]]]:
    """A 2-person table with a clock, created through ``creator``, and what a spectator
    through each of ``servers`` is sent for ``seconds`` while nobody moves."""
    status, made = creator.request("POST", "/api/tables", {
        "game": "crazy_eights", "players": 2,
        "clock": {"per_move": PER_MOVE, "on_timeout": on_timeout}})
    assert status == 201
    table = made["table"]

    async def both() -> list[list[dict]]:
        return list(await asyncio.gather(*(watch(s, table, seconds) for s in servers)))
    return table, asyncio.run(both())


def test_the_process_holding_a_clocked_table_expires_each_turn_once(pair):
    """Nobody moves at a table of two people whose clock plays for them: created through
    one process, watched through the proxy (two sockets), each timeout is stored once, one
    move per timeout, and reads through either process agree."""
    url, servers, proxy = pair
    table, seen = clocked_table(servers[0], [proxy, proxy], "level:1", 12 * PER_MOVE)
    _, state = servers[0].request("GET", f"/api/tables/{table}")
    game = stored_game(url, table)                  # (the clock runs on: read after)
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
        assert len(clock) >= timeouts - 1             # ... to each socket
        moves = [m for _, m in clock]
        assert moves == sorted(moves) and len(set(moves)) == len(moves)
        assert not [m for m in messages if m["type"] == "error"]


def test_two_processes_forfeit_a_seat_once(pair):
    url, servers, proxy = pair
    table, seen = clocked_table(servers[1], [proxy, proxy], "forfeit", 10 * PER_MOVE)
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


def test_a_clocked_table_of_a_killed_process_is_taken_over_and_its_clock_runs_on(pair):
    """Nobody is connected: the process holding the table times it; after its kill -9 the
    other takes the table up (its sweep finds it held by nobody once the lease expires) and
    the turns go on expiring, each once."""
    url, servers, _ = pair
    status, made = servers[0].request("POST", "/api/tables", {
        "game": "crazy_eights", "players": 2,
        "clock": {"per_move": PER_MOVE, "on_timeout": "level:1"}})
    assert status == 201
    table = made["table"]
    time.sleep(3 * PER_MOVE)
    servers[0].kill()
    killed_at = time.monotonic()
    _, before = servers[1].request("GET", f"/api/tables/{table}")
    deadline = killed_at + 30
    while True:
        _, state = servers[1].request("GET", f"/api/tables/{table}")
        if state["clock"]["timeouts"] >= before["clock"]["timeouts"] + 3 or state["over"]:
            break
        assert time.monotonic() < deadline, "the clock did not run on after the kill"
        time.sleep(0.1)
    print(f"3 more timeouts {time.monotonic() - killed_at:.1f} s after kill -9")
    log = stored_game(url, table).action_log()
    assert len(log) in (state["clock"]["timeouts"], state["clock"]["timeouts"] + 1)
