"""The release: one version everywhere (the package, the command line, the server), the
changelog in the form of Keep a Changelog with the version on top, a removal version for every
deprecation, and the README's test command what CI runs."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import cardcore

REPO = Path(__file__).resolve().parent.parent
CHANGELOG = REPO / "CHANGELOG.md"
DEPRECATIONS = REPO / "docs" / "deprecations.md"
RELEASE = re.compile(r"^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$", re.M)
SECTIONS = {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def test_the_version_is_0_4_0_everywhere():
    assert cardcore.__version__ == "0.4.0"
    done = subprocess.run([sys.executable, "-m", "cardcore", "--version"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "cardcore 0.4.0", done


def test_the_server_says_its_version(tmp_path):
    from server_helpers import TestClient

    from cardcore.server import create_app
    with TestClient(create_app(tmp_path / "t.sqlite3")) as client:
        assert client.get("/api/games").json()["version"] == cardcore.__version__
        assert client.get("/openapi.json").json()["info"]["version"] == cardcore.__version__


def test_the_changelog_keeps_a_changelog_from_0_1_on():
    text = CHANGELOG.read_text(encoding="utf-8")
    assert text.startswith("# Changelog\n") and "https://keepachangelog.com/" in text
    assert "\n## [Unreleased]\n" in text
    releases = RELEASE.findall(text)
    versions = [v for v, _ in releases]
    assert versions[0] == cardcore.__version__               # the newest release on top
    assert {"0.1.0", "0.2.0", "0.3.0", "0.4.0"} <= set(versions)
    assert sorted(versions, key=_version, reverse=True) == versions
    dates = [d for _, d in releases]
    assert sorted(dates, reverse=True) == dates
    for heading in re.findall(r"^### (.+)$", text, re.M):
        assert heading in SECTIONS, heading
    for version, body in zip(versions, re.split(r"^## \[\d+\.\d+\.\d+\].*$", text, flags=re.M)[1:]):
        assert "### Added" in body, version


def _deprecations() -> list[list[str]]:
    rows = [line.strip("|").split("|") for line in
            DEPRECATIONS.read_text(encoding="utf-8").splitlines()
            if line.startswith("| ") and not line.startswith("| What ")]
    assert rows
    return [[cell.strip() for cell in row] for row in rows]


def test_every_deprecation_goes_in_a_later_release():
    released = set(RELEASE.findall(CHANGELOG.read_text(encoding="utf-8")))
    released_versions = {v for v, _ in released}
    major, minor, _patch = _version(cardcore.__version__)
    coming = f"{major}.{minor + 1}.0"              # the release the Unreleased section becomes
    for what, since, instead, goes in _deprecations():
        assert since in released_versions | {coming}, what
        assert instead, what
        assert _version(goes) > _version(cardcore.__version__), what
        assert _version(goes) > _version(since), what


def test_the_old_module_names_warn_with_their_removal_version():
    goes = {row[3] for row in _deprecations() if "greedy_<game>" in row[0]}
    assert len(goes) == 1
    old = f"cardcore.bots.greedy_{cardcore.available_games()[0]}"
    sys.modules.pop(old, None)       # another test may have imported it (no warning then)
    try:
        with pytest.warns(DeprecationWarning, match=re.escape(f"goes in {goes.pop()}")):
            __import__(old)
    finally:                         # imported again, it warns again (tests/test_layout.py)
        sys.modules.pop(old, None)


def test_ci_runs_the_readme_test_command_as_written():
    """.ci/run takes the README's test command from README.md (the one indented line its grep
    finds) and runs it: the install in front, ``python -m pytest -n auto`` as the suite job.
    Nothing else goes into the test venv (torch once did, apart from the README's line)."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    command = re.search(r"run the test suite:\n\n    (.+)\n", readme).group(1)
    install, run = command.split(" && ")
    assert install.startswith('pip install ".[test]"') and run == "python -m pytest -n auto"
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert """grep -E '^    pip install "\\.\\[test\\]".* && python -m pytest' README.md""" in ci
    found = re.findall(r'^    (pip install "\.\[test\]".* && python -m pytest.*)$', readme, re.M)
    assert found == [command]
    assert 'eval "$README_INSTALL"' in ci and 'eval "$README_TEST"' in ci
    code = [line for line in ci.splitlines() if not line.lstrip().startswith("#")]
    assert not [line for line in code if re.search(r'pip install .*(torch|"\.\[test\]")', line)]
