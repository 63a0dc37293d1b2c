"""Operations: metrics, the OpenAPI document, health, liveness and readiness
(docs/operations.md)."""
from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from cardcore.server.http import json_response
from cardcore.server.metrics import CONTENT_TYPE as METRICS_TYPE
from cardcore.server.metrics import health
from cardcore.server.routes.context import Context


async def metrics(ctx: Context, request: Request) -> Response:
    await ctx.server.vitals.recount()          # the store's counts, off the loop
    return Response(ctx.server.metrics.render(), media_type=METRICS_TYPE,
                    headers={"Cache-Control": "no-store"})


async def openapi(ctx: Context, request: Request) -> Response:
    return json_response(ctx.spec)


async def healthz(ctx: Context, request: Request) -> Response:
    status, body = health(ctx.server)
    return json_response(body, status)


async def livez(ctx: Context, request: Request) -> Response:
    # Liveness: the event loop answers (restart the process only when this fails).
    return json_response({"status": "alive"})


async def readyz(ctx: Context, request: Request) -> Response:
    # Readiness: the store answers and the process is not draining (SIGTERM, drain.py).
    if ctx.server.draining:
        return json_response({"status": "draining",
                              "tables_in_memory": len(ctx.server.tables)}, 503)
    status, body = health(ctx.server)
    return json_response(body, status)
