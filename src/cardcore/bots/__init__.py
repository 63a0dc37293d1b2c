"""Bots: players that pick a legal action for ``game.current_player``.

Every bot has the same two entry points (docs/api.md, "Bots"):

* ``bot.choose(game) -> Action`` — the protocol form, for applications;
* ``bot.choose_id(game) -> int`` — the fast form, for simulation loops
  (``game.apply(bot.choose_id(game))`` builds no Action object).

A bot owns its generator (a ``cardcore._fast.Random``), so a seeded bot makes the same choices
in the same positions; ``bot.reseed(seed)`` restarts it (``simulate`` reseeds per game).

``RandomBot`` picks uniformly among the legal ids. ``GreedyBot`` plays the game's greedy
heuristic: its in-core policy where the kernel has one (``GameState.greedy_move``), else the
Python heuristic the game declares (``Game.greedy``: ``choose(game, rng) -> int``, in the
game's package as ``cardcore.games.<game>.greedy``). A game without either has no GreedyBot
(``ConfigError``), rather than a silent random stand-in. ``ISMCTSBot`` searches
(``cardcore.bots.ismcts``). ``LevelBot`` (``"level:N"``, N = 1..5) is the game's bot for a
difficulty level (``Game.levels``).

In-core play: ``bot.core_policy(game)`` says whether a bot's moves can be made inside the core
(random and greedy can); ``simulate`` and ``tournament`` then play whole games there, with the
same moves the Python loop would make. Hints: ``bot.suggest(game, seat=None, top=3)``.

Bot specs: wherever a bot is named (``make_bot``, ``simulate(bots=...)``, ``--bots``), it may
carry constructor parameters, ``name[:key=value,...]`` (``random:seed=3``,
``ismcts:iterations=200``). Values are read as JSON when they parse (``200``, ``1.5``, ``true``),
otherwise as text. ``parse_bot_spec`` checks the name and every parameter against the bot's
constructor (ConfigError otherwise); ``str(spec)`` is the canonical form (parameters sorted).
A ``seed`` parameter replaces the run's seed for that bot's per-game streams in ``simulate``.

Plug-ins (``cardcore.bots.plugins``): ``register(name, factory)`` or an entry point in the group
``cardcore.bots`` adds a bot by name, ``factory(game_name, seed=None, **params)`` returning an
object with ``choose(game)`` (``BotProtocol``); specs name it like any other bot
(``mypolicy:path=model.pt``), its parameters checked against the factory's signature.
"""
from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Callable

from cardcore._fast import Random
from cardcore.bots.base import EPSILON_ONE, POLICY_GREEDY, Bot, RandomBot
from cardcore.bots.ismcts import ISMCTSBot
from cardcore.bots.plugins import (ENTRY_POINT_GROUP, NAME_PATTERN, BotFactory, BotProtocol,
                                   IllegalChoiceError, PluginBot, factory_parameters, forget_factory,
                                   plugin_factory, plugin_names, registered_factories,
                                   store_factory)
from cardcore.errors import ConfigError, echo
from cardcore.game import Game, is_int
from cardcore.registry import game_class

__all__ = [
    "BOTS", "ENTRY_POINT_GROUP", "LEVELS", "Bot", "BotFactory", "BotProtocol", "BotSpec",
    "GreedyBot", "ISMCTSBot", "IllegalChoiceError", "LevelBot", "PluginBot", "RandomBot", "available_bots",
    "adopt_factories", "bot_parameters", "clear_spec_cache", "greedy_heuristic", "make_bot",
    "parse_bot_spec", "parse_bot_specs", "register", "registered_factories",
    "shipped_factories", "unregister",
]


def greedy_heuristic(game_name: str) -> Callable[[Game, Random], int]:
    """The game's greedy heuristic, ``choose(game, rng) -> int`` (``Game.greedy``);
    ConfigError if the game declares none."""
    choose = game_class(game_name).greedy
    if choose is None:
        raise ConfigError(f"the greedy bot has no heuristic for {echo(game_name)}; use another "
                          f"bot, e.g. 'random'", "bots")
    return choose


