"""The web table's words (server.md, "The web table"): ``GET /api/i18n?lang=&game=``, and
the server's refusals in the reader's language (``refusal_words``).

The pages translate their texts with the same gettext catalogs as the terminal
(:mod:`cardcore.i18n`): the shared catalog, and each game's apart (``game=``: that one's;
without it every game's, for the lobby), never merged across games. Without ``lang`` the language is the first of the request's
``Accept-Language`` that the catalogs have, else English.
"""
from __future__ import annotations

from typing import Any

from cardcore.errors import ConfigError, IllegalActionError
from cardcore.i18n import DEFAULT_LANG, LANGUAGES, N_, fill_template, messages, plural_messages, use
from cardcore.registry import available_games, game_class
from cardcore.server.clocks import CLOCK_REFUSALS
from cardcore.server.api_errors import ApiError

__all__ = ["preferred_lang", "web_words", "refusal_words", "SERVER_REFUSALS"]

MAX_ACCEPT = 40                      # language ranges read from one Accept-Language header

# The refusals a person at the web table meets (tables.py, app.py, takeback.py), as the
# templates their English texts fill: ``refusal_words`` translates a refusal by the one it
# fits (tests/test_server_refusal_words.py meets them over the socket in Russian).
SERVER_REFUSALS = (
    N_("stale: the action was sent after event {after}, but the table has {count} events; "
       "look again"),
    N_("stale: the take-back was sent after event {after}, but the table has {count} events; "
       "look again"),
    N_("the match is over"),
    N_("the match is over: a seat forfeited on time"),
    N_("the match is over: its moves are final"),
    N_("the table was abandoned: nobody moved for too long"),
    N_("the table was deleted"),
    N_("no such table"),
    N_("you have no move to take back yet"),
    N_("a take-back at this table is under way; look again"),
    N_("this table has no take-backs (create it with \"takeback\": true)"),
    N_("the table moved on meanwhile (a move made through another server process); look again"),
    N_("storage failed; try again"),
    N_("storage failed; reconnect"),
    N_("storage failed: nothing was changed"),
    N_("storage failed: the action was not accepted"),
    N_("too many messages: at most {rate} per second"),
    N_("spectators cannot act: connect with a seat token"),
    N_("hints are for the seat to move, at its turn"),
    N_("hints are for a seat: give its token"),
    N_("at most {rate} hints per second per seat"),
    N_("bad token: it is not a token of this table"),
    N_("options: {name} is not a game option"),
    N_("takeback: a table with take-backs has exactly one person's seat (the others bots), not "
       "{count}: a take-back would undo another person's moves"),
)


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
        raise ApiError(422, f"lang must be one of {', '.join(LANGUAGES)}", option="lang")
    names = available_games() if game is None else [game]
    games: dict[str, dict[str, str]] = {}
    for name in names:
        try:
            cls = game_class(name)
        except ConfigError:
            raise ApiError(404, "no such game", option="game") from None
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


def refusal_words(text: str, lang: str, game: str | None = None) -> str:
    """A refusal's text (English) in ``lang``: a game's refusal by its templates (the
    terminal's ``cardcore.texts.refusal_text``, the rule ID kept), a refusal of the table's
    options by ``cardcore.texts.config_text`` (the option checks' templates), the server's by
    ``SERVER_REFUSALS`` and the clock's; a text that fits none stays English."""
    if lang == DEFAULT_LANG or lang not in LANGUAGES:
        return text
    cls = None
    if game is not None:
        try:
            cls = game_class(game)
        except ConfigError:
            pass
    from cardcore.texts import config_text, refusal_text
    with use(lang, cls):
        for translate in (lambda t: refusal_text(IllegalActionError(t), cls), config_text,
                          lambda t: fill_template(t, SERVER_REFUSALS + CLOCK_REFUSALS)):
            out = translate(text)
            if out != text:
                return out
        return text
