"""Manna's melds at a laptop's 1280x800 (issue 48, item 9): after 40 moves every meld zone
of both teams is whole in sight on the felt, above the bar of the hand and the moves, with
nothing to scroll. Playwright drives Debian's chromium against `cardcore serve`."""
from __future__ import annotations

import random

import pytest

from test_server_browser import click_move, moves, over, shot, start_from_lobby
from test_server_browser_layout import LAPTOP, new_page

pytestmark = pytest.mark.slow       # a real browser: the quick loop leaves it out

MELDS = """() => { const box = (n) => n.getBoundingClientRect();
  const board = box(document.getElementById('board'));
  const bottom = Math.min(board.bottom, box(document.getElementById('dock')).top, innerHeight);
  return {board: [board.top, bottom], scrolled: document.getElementById('board').scrollTop,
          melds: [...document.querySelectorAll('#board [data-zone^="meld:"]')]
            .map((z) => [z.dataset.zone, box(z).top, box(z).bottom, box(z).left, box(z).right])}; }"""


@pytest.fixture
def laptop_ru(browser):
    yield from new_page(browser, LAPTOP, locale="ru-RU")


@pytest.mark.parametrize("seed", [0, 3])
def test_every_meld_is_in_sight_after_40_moves(laptop_ru, web_server, seed):
    page = laptop_ru
    start_from_lobby(page, web_server, "manna", seed=seed)
    rng = random.Random(seed)
    while int(page.evaluate("document.body.dataset.eventCount")) < 120 and not over(page):
        options = moves(page)
        melds = [m for m in options if m["kind"] in ("meld", "add", "take_pile")]
        click_move(page, rng.choice(melds or options))
    found = page.evaluate(MELDS)
    shot(page, f"manna-melds-{seed}")
    assert len(found["melds"]) >= 6, found
    top, bottom = found["board"]
    hidden = [m for m in found["melds"] if m[1] < top - 0.5 or m[2] > bottom + 0.5
              or m[3] < 0 or m[4] > 1280.5]
    assert not hidden and found["scrolled"] == 0, found
