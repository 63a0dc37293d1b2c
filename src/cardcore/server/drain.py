"""Graceful drain on SIGTERM (docs/operations.md, "Restarts and drain").

The first SIGTERM does not stop the server at once: ``/readyz`` answers 503 for ``drain``
seconds, so that the proxy or orchestrator sends new requests and sockets elsewhere, while
the tables here play on. Then, once no write to the store is in flight, uvicorn's own
shutdown runs: it stops accepting, closes the WebSockets with 1012 (service restart: the
TypeScript client reconnects) and the app's lifespan stores what is left. A second SIGTERM
or a SIGINT ends the drain at once.
"""
from __future__ import annotations

import logging
import signal
import time
from types import FrameType
from typing import Any

import uvicorn

log = logging.getLogger("cardcore.server")

# The longest a drain waits for writes in flight once its time is up (a store that hangs
# must not keep the process for ever).
WRITES_GRACE_SECONDS = 10.0


class DrainingServer(uvicorn.Server):
    """uvicorn's server with a drain before its shutdown."""

    def __init__(self, config: uvicorn.Config, tables: Any, drain: float) -> None:
        super().__init__(config)
        self.tables = tables                # the TableServer: its ``draining`` flag, writes
        self.drain = drain
        self.drain_ends: float | None = None

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if sig == signal.SIGTERM and self.drain > 0 and self.drain_ends is None:
            self.tables.draining = True
            self.drain_ends = time.monotonic() + self.drain
            log.info("drain started (SIGTERM): /readyz answers 503 for %g s, then the "
                     "sockets close with 1012 and the process exits (process %s, %d tables "
                     "in memory)", self.drain, self.tables.process_id, len(self.tables.tables))
            return
        super().handle_exit(sig, frame)

    async def on_tick(self, counter: int) -> bool:
        if self.drain_ends is not None and not self.should_exit:
            now = time.monotonic()
            writing = self.tables.flushing or self.tables.queued
            if now >= self.drain_ends and (not writing
                                           or now >= self.drain_ends + WRITES_GRACE_SECONDS):
                super().handle_exit(signal.SIGTERM, None)
        return await super().on_tick(counter)
