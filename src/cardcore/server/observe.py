"""What every request and socket leaves behind (docs/server.md, "Logs" and "Health and
metrics"): its latency in a histogram by route template, the close code of each WebSocket,
and, under ``cardcore serve``, an access line with the request's duration.

An ASGI middleware, outside the app's own: it sees the route Starlette matched (the router
writes ``endpoint`` into the request's scope, which the middleware shares), so the histogram
is labelled by ``/api/tables/{table}``, never by a raw path (one series per route, not per
table). Requests that match no route count under ``other``.
"""
from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Iterable, MutableMapping

from prometheus_client import Counter, Histogram

__all__ = ["Observe", "AccessLog", "HEALTH_PATHS", "QUIET_HEALTH_ENV", "route_names"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# `cardcore serve` turns uvicorn's access lines (logger uvicorn.access) off: these replace them.
access_log = logging.getLogger("cardcore.access")

# Probes of proxies and orchestrators (several a second per process): left out of the access
# log with --quiet-health-checks (or this variable set to 1).
HEALTH_PATHS = frozenset({"/livez", "/readyz", "/healthz"})
QUIET_HEALTH_ENV = "CARDCORE_QUIET_HEALTH_CHECKS"
REQUEST_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
                   10.0)
OTHER = "other"                 # the route label of a request no route matched (404s)


def route_names(routes: Iterable[Any]) -> dict[Any, str]:
    """Each route's endpoint -> its path template (a Mount: its path)."""
    names: dict[Any, str] = {}
    for route in routes:        # a Mount's scope names its app as the endpoint
        key = getattr(route, "endpoint", None) or getattr(route, "app", None)
        if key is not None:
            names[key] = str(getattr(route, "path", "")) or OTHER
    return names


def quiet_health_default() -> bool:
    return os.environ.get(QUIET_HEALTH_ENV, "").strip().lower() in ("1", "true", "yes")


@dataclass
class AccessLog:
    """Whether the access line is written (``cardcore serve`` turns it on in place of
    uvicorn's; an embedding host keeps its own), and whether health checks are left out."""

    enabled: bool = False
    quiet_health: bool = field(default_factory=quiet_health_default)


class Observe:
    """The middleware. ``requests`` and ``closes`` are the server's metrics (metrics.py);
    ``names``: the routes' templates by endpoint (``route_names``)."""

    def __init__(self, app: ASGIApp, *, requests: Histogram, closes: Counter,
                 names: dict[Any, str], access: AccessLog) -> None:
        self.app = app
        self.requests = requests
        self.closes = closes
        self.names = names
        self.access = access

    def route_of(self, scope: Scope) -> str:
        found = scope.get("endpoint")
        return OTHER if found is None else self.names.get(found, OTHER)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            await self._socket(scope, receive, send)
        elif scope["type"] == "http":
            await self._request(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _request(self, scope: Scope, receive: Receive, send: Send) -> None:
        start = time.perf_counter()
        status = 500                # what the client gets if the app raises before answering

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)
        try:
            await self.app(scope, receive, sending)
        finally:
            seconds = time.perf_counter() - start
            route = self.route_of(scope)
            self.requests.labels(route, scope.get("method", "GET")).observe(seconds)
            access = self.access
            if access.enabled and not (access.quiet_health
                                       and scope.get("path") in HEALTH_PATHS):
                _log_access(scope, status, seconds)

    async def _socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        counted = False

        def count(code: Any, by: str) -> None:
            nonlocal counted
            if not counted:
                counted = True
                self.closes.labels(str(code if code is not None else 1000), by).inc()

        # "app": the server's code closed it; "connection": it ended without that (the client
        # closed, or uvicorn did: 1012 at shutdown, 1009 for an oversized frame).
        async def receiving() -> Message:
            message = await receive()
            if message["type"] == "websocket.disconnect":
                count(message.get("code", 1005), "connection")
            return message

        async def sending(message: Message) -> None:
            if message["type"] == "websocket.close":
                count(message.get("code", 1000), "app")
            await send(message)
        try:
            await self.app(scope, receiving, sending)
        except BaseException:
            count(1011, "app")          # uvicorn closes it with 1011 (internal error)
            raise
        count(1000, "app")              # returned without closing: uvicorn closes it normally


def _log_access(scope: Scope, status: int, seconds: float) -> None:
    client = scope.get("client")
    where = f"{client[0]}:{client[1]}" if client else "-"
    path = scope.get("path", "")
    query = scope.get("query_string", b"")
    if query:
        path += "?" + query.decode("latin-1")
    # The arguments as uvicorn's access log has them, and the duration (logs.py formats both)
    access_log.info('%s - "%s %s HTTP/%s" %d %.1fms', where, scope.get("method", "GET"), path,
                    scope.get("http_version", "1.1"), status, seconds * 1000)
