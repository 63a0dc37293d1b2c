"""Seats: claim an open seat (by invite or from the list), leave one."""
from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from cardcore.i18n import N_
from cardcore.server.api_errors import ApiError
from cardcore.server.http import SECURITY_HEADERS, bearer_token, json_response, read_object
from cardcore.server.requests import ClaimRequest, fields_of
from cardcore.server.responses import Claimed
from cardcore.server.routes.context import Context


async def claim_seat(ctx: Context, request: Request) -> Response:
    table = await ctx.server.table_to_act(request.path_params["table"])
    body = await read_object(request, ctx.limits.max_body, fields_of(ClaimRequest))
    if "name" not in body:
        raise ApiError(400, N_("name is required: the name shown for the seat"), field="name")
    seat, token, name = await ctx.server.claim(table, body.get("invite"), body["name"],
                                               body.get("seat"))
    claimed: Claimed = {"table": table.id, "seat": seat, "token": token, "name": name}
    return json_response(claimed, 201)


async def leave_seat(ctx: Context, request: Request) -> Response:
    table = await ctx.server.table_to_act(request.path_params["table"])
    raw = request.path_params["seat"]
    token = bearer_token(request)
    if token is None:
        raise ApiError(401, N_("leaving a seat needs its token (Authorization: Bearer T)"))
    seat = await ctx.server.seat_for(table, token)
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 3) or int(raw) != seat:
        raise ApiError(403, N_("that token is not this seat's"))
    await ctx.server.leave(table, int(raw))
    return Response(status_code=204, headers=SECURITY_HEADERS)
