"""A room per table (issue 46): a ``Room`` talks to its host only through ``RoomHost``, so a
fake host drives one here; ``TableServer`` is tested as the host of real rooms (creates,
finds, routes, commits and evicts them), and ``OneProcess`` as its one-process deployment."""
from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from cardcore import new_game
from cardcore.server.api_errors import ApiError
from cardcore.server.deployment import OneProcess
from cardcore.server.limits import Limits
from cardcore.server.metrics import Metrics
from cardcore.server.room import Room, RoomHost
from cardcore.server.store import TableUpdate
from cardcore.server.table_settings import TableSettings
from cardcore.server.tables import NewTable, TableServer
from cardcore.server.tokens import new_token, token_hash


class FakeHost:
    """A RoomHost that stores nothing: it records what the room asked of it."""

    def __init__(self, refuse: ApiError | None = None, rewind_ok: bool = True) -> None:
        self.metrics = Metrics()
        self.limits = Limits()
        self.bot_pool = ThreadPoolExecutor(1)
        self.bot_delay = 0.0
        self.closing = False
        self.errors: list[BaseException] = []
        self.on_error = self.errors.append
        self.lease_owner: str | None = None
        self.commits: list[int] = []                 # the room's log length at each commit
        self.released: list[str] = []
        self.rewinds: list[TableUpdate] = []
        self.seat_writes: list[dict[int, str]] = []
        self.seat_reads = 0
        self.refuse = refuse
        self.rewind_ok = rewind_ok

    async def commit(self, room: Room) -> None:
        if self.refuse is not None:
            raise self.refuse
        self.commits.append(room.actions)

    async def rewind(self, room: Room, update: TableUpdate) -> bool:
        self.rewinds.append(update)
        return self.rewind_ok

    async def seats_from_store(self, room: Room) -> None:
        self.seat_reads += 1

    async def store_seats(self, room: Room, token_hashes: dict[int, str],
                          names: dict[int, str]) -> None:
        self.seat_writes.append(token_hashes)
        room.set_seats(token_hashes, names)

    def release(self, room: Room) -> None:
        self.released.append(room.id)


def room_of(host: RoomHost, bots: dict[int, str], seed: int = 3, takeback: bool = False,
            seated: tuple[int, ...] = (0,)) -> Room:
    game = new_game("crazy_eights", players=2, seed=seed)
    settings = TableSettings(bots, 7, takeback, join="anyone")
    return Room(host, "t1", game, settings, {s: token_hash(new_token()) for s in seated}, 0)


def first_legal(room: Room) -> int:
    return room.game.legal_actions()[0].id


def test_a_room_commits_a_persons_move_and_its_bots_replies_through_its_host():
    async def run() -> tuple[FakeHost, Room]:
        host = FakeHost()
        room = room_of(host, {1: "random"})
        seat = room.game.current_player
        assert seat == 0 or room.bot_to_move() == 1
        if seat != 0:                                 # the bot opens: play it first
            await room.play_bots()
        await room.act(0, first_legal(room), room.event_count)
        return host, room

    host, room = asyncio.run(run())
    # One commit, after the bot's replies (no bot delay): the room's whole log by then.
    assert host.commits == [room.actions] and room.actions >= 2
    assert host.released == ["t1"]
    assert room.game.current_player in (0, None)


def test_a_room_checks_the_turn_before_asking_its_host_anything():
    async def run() -> tuple[FakeHost, Room, ApiError]:
        host = FakeHost()
        room = room_of(host, {}, seated=(0, 1))
        wrong = 1 - room.game.current_player
        with pytest.raises(ApiError) as refused:
            await room.act(wrong, first_legal(room), None)
        return host, room, refused.value

    host, room, error = asyncio.run(run())
    assert error.status == 409 and host.commits == [] and room.actions == 0


