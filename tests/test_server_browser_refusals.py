"""A refusal the server sends to the Russian web table is shown in Russian (issue 24): past
the hint rate (two hints at once, then one a second), the page's toast says so in the page's
language, as the catalogs word it."""
from __future__ import annotations

import pytest

from test_server_browser import start_from_lobby
from test_server_browser_layout import LAPTOP, new_page

pytestmark = pytest.mark.slow       # a real browser: the quick loop leaves it out

# Every text the toast shows, from before the clicks on.
WATCH = """() => { window.toasts = []; new MutationObserver(() => window.toasts.push(
  document.getElementById('toast').textContent)).observe(document.getElementById('toast'),
  {childList: true, characterData: true, subtree: true}); }"""


@pytest.mark.parametrize("locale, words", [("ru-RU", "не больше 0.5 подсказок в секунду"),
                                           ("en-US", "at most 0.5 hints per second")])
def test_the_hint_rate_refusal_is_in_the_pages_language(browser, web_server, locale, words):
    for page in new_page(browser, LAPTOP, ignore=("status of 429",), locale=locale):
        start_from_lobby(page, web_server, "crazy_eights", seed=4)
        page.evaluate(WATCH)
        for _ in range(3):
            page.click("#hint")
        page.wait_for_function(f"() => window.toasts.some(t => t.includes({words!r}))")
