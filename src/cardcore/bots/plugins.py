"""Bot plug-ins: players from other packages, found by name wherever a bot is named.

A plug-in is a *factory*, ``factory(game_name, seed=None, players=None, options=None,
**params) -> bot``, under a name:

* ``cardcore.bots.register("mypolicy", factory)`` in this process, or
* an entry point in the group ``cardcore.bots`` of an installed package
  (``mypolicy = "mypackage.policy:factory"`` in its pyproject's
  ``[project.entry-points."cardcore.bots"]``): every process that has the package installed
  finds it, a spawned worker or a Dask worker too, and the module is imported only when the
  bot is first named.

The factory is told the game's name and, as the keywords ``players=`` and ``options=``, the
table's player count and resolved options (None and {} where a caller checks a bot before it
knows them), wherever a bot is made: ``cardcore play``, ``serve``, ``simulate``,
``tournament``, ``VectorGame``. It may refuse a configuration by raising ``ConfigError``
(weights trained for 2 players, say). A factory without those keywords (or ``**params``)
is the deprecated 0.4 form, still called as ``factory(game_name, seed=...)`` with a
DeprecationWarning until 0.6.0.

The factory's object plays through ``choose(game) -> Action`` (or an action id), for
``game.current_player`` (``BotProtocol``), or through the batched policy protocol alone,
``choose_many(decisions) -> ids`` (cardcore.policy), which a single game asks with one row;
``VectorGame`` plays such a plug-in as one batched opponent. The optional methods are used
when present: ``choose_id(game) -> int`` (faster), ``reseed(seed)`` (a bot that draws random
numbers should: tournaments reseed every seat per game, so results do not depend on
chunking) and ``suggest(game, seat=None, top=3)`` (hints). ``PluginBot`` adapts it to
``Bot``: it calls the factory when the game is first known (``check_game`` or the first
move), once per configuration.

Every failure is a ``ConfigError`` naming the bot: an unknown name, an entry point that does
not import, a factory that raises or refuses, an object without ``choose`` or
``choose_many``, a choice that is not a legal action.
"""
from __future__ import annotations

import inspect
import re
import warnings
from collections.abc import Mapping
from importlib import metadata
from typing import Any, Callable, Protocol, Union, runtime_checkable

import numpy as np

from cardcore.bots.base import Bot
from cardcore.errors import ECHO_LIMIT, ConfigError, echo
from cardcore.game import Action, Game, is_int
from cardcore.policy import REMOVED_IN, BatchPolicy, batch_policy, decisions_of

__all__ = ["CONFIGURATION", "ENTRY_POINT_GROUP", "NAME_PATTERN", "BotFactory", "BotProtocol",
           "IllegalChoiceError", "PluginBot", "factory_parameters", "forget_factory",
           "plugin_factory", "plugin_names", "registered_factories", "store_factory",
           "tells_configuration"]

ENTRY_POINT_GROUP = "cardcore.bots"
# The keywords every factory is given beside the game's name and the seed.
CONFIGURATION = ("players", "options")
NAME_PATTERN = re.compile(r"[a-z][a-z0-9_.\-]{0,39}")


@runtime_checkable
class BotProtocol(Protocol):
    """What a bot is to cardcore: ``choose(game)`` returns a legal action (an ``Action`` or its
    id) for ``game.current_player``. Optional, used when present: ``choose_id(game) -> int``,
    ``reseed(seed)``, ``suggest(game, seat=None, top=3)`` and the policy protocol
    ``choose_many(decisions) -> ids`` (cardcore.policy: one legal id per row of a batch; a
    plug-in may have it alone)."""

    def choose(self, game: Game) -> Union[Action, int]: ...


BotFactory = Callable[..., Any]          # factory(game_name, seed=None, **params) -> a bot


_REGISTERED: dict[str, BotFactory] = {}
_ENTRY_POINTS: dict[str, list[metadata.EntryPoint]] | None = None    # read once per process
_LOADED: dict[str, BotFactory] = {}    # entry points imported so far


def store_factory(name: str, factory: BotFactory, replace: bool) -> None:
    """Keep ``factory`` under ``name`` (``cardcore.bots.register`` checks the name first)."""
    if name in _REGISTERED and _REGISTERED[name] is not factory and not replace:
        raise ConfigError(f"bot {name} is registered already; pass replace=True", "bots")
    _REGISTERED[name] = factory


