"""Connections of ``cardcore serve`` before any request is read (docs/server.md, "Limits").

uvicorn gives a limit on the request head's size (``h11_max_incomplete_event_size``), a global
cap on connections and tasks past which a *request* is answered 503 (``limit_concurrency``)
and a keep-alive timeout that runs only *after* a response (``timeout_keep_alive``). A new
connection that never sends, or sends its head a byte a second, waits forever, and one address
may open as many connections as the process has file descriptors (1,100 idle sockets from one
address under the usual 1,024 limit: every request from another address was reset). So the
HTTP protocol here adds, per connection:

- ``AddressSlots``: at most ``max_connections_per_address`` open connections per peer address
  (a WebSocket stays counted until it closes); past it the connection is answered 503 and
  closed at once, before anything is read. Trusted proxies (``--forwarded-allow-ips``) are
  exempt: behind one, every client shares its address.
- a deadline of ``head_timeout`` seconds for each request head, from the connection's
  opening (or the end of the previous response) to the head's last byte: past it, closed.
"""
from __future__ import annotations

import ipaddress
import json
import logging
from typing import Any, Callable

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from cardcore.i18n import N_
from cardcore.server.api_errors import ApiError

__all__ = ["AddressSlots", "guarded_http", "trusted_proxies"]

log = logging.getLogger("cardcore.server")

# Refused before a request is read: no language is asked for yet, so English, with the
# refusal's code, message id and fields as every other carries them.
_BUSY_BODY = json.dumps(ApiError(503, N_("too many connections from this address; retry "
                                         "later")).body()).encode()
BUSY = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n"
        b"connection: close\r\nretry-after: 1\r\ncontent-length: "
        + str(len(_BUSY_BODY)).encode() + b"\r\n\r\n" + _BUSY_BODY)


class AddressSlots:
    """Open connections by peer address: ``take(key, address)`` is False past ``limit``
    (``exempt(address)``: never limited); ``give(key)`` (idempotent) frees the slot of the
    connection ``key`` (its transport)."""

    def __init__(self, limit: int, exempt: Callable[[str], bool] = lambda a: False) -> None:
        self.limit = limit
        self.exempt = exempt
        self.by_address: dict[str, int] = {}
        self.held: dict[Any, str] = {}

    def take(self, key: Any, address: str) -> bool:
        if key in self.held:
            return True
        count = self.by_address.get(address, 0)
        if count >= self.limit and not self.exempt(address):
            return False
        self.by_address[address] = count + 1
        self.held[key] = address
        return True

    def give(self, key: Any) -> None:
        address = self.held.pop(key, None)
        if address is None:
            return
        left = self.by_address[address] - 1
        if left:
            self.by_address[address] = left
        else:
            del self.by_address[address]

    def counts(self) -> tuple[int, int, int]:
        """(open connections, addresses, the most from one address), for /metrics."""
        return (len(self.held), len(self.by_address),
                max(self.by_address.values(), default=0))


def trusted_proxies(forwarded_allow_ips: str | None) -> Callable[[str], bool]:
    """Whether an address is one of ``--forwarded-allow-ips`` (IPs or networks; ``*``: any)."""
    if not forwarded_allow_ips:
        return lambda address: False
    names = [n.strip() for n in forwarded_allow_ips.split(",") if n.strip()]
    if "*" in names:
        return lambda address: True
    networks = []
    for name in names:
        try:
            networks.append(ipaddress.ip_network(name, strict=False))
        except ValueError:                     # a name uvicorn matches literally (a socket)
            continue
    literal = set(names)

    def trusted(address: str) -> bool:
        if address in literal:
            return True
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in networks)
    return trusted


def guarded_http(slots: AddressSlots, head_timeout: float,
                 on_refusal: Callable[[str], None] = lambda reason: None) -> type[Any]:
    """uvicorn's h11 protocol with ``slots`` per address and the head deadline;
    ``on_refusal(reason)`` counts each refusal (``connections_per_address``,
    ``head_timeout``)."""

    class GuardedH11Protocol(H11Protocol):
        head_timer: Any = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            address = self.client[0] if self.client else ""
            if not slots.take(transport, address):
                on_refusal("connections_per_address")
                transport.write(BUSY)
                transport.close()
                return
            self._arm_head()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm_head()
            slots.give(self.transport)
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state is not h11.IDLE:       # the head is in
                self._disarm_head()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
                self._arm_head()                # the next head on a kept-alive connection

        def _arm_head(self) -> None:
            self._disarm_head()
            self.head_timer = self.loop.call_later(head_timeout, self._head_late)

        def _disarm_head(self) -> None:
            if self.head_timer is not None:
                self.head_timer.cancel()
                self.head_timer = None

        def _head_late(self) -> None:
            self.head_timer = None
            if self.transport.is_closing() or self.transport.get_protocol() is not self \
                    or self.conn.their_state is not h11.IDLE:
                return
            on_refusal("head_timeout")
            self.transport.close()

    return GuardedH11Protocol
