"""Nothing wider than the screen (issue 35, item 2): the lobby and every game's how-to page,
in both languages, at a phone's 390x844 and a laptop's 1280x800 --
``document.documentElement.scrollWidth`` at most the viewport's width.
"""
from __future__ import annotations

import pytest

from test_server_browser import start_from_lobby
from test_server_browser_layout import LAPTOP, PHONE, new_page

pytestmark = pytest.mark.slow       # a real browser: the quick loop leaves it out

GAMES = ("crazy_eights", "durak", "kings_stakes", "kuzanasta", "manna")


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



TABLES = {"kings_stakes": ({}, 21), "kuzanasta": ({"deals": "1"}, 2), "manna": ({"dealer": "5"}, 0),
          "crazy_eights": ({}, 4), "durak": ({}, 1)}


@pytest.mark.parametrize("game", sorted(TABLES))
def test_the_table_fits_the_screen(page, web_server, game):
    options, seed = TABLES[game]
    start_from_lobby(page, web_server, game, options=options, seed=seed)
    assert too_wide(page) <= 0, game
