"""The ASGI app of ``cardcore serve`` (server.md): JSON over HTTP, WebSockets, the web table.

``create_app(db_path, bot_delay=0)`` returns a Starlette app: the route table below, each
handler a function of the shared ``Context`` and the request in a module of
``cardcore.server.routes`` (ops, games, pages, tables, seats, moves, socket). Requests are
turned into calls on ``TableServer`` (tables.py); an ``ApiError`` becomes
``{"error": ..., ...}`` with its status over HTTP and ``{"type": "error", "status": ..., ...}``
over a WebSocket.
"""
from __future__ import annotations

import asyncio
import logging
from contextlib import asynccontextmanager
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import AsyncIterator, Awaitable, Callable, Iterable, Sequence

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from cardcore._version import __version__
from cardcore.server.http import MAX_BODY, error_response, json_response
from cardcore.server.limits import LOOPBACK_ORIGIN, Guard, Limits, OriginPolicy
from cardcore.server.in_use import ServingLock
from cardcore.server.observe import AccessLog, Observe, route_names
from cardcore.server.openapi import openapi_spec
from cardcore.server.routes import games, moves, ops, pages, seats, socket, tables
from cardcore.server.routes.context import Context
from cardcore.server.store import StoreUnavailable
from cardcore.i18n import N_
from cardcore.server.api_errors import ApiError, BadCredential, unavailable
from cardcore.server.tables import TableServer

__all__ = ["create_app", "MAX_BODY", "WS_FRAME_CAP"]

log = logging.getLogger("cardcore.server")

Handler = Callable[[Context, Request], Awaitable[Response]]

# Frames past this are cut by the WebSocket layer itself (close 1009, no error message first);
# messages between max_message and this get the 413 error message, then close 1009.
WS_FRAME_CAP = 1024 * 1024
# The access log's status for a request whose client went away before its body was read.
CLIENT_CLOSED = 499


def create_app(db_path: str | Path = "cardcore-tables.sqlite3", bot_delay: float = 0.0, *,
               max_tables: int | None = None, message_rate: float | None = None,
               synchronous: str = "full", limits: Limits | None = None,
               allow_origins: Iterable[str] = (), allow_hosts: Iterable[str] = (),
               bots: str | Sequence[str] = ()) -> Starlette:
    """The table server as an ASGI app (serve it with uvicorn, or embed it).

    ``db_path``: the SQLite file of the tables (created if missing; tables in it resume), or a
    ``postgresql://`` URL: several processes on one database (docs/server.md).
    ``bot_delay``: seconds between bot moves (0: bots answer at once, within the request).
    ``limits``: every limit (``cardcore.server.limits.Limits``; its defaults are safe);
    ``max_tables`` (open tables at once) and ``message_rate`` (WebSocket messages per second
    per connection, bursts up to twice that) override the two fields of that name.
    ``allow_origins``, ``allow_hosts``: origins and Host names allowed besides the server's own
    origin, IP literals and loopback (``"*"``: any; docs/server.md, "Origins and hosts").
    ``synchronous``: "full" (a commit survives a power cut) or "normal" (survives a killed
    process; faster on slow disks).
    ``bots``: plug-in bots (specs such as ``"mypolicy:path=model.npz"``) the tables offer
    besides the built-in ones; ConfigError for a bot that cannot be made."""
    limits = limits or Limits()
    if max_tables is not None:
        limits = replace(limits, max_tables=max_tables)
    if message_rate is not None:
        limits = replace(limits, message_rate=message_rate)
    server = TableServer(str(db_path), bot_delay=bot_delay, max_tables=limits.max_tables,
                         message_rate=limits.message_rate, synchronous=synchronous,
                         limits=limits, bots=bots)
    ctx = Context(server, limits, Path(str(resources.files("cardcore.server") / "static")),
                  openapi_spec(server.extra_bots))
    policy = OriginPolicy(allow_origins, allow_hosts)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        log.info("cardcore %s: process %s (its id in leases, presence rows and metrics)",
                 __version__, server.process_id)
        # A SQLite file: say that a server is on it (admin restore refuses it meanwhile).
        serving = None if server.store.shared else ServingLock(server.store.path,
                                                              server.process_id)
        server.resume_bots()
        sweeper = asyncio.create_task(server.sweep_forever())
        heartbeat = asyncio.create_task(server.deployment.keep_forever())   # leases, if any
        vitals = [asyncio.create_task(server.vitals.check_forever()),      # health, lag
                  asyncio.create_task(server.vitals.lag_forever())]
        yield
        sweeper.cancel()
        heartbeat.cancel()
        for task in vitals:
            task.cancel()
        await server.close()
        if serving is not None:
            serving.release()

    routes = _routes(ctx)
    cors = policy.cors_origins()
    access = AccessLog()
    middleware = [
        # Outermost: it times what the guard refuses too, and sees every socket's close.
        Middleware(Observe, requests=server.metrics.requests,
                   closes=server.metrics.socket_closes, names=route_names(routes),
                   access=access),
        Middleware(Guard, policy=policy, max_header_bytes=limits.max_header_bytes,
                   on_refusal=server.refused),
        Middleware(CORSMiddleware, allow_origins=cors,
                   allow_origin_regex=None if "*" in cors else LOOPBACK_ORIGIN,
                   allow_methods=["GET", "POST", "DELETE"],
                   allow_headers=["Authorization", "Content-Type"], max_age=600),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=middleware,
                    exception_handlers={HTTPException: pages.not_found})
    # No trailing-slash redirects: Starlette's would send an absolute Location carrying the
    # query (and so a ?token=) back; /api/tables/ is a 404 like any unknown path.
    app.router.redirect_slashes = False
    app.state.tables = server
    app.state.limits = limits
    app.state.access = access               # the access line (observe.py): serve() turns it on
    return app


