"""Where one server process stands among others: the one place where serving alone (a SQLite
store) and serving beside other processes (a shared PostgreSQL store, leases.py) differ
(docs/architecture.md, "One process or many").

``TableServer`` (tables.py) holds one ``Deployment`` and asks it, never the store's kind:

- ``OneProcess``: every table is this process's; a read or a move finds it in memory or loads
  it; a commit the store refuses as stale (``cardcore admin`` moved the table) reloads it.
- ``SharedStore``: a table is served by the process holding its lease (``Leases``); a move
  takes the lease first, a read elsewhere shows the table as committed, a refused commit means
  the lease was lost. The process follows the others through the store's notices
  (``Listener``) and shares the seats' presence through rows a heartbeat keeps alive.
"""
from __future__ import annotations

import asyncio
import logging
import math
import time
from typing import TYPE_CHECKING, Any, Awaitable, Callable, MutableMapping, Protocol, TypeVar

from cardcore.server.api_errors import ApiError, unavailable
from cardcore.server.lanes import Lane
from cardcore.server.leases import Leases, StoreHost
from cardcore.server.room import Room
from cardcore.server.store import Progress, SeatRow, SqlTableStore, StoredTable, StoreUnavailable

if TYPE_CHECKING:
    from cardcore.game import Game
    from cardcore.server.pg_store import Listener

__all__ = ["Deployment", "DeploymentHost", "OneProcess", "SharedStore", "deployment_for"]

log = logging.getLogger("cardcore.server")

T = TypeVar("T")


class DeploymentHost(StoreHost[Room], Protocol):
    """What a deployment asks of the server besides (leases.StoreHost): its writer, and
    how it reloads and catches up rooms and writes."""

    @property
    def writer(self) -> SqlTableStore: ...
    async def reload(self, room: Room, mine: int = 0) -> None: ...
    async def catch_up(self, room: Room, stored: Progress | None = None) -> None: ...
    async def catch_up_settled(self, room: Room, count: int | None) -> None: ...
    def sweep_interval(self) -> float: ...
    async def write(self, fn: Callable[..., T], *args: Any) -> T: ...


class Deployment(Protocol):
    """What differs between one process and many (``OneProcess``, ``SharedStore``)."""

    @property
    def leases(self) -> Leases[Room] | None:
        """The leases this process holds (None: one process, no leases)."""
    @property
    def lease_owner(self) -> str | None:
        """The owner a commit's lease check expects (None: no leases)."""
    def insert_lease(self) -> tuple[str, float] | None:
        """The lease a new table's row is inserted with: (owner, seconds)."""
    def created(self, table_id: str, start: float) -> None:
        """A table this process stored (its insert began at ``start``, monotonic)."""
    async def room_to_act(self, table_id: str) -> Room:
        """The room a move, a seat or a socket acts on."""
    async def room_to_read(self, table_id: str) -> Room:
        """The room a read shows."""
    async def lost(self, room: Room, mine: int = 0) -> None:
        """The store refused a commit of ``room`` as stale (``mine``: that many refused
        commits still counted in ``room.unstored``)."""
    def loaded(self, room: Room) -> None:
        """``room`` was just loaded from the store."""
    async def seats_from_store(self, room: Room) -> None:
        """Read the seat holders again if another process may have changed them."""
    async def seats_changed(self, room: Room) -> bool:
        """After a token missed: the seats re-read off the loop; True if they may differ."""
    def presence_changed(self, room: Room, seat: int) -> None:
        """A socket of ``seat`` came or went here."""
    async def presence_elsewhere(self, table_ids: list[str]) -> dict[str, set[int]]:
        """Seats with a socket in another process, by table."""
    def start(self) -> None:
        """The event loop runs: start following the others."""
    async def orphans(self, due: float | None) -> list[str]:
        """Tables that move without a person (a clock due before ``due``) and nobody serves."""
    async def take_up(self, table_id: str) -> None:
        """Serve such a table here (if it can be had)."""
    async def sweep(self) -> None:
        """Each sweep's share: the presence heartbeat."""
    async def keep_forever(self) -> None:
        """The lease heartbeat, until the server closes."""
    async def stop_following(self) -> None:
        """The server is closing: stop hearing of the others; withdraw this process's rows."""
    async def close(self) -> None:
        """The server has stopped its rooms: let their leases go."""


