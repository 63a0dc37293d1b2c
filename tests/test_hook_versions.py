"""The kernels' hook table carries its size and version (src/cardcore/core/kernel.h,
GAME_HOOKS_HEAD; docs/adding-a-game.md, "The hook table's version"), as the Python extension
reads it: a game built against an older release's headers (a version-1 table, shorter, no
solve) imports and has no solver, whatever lies after its table; a table newer than the
core's, shorter than version 1's or longer than the core's is an ImportError at import
(``check_hooks``). A fixture kernel (tests/fixtures/hook_versions_state.pyx) compiled here
gives the tables. The C library's side is tests/c/test_abi.c."""
from __future__ import annotations

from pathlib import Path

import pytest

from fixture_kernels import build_fixture_kernel

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "hook_versions_state.pyx"
# Compiled with the machine's C compiler, like tests/test_team_zones.py: out of the quick loop.
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def kernel(tmp_path_factory):
    """The fixture kernel, built with Cython against this checkout's cardcore/_fast.pxd."""
    return build_fixture_kernel(FIXTURE, tmp_path_factory.mktemp("hook_versions"))


def test_an_older_releases_table_imports_and_has_no_solver(kernel):
    current, old = kernel.OneMoveState(), kernel.OneMoveState(old=True)
    for state in (current, old):
        state.start()
    assert current.has_solver and current.solve_moves() == [(0, 1)]
    assert not old.has_solver and old.solve_moves() is None
    old.apply(0)                          # the version-1 hooks play
    assert old.is_over


def test_tables_this_core_cannot_read_are_refused_at_import(kernel):
    assert kernel.refusal(kernel.VERSION, kernel.SIZE) is None
    assert kernel.refusal(kernel.MIN_VERSION, kernel.MIN_SIZE) is None
    reads = (f"this core reads versions {kernel.MIN_VERSION}..{kernel.VERSION} of "
             f"{kernel.MIN_SIZE}..{kernel.SIZE} bytes")
    newer = kernel.refusal(kernel.VERSION + 1, kernel.SIZE)
    assert newer == (f"game one_move: its hook table is version {kernel.VERSION + 1} of "
                     f"{kernel.SIZE} bytes; {reads} (build the game against this cardcore's "
                     "headers; its table opens with GAME_HOOKS_HEAD)")
    # No GAME_HOOKS_HEAD (zeros), too short: its name is not read.
    assert kernel.refusal(0, 0).startswith("game ?: its hook table is version 0 of 0 bytes;")
    assert reads in kernel.refusal(kernel.MIN_VERSION, kernel.MIN_SIZE - 4)
    assert reads in kernel.refusal(kernel.VERSION, kernel.SIZE + 8)

