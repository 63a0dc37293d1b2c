"""How-to-play pages of the table server (docs/server.md, "The web table"): ``GET
/howto/{game}?lang=``.

Each game's package holds ``howto.<lang>.md`` (the page ``cardcore rules GAME`` prints); here
it is rendered to HTML by markdown-it-py (CommonMark with tables; raw HTML in the Markdown is
escaped, not passed through), in the page frame of the web table: its stylesheet and header,
the other language's version, and a link back to the lobby.
"""
from __future__ import annotations

import functools
import html

from markdown_it import MarkdownIt

from cardcore.errors import ConfigError, Words
from cardcore.i18n import LANGUAGES, N_, translations
from cardcore.registry import game_class
from cardcore.server.messages import LANG_CHOICE

__all__ = ["howto_page", "LANGUAGE_NAMES"]

# Each language by its own name (as the pages' language picker shows it).
LANGUAGE_NAMES = {"en": "English", "ru": "Русский"}

BACK = N_("Back to the lobby")
OTHER_LANGUAGES = N_("Languages")
# The page is shared with the terminal (`cardcore rules GAME` prints it) and writes moves in
# the notation typed there; on the web it first says how a player who clicks makes them.
WAYS_TO_PLAY = N_("At the web table you play by clicking: a move's button, or a card in your "
                  "hand to see the moves that use it. A move written `like this` is what you "
                  "type in the terminal (`cardcore play`), where `h` explains every move.")

PAGE = """<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · cardcore</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/style.css">
</head>
<body class="howto-page" data-game="{game}">
<header>
  <a href="/" class="brand">cardcore</a>
  <span id="title">{game_title}</span>
  <nav class="languages" aria-label="{other}">{languages}</nav>
</header>
<main class="howto">
<p><a href="/" class="back">← {back}</a></p>
{body}
<p><a href="/" class="back">← {back}</a></p>
</main>
</body>
</html>
"""

_markdown = MarkdownIt("commonmark", {"html": False}).enable("table")


def _howto_markdown(game: str, lang: str) -> str | None:
    from cardcore.texts import howto_text        # the page `cardcore rules GAME` prints
    try:
        return howto_text(game, lang)
    except ConfigError:
        return None


@functools.lru_cache(maxsize=64)
def howto_page(game: str, lang: str) -> str | None:
    """The page of ``game`` in ``lang`` as HTML; None when the game has no page in that
    language. ConfigError for an unknown game or language."""
    cls = game_class(game)
    if lang not in LANGUAGES:
        raise ConfigError(Words(LANG_CHOICE, {"languages": ", ".join(LANGUAGES)}), "lang")
    text = _howto_markdown(cls.name, lang)
    if text is None:
        return None
    tokens = _markdown.parse(text)
    heading = next((tokens[i + 1].content for i, t in enumerate(tokens)
                    if t.type == "heading_open" and t.tag == "h1"), None)
    words = translations(lang, cls)
    title = heading or words.gettext(cls.title)
    links = []
    for code in LANGUAGES:
        name = html.escape(LANGUAGE_NAMES.get(code, code))
        if code == lang:
            links.append(f'<span aria-current="page" lang="{code}">{name}</span>')
        elif _howto_markdown(cls.name, code) is not None:
            links.append(f'<a href="/howto/{cls.name}?lang={code}" hreflang="{code}" '
                         f'lang="{code}">{name}</a>')
    return PAGE.format(lang=lang, title=html.escape(title), game=cls.name,
                       game_title=html.escape(words.gettext(cls.title)),
                       other=html.escape(words.gettext(OTHER_LANGUAGES)),
                       languages=" ".join(links), back=html.escape(words.gettext(BACK)),
                       body=_with_ways_to_play(_markdown.render(text), words.gettext(WAYS_TO_PLAY)))


def _with_ways_to_play(body: str, ways: str) -> str:
    """The page's HTML with the note on clicking and typing after its title's paragraph (the
    first one after the h1), before the first section."""
    note = str(_markdown.render(ways)).replace("<p>", '<p class="ways-to-play">', 1)
    title = body.find("</h1>")
    end = body.find("</p>", title) if title >= 0 else -1
    heading = body.find("<h2>")
    if end < 0 or 0 <= heading < end:
        at = heading if heading >= 0 else len(body)
    else:
        at = end + len("</p>\n")
    return body[:at] + note + body[at:]