class OneProcess:
    """The store is this process's alone (SQLite): every table is served here."""

    def __init__(self, host: DeploymentHost) -> None:
        self.host = host

    leases = None
    lease_owner = None

    def insert_lease(self) -> tuple[str, float] | None:
        return None

    def created(self, table_id: str, start: float) -> None:
        pass

    async def room_to_act(self, table_id: str) -> Room:
        return await self.host.load(table_id)

    async def room_to_read(self, table_id: str) -> Room:
        return await self.host.load(table_id)

    async def lost(self, room: Room, mine: int = 0) -> None:
        await self.host.reload(room, mine)     # moved on by `cardcore admin`: loaded again

    def loaded(self, room: Room) -> None:
        pass

    async def seats_from_store(self, room: Room) -> None:
        pass

    async def seats_changed(self, room: Room) -> bool:
        return False

    def presence_changed(self, room: Room, seat: int) -> None:
        pass

    async def presence_elsewhere(self, table_ids: list[str]) -> dict[str, set[int]]:
        return {}

    def start(self) -> None:
        pass

    async def orphans(self, due: float | None) -> list[str]:
        return await self.host.reads.call(
            lambda s: s.ids_waiting_for_bots() + s.ids_with_clocks() if due is None
            else s.ids_with_clocks(due=due))

    async def take_up(self, table_id: str) -> None:
        await self.host.load(table_id)

    async def sweep(self) -> None:
        pass

    async def keep_forever(self) -> None:
        pass

    async def stop_following(self) -> None:
        pass

    async def close(self) -> None:
        pass


