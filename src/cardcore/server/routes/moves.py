"""A seat's moves over HTTP: an action, a take-back, a hint."""
from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from cardcore.errors import Words, echo
from cardcore.i18n import N_
from cardcore.server.api_errors import ApiError
from cardcore.server.messages import ACTION_REQUIRED, BAD_TOKEN, BODY_NOT_OBJECT, UNKNOWN_FIELD
from cardcore.server.event_pages import page_start, paged_state
from cardcore.server.requests import ActionRequest, TakebackRequest, fields_of
from cardcore.server.http import bearer_token, json_response, read_json, reader_lang
from cardcore.server.routes.context import Context
from cardcore.server.tables import Table


async def get_hint(ctx: Context, request: Request) -> Response:
    table = await ctx.server.table_to_act(request.path_params["table"])
    token = bearer_token(request) or request.query_params.get("token")
    return json_response(await ctx.server.hint(table, await ctx.server.seat_for(table, token)))


async def seat_body(ctx: Context, request: Request, table: Table,
                    fields: frozenset[str]) -> tuple[dict[str, Any], int]:
    """A seat's POST: the body (an object of ``fields`` and ``token``) and the seat of
    its token (the body's, else ``Authorization``)."""
    body = await read_json(request, ctx.limits.max_body)
    if not isinstance(body, dict):
        raise ApiError(400, BODY_NOT_OBJECT)
    unknown = sorted(set(body) - fields - {"token"})
    if unknown:
        raise ApiError(400, Words(UNKNOWN_FIELD, {"name": echo(str(unknown[0]))}))
    token = body.get("token")
    if token is None:
        token = bearer_token(request)
    if token is None:
        raise ApiError(403, N_("a seat token is required (body 'token' or Authorization)"))
    seat = await ctx.server.seat_for(table, token)
    if seat is None:                             # pragma: no cover - seat_of raised
        raise ApiError(403, BAD_TOKEN)
    return body, seat


async def post_action(ctx: Context, request: Request) -> Response:
    table = await ctx.server.table_to_act(request.path_params["table"])
    body, seat = await seat_body(ctx, request, table, fields_of(ActionRequest))
    if "action" not in body:
        raise ApiError(400, ACTION_REQUIRED)
    after = body.get("after")
    await ctx.server.act(table, seat, body["action"], after, body.get("cards"))
    await ctx.server.settled(table)
    # The events after ``after`` (one page: bots may have moved too), else the last page.
    since = min(after, table.event_count) if isinstance(after, int) \
        else page_start(None, table.event_count)
    return json_response(paged_state(table, seat, since, reader_lang(request, explicit=True)))


async def post_takeback(ctx: Context, request: Request) -> Response:
    table = await ctx.server.table_to_act(request.path_params["table"])
    body, seat = await seat_body(ctx, request, table, fields_of(TakebackRequest))
    await ctx.server.take_back(table, seat, body.get("after"))
    await ctx.server.settled(table)
    return json_response({**paged_state(table, seat, page_start(None, table.event_count),
                                        reader_lang(request, explicit=True)),
                          "rewound": True})
