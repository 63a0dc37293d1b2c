"""The web table's pages, and the JSON answer to a path or method that does not exist."""
from __future__ import annotations

from pathlib import Path

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from cardcore.i18n import N_
from cardcore.server.api_errors import ApiError
from cardcore.server.http import SECURITY_HEADERS, error_response, reader_lang
from cardcore.server.messages import NOT_FOUND
from cardcore.server.routes.context import Context


async def index(ctx: Context, request: Request) -> Response:
    return page(ctx.static_dir / "index.html")


async def table_page(ctx: Context, request: Request) -> Response:
    return page(ctx.static_dir / "table.html")


async def not_found(request: Request, exc: Exception) -> Response:
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    error = ApiError(status, {404: NOT_FOUND, 405: N_("method not allowed")}.get(
        status, N_("internal error")))
    lang = reader_lang(request)
    response = error_response(error, lambda e: e.text(lang))
    allow = (getattr(exc, "headers", None) or {}).get("Allow")
    if allow:
        response.headers["Allow"] = allow
    return response


def page(path: Path) -> Response:
    return Response(path.read_text(encoding="utf-8"), media_type="text/html",
                    headers=SECURITY_HEADERS)
