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
                     "test_server_bot_fallback.py",
                     "test_envs_pettingzoo.py", "test_envs_gymnasium.py", "test_tournament.py",
                     "test_hardening.py"}


def _first_configs() -> set[str]:
    first: dict[str, str] = {}
    for name, config in all_configs():
        first.setdefault(name, repr((name, config)))
    return set(first.values())


# pytest -n N (pytest-xdist, with pyproject.toml's --dist loadgroup): the tests of one group run
# on one worker, one after another; every other test goes to whichever worker is free. Tests
# that share something outside their tmp_path share a group (below); a module whose fixtures
# are module-scoped (a server, a browser, a built example) is one group, so that its fixtures
# start once, as in a serial run. Session fixtures (the PostgreSQL cluster) start once per worker.
SHARED_GROUPS = {
    # local Dask clusters and Ray instances (their memory, Ray's session files); the example
    # plug-in pip-installed from examples/bot_plugin (pip builds it in that folder)
    "test_executors.py": "clusters", "test_tournament.py": "clusters",
    "test_bot_plugins.py": "clusters",
    # examples/generic_table: the browser test runs npm ci in it, the other walks it;
    "test_generic_table.py": "generic_table", "test_generic_table_browser.py": "generic_table",
    # ... which builds against the TypeScript client's generated types, which this writes
    "test_ts_client.py": "generic_table",
    # clients/engine: both build it (npm ci, make wasm, tsc into its dist/)
    "test_libcardcore.py": "engine", "test_offline_table_browser.py": "engine",
}


def _xdist_group(item: pytest.Item) -> str | None:
    shared = SHARED_GROUPS.get(item.path.name)
    if shared is not None:
        return shared
    info = getattr(item, "_fixtureinfo", None)
    scopes = {d.scope for defs in (info.name2fixturedefs.values() if info else ())
              for d in defs}
    if scopes & {"module", "package", "class"}:
        return item.nodeid.split("::", 1)[0]
    return None


@pytest.hookimpl(tryfirst=True)   # before xdist reads the groups (and before -m deselects)
def pytest_collection_modifyitems(config: Any, items: list[pytest.Item]) -> None:
    firsts = _first_configs()
    slow, later_config = pytest.mark.slow, pytest.mark.later_config
    for item in items:
        group = _xdist_group(item)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))
        if item.path.name in FRONT_END_MODULES:
            item.add_marker(slow)
            continue
        callspec = getattr(item, "callspec", None)
        param = callspec.params.get("config") if callspec is not None else None
        if isinstance(param, tuple) and len(param) == 2 and isinstance(param[0], str) \
                and isinstance(param[1], dict) and repr(param) not in firsts:
            item.add_marker(slow)
            item.add_marker(later_config)


GROUPS_LOST = pytest.StashKey[str]()


def pytest_collection_finish(session: pytest.Session) -> None:
    """In an xdist worker under --dist loadgroup, each grouped test's nodeid must end in
    "@group" (how xdist's scheduler finds the group). Where it does not (pytest 9.2 with
    pytest-xdist 3.8, pytest-xdist#1386), the groups are silently split over the workers:
    every module-scoped setup runs once per worker and the shared folders race. Every test
    then fails, saying why (an error raised here would crash the worker without a word)."""
    config = session.config
    if not hasattr(config, "workerinput") or not config.getvalue("loadgroup"):
        return
    for item in session.items:
        names = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                        for m in item.iter_markers("xdist_group")})    # as xdist joins them
        if names and not item.nodeid.endswith("@" + "_".join(names)):
            config.stash[GROUPS_LOST] = (
                f"pytest-xdist's --dist loadgroup does not group with pytest {pytest.__version__}"
                f" ({item.nodeid} lost its group {'_'.join(names)!r}; pytest-xdist#1386): "
                "install what pyproject.toml's [test] extra asks for (pytest<9.2)")
            return


def pytest_runtest_setup(item: pytest.Item) -> None:
    lost = item.config.stash.get(GROUPS_LOST, None)
    if lost is not None:
        pytest.fail(lost, pytrace=False)