def _routes(ctx: Context) -> list[BaseRoute]:
    """Every route of the app: the API's paths (``_api_route``), the pages and the socket."""
    def api(path: str, handlers: dict[str, Handler]) -> Route:
        return _api_route(ctx, path, handlers)

    def page(handler: Handler) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            return await handler(ctx, request)
        return endpoint

    async def ws_table(websocket: WebSocket) -> None:
        await socket.ws_table(ctx, websocket)

    return [
        api("/api/games", {"GET": games.list_games}),
        api("/api/i18n", {"GET": games.get_words}),
        api("/healthz", {"GET": ops.healthz}),
        api("/livez", {"GET": ops.livez}),
        api("/readyz", {"GET": ops.readyz}),
        api("/metrics", {"GET": ops.metrics}),
        api("/openapi.json", {"GET": ops.openapi}),
        api("/api/tables", {"GET": tables.list_tables, "POST": tables.create_table}),
        api("/api/tables/{table}", {"GET": tables.get_table, "DELETE": tables.delete_table}),
        api("/api/tables/{table}/actions", {"POST": moves.post_action}),
        api("/api/tables/{table}/hint", {"GET": moves.get_hint}),
        api("/api/tables/{table}/takeback", {"POST": moves.post_takeback}),
        api("/api/tables/{table}/record", {"GET": tables.get_record}),
        api("/api/tables/{table}/review", {"GET": tables.get_review}),
        api("/howto/{game}", {"GET": games.howto}),
        api("/api/tables/{table}/seats", {"POST": seats.claim_seat}),
        api("/api/tables/{table}/seats/{seat}", {"DELETE": seats.leave_seat}),
        api("/api/tables/{table}/rematch", {"POST": tables.rematch}),
        WebSocketRoute("/ws/tables/{table}", ws_table),
        Route("/", page(pages.index), methods=["GET"]),
        Route("/tables/{table}", page(pages.table_page), methods=["GET"]),
        Route("/cards/{card}.svg", page(games.card), methods=["GET"]),
        Route("/games/{game}/{file}", page(games.game_file), methods=["GET"]),
        Mount("/static", StaticFiles(directory=str(ctx.static_dir)), name="static"),
    ]


def _api_route(ctx: Context, path: str, handlers: dict[str, Handler]) -> Route:
    """One route per path, its handler by method (so that a 405 lists every method of the
    path in its Allow header); an ``ApiError`` is answered as JSON in the reader's language,
    a wrong credential counted against its address, a bug logged and answered 500, a
    request whose client left before its body was read logged 499 (nginx's "client closed")."""
    async def endpoint(request: Request) -> Response:
        method = "GET" if request.method == "HEAD" else request.method
        try:
            try:
                if "table" in request.path_params:
                    ctx.guess_wait(ctx.client_address(request))
                return await handlers[method](ctx, request)
            except StoreUnavailable as e:    # PostgreSQL down: it reconnects by itself
                raise unavailable(e) from None
            except BadCredential:
                ctx.guessed(ctx.client_address(request))
                raise
        except ApiError as e:
            response = error_response(e, ctx.words_for(request))
            if e.status in (429, 503) and "retry_after" in e.details:
                response.headers["Retry-After"] = str(e.details["retry_after"])
            if e.status == 401:
                response.headers["WWW-Authenticate"] = "Bearer"
            return response
        except ClientDisconnect:            # gone mid-body (a proxy's failover, a closed tab):
            return Response(status_code=CLIENT_CLOSED)   # nothing ran; nobody to answer
        except Exception:                   # a bug: say so in JSON, keep serving
            log.exception("error in %s %s", request.method, request.url.path)
            return json_response(ApiError(500, N_("internal error")).body(), 500)
    return Route(path, endpoint, methods=list(handlers))