class SharedStore:
    """The store is shared with other processes (PostgreSQL): each table is served by the
    process holding its lease, and the others follow it through the store's notices."""

    def __init__(self, host: DeploymentHost) -> None:
        self.host = host
        self.listener: Listener | None = None               # start()
        self.leases: Leases[Room] = Leases(self)

    # The leases' host (leases.LeaseHost): the server's rooms and store, and this presence.
    @property
    def tables(self) -> MutableMapping[str, Room]:
        return self.host.tables

    @property
    def store(self) -> SqlTableStore:
        return self.host.store

    @property
    def writer(self) -> SqlTableStore:
        return self.host.writer

    @property
    def process_id(self) -> str:
        return self.host.process_id

    @property
    def closing(self) -> bool:
        return self.host.closing

    @property
    def reads(self) -> Lane:
        return self.host.reads

    async def load(self, table_id: str) -> Room:
        return await self.host.load(table_id)

    def revive(self, stored: StoredTable, game: Game | None = None) -> Room:
        return self.host.revive(stored, game)

    async def catch_up(self, room: Room) -> None:
        await self.host.catch_up(room)

    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        return await self.host.write(fn, *args)

    # ------------------------------------------------------------ the deployment
    @property
    def lease_owner(self) -> str | None:
        return self.host.process_id

    def insert_lease(self) -> tuple[str, float] | None:
        return self.host.process_id, self.leases.seconds

    def created(self, table_id: str, start: float) -> None:
        self.leases.created(table_id, start)

    async def room_to_act(self, table_id: str) -> Room:
        """The lease taken or waited for first (leases.py)."""
        return await self.leases.own(table_id)

    async def room_to_read(self, table_id: str) -> Room:
        """As committed when another process holds it (leases.py)."""
        return await self.leases.read(table_id)

    async def lost(self, room: Room, mine: int = 0) -> None:
        log.warning("table %s: a commit was refused (its lease was lost or the store moved "
                    "on); another process serves it now", room.id)
        self.leases.drop(room.id)

    def loaded(self, room: Room) -> None:
        # The sockets of its seats elsewhere, read in the background.
        asyncio.get_running_loop().create_task(self._quietly(self.refresh_presence(room)))

    async def seats_from_store(self, room: Room) -> None:
        put_seats(room, await self.host.reads.call(lambda s: s.seats(room.id)))

    async def _quietly(self, work: Awaitable[None]) -> None:
        """Background work of notices: a store that does not answer now is read again at
        the next notice or sweep."""
        try:
            await work
        except StoreUnavailable as e:
            log.warning("a table was not refreshed from the store: %s", e)

    async def seats_changed(self, room: Room) -> bool:
        # In the reads lane, bounded as every store call (a 503 when the store is silent).
        try:
            stored = await self.host.reads.call(lambda s: s.seats(room.id))
        except StoreUnavailable as e:
            raise unavailable(e) from None
        put_seats(room, stored)
        return True

    def presence_changed(self, room: Room, seat: int) -> None:
        """This process's count of the seat's sockets, stored (and announced) in the
        background."""
        if self.host.closing:
            return
        count = room.audience.count(seat)

        async def store() -> None:
            try:
                await self.host.write(self.host.writer.set_presence, room.id, seat,
                                      self.host.process_id, count)
            except ApiError:
                pass                               # logged; the heartbeat repairs it
        asyncio.get_running_loop().create_task(store())

    def presence_ttl(self) -> float:
        """Seconds a process's presence rows count without its heartbeat (one per sweep)."""
        return 3 * self.host.sweep_interval()

    async def refresh_presence(self, room: Room) -> None:
        """The seats connected through other processes (their live rows), pushed if changed."""
        since, me = time.time() - self.presence_ttl(), self.host.process_id
        room.audience.elsewhere = await self.host.reads.call(
            lambda s: s.connected_seats(room.id, since, me))
        room.push_presence()

    async def presence_elsewhere(self, table_ids: list[str]) -> dict[str, set[int]]:
        since = time.time() - self.presence_ttl()
        return await self.host.reads.call(lambda s: s.connected_by_table(table_ids, since))

    async def orphans(self, due: float | None) -> list[str]:
        return await self.leases.orphans(math.inf if due is None else due)

    async def take_up(self, table_id: str) -> None:
        await self.leases.adopt(table_id)

    async def sweep(self) -> None:
        """The heartbeat of this process's presence rows; rows of a process that stopped
        (killed) expire after ``presence_ttl``, and the seats they held read away again."""
        host = self.host
        cutoff = time.time() - self.presence_ttl()
        await host.write(host.writer.keep_presence, host.process_id)
        await host.write(host.writer.clear_presence, "", cutoff)
        for room in list(host.tables.values()):
            if room.audience.elsewhere:
                await self.refresh_presence(room)

    async def keep_forever(self) -> None:
        await self.leases.keep_forever()

    # ------------------------------------------------------------ following the others
    def start(self) -> None:
        """Follow the tables other processes change: each notice reaches
        ``on_store_change`` in the event loop."""
        if self.listener is not None:
            return
        from cardcore.server.pg_store import Listener
        loop = asyncio.get_running_loop()

        def deliver(table_id: str | None, what: str) -> None:
            try:
                loop.call_soon_threadsafe(self.on_store_change, table_id, what)
            except RuntimeError:                     # the loop has closed: shutting down
                pass
        self.listener = Listener(self.host.store.path, deliver)

    def on_store_change(self, table_id: str | None, what: str) -> None:
        """A notice: ``table_id`` now has ``what`` actions stored, or has ended ("ended");
        None: notices may have been lost, every table in memory is checked."""
        host = self.host
        if host.closing:
            return
        if what.startswith("wanted:"):                 # another process asks for it
            if table_id is not None and what[7:] != host.process_id:
                self.leases.on_wanted(table_id)
            return
        rooms = list(host.tables.values()) if table_id is None \
            else [host.tables[table_id]] if table_id in host.tables else []
        loop = asyncio.get_running_loop()
        for room in rooms:                  # the store is read off the loop, in tasks
            if what in ("seats", "rematch"):
                loop.create_task(self._quietly(self.seats_from_store(room)))
                continue
            if what == "presence" or table_id is None:
                loop.create_task(self._quietly(self.refresh_presence(room)))
                if what == "presence":
                    continue
            if room.ended is not None:
                continue
            if what.startswith("rewound:"):     # a take-back: generation N of the log
                if not what[8:].isdigit() or int(what[8:]) <= room.rewinds:
                    continue                    # this process's own, or one already loaded
                room.diverged = True            # the count says nothing now: load it whole
            if table_id is not None and what.isdigit() and int(what) <= room.actions:
                continue                # this process's own commit, or one already loaded
            count = int(what) if table_id is not None and what.isdigit() else None
            loop.create_task(host.catch_up_settled(room, count))

    async def stop_following(self) -> None:
        if self.listener is not None:
            self.listener.close()
        try:
            await self.host.write(self.host.writer.clear_presence, self.host.process_id)
        except ApiError:
            pass                                # the rows expire by themselves

    async def close(self) -> None:
        await self.leases.close()               # the tables go to the others at once


def put_seats(room: Room, stored: SeatRow | None) -> None:
    """The seat holders as stored (and the rematch, once there is one), put in ``room``."""
    if stored is not None:
        room.set_seats(stored.token_hashes, stored.names)
        if stored.rematch is not None:
            room.announce_rematch(stored.rematch)


def deployment_for(host: DeploymentHost) -> Deployment:
    """``SharedStore`` when the host's store is shared with other processes, else
    ``OneProcess``: the one test of the store's kind."""
    return SharedStore(host) if host.store.shared else OneProcess(host)
