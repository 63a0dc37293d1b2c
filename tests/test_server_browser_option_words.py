"""A refusal of a table's options is shown in the Russian lobby in Russian (issue 24): Kings'
Stakes' rounds must be a multiple of the players (a cross-option rule the form's bounds do
not know), so the server's 422 reaches the lobby's error line, in the page's language, its
rule ID kept; the English page keeps the English text."""
from __future__ import annotations

import pytest

from test_server_browser_layout import LAPTOP, new_page

pytestmark = pytest.mark.slow       # a real browser: the quick loop leaves it out


@pytest.mark.parametrize("locale, words", [
    ("ru-RU", "параметр rounds=3: должен быть None (по одному на игрока) или положительным "
              "числом, кратным числу игроков (2)"),
    ("en-US", "option rounds=3: must be None (one per player) or a positive multiple of the "
              "number of players (2)")])
def test_an_option_refusal_is_in_the_lobbys_language(browser, web_server, locale, words):
    for page in new_page(browser, LAPTOP, ignore=("status of 422",), locale=locale):
        page.goto(web_server.base + "/")
        page.select_option("#game", "kings_stakes")
        page.select_option("#players", "2")
        page.click("details summary")
        page.fill("[data-option=rounds]", "3")
        page.click("#create")
        error = page.locator("#lobby-error")
        error.get_by_text(words).wait_for()
        assert error.text_content().endswith("(KS-9.4)")
        assert page.url.rstrip("/") == web_server.base       # no table was made
