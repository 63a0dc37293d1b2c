"""Store calls off the event loop (docs/architecture.md, "The store"): a ``Lane`` is one
store connection served by one thread of its own. A call runs in that thread and the loop
awaits it, at most ``timeout`` seconds: past that the caller gets ``StoreUnavailable`` (an
answer of 503) while the call finishes in its thread whenever the store answers, and the
next call of the lane waits behind it.

A call whose caller has given up (its time ran out, or its request went away) before the
thread reached it never runs: after a silent spell the lane runs the one call in progress, not
a backlog of calls nobody waits for, and a commit answered 503 ("not accepted") is not stored
later after all.

A lane per kind of work, so that one kind never queues behind another: the host's reads
(loads, revivals, catching up, lease acquisition and its polls), the lease heartbeat, and
the health check. Threads rather than psycopg's async API: the SQL and its logic are written
once for SQLite and PostgreSQL (``store.SqlTableStore``, sqlite3's synchronous API), and a
thread per connection keeps it so.
"""
from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Callable, TypeVar

from cardcore.registry import load_game
from cardcore.server.store import SqlTableStore, StoredTable, StoreUnavailable

if TYPE_CHECKING:
    from cardcore.game import Game

__all__ = ["Lane", "CALL_SECONDS", "stored_game"]

T = TypeVar("T")

# The longest the loop waits for one store call; PostgreSQL's own statement timeout
# (pg_store.STATEMENT_MS) ends a slow statement on its side first.
CALL_SECONDS = 6.0


class Lane:
    """One connection (``store``) and the one thread that uses it."""

    def __init__(self, store: SqlTableStore, name: str, timeout: float = CALL_SECONDS) -> None:
        self.store = store
        self.name = name
        self.timeout = timeout
        self.executor = ThreadPoolExecutor(1, thread_name_prefix=f"cardcore-{name}")
        self.busy_since: float | None = None    # monotonic start of the call in its thread

    async def call(self, fn: Callable[[SqlTableStore], T]) -> T:
        """``fn(store)`` in the lane's thread; ``StoreUnavailable`` after ``timeout`` s."""
        future = asyncio.get_running_loop().run_in_executor(self.executor, self._run, fn)
        # wait_for cancels the future when the time is up or the caller is cancelled: a call
        # not started yet is taken off the queue; one in progress ends in its thread.
        try:
            return await asyncio.wait_for(future, self.timeout)
        except asyncio.TimeoutError:
            raise StoreUnavailable(f"the store did not answer within {self.timeout:g} s "
                                   f"({self.name})") from None

    def _run(self, fn: Callable[[SqlTableStore], T]) -> T:
        self.busy_since = time.monotonic()
        try:
            return fn(self.store)
        finally:
            self.busy_since = None

    def stuck_for(self) -> float:
        """Seconds the call in the lane's thread has run (0: none is running)."""
        since = self.busy_since
        return 0.0 if since is None else time.monotonic() - since

    def close(self) -> None:
        """Stop the thread (a call still waiting for a silent store is left to finish) and
        close the connection."""
        self.executor.shutdown(wait=False, cancel_futures=True)
        if not self.stuck_for():
            self.store.close()


def stored_game(store: SqlTableStore, table_id: str) -> tuple[StoredTable, Game] | None:
    """A table as committed and its game rebuilt from the save (the replay: tens of
    milliseconds for a long match), for a lane's thread. None: no such table."""
    stored = store.load(table_id) if isinstance(table_id, str) else None
    return None if stored is None else (stored, load_game(stored.save))
