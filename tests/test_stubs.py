"""Typing: the hand-written .pyi stubs match the extensions, and the package passes mypy --strict."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import cardcore

pytest.importorskip("mypy.stubtest")
pytestmark = pytest.mark.slow     # mypy runs take seconds: left out of the quick loop
ALLOWLIST = Path(__file__).with_name("stubtest_allowlist.txt")


def mypy_env() -> dict[str, str]:
    """The environment for mypy: the folder cardcore is imported from on its path. mypy reads
    the interpreter's sys.path, not its import hooks, so an editable install (setuptools'
    finder: src/ is on no path) would hide the package from it."""
    home = str(Path(cardcore.__file__).resolve().parent.parent)
    if home in {str(Path(p).resolve()) for p in sys.path if p}:
        return dict(os.environ)
    return {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (home, os.environ.get("PYTHONPATH")) if p)}


def test_stubtest_finds_no_difference():
    # Every extension module with a stub: the games' state machines and their helper modules.
    games = Path(cardcore.__file__).parent / "games"
    modules = ["cardcore._fast", "cardcore._batch", "cardcore._search"] + sorted(
        f"cardcore.games.{p.parent.name}.{p.stem}" for p in games.glob("*/_*.pyi"))
    result = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "--allowlist", str(ALLOWLIST), *modules],
        capture_output=True, text=True, timeout=600, env=mypy_env())
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_package_type_checks_strictly():
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "-p", "cardcore"],
        capture_output=True, text=True, timeout=600, env=mypy_env())
    assert result.returncode == 0, result.stdout + result.stderr
