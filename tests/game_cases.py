"""What a generic test needs to know of one game, kept in that game's own test folder.

A generic test (``tests/test_*.py``) does not list the games (tests/test_no_per_game_tables.py).
A scenario it needs for each game (a start a player can make, the rule each end reason names,
option values to refuse) is declared in ``tests/games/<game>/cases.py`` as a module constant
and read here. A game that declares nothing gets the test's default, or is left out of a
test that only runs on declared scenarios, so a new game (the scaffold's) passes every
generic test before it declares anything.
"""
from __future__ import annotations

import importlib.util
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import Any

from cardcore.registry import available_games

GAME_TESTS = Path(__file__).resolve().parent / "games"
_REQUIRED = object()


@lru_cache(maxsize=None)
def _cases(name: str) -> ModuleType | None:
    path = GAME_TESTS / name / "cases.py"
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location(f"cases_of_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def game_case(name: str, field: str, default: Any = _REQUIRED) -> Any:
    """``field`` of ``tests/games/<name>/cases.py``, else ``default`` (no default: required)."""
    module = _cases(name)
    if module is not None and hasattr(module, field):
        return getattr(module, field)
    if default is _REQUIRED:
        raise LookupError(f"tests/games/{name}/cases.py declares no {field}")
    return default


def declared(field: str) -> list[tuple[str, Any]]:
    """(game, value) for every registered game that declares ``field``, in name order."""
    return [(name, game_case(name, field)) for name in sorted(available_games())
            if hasattr(_cases(name), field)]


def declared_params(field: str) -> list[tuple[Any, ...]]:
    """Each game's list of scenarios ``field`` as pytest parameters: (game, *scenario)."""
    return [(name, *scenario) for name, scenarios in declared(field) for scenario in scenarios]