def forget_factory(name: str) -> None:
    _REGISTERED.pop(name, None)


def registered_factories(names: Any) -> dict[str, BotFactory]:
    """The factories ``register`` made for these bot names (what a worker must register)."""
    return {n: _REGISTERED[n] for n in names if n in _REGISTERED}


def _entry_points() -> dict[str, list[metadata.EntryPoint]]:
    global _ENTRY_POINTS
    if _ENTRY_POINTS is None:
        found: dict[str, list[metadata.EntryPoint]] = {}
        for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
            if ep.value not in [e.value for e in found.get(ep.name.lower(), [])]:
                found.setdefault(ep.name.lower(), []).append(ep)
        _ENTRY_POINTS = found
    return _ENTRY_POINTS


def plugin_names() -> tuple[str, ...]:
    """Registered and installed (entry-point) bot names, sorted; nothing is imported."""
    return tuple(sorted(set(_REGISTERED) | set(_entry_points())))


def plugin_factory(name: str) -> BotFactory | None:
    """The factory of the plug-in ``name`` (imported on first use), or None if there is no
    such plug-in. ConfigError when its entry point does not import or is ambiguous."""
    if name in _REGISTERED:
        return _REGISTERED[name]
    if name in _LOADED:
        return _LOADED[name]
    points = _entry_points().get(name)
    if not points:
        return None
    if len(points) > 1:
        raise ConfigError(f"bot {echo(name)} is defined by several installed packages: "
                          f"{', '.join(echo(p.value) for p in points)}", "bots")
    point = points[0]
    try:
        factory = point.load()
    except Exception as e:                     # ImportError, AttributeError, its own errors
        raise ConfigError(f"bot {echo(name)}: its entry point {echo(point.value)} does not "
                          f"load: {_error_text(e)}", "bots") from None
    if not callable(factory):
        raise ConfigError(f"bot {echo(name)}: its entry point {echo(point.value)} is not "
                          f"callable", "bots")
    _LOADED[name] = factory
    return factory  # type: ignore[no-any-return]


def factory_parameters(name: str, factory: BotFactory) -> dict[str, Any] | None:
    """The parameters a spec may give the plug-in (name -> default; None for no default), or
    None when the factory takes ``**params`` (any name)."""
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):
        return None
    params = list(signature.parameters.values())
    if any(p.kind is p.VAR_KEYWORD for p in params):
        return None
    if params and params[0].kind in (params[0].POSITIONAL_ONLY, params[0].POSITIONAL_OR_KEYWORD):
        params = params[1:]                                # game_name
    return {p.name: (None if p.default is p.empty else p.default) for p in params
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
            and p.name not in ("seed", *CONFIGURATION)}


