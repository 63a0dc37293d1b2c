"""One WebSocket of a table as the server keeps it: its seat, what it was sent, its outbox
and its message rate; and the ``id`` an action over it carries (docs/server.md, "WebSocket")."""
from __future__ import annotations

import asyncio
import math
from collections import deque
from typing import Any, Callable, Mapping

from cardcore.errors import Words
from cardcore.i18n import N_
from cardcore.server.api_errors import ApiError
from cardcore.server.http import json_bytes
from cardcore.server.patches import StateMemo

MAX_REQUEST_ID = 64         # characters of a WebSocket action's "id" (docs/server.md)
MAX_REQUEST_INT = 2**53 - 1     # an int "id" a JavaScript client represents exactly


def request_id(body: Mapping[str, Any]) -> str | int | None:
    """The ``id`` a WebSocket action carries (None without one): a string of 1..64
    characters or an int 0..2**53-1, echoed in the answer; anything else is a 400 (echoing
    nothing: the bad id is not sent back)."""
    if "id" not in body:
        return None
    rid = body["id"]
    if isinstance(rid, str) and 0 < len(rid) <= MAX_REQUEST_ID:
        return rid
    if isinstance(rid, int) and not isinstance(rid, bool) and 0 <= rid <= MAX_REQUEST_INT:
        return rid
    raise ApiError(400, Words(N_("id must be a string of 1..{length} characters or an int "
                              "0..{high}"), {"length": MAX_REQUEST_ID, "high": MAX_REQUEST_INT}))


# An outbox entry that stands for "a fresh state, answering the action with this id".
ACK = "ack"


def message_size(message: dict[str, Any]) -> int:
    """About the bytes a queued message takes on the wire (its compact JSON; an ACK stands
    for a state, counted when it is sent)."""
    if message.get("type") == ACK:
        return 0
    # orjson's compact JSON, as characters: a match record pushed to every socket at the end
    # is ~10x cheaper to measure than with json.dumps.
    return len(json_bytes(message).decode())


class Connection:
    """One WebSocket of a table: its seat (None: spectator), how many events it has been sent,
    and its outbox. A sender task drains the outbox and, when the table changed, sends one
    fresh state, so pushes are never out of order and never lose an event."""

    def __init__(self, seat: int | None, since: int, rate: float, burst: float,
                 max_outbox: int = 256, max_outbox_bytes: int = 1 << 20) -> None:
        self.seat = seat
        self.sent_events = since
        self.since = since                              # as connected (an auth resends from it)
        self.may_auth = False                           # its first message may be auth
        self.auth_until = math.inf                      # ... until this time (monotonic)
        self.address = ""                               # the client's (per-address limits)
        self.errors: deque[dict[str, Any]] = deque()     # the outbox (errors, pongs)
        self.later: deque[dict[str, Any]] = deque()      # sent right after the next state
        self.max_outbox = max_outbox
        self.max_outbox_bytes = max_outbox_bytes
        self.queued_bytes = 0                           # JSON bytes in errors and later
        self.sending = 0                                # bytes of the send under way
        self.overflow = False                           # the outbox filled: drop the socket
        self.stalled = False                            # a send blocked too long: drop it
        self.close_code: int | None = None              # close after the outbox is sent
        self.close_reason = ""                          # ... with this reason
        self.wants_presence = False                     # ?presence=1: presence messages
        self.wants_patches = False                      # ?patches=1: patches after a state
        self.memo = StateMemo()                         # the last state sent (patches.py)
        self.dirty = True                           # the first state goes out on connect
        self.wake = asyncio.Event()
        self.wake.set()
        self.closed = False
        self.rate = rate
        self.allowance = burst
        self.burst = burst
        self.last_check: float | None = None
        self.rewinds = 0                                # the table's take-backs it has seen
        self.words: Callable[[ApiError], str] | None = None  # refusals in its language
        self.lang = "en"                                # its events' texts (?lang=, Accept-Language)

    def notify(self) -> None:
        self.dirty = True
        self.wake.set()

    def push(self, message: dict[str, Any], later: bool = False) -> None:
        """Queue a message (``later``: right after the next state); a full outbox, in
        messages or in bytes, marks the socket to be dropped (a slow reader)."""
        size = message_size(message)
        if self.messages() >= self.max_outbox \
                or self.outbox_bytes() + size > self.max_outbox_bytes:
            self.overflow = True
        else:
            (self.later if later else self.errors).append(message)
            self.queued_bytes += size
        self.wake.set()

    def pop(self, later: bool = False) -> dict[str, Any]:
        """The next queued message (``later``: of those sent after a state)."""
        message = (self.later if later else self.errors).popleft()
        self.queued_bytes -= message_size(message)
        return message

    def messages(self) -> int:
        """Messages waiting in the outbox (``cardcore_outbox_messages``)."""
        return len(self.errors) + len(self.later)

    def outbox_bytes(self) -> int:
        """Bytes waiting: queued, and the send under way (``cardcore_outbox_bytes``)."""
        return self.queued_bytes + self.sending

    def push_error(self, error: ApiError, rid: str | int | None = None) -> None:
        message = {"type": "error", "status": error.status, **error.body()}
        if self.words is not None:
            message["error"] = self.words(error)
        if rid is not None:
            message["id"] = rid
        self.push(message)

    def push_ack(self, rid: str | int) -> None:
        """Queue the answer to an action with the id ``rid``: a state (sent in outbox order,
        so answers come in the order of the actions) that carries ``"id": rid``."""
        self.push({"type": ACK, "id": rid})

    def take_message(self, now: float) -> bool:
        """Token bucket: False when this connection sends faster than its rate allows."""
        if self.last_check is not None:
            self.allowance = min(self.burst, self.allowance + (now - self.last_check) * self.rate)
        self.last_check = now
        if self.allowance < 1:
            return False
        self.allowance -= 1
        return True
