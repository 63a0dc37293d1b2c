"""The 0.2 module names of the parts that moved into the game packages, until 0.5.0.

0.2 had a game's narrator at ``cardcore.games.<game>_events`` and its greedy heuristic at
``cardcore.bots.greedy_<game>``; 0.3 keeps each game's parts in its package
(``cardcore.games.<game>.events``, ``cardcore.games.<game>.greedy``). Importing an old name
still works, for every game, with a DeprecationWarning: a finder on ``sys.meta_path`` (after
the real ones) maps it to the new module. Nothing here names a game.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import re
import sys
import warnings
from types import ModuleType
from typing import Any, Sequence

__all__ = ["install", "moved_name", "MOVED", "MOVED_NAMES"]

# (old module name, its new home): group 1 is the game's name.
MOVED = (
    (re.compile(r"cardcore\.games\.([a-z][a-z0-9_]*)_events"), "cardcore.games.{}.events"),
    (re.compile(r"cardcore\.bots\.greedy_([a-z][a-z0-9_]*)"), "cardcore.games.{}.greedy"),
)


# The deprecated names that moved to another module: (module, name) -> (new module, the
# release that removes the old name; docs/deprecations.md lists them). The protocol module
# asks here from its ``__getattr__``: nothing patches it.
MOVED_NAMES: dict[tuple[str, str], tuple[str, str]] = {
    ("cardcore.game", name): ("cardcore.registry", "0.5.0")
    for name in ("new_game", "load_game", "available_games", "game_class", "register")
}


def moved_name(module: str, name: str) -> Any:
    """The object a deprecated name stands for, with a DeprecationWarning; AttributeError
    for a name that never was."""
    found = MOVED_NAMES.get((module, name))
    if found is None:
        raise AttributeError(f"module {module!r} has no attribute {name!r}")
    home, removed = found
    warnings.warn(f"{module}.{name} is {home}.{name} since cardcore 0.3; the old name goes in "
                  f"{removed}", DeprecationWarning, stacklevel=3)
    return getattr(importlib.import_module(home), name)


class _Alias(importlib.abc.Loader):
    def __init__(self, target: str) -> None:
        self.target = target

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None                                   # a fresh module, filled below

    def exec_module(self, module: ModuleType) -> None:
        warnings.warn(f"{module.__name__} is {self.target} since cardcore 0.3; the old name "
                      f"goes in 0.5.0", DeprecationWarning, stacklevel=2)
        real = importlib.import_module(self.target)
        module.__dict__.update({k: v for k, v in vars(real).items() if not k.startswith("__")})
        module.__doc__ = real.__doc__

        def forward(name: str) -> Any:
            return getattr(real, name)

        module.__getattr__ = forward                  # type: ignore[method-assign]


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        for pattern, home in MOVED:
            match = pattern.fullmatch(fullname)
            if match is None:
                continue
            new = home.format(match.group(1))
            package = new.rsplit(".", 1)[0]
            try:
                found = importlib.util.find_spec(package) is not None
            except ModuleNotFoundError:
                found = False
            if found:
                return importlib.util.spec_from_loader(fullname, _Alias(new))
        return None


def install() -> None:
    """Put the finder on ``sys.meta_path`` once (after the real finders)."""
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.append(_Finder())
