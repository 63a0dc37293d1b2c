"""The bots a table may seat: the built-in bots that play its game, the levels, the plug-ins
``cardcore serve --bots`` offers; a seat's bot made with the server's think budget; and what
replaces a plug-in that fails on its turn (``BotFallback``, docs/server.md "Bots")."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypedDict

from cardcore.bots.base import check_bot
from cardcore.bots import (BOTS, LEVELS, Bot, BotSpec, IllegalChoiceError, bot_parameters,
                           make_bot, parse_bot_spec, parse_bot_specs)
from cardcore.errors import ConfigError, Words, echo
from cardcore.i18n import N_, _, use
from cardcore.registry import available_games, game_class
from cardcore.server.api_errors import ApiError
from cardcore.server.json_types import Schema

# The bot that plays a plug-in's seat once the plug-in failed twice: every game has a greedy
# heuristic (a legal move in every position) and it answers in microseconds, inline.
FALLBACK_BOT = "greedy"
MAX_DETAIL = 300                     # characters of a failure's English text kept
# Why a plug-in failed (BotFallback.reason), and the words for it in the notice.
FAILURES = {"raised": N_("it raised an error"), "illegal": N_("it chose an illegal move"),
            "timeout": N_("it took too long")}
_NOTICE = N_("Seat {seat}'s bot {bot} failed ({why}); the {fallback} bot plays that seat "
             "from now on.")


class SeatFallback(TypedDict):
    """What a state's seat carries of its fallback (``seats[k].fallback``; openapi.py's
    ``BotFallback``)."""
    bot: Annotated[Literal[FALLBACK_BOT],  # type: ignore[valid-type]
                   Schema(description="the bot now playing the seat")]
    reason: Annotated[str, Schema(enum=list(FAILURES))]
    detail: Annotated[str, Schema(description="the failure, in English")]
    move: Annotated[int, Schema(minimum=0, description="the log length at the failure")]


@dataclass(frozen=True)
class BotFallback:
    """A plug-in seat played by ``FALLBACK_BOT`` since its plug-in failed on its turn (twice,
    or once by timing out): ``reason`` one of ``FAILURES``, ``detail`` the failure in
    English, ``move`` the log length at the failure."""

    seat: int
    bot: str
    reason: str
    detail: str
    move: int
    fallback: str = FALLBACK_BOT

    def public(self) -> SeatFallback:
        """What a state's seat carries (``seats[k].fallback``)."""
        return {"bot": self.fallback, "reason": self.reason, "detail": self.detail,
                "move": self.move}

    def notice(self, lang: str) -> dict[str, Any]:
        """The ``{"type": "bot", "event": "fallback", ...}`` message, its text in ``lang``."""
        with use(lang):
            text = _(_NOTICE).format(seat=self.seat, bot=self.bot, why=_(FAILURES[self.reason]),
                                     fallback=self.fallback)
        return {"type": "bot", "event": "fallback", "seat": self.seat, "plugin": self.bot,
                **self.public(), "text": text}


def failure_reason(error: BaseException) -> str:
    """The ``FAILURES`` key of a plug-in's failure to choose a move."""
    if isinstance(error, TimeoutError):
        return "timeout"
    return "illegal" if isinstance(error, IllegalChoiceError) else "raised"


def is_plugin(name: str) -> bool:
    """Whether a seat's bot name is a plug-in's spec (not a built-in bot or level)."""
    return parse_bot_spec(name).name not in BOTS


def table_bots(game: str, extra: Sequence[str] = ()) -> list[str]:
    """The bots a table of ``game`` may seat: every built-in bot that plays it, the
    difficulty levels (``level:1`` .. ``level:5``, the lobby's choice), then ``extra``: the
    plug-in specs the server offers for it (``offered_bots``)."""
    names = [b for b in BOTS if b != "level" and _bot_plays(b, game)]
    return names + [f"level:{n}" for n in LEVELS] + [b for b in extra if b not in names]


def offered_bots(specs: str | Sequence[str]) -> dict[str, list[str]]:
    """The bots ``cardcore serve --bots`` offers besides the built-in ones, per game: each
    spec (canonical form) under every game it plays (its factory succeeds there).
    ConfigError for an unknown bot or parameter, and for a bot that plays no game (with the
    reason its factory gave)."""
    if not specs:
        return {}
    offered: dict[str, list[str]] = {}
    for spec in dict.fromkeys(str(s) for s in parse_bot_specs(specs)):
        first: ConfigError | None = None
        for game in available_games():
            try:
                make_bot(spec, 0).check_game(game)
            except ConfigError as e:
                first = first or e
                continue
            offered.setdefault(game, []).append(spec)
        if first is not None and not any(spec in names for names in offered.values()):
            raise first
    return offered


def table_bot(name: str, game: str, think_ms: float | None, seed: int) -> tuple[Bot, bool]:
    """The bot for a seat named ``name`` (a bot or ``level:N``), and whether it searches.
    A search bot thinks at most ``think_ms`` per move (the server's budget; a level's own
    budget is kept when it is shorter)."""
    spec = parse_bot_spec(name)
    if spec.name == "level":
        spec = parse_bot_spec(game_class(game).levels[dict(spec.params)["level"]])
    plugin = spec.name not in BOTS         # a plug-in's policy may be slow: off the event loop
    if "think_ms" not in bot_parameters(spec.name):
        return make_bot(spec, seed, game=game if plugin else None), plugin
    params = dict(spec.params)
    if think_ms is not None:
        own = params.get("think_ms")
        params["think_ms"] = think_ms if own is None else min(own, think_ms)
    return BotSpec(spec.name, tuple(sorted(params.items()))).make(seed), True


def parse_bots(raw: Any, players: int, game: str, extra: Sequence[str] = (),
               options: dict[str, Any] | None = None) -> dict[int, str]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise ApiError(400, N_('bots must be an object like {"1": "greedy"}'))
    bots: dict[int, str] = {}
    names = table_bots(game, extra)
    for key, name in raw.items():
        if not isinstance(key, str) or not key.isdigit() or not 0 <= int(key) < players:
            raise ApiError(422, Words(N_("bots: seat {seat} is not a seat 0..{last}"),
                                      {"seat": echo(str(key)), "last": players - 1}),
                           option="bots")
        if not isinstance(name, str) or name not in names:
            raise ApiError(422, Words(N_("bots: unknown bot {name}; bots: {bots}"),
                                      {"name": echo(str(name)), "bots": ", ".join(names)}),
                           option="bots")
        try:        # a plug-in's factory may refuse the table's configuration
            check_bot(make_bot(name, 0), game, players, options or {})
        except ConfigError as e:
            raise ApiError(422, Words(N_("bots: {problem}"), {"problem": e.words}),
                           option="bots") from None
        bots[int(key)] = name
    return bots


def _bot_plays(bot: str, game: str) -> bool:
    try:
        make_bot(bot, 0).check_game(game)
    except ConfigError:
        return False
    return True
