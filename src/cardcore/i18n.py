"""Message catalogs: the words people read, in English or Russian.

The texts are gettext catalogs (``.po``, written and extracted with Babel; compiled to ``.mo``
when the package is built, see setup.py) read at run time by the standard library's
``gettext``. English is the source language: the msgids are the English texts, so ``lang="en"``
needs no catalog. There is one catalog for the shared words (narration every game has, the
terminal's own texts: ``cardcore/locale``) and one per game in its package
(``cardcore/games/<game>/locale``); a game's words are looked up in its catalog first, then in
the shared one.

Where text is produced it takes ``lang=`` (``narrate.describe(..., lang="ru")``,
``cardcore play --lang ru``); an unknown language is a ConfigError naming ``lang``. Code that
writes words marks them with ``_()`` (from this module), which translates into the language
of the innermost ``use(lang, game)`` block: a context variable, so threads and asyncio tasks
each keep their own. Rule IDs, card notations and action notations are never translated.
"""
from __future__ import annotations

import contextlib
import functools
import gettext as _gettext
import re
from contextvars import ContextVar
from importlib import resources
from typing import Any, Callable, Iterable, Iterator, Mapping

from cardcore.errors import ConfigError, echo

__all__ = ["LANGUAGES", "DEFAULT_LANG", "DOMAIN", "check_lang", "translations", "use", "enter",
           "leave", "current", "_",
           "N_", "P_", "ngettext", "personal", "plural_messages", "pgettext", "current_lang",
           "fields_of", "fill_template", "match_template", "fill", "messages"]

LANGUAGES = ("en", "ru")            # English (the msgids) and Russian
DEFAULT_LANG = "en"
DOMAIN = "messages"                 # <package>/locale/<lang>/LC_MESSAGES/messages.mo
SHARED_PACKAGE = "cardcore"

_NULL = _gettext.NullTranslations()
_current: ContextVar[tuple[str, _gettext.NullTranslations]] = ContextVar(
    "cardcore_lang", default=(DEFAULT_LANG, _NULL))


def check_lang(lang: Any) -> str:
    """``lang`` if it is a language of the catalogs, else ConfigError naming ``lang``."""
    if not isinstance(lang, str) or lang not in LANGUAGES:
        raise ConfigError(f"lang must be one of {', '.join(LANGUAGES)}, not {echo(lang)}",
                          "lang")
    return lang


def _package_of(game: Any) -> str | None:
    """The package that holds a game's catalog: the game class's package (``cardcore.games.x``)."""
    if game is None:
        return None
    cls = game if isinstance(game, type) else type(game)
    module = cls.__module__
    return module if module.count(".") >= 2 else None


@functools.lru_cache(maxsize=None)
def _catalog(package: str, lang: str) -> _gettext.NullTranslations:
    """One package's compiled catalog. A missing ``.mo`` is a broken install or a tree not
    built in place (``python setup.py build_ext --inplace`` compiles them): said plainly."""
    localedir = resources.files(package).joinpath("locale")
    try:
        with resources.as_file(localedir) as path:
            return _gettext.translation(DOMAIN, str(path), languages=[lang])
    except OSError:
        raise ConfigError(f"the {lang} catalog of {package} is not installed (build the "
                          f"package: its .po files are compiled to .mo when it is built)",
                          "lang") from None


