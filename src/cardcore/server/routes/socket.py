"""A table's WebSocket (docs/server.md, "WebSocket"): who may connect, the states and
patches sent, the actions received."""
from __future__ import annotations

import asyncio
import logging
import sys
import time
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

from starlette.websockets import WebSocket, WebSocketDisconnect

from cardcore.errors import Words
from cardcore.i18n import N_
from cardcore.server.api_errors import ApiError, BadCredential, unavailable
from cardcore.server.backpressure import WRITABLE
from cardcore.server.http import int_param, json_bytes, parse_json, reader_lang
from cardcore.server.limits import RETRY_FULL_SECONDS, WS_CLOSE, Limits
from cardcore.server.messages import ACTION_REQUIRED, MESSAGE_RATE
from cardcore.server.patches import without_events
from cardcore.server.routes.context import Context, watcher
from cardcore.server.sockets import ACK, Connection, request_id
from cardcore.server.store import StoreUnavailable
from cardcore.server.tables import Table

log = logging.getLogger("cardcore.server")

SUBPROTOCOL = "cardcore"                    # offered with the token subprotocol below
TOKEN_SUBPROTOCOL = "cardcore.token."


async def ws_table(ctx: Context, websocket: WebSocket) -> None:
    token, subprotocol = socket_token(websocket)
    words = ctx.words_for(websocket, explicit=True)
    address = ctx.client_address(websocket)
    try:
        try:
            ctx.guess_wait(address)
        except ApiError as e:
            await refuse(websocket, subprotocol, e, WS_CLOSE["full"], words)
            return
        table = await ctx.server.table_to_act(websocket.path_params["table"])
        seat = watcher(table, await ctx.server.seat_for(table, token))
        query = socket_query(websocket, table)
    except StoreUnavailable as e:         # the seats re-read from a store that is down
        await refuse(websocket, subprotocol, unavailable(e), WS_CLOSE["storage"], words)
        return
    except ApiError as e:                 # storage unavailable (503): reconnect later
        if isinstance(e, BadCredential):
            ctx.guessed(address)
        await refuse(websocket, subprotocol, e,
                     WS_CLOSE["storage"] if e.status == 503 else WS_CLOSE["refused"],
                     words)
        return
    words = ctx.words_for(websocket, explicit=True)        # the table's game is known now
    full = too_full(ctx, table, seat, address)
    if full is not None:
        ctx.server.refused(full.reason)
        # Told when to try again: a seat behind a crowded NAT gets in once a place frees.
        await refuse(websocket, subprotocol,
                     ApiError(503, full.words, retry_after=RETRY_FULL_SECONDS),
                     WS_CLOSE["full"], words)
        return
    await websocket.accept(subprotocol=subprotocol)
    connection = Connection(seat, query.since, ctx.limits.message_rate, 2 * ctx.limits.message_rate,
                            max_outbox=ctx.limits.max_outbox,
                            max_outbox_bytes=ctx.limits.max_outbox_bytes)
    connection.address = address
    ctx.sockets[address] = ctx.sockets.get(address, 0) + 1
    connection.may_auth = token is None          # {"type": "auth"} may come first
    connection.auth_until = time.monotonic() + ctx.limits.auth_timeout
    connection.rewinds = query.rewinds
    connection.words = words
    connection.lang = reader_lang(websocket, explicit=True)
    connection.wants_presence = query.presence
    connection.wants_patches = query.patches
    table.audience.sockets.add(connection)
    ctx.server.presence_changed(table, seat, connection)
    table.offer_record(connection)                  # an ended match: its record too
    sender = asyncio.create_task(send_loop(ctx, websocket, connection, table))
    receiver = asyncio.create_task(receive_loop(ctx, websocket, connection, table))
    try:
        await asyncio.wait({sender, receiver}, return_when=asyncio.FIRST_COMPLETED)
        if connection.close_code is not None and not sender.done():
            # The sender says why (the 413 error) and closes with the code.
            try:
                await asyncio.wait_for(asyncio.shield(sender), ctx.limits.send_timeout)
            except (asyncio.TimeoutError, Exception):
                pass
        if connection.overflow or connection.stalled:
            ctx.server.refused("slow_reader")
            log.warning("table %s: a %s socket was dropped: it did not read (%s)",
                        table.id, "spectator" if seat is None else "seat",
                        "outbox full" if connection.overflow else "send timed out")
    finally:
        connection.closed = True
        left = ctx.sockets.pop(address, 1) - 1
        if left > 0:
            ctx.sockets[address] = left
        table.audience.sockets.discard(connection)
        ctx.server.presence_changed(table, connection.seat)
        ctx.server.release(table)
        connection.wake.set()
        for task in (sender, receiver):
            task.cancel()
        await asyncio.wait({sender, receiver}, timeout=1.0)
        if connection.overflow or connection.stalled:
            closing = asyncio.ensure_future(websocket.close(code=WS_CLOSE["refused"]))
            await asyncio.wait({closing}, timeout=1.0)
            if not closing.done():
                closing.cancel()


