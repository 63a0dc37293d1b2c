"""The ASGI app of ``cardcore serve`` (server.md): JSON over HTTP, WebSockets, the web table.

``create_app(db_path, bot_delay=0)`` returns a Starlette app. Requests are turned into calls
on ``TableServer`` (tables.py); an ``ApiError`` becomes ``{"error": ..., ...}`` with its
status over HTTP and ``{"type": "error", "status": ..., ...}`` over a WebSocket.
"""
from __future__ import annotations

import asyncio
import functools
import json
import logging
import math
import sys
import time
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from dataclasses import replace
from typing import Any, AsyncIterator, Awaitable, Callable, Iterable, Sequence

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from cardcore._version import __version__
from cardcore.errors import ConfigError
from cardcore.i18n import DEFAULT_LANG, LANGUAGES
from cardcore.registry import game_class
from cardcore.server.cards_svg import card_svg
from cardcore.server.howto import howto_page
from cardcore.server.languages import preferred_lang, refusal_words, web_words
from cardcore.server.limits import (LOOPBACK_ORIGIN, WS_CLOSE, Guard, Limits, OriginPolicy,
                                    RateBuckets)
from cardcore.server.metrics import CONTENT_TYPE as METRICS_TYPE
from cardcore.server.metrics import health
from cardcore.server.openapi import openapi_spec
from cardcore.server.patches import without_events
from cardcore.server.store import StoreUnavailable
from cardcore.server.tables import (ACK, ApiError, BadCredential, Connection, Table,
                                    TableServer, games_catalogue, request_id, unavailable)

__all__ = ["create_app", "MAX_BODY", "WS_FRAME_CAP"]

log = logging.getLogger("cardcore.server")

Handler = Callable[[Request], Awaitable[Response]]

MAX_BODY = Limits.max_body          # default bytes of a request body or a WebSocket message
# Frames past this are cut by the WebSocket layer itself (close 1009, no error message first);
# messages between max_message and this get the 413 error message, then close 1009.
WS_FRAME_CAP = 1024 * 1024
JSON_TYPES = ("application/json",)
SUBPROTOCOL = "cardcore"                    # offered with the token subprotocol below
TOKEN_SUBPROTOCOL = "cardcore.token."

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


def _error(error: ApiError, words: Callable[[str], str] | None = None) -> JSONResponse:
    body = error.body()
    if words is not None:
        body["error"] = words(error.error)
    return _json(body, error.status)


def _reader_lang(scope: Request | WebSocket, explicit: bool = False) -> str:
    """The language of the page that asks: ``?lang=`` (a socket's, when ``explicit``), else
    its ``Accept-Language``; the server's refusals are written in it (languages.py)."""
    lang = scope.query_params.get("lang") if explicit else None
    if lang in LANGUAGES:
        return lang
    return preferred_lang(scope.headers.get("accept-language", ""))


async def _read_json(request: Request, max_body: int = MAX_BODY) -> Any:
    """The request body as JSON: 415 unless sent as application/json (a cross-site form or
    text/plain POST), 413 past ``max_body`` (read no further), 400 if not JSON."""
    media = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media not in JSON_TYPES:
        raise ApiError(415, "send the body as Content-Type: application/json")
    declared = request.headers.get("content-length")
    if declared is not None:
        if not declared.isdigit():
            raise ApiError(400, "bad Content-Length")
        if int(declared) > max_body:
            raise ApiError(413, f"the body is over {max_body} bytes")
    chunks = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > max_body:
            raise ApiError(413, f"the body is over {max_body} bytes")
        chunks.append(chunk)
    return _parse_json(b"".join(chunks))


async def _read_object(request: Request, max_body: int, fields: set[str]) -> dict[str, Any]:
    """The body as a JSON object of ``fields`` only (400 for another value or field)."""
    body = await _read_json(request, max_body)
    if not isinstance(body, dict):
        raise ApiError(400, "the body must be a JSON object")
    unknown = sorted(str(k) for k in set(body) - fields)
    if unknown:
        raise ApiError(400, f"unknown field {unknown[0][:40]!r}")
    return body


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    body = dict(pairs)
    if len(body) != len(pairs):          # json's default keeps the last: two readings of one body
        raise ApiError(400, "the JSON has a key twice")
    return body


