"""The quick loop (``pytest -m "not slow"``) is the engine: the rule, conformance,
observation, event and schema suites, those parametrized over game configurations on each
game's first configuration only. The front-end suites (CLI, server protocol, RL adapters,
tournaments, hostile input) and the configurations after the first are ``slow``; the full
suite (CI, the README command) runs everything."""
from __future__ import annotations

from typing import Any

import pytest

from invariants import all_configs
from pg_cluster import pg_cluster, pg_url  # noqa: F401  (the PostgreSQL store's tests)
from browser_fixtures import browser, web_server  # noqa: F401  (the browser tests)


FRONT_END_MODULES = {"test_cli.py", "test_server.py", "test_server_limits.py",
                     "test_server_lifecycle.py", "test_server_metrics.py",
                     "test_server_bots.py", "test_server_openapi.py",
                     "test_envs_pettingzoo.py", "test_envs_gymnasium.py", "test_tournament.py",
                     "test_hardening.py"}


def _first_configs() -> set[str]:
    first: dict[str, str] = {}
    for name, config in all_configs():
        first.setdefault(name, repr((name, config)))
    return set(first.values())


def pytest_collection_modifyitems(config: Any, items: list[pytest.Item]) -> None:
    firsts = _first_configs()
    slow = pytest.mark.slow
    for item in items:
        if item.path.name in FRONT_END_MODULES:
            item.add_marker(slow)
            continue
        callspec = getattr(item, "callspec", None)
        param = callspec.params.get("config") if callspec is not None else None
        if isinstance(param, tuple) and len(param) == 2 and isinstance(param[0], str) \
                and isinstance(param[1], dict) and repr(param) not in firsts:
            item.add_marker(slow)
