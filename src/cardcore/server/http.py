"""Requests and responses as every route of the server reads and writes them: strict JSON
bodies, integer parameters, seat tokens, and JSON answers with the security headers."""
from __future__ import annotations

import json
from typing import Any, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.websockets import WebSocket

from cardcore.errors import Words, echo
from cardcore.i18n import LANGUAGES, N_
from cardcore.server.languages import preferred_lang
from cardcore.server.limits import Limits
from cardcore.server.api_errors import ApiError
from cardcore.server.messages import BODY_NOT_OBJECT, BODY_TOO_BIG, INT_RANGE, UNKNOWN_FIELD

MAX_BODY = Limits.max_body          # default bytes of a request body or a WebSocket message
JSON_TYPES = ("application/json",)

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


def json_response(body: Any, status: int = 200) -> JSONResponse:
    return FastJSONResponse(body, status_code=status, headers=SECURITY_HEADERS)


def error_response(error: ApiError, words: Callable[[ApiError], str] | None = None
                   ) -> JSONResponse:
    """The refusal as JSON (``words``: its text in the reader's language; None: English)."""
    body = error.body()
    if words is not None:
        body["error"] = words(error)
    return json_response(body, error.status)


def reader_lang(scope: Request | WebSocket, explicit: bool = False) -> str:
    """The language of the page that asks: ``?lang=`` (a socket's, when ``explicit``), else
    its ``Accept-Language``; the server's refusals are written in it (languages.py)."""
    lang = scope.query_params.get("lang") if explicit else None
    if lang in LANGUAGES:
        return lang
    return preferred_lang(scope.headers.get("accept-language", ""))


async def read_json(request: Request, max_body: int = MAX_BODY) -> Any:
    """The request body as JSON: 415 unless sent as application/json (a cross-site form or
    text/plain POST), 413 past ``max_body`` (read no further), 400 if not JSON."""
    media = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media not in JSON_TYPES:
        raise ApiError(415, N_("send the body as Content-Type: application/json"))
    declared = request.headers.get("content-length")
    if declared is not None:
        if not declared.isdigit():
            raise ApiError(400, N_("bad Content-Length"))
        if int(declared) > max_body:
            raise ApiError(413, Words(BODY_TOO_BIG, {"limit": max_body}))
    chunks = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > max_body:
            raise ApiError(413, Words(BODY_TOO_BIG, {"limit": max_body}))
        chunks.append(chunk)
    return parse_json(b"".join(chunks))


async def read_object(request: Request, max_body: int,
                      fields: set[str] | frozenset[str]) -> dict[str, Any]:
    """The body as a JSON object of ``fields`` only (400 for another value or field)."""
    body = await read_json(request, max_body)
    if not isinstance(body, dict):
        raise ApiError(400, BODY_NOT_OBJECT)
    unknown = sorted(str(k) for k in set(body) - fields)
    if unknown:
        raise ApiError(400, Words(UNKNOWN_FIELD, {"name": echo(unknown[0])}))
    return body


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    body = dict(pairs)
    if len(body) != len(pairs):          # json's default keeps the last: two readings of one body
        raise ApiError(400, N_("the JSON has a key twice"))
    return body


def _no_constant(name: str) -> Any:
    raise ApiError(400, Words(N_("the body is not JSON ({name} is not a JSON number)"),
                              {"name": name}))


def parse_json(raw: bytes | str) -> Any:
    """Strict JSON (RFC 8259 as exchanged between systems): UTF-8 without a BOM, no key
    twice in an object, no NaN or Infinity; 400 otherwise. (``json.loads`` alone takes UTF-16
    and UTF-32 bytes, a BOM in text, and keeps the last of two keys.)"""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ApiError(400, N_("the body is not UTF-8")) from None
    if raw.startswith("\ufeff"):
        raise ApiError(400, N_("the body starts with a byte-order mark: send UTF-8 without it"))
    try:
        return json.loads(raw, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise ApiError(400, N_("the body is not JSON")) from None


def bearer_token(request: Request) -> str | None:
    header = request.headers.get("authorization")
    if header is not None:
        scheme, _, value = header.partition(" ")
        if scheme.lower() != "bearer" or not value.strip():
            raise ApiError(403, N_("bad Authorization header: use 'Bearer TOKEN'"))
        return value.strip()
    return None


MAX_PAGE = 100                  # tables per page of GET /api/tables (its default too)


def int_param(raw: str | None, name: str, default: int, low: int = 0,
              high: int = 10**12 - 1) -> int:
    """A query value that must be an int low..high (ASCII digits: ``int()`` would take
    "²" or "١" and say so in its own words); 400 naming the parameter otherwise."""
    if raw is None:
        return default
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 12) or not low <= int(raw) <= high:
        raise ApiError(400, Words(INT_RANGE, {"field": name, "low": low, "high": high}))
    return int(raw)


def int_query(request: Request, name: str, default: int) -> int:
    return int_param(request.query_params.get(name), name, default)