def _no_constant(name: str) -> Any:
    raise ApiError(400, f"the body is not JSON ({name} is not a JSON number)")


def _parse_json(raw: bytes | str) -> Any:
    """Strict JSON (RFC 8259 as exchanged between systems): UTF-8 without a BOM, no key
    twice in an object, no NaN or Infinity; 400 otherwise. (``json.loads`` alone takes UTF-16
    and UTF-32 bytes, a BOM in text, and keeps the last of two keys.)"""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ApiError(400, "the body is not UTF-8") from None
    if raw.startswith("\ufeff"):
        raise ApiError(400, "the body starts with a byte-order mark: send UTF-8 without it")
    try:
        return json.loads(raw, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
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


MAX_PAGE = 100                  # tables per page of GET /api/tables (its default too)


def _count(raw: str | None, name: str, default: int, low: int = 0,
           high: int = 10**12 - 1) -> int:
    """A query value that must be an int low..high (ASCII digits: ``int()`` would take
    "²" or "١" and say so in its own words); 400 naming the parameter otherwise."""
    if raw is None:
        return default
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 12) or not low <= int(raw) <= high:
        raise ApiError(400, f"{name} must be an int {low}..{high}")
    return int(raw)


def _int_query(request: Request, name: str, default: int) -> int:
    return _count(request.query_params.get(name), name, default)


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
    policy = OriginPolicy(allow_origins, allow_hosts)
    creations = RateBuckets(limits.create_rate, limits.create_burst)
    guesses = RateBuckets(limits.guess_rate, limits.guess_burst)     # wrong tokens, invites
    sockets: dict[str, int] = {}                # open WebSockets by client address
    static_dir = Path(str(resources.files("cardcore.server") / "static"))

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        server.resume_bots()
        sweeper = asyncio.create_task(server.sweep_forever())
        yield
        sweeper.cancel()
        await server.close()

    def client_address(request: Request | WebSocket) -> str:
        return request.client.host if request.client is not None else "unknown"

    def guess_wait(address: str) -> None:
        """429 for an address past ``guess_rate`` wrong tokens and invites (before any
        token is looked at, so a guesser costs no store read)."""
        wait = guesses.wait(address, time.monotonic())
        if wait > 0:
            server.refused("guesses")
            raise ApiError(429, f"too many wrong tokens or invites from {address}: at most "
                                f"{limits.guess_rate:g} per second (bursts of "
                                f"{limits.guess_burst}); retry after {math.ceil(wait)} s",
                           retry_after=math.ceil(wait))

    def guessed(address: str) -> None:
        server.metrics.bad_credentials.inc()
        guesses.take(address, time.monotonic())

    async def metrics(request: Request) -> Response:
        return Response(server.metrics.render(), media_type=METRICS_TYPE,
                        headers={"Cache-Control": "no-store"})

    spec = openapi_spec(server.extra_bots)

    async def openapi(request: Request) -> Response:
        return _json(spec)

    async def healthz(request: Request) -> Response:
        status, body = health(server)
        return _json(body, status)

    async def livez(request: Request) -> Response:
        # Liveness: the event loop answers (restart the process only when this fails).
        return _json({"status": "alive"})

    async def readyz(request: Request) -> Response:
        # Readiness: the store answers and the process is not draining (SIGTERM, drain.py).
        if server.draining:
            return _json({"status": "draining", "tables_in_memory": len(server.tables)}, 503)
        status, body = health(server)
        return _json(body, status)

    async def list_games(request: Request) -> Response:
        return _json({"games": games_catalogue(server.extra_bots), "version": __version__})

    async def get_words(request: Request) -> Response:
        lang = request.query_params.get("lang")     # an empty ?lang= is refused, not ignored
        if lang is None:
            lang = preferred_lang(request.headers.get("accept-language", ""))
        game = request.query_params.get("game")
        return _json(web_words(lang, game))

    async def list_tables(request: Request) -> Response:
        over = request.query_params.get("over")
        if over not in (None, "0", "1", "true", "false"):
            raise ApiError(400, "over must be 1, true, 0 or false")
        include_over = over in ("1", "true")
        limit = _count(request.query_params.get("limit"), "limit", MAX_PAGE, 1, MAX_PAGE)
        return _json(server.list_tables(include_over, limit, request.query_params.get("cursor")))

    async def create_table(request: Request) -> Response:
        body = await _read_json(request, limits.max_body)
        if not isinstance(body, dict):
            raise ApiError(400, "the body must be a JSON object")
        unknown = sorted(set(body) - {"game", "players", "seed", "options", "bots",
                                      "client_seed", "clock", "takeback", "open_seats",
                                      "names", "listed", "spectators", "join"})
        if unknown:
            raise ApiError(400, f"unknown field {unknown[0][:40]!r}")
        if "game" not in body:
            raise ApiError(400, "game is required (see GET /api/games)")
        if isinstance(body["game"], str):
            request.state.game = body["game"]         # its words for a refusal (words_for)
        address = client_address(request)
        wait = creations.take(address, time.monotonic())
        if wait > 0:
            server.refused("create_rate")
            raise ApiError(429, f"too many tables created from {address}: at most "
                                f"{limits.create_rate:g} per second (bursts of "
                                f"{limits.create_burst}); retry after {math.ceil(wait)} s",
                           retry_after=math.ceil(wait))
        table, tokens = await server.create(body["game"], body.get("players"),
                                            body.get("seed"), body.get("options"),
                                            body.get("bots"), client=address,
                                            client_seed=body.get("client_seed"),
                                            clock=body.get("clock"),
                                            take_back=body.get("takeback"),
                                            open_seats=body.get("open_seats"),
                                            names=body.get("names"), listed=body.get("listed"),
                                            spectators=body.get("spectators"),
                                            join=body.get("join"))
        creator, table.creator_token = table.creator_token, None
        invite, table.invite = table.invite, None
        fair = table.fairness
        return _json({"table": table.id, "game": table.game.name,
                      "seats": {str(k): t for k, t in tokens.items()},
                      "bots": {str(k): b for k, b in table.bots.items()},
                      "creator_token": creator, "invite": invite,
                      "open_seats": table.open_seats(),
                      "names": {str(k): n for k, n in table.names.items()},
                      "listed": table.listed, "spectators": table.spectators,
                      "join": table.join,
                      "commitment": None if fair is None else fair.commitment,
                      "fairness": None if fair is None else fair.public(),
                      "clock": None if table.clock is None else table.clock.spec.to_dict(),
                      "takeback": table.takeback},
                     201)

    async def delete_table(request: Request) -> Response:
        table = server.get(request.path_params["table"])
        await server.delete(table, _bearer(request))
        return Response(status_code=204, headers=SECURITY_HEADERS)

    async def get_table(request: Request) -> Response:
        table = server.get(request.path_params["table"])
        token = _bearer(request) or request.query_params.get("token")
        seat = _watcher(table, await server.seat_for(table, token))
        since = _int_query(request, "since", 0)
        await server.settled(table)
        return _json(table.state(seat, since, _reader_lang(request, explicit=True)))

    async def get_record(request: Request) -> Response:
        table = server.get(request.path_params["table"])
        _watcher(table, await server.seat_for(table, _bearer(request)))
        return _json(await server.record(table))

    async def get_review(request: Request) -> Response:
        table = server.get(request.path_params["table"])
        _watcher(table, await server.seat_for(table, _bearer(request)))
        raw = request.query_params.get("seat")
        if raw is None:
            raise ApiError(400, "give the seat to review: ?seat=S")
        return _json(await server.review(table, _count(raw, "seat", 0, high=99)))

    async def claim_seat(request: Request) -> Response:
        table = server.get(request.path_params["table"])
        body = await _read_object(request, limits.max_body, {"invite", "name", "seat"})
        if "name" not in body:
            raise ApiError(400, "name is required: the name shown for the seat", field="name")
        seat, token, name = await server.claim(table, body.get("invite"), body["name"],
                                               body.get("seat"))
        return _json({"table": table.id, "seat": seat, "token": token, "name": name}, 201)

    async def leave_seat(request: Request) -> Response:
        table = server.get(request.path_params["table"])
        raw = request.path_params["seat"]
        token = _bearer(request)
        if token is None:
            raise ApiError(401, "leaving a seat needs its token (Authorization: Bearer T)")
        seat = await server.seat_for(table, token)
        if not (raw.isascii() and raw.isdigit() and len(raw) <= 3) or int(raw) != seat:
            raise ApiError(403, "that token is not this seat's")
        await server.leave(table, int(raw))
        return Response(status_code=204, headers=SECURITY_HEADERS)

    async def rematch(request: Request) -> Response:
        table = server.get(request.path_params["table"])
        seat = await server.seat_for(table, _bearer(request))
        made = await server.rematch_of(table, seat, client_address(request))
        new = made if isinstance(made, Table) else server.get(made)
        fair = new.fairness
        return _json({"table": new.id, "from": table.id, "game": new.game.name,
                      "fairness": None if fair is None else fair.public()})

    async def get_hint(request: Request) -> Response:
        table = server.get(request.path_params["table"])
        token = _bearer(request) or request.query_params.get("token")
        return _json(await server.hint(table, await server.seat_for(table, token)))

    async def seat_body(request: Request, table: Table,
                        fields: set[str]) -> tuple[dict[str, Any], int]:
        """A seat's POST: the body (an object of ``fields`` and ``token``) and the seat of
        its token (the body's, else ``Authorization``)."""
        body = await _read_json(request, limits.max_body)
        if not isinstance(body, dict):
            raise ApiError(400, "the body must be a JSON object")
        unknown = sorted(set(body) - fields - {"token"})
        if unknown:
            raise ApiError(400, f"unknown field {str(unknown[0])[:40]!r}")
        token = body.get("token")
        if token is None:
            token = _bearer(request)
        if token is None:
            raise ApiError(403, "a seat token is required (body 'token' or Authorization)")
        seat = await server.seat_for(table, token)
        if seat is None:                             # pragma: no cover - seat_of raised
            raise ApiError(403, "bad token")
        return body, seat

    async def post_action(request: Request) -> Response:
        table = server.get(request.path_params["table"])
        body, seat = await seat_body(request, table, {"action", "after", "cards"})
        if "action" not in body:
            raise ApiError(400, "action is required (an id or a notation)")
        after = body.get("after")
        await server.act(table, seat, body["action"], after, body.get("cards"))
        await server.settled(table)
        return _json(table.state(seat, after if isinstance(after, int) else 0,
                                 _reader_lang(request, explicit=True)))

    async def post_takeback(request: Request) -> Response:
        table = server.get(request.path_params["table"])
        body, seat = await seat_body(request, table, {"after"})
        await server.take_back(table, seat, body.get("after"))
        await server.settled(table)
        return _json({**table.state(seat, 0, _reader_lang(request, explicit=True)),
                      "rewound": True})

    def words_for(scope: Request | WebSocket, explicit: bool = False
                  ) -> Callable[[str], str] | None:
        """Refusals in the reader's language (None: English, as written), with the words of
        the game of the table in the path when it is in memory (or of the table being
        created)."""
        lang = _reader_lang(scope, explicit)
        if lang == DEFAULT_LANG:
            return None
        held = server.tables.get(str(scope.path_params.get("table", "")))
        game = held.game.name if held is not None else getattr(scope.state, "game", None)
        return functools.partial(refusal_words, lang=lang, game=game)

    async def ws_table(websocket: WebSocket) -> None:
        token, subprotocol = _socket_token(websocket)
        words = words_for(websocket, explicit=True)
        address = client_address(websocket)
        try:
            try:
                guess_wait(address)
            except ApiError as e:
                await _refuse(websocket, subprotocol, e, WS_CLOSE["full"], words)
                return
            table = server.get(websocket.path_params["table"])
            seat = _watcher(table, await server.seat_for(table, token))
            since = _count(websocket.query_params.get("since") or None, "since", 0)
            # A client that saw another generation of the log (before a take-back) may be
            # past its end: its first state is then the whole stream, marked rewound.
            rewinds = _count(websocket.query_params.get("rewinds") or None, "rewinds",
                             table.rewinds)
            if not 0 <= since <= table.event_count and rewinds == table.rewinds:
                raise ApiError(400, "since out of range")
            presence = websocket.query_params.get("presence")
            if presence not in (None, "0", "1"):
                raise ApiError(400, "presence must be 0 or 1")
            patches = websocket.query_params.get("patches")
            if patches not in (None, "0", "1"):
                raise ApiError(400, "patches must be 0 or 1")
        except StoreUnavailable as e:         # the seats re-read from a store that is down
            await _refuse(websocket, subprotocol, unavailable(e), WS_CLOSE["storage"], words)
            return
        except ApiError as e:                 # storage unavailable (503): reconnect later
            if isinstance(e, BadCredential):
                guessed(address)
            await _refuse(websocket, subprotocol, e,
                          WS_CLOSE["storage"] if e.status == 503 else WS_CLOSE["refused"],
                          words)
            return
        words = words_for(websocket, explicit=True)        # the table's game is known now
        if seat is None:
            present = sum(1 for c in table.connections if c.seat is None)
            allowed, kind = limits.max_spectators, "spectator"
        else:
            present = sum(1 for c in table.connections if c.seat == seat)
            allowed, kind = limits.max_seat_connections, f"seat {seat}"
        full = None
        if present >= allowed:
            full = ("connections", f"too many {kind} connections to this table "
                                   f"(at most {allowed})")
        elif seat is None and sum(1 for c in table.connections if c.seat is None
                                  and c.address == address) \
                >= limits.max_spectators_per_address:
            full = ("spectators_per_address", f"too many spectator connections to this "
                    f"table from {address} (at most {limits.max_spectators_per_address})")
        elif sockets.get(address, 0) >= limits.max_sockets_per_address:
            full = ("sockets_per_address", f"too many sockets from {address} (at most "
                                           f"{limits.max_sockets_per_address})")
        if full is not None:
            server.refused(full[0])
            await _refuse(websocket, subprotocol, ApiError(503, full[1]), WS_CLOSE["full"],
                          words)
            return
        await websocket.accept(subprotocol=subprotocol)
        connection = Connection(seat, since, limits.message_rate, 2 * limits.message_rate,
                                max_outbox=limits.max_outbox,
                                max_outbox_bytes=limits.max_outbox_bytes)
        connection.address = address
        sockets[address] = sockets.get(address, 0) + 1
        connection.may_auth = token is None          # {"type": "auth"} may come first
        connection.auth_until = time.monotonic() + limits.auth_timeout
        connection.rewinds = rewinds
        connection.words = words
        connection.lang = _reader_lang(websocket, explicit=True)
        connection.wants_presence = presence == "1"
        connection.wants_patches = patches == "1"
        table.connections.add(connection)
        server.presence_changed(table, seat, connection)
        table.offer_record(connection)                  # an ended match: its record too
        sender = asyncio.create_task(_send_loop(websocket, connection, table))
        receiver = asyncio.create_task(_receive_loop(websocket, connection, table))
        try:
            await asyncio.wait({sender, receiver}, return_when=asyncio.FIRST_COMPLETED)
            if connection.close_code is not None and not sender.done():
                # The sender says why (the 413 error) and closes with the code.
                try:
                    await asyncio.wait_for(asyncio.shield(sender), limits.send_timeout)
                except (asyncio.TimeoutError, Exception):
                    pass
            if connection.overflow or connection.stalled:
                server.refused("slow_reader")
                log.warning("table %s: a %s socket was dropped: it did not read (%s)",
                            table.id, "spectator" if seat is None else "seat",
                            "outbox full" if connection.overflow else "send timed out")
        finally:
            connection.closed = True
            left = sockets.pop(address, 1) - 1
            if left > 0:
                sockets[address] = left
            table.connections.discard(connection)
            server.presence_changed(table, connection.seat)
            server.release(table)
            connection.wake.set()
            for task in (sender, receiver):
                task.cancel()
            await asyncio.wait({sender, receiver}, timeout=1.0)
            if connection.overflow or connection.stalled:
                closing = asyncio.ensure_future(websocket.close(code=WS_CLOSE["refused"]))
                await asyncio.wait({closing}, timeout=1.0)
                if not closing.done():
                    closing.cancel()

    async def _send_text(websocket: WebSocket, connection: Connection, text: str) -> None:
        """One send, at most ``send_timeout`` seconds (uvicorn's send waits only while its
        write buffer is past the high-water mark, and that wait ends when cancelled). A
        timeout scope rather than a task per send: four or five sends per action, and a
        task with ``asyncio.wait`` cost several times as much CPU as the send itself."""
        connection.sending = len(text)
        try:
            if sys.version_info >= (3, 11):
                async with asyncio.timeout(limits.send_timeout):
                    await websocket.send_text(text)
            else:                                    # wait_for: a task per send
                await asyncio.wait_for(websocket.send_text(text), limits.send_timeout)
        except asyncio.TimeoutError:
            connection.stalled = True
            raise
        finally:
            connection.sending = 0

    async def _send_loop(websocket: WebSocket, connection: Connection, table: Table) -> None:
        current = table

        async def send_state(rid: str | int | None) -> bool:
            """Send the seat's state with the events not sent yet (with ``"id": rid``, the
            answer to an action); False once the socket is closed (storage failed)."""
            connection.dirty = False
            try:
                await server.settled(current)
            except ApiError:
                current.broken = True
            if current.broken:
                await websocket.close(code=WS_CLOSE["storage"])
                return False
            # After a take-back the socket has not seen, its events are sent again from 0.
            rewound = connection.rewinds != current.rewinds \
                or connection.sent_events > current.event_count
            state = current.state(connection.seat, 0 if rewound else connection.sent_events,
                                  connection.lang)
            connection.sent_events = state["event_count"]
            connection.rewinds = current.rewinds
            message: dict[str, Any] = {"type": "state", **state}
            memo = connection.memo
            if connection.wants_patches:
                # A patch from the last state this socket was sent (never one queued and
                # dropped: states are built here, as they are sent); whole after a rewind.
                if rewound:
                    memo.forget()
                patch, sent = memo.patch(without_events(state))
                memo.forget()                           # until this send has gone out
                if patch is not None:
                    message = {"type": "patch", "events": state["events"], "patch": patch}
            if rewound:
                message["rewound"] = True
            if rid is not None:
                message["id"] = rid
            await _send_text(websocket, connection, json_bytes(message).decode())
            if connection.wants_patches:
                memo.remember(sent)
            while connection.later:                     # the match record, after the end
                await _send_text(websocket, connection,
                                 json_bytes(connection.pop(later=True)).decode())
            return True

        while not connection.closed:
            await connection.wake.wait()
            connection.wake.clear()
            if connection.overflow:                     # a slow reader: ws_table drops it
                return
            while connection.errors:
                message = connection.pop()
                if message["type"] == ACK:            # an action's answer: a fresh state
                    if not await send_state(message["id"]):
                        return
                    continue
                await _send_text(websocket, connection, json_bytes(message).decode())
            if connection.close_code is not None:
                await websocket.close(code=connection.close_code,
                                      reason=connection.close_reason or None)
                return
            if connection.dirty and not await send_state(None):
                return

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
            rid = None
            try:
                if len(raw) > limits.max_message:
                    server.refused("message_size")
                    connection.push_error(ApiError(413, f"the message is over "
                                                        f"{limits.max_message} bytes"))
                    connection.close_code = WS_CLOSE["too_big"]
                    connection.close_reason = f"message over {limits.max_message} bytes"
                    connection.wake.set()
                    return
                if not connection.take_message(time.monotonic()):
                    server.refused("message_rate")
                    raise ApiError(429, f"too many messages: at most "
                                        f"{limits.message_rate:g} per second")
                body = _parse_json(raw)
                if not isinstance(body, dict):
                    raise ApiError(400, "a message must be a JSON object")
                kind = body.get("type")
                may_auth, connection.may_auth = connection.may_auth, False
                if kind == "auth":
                    if may_auth and time.monotonic() > connection.auth_until:
                        raise ApiError(400, f"auth must come within {limits.auth_timeout:g} s "
                                            f"of opening the socket; open it with the token")
                    found: int | None | ApiError
                    try:
                        guess_wait(connection.address)
                        found = await server.seat_for(table, body.get("token")) \
                            if may_auth else None
                    except ApiError as e:
                        if isinstance(e, BadCredential):
                            guessed(connection.address)
                        found = e
                    if not _authenticate(connection, table, found, may_auth, limits):
                        return
                    server.presence_changed(table, connection.seat, connection)
                    continue
                if kind == "ping":
                    connection.push({"type": "pong"})
                    continue
                if kind not in ("action", "takeback"):
                    raise ApiError(400, 'unknown message type; send {"type": "action", ...}')
                rid = request_id(body)
                if connection.seat is None:
                    raise ApiError(403, "spectators cannot act: connect with a seat token")
                if kind == "takeback":
                    await server.take_back(table, connection.seat, body.get("after"))
                    if rid is not None:
                        connection.push_ack(rid)
                    continue
                if "action" not in body:
                    raise ApiError(400, "action is required (an id or a notation)")
                await server.act(table, connection.seat, body["action"], body.get("after"),
                                 body.get("cards"))
                if rid is not None:
                    connection.push_ack(rid)
            except StoreUnavailable as e:
                connection.push_error(unavailable(e), rid)
                connection.notify()
            except ApiError as e:
                connection.push_error(e, rid)
                if e.status == 503:
                    # Nothing was changed, but a client waits for a state after its action:
                    # the table as it is follows the error (or, when the table's storage
                    # broke, the close 1011 that tells it to reconnect).
                    connection.notify()
            if connection.overflow:
                return

    async def index(request: Request) -> Response:
        return _page(static_dir / "index.html")

    async def table_page(request: Request) -> Response:
        return _page(static_dir / "table.html")

    async def game_file(request: Request) -> Response:
        """A game's own web-table part (``web/<file>`` in its package: board.js, its layout hints)."""
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

    async def howto(request: Request) -> Response:
        """A game's how-to-play page (howto.py) in ``?lang=``, else Accept-Language's pick."""
        lang = request.query_params.get("lang")     # an empty ?lang= is refused, not ignored
        if lang is None:
            lang = preferred_lang(request.headers.get("accept-language", ""))
        try:
            page = howto_page(request.path_params["game"], lang)
        except ConfigError as e:
            if e.option == "lang":
                raise ApiError(422, str(e), option="lang") from None
            raise ApiError(404, "no such game") from None
        if page is None:
            raise ApiError(404, f"no how-to-play page in {lang}")
        return Response(page, media_type="text/html", headers=SECURITY_HEADERS)

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
        response = _json({"error": message}, status)
        allow = (getattr(exc, "headers", None) or {}).get("Allow")
        if allow:
            response.headers["Allow"] = allow
        return response

    def api(path: str, handlers: dict[str, Handler]) -> Route:
        """One route per path, its handler by method (so that a 405 lists every method of the
        path in its Allow header)."""
        async def endpoint(request: Request) -> Response:
            method = "GET" if request.method == "HEAD" else request.method
            try:
                try:
                    if "table" in request.path_params:
                        guess_wait(client_address(request))
                    return await handlers[method](request)
                except StoreUnavailable as e:    # PostgreSQL down: it reconnects by itself
                    raise unavailable(e) from None
                except BadCredential:
                    guessed(client_address(request))
                    raise
            except ApiError as e:
                response = _error(e, words_for(request))
                if e.status in (429, 503) and "retry_after" in e.details:
                    response.headers["Retry-After"] = str(e.details["retry_after"])
                if e.status == 401:
                    response.headers["WWW-Authenticate"] = "Bearer"
                return response
            except Exception:                   # a bug: say so in JSON, keep serving
                log.exception("error in %s %s", request.method, request.url.path)
                return _json({"error": "internal error"}, 500)
        return Route(path, endpoint, methods=list(handlers))

    routes = [
        api("/api/games", {"GET": list_games}),
        api("/api/i18n", {"GET": get_words}),
        api("/healthz", {"GET": healthz}),
        api("/livez", {"GET": livez}),
        api("/readyz", {"GET": readyz}),
        api("/metrics", {"GET": metrics}),
        api("/openapi.json", {"GET": openapi}),
        api("/api/tables", {"GET": list_tables, "POST": create_table}),
        api("/api/tables/{table}", {"GET": get_table, "DELETE": delete_table}),
        api("/api/tables/{table}/actions", {"POST": post_action}),
        api("/api/tables/{table}/hint", {"GET": get_hint}),
        api("/api/tables/{table}/takeback", {"POST": post_takeback}),
        api("/api/tables/{table}/record", {"GET": get_record}),
        api("/api/tables/{table}/review", {"GET": get_review}),
        api("/howto/{game}", {"GET": howto}),
        api("/api/tables/{table}/seats", {"POST": claim_seat}),
        api("/api/tables/{table}/seats/{seat}", {"DELETE": leave_seat}),
        api("/api/tables/{table}/rematch", {"POST": rematch}),
        WebSocketRoute("/ws/tables/{table}", ws_table),
        Route("/", index, methods=["GET"]),
        Route("/tables/{table}", table_page, methods=["GET"]),
        Route("/cards/{card}.svg", card, methods=["GET"]),
        Route("/games/{game}/{file}", game_file, methods=["GET"]),
        Mount("/static", StaticFiles(directory=str(static_dir)), name="static"),
    ]
    cors = policy.cors_origins()
    middleware = [
        Middleware(Guard, policy=policy, max_header_bytes=limits.max_header_bytes,
                   on_refusal=server.refused),
        Middleware(CORSMiddleware, allow_origins=cors,
                   allow_origin_regex=None if "*" in cors else LOOPBACK_ORIGIN,
                   allow_methods=["GET", "POST", "DELETE"],
                   allow_headers=["Authorization", "Content-Type"], max_age=600),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=middleware,
                    exception_handlers={HTTPException: not_found})
    # No trailing-slash redirects: Starlette's would send an absolute Location carrying the
    # query (and so a ?token=) back; /api/tables/ is a 404 like any unknown path.
    app.router.redirect_slashes = False
    app.state.tables = server
    app.state.limits = limits
    return app


