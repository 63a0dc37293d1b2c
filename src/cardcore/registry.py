"""The games cardcore knows: found, not listed.

Every package under ``cardcore.games`` is a game: the registry imports it, takes the one
``Game`` subclass its ``__init__`` defines (``cardcore.games.<name>.<Class>``, whose ``name`` is
the package's name) and checks it against the game contract (cardcore.contract: every piece a
game must provide, docs/adding-a-game.md). Nothing else names the games: adding a package adds a game. A game
defined elsewhere (a plugin, a test) joins with ``register(cls)``.

Layering: this module sits above ``cardcore.game`` (the protocol) and the game packages (which
import the protocol, never the registry), so the import graph has no circle. ``new_game``,
``load_game`` and ``available_games`` live here and are re-exported by ``cardcore``; the old
spellings ``cardcore.game.new_game`` & co. are deprecated aliases (cardcore._compat.MOVED_NAMES).
"""
from __future__ import annotations

import importlib
import pkgutil
import threading
from collections.abc import Mapping, Sequence
from typing import Any

from cardcore.contract import check_game
from cardcore.errors import ConfigError
from cardcore.game import Game
from cardcore.saves import load as _load

__all__ = ["available_games", "game_class", "new_game", "load_game", "register", "game_classes",
           "option_schema"]

GAMES_PACKAGE = "cardcore.games"          # every package in it is a game
_REGISTRY: dict[str, type[Game]] = {}
_lock = threading.Lock()
_discovered = False


def _game_of_package(module: Any) -> type[Game]:
    """The one Game subclass a game package defines (not one it imports)."""
    found = [obj for obj in vars(module).values()
             if isinstance(obj, type) and issubclass(obj, Game) and obj is not Game
             and obj.__module__ == module.__name__]
    if len(found) != 1:
        raise ImportError(f"{module.__name__} must define exactly one Game subclass, "
                          f"found {len(found)}")
    cls = found[0]
    package = module.__name__.rsplit(".", 1)[-1]
    if getattr(cls, "name", None) != package:
        raise ImportError(f"{cls.__qualname__}.name must be {package!r}, the package's name")
    return cls


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    with _lock:
        if _discovered:
            return
        games = importlib.import_module(GAMES_PACKAGE)
        for info in sorted(pkgutil.iter_modules(games.__path__), key=lambda i: i.name):
            if info.ispkg and not info.name.startswith("_"):
                module = importlib.import_module(f"{GAMES_PACKAGE}.{info.name}")
                cls = _game_of_package(module)
                check_game(cls)             # the contract (docs/adding-a-game.md)
                _REGISTRY.setdefault(cls.name, cls)
        _discovered = True


def register(cls: type[Game]) -> type[Game]:
    """Make a Game subclass defined outside ``cardcore.games`` available under its ``name``
    (usable as a class decorator). ConfigError if another game already has that name;
    GameContractError (an ImportError) naming what is missing if it breaks the game contract
    (cardcore.contract, docs/adding-a-game.md)."""
    if not (isinstance(cls, type) and issubclass(cls, Game)) or not isinstance(
            getattr(cls, "name", None), str):
        raise ConfigError("register() takes a Game subclass with a name", "game")
    _discover()
    check_game(cls)
    with _lock:
        existing = _REGISTRY.get(cls.name)
        if existing is not None and existing is not cls:
            raise ConfigError(f"a game named {cls.name!r} is already registered", "game")
        _REGISTRY[cls.name] = cls
    return cls


def available_games() -> tuple[str, ...]:
    """The names of the games, in name order."""
    _discover()
    return tuple(sorted(_REGISTRY))


def game_classes() -> tuple[type[Game], ...]:
    """The Game subclasses, in name order."""
    _discover()
    return tuple(_REGISTRY[name] for name in sorted(_REGISTRY))


def game_class(name: str) -> type[Game]:
    """The Game subclass of the game ``name``; ConfigError for an unknown name."""
    _discover()
    cls = _REGISTRY.get(name) if isinstance(name, str) else None
    if cls is None:
        shown = repr(name)
        if len(shown) > 60:
            shown = shown[:60] + "..."
        raise ConfigError(f"unknown game {shown}; available: {', '.join(available_games())}",
                          "name")
    return cls


def new_game(name: str, *, players: int | None = None, seed: int | None = None,
             deck: Sequence[str] | None = None, **options: Any) -> Game:
    """Start a game. ``deck`` stacks the first deal (card notations, top card first)."""
    return game_class(name)(players=players, seed=seed, deck=deck, **options)


def option_schema(name: str, players: int | None = None) -> dict[str, dict[str, Any]]:
    """The options of the game ``name``, each as a JSON Schema fragment with its ``default``,
    a one-line ``description`` and its rule (``Game.option_schema``); with ``players``, the
    bounds for that player count. ``/api/games`` and ``cardcore games`` show the same."""
    return game_class(name).option_schema(players)


def load_game(data: str | bytes | Mapping[str, Any], *, key: bytes | str | None = None) -> Game:
    """Rebuild a game from ``Game.to_json()``; ValueError if the data is malformed or
    tampered (as far as cardcore.saves can tell; with ``key`` the HMAC must match)."""
    game: Game = _load(data, key, game_class)
    return game

