"""Fixtures of the browser tests (tests/test_server_browser*.py), registered by conftest.py:
Debian's chromium driven by Playwright for Python, and a `cardcore serve` for it to visit."""
from __future__ import annotations

import shutil

import pytest

from server_helpers import ServerProcess

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def web_server(tmp_path_factory):
    """A `cardcore serve` whose bots move at once (bot_delay 0). A browser test file starts
    dozens of tables in seconds from one address, and leaves them open: past the default
    creation rate and open tables per address (tested in test_server_limits.py), so both are
    raised here."""
    process = ServerProcess(tmp_path_factory.mktemp("browser") / "tables.sqlite3", bot_delay=0,
                            extra=("--create-rate", "100", "--create-burst", "200",
                                   "--max-tables-per-client", "1000"))
    yield process
    process.stop()


@pytest.fixture(scope="module")
def browser():
    if shutil.which(CHROMIUM) is None:    # CI installs it (.ci/run); no skip there
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium", pytrace=False)
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()