@dataclass(frozen=True)
class SocketQuery:
    """What a socket asked for in its URL: events from ``since`` of the log's generation
    ``rewinds``, presence messages, patches."""

    since: int
    rewinds: int
    presence: bool
    patches: bool


def socket_query(websocket: WebSocket, table: Table) -> SocketQuery:
    """The socket's query parameters, checked (ApiError 400 naming a bad one)."""
    params = websocket.query_params
    since = int_param(params.get("since") or None, "since", 0)
    # A client that saw another generation of the log (before a take-back) may be
    # past its end: its first state is then the whole stream, marked rewound.
    rewinds = int_param(params.get("rewinds") or None, "rewinds", table.rewinds)
    if not 0 <= since <= table.event_count and rewinds == table.rewinds:
        raise ApiError(400, N_("since out of range"))
    presence = params.get("presence")
    if presence not in (None, "0", "1"):
        raise ApiError(400, N_("presence must be 0 or 1"))
    patches = params.get("patches")
    if patches not in (None, "0", "1"):
        raise ApiError(400, N_("patches must be 0 or 1"))
    return SocketQuery(since, rewinds, presence == "1", patches == "1")


@dataclass(frozen=True)
class Full:
    """Why a socket is one too many: the refusal's ``reason`` (its metric) and its words."""
    reason: str
    words: Words


def too_full(ctx: Context, table: Table, seat: int | None, address: str) -> Full | None:
    """Why a socket of ``seat`` from ``address`` is one too many (the refusal's reason
    and its text), or None: the table's sockets per seat or spectators, the spectators
    per address, the sockets per address."""
    if seat is None:
        present = table.audience.count(None)
        allowed = ctx.limits.max_spectators
    else:
        present = table.audience.count(seat)
        allowed = ctx.limits.max_seat_connections
    if present >= allowed:
        return Full("connections", seat_full(seat, allowed))
    if seat is None and sum(1 for c in table.audience if c.seat is None
                            and c.address == address) \
            >= ctx.limits.max_spectators_per_address:
        return Full("spectators_per_address", Words(
            N_("too many spectator connections to this table from {address} (at most "
               "{limit})"), {"address": address, "limit": ctx.limits.max_spectators_per_address}))
    if ctx.sockets.get(address, 0) >= ctx.limits.max_sockets_per_address:
        return Full("sockets_per_address", Words(
            N_("too many sockets from {address} (at most {limit})"),
            {"address": address, "limit": ctx.limits.max_sockets_per_address}))
    return None


def seat_full(seat: int | None, limit: int) -> Words:
    """The refusal of one socket too many of ``seat`` (None: a spectator) at a table."""
    if seat is None:
        return Words(N_("too many spectator connections to this table (at most {limit})"),
                     {"limit": limit})
    return Words(N_("too many seat {seat} connections to this table (at most {limit})"),
                 {"seat": seat, "limit": limit})


