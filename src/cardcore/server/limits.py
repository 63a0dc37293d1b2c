"""Limits, origins and hosts of the table server (docs/server.md, "Limits" and "Origins").

``Limits`` holds every limit with its safe default (each is a ``cardcore serve`` option);
``RateBuckets`` is the per-address token bucket of table creation; ``Guard`` is the ASGI
middleware that refuses foreign ``Host`` headers (DNS rebinding), origins outside the
allow-list (HTTP and WebSocket) and oversized request heads before any route runs.
"""
from __future__ import annotations

import ipaddress
import json
import math
import re
from dataclasses import dataclass, fields
from typing import Any, Awaitable, Callable, Iterable
from urllib.parse import parse_qs

from cardcore.errors import Words, echo
from cardcore.i18n import N_

__all__ = ["Limits", "RateBuckets", "Guard", "OriginPolicy", "WS_CLOSE", "LOOPBACK_ORIGIN",
           "RETRY_FULL_SECONDS", "refuse_socket"]

# Every close code the server uses (docs/server.md, "WebSocket").
WS_CLOSE = {
    "refused": 1008,          # unknown table, bad token, foreign origin, slow reader
    "too_big": 1009,          # a message over max_message (after its 413 error message)
    "storage": 1011,          # a failed commit: reconnect
    "moved": 1012,            # the table went to another server process: reconnect (leases.py)
    "full": 1013,             # too many connections of that kind (after an error with retry_after)
    "ended": 4000,            # the table was deleted or abandoned (after an error 410 / 409)
    "left": 4010,             # the socket's seat was left: its token no longer works (403)
}

# Seconds a socket refused as full (close 1013) is told to wait before it tries again
# (``retry_after`` in its error): a place frees when another socket closes, which no one can
# foresee, so a short wait; a refusal costs the server next to nothing.
RETRY_FULL_SECONDS = 2


@dataclass(frozen=True)
class Limits:
    """Every limit of a server; the defaults are safe for a public host."""

    max_tables: int = 1000                 # open (unfinished) tables in total
    max_tables_per_client: int = 20        # open tables created by one client address
    create_rate: float = 0.2               # table creations per second per address ...
    create_burst: int = 10                 # ... with bursts up to this many
    max_spectators: int = 64               # spectator sockets per table
    max_seat_connections: int = 4          # sockets per seat (a seat's own, apart)
    max_header_bytes: int = 16384          # request line and headers
    max_body: int = 16384                  # an HTTP request body
    max_message: int = 16384               # a WebSocket message
    message_rate: float = 20.0             # WebSocket messages per second per socket (burst 2x)
    max_outbox: int = 256                  # messages queued for one socket before it is dropped
    max_outbox_bytes: int = 1 << 20        # ... or bytes (queued, being sent, or buffered)
    send_timeout: float = 30.0             # seconds one send may block before the socket is dropped
    abandon_after: float = 3600.0          # seconds without a person's move: the table ends
    retention: float = 7 * 86400.0         # seconds an ended table is kept, then deleted
    stall_after: float = 120.0             # seconds a table whose mover is there may not advance
    bot_think_ms: float = 200.0            # a search bot's budget per move (milliseconds)
    bot_workers: int = 2                   # threads in which search bots think
    bot_timeout: float = 10.0              # seconds a plug-in bot may take for one move
    hint_rate: float = 0.5                 # hints per second per seat (bursts of 2)
    # Hostile clients (docs/server.md, "Limits"): what one address may hold or try.
    max_connections: int = 4096            # open connections in all (uvicorn's limit_concurrency)
    # Sized for a NAT (a school, an office, a load balancer without --forwarded-allow-ips):
    # 200 players' sockets, and their requests beside them (docs/operations.md).
    max_connections_per_address: int = 256  # open TCP connections (sockets included) per peer
    max_sockets_per_address: int = 200     # open WebSockets per client address, all tables
    max_spectators_per_address: int = 8    # spectator sockets per table from one address
    head_timeout: float = 10.0             # seconds to send a whole request head
    auth_timeout: float = 10.0             # seconds in which a token-less socket may auth
    guess_rate: float = 0.2                # wrong tokens and invites per second per address ...
    guess_burst: int = 20                  # ... with bursts up to this many

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0 \
                    or not math.isfinite(value):
                raise ValueError(f"{f.name} must be a number > 0, not {value!r}")
        for name in ("max_tables", "max_tables_per_client", "create_burst", "max_spectators",
                     "max_seat_connections", "max_header_bytes", "max_body", "max_message",
                     "max_outbox", "max_outbox_bytes", "bot_workers", "max_connections",
                     "max_connections_per_address", "max_sockets_per_address",
                     "max_spectators_per_address", "guess_burst"):
            if not isinstance(getattr(self, name), int):
                raise ValueError(f"{name} must be an int")
        if self.bot_think_ms > 60_000:
            raise ValueError("bot_think_ms must be at most 60000 (a minute per move)")