def _watcher(table: Table, seat: int | None) -> int | None:
    """``seat``, or 403 for a token-less read of a table that admits no spectators."""
    if seat is None and not table.spectators:
        raise ApiError(403, "this table admits no spectators: give a seat token")
    return seat


def _authenticate(connection: Connection, table: Table, seat: int | None | ApiError,
                  allowed: bool, limits: Limits) -> bool:
    """``{"type": "auth", "token": T}``, the first message of a socket opened without a
    token (``seat``: its token's seat, or the refusal of the token): the socket becomes the
    seat's, and its next state is the seat's from the socket's ``since`` again. False (the
    socket is to close) for a bad token or a full seat."""
    if not allowed:
        raise ApiError(400, "auth must be the first message of a socket opened without a "
                            "token")
    try:
        if isinstance(seat, ApiError):
            raise seat
        if seat is None:
            raise ApiError(403, "auth needs a token")
        if sum(1 for c in table.connections if c.seat == seat) >= limits.max_seat_connections:
            connection.close_code = WS_CLOSE["full"]
            raise ApiError(503, f"too many seat {seat} connections to this table "
                                f"(at most {limits.max_seat_connections})")
    except ApiError as e:
        connection.push_error(e)
        if connection.close_code is None:
            connection.close_code = WS_CLOSE["refused"]
        connection.wake.set()
        return False
    connection.seat = seat
    connection.sent_events = connection.since
    connection.memo.forget()                     # another seat's state: the next one is whole
    connection.notify()
    return True