class GreedyBot(Bot):
    """A sensible one-move heuristic per game (``Game.greedy``, in the game's package; inside
    the core where the game's kernel has the policy); its random tie-breaks come from the
    bot's own seeded generator. ``epsilon`` (0..1) makes a weaker player: before each
    decision one 16-bit draw below ``epsilon`` · 65536 plays a uniformly random legal move
    instead (the difficulty levels use it); 0 draws nothing, as before."""

    name = "greedy"

    def __init__(self, seed: int | None = None, epsilon: float = 0.0) -> None:
        if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)) \
                or not 0 <= epsilon <= 1:
            raise ConfigError(f"epsilon must be a number 0..1, not {echo(epsilon)}", "epsilon")
        super().__init__(seed)
        self.epsilon = float(epsilon)
        self._threshold = round(self.epsilon * EPSILON_ONE)

    def check_game(self, name: str, players: int | None = None,
                   options: Mapping[str, Any] | None = None) -> None:
        """ConfigError if there is no greedy heuristic for the game ``name``."""
        greedy_heuristic(name)

    def core_policy(self, game: Game) -> tuple[int, int] | None:
        """The game's in-core greedy policy, with this bot's epsilon; None without one (or
        for a subclass with its own ``choose_id``)."""
        if type(self).choose_id is not GreedyBot.choose_id:
            return None
        return (POLICY_GREEDY, self._threshold) if game.state.has_greedy else None

    def choose_id(self, game: Game) -> int:
        """The heuristic's choice (random tie-breaks from the bot's generator): inside the core
        when the game has an in-core greedy policy, else the game's Python heuristic."""
        if game.is_over:
            raise ValueError("the game is over: there is no action to choose")
        rng = self.rng
        if self._threshold and rng.below(EPSILON_ONE) < self._threshold:
            ids = game.legal_action_ids()
            return int(ids[rng.below(len(ids))])
        state = game.state
        if state.has_greedy:
            return int(state.greedy_move(rng))
        return int(greedy_heuristic(game.name)(game, rng))

    def __repr__(self) -> str:
        return f"GreedyBot(seed={self.seed!r}, epsilon={self.epsilon})"


LEVELS = (1, 2, 3, 4, 5)


class LevelBot(Bot):
    """``LevelBot(level, seed=None)``: the game's bot for ``level`` (1..5, ``Game.levels``)."""

    name = "level"

    def __init__(self, level: int = 3, seed: int | None = None) -> None:
        if not is_int(level) or level not in LEVELS:
            raise ConfigError(f"level must be an int 1..5, not {echo(level)}", "level")
        super().__init__(seed)
        self.level = int(level)
        self._bots: dict[str, Bot] = {}            # the level's bot, per game

    def spec_for(self, game_class: type[Game]) -> str:
        """The bot spec this level plays in the game ``game_class``."""
        return game_class.levels[self.level]

    def bot_for(self, game: Game | type[Game]) -> Bot:
        """The bot this level plays in ``game`` (made once per game, sharing this bot's
        generator)."""
        cls = game if isinstance(game, type) else type(game)
        bot = self._bots.get(cls.name)
        if bot is None:
            bot = make_bot(self.spec_for(cls), 0)
            bot.seed, bot.rng = self.seed, self.rng
            self._bots[cls.name] = bot
        return bot

    def reseed(self, seed: int) -> None:
        super().reseed(seed)
        for bot in self._bots.values():
            bot.seed = seed
            bot.rng = self.rng

    def check_game(self, name: str, players: int | None = None,
                   options: Mapping[str, Any] | None = None) -> None:
        cls = game_class(name)
        self.bot_for(cls).check_game(name, players, options)

    def core_policy(self, game: Game) -> tuple[int, int] | None:
        return self.bot_for(game).core_policy(game)

    def choose_id(self, game: Game) -> int:
        return self.bot_for(game).choose_id(game)

    def suggest(self, game: Game, seat: int | None = None, top: int = 3) -> list[dict[str, Any]]:
        """Hints from this level's search; a level without one (a beginner's) gives level 5's
        (a hint is advice, not the level's play)."""
        bot = self.bot_for(game)
        if not isinstance(bot, ISMCTSBot):
            bot = LevelBot(5).bot_for(game)
            bot.rng = self.rng
        return bot.suggest(game, seat=seat, top=top)

    def __repr__(self) -> str:
        return f"LevelBot(level={self.level}, seed={self.seed!r})"


BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot, "ismcts": ISMCTSBot,
                              "level": LevelBot}


def available_bots() -> tuple[str, ...]:
    """The names ``make_bot`` and ``--bots`` accept: the built-in bots, then the plug-ins
    (registered in this process or installed as entry points), sorted."""
    return tuple(BOTS) + tuple(n for n in plugin_names() if n not in BOTS)