class RateBuckets:
    """A token bucket per client address: ``take(address)`` is 0 when allowed, otherwise the
    seconds until the next token. Full buckets are forgotten, so memory stays bounded by the
    addresses active in the last ``burst / rate`` seconds (and by ``max_addresses``)."""

    def __init__(self, rate: float, burst: int, max_addresses: int = 100_000) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.max_addresses = max_addresses
        self.buckets: dict[str, tuple[float, float]] = {}    # address -> (allowance, time)

    def wait(self, address: str, now: float) -> float:
        """0 when ``take`` would allow, else the seconds until it would (takes nothing)."""
        allowance, last = self.buckets.get(address, (self.burst, now))
        allowance = min(self.burst, allowance + (now - last) * self.rate)
        return 0.0 if allowance >= 1 else (1 - allowance) / self.rate

    def take(self, address: str, now: float) -> float:
        allowance, last = self.buckets.get(address, (self.burst, now))
        allowance = min(self.burst, allowance + (now - last) * self.rate)
        if allowance < 1:
            self.buckets[address] = (allowance, now)
            return (1 - allowance) / self.rate
        if len(self.buckets) >= self.max_addresses and address not in self.buckets:
            self.prune(now)
        self.buckets[address] = (allowance - 1, now)
        return 0.0

    def prune(self, now: float) -> None:
        full = [a for a, (allowance, last) in self.buckets.items()
                if allowance + (now - last) * self.rate >= self.burst]
        for address in full:
            del self.buckets[address]
        if len(self.buckets) >= self.max_addresses:        # still full: the oldest go
            for address in sorted(self.buckets, key=lambda a: self.buckets[a][1])[
                    : len(self.buckets) - self.max_addresses + 1]:
                del self.buckets[address]


