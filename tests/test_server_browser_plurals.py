"""Texts that count read as the language counts (issue 35, item 7): the web table's pile
counts come from the catalog's plural forms (``GET /api/i18n``'s ``plurals``), picked by the
browser's plural rules -- "1 card", "5 cards", «1 карта», «3 карты», «5 карт», never "(s)".
"""
from __future__ import annotations

import json
import re
import urllib.request

import pytest

from test_server_browser import start_from_lobby
from test_server_browser_layout import LAPTOP, new_page

pytestmark = pytest.mark.slow       # a real browser: the quick loop leaves it out


def test_the_words_carry_each_plural_text_with_its_forms(web_server):
    with urllib.request.urlopen(web_server.base + "/api/i18n?lang=ru&game=manna") as r:
        body = json.load(r)
    assert body["plurals"]["{count} card"] == ["{count} карта", "{count} карты", "{count} карт"]
    with urllib.request.urlopen(web_server.base + "/api/i18n?lang=en") as r:
        assert json.load(r)["plurals"] == {}       # English: the msgids are the two forms


def counts(page) -> list[str]:
    return page.eval_on_selector_all(".pile-count, .zone-line", "ns => ns.map(n => n.textContent.trim())")


PATTERNS = {"en-US": r"^(1 card|\d+ cards)$",
            "ru-RU": r"^(\d*1 карта|\d*[234] карты|\d+ карт)$"}


@pytest.fixture(params=sorted(PATTERNS))
def page(browser, request):
    yield from new_page(browser, LAPTOP, locale=request.param)


def test_pile_counts_are_plural_forms_not_card_s(page, web_server):
    locale = page.evaluate("navigator.language")
    pattern = PATTERNS[locale]
    start_from_lobby(page, web_server, "kings_stakes", seed=21)
    shown = counts(page)
    assert shown, "no pile count on the table"
    assert not [c for c in shown if "(s)" in c or ":" in c], shown
    assert [c for c in shown if not re.match(pattern, c)] == [], shown
    # The rule itself, for the counts the deal may not show: 1, 3, 11, 21, 5.
    picked = page.evaluate("""async () => {
      const { tn } = await import('/static/i18n.js');
      return [1, 3, 5, 11, 21, 22].map((n) => tn('{count} card', '{count} cards', n, { count: n }));
    }""")
    if locale == "ru-RU":
        assert picked == ["1 карта", "3 карты", "5 карт", "11 карт", "21 карта", "22 карты"]
    else:
        assert picked == ["1 card", "3 cards", "5 cards", "11 cards", "21 cards", "22 cards"]
