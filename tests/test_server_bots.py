"""Bots off the event loop (docs/server.md, "Bots"): a search bot thinks in a worker thread
within its budget, so a slow bot on one table does not raise another table's latency."""
from __future__ import annotations

import asyncio
import json
import statistics
import time
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect

from server_helpers import ServerProcess

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

THINK_MS = 300
PAIRS = 16                   # quiet and thinking slices, alternated


class Seat:
    """A person's seat at a new two-player Kings' Stakes table against ``bot``, over a
    WebSocket; a new table is opened when the match ends."""

    def __init__(self, server: ServerProcess, bot: str) -> None:
        self.server, self.bot = server, bot
        self.ws: ClientConnection | None = None
        self.state: dict[str, Any] = {}

    async def sit(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        _, made = await asyncio.to_thread(self.server.request, "POST", "/api/tables", {
            "game": "kings_stakes", "players": 2, "bots": {"1": self.bot}})
        url = self.server.base.replace("http", "ws") + f"/ws/tables/{made['table']}"
        self.ws = await connect(url, subprotocols=["cardcore",
                                                   f"cardcore.token.{made['seats']['0']}"])
        self.state = json.loads(await self.ws.recv())

    async def send_move(self) -> None:
        """Sends the first legal move (after opening a new table when the match is over)."""
        while self.ws is None or self.state["over"] or not self.state["legal"]:
            await self.sit()
        assert self.ws is not None
        await self.ws.send(json.dumps({"type": "action", "action": self.state["legal"][0]["id"],
                                       "after": self.state["event_count"]}))

    async def answer(self) -> None:
        """The state pushed after the move (the server answers once the bot has replied)."""
        assert self.ws is not None
        self.state = json.loads(await self.ws.recv())
        assert self.state["type"] == "state", self.state

    async def round_trip(self) -> float:
        await self.send_move()
        start = time.perf_counter()
        await self.answer()
        return time.perf_counter() - start


async def alternate(server: ServerProcess) -> tuple[list[float], list[float], list[int]]:
    """Round trips at a table with a random bot, in slices alternated with and without a
    search bot thinking at another table (the slow table's move is sent at a thinking
    slice's start; the slice ends when its bot has replied). Alternating puts the machine's
    load on both sides alike. Also returns each thinking slice's count of round trips."""
    fast, slow = Seat(server, "random"), Seat(server, "ismcts")
    for _ in range(20):                                          # warm up
        await fast.round_trip()
    quiet: list[float] = []
    busy: list[float] = []
    per_think: list[int] = []
    for _ in range(PAIRS):
        started = time.perf_counter()
        while time.perf_counter() - started < THINK_MS / 1000:
            quiet.append(await fast.round_trip())
        await slow.send_move()
        replied = asyncio.ensure_future(slow.answer())
        thought = time.perf_counter()
        count = 0
        while not replied.done():
            busy.append(await fast.round_trip())
            count += 1
        await replied
        if time.perf_counter() - thought >= THINK_MS / 1000 * 0.8:   # a whole think
            per_think.append(count)
    for seat in (fast, slow):
        if seat.ws is not None:
            await seat.ws.close()
    return quiet, busy, per_think


def test_a_slow_search_bot_does_not_delay_another_table(tmp_path):
    s = ServerProcess(tmp_path / "t.sqlite3", extra=("--bot-think-ms", str(THINK_MS),
                                                      "--create-burst", "1000",
                                                      "--max-tables-per-client", "100000",
                                                      "--max-sockets-per-address", "1000",
                                                      "--max-connections-per-address", "1000",
                                                      "--message-rate", "10000"))
    try:
        quiet, busy, per_think = asyncio.run(alternate(s))
        status, _ = s.request("GET", "/healthz")
        assert status == 200
    finally:
        s.stop()
    alone, beside = statistics.median(quiet), statistics.median(busy)
    print(f"median {alone * 1000:.1f} ms alone, {beside * 1000:.1f} ms while a search bot "
          f"thinks {THINK_MS} ms at another table; {statistics.median(per_think)} round trips "
          f"per think (median of {len(per_think)})")
    assert len(per_think) >= PAIRS // 2, per_think
    # Inline, a think would hold the loop: the one round trip sent during it would wait for
    # the whole think (about 300 ms), and one or two would fit in each think.
    assert statistics.median(per_think) >= 5, per_think
    assert beside < 3 * alone + 0.02
