"""What ``/healthz``, ``/readyz`` and the store's gauges answer, kept by background tasks so
that none of them waits on the store (docs/operations.md, "Health checks"):

- the store's health: a ping every ``CHECK_EVERY`` seconds on a connection of its own (its
  ``Lane``); a ping that has not answered after ``READY_TIMEOUT`` seconds makes the store
  "failing" at once, without waiting for it to end;
- the store's table counts (``cardcore_store_tables``), read every ``COUNT_EVERY`` checks
  and before each scrape of ``/metrics`` (but while the store does not answer);
- the event loop's lag: how late a timer set every ``LAG_EVERY`` seconds wakes
  (``cardcore_event_loop_lag_seconds``): every request, move and push of the process waits
  that long.
"""
from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

from prometheus_client import Histogram

from cardcore.server.lanes import Lane

if TYPE_CHECKING:
    from cardcore.server.responses import Health

__all__ = ["Vitals", "READY_TIMEOUT", "CHECK_EVERY"]

CHECK_EVERY = 0.5           # seconds between two pings of the store
READY_TIMEOUT = 2.0         # a ping unanswered this long: the store is failing
COUNT_EVERY = 10            # pings between two counts of the store's tables
LAG_EVERY = 0.1             # the lag probe's period


class Vitals:
    """The store's last known health and counts, and the loop's lag."""

    def __init__(self, lane: Lane, lag: Histogram) -> None:
        self.lane = lane
        self.lag = lag
        self.store = "ok"           # the store was just opened: it answered
        self.store_ms = 0.0         # the last ping's round trip
        self.checked = time.monotonic()
        self.counts = {"open": 0, "finished": 0}
        self.lag_ms = 0.0           # the last probe's
        self.checks = 0

    @property
    def ok(self) -> bool:
        return self.store == "ok"

    def body(self, tables_in_memory: int) -> tuple[int, Health]:
        """``/healthz``: 200 while the store answers, 503 otherwise."""
        return (200 if self.ok else 503), {
            "status": "ok" if self.ok else "failing", "store": self.store,
            "store_ms": round(self.store_ms, 3),
            "checked_s_ago": round(time.monotonic() - self.checked, 3),
            "loop_lag_ms": round(self.lag_ms, 3), "tables_in_memory": tables_in_memory}

    async def check(self) -> None:
        """One ping (and, now and then, the counts); a ping still waiting from before is not
        doubled: past ``READY_TIMEOUT`` it marks the store failing."""
        waiting = self.lane.stuck_for()
        if waiting:
            if waiting >= READY_TIMEOUT:
                self._failing(f"no answer for {waiting:.1f} s")
            return
        start = time.perf_counter()
        count = self.checks % COUNT_EVERY == 0
        self.checks += 1
        try:
            if count:
                self.counts = await self.lane.call(lambda s: s.count_by_state())
            else:
                await self.lane.call(lambda s: s.ping())
        except Exception as e:                      # a broken disk, PostgreSQL down
            self._failing(str(e))
            return
        self.store, self.store_ms = "ok", (time.perf_counter() - start) * 1000
        self.checked = time.monotonic()

    async def recount(self) -> None:
        """The store's table counts read now, for a scrape (off the loop, in the health
        lane); the last ones kept when the store does not answer."""
        if self.lane.stuck_for():
            return
        try:
            self.counts = await self.lane.call(lambda s: s.count_by_state())
        except Exception:                           # the health check reports it
            pass

    def _failing(self, why: str) -> None:
        self.store = f"failed: {why.strip()[:100]}"
        self.checked = time.monotonic()

    async def check_forever(self) -> None:
        while True:
            await self.check()
            await asyncio.sleep(CHECK_EVERY)

    async def lag_forever(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            start = loop.time()
            await asyncio.sleep(LAG_EVERY)
            late = max(0.0, loop.time() - start - LAG_EVERY)
            self.lag_ms = late * 1000
            self.lag.observe(late)
