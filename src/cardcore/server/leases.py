"""One process per table (docs/operations.md, "One process per table"): with a shared store
(PostgreSQL) a table is served by the one process holding its lease, a row in the store that
the process's heartbeat renews. Its moves, bots, clocks and sockets run there.

- A request that acts on a table (a move, a seat, a socket) at a process that does not hold
  it takes the lease when it is free or expired (its holder was killed), loading the table
  from the store; when another live process holds it, this process asks for it (``want``:
  a notice, seen at once) and waits; the holder finishes its writes in flight, lets it go
  and closes its sockets with 1012, and their clients reconnect through the proxy to the
  process the table's id is routed to.
- A read at a process that does not hold the table is answered from the store as it is
  committed (a copy made for that read): a read after an acknowledged move shows it, through
  any process.
- Every commit checks the lease in its transaction (the store's ``_lease_owners``): a process
  that lost its lease (paused past it, cut off from the store) stores nothing more there, and
  drops the table when its heartbeat finds the lease gone.
- Tables that move without a person (bots, running clocks) whose holder died are taken over
  by the sweep of any live process.
"""
from __future__ import annotations

import asyncio
import logging
import math
import time
from typing import TYPE_CHECKING, Callable, Generic, MutableMapping, Protocol, TypeVar, cast

from cardcore.i18n import N_
from cardcore.server.api_errors import ApiError, log_store_error, unavailable
from cardcore.server.messages import NO_SUCH_TABLE
from cardcore.server.lanes import Lane, stored_game
from cardcore.server.limits import WS_CLOSE
from cardcore.server.storage import open_store
from cardcore.server.store import SqlTableStore, StoredTable, StoreUnavailable

if TYPE_CHECKING:
    from cardcore.game import Game
    from cardcore.server.pg_store import PgTableStore

__all__ = ["Leases", "LeaseHost", "StoreHost", "LeasedRoom", "LEASE_SECONDS"]

T = TypeVar("T")


class LeasedRoom(Protocol):
    """What the leases read and change of a room (room.py's ``Room``)."""

    moved: bool

    @property
    def serving(self) -> bool: ...
    @property
    def ended(self) -> str | None: ...
    @property
    def unstored(self) -> int: ...
    @property
    def stored(self) -> asyncio.Event: ...
    def stop(self, code: int, error: ApiError) -> None: ...


R = TypeVar("R", bound=LeasedRoom)


class StoreHost(Protocol[R]):
    """What the host's helpers (the leases, the deployment) all ask of the server holding
    the rooms (``tables.TableServer``, not imported: it imports them): its rooms and process,
    its store and reads lane, and how it loads, revives and catches up a room."""

    @property
    def tables(self) -> MutableMapping[str, R]: ...
    @property
    def store(self) -> SqlTableStore: ...
    @property
    def process_id(self) -> str: ...
    @property
    def closing(self) -> bool: ...
    @property
    def reads(self) -> Lane: ...
    async def load(self, table_id: str) -> R: ...
    def revive(self, stored: StoredTable, game: Game | None = None) -> R: ...
    async def catch_up(self, room: R) -> None: ...


class LeaseHost(StoreHost[R], Protocol[R]):
    """What the leases ask of that server besides: the seats connected elsewhere."""

    async def refresh_presence(self, room: R) -> None: ...

log = logging.getLogger("cardcore.server")

LEASE_SECONDS = 5.0         # how long a lease lasts unrenewed: a killed process's tables wait so long
RENEW_EVERY = 0.25          # of LEASE_SECONDS: the heartbeat's period
TRUSTED = 0.8               # of LEASE_SECONDS past a renewal's start: held for sure until then
POLL_SECONDS = 0.05         # a process waiting for a lease looks again after this
MOVED = N_("the table moved to another server process; reconnect")