def test_a_move_the_host_could_not_store_is_not_pushed_or_released():
    async def run() -> tuple[FakeHost, ApiError]:
        host = FakeHost(refuse=ApiError(503, "storage failed"))
        room = room_of(host, {}, seated=(0, 1))
        with pytest.raises(ApiError) as refused:
            await room.act(room.game.current_player, first_legal(room), None)
        return host, refused.value

    host, error = asyncio.run(run())
    assert error.status == 503 and host.released == []


def test_a_room_of_bots_plays_by_itself_committing_each_move():
    async def run() -> tuple[FakeHost, Room]:
        host = FakeHost()
        room = room_of(host, {0: "random", 1: "random"}, seated=())
        room.schedule_bots()
        for _ in range(200):
            if room.runner is None:
                break
            await asyncio.sleep(0.01)
        return host, room

    host, room = asyncio.run(run())
    assert room.game.is_over and room.runner is None
    assert host.commits == list(range(1, room.actions + 1))     # each move, in order


def test_a_take_back_the_host_refuses_leaves_the_room_as_it_was():
    async def run() -> tuple[FakeHost, Room, ApiError]:
        host = FakeHost(rewind_ok=False)
        room = room_of(host, {1: "random"}, takeback=True)
        if room.game.current_player != 0:
            await room.play_bots()
        await room.act(0, first_legal(room), None)
        before = room.actions
        from cardcore.server.rewind import take_back
        with pytest.raises(ApiError) as refused:
            await take_back(room, 0, None)
        assert room.actions == before and room.rewinds == 0
        return host, room, refused.value

    host, room, error = asyncio.run(run())
    assert error.status == 409 and len(host.rewinds) == 1
    assert host.rewinds[0].first < room.actions and not room.rewinding


def test_a_claimed_seat_is_stored_through_the_host():
    async def run() -> tuple[FakeHost, Room, int]:
        host = FakeHost()
        room = room_of(host, {}, seated=(0,))
        from cardcore.server.seat_changes import claim
        seat, token, name = await claim(room, None, "Bo", None)
        assert room.seat_of(token) == seat and name == "Bo"
        return host, room, seat

    host, room, seat = asyncio.run(run())
    assert seat == 1 and host.seat_reads == 1 and set(host.seat_writes[0]) == {0, 1}


# ---------------------------------------------------------------- TableServer as the host
def serve(tmp_path: Any, body: Any) -> Any:
    async def run() -> Any:
        server = TableServer(str(tmp_path / "t.sqlite3"))
        try:
            return await body(server)
        finally:
            await server.close()
    return asyncio.run(run())


def test_the_host_makes_rooms_that_name_it_and_routes_moves_to_their_commit(tmp_path):
    async def body(server: TableServer) -> tuple[int, int]:
        room, tokens = await server.create(NewTable("crazy_eights", 2, seed=5))
        assert server.tables[room.id] is room and room.host is server
        assert isinstance(server.deployment, OneProcess) and server.lease_owner is None
        seat = room.game.current_player
        await server.act(room, seat, first_legal(room), room.event_count)
        stored = server.store.progress(room.id)
        return room.actions, stored[0] if stored else -1

    actions, stored = serve(tmp_path, body)
    assert actions == stored == 1                    # answered only once stored


def test_the_host_evicts_a_room_and_revives_it_from_the_store(tmp_path):
    async def body(server: TableServer) -> None:
        room, _ = await server.create(NewTable("crazy_eights", 2, seed=5))
        await server.act(room, room.game.current_player, first_legal(room), None)
        server.release(room)                         # not ended: kept
        assert server.tables.get(room.id) is room
        del server.tables[room.id]                   # as after the idle sweep
        reloads = server.reloads
        again = await server.get(room.id)
        assert again is not room and again.host is server and server.tables[room.id] is again
        assert (again.actions, again.game.to_json()) == (room.actions, room.game.to_json())
        assert server.reloads == reloads + 1

    serve(tmp_path, body)


