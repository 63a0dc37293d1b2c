"""A Crazy Eights hand in a real browser (the fixtures and helpers of tests/test_server_browser.py:
Debian's chromium against `cardcore serve`, by clicks only, bots at the other seats)."""
from __future__ import annotations

import random

import pytest

from test_server_browser import (  # noqa: F401  (the page fixture)
    check_finished_table, click_move, moves, page, play_to_the_end, shot, start_from_lobby,
    wait_for_turn,
)

pytestmark = pytest.mark.slow


def test_a_crazy_eights_hand_by_clicks(page, web_server):  # noqa: F811  (the fixture)
    start_from_lobby(page, web_server, "crazy_eights", options={"use_special_cards": "true"}, seed=4)
    board = page.inner_text("#board")
    assert "Suit to follow" in board and "Draws this turn" in board and "Stock" in board
    assert page.locator(".seat").count() == 5 and page.locator("#hand button.card").count() == 5
    shot(page, "crazy_eights-start")
    draws = [m for m in moves(page) if m["kind"] == "draw"]
    if draws:                                      # draw by clicking the stock once
        before = page.evaluate("document.body.dataset.eventCount")
        page.click(".zone.clickable[data-kind=draw]")
        page.wait_for_function(f"() => document.body.dataset.eventCount !== '{before}'")
        wait_for_turn(page)
        assert "You drew" in page.inner_text("#log")
    plays = [m for m in moves(page) if m["kind"] == "play"]
    if plays:
        click_move(page, plays[0])
        assert "You played" in page.inner_text("#log")
    play_to_the_end(page, random.Random(4), prefer=("play", "nominate"))
    assert "The hand is over" in page.inner_text("#log")   # the server's sentence
    check_finished_table(page, "crazy_eights-over")