def tells_configuration(factory: BotFactory) -> bool:
    """Whether ``factory`` takes the keywords ``players=`` and ``options=`` (or ``**params``):
    the current form; without them it is the deprecated ``factory(game_name, seed, ...)``."""
    try:
        params = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return True
    names = {p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    return any(p.kind is p.VAR_KEYWORD for p in params) or set(CONFIGURATION) <= names


def _error_text(e: BaseException) -> str:
    text = f"{type(e).__name__}: {e}"
    return text if len(text) <= 2 * ECHO_LIMIT else text[:2 * ECHO_LIMIT - 3] + "..."


class IllegalChoiceError(ConfigError):
    """A plug-in's choice that is not a legal action id now (a ``ConfigError``, option
    ``bots``): apart from a policy that raised, so that a server can say which it was."""


class PluginBot(Bot):
    """A plug-in's bot as a ``Bot``: ``PluginBot(name, factory, params, seed)``. The factory is
    called with the game's name, ``players=`` and ``options=`` when the bot first meets a
    configuration (``check_game``, ``bind`` or its first move), once per configuration;
    ``policy`` is the factory's object for the last one met and ``batched`` its policy
    protocol (cardcore.policy) when it has ``choose_many``, else None. A policy with only
    ``choose_many`` plays a single game as a batch of one row (``decisions_of``). Attributes
    the adapter lacks are the policy's."""

    def __init__(self, name: str, factory: BotFactory, params: tuple[tuple[str, Any], ...] = (),
                 seed: int | None = None) -> None:
        super().__init__(seed)
        self.name = name
        self.spec = name + (":" + ",".join(f"{k}={v}" for k, v in params) if params else "")
        self._factory = factory
        self._params = dict(params)
        self._policies: dict[tuple[str, int | None, str], Any] = {}
        self._batched: dict[tuple[str, int | None, str], BatchPolicy | None] = {}
        self.policy: Any = None
        # The policy protocol of ``policy`` when it has ``choose_many``, else None.
        self.batched: BatchPolicy | None = None
        self._told_configuration = tells_configuration(factory)
        if not self._told_configuration:
            warnings.warn(f"bot {name}: a factory without the keywords players= and options= "
                          f"(or **params) is deprecated; it goes in {REMOVED_IN}",
                          DeprecationWarning, stacklevel=3)

    def bind(self, game_name: str, players: int | None = None,
             options: Mapping[str, Any] | None = None) -> Any:
        """The factory's bot for the game ``game_name`` with ``players`` and ``options`` (made
        on first call; None where the caller does not know them yet)."""
        opts = dict(options or {})
        key = (game_name, players, repr(sorted(opts.items())))
        policy = self._policies.get(key)
        if policy is None:
            try:
                if self._told_configuration:
                    policy = self._factory(game_name, seed=self.seed, players=players,
                                           options=opts, **self._params)
                else:
                    policy = self._factory(game_name, seed=self.seed, **self._params)
            except ConfigError as e:
                raise ConfigError(f"bot {echo(self.spec)}: {e}", "bots") from None
            except Exception as e:                          # the plug-in's own error
                raise ConfigError(f"bot {echo(self.spec)} cannot play {game_name}: "
                                  f"{_error_text(e)}", "bots") from None
            if not callable(getattr(policy, "choose", None)) \
                    and not callable(getattr(policy, "choose_many", None)):
                raise ConfigError(f"bot {echo(self.spec)}: its factory returned "
                                  f"{echo(policy)}, not a bot (no choose(game) nor "
                                  f"choose_many(decisions) method)", "bots")
            self._policies[key] = policy
            self._batched[key] = batch_policy(policy, f"bot {self.name}") \
                if callable(getattr(policy, "choose_many", None)) else None
        self.policy = policy
        self.batched = self._batched[key]
        return policy

    def check_game(self, name: str, players: int | None = None,
                   options: Mapping[str, Any] | None = None) -> None:
        self.bind(name, players, options)

    def reseed(self, seed: int) -> None:
        super().reseed(seed)
        for policy in self._policies.values():
            reseed = getattr(policy, "reseed", None)
            if callable(reseed):
                reseed(seed)

    def choose_id(self, game: Game) -> int:
        policy = self.bind(game.name, game.num_players, game.options)
        fast = getattr(policy, "choose_id", None)
        one = getattr(policy, "choose", None)
        try:
            if callable(fast):
                choice = fast(game)
            elif callable(one):
                choice = one(game)
            else:                   # a batched policy only: a batch of one
                assert self.batched is not None
                ids = np.asarray(self.batched.choose_many(decisions_of([game])))
                choice = int(ids[0]) if ids.shape == (1,) and ids.dtype.kind in "iu" \
                    else ids
        except ConfigError:
            raise
        except Exception as e:          # the plug-in's own failure: named, its cause kept
            raise ConfigError(f"bot {echo(self.spec)} failed to choose a move in "
                              f"{game.name}: {_error_text(e)}", "bots") from e
        if isinstance(choice, Action):
            choice = choice.id
        if not is_int(choice) or int(choice) not in game.legal_action_ids():
            raise IllegalChoiceError(f"bot {echo(self.spec)} chose {echo(choice)}, not a legal "
                                     f"action id of {game.name} now", "bots")
        return int(choice)

    def suggest(self, game: Game, seat: int | None = None, top: int = 3) -> list[dict[str, Any]]:
        own = getattr(self.bind(game.name, game.num_players, game.options), "suggest", None)
        if callable(own):
            return list(own(game, seat=seat, top=top))
        return super().suggest(game, seat=seat, top=top)

    def __getattr__(self, attr: str) -> Any:
        # Only reached for attributes the adapter lacks: the policy's optional methods.
        policy = self.__dict__.get("policy")
        if policy is None or attr.startswith("__"):
            raise AttributeError(attr)
        return getattr(policy, attr)

    def __repr__(self) -> str:
        return f"PluginBot({self.spec!r}, seed={self.seed!r})"
