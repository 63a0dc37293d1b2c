"""Nothing wider than the screen (issue 35, item 2): the lobby and every game's how-to page,
in both languages, at a phone's 390x844 and a laptop's 1280x800 --
``document.documentElement.scrollWidth`` at most the viewport's width. Every game's table
is checked the same way, at the start and after a few moves, by the layout test
(test_server_browser_layout.py, check_on_screen), which starts the same tables.
"""
from __future__ import annotations

import pytest

from test_server_browser import start_from_lobby
from cardcore.registry import available_games

from test_server_browser_layout import LAPTOP, PHONE, new_page

pytestmark = pytest.mark.slow       # a real browser: the quick loop leaves it out

GAMES = available_games()


@pytest.fixture(params=[(size, locale) for size in ("phone", "laptop")
                        for locale in ("en-US", "ru-RU")], ids=lambda p: f"{p[0]}-{p[1]}")
def page(browser, request):
    size, locale = request.param
    yield from new_page(browser, PHONE if size == "phone" else LAPTOP, locale=locale)


def too_wide(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def test_the_lobby_fits_the_screen(page, web_server):
    page.goto(web_server.base + "/")
    page.wait_for_selector("#game option", state="attached")
    assert too_wide(page) <= 0
    page.click("details summary")              # the options open
    assert too_wide(page) <= 0


@pytest.mark.parametrize("game", GAMES)
def test_the_howto_pages_fit_the_screen(page, web_server, game):
    page.goto(f"{web_server.base}/howto/{game}")
    page.wait_for_selector("h1")
    assert too_wide(page) <= 0, game



def test_the_header_is_one_short_line_with_the_table_id_under_a_menu(page, web_server):
    start_from_lobby(page, web_server, "kings_stakes", seed=21)
    title = page.inner_text("#title")
    assert page.evaluate("document.querySelector('header').offsetHeight") < 80
    assert page.evaluate("document.getElementById('title').offsetHeight") < 30    # one line
    assert "·" in title and len(title) < 50, title
    table = page.url.split("/tables/")[1].split("#")[0]
    assert table not in title
    assert not page.is_visible("#table-id")
    page.click("#table-menu summary")
    assert table in page.inner_text("#table-id")