class _Chain(_gettext.NullTranslations):
    """Several catalogs, the first that translates a message wins (a game's, then the shared
    one). Not ``add_fallback``: gettext caches its catalogs, and a fallback would be shared."""

    def __init__(self, catalogs: tuple[_gettext.NullTranslations, ...]) -> None:
        super().__init__()
        self.catalogs = catalogs
        self._found: dict[str, str] = {}         # message -> text, looked up once
        self._in_context: dict[tuple[str, str], str] = {}

    def gettext(self, message: str) -> str:
        try:
            return self._found[message]
        except KeyError:
            pass
        text = message
        for catalog in self.catalogs:
            text = catalog.gettext(message)
            if text != message:
                break
        if len(self._found) < 100_000:           # the catalogs' texts: bounded in practice
            self._found[message] = text
        return text

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        fallback = msgid1 if n == 1 else msgid2
        for catalog in self.catalogs:
            text = catalog.ngettext(msgid1, msgid2, n)
            if text != fallback:
                return text
        return fallback


    def pgettext(self, context: str, message: str) -> str:
        key = (context, message)
        try:
            return self._in_context[key]
        except KeyError:
            pass
        text = message
        for catalog in self.catalogs:
            text = catalog.pgettext(context, message)
            if text != message:
                break
        if len(self._in_context) < 100_000:      # bounded like ``_found``
            self._in_context[key] = text
        return text


@functools.lru_cache(maxsize=None)
def _chain(packages: tuple[str, ...], lang: str) -> _gettext.NullTranslations:
    if lang == "en":
        return _NULL
    return _Chain(tuple(_catalog(package, lang) for package in packages))


def translations(lang: str, game: Any = None) -> _gettext.NullTranslations:
    """The catalog for ``lang``: the game's (a Game, its class or None), then the shared one."""
    lang = check_lang(lang)
    package = _package_of(game)
    packages = ((package,) if package else ()) + (SHARED_PACKAGE,)
    return _chain(packages, lang)


@functools.lru_cache(maxsize=None)
def _context(lang: str, cls: type | None) -> tuple[str, _gettext.NullTranslations]:
    return (check_lang(lang), translations(lang, cls))


def enter(lang: str, game: Any = None) -> Any:
    """``use``'s start without a context manager (a hot path: ``Game.events``): the token
    ``leave`` takes. ``lang`` must already be checked (``check_lang``)."""
    cls = None if game is None else (game if isinstance(game, type) else type(game))
    return _current.set(_context(lang, cls))


def leave(token: Any) -> None:
    _current.reset(token)


@contextlib.contextmanager
def use(lang: str, game: Any = None) -> Iterator[None]:
    """Within the block, ``_()`` translates into ``lang`` with ``game``'s words first."""
    token = _current.set((check_lang(lang), translations(lang, game)))
    try:
        yield
    finally:
        _current.reset(token)


def current_lang() -> str:
    return _current.get()[0]


def current() -> tuple[str, _gettext.NullTranslations]:
    """The current language and its catalogs (a key for what is made in it)."""
    return _current.get()


# English is the msgids themselves: the three below answer it without a catalog's call
# (every event's text calls them a few times).
def _(message: str) -> str:
    """``message`` (an English msgid) in the current language."""
    catalogs = _current.get()[1]
    return message if catalogs is _NULL else catalogs.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    catalogs = _current.get()[1]
    if catalogs is _NULL:
        return singular if n == 1 else plural
    return catalogs.ngettext(singular, plural, n)