class Leases(Generic[R]):
    """The leases this process holds, their heartbeat, and handing a table over."""

    def __init__(self, server: LeaseHost[R], seconds: float = LEASE_SECONDS) -> None:
        self.server = server
        self.seconds = seconds
        # Leases live in a shared store: taken and polled in the server's reads lane,
        # renewed and released in a lane of their own (lanes.py), never behind commits.
        self.store = cast("PgTableStore", server.store)
        self.beat = Lane(open_store(server.store.path), "heartbeat",
                         timeout=seconds * (1 - RENEW_EVERY))
        self.until: dict[str, float] = {}      # table id -> monotonic time it is held until
        self.leaving: set[str] = set()         # tables being handed over
        self.taken = self.handed = self.lost = 0        # counters (metrics)

    @property
    def me(self) -> str:
        return self.server.process_id

    def holds(self, table_id: str) -> bool:
        return table_id not in self.leaving and self.until.get(table_id, 0.0) > time.monotonic()

    async def _ask(self, fn: Callable[[PgTableStore], T]) -> T:
        """``fn(store)`` in the server's reads lane (503 when the store does not answer)."""
        try:
            return await self.server.reads.call(lambda s: fn(cast("PgTableStore", s)))
        except StoreUnavailable as e:
            raise unavailable(e) from None

    async def _acquire(self, table_id: str) -> tuple[bool, float]:
        """Take or renew the lease now: (held, seconds the other holder has left)."""
        start = time.monotonic()
        me, seconds = self.me, self.seconds
        lease = await self._ask(lambda s: s.acquire(table_id, me, seconds))
        if lease.owner is None:
            raise ApiError(404, NO_SUCH_TABLE)
        if lease.owner != self.me:
            return False, lease.seconds
        self.until[table_id] = start + self.seconds * TRUSTED
        return True, 0.0

    async def _load(self, table_id: str) -> R:
        """The table, now that its lease is held: the copy in memory brought up to the store
        (another process may have moved it meanwhile), or loaded."""
        server = self.server
        table = server.tables.get(table_id)
        if table is not None and table.serving and table.ended != "deleted":
            try:
                await server.catch_up(table)
            except StoreUnavailable as e:
                raise unavailable(e) from None
        fresh = await server.load(table_id)
        if table is None or fresh is not table:
            self.taken += 1
            log.info("table %s taken: process %s serves it now", table_id, self.me)
        return fresh

    async def own(self, table_id: str) -> R:
        """The table to act on, held by this process: taken when free or expired, asked for
        and waited for (at most a lease's length and a second) when another process has it."""
        if self.holds(table_id) and table_id in self.server.tables:
            return await self.server.load(table_id)
        deadline = time.monotonic() + self.seconds + 1.0
        asked = False
        left = self.seconds
        while True:
            if table_id not in self.leaving:
                held, left = await self._acquire(table_id)
                if held:
                    return await self._load(table_id)
                if not asked:
                    asked = True
                    me = self.me
                    await self._ask(lambda s: s.want(table_id, me))
            if time.monotonic() >= deadline:
                raise ApiError(503, N_("the table is moving between server processes; try again"),
                               retry_after=max(1, math.ceil(left)))
            await asyncio.sleep(POLL_SECONDS)

    async def read(self, table_id: str) -> R:
        """The table to read: this process's when it holds it, else a copy of what the store
        has committed, made for this read and not kept (loaded and replayed off the loop)."""
        if self.holds(table_id) and table_id in self.server.tables:
            return await self.server.load(table_id)
        found = await self._ask(lambda s: stored_game(s, table_id))
        if self.holds(table_id) and table_id in self.server.tables:
            return await self.server.load(table_id)     # taken here meanwhile
        if found is None:
            raise ApiError(404, NO_SUCH_TABLE)
        table = self.server.revive(*found)
        try:
            await self.server.refresh_presence(table)   # its sockets, at the process holding it
        except StoreUnavailable as e:
            raise unavailable(e) from None
        return table

    async def adopt(self, table_id: str) -> R | None:
        """The table if its lease can be had now (free, expired or held here), else None:
        for the sweep and a start, which take over what no process serves."""
        try:
            held, _ = await self._acquire(table_id)
        except ApiError:
            return None
        return await self._load(table_id) if held else None

    async def orphans(self, due: float) -> list[str]:
        """Open tables that move by themselves and that no process holds (the store's)."""
        return await self._ask(lambda s: s.orphans(due))

    def created(self, table_id: str, start: float) -> None:
        """A table this process has stored with its lease (the insert began at ``start``,
        monotonic time): nobody else knows its id yet."""
        self.until[table_id] = start + self.seconds * TRUSTED

    # ------------------------------------------------------------ the heartbeat
    async def keep_forever(self) -> None:
        while not self.server.closing:
            await asyncio.sleep(self.seconds * RENEW_EVERY)
            try:
                await self.keep()
            except Exception as e:                  # pragma: no cover - keep beating
                log.error("the leases were not renewed: %s", e)

    async def keep(self) -> None:
        """Renew what is held, let go of tables that left memory, hand over wanted ones, and
        drop tables whose lease was lost (a pause past it, the store out of reach meanwhile)."""
        server = self.server
        gone = [i for i in self.until if i not in server.tables and i not in self.leaving]
        if gone:
            for table_id in gone:
                del self.until[table_id]
            await self._release(gone)
        start = time.monotonic()
        before = dict(self.until)           # a lease taken while the renewal runs is not judged
        me, seconds = self.me, self.seconds
        held = await self._beat(lambda s: s.renew(me, seconds))
        if held is None:
            return                                  # the store is down: try at the next beat
        for table_id, was in before.items():
            if table_id in self.leaving or self.until.get(table_id) != was:
                continue                            # going, gone, or taken again meanwhile
            if table_id not in held:
                self.lost += 1
                log.warning("table %s: its lease was lost; another process serves it now "
                            "(process %s)", table_id, self.me)
                self.drop(table_id)
                continue
            self.until[table_id] = start + self.seconds * TRUSTED
            if held[table_id] not in (None, self.me):
                self.hand_over(table_id)
        stray = [i for i in held if i not in self.until and i not in self.leaving]
        if stray:                   # left without its release stored (the store was down)
            await self._release(stray)

    def on_wanted(self, table_id: str) -> None:
        """A notice: another process asks for ``table_id``."""
        if table_id in self.until and table_id not in self.leaving:
            self.hand_over(table_id)

    def hand_over(self, table_id: str) -> None:
        self.leaving.add(table_id)
        asyncio.get_running_loop().create_task(self._hand_over(table_id))

    async def _hand_over(self, table_id: str) -> None:
        """Stop taking moves for the table, let its writes in flight finish, then release it
        and close its sockets (their clients reconnect, through the proxy, to the process
        that asked)."""
        server = self.server
        try:
            table = server.tables.get(table_id)
            if table is not None:
                table.moved = True                  # no more moves, bots or clocks here
                while table.unstored:
                    await table.stored.wait()
            self.drop(table_id)
            released = await self._release([table_id])
            if released is None:    # the store is down: the heartbeat releases it later
                return
            if released:
                self.handed += 1
                log.info("table %s handed over by process %s to the process that asked for "
                         "it", table_id, self.me)
            else:                   # paused past the lease: the asker took it meanwhile
                self.lost += 1
                log.warning("table %s: its lease was lost; another process serves it now "
                            "(process %s)", table_id, self.me)
        except Exception as e:                      # pragma: no cover - the lease expires
            log.error("table %s was not handed over: %s", table_id, e)
        finally:
            self.leaving.discard(table_id)

    async def _release(self, table_ids: list[str]) -> list[str] | None:
        """Let leases go; those that were still held here (None: the store did not answer;
        the heartbeat lets them go once it does)."""
        me = self.me
        return await self._beat(lambda s: s.release(me, table_ids))

    async def _beat(self, fn: Callable[[PgTableStore], T]) -> T | None:
        """``fn(store)`` in the heartbeat's lane; None (logged) when the store failed."""
        try:
            return await self.beat.call(lambda s: fn(cast("PgTableStore", s)))
        except Exception as e:
            log_store_error("a lease renewal or release failed", e)
            return None

    def drop(self, table_id: str) -> None:
        """Forget a table this process no longer serves: its bots and clock stop, its sockets
        close with 1012 (the client reconnects)."""
        self.until.pop(table_id, None)
        table = self.server.tables.get(table_id)
        if table is None:
            return
        del self.server.tables[table_id]
        table.moved = True
        table.stop(WS_CLOSE["moved"], ApiError(503, MOVED))

    async def close(self) -> None:
        """A process shutting down lets its tables go at once."""
        if self.until:
            held, self.until = list(self.until), {}
            await self._release(held)
        self.beat.close()
