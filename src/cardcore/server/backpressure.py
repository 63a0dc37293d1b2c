"""The write buffer of a WebSocket under ``cardcore serve`` (docs/server.md, "Limits").

uvicorn's sans-I/O WebSockets (``websockets_sansio_impl``) make the app's sends wait once the
transport's buffer is past its high-water mark, but answer every ping *frame* at once, into
that buffer, whether the peer reads or not: a client that sends ping frames and never reads
grew the server by 171 MB in 15 s (measured, 2026-12-01). ``bounded_protocol`` is that
protocol with the buffer bounded by ``max_outbox_bytes``: past it the socket is dropped. It
queues the close frame (1008) behind what is buffered, so a client that reads late learns
why, answers nothing more (what the peer sends is read and discarded), and aborts the
connection unless the peer has answered the close within ``send_timeout`` seconds. An app's close is queued the same way when the buffer is full (the
close of a socket the app dropped as a slow reader would otherwise wait for it to drain).
"""
from __future__ import annotations

import logging
from typing import Any, Callable

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame, Opcode

from cardcore.server.limits import WS_CLOSE

__all__ = ["bounded_protocol", "WRITABLE"]

# The scope key under which the protocol puts its ``writable`` event (set while its buffer
# is below the high-water mark, when a send cannot wait): routes/socket.py's ``send_text``
# arms no timeout for such a send.
WRITABLE = "cardcore.writable"

log = logging.getLogger("cardcore.server")


def bounded_protocol(max_bytes: int, grace: float,
                     on_drop: Callable[[], None] = lambda: None,
                     on_lost: Callable[[Any], None] = lambda transport: None) -> type[Any]:
    """uvicorn's WebSocket protocol with at most ``max_bytes`` buffered for one peer;
    ``on_drop()`` is called for each socket dropped that way (to count it), ``on_lost``
    with the transport once the connection is gone (its slot per address: connections.py)."""

    class BoundedWebSocketProtocol(WebSocketsSansIOProtocol):
        dropped = False

        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            scope = getattr(self, "scope", None)
            if scope is not None:
                scope[WRITABLE] = self.writable

        def connection_lost(self, exc: Exception | None) -> None:
            on_lost(self.transport)
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if not self.dropped:
                super().data_received(data)
                self._check()
                return
            # Dropped: read on (a socket closed with unread input is reset, and the close
            # frame with it), answer nothing, and close once the peer's close frame comes.
            self.conn.receive_data(data)
            done = self.conn.parser_exc is not None or any(
                isinstance(e, Frame) and e.opcode == Opcode.CLOSE
                for e in self.conn.events_received())
            self.conn.data_to_send()
            if done:
                self.transport.close()

        async def send(self, message: Any) -> None:
            if message.get("type") == "websocket.close" and self.handshake_complete \
                    and not self.close_sent and not self.writable.is_set():
                self._close(message.get("code", 1000), message.get("reason") or "")
                return
            await super().send(message)
            self._check()

        def _check(self) -> None:
            if self.transport is None or self.transport.is_closing() or not \
                    self.handshake_complete or self.transport.get_write_buffer_size() <= max_bytes:
                return
            log.warning("%s - a socket was dropped: it did not read (%d bytes waiting)",
                        "%s:%d" % self.client if self.client else "?",
                        self.transport.get_write_buffer_size())
            on_drop()
            self._close(WS_CLOSE["refused"], "slow reader")

        def _close(self, code: int, reason: str) -> None:
            """Queue the close frame behind the buffer, whatever its size; abort the
            connection unless the peer has answered it within the grace."""
            self.dropped = True
            if not self.close_sent:
                self.conn.send_close(code, reason)
                self.transport.write(b"".join(self.conn.data_to_send()))
                self.close_sent = True
                self.queue.put_nowait({"type": "websocket.disconnect", "code": code,
                                       "reason": reason})
            if self.close_timer is not None:
                self.close_timer.cancel()
            self.close_timer = self.loop.call_later(grace, self.transport.abort)

    return BoundedWebSocketProtocol
