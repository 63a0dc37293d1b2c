"""Tables: list, create, read, delete; a finished table's record and review; a rematch."""
from __future__ import annotations

import math
import time

from starlette.requests import Request
from starlette.responses import Response

from cardcore.errors import Words, echo
from cardcore.i18n import N_
from cardcore.server.api_errors import ApiError
from cardcore.server.messages import BODY_NOT_OBJECT, UNKNOWN_FIELD
from cardcore.server.event_pages import page_start, paged_state
from cardcore.server.http import (MAX_PAGE, SECURITY_HEADERS, bearer_token, int_param,
                                  json_response, read_json, reader_lang)
from cardcore.server.requests import NewTableRequest, fields_of
from cardcore.server.responses import Created, RematchMade, public_fairness
from cardcore.server.routes.context import Context, watcher
from cardcore.server.tables import NewTable, Table


async def list_tables(ctx: Context, request: Request) -> Response:
    over = request.query_params.get("over")
    if over not in (None, "0", "1", "true", "false"):
        raise ApiError(400, N_("over must be 1, true, 0 or false"))
    include_over = over in ("1", "true")
    limit = int_param(request.query_params.get("limit"), "limit", MAX_PAGE, 1, MAX_PAGE)
    cursor = request.query_params.get("cursor")
    return json_response(await ctx.server.list_tables(include_over, limit, cursor))


async def create_table(ctx: Context, request: Request) -> Response:
    body = await read_json(request, ctx.limits.max_body)
    if not isinstance(body, dict):
        raise ApiError(400, BODY_NOT_OBJECT)
    unknown = sorted(set(body) - fields_of(NewTableRequest))
    if unknown:
        raise ApiError(400, Words(UNKNOWN_FIELD, {"name": echo(unknown[0])}))
    if "game" not in body:
        raise ApiError(400, N_("game is required (see GET /api/games)"))
    if isinstance(body["game"], str):
        request.state.game = body["game"]         # its words for a refusal (words_for)
    address = ctx.client_address(request)
    wait = ctx.creations.take(address, time.monotonic())
    if wait > 0:
        ctx.server.refused("create_rate")
        raise ApiError(429, Words(N_("too many tables created from {address}: at most {rate} "
                                 "per second (bursts of {burst}); retry after {seconds} s"),
                              {"address": address, "rate": f"{ctx.limits.create_rate:g}",
                               "burst": ctx.limits.create_burst, "seconds": math.ceil(wait)}),
                       retry_after=math.ceil(wait))
    table, tokens = await ctx.server.create(NewTable(
        body["game"], body.get("players"), body.get("seed"), body.get("options"),
        body.get("bots"), client=address, client_seed=body.get("client_seed"),
        clock=body.get("clock"), takeback=body.get("takeback"),
        open_seats=body.get("open_seats"), names=body.get("names"), listed=body.get("listed"),
        spectators=body.get("spectators"), join=body.get("join")))
    creator, table.creator_token = table.creator_token, None
    invite, table.invite = table.invite, None
    fair = table.settings.fairness
    assert creator is not None and invite is not None       # a new table's: never None
    created: Created = {"table": table.id, "game": table.game.name,
                        "seats": {str(k): t for k, t in tokens.items()},
                        "bots": {str(k): b for k, b in table.settings.bots.items()},
                        "creator_token": creator, "invite": invite,
                        "open_seats": table.open_seats(),
                        "names": {str(k): n for k, n in table.names.items()},
                        "listed": table.settings.listed, "spectators": table.settings.spectators,
                        "join": table.settings.join,
                        "commitment": None if fair is None else fair.commitment,
                        "fairness": public_fairness(fair),
                        "clock": None if table.clock is None else table.clock.spec.to_dict(),
                        "takeback": table.settings.takeback}
    return json_response(created, 201)


async def delete_table(ctx: Context, request: Request) -> Response:
    # A deletion is the store's (any process may make it): the process serving the table
    # hears of it and closes its sockets (410, then 4000).
    table = await ctx.server.table_to_read(request.path_params["table"])
    await ctx.server.delete(table, bearer_token(request))
    return Response(status_code=204, headers=SECURITY_HEADERS)


async def get_table(ctx: Context, request: Request) -> Response:
    table = await ctx.server.table_to_read(request.path_params["table"])
    token = bearer_token(request) or request.query_params.get("token")
    seat = watcher(table, await ctx.server.seat_for(table, token))
    await ctx.server.settled(table)
    since = page_start(request.query_params.get("since"), table.event_count)
    return json_response(paged_state(table, seat, since, reader_lang(request, explicit=True)))


async def get_record(ctx: Context, request: Request) -> Response:
    table = await ctx.server.table_to_read(request.path_params["table"])
    watcher(table, await ctx.server.seat_for(table, bearer_token(request)))
    return json_response(await ctx.server.record(table))


async def get_review(ctx: Context, request: Request) -> Response:
    table = await ctx.server.table_to_read(request.path_params["table"])
    watcher(table, await ctx.server.seat_for(table, bearer_token(request)))
    raw = request.query_params.get("seat")
    if raw is None:
        raise ApiError(400, N_("give the seat to review: ?seat=S"))
    return json_response(await ctx.server.review(table, int_param(raw, "seat", 0, high=99)))


async def rematch(ctx: Context, request: Request) -> Response:
    table = await ctx.server.table_to_act(request.path_params["table"])
    seat = await ctx.server.seat_for(table, bearer_token(request))
    made = await ctx.server.rematch_of(table, seat, ctx.client_address(request))
    new = made if isinstance(made, Table) else await ctx.server.table_to_read(made)
    fair = new.settings.fairness
    made_now: RematchMade = {"table": new.id, "from": table.id, "game": new.game.name,
                             "fairness": public_fairness(fair)}
    return json_response(made_now)
