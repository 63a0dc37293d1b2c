"""A Durak hand in a real browser (the fixtures and helpers of tests/test_server_browser.py and
tests/test_server_browser_layout.py: Debian's chromium against `cardcore serve`, by clicks
only, a bot at the other seat): the board shows the trump and the bout, the hand and the moves
stay on screen on a phone, and the hand ends with the durak named."""
from __future__ import annotations

import random

import pytest

from test_server_browser import (  # noqa: F401  (the page fixture)
    check_finished_table, click_move, moves, page, play_to_the_end, shot, start_from_lobby,
)
from test_server_browser_layout import assert_on_screen, over, phone  # noqa: F401  (fixture)

pytestmark = pytest.mark.slow


def test_a_durak_hand_by_clicks(page, web_server):  # noqa: F811  (the fixture)
    start_from_lobby(page, web_server, "durak", options={"transfer": "true"}, seed=4)
    board = page.inner_text("#board")
    assert "Trumps" in board and "Stock" in board and "Table" in board
    assert page.locator(".seat").count() == 2
    shot(page, "durak-start")
    play_to_the_end(page, random.Random(4), prefer=("attack", "beat"))
    assert "The hand is over" in page.inner_text("#log")
    assert "durak" in page.inner_text("#log").lower()       # who is the durak, or nobody
    check_finished_table(page, "durak-over")


def test_the_hand_and_the_moves_fit_a_phone(phone, web_server):  # noqa: F811
    start_from_lobby(phone, web_server, "durak", options={}, seed=1)
    assert_on_screen(phone)
    rng = random.Random(3)
    for _ in range(4):
        if over(phone):
            break
        click_move(phone, rng.choice(moves(phone)))
        if not over(phone):
            assert_on_screen(phone)
    shot(phone, "layout-durak-phone")
