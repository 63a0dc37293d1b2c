"""A Durak hand in a real browser (the fixtures and helpers of tests/test_server_browser.py:
Debian's chromium against `cardcore serve`, by clicks
only, a bot at the other seat): the board shows the trump and the bout, and the hand ends
with the durak named (on a phone and a laptop: the generic tests/test_server_browser_layout.py)."""
from __future__ import annotations

import random

import pytest

from test_server_browser import (  # noqa: F401  (the page fixture)
    check_finished_table, click_move, moves, page, play_to_the_end, shot, start_from_lobby,
)

pytestmark = pytest.mark.slow


def test_a_durak_hand_by_clicks(page, web_server):  # noqa: F811  (the fixture)
    start_from_lobby(page, web_server, "durak", options={"transfer": "true"}, seed=4)
    board = page.inner_text("#board")
    assert "Trumps" in board and "Stock" in board and "Table" in board
    assert page.locator(".seat").count() == 2
    shot(page, "durak-start")
    play_to_the_end(page, random.Random(4), prefer=("attack", "beat"))
    assert "The game is over" in page.inner_text("#log")
    assert "durak" in page.inner_text("#log").lower()       # who is the durak, or nobody
    check_finished_table(page, "durak-over")
