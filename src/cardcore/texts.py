"""What a player reads besides the narration, in the reader's language: a refusal's text
(``refusal_text``) and a game's how-to-play page (``howto_text``). The terminal
(``cardcore play``, ``cardcore rules``) and the table server (its refusals, ``/howto/{game}``)
show the same texts from here."""
from __future__ import annotations

from importlib import resources
from typing import Any

from cardcore.errors import ConfigError, IllegalActionError, Words
from cardcore.i18n import N_, _, check_lang, fill
from cardcore.narrate import words_module  # the game's words (here for its users)
from cardcore.registry import game_class

__all__ = ["SHARED_REFUSALS", "refusal_text", "config_text", "words_text", "howto_text",
           "words_module"]


# Refusals the shared Game makes (cardcore.game), as templates for translation.
SHARED_REFUSALS = (
    N_("{action} is not an action of {game}; legal now: {legal}"),
    N_("it is seat {seat}'s turn, not seat {other}'s"),
    N_("the match is over: nobody is to move"),
    N_("an action notation has at most {limit} characters, not {count}"),
    N_("action id {action} is outside 0..{last}"),
)


def words_text(words: Words, game: Any = None) -> str:
    """A message given as data (``Words``) in the current language: its id (the English
    template, a msgid) translated, a count's plural form by the game's ``PLURAL_REFUSALS``,
    filled with its fields, a field that is a message put in words in turn. Nothing is read
    back from English: a message without a catalog entry stays as written."""
    values = {name: words_text(value, game) if isinstance(value, Words) else str(value)
              for name, value in words.fields.items()}
    plurals = getattr(words_module(game), "PLURAL_REFUSALS", {}) if game is not None else {}
    plural = plurals.get(words.message_id)
    count = values.get("count", "")
    if plural is not None and count.isdigit():
        return fill(plural(int(count)), values)         # "{count} card(s)": "1 card", "2 cards"
    return fill(_(words.message_id), values)


def refusal_text(error: IllegalActionError, game: Any) -> str:
    """An IllegalActionError's message in the current language, from its ``words`` (the
    game's catalog first, then the shared one); the rule ID stays."""
    text = words_text(error.words, game)
    return f"{text} [{error.rule}]" if error.rule else text


def config_text(error: ConfigError, game: Any = None) -> str:
    """A ConfigError's message (an option check's, the players', a clock's) in the current
    language, from its ``words``: option names, values and rule IDs stay as written."""
    return words_text(error.words, game)


def howto_text(game: str, lang: str) -> str:
    """The game's how-to-play page (Markdown) in ``lang``: ``howto.<lang>.md`` in its package.
    ConfigError if it is missing."""
    cls = game_class(game)
    lang = check_lang(lang)
    page = resources.files(cls.__module__).joinpath(f"howto.{lang}.md")
    if not page.is_file():
        raise ConfigError(f"{cls.name} has no how-to-play page in {lang}", "lang")
    return page.read_text(encoding="utf-8")
