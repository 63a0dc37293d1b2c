"""A refusal the server sends to the Russian web table is shown in Russian (issue 24): past
the hint rate (two hints at once, then one a second), the page's toast says so in the page's
language, as the catalogs word it."""
from __future__ import annotations

import pytest

from test_server_browser import STEP_TIMEOUT, start_from_lobby
from test_server_browser_layout import LAPTOP

pytestmark = pytest.mark.slow       # a real browser: the quick loop leaves it out

# Every text the toast shows, from before the clicks on.
WATCH = """() => { window.toasts = []; new MutationObserver(() => window.toasts.push(
  document.getElementById('toast').textContent)).observe(document.getElementById('toast'),
  {childList: true, characterData: true, subtree: true}); }"""


def new_page(browser, viewport, locale):
    """A page whose console may show the refused request itself (Chromium logs every 4xx
    answer as an error) and nothing else."""
    context = browser.new_context(viewport=viewport, locale=locale)
    page = context.new_page()
    page.set_default_timeout(STEP_TIMEOUT)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    context.close()
    assert [e for e in errors if "status of 429" not in e] == [], errors


@pytest.mark.parametrize("locale, words", [("ru-RU", "не больше 0.5 подсказок в секунду"),
                                           ("en-US", "at most 0.5 hints per second")])
def test_the_hint_rate_refusal_is_in_the_pages_language(browser, web_server, locale, words):
    for page in new_page(browser, LAPTOP, locale):
        start_from_lobby(page, web_server, "crazy_eights", seed=4)
        page.evaluate(WATCH)
        for _ in range(3):
            page.click("#hint")
        page.wait_for_function(f"() => window.toasts.some(t => t.includes({words!r}))")
