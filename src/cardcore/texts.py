"""What a player reads besides the narration, in the reader's language: a refusal's text
(``refusal_text``) and a game's how-to-play page (``howto_text``). The terminal
(``cardcore play``, ``cardcore rules``) and the table server (its refusals, ``/howto/{game}``)
show the same texts from here."""
from __future__ import annotations

import importlib
import re
from importlib import resources
from typing import Any

from cardcore.errors import ConfigError, IllegalActionError
from cardcore.game import CONFIG_REFUSALS, OPTION_PROBLEMS, OPTION_REFUSAL
from cardcore.i18n import N_, _, check_lang, fill, fill_template, match_template
from cardcore.registry import game_class

__all__ = ["SHARED_REFUSALS", "refusal_text", "config_text", "howto_text", "words_module"]


def words_module(game: Any) -> Any:
    """The game's ``words`` module (its package's terminal words), or None."""
    cls = game if isinstance(game, type) else type(game)
    try:
        return importlib.import_module(cls.__module__ + ".words")
    except ImportError:
        return None


# Refusals the shared Game makes (cardcore.game), as templates for translation.
SHARED_REFUSALS = (
    N_("{action} is not an action of {game}; legal now: {legal}"),
    N_("it is seat {seat}'s turn, not seat {other}'s"),
    N_("the match is over: nobody is to move"),
    N_("an action notation has at most {limit} characters, not {count}"),
)
_RULE_SUFFIX = re.compile(r"^(?P<text>.*) \[(?P<rule>[^\]]+)\]$", re.DOTALL)


def refusal_text(error: IllegalActionError, game: Any) -> str:
    """An IllegalActionError's message in the current language: the game's refusal templates
    (its words module's ``REFUSALS``), then the shared ones; the rule ID stays."""
    text, rule = str(error), ""
    m = _RULE_SUFFIX.match(text)
    if m:
        text, rule = m.group("text"), f" [{m.group('rule')}]"
    words = words_module(game)
    for template, plural in getattr(words, "PLURAL_REFUSALS", {}).items():
        values = match_template(text, template)     # "{count} card(s)": "1 card", "2 cards"
        if values is not None and values.get("count", "").isdigit():
            return fill(plural(int(values["count"])), values) + rule
    templates = tuple(getattr(words, "REFUSALS", ())) + SHARED_REFUSALS
    return fill_template(text, templates) + rule


def config_text(text: str) -> str:
    """A refusal of a game's configuration (ConfigError: an option check's, the players') in
    the current language: ``OPTION_REFUSAL`` around one of ``OPTION_PROBLEMS`` (the phrase
    saying what None means translated too: a msgid of the game's), then CONFIG_REFUSALS;
    option names, values and rule IDs stay as written. Other text stays as it is."""
    for problem in OPTION_PROBLEMS:
        values = match_template(text, OPTION_REFUSAL.replace("{problem}", problem))
        if values is not None:
            if "none_means" in values:
                values["none_means"] = _(values["none_means"])
            return fill(_(OPTION_REFUSAL), {**values, "problem": fill(_(problem), values)})
    return fill_template(text, CONFIG_REFUSALS)


def howto_text(game: str, lang: str) -> str:
    """The game's how-to-play page (Markdown) in ``lang``: ``howto.<lang>.md`` in its package.
    ConfigError if it is missing."""
    cls = game_class(game)
    lang = check_lang(lang)
    page = resources.files(cls.__module__).joinpath(f"howto.{lang}.md")
    if not page.is_file():
        raise ConfigError(f"{cls.name} has no how-to-play page in {lang}", "lang")
    return page.read_text(encoding="utf-8")