def test_the_host_refuses_a_bad_request_record_and_stores_nothing(tmp_path):
    async def body(server: TableServer) -> list[tuple[int, Any]]:
        out = []
        for request in (NewTable(3), NewTable("crazy_eights", seed=-1),
                        NewTable("crazy_eights", options={"seed": 1}),
                        NewTable("crazy_eights", 2, takeback=True)):
            with pytest.raises(ApiError) as refused:
                await server.create(request)
            out.append((refused.value.status, refused.value.details.get("option")))
        assert server.store.count_open() == 0 and not server.tables
        return out

    assert serve(tmp_path, body) == [(400, None), (422, "seed"), (422, "seed"),
                                     (422, "takeback")]


class Recording(OneProcess):
    """One process, recording what the host asks of its deployment."""

    def __init__(self, host: TableServer) -> None:
        super().__init__(host)
        self.asked: list[tuple[str, str]] = []

    async def room_to_act(self, table_id: str) -> Room:
        self.asked.append(("act", table_id))
        return await super().room_to_act(table_id)

    def room_to_read(self, table_id: str) -> Room:
        self.asked.append(("read", table_id))
        return super().room_to_read(table_id)

    async def lost(self, room: Room, mine: int = 0) -> None:
        self.asked.append(("lost", room.id))
        await super().lost(room, mine)


def test_the_host_asks_its_deployment_where_a_table_is_served_and_what_a_stale_commit_means(
        tmp_path, monkeypatch):
    async def body(server: TableServer) -> tuple[list[tuple[str, str]], int, int]:
        deployment = server.deployment = Recording(server)
        room, _ = await server.create(NewTable("crazy_eights", 2, seed=5))
        assert await server.table_to_act(room.id) is room
        assert await server.table_to_read(room.id) is room
        # The store refuses the next commit as stale (another process moved on): the host
        # leaves it to the deployment, which (one process) loads the table again.
        monkeypatch.setattr(server.writer, "save_many", lambda rows: [r.table_id for r in rows])
        with pytest.raises(ApiError) as refused:
            await server.act(room, room.game.current_player, first_legal(room), None)
        await asyncio.sleep(0)
        return deployment.asked, refused.value.status, room.actions

    asked, status, actions = serve(tmp_path, body)
    assert status == 409 and actions == 0           # reloaded as stored: the move is gone
    assert [kind for kind, _ in asked] == ["act", "read", "lost"]


def test_a_positions_shared_state_is_built_once_for_every_seat_and_follows_changes(monkeypatch):
    """Pushes of one position share what is the same for every reader (pushes.py): the
    seats' list is made once for both seats and the spectator, and made again when a
    presence, a seat holder or the position changes, never served stale."""
    from cardcore.server.sockets import Connection
    room = room_of(FakeHost(), {}, seated=(0,))
    made = []
    seat_list = Room.seat_list
    monkeypatch.setattr(Room, "seat_list", lambda self: made.append(1) or seat_list(self))
    states = [room.state(seat) for seat in (0, 1, None)]
    assert len(made) == 1
    assert states[0]["seats"] == states[1]["seats"] == states[2]["seats"]
    assert [s["presence"] for s in states[0]["seats"]] == ["away", "open"]
    assert states[0]["view"] != states[1]["view"]                 # seats still differ
    assert (states[0]["legal"] == []) != (states[1]["legal"] == [])
    socket = Connection(0, 0, 10.0, 20.0)
    room.audience.sockets.add(socket)                             # seat 0 connects
    assert [s["presence"] for s in room.state(1)["seats"]] == ["connected", "open"]
    room.set_seats({**room.token_hashes, 1: token_hash(new_token())}, {1: "Ann"})
    after = room.state(None)["seats"]
    assert [s["presence"] for s in after] == ["connected", "away"] and after[1]["name"] == "Ann"
    mover = room.game.current_player
    room.apply(mover, first_legal(room))
    room.count_events()
    moved = room.state(None)
    assert moved["current_player"] != mover and moved["event_count"] > states[2]["event_count"]
    assert len(made) == 4
