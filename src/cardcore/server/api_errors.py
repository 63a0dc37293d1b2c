"""A refusal of the server (``ApiError``: an HTTP status and a message; app.py answers it as
JSON, the WebSocket as an error message), and the refusals every part of it shares."""
from __future__ import annotations

import logging
import math
import time
from typing import Any

from cardcore.game import is_int

log = logging.getLogger("cardcore.server")


class ApiError(Exception):
    """A refusal: an HTTP status, a message for people, and optional details (``rule``...)."""

    def __init__(self, status: int, error: str, **details: Any) -> None:
        super().__init__(error)
        self.status = status
        self.error = error
        self.details = details

    def body(self) -> dict[str, Any]:
        return {"error": self.error, **self.details}


def check_after(after: Any) -> None:
    """``after``: None or the number of events seen, an int >= 0 (400 otherwise)."""
    if after is not None and (not is_int(after) or after < 0):
        raise ApiError(400, "after must be an int >= 0 (the number of events seen)")


class BadCredential(ApiError):
    """A 403 for a token, invite or creator token that is not the table's: a guess, counted
    per address (``guess_rate``: app.py answers 429 past it)."""

    def __init__(self, error: str, **details: Any) -> None:
        super().__init__(403, error, **details)


_store_errors = {"logged": -math.inf, "quiet": 0}


def log_store_error(what: str, error: Exception) -> None:
    """Log a failure of the store in one line, at most one a second (while PostgreSQL is
    down every request fails the same way): the next line says how many were not logged."""
    now = time.monotonic()
    if now - _store_errors["logged"] < 1.0:
        _store_errors["quiet"] += 1
        return
    quiet, _store_errors["quiet"], _store_errors["logged"] = _store_errors["quiet"], 0, now
    log.error("%s: %s%s", what, error, f" ({quiet} more since the last line)" if quiet else "")


def unavailable(error: Exception) -> ApiError:
    """The 503 of a store that cannot be reached (PostgreSQL down)."""
    log_store_error("storage unavailable", error)
    return ApiError(503, "storage unavailable: nothing was changed; try again",
                    retry_after=1)
