"""The ASGI app of ``cardcore serve`` (server.md): JSON over HTTP, WebSockets, the web table.

``create_app(db_path, bot_delay=0)`` returns a Starlette app. Requests are turned into calls
on ``TableServer`` (tables.py); an ``ApiError`` becomes ``{"error": ..., ...}`` with its
status over HTTP and ``{"type": "error", "status": ..., ...}`` over a WebSocket.
"""
from __future__ import annotations

import asyncio
import json
import logging
import time
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any, AsyncIterator, Awaitable, Callable

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from cardcore._version import __version__
from cardcore.errors import ConfigError
from cardcore.registry import game_class
from cardcore.server.cards_svg import card_svg
from cardcore.server.tables import ApiError, Connection, Table, TableServer, games_catalogue

__all__ = ["create_app", "MAX_BODY"]

log = logging.getLogger("cardcore.server")

Handler = Callable[[Request], Awaitable[Response]]

MAX_BODY = 16 * 1024                 # bytes of a request body or a WebSocket message
MAX_SOCKETS_PER_TABLE = 64
WS_POLICY_VIOLATION = 1008

# No inline scripts, no third-party anything; tokens in URLs never leave as a Referer.
SECURITY_HEADERS = {
    "Content-Security-Policy": ("default-src 'self'; img-src 'self' data:; "
                                "connect-src 'self' ws: wss:; style-src 'self'; "
                                "script-src 'self'; base-uri 'none'; frame-ancestors 'none'"),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}


try:                                  # orjson encodes a table's state ~10x faster than json
    import orjson

    def json_bytes(value: Any) -> bytes:
        """``value`` as compact UTF-8 JSON (orjson when installed, else the json module)."""
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
except ImportError:                   # pragma: no cover - the server extra installs orjson
    def json_bytes(value: Any) -> bytes:
        """``value`` as compact UTF-8 JSON (orjson when installed, else the json module)."""
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


class FastJSONResponse(JSONResponse):
    def render(self, content: Any) -> bytes:
        return json_bytes(content)


def _json(body: Any, status: int = 200) -> JSONResponse:
    return FastJSONResponse(body, status_code=status, headers=SECURITY_HEADERS)


def _error(error: ApiError) -> JSONResponse:
    return _json(error.body(), error.status)


async def _read_json(request: Request) -> Any:
    """The request body as JSON: 413 past MAX_BODY (read no further), 400 if not JSON."""
    declared = request.headers.get("content-length")
    if declared is not None:
        if not declared.isdigit():
            raise ApiError(400, "bad Content-Length")
        if int(declared) > MAX_BODY:
            raise ApiError(413, f"the body is over {MAX_BODY} bytes")
    chunks = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise ApiError(413, f"the body is over {MAX_BODY} bytes")
        chunks.append(chunk)
    return _parse_json(b"".join(chunks))


def _parse_json(raw: bytes | str) -> Any:
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        raise ApiError(400, "the body is not JSON") from None


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization")
    if header is not None:
        scheme, _, value = header.partition(" ")
        if scheme.lower() != "bearer" or not value.strip():
            raise ApiError(403, "bad Authorization header: use 'Bearer TOKEN'")
        return value.strip()
    return None


def _int_query(request: Request, name: str, default: int) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    if not raw.isdigit() or len(raw) > 12:
        raise ApiError(400, f"{name} must be an int >= 0")
    return int(raw)


