"""The Node packages some tests need, installed by the tests themselves: ``npm ci`` in a folder
with a package-lock.json (clients/typescript, tests/web, examples/generic_table) when its
node_modules is missing or older than the lock file, so that the README's test command needs
nothing but Node.js 20+ and npm on PATH.

Safe under pytest-xdist: two workers that want the same folder at once take turns on an
exclusive lock, and the second finds the packages current and installs nothing. The lock file
lives in the temporary directory, not in the folder: tests/test_generic_table.py lists the
example's files at collection, and every worker must list the same ones."""
from __future__ import annotations

import fcntl
import hashlib
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

NPM_CI = ("ci", "--no-audit", "--no-fund", "--loglevel=error")
NPM_TIMEOUT = 600                      # seconds; about 10 s each on a warm npm cache

# Per process (a pytest run, or each xdist worker's): a folder is checked, and its failure
# kept, once per session, not before every test that needs it.
_checked: dict[Path, str | None] = {}


def current(folder: Path) -> bool:
    """Whether folder/node_modules is what npm ci installs from folder/package-lock.json now.
    npm writes node_modules/.package-lock.json last, so it is missing after an interrupted
    install and older than a lock file changed since (a pull, a branch switch)."""
    installed = folder / "node_modules" / ".package-lock.json"
    try:
        return installed.stat().st_mtime >= (folder / "package-lock.json").stat().st_mtime
    except FileNotFoundError:
        return False


def _excerpt(output: str) -> str:
    # npm says why first (its code and message) and where its log is last: keep both ends.
    return output if len(output) <= 6000 else f"{output[:4000]}\n...\n{output[-1500:]}"


def _lock_path(folder: Path) -> Path:
    key = hashlib.sha256(str(folder).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"cardcore-npm-ci-{key}.lock"


def _install(folder: Path) -> str | None:
    """None once folder's packages are current, else what went wrong and what to do."""
    with open(_lock_path(folder), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)       # released when the file closes
        if current(folder):
            return None
        npm = shutil.which("npm")
        if npm is None:
            return (f"npm is not on PATH: the tests install {folder}'s Node packages with "
                    "npm ci; install Node.js 20+ and npm (apt-get install nodejs npm on "
                    "Debian/Ubuntu)")
        try:
            result = subprocess.run([npm, *NPM_CI], cwd=folder, capture_output=True, text=True,
                                    timeout=NPM_TIMEOUT)
        except subprocess.TimeoutExpired:
            return (f"npm ci in {folder} took more than {NPM_TIMEOUT} s: is the npm registry "
                    "reachable? (npm config get registry)")
        if result.returncode != 0:
            return (f"npm ci in {folder} exited {result.returncode}; npm said:\n"
                    + _excerpt(result.stdout + result.stderr))
        if not current(folder):
            return f"npm ci in {folder} wrote no node_modules/.package-lock.json"
        return None


def node_packages(folder: Path) -> Path:
    """folder's node_modules, installed by npm ci first if missing or stale; a failure fails
    the test (CI skips nothing) with npm's output."""
    folder = folder.resolve()
    if folder not in _checked:
        _checked[folder] = _install(folder)
    failure = _checked[folder]
    if failure is not None:
        pytest.fail(failure, pytrace=False)
    return folder / "node_modules"
