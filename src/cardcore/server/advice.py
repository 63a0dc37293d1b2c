"""Advice at a table: hints for the seat to move (``GET /api/tables/{id}/hint``) and the
review of a finished match (``GET /api/tables/{id}/review``), both searched in the bot pool
on a copy of the room's game, and both rate-limited per table."""
from __future__ import annotations

import asyncio
import functools
import math
import secrets
import time
from collections import OrderedDict
from concurrent.futures import Executor
from typing import Any, Callable, cast

from cardcore.errors import Words
from cardcore.i18n import N_
from cardcore.server.api_errors import ApiError
from cardcore.server.messages import HINT_RATE, INT_RANGE
from cardcore.server.limits import Limits, RateBuckets
from cardcore.server.room import Room
from cardcore.server.responses import Hints, Review
from cardcore.server.table_bots import table_bot

__all__ = ["Advisor", "HINT_LEVEL", "HINT_TOP", "REVIEW_ITERATIONS", "REVIEWS_KEPT"]

HINT_LEVEL = 5              # hints come from the game's strongest level's search ...
HINT_TOP = 3                # ... its best three moves
# A review (GET /api/tables/{id}/review) runs each of its searches (cardcore.review's
# DEFAULT_SEARCHES per decision) this many iterations at most: a whole match then takes
# seconds of a bot-pool thread, not a minute.
REVIEW_ITERATIONS = 300
REVIEWS_KEPT = 256          # finished reviews kept in memory (a finished table does not change)


class Advisor:
    """The server's hints and reviews: ``refused`` counts a refusal by its reason."""

    def __init__(self, limits: Limits, bot_pool: Executor,
                 refused: Callable[[str], None]) -> None:
        self.limits = limits
        self.bot_pool = bot_pool
        self.refused = refused
        self.hints = RateBuckets(limits.hint_rate, 2)          # per table and seat
        self.reviews: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()

    async def review(self, table: Room, seat: int) -> Review:
        """The review of ``seat``'s decisions (cardcore.review: the default reference from the
        seat's information only, at most ``REVIEW_ITERATIONS`` per search), once the match
        ended like its record; computed in the bot pool once per table and seat (kept for
        ``REVIEWS_KEPT`` reviews), at most one new review per table per ``1 / hint_rate``
        seconds (429 past it)."""
        from cardcore.review import review as review_of
        await table.settled()
        if not table.finished() or table.ended not in (None, "forfeit"):
            raise ApiError(409, N_("the review is published when the match ends"),
                           event_count=table.event_count)
        if not 0 <= seat < table.game.num_players:
            raise ApiError(400, Words(INT_RANGE, {"field": "seat", "low": 0,
                                                  "high": table.game.num_players - 1}))
        key = (table.id, seat)
        done = self.reviews.get(key)
        if done is None:
            wait = self.hints.take(f"{table.id}:review", time.monotonic())
            if wait:
                self.refused("hint_rate")
                raise ApiError(429, Words(N_("at most {rate} new reviews per second per table"),
                                          {"rate": f"{self.limits.hint_rate:g}"}),
                               retry_after=math.ceil(wait))
            copy = table.game.clone()
            done = await asyncio.get_running_loop().run_in_executor(
                self.bot_pool, functools.partial(review_of, copy, seat,
                                                 iterations=REVIEW_ITERATIONS))
            self.reviews[key] = done
            while len(self.reviews) > REVIEWS_KEPT:
                self.reviews.popitem(last=False)
        return cast(Review, {"table": table.id, **done})   # review.py's fields: Review's

    async def hint(self, table: Room, seat: int | None) -> Hints:
        """The best moves for ``seat``, the seat to move, from the level-5 search of the game
        on a copy of the table (the seat's information only), computed in the bot pool within
        the server's think budget. 403 for a spectator, 409 when it is not the seat's turn,
        429 (with ``retry_after``) past ``hint_rate``."""
        if seat is None:
            raise ApiError(403, N_("hints are for a seat: give its token"))
        if table.game.is_over or table.game.current_player != seat:
            raise ApiError(409, N_("hints are for the seat to move, at its turn"))
        wait = self.hints.take(f"{table.id}:{seat}", time.monotonic())
        if wait:
            self.refused("hint_rate")
            raise ApiError(429, Words(HINT_RATE, {"rate": f"{self.limits.hint_rate:g}"}),
                           retry_after=math.ceil(wait))
        await table.settled()
        copy = table.game.clone()
        advisor, _ = table_bot(f"level:{HINT_LEVEL}", table.game.name,
                               self.limits.bot_think_ms, secrets.randbits(63))
        hints = await asyncio.get_running_loop().run_in_executor(
            self.bot_pool, functools.partial(advisor.suggest, copy, seat=seat, top=HINT_TOP))
        return {"seat": seat, "moves": table.actions, "level": HINT_LEVEL,
                "hints": [{"action": h["action"].id, "label": str(h["action"]),
                           "estimate": round(h["estimate"], 4), "visits": h["visits"]}
                          for h in hints]}
