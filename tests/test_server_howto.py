"""How-to-play pages (docs/server.md, "The web table"; issue 24): every game's howto.<lang>.md
served as HTML in the page's language, in the web table's frame, with a link back."""
from __future__ import annotations

import re

import pytest

from cardcore.texts import howto_text
from cardcore.i18n import LANGUAGES
from cardcore.registry import available_games
from cardcore.server import create_app
from cardcore.server import howto

from server_helpers import TestClient

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with TestClient(create_app(tmp_path_factory.mktemp("howto") / "t.sqlite3")) as c:
        yield c


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", available_games())
def test_every_game_has_its_page_in_both_languages(client, game, lang):
    r = client.get(f"/howto/{game}", params={"lang": lang})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "script-src 'self'" in r.headers["content-security-policy"]
    page = r.text
    assert f'<html lang="{lang}">' in page and '<link rel="stylesheet" href="/static/style.css">' in page
    text = howto_text(game, lang)
    first = text.splitlines()[0].removeprefix("# ")
    assert re.search(r"<h1>(.*?)</h1>", page).group(1).replace("&#x27;", "'") == first
    assert page.count("<h2>") == len(re.findall(r"^## ", text, re.M)) >= 3
    assert "<strong>" in page and "<code>" in page               # rendered, not raw Markdown
    assert page.count('<a href="/" class="back">') == 2          # the way back
    other = next(code for code in LANGUAGES if code != lang)
    assert f'href="/howto/{game}?lang={other}"' in page


def test_the_language_comes_from_accept_language_without_lang(client):
    page = client.get("/howto/manna", headers={"Accept-Language": "ru-RU,ru;q=0.9"}).text
    assert '<html lang="ru">' in page and "Назад в лобби" in page
    assert '<html lang="en">' in client.get("/howto/manna").text


def test_unknown_games_and_languages_are_refused(client):
    r = client.get("/howto/no_such_game")
    assert r.status_code == 404 and r.json()["error"] == "no such game" \
        and r.json()["code"] == "not_found"
    r = client.get("/howto/manna", params={"lang": "de"})
    assert r.status_code == 422 and r.json()["option"] == "lang"


def test_html_in_the_markdown_is_escaped(monkeypatch):
    monkeypatch.setattr(howto, "_howto_markdown",
                        lambda game, lang: "# Title <b>x</b>\n\n<script>alert(1)</script>\n")
    howto.howto_page.cache_clear()
    try:
        page = howto.howto_page("kings_stakes", "en")
    finally:
        howto.howto_page.cache_clear()
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert "<b>" not in page and "<title>Title &lt;b&gt;x&lt;/b&gt; · cardcore</title>" in page


CLICK_AND_TYPE = {"en": ("clicking", "type in the terminal"),
                  "ru": ("нажатием", "набирают в терминале")}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", available_games())
def test_every_page_says_the_web_table_is_clicked_and_the_notation_typed(client, game, lang):
    """Issue 35, item 7: the page (shared with `cardcore rules`, written in the terminal's
    notation) tells a player at the web table that moves are made by clicking, and that a
    move in code is what the terminal takes, before its first section."""
    page = client.get(f"/howto/{game}", params={"lang": lang}).text
    note = re.search(r'<p class="ways-to-play">(.*?)</p>', page, re.S)
    assert note, game
    clicking, typing = CLICK_AND_TYPE[lang]
    assert clicking in note.group(1) and typing in note.group(1)
    assert "<code>cardcore play</code>" in note.group(1)
    assert page.index("</h1>") < note.start() < page.index("<h2>")