async def send_text(ctx: Context, websocket: WebSocket, connection: Connection,
                    text: str) -> None:
    """One send, at most ``send_timeout`` seconds (uvicorn's send waits only while its
    write buffer is past the high-water mark, and that wait ends when cancelled). A
    timeout scope rather than a task per send: four or five sends per action, and a
    task with ``asyncio.wait`` cost several times as much CPU as the send itself; and no
    scope at all while the buffer is below the mark (``backpressure.WRITABLE``)."""
    connection.sending = len(text)
    writable = websocket.scope.get(WRITABLE)
    try:
        if writable is not None and writable.is_set():
            # Below the high-water mark the send cannot wait: no timeout to arm (most sends;
            # the scope cost about a sixth of a push's send).
            await websocket.send_text(text)
        elif sys.version_info >= (3, 11):
            async with asyncio.timeout(ctx.limits.send_timeout):
                await websocket.send_text(text)
        else:                                    # wait_for: a task per send
            await asyncio.wait_for(websocket.send_text(text), ctx.limits.send_timeout)
    except asyncio.TimeoutError:
        connection.stalled = True
        raise
    finally:
        connection.sending = 0


async def send_loop(ctx: Context, websocket: WebSocket, connection: Connection,
                    table: Table) -> None:
    current = table

    async def send_state(rid: str | int | None) -> bool:
        """Send the seat's state with the events not sent yet (with ``"id": rid``, the
        answer to an action); False once the socket is closed (storage failed)."""
        connection.dirty = False
        try:
            await ctx.server.settled(current)
        except ApiError:
            current.broken = True
        if current.broken:
            await websocket.close(code=WS_CLOSE["storage"])
            return False
        # After a take-back the socket has not seen, its events are sent again from 0.
        rewound = connection.rewinds != current.rewinds \
            or connection.sent_events > current.event_count
        # A whole state splices what every reader shares, serialised once (push_state);
        # a patch is made from plain values.
        build = current.state if connection.wants_patches else current.push_state
        state = build(connection.seat, 0 if rewound else connection.sent_events,
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
        await send_text(ctx, websocket, connection, json_bytes(message).decode())
        if connection.wants_patches:
            memo.remember(sent)
        while connection.later:                     # the match record, after the end
            await send_text(ctx, websocket, connection,
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
            await send_text(ctx, websocket, connection, json_bytes(message).decode())
        if connection.close_code is not None:
            await websocket.close(code=connection.close_code,
                                  reason=connection.close_reason or None)
            return
        if connection.dirty and not await send_state(None):
            return


@dataclass(frozen=True)
class Received:
    """One message a socket received, as its handler reads it: the JSON object and whether
    it may be the socket's ``auth`` (its first message, the socket opened without a token)."""
    body: dict[str, Any]
    may_auth: bool


# A handler answers one type of message; False: the socket is to close.
MessageHandler = Callable[[Context, Connection, Table, Received], Awaitable[bool]]


@dataclass(frozen=True)
class MessageType:
    """How a type of message is answered: its handler, and whether it is a seat's move
    (``acts``: it may carry an ``id``, acknowledged after it; refused to a spectator)."""
    handle: MessageHandler
    acts: bool = False


async def on_auth(ctx: Context, connection: Connection, table: Table,
                  received: Received) -> bool:
    may_auth = received.may_auth
    if may_auth and time.monotonic() > connection.auth_until:
        raise ApiError(400, Words(N_("auth must come within {seconds} s of opening the "
                                     "socket; open it with the token"),
                                  {"seconds": f"{ctx.limits.auth_timeout:g}"}))
    found: int | None | ApiError
    try:
        ctx.guess_wait(connection.address)
        found = await ctx.server.seat_for(table, received.body.get("token")) \
            if may_auth else None
    except ApiError as e:
        if isinstance(e, BadCredential):
            ctx.guessed(connection.address)
        found = e
    if not authenticate(connection, table, found, may_auth, ctx.limits):
        return False
    ctx.server.presence_changed(table, connection.seat, connection)
    return True


async def on_ping(ctx: Context, connection: Connection, table: Table,
                  received: Received) -> bool:
    connection.push({"type": "pong"})
    return True


async def on_action(ctx: Context, connection: Connection, table: Table,
                    received: Received) -> bool:
    body = received.body
    if "action" not in body:
        raise ApiError(400, ACTION_REQUIRED)
    assert connection.seat is not None                  # MessageType.acts: checked
    await ctx.server.act(table, connection.seat, body["action"], body.get("after"),
                         body.get("cards"))
    return True


async def on_takeback(ctx: Context, connection: Connection, table: Table,
                      received: Received) -> bool:
    assert connection.seat is not None                  # MessageType.acts: checked
    await ctx.server.take_back(table, connection.seat, received.body.get("after"))
    return True


# The messages a client may send (docs/server.md, "WebSocket"); any other type is a 400.
MESSAGE_TYPES: dict[str, MessageType] = {
    "auth": MessageType(on_auth),
    "ping": MessageType(on_ping),
    "action": MessageType(on_action, acts=True),
    "takeback": MessageType(on_takeback, acts=True),
}


async def receive_loop(ctx: Context, websocket: WebSocket, connection: Connection,
                       table: Table) -> None:
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
            if len(raw) > ctx.limits.max_message:
                ctx.server.refused("message_size")
                connection.push_error(ApiError(413, Words(
                    N_("the message is over {limit} bytes"), {"limit": ctx.limits.max_message})))
                connection.close_code = WS_CLOSE["too_big"]
                connection.close_reason = f"message over {ctx.limits.max_message} bytes"
                connection.wake.set()
                return
            if not connection.take_message(time.monotonic()):
                ctx.server.refused("message_rate")
                raise ApiError(429, Words(MESSAGE_RATE,
                                          {"rate": f"{ctx.limits.message_rate:g}"}))
            body = parse_json(raw)
            if not isinstance(body, dict):
                raise ApiError(400, N_("a message must be a JSON object"))
            name = body.get("type")
            may_auth, connection.may_auth = connection.may_auth, False
            kind = MESSAGE_TYPES.get(name) if isinstance(name, str) else None
            if kind is None:
                raise ApiError(400, N_('unknown message type; send {"type": "action", ...}'))
            if kind.acts:
                rid = request_id(body)
                if connection.seat is None:
                    raise ApiError(403, N_("spectators cannot act: connect with a seat token"))
            if not await kind.handle(ctx, connection, table, Received(body, may_auth)):
                return
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


def authenticate(connection: Connection, table: Table, seat: int | None | ApiError,
                 allowed: bool, limits: Limits) -> bool:
    """``{"type": "auth", "token": T}``, the first message of a socket opened without a
    token (``seat``: its token's seat, or the refusal of the token): the socket becomes the
    seat's, and its next state is the seat's from the socket's ``since`` again. False (the
    socket is to close) for a bad token or a full seat."""
    if not allowed:
        raise ApiError(400, N_("auth must be the first message of a socket opened without "
                               "a token"))
    try:
        if isinstance(seat, ApiError):
            raise seat
        if seat is None:
            raise ApiError(403, N_("auth needs a token"))
        if table.audience.count(seat) >= limits.max_seat_connections:
            connection.close_code = WS_CLOSE["full"]
            raise ApiError(503, seat_full(seat, limits.max_seat_connections))
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


def socket_token(websocket: WebSocket) -> tuple[str | None, str | None]:
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


async def refuse(websocket: WebSocket, subprotocol: str | None, error: ApiError,
                 code: int, words: Callable[[ApiError], str] | None = None) -> None:
    """A socket refused as documented: accepted, one error message, then closed."""
    await websocket.accept(subprotocol=subprotocol)
    body = error.body()
    if words is not None:
        body["error"] = words(error)
    await websocket.send_text(json_bytes({"type": "error", "status": error.status,
                                          **body}).decode())
    await websocket.close(code=code)
