"""The lobby on a small phone with open tables listed (issue 48, item 9): nothing wider than
the screen at 375x667, in English and Russian, with tables of every game listed, bots,
named seats and open seats to join (their name fields and Join buttons)."""
from __future__ import annotations

import json
import urllib.request

import pytest

from cardcore.registry import available_games, game_class
from test_server_browser import shot
from test_server_browser_layout import new_page

pytestmark = pytest.mark.slow       # a real browser: the quick loop leaves it out

SMALL_PHONE = {"width": 375, "height": 667}


def create(server, body) -> dict:
    request = urllib.request.Request(server.base + "/api/tables", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


@pytest.fixture(params=["en-US", "ru-RU"])
def page(browser, request):
    yield from new_page(browser, SMALL_PHONE, locale=request.param)


def test_the_lobby_with_open_tables_fits_a_small_phone(page, web_server):
    for game in available_games():
        players = game_class(game).default_players
        create(web_server, {"game": game, "seed": 1, "open_seats": [1], "join": "anyone",
                            "bots": {str(k): "greedy" for k in range(2, players)},
                            "names": {"0": "Константинопольская"}})
        create(web_server, {"game": game, "seed": 2, "bots": {"1": "level:5"}})
    page.goto(web_server.base + "/")
    page.wait_for_selector("#tables tbody tr td form.join")
    rows = page.locator("#tables tbody tr").count()
    assert rows >= 2 * len(available_games()), rows
    shot(page, f"lobby-tables-{page.evaluate('document.documentElement.lang')}-375")
    assert page.evaluate("document.documentElement.scrollWidth") <= page.evaluate("innerWidth")
    last = page.locator("#tables thead th").last.bounding_box()
    assert last["x"] + last["width"] <= 375 + 0.5, last
