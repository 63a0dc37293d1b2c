"""The web table's words (server.md, "The web table"): ``GET /api/i18n?lang=&game=``, and
the reader's language of a request (``preferred_lang``; the server's refusals are put in it by
their message ids: messages.py).

The pages translate their texts with the same gettext catalogs as the terminal
(:mod:`cardcore.i18n`): the shared catalog, and each game's apart (``game=``: that one's;
without it every game's, for the lobby), never merged across games. Without ``lang`` the language is the first of the request's
``Accept-Language`` that the catalogs have, else English.
"""
from __future__ import annotations

from typing import Any

from cardcore.errors import ConfigError, Words
from cardcore.i18n import DEFAULT_LANG, LANGUAGES, messages, plural_messages
from cardcore.registry import available_games, game_class
from cardcore.server.api_errors import ApiError
from cardcore.server.messages import LANG_CHOICE, NO_SUCH_GAME

__all__ = ["preferred_lang", "web_words"]

MAX_ACCEPT = 40                      # language ranges read from one Accept-Language header

def preferred_lang(header: str) -> str:
    """The catalogs' language the header prefers most (RFC 9110 q-values; ``ru-RU`` counts
    as ``ru``), else the default."""
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate(header.split(",")[:MAX_ACCEPT]):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        primary = tag.strip().split("-")[0].lower()
        if primary in LANGUAGES and q > 0:
            ranked.append((-q, index, primary))
    return min(ranked)[2] if ranked else DEFAULT_LANG


def web_words(lang: str, game: str | None) -> dict[str, Any]:
    """``{"lang", "languages", "messages", "shared", "games", "plurals"}`` for ``lang`` (msgid -> text;
    ``{}`` in English, the msgids' own language): ``shared`` the shared catalog, ``games`` each
    game's own catalog apart (``game=``: that game's only, else every game's, for the lobby),
    never merged across games; ``messages`` the shared catalog with ``game``'s over it (the
    shared one alone without ``game``)."""
    if lang not in LANGUAGES:
        raise ApiError(422, Words(LANG_CHOICE, {"languages": ", ".join(LANGUAGES)}),
                       option="lang")
    names = available_games() if game is None else [game]
    games: dict[str, dict[str, str]] = {}
    for name in names:
        try:
            cls = game_class(name)
        except ConfigError:
            raise ApiError(404, NO_SUCH_GAME, option="game") from None
        games[name] = messages(lang, cls, shared=False)
    shared = messages(lang)
    merged = {**shared, **games[game]} if game is not None else dict(shared)
    # Plural texts ("{count} card" / "{count} cards"): singular msgid -> the language's forms, in
    # the catalog's order; the page picks one by Intl.PluralRules (i18n.js, tn()).
    plurals = plural_messages(lang)
    if game is not None:
        plurals.update(plural_messages(lang, game_class(game), shared=False))
    return {"lang": lang, "languages": list(LANGUAGES), "messages": merged, "shared": shared,
            "games": games, "plurals": plurals}