def _hostname(host: str) -> str:
    """The name of a Host header or an origin's authority, without the port."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else host
    if host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.rstrip(".")


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _is_loopback(name: str) -> bool:
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


LOOPBACK_ORIGIN = (r"https?://(localhost|[a-z0-9-]+\.localhost|127(\.\d{1,3}){3}|\[::1\])"
                   r"(:\d{1,5})?")


class OriginPolicy:
    """Which ``Host`` headers are served and which ``Origin`` headers are allowed.

    Hosts: any IP literal (an IP is not a DNS-rebinding target), ``localhost``, and the names
    in ``allow_hosts`` (``"*"``: any). Origins: no ``Origin`` header (not a browser), the
    server's own origin (the scheme and ``Host`` of the request), loopback origins, and those
    in ``allow_origins`` (``"*"``: any)."""

    def __init__(self, allow_origins: Iterable[str] = (), allow_hosts: Iterable[str] = ()) -> None:
        self.origins = {o.strip().rstrip("/").lower() for o in allow_origins if o.strip()}
        self.hosts = {_hostname(h) for h in allow_hosts if h.strip()}
        self.any_origin = "*" in self.origins
        self.any_host = "*" in self.hosts
        self.loopback = re.compile(LOOPBACK_ORIGIN + "$")

    def host_ok(self, host: str | None) -> bool:
        if host is None or self.any_host:
            return True
        name = _hostname(host)
        return _is_ip(name) or _is_loopback(name) or name in self.hosts

    def origin_ok(self, origin: str | None, scheme: str, host: str | None) -> bool:
        if origin is None or self.any_origin:
            return True
        origin = origin.strip().rstrip("/").lower()
        if origin in self.origins or self.loopback.match(origin):
            return True
        web = {"ws": "http", "wss": "https"}.get(scheme, scheme)
        return host is not None and origin == f"{web}://{host.strip().lower()}"

    def cors_origins(self) -> list[str]:
        return ["*"] if self.any_origin else sorted(self.origins)


Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class Guard:
    """ASGI middleware: a foreign Host (421), an origin outside the allow-list (403) and a
    request head over ``max_header_bytes`` (431) are refused before the app sees them; over a
    WebSocket, as an error message and close 1008. ``on_refusal(reason)`` counts them."""

    def __init__(self, app: ASGIApp, policy: OriginPolicy, max_header_bytes: int,
                 on_refusal: Callable[[str], None] = lambda reason: None) -> None:
        self.app = app
        self.policy = policy
        self.max_header_bytes = max_header_bytes
        self.on_refusal = on_refusal

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers: list[tuple[bytes, bytes]] = scope.get("headers") or []
        size = len(scope.get("raw_path") or b"") + len(scope.get("query_string") or b"")
        host = origin = None
        accept = b""
        for key, value in headers:
            size += len(key) + len(value) + 4
            if key == b"host":
                host = value.decode("latin-1")
            elif key == b"origin":
                origin = value.decode("latin-1")
            elif key == b"accept-language":
                accept = value
        refusal: tuple[int, str, Words] | None = None
        if size > self.max_header_bytes:
            refusal = (431, "headers", Words(N_("the request head is over {limit} bytes"),
                                             {"limit": self.max_header_bytes}))
        elif not self.policy.host_ok(host):
            refusal = (421, "host", Words(N_("this server does not serve the host {host}"),
                                          {"host": echo(host)}) if host
                       else Words(N_("no Host")))
        elif not self.policy.origin_ok(origin, scope.get("scheme", "http"), host):
            refusal = (403, "origin", Words(N_("the origin {origin} is not allowed"),
                                            {"origin": echo(origin or "")}))
        if refusal is None:
            await self.app(scope, receive, send)
            return
        status, reason, words = refusal
        self.on_refusal(reason)
        lang = accept[:1000].decode("latin-1")          # the reader's language, as the app's
        if scope["type"] == "websocket":
            asked = parse_qs((scope.get("query_string") or b"")[:1000].decode("latin-1"))
            lang = asked.get("lang", [lang])[0]         # a socket's ?lang= first
            await refuse_socket(receive, send, status, words, accept_language=lang)
            return
        body = json.dumps(_error_body(status, words, lang)).encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode()),
                                (b"cache-control", b"no-store")]})
        await send({"type": "http.response.body", "body": body})


def _error_body(status: int, words: Words, accept_language: str = "") -> dict[str, Any]:
    """A refusal's JSON as every route answers it (``code``, ``message_id``, ``fields``), its
    text in the language ``accept_language`` prefers; imported here, on a refusal only: this
    module stays free of the games."""
    from cardcore.server.api_errors import ApiError
    from cardcore.server.languages import preferred_lang
    error = ApiError(status, words)
    return {**error.body(), "error": error.text(preferred_lang(accept_language))}


async def refuse_socket(receive: Receive, send: Send, status: int, words: Words,
                        code: int = WS_CLOSE["refused"], accept_language: str = "") -> None:
    """A WebSocket refusal as the protocol says: accepted, one error message, closed."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send",
                "text": json.dumps({"type": "error", "status": status,
                                    **_error_body(status, words, accept_language)})})
    await send({"type": "websocket.close", "code": code})