def personal(player: Any, seat: int | None, message: str) -> str:
    """``message`` (a msgid with ``{name}``, the same English for "you" and "player 3") in the
    current language, the verb agreeing with the person: its translation in context "you"
    when ``player`` is ``seat``, else in context "they" (Russian «Вы взяли» / «Игрок 3 берёт»).
    Its msgids are marked with ``P_`` and extracted in both contexts (tests/i18n_catalogs.py).
    (``pgettext`` with the context chosen, in one call: most events' texts make one.)"""
    catalogs = _current.get()[1]
    if catalogs is _NULL:
        return message
    return catalogs.pgettext("you" if player == seat and player is not None else "they",
                             message)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language as meant in ``context`` (msgctxt: one English
    text, two meanings, e.g. "Discard" the pile and the verb)."""
    catalogs = _current.get()[1]
    return message if catalogs is _NULL else catalogs.pgettext(context, message)


# Marks a msgid said of a person (``personal`` above): extracted twice, in contexts
# "you" and "they", since other languages conjugate the verb. It returns its msgid: ``str``
# itself (the str of a str is that str), a C call in every phrase rather than a Python one.
P_: Callable[[str], str] = str


def N_(message: str) -> str:
    """Marks a msgid for extraction without translating it (translated where it is shown)."""
    return message


_FIELD = re.compile(r"\{(\w+)\}")


@functools.lru_cache(maxsize=None)
def _pattern(template: str) -> re.Pattern[str]:
    parts = _FIELD.split(template)
    regex = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)"
                    for i, p in enumerate(parts))
    return re.compile(regex + r"\Z", re.DOTALL)


def messages(lang: str, game: Any = None, shared: bool = True) -> dict[str, str]:
    """Translations for ``lang`` as one JSON-ready dict, msgid -> text: the shared catalog's
    (unless ``shared`` is False), then the game's over it -- one game's, never several games'
    together (their msgids may mean different things: "Discard" is one game's pile and
    another's move). Plural entries and entries with a context (msgctxt) are left out;
    {} for English, the source language."""
    lang = check_lang(lang)
    if lang == "en":
        return {}
    package = _package_of(game)
    packages = ((SHARED_PACKAGE,) if shared else ()) + ((package,) if package else ())
    merged: dict[str, str] = {}
    for name in packages:
        catalog = getattr(_catalog(name, lang), "_catalog", {})
        merged.update({k: v for k, v in catalog.items()
                       if isinstance(k, str) and k and "\x04" not in k})
    return merged


def plural_messages(lang: str, game: Any = None, shared: bool = True) -> dict[str, list[str]]:
    """The plural entries ``messages`` leaves out, for the web pages: singular msgid -> its
    translated forms in the catalog's order (``msgstr[0]``, ``msgstr[1]``, ...), the shared
    catalog's then the game's over it; {} for English (the msgids are the two forms)."""
    lang = check_lang(lang)
    if lang == "en":
        return {}
    package = _package_of(game)
    packages = ((SHARED_PACKAGE,) if shared else ()) + ((package,) if package else ())
    merged: dict[str, list[str]] = {}
    for name in packages:
        forms: dict[str, dict[int, str]] = {}
        for key, text in getattr(_catalog(name, lang), "_catalog", {}).items():
            if isinstance(key, tuple) and isinstance(key[0], str) and "\x04" not in key[0]:
                forms.setdefault(key[0], {})[key[1]] = text
        merged.update({k: [v[i] for i in sorted(v)] for k, v in forms.items()})
    return merged


def match_template(text: str, template: str) -> dict[str, str] | None:
    """The values that fill ``template``'s ``{name}`` fields to make ``text``, or None."""
    m = _pattern(template).match(text)
    return None if m is None else m.groupdict()


@functools.lru_cache(maxsize=4096)
def fields_of(template: str) -> tuple[str, ...]:
    """The names of ``template``'s ``{name}`` fields, in order."""
    return tuple(_FIELD.findall(template))


def fill(template: str, values: Mapping[str, str]) -> str:
    """``template`` with its ``{name}`` fields replaced by ``values`` (other braces, such as
    a JSON example's, stay as written: not ``str.format``)."""
    return _FIELD.sub(lambda m: values.get(m.group(1), m.group(0)), template)


def fill_template(text: str, templates: Iterable[str]) -> str:
    """``text`` (English, made by filling one of ``templates``: ``"you do not hold {card}"``)
    in the current language: the template translated and filled with the same values. Text
    that fits no template is returned as it is (a rule ID or notation, or a new message)."""
    translate = _current.get()[1].gettext
    templates = tuple(templates)
    if text in templates:          # an exact text first: "you do not hold the cards for that"
        return translate(text)     # is not "you do not hold {card}"
    for template in templates:
        if not _FIELD.search(template):
            continue
        values = match_template(text, template)
        if values is not None:
            return fill(translate(template), values)
    return text
