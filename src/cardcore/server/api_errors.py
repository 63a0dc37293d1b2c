"""A refusal of the server (``ApiError``: an HTTP status and a message; app.py answers it as
JSON, the WebSocket as an error message), and the refusals every part of it shares.

Its message is data (``words``: a message id and fields, docs/server.md "Errors"): the body
carries ``code``, ``message_id`` and ``fields`` beside ``error`` (the text), and the text is
put in the reader's language where it leaves (``text``), from the id, never from the English."""
from __future__ import annotations

import logging
import math
import time
from typing import Any, Protocol

from cardcore.errors import ConfigError, IllegalActionError, Words
from cardcore.game import is_int
from cardcore.i18n import N_
from cardcore.server.messages import render

log = logging.getLogger("cardcore.server")


class Worded(Protocol):
    """An error whose words are data (a ConfigError, the clock's ClockError)."""
    words: Words


# ``code``: what kind of refusal, for programs (stable; the text is for people).
STATUS_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
                409: "conflict", 410: "gone", 413: "too_large", 415: "unsupported_media_type",
                421: "misdirected", 422: "unprocessable", 429: "too_many_requests",
                500: "internal_error", 503: "unavailable"}


class ApiError(Exception):
    """A refusal: an HTTP status, a message for people (a text without fields, or ``Words``:
    a template of messages.py and its fields), a ``code`` (by default the status's), and
    optional details (``rule``, ``option``, ``event_count``...). ``cite``: the rule ID
    closes the text (a game's refusal: ``"you do not hold 7H [XX-4]"``)."""

    def __init__(self, status: int, error: str | Words, *, code: str | None = None,
                 cite: str | None = None, **details: Any) -> None:
        self.words = error if isinstance(error, Words) else Words(error)
        self.suffix = f" [{cite}]" if cite else ""
        self.error = self.words.english() + self.suffix
        super().__init__(self.error)
        self.status = status
        self.code = code or STATUS_CODES.get(status, "error")
        self.details = details

    @classmethod
    def illegal(cls, error: IllegalActionError) -> ApiError:
        """The 422 of an action the game refuses: its words, its rule."""
        return cls(422, error.words, code="illegal_action", cite=error.rule, rule=error.rule)

    @classmethod
    def config(cls, error: ConfigError | Worded, option: str | None) -> ApiError:
        """The 422 of a table configuration the game (or the clock) refuses."""
        return cls(422, error.words, code="bad_option", option=option)

    def body(self) -> dict[str, Any]:
        """The JSON of the refusal, its text in English."""
        return {"error": self.error, "code": self.code, **self.words.to_dict(), **self.details}

    def text(self, lang: str, game: Any = None) -> str:
        """The refusal's text in ``lang`` (with ``game``'s words, a game class, first)."""
        return render(self.words, lang, game, self.suffix)


def check_after(after: Any) -> None:
    """``after``: None or the number of events seen, an int >= 0 (400 otherwise)."""
    if after is not None and (not is_int(after) or after < 0):
        raise ApiError(400, N_("after must be an int >= 0 (the number of events seen)"))


class BadCredential(ApiError):
    """A 403 for a token, invite or creator token that is not the table's: a guess, counted
    per address (``guess_rate``: app.py answers 429 past it)."""

    def __init__(self, error: str | Words, **details: Any) -> None:
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
    return ApiError(503, N_("storage unavailable: nothing was changed; try again"),
                    retry_after=1)