def bot_parameters(name: str) -> dict[str, Any]:
    """The parameters a bot spec may give the bot ``name``, with their defaults ({} for a
    plug-in whose factory takes any ``**params``)."""
    found = _lookup(name)
    if not isinstance(found, type):
        return factory_parameters(name.strip().lower(), found) or {}
    return {p.name: (None if p.default is inspect.Parameter.empty else p.default)
            for p in inspect.signature(found).parameters.values()
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}


def _lookup(name: str) -> type[Bot] | BotFactory:
    """The built-in bot's class, or the plug-in's factory; ConfigError for an unknown name."""
    key = name.strip().lower() if isinstance(name, str) else None
    if key is not None and key in BOTS:
        return BOTS[key]
    factory = plugin_factory(key) if key else None
    if factory is None:
        raise ConfigError(f"unknown bot {echo(name)}; available: "
                          f"{', '.join(available_bots())}", "bots")
    return factory


def clear_spec_cache() -> None:
    """Forget the specs read so far (``register`` calls it: a name may mean another bot)."""
    _parse_spec_text.cache_clear()


def _format_value(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def _parse_value(raw: str) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        return raw


@dataclass(frozen=True)
class BotSpec:
    """A bot name with constructor parameters (sorted by key); ``str()`` gives
    ``name[:key=value,...]``, which ``parse_bot_spec`` reads back."""

    name: str
    params: tuple[tuple[str, Any], ...] = ()

    def __str__(self) -> str:
        params = dict(self.params)
        head = self.name
        if self.name == "level" and "level" in params:      # "level:3", the documented form
            head += f":{params.pop('level')}"
            return head + "".join(f",{k}={_format_value(v)}" for k, v in sorted(params.items()))
        if not params:
            return head
        return head + ":" + ",".join(f"{k}={_format_value(v)}" for k, v in self.params)

    @property
    def seed(self) -> int | None:
        """The spec's own ``seed`` parameter, if it gives one."""
        value = dict(self.params).get("seed")
        return value if isinstance(value, int) else None

    def make(self, seed: int | None = None, game: str | None = None) -> Bot:
        """A new bot; the spec's own ``seed`` parameter wins over ``seed``. A plug-in's factory
        is called for ``game`` now when it is given (its errors are raised here), else when
        the bot first meets a game."""
        kwargs: dict[str, Any] = {"seed": seed, **dict(self.params)}
        found = _lookup(self.name)
        if isinstance(found, type):
            made: Bot = found(**kwargs)
            return made
        own = kwargs.pop("seed")
        bot = PluginBot(self.name, found, tuple(sorted(kwargs.items())), own)
        if game is not None:
            bot.bind(game)
        return bot


def parse_bot_spec(text: str | BotSpec) -> BotSpec:
    """Read ``name[:key=value,...]``; ConfigError (option "bots") for an unknown bot, an unknown
    parameter or a value the bot refuses."""
    if isinstance(text, BotSpec):
        return text
    if not isinstance(text, str):
        raise ConfigError(f"a bot is named by a string such as 'random', not {echo(text)}",
                          "bots")
    return _parse_spec_text(text)


@functools.lru_cache(maxsize=256)
def _parse_spec_text(text: str) -> BotSpec:
    """parse_bot_spec of a string, remembered (specs are immutable; reading one inspects the
    bot's constructor, which costs more than a short game chunk should pay per seat)."""
    name, sep, rest = text.partition(":")
    name = name.strip().lower()
    found = _lookup(name)
    allowed = bot_parameters(name) if isinstance(found, type) \
        else factory_parameters(name, found)                # None: any parameter
    if allowed is not None and not isinstance(found, type):
        allowed = {**allowed, "seed": None}                 # every bot takes a seed
    params: dict[str, Any] = {}
    items = rest.split(",") if sep else []
    if name == "level" and items and "=" not in items[0]:
        items[0] = "level=" + items[0]                     # "level:3" is "level:level=3"
    for item in items:
        key, eq, raw = item.partition("=")
        key = key.strip().lower()
        if not eq or not key:
            raise ConfigError(f"bot spec {echo(text)}: parameters look like key=value, "
                              f"not {echo(item)}", "bots")
        if allowed is not None and key not in allowed:
            raise ConfigError(f"bot spec {echo(text)}: {name} has no parameter {echo(key)} "
                              f"(parameters: {', '.join(allowed) or 'none'})", "bots")
        if key in params:
            raise ConfigError(f"bot spec {echo(text)}: {echo(key)} is given twice", "bots")
        params[key] = _parse_value(raw.strip())
    if not isinstance(found, type) and "seed" in params and not (
            params["seed"] is None or is_int(params["seed"]) and params["seed"] >= 0):
        raise ConfigError(f"bot spec {echo(text)}: seed must be a non-negative int", "bots")
    try:
        if isinstance(found, type):
            found(**{"seed": 0, **params})              # the bot checks its own values
    except (TypeError, ValueError, OverflowError) as e:
        raise ConfigError(f"bot spec {echo(text)}: {e}", "bots") from None
    if name == "level" and "level" not in params:
        raise ConfigError(f"bot spec {echo(text)}: say which level, e.g. 'level:3' (1..5)",
                          "bots")
    return BotSpec(name, tuple(sorted(params.items())))


def parse_bot_specs(bots: str | Sequence[str | BotSpec]) -> tuple[BotSpec, ...]:
    """Bot specs from ``"greedy,random:seed=3"`` or a sequence of specs. In a comma-separated
    string a ``key=value`` item without a name continues the previous spec's parameters
    (``"ismcts:iterations=200,c=1.4,random"`` is two bots)."""
    if not isinstance(bots, (str, Sequence)) or isinstance(bots, (bytes, bytearray)):
        raise ConfigError(f"bots must be a string such as 'greedy,random' or a sequence of "
                          f"bot specs, not {echo(bots)}", "bots")
    if isinstance(bots, str):
        items: list[str] = []
        for token in bots.split(","):
            if "=" in token and ":" not in token and items:
                items[-1] += "," + token
            else:
                items.append(token)
        specs: Sequence[str | BotSpec] = items
    else:
        specs = bots
    if not specs or any(isinstance(s, str) and not s.strip() for s in specs):
        raise ConfigError("bots must name at least one bot, e.g. ('greedy', 'random')", "bots")
    return tuple(parse_bot_spec(s) for s in specs)


def make_bot(name: str | BotSpec, seed: int | None = None, game: str | None = None) -> Bot:
    """A bot by name or spec (``"random"``, ``"greedy"``, ``"random:seed=3"``, a plug-in's
    ``"mypolicy:path=model.pt"``); the spec's own parameters win over ``seed``. ConfigError
    for an unknown name or parameter; with ``game``, a plug-in's factory is called at once
    (ConfigError naming the bot if it fails)."""
    return parse_bot_spec(name).make(seed, game)


# ------------------------------------------------------------------ plug-ins (cardcore.bots.plugins)
def register(name: str, factory: BotFactory, *, replace: bool = False) -> None:
    """Make ``factory(game_name, seed=None, **params)`` the bot ``name`` in this process
    (``make_bot``, ``simulate``, ``tournament``, ``--bots``...). A built-in name is refused;
    an existing plug-in name too unless ``replace``. Worker processes of ``simulate`` and
    ``tournament`` register it again from the job when ``factory`` pickles (a top-level
    function or class of an importable module); an entry point needs nothing shipped."""
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name.strip().lower()):
        raise ConfigError(f"a bot's name is 1-40 of a-z, 0-9, _ . - starting with a letter, "
                          f"not {echo(name)}", "bots")
    key = name.strip().lower()
    if key in BOTS:
        raise ConfigError(f"{echo(key)} is a built-in bot; register another name", "bots")
    if not callable(factory):
        raise ConfigError(f"the factory of bot {key} must be callable, not {echo(factory)}",
                          "bots")
    store_factory(key, factory, replace)
    clear_spec_cache()


def unregister(name: str) -> None:
    """Forget a bot ``register`` made (entry points stay)."""
    if isinstance(name, str):
        forget_factory(name.strip().lower())
    clear_spec_cache()


def shipped_factories(specs: Sequence[str], remote: bool) -> dict[str, BotFactory]:
    """What a job of ``simulate`` or ``tournament`` carries so that its worker knows the bots
    ``register`` made (entry points need nothing); ``remote``: the job is pickled, so every
    factory must pickle (a top-level function or class of an importable module)."""
    import pickle

    names = {parse_bot_spec(spec).name for spec in specs}
    shipped = registered_factories(sorted(names))
    if remote:
        for name, factory in shipped.items():
            try:
                pickle.dumps(factory)
            except Exception:
                raise ConfigError(f"bot {name}: its factory {echo(factory)} cannot be sent to "
                                  f"worker processes; register a top-level function of a "
                                  f"module, or install it as an entry point", "bots") from None
    return shipped


def adopt_factories(shipped: dict[str, BotFactory]) -> None:
    """In a worker: register the factories a job carries (``shipped_factories``)."""
    current = registered_factories(shipped)
    for name, factory in shipped.items():
        if current.get(name) is not factory:
            register(name, factory, replace=True)
