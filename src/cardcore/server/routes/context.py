"""What every route of one app shares: the table server, the limits, the rate buckets of
table creation and of wrong credentials, and the open sockets per address."""
from __future__ import annotations

import functools
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from starlette.requests import Request
from starlette.websockets import WebSocket

from cardcore.errors import ConfigError, Words
from cardcore.i18n import DEFAULT_LANG, N_
from cardcore.registry import game_class
from cardcore.server.api_errors import ApiError
from cardcore.server.http import reader_lang
from cardcore.server.limits import Limits, RateBuckets
from cardcore.server.tables import Table, TableServer


@dataclass
class Context:
    server: TableServer
    limits: Limits
    static_dir: Path
    spec: dict[str, Any]                           # the OpenAPI document
    creations: RateBuckets = field(init=False)     # tables created, per address
    guesses: RateBuckets = field(init=False)       # wrong tokens and invites, per address
    sockets: dict[str, int] = field(default_factory=dict)   # open WebSockets per address

    def __post_init__(self) -> None:
        self.creations = RateBuckets(self.limits.create_rate, self.limits.create_burst)
        self.guesses = RateBuckets(self.limits.guess_rate, self.limits.guess_burst)

    @staticmethod
    def client_address(request: Request | WebSocket) -> str:
        return request.client.host if request.client is not None else "unknown"

    def guess_wait(self, address: str) -> None:
        """429 for an address past ``guess_rate`` wrong tokens and invites (before any
        token is looked at, so a guesser costs no store read)."""
        wait = self.guesses.wait(address, time.monotonic())
        if wait > 0:
            self.server.refused("guesses")
            raise ApiError(429, Words(N_("too many wrong tokens or invites from {address}: at "
                                     "most {rate} per second (bursts of {burst}); retry after "
                                     "{seconds} s"),
                                  {"address": address, "rate": f"{self.limits.guess_rate:g}",
                                   "burst": self.limits.guess_burst,
                                   "seconds": math.ceil(wait)}),
                           retry_after=math.ceil(wait))

    def guessed(self, address: str) -> None:
        self.server.metrics.bad_credentials.inc()
        self.guesses.take(address, time.monotonic())

    def words_for(self, scope: Request | WebSocket, explicit: bool = False
                  ) -> Callable[[ApiError], str] | None:
        """Refusals in the reader's language (None: English, as made), by their message ids,
        with the words of the game of the table in the path when it is in memory (or of the
        table being created)."""
        lang = reader_lang(scope, explicit)
        if lang == DEFAULT_LANG:
            return None
        held = self.server.tables.get(str(scope.path_params.get("table", "")))
        game = type(held.game) if held is not None else None
        if game is None and isinstance(getattr(scope.state, "game", None), str):
            try:
                game = game_class(scope.state.game)
            except ConfigError:
                pass
        return functools.partial(ApiError.text, lang=lang, game=game)


def watcher(table: Table, seat: int | None) -> int | None:
    """``seat``, or 403 for a token-less read of a table that admits no spectators."""
    if seat is None and not table.settings.spectators:
        raise ApiError(403, N_("this table admits no spectators: give a seat token"))
    return seat
