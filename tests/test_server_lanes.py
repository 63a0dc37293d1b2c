"""The loop never waits on the store (issue 46, item 2; docs/operations.md, "Health checks"):
a store call runs in its lane's thread, bounded in time (lanes.py), and a call whose caller
gave up before the thread reached it never runs; every store call of the host, the room's
load by ``get``, the reload after a stale commit, the sweep's writes and the seat re-read
after a wrong token, runs off the loop and bounded."""
from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest

from cardcore.server.api_errors import ApiError, BadCredential
from cardcore.server.deployment import SharedStore
from cardcore.server.lanes import Lane
from cardcore.server.store import StoreUnavailable, TableStore
from cardcore.server.tables import NewTable, TableServer


class Silent:
    """A store that does not answer until ``speak`` is set; it records what ran."""

    def __init__(self) -> None:
        self.speak = threading.Event()
        self.ran: list[str] = []

    def ping(self, name: str) -> str:
        self.ran.append(name)
        self.speak.wait(10)
        return name

    def seats(self, table_id: str) -> None:
        self.ping("seats")

    def close(self) -> None:
        pass


def test_a_call_nobody_waits_for_any_more_never_runs_and_the_lane_recovers():
    async def run() -> tuple[list[str], str, float]:
        store = Silent()
        lane = Lane(store, "test", timeout=0.2)            # type: ignore[arg-type]
        started = time.monotonic()
        for name in ("held", "queued", "queued too"):
            with pytest.raises(StoreUnavailable, match="did not answer within 0.2 s"):
                await lane.call(lambda s, n=name: s.ping(n))
        gave_up = time.monotonic() - started
        asking = asyncio.ensure_future(lane.call(lambda s: s.ping("cancelled")))
        await asyncio.sleep(0.05)
        asking.cancel()                                 # its request went away
        with pytest.raises(asyncio.CancelledError):
            await asking
        store.speak.set()                               # the store answers again
        answer = await lane.call(lambda s: s.ping("after"))
        lane.close()
        return store.ran, answer, gave_up

    ran, answer, gave_up = asyncio.run(run())
    assert gave_up < 2.0                                # three calls, 0.2 s each
    assert ran == ["held", "after"] and answer == "after"


def loop_loads(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Each ``TableStore.load`` from now on: True if it ran in the event loop's thread."""
    seen: list[bool] = []
    load = TableStore.load
    main = threading.main_thread()

    def spy(self: TableStore, table_id: str) -> Any:
        seen.append(threading.current_thread() is main)
        return load(self, table_id)
    monkeypatch.setattr(TableStore, "load", spy)
    return seen


def first_legal(room: Any) -> int:
    return int(room.game.legal_action_ids()[0])


def test_get_loads_a_room_not_in_memory_off_the_loop(tmp_path, monkeypatch):
    async def run() -> tuple[bool, int, int]:
        server = TableServer(str(tmp_path / "t.sqlite3"))
        try:
            room, _ = await server.create(NewTable("crazy_eights", 2, seed=5))
            await server.act(room, room.game.current_player, first_legal(room), None)
            del server.tables[room.id]                  # as after the idle sweep
            seen.clear()
            again = await server.get(room.id)
            return again is not room, again.actions, room.actions
        finally:
            await server.close()

    seen = loop_loads(monkeypatch)
    reloaded, actions, before = asyncio.run(run())
    assert reloaded and actions == before == 1
    assert seen and not any(seen)                       # loaded, never on the loop


def test_a_stale_commit_in_one_process_reloads_the_room_off_the_loop_before_its_409(
        tmp_path, monkeypatch):
    """One SQLite store, two hosts (as `cardcore admin` beside a server): the second's copy
    is behind, its move is refused as stale, and by the time the 409 is answered its room
    holds what the store holds, read off the loop."""
    async def run() -> tuple[int, int, int, str, str]:
        path = str(tmp_path / "t.sqlite3")
        mover, behind = TableServer(path), TableServer(path)
        try:
            room, _ = await mover.create(NewTable("crazy_eights", 2, seed=5))
            copy = await behind.get(room.id)
            await mover.act(room, room.game.current_player, first_legal(room), None)
            seen.clear()
            with pytest.raises(ApiError) as refused:
                await behind.act(copy, copy.game.current_player, first_legal(copy), None)
            return (refused.value.status, copy.actions, room.actions, copy.game.to_json(),
                    room.game.to_json())
        finally:
            await mover.close()
            await behind.close()

    seen = loop_loads(monkeypatch)
    status, copy_actions, actions, copy_json, json_ = asyncio.run(run())
    assert status == 409 and copy_actions == actions == 1 and copy_json == json_
    assert seen and not any(seen)


def test_the_sweeps_abandon_is_bounded_as_every_store_call(tmp_path, monkeypatch):
    async def run() -> tuple[float, int]:
        server = TableServer(str(tmp_path / "t.sqlite3"))
        server.writes.timeout = 0.2
        monkeypatch.setattr(server.writer, "abandon", lambda cutoff: time.sleep(1.5) or [])
        started = time.monotonic()
        try:
            with pytest.raises(ApiError) as failed:
                await asyncio.wait_for(server.sweep(), 5)
            return time.monotonic() - started, failed.value.status
        finally:
            await asyncio.sleep(1.5)                    # the call ends in its thread
            await server.close()

    took, status = asyncio.run(run())
    assert status == 503 and took < 1.0


class SeatHost:
    """What ``SharedStore.seats_changed`` asks of its host: the reads lane."""

    def __init__(self, lane: Lane) -> None:
        self.reads = lane


def test_the_seats_read_again_after_a_wrong_token_are_bounded(tmp_path):
    """A shared store's re-read of the seats after a token missed runs in the reads lane:
    a silent store answers 503 within the lane's time, never holding the loop."""
    async def run() -> tuple[float, int, bool]:
        server = TableServer(str(tmp_path / "t.sqlite3"))
        store = Silent()
        try:
            room, tokens = await server.create(NewTable("crazy_eights", 2, seed=5))
            with pytest.raises(BadCredential):
                room.seat_of("not a token")
            shared = object.__new__(SharedStore)        # its leases need PostgreSQL
            shared.host = SeatHost(Lane(store, "reads", timeout=0.2))  # type: ignore[assignment]
            ticks = 0

            async def tick() -> None:
                nonlocal ticks
                while True:
                    await asyncio.sleep(0.01)
                    ticks += 1
            ticking = asyncio.ensure_future(tick())
            started = time.monotonic()
            with pytest.raises(ApiError) as failed:
                await shared.seats_changed(room)
            took = time.monotonic() - started
            ticking.cancel()
            return took, failed.value.status, ticks >= 5
        finally:
            store.speak.set()
            await server.close()

    took, status, loop_ran = asyncio.run(run())
    assert status == 503 and took < 1.0 and loop_ran