def _socket_token(websocket: WebSocket) -> tuple[str | None, str | None]:
    """The seat token of a socket and the subprotocol to answer with: the token from a
    ``cardcore.token.TOKEN`` subprotocol (offered with ``cardcore``), else ``?token=``."""
    token = None
    chosen = None
    for offered in websocket.scope.get("subprotocols") or []:
        if offered == SUBPROTOCOL:
            chosen = SUBPROTOCOL
        elif offered.startswith(TOKEN_SUBPROTOCOL):
            token = offered[len(TOKEN_SUBPROTOCOL):]
    if token is None:
        token = websocket.query_params.get("token")
    return token, chosen


async def _refuse(websocket: WebSocket, subprotocol: str | None, error: ApiError,
                  code: int, words: Callable[[str], str] | None = None) -> None:
    """A socket refused as documented: accepted, one error message, then closed."""
    await websocket.accept(subprotocol=subprotocol)
    body = error.body()
    if words is not None:
        body["error"] = words(error.error)
    await websocket.send_text(json_bytes({"type": "error", "status": error.status,
                                          **body}).decode())
    await websocket.close(code=code)


def _page(path: Path) -> Response:
    return Response(path.read_text(encoding="utf-8"), media_type="text/html",
                    headers=SECURITY_HEADERS)
