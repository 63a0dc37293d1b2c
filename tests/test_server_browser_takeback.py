"""Take-back works against bots in the web table (issue 24; docs/server.md "Take-backs"): a
table started from the lobby with take-backs allowed shows a Take back button beside Hint,
reachable by keyboard; it undoes the move and the bots' replies (the hand, the log and the
event count are those before the move) on a phone and a laptop, in English and in Russian."""
from __future__ import annotations

import pytest

from test_server_browser import click_move, moves, shot, wait_for_turn
from test_server_browser_layout import LAPTOP, PHONE, axe_violations, new_page

pytestmark = pytest.mark.slow       # a real browser: the quick loop leaves it out

HAND = "() => [...document.querySelectorAll('#hand button.card')].map(b => b.dataset.card)"
LOG = "() => document.querySelectorAll('#log li').length"


def start_with_takebacks(page, web_server, game="kings_stakes", seed=21):
    page.goto(web_server.base + "/")
    page.select_option("#game", game)
    page.check("#takeback")
    page.click("details summary")
    page.fill("#seed", str(seed))
    page.click("#create")
    page.wait_for_url("**/tables/*#token=*")
    wait_for_turn(page)


def on_screen(page, selector):
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"] \
        and box["x"] >= 0 and box["x"] + box["width"] <= size["width"]


@pytest.mark.parametrize("viewport", ["phone", "laptop"])
def test_take_back_works_against_bots(browser, web_server, viewport):
    for page in new_page(browser, PHONE if viewport == "phone" else LAPTOP):
        start_with_takebacks(page, web_server)
        undo = page.locator("#undo")
        assert undo.is_visible() and undo.is_disabled()          # nothing to take back yet
        assert undo.inner_text() == "Take back" and on_screen(page, "#undo")
        hand, log = page.evaluate(HAND), page.evaluate(LOG)
        before = page.evaluate("document.body.dataset.eventCount")
        click_move(page, moves(page)[0])
        assert page.evaluate("document.body.dataset.eventCount") != before
        assert page.evaluate(HAND) != hand
        page.wait_for_function("() => !document.getElementById('undo').disabled")
        shot(page, f"takeback-before-{viewport}")
        if viewport == "laptop":                     # by keyboard: Tab to it, then Enter
            for _ in range(80):
                page.keyboard.press("Tab")
                if page.evaluate("document.activeElement.id") == "undo":
                    break
            assert page.evaluate("document.activeElement.id") == "undo"
            page.keyboard.press("Enter")
        else:
            undo.click()
        page.wait_for_function(f"() => document.body.dataset.eventCount === '{before}'")
        wait_for_turn(page)
        assert page.evaluate(HAND) == hand and page.evaluate(LOG) == log
        assert undo.is_disabled()                   # the move before was the bots' (or none)
        shot(page, f"takeback-after-{viewport}")
        # Play on from the rewound position.
        click_move(page, moves(page)[-1])
        assert page.evaluate("document.body.dataset.eventCount") != before
        assert axe_violations(page) == []


def test_take_back_in_russian(browser, web_server):
    for page in new_page(browser, LAPTOP, locale="ru-RU"):
        page.goto(web_server.base + "/")
        page.wait_for_selector("#game option", state="attached")
        assert "Разрешить отмену ходов" in page.inner_text("#new-table")
        start_with_takebacks(page, web_server, "crazy_eights", seed=4)
        assert page.inner_text("#undo") == "Отменить ход"
        before = page.evaluate("document.body.dataset.eventCount")
        click_move(page, moves(page)[0])
        page.click("#undo")
        page.wait_for_function(f"() => document.body.dataset.eventCount === '{before}'")
        wait_for_turn(page)
        shot(page, "takeback-ru")
