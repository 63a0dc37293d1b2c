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


PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}


def russian_page(browser, viewport):
    """A tab in Russian (Accept-Language ru-RU) at a phone's or a laptop's size that logs no
    console error."""
    context = browser.new_context(viewport=viewport, locale="ru-RU")
    tab = context.new_page()
    tab.set_default_timeout(20_000)
    errors: list[str] = []
    tab.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    tab.on("pageerror", lambda e: errors.append(str(e)))
    yield tab
    context.close()
    assert errors == [], errors


@pytest.mark.parametrize("viewport", ["phone", "laptop"])
def test_du_13_1_a_several_card_attack_by_taps_in_russian(browser, web_server, viewport):
    """Seed 7 (two players): seat 0 leads with J♠ J♦ J♥ in hand; tapping two of them offers
    the attack with both, and the three at once is one move too."""
    for tab in russian_page(browser, PHONE if viewport == "phone" else LAPTOP):
        start_from_lobby(tab, web_server, "durak", options={"attack_many": "true"}, seed=7)
        several = [m for m in moves(tab) if len(m["cards"].split()) > 1]
        assert {m["label"] for m in several} >= {"attack JS JD JH", "attack JS JD"}, several
        three = [m for m in several if m["label"] == "attack JS JD JH"][0]
        click_move(tab, three, wait=False)
        tab.wait_for_function("() => document.querySelectorAll('#hand button.card').length"
                               " <= 3 || document.body.dataset.myTurn === 'true'")
        log = tab.inner_text("#log")
        assert "Вы пошли J♠ J♦ J♥" in log, log
        shot(tab, f"durak-several-cards-{viewport}")


def fools_count(tab) -> list[list[int]]:
    """The score table's rows: each hand's running fool's count, seat by seat."""
    rows = tab.locator("#score-table tbody tr")
    return [list(map(int, rows.nth(k).inner_text().split()[1:])) for k in range(rows.count())]


def check_match_end(tab, viewport) -> list[list[int]]:
    tab.wait_for_function("() => document.body.dataset.panel === 'match'")
    counts = fools_count(tab)
    assert len(counts) == 3
    assert all(a <= b for row0, row1 in zip(counts, counts[1:])
               for a, b in zip(row0, row1))                  # a running count
    assert sum(counts[-1]) <= 3
    assert "Все партии сыграны. Счёт дураков:" in tab.inner_text("#log")
    shot(tab, f"durak-three-hands-{viewport}")
    return counts


def check_carried(tab, viewport, counts) -> None:
    tab.wait_for_selector("#score-table tr.carried")
    carried = tab.locator("#score-table tr.carried").inner_text().split()
    assert carried[:3] == ["до", "этой", "игры"], carried
    assert list(map(int, carried[3:])) == counts[-1], (carried, counts)
    assert tab.locator("#score-table tbody tr").count() == 1
    shot(tab, f"durak-rematch-count-{viewport}")


def test_du_12_a_three_hand_match_with_the_fools_count_in_russian(browser, web_server):
    """hands=3: three hands by taps on a phone, a row of the fool's count after each, the
    match's end says the count; the rematch's table starts from it (a row «до этой игры»).
    The same two tables then read on a laptop (its seat's link in a tab of that size): the
    hands are played once, since taps on a laptop play a whole hand in
    test_a_durak_hand_by_clicks and the count is the server's, not the viewport's."""
    for phone in russian_page(browser, PHONE):
        for laptop in russian_page(browser, LAPTOP):
            start_from_lobby(phone, web_server, "durak", options={"hands": "3"}, seed=3)
            play_to_the_end(phone, random.Random(3), prefer=("attack", "beat", "pass"))
            counts = check_match_end(phone, "phone")
            finished = phone.url
            laptop.goto(finished)
            assert check_match_end(laptop, "laptop") == counts
            # «Реванш» continues the count: the new match's score table starts from it
            phone.click("#rematch")
            phone.wait_for_url(lambda url: url != finished)
            check_carried(phone, "phone", counts)
            laptop.goto(phone.url)
            check_carried(laptop, "laptop", counts)
