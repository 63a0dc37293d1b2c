"""The games and their words: the catalogue, the web table's words, how-to pages, a game's
own web-table files, card faces."""
from __future__ import annotations

from importlib import resources

from starlette.requests import Request
from starlette.responses import Response

from cardcore._version import __version__
from cardcore.errors import ConfigError, Words
from cardcore.i18n import N_
from cardcore.registry import game_class
from cardcore.server.api_errors import ApiError
from cardcore.server.messages import NO_SUCH_GAME, NOT_FOUND
from cardcore.server.cards_svg import card_svg
from cardcore.server.howto import howto_page
from cardcore.server.http import SECURITY_HEADERS, error_response, json_response
from cardcore.server.languages import preferred_lang, web_words
from cardcore.server.routes.context import Context
from cardcore.server.tables import games_catalogue


async def list_games(ctx: Context, request: Request) -> Response:
    return json_response({"games": games_catalogue(ctx.server.extra_bots), "version": __version__})


async def get_words(ctx: Context, request: Request) -> Response:
    lang = request.query_params.get("lang")     # an empty ?lang= is refused, not ignored
    if lang is None:
        lang = preferred_lang(request.headers.get("accept-language", ""))
    game = request.query_params.get("game")
    return json_response(web_words(lang, game))


async def game_file(ctx: Context, request: Request) -> Response:
    """A game's own web-table part (``web/<file>`` in its package: board.js, its layout hints)."""
    try:
        cls = game_class(request.path_params["game"])
    except ConfigError:
        return error_response(ApiError(404, NO_SUCH_GAME), ctx.words_for(request))
    name = request.path_params["file"]
    part = resources.files(cls.__module__).joinpath("web")
    found = next((f for f in part.iterdir() if f.name == name and name.endswith(".js")),
                 None) if part.is_dir() else None
    if found is None:
        return error_response(ApiError(404, NOT_FOUND), ctx.words_for(request))
    return Response(found.read_text(encoding="utf-8"), media_type="text/javascript",
                    headers={"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"})


async def howto(ctx: Context, request: Request) -> Response:
    """A game's how-to-play page (howto.py) in ``?lang=``, else Accept-Language's pick."""
    lang = request.query_params.get("lang")     # an empty ?lang= is refused, not ignored
    if lang is None:
        lang = preferred_lang(request.headers.get("accept-language", ""))
    try:
        page = howto_page(request.path_params["game"], lang)
    except ConfigError as e:
        if e.option == "lang":
            raise ApiError(422, e.words, option="lang") from None
        raise ApiError(404, NO_SUCH_GAME) from None
    if page is None:
        raise ApiError(404, Words(N_("no how-to-play page in {lang}"), {"lang": lang}))
    return Response(page, media_type="text/html", headers=SECURITY_HEADERS)


async def card(ctx: Context, request: Request) -> Response:
    name = request.path_params["card"]
    try:
        svg = card_svg(name)
    except ValueError:
        return error_response(ApiError(404, N_("no such card")), ctx.words_for(request))
    return Response(svg, media_type="image/svg+xml",
                    headers={"Cache-Control": "public, max-age=86400",
                             "X-Content-Type-Options": "nosniff"})
