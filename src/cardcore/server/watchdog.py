"""The watchdog (docs/server.md, "Health and metrics"): a table whose seat to move is there
(a bot, or a person with a socket open) and which has not advanced for ``stall_after``
seconds is marked stalled, logged once and counted."""
from __future__ import annotations

import logging
import time
from typing import Sequence

from prometheus_client import Counter

from cardcore.server.room import Room

__all__ = ["watch"]

log = logging.getLogger("cardcore.server")


def watch(rooms: Sequence[Room], stall_after: float, stalls: Counter,
          now: float | None = None) -> list[Room]:
    """Mark each room stalled or not; returns those newly found stalled."""
    now = time.monotonic() if now is None else now
    found = []
    for room in rooms:
        seat = room.game.current_player
        present = seat is not None and room.ended is None and not room.game.is_over \
            and (seat in room.settings.bots or room.audience.count(seat) > 0)
        stalled = present and now - room.advanced_at >= stall_after
        if stalled and not room.stalled:
            found.append(room)
            stalls.inc()
            log.warning("table %s stalled: seat %s (%s) to move, no move for %.0f s",
                        room.id, seat, "bot" if seat in room.settings.bots else "connected",
                        now - room.advanced_at)
        room.stalled = stalled
    return found