def create_app(db_path: str | Path = "cardcore-tables.sqlite3", bot_delay: float = 0.0, *,
               max_tables: int = 1000, message_rate: float = 20.0,
               synchronous: str = "full") -> Starlette:
    """The table server as an ASGI app (serve it with uvicorn, or embed it).

    ``db_path``: the SQLite file of the tables (created if missing; tables in it resume).
    ``bot_delay``: seconds between bot moves (0: bots answer at once, within the request).
    ``max_tables``: open (unfinished) tables allowed at once. ``message_rate``: WebSocket
    messages per second allowed per connection (bursts up to twice that).
    ``synchronous``: "full" (a commit survives a power cut) or "normal" (survives a killed
    process; faster on slow disks)."""
    server = TableServer(str(db_path), bot_delay=bot_delay, max_tables=max_tables,
                         message_rate=message_rate, synchronous=synchronous)
    static_dir = Path(str(resources.files("cardcore.server") / "static"))

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        server.resume_bots()
        yield
        await server.close()

    async def list_games(request: Request) -> Response:
        return _json({"games": games_catalogue(), "version": __version__})

    async def list_tables(request: Request) -> Response:
        include_over = request.query_params.get("over") in ("1", "true")
        return _json({"tables": server.list_tables(include_over)})

    async def create_table(request: Request) -> Response:
        body = await _read_json(request)
        if not isinstance(body, dict):
            raise ApiError(400, "the body must be a JSON object")
        unknown = sorted(set(body) - {"game", "players", "seed", "options", "bots"})
        if unknown:
            raise ApiError(400, f"unknown field {unknown[0][:40]!r}")
        if "game" not in body:
            raise ApiError(400, "game is required (see GET /api/games)")
        table, tokens = await server.create(body["game"], body.get("players"),
                                            body.get("seed"), body.get("options"),
                                            body.get("bots"))
        return _json({"table": table.id, "game": table.game.name,
                      "seats": {str(k): t for k, t in tokens.items()},
                      "bots": {str(k): b for k, b in table.bots.items()}}, 201)

    async def get_table(request: Request) -> Response:
        table = server.get(request.path_params["table"])
        token = _bearer(request) or request.query_params.get("token")
        seat = table.seat_of(token)
        since = _int_query(request, "since", 0)
        await server.settled(table)
        return _json(table.state(seat, since))

    async def post_action(request: Request) -> Response:
        table = server.get(request.path_params["table"])
        body = await _read_json(request)
        if not isinstance(body, dict):
            raise ApiError(400, "the body must be a JSON object")
        token = body.get("token")
        if token is None:
            token = _bearer(request)
        if token is None:
            raise ApiError(403, "a seat token is required (body 'token' or Authorization)")
        seat = table.seat_of(token)
        if seat is None:                             # pragma: no cover - seat_of raised
            raise ApiError(403, "bad token")
        if "action" not in body:
            raise ApiError(400, "action is required (an id or a notation)")
        after = body.get("after")
        await server.act(table, seat, body["action"], after)
        await server.settled(table)
        return _json(table.state(seat, after if isinstance(after, int) else 0))

    async def ws_table(websocket: WebSocket) -> None:
        try:
            table = server.get(websocket.path_params["table"])
            seat = table.seat_of(websocket.query_params.get("token"))
            since = int(websocket.query_params.get("since", "0") or 0)
            if not 0 <= since <= table.event_count:
                raise ApiError(400, "since out of range")
        except (ApiError, ValueError) as e:
            await websocket.accept()
            status = e.status if isinstance(e, ApiError) else 400
            await websocket.send_json({"type": "error", "status": status, "error": str(e)})
            await websocket.close(code=WS_POLICY_VIOLATION)
            return
        if len(table.connections) >= MAX_SOCKETS_PER_TABLE:
            await websocket.accept()
            await websocket.send_json({"type": "error", "status": 503,
                                       "error": "too many connections to this table"})
            await websocket.close(code=1013)
            return
        await websocket.accept()
        connection = Connection(seat, since, server.message_rate, 2 * server.message_rate)
        table.connections.add(connection)
        sender = asyncio.create_task(_send_loop(websocket, connection, table))
        try:
            await _receive_loop(websocket, connection, table)
        finally:
            connection.closed = True
            table.connections.discard(connection)
            connection.wake.set()
            sender.cancel()
            try:
                await sender
            except BaseException:
                pass

    async def _send_loop(websocket: WebSocket, connection: Connection, table: Table) -> None:
        current = table
        while not connection.closed:
            await connection.wake.wait()
            connection.wake.clear()
            while connection.errors:
                await websocket.send_text(json_bytes(connection.errors.popleft()).decode())
            if connection.dirty:
                connection.dirty = False
                try:
                    await server.settled(current)
                except ApiError:
                    current.broken = True
                if current.broken:
                    await websocket.close(code=1011)
                    return
                state = current.state(connection.seat, connection.sent_events)
                connection.sent_events = state["event_count"]
                await websocket.send_text(json_bytes({"type": "state", **state}).decode())

    async def _receive_loop(websocket: WebSocket, connection: Connection, table: Table) -> None:
        while True:
            try:
                message = await websocket.receive()
            except WebSocketDisconnect:
                return
            if message["type"] == "websocket.disconnect":
                return
            raw = message.get("text")
            if raw is None:
                raw = message.get("bytes") or b""
            try:
                if not connection.take_message(time.monotonic()):
                    raise ApiError(429, f"too many messages: at most "
                                        f"{server.message_rate:g} per second")
                if len(raw) > MAX_BODY:
                    raise ApiError(413, f"the message is over {MAX_BODY} bytes")
                body = _parse_json(raw)
                if not isinstance(body, dict):
                    raise ApiError(400, "a message must be a JSON object")
                kind = body.get("type")
                if kind == "ping":
                    connection.errors.append({"type": "pong"})
                    connection.wake.set()
                    continue
                if kind != "action":
                    raise ApiError(400, 'unknown message type; send {"type": "action", ...}')
                if connection.seat is None:
                    raise ApiError(403, "spectators cannot act: connect with a seat token")
                if "action" not in body:
                    raise ApiError(400, "action is required (an id or a notation)")
                await server.act(table, connection.seat, body["action"], body.get("after"))
            except ApiError as e:
                connection.push_error(e)

    async def index(request: Request) -> Response:
        return _page(static_dir / "index.html")

    async def table_page(request: Request) -> Response:
        return _page(static_dir / "table.html")

    async def game_file(request: Request) -> Response:
        """A game's own web-table part (``web/<file>`` in its package: board.js, words.js)."""
        try:
            cls = game_class(request.path_params["game"])
        except ConfigError:
            return _json({"error": "no such game"}, 404)
        name = request.path_params["file"]
        part = resources.files(cls.__module__).joinpath("web")
        found = next((f for f in part.iterdir() if f.name == name and name.endswith(".js")),
                     None) if part.is_dir() else None
        if found is None:
            return _json({"error": "not found"}, 404)
        return Response(found.read_text(encoding="utf-8"), media_type="text/javascript",
                        headers={"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"})

    async def card(request: Request) -> Response:
        name = request.path_params["card"]
        try:
            svg = card_svg(name)
        except ValueError:
            return _json({"error": "no such card"}, 404)
        return Response(svg, media_type="image/svg+xml",
                        headers={"Cache-Control": "public, max-age=86400",
                                 "X-Content-Type-Options": "nosniff"})

    async def not_found(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        message = {404: "not found", 405: "method not allowed"}.get(status, "error")
        return _json({"error": message}, status)

    def api(path: str, handler: Handler, method: str) -> Route:
        async def endpoint(request: Request) -> Response:
            try:
                return await handler(request)
            except ApiError as e:
                return _error(e)
            except Exception:                   # a bug: say so in JSON, keep serving
                log.exception("error in %s %s", request.method, request.url.path)
                return _json({"error": "internal error"}, 500)
        return Route(path, endpoint, methods=[method])

    routes = [
        api("/api/games", list_games, "GET"),
        api("/api/tables", list_tables, "GET"),
        api("/api/tables", create_table, "POST"),
        api("/api/tables/{table}", get_table, "GET"),
        api("/api/tables/{table}/actions", post_action, "POST"),
        WebSocketRoute("/ws/tables/{table}", ws_table),
        Route("/", index, methods=["GET"]),
        Route("/tables/{table}", table_page, methods=["GET"]),
        Route("/cards/{card}.svg", card, methods=["GET"]),
        Route("/games/{game}/{file}", game_file, methods=["GET"]),
        Mount("/static", StaticFiles(directory=str(static_dir)), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={HTTPException: not_found})
    app.state.tables = server
    return app


def _page(path: Path) -> Response:
    return Response(path.read_text(encoding="utf-8"), media_type="text/html",
                    headers=SECURITY_HEADERS)
