"""The message catalogs (cardcore.i18n): complete in both directions, up to date with the code,
compiled, and used by every text the terminal and the narration produce."""
from __future__ import annotations

import gettext
import importlib
import random
import re
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import cardcore
from cardcore import i18n
from cardcore.bots import make_bot
from cardcore.narrate import breakdown_lines, describe
from cardcore.registry import game_classes

sys.path.insert(0, str(Path(__file__).resolve().parent))
import i18n_catalogs  # noqa: E402  (beside this file)

CATALOGS = i18n_catalogs.packages()
FIELD = re.compile(r"\{(\w+)(?:[:!][^}]*)?\}")


def _read(path: Path):
    with open(path, "rb") as f:
        return read_po(f)


@pytest.mark.parametrize("package", sorted(CATALOGS))
def test_every_msgid_has_a_russian_translation_and_nothing_else(package):
    locale, _files = CATALOGS[package]
    template = _read(locale / "messages.pot")
    russian = _read(locale / "ru" / "LC_MESSAGES" / "messages.po")
    wanted = i18n_catalogs.msgids(template)
    have = i18n_catalogs.msgids(russian)
    assert not wanted - have, f"{package}: not in the Russian catalog: {sorted(wanted - have)}"
    assert not have - wanted, f"{package}: translations of texts the code no longer has: " \
                              f"{sorted(have - wanted)}"
    for message in russian:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(strings) and not message.fuzzy, f"{package}: untranslated {message.id!r}"
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        fields = set(FIELD.findall(ids[-1]))
        for text in strings:                        # a translation uses the msgid's fields
            assert set(FIELD.findall(text)) <= fields | set(FIELD.findall(ids[0])), \
                (package, message.id, text)


def test_the_templates_are_up_to_date_with_the_code():
    assert i18n_catalogs.main(["--check"]) == 0, \
        "a marked text changed: run python tests/i18n_catalogs.py and translate"


@pytest.mark.parametrize("package", sorted(CATALOGS))
def test_the_compiled_catalog_is_the_po(package):
    """The .mo that gettext reads (setup.py compiles it) holds what the .po says: the .mo of
    the cardcore imported (installed, or this tree built in place), since an install from
    another checkout (CI's fresh clone) leaves none in this tree."""
    locale, _files = CATALOGS[package]
    russian = _read(locale / "ru" / "LC_MESSAGES" / "messages.po")
    imported = Path(importlib.import_module(package).__file__).resolve().parent / "locale"
    compiled = gettext.translation(i18n.DOMAIN, str(imported), languages=["ru"])
    for message in russian:
        if message.id and isinstance(message.id, str):
            found = (compiled.pgettext(message.context, message.id) if message.context
                     else compiled.gettext(message.id))
            assert found == message.string, \
                f"{package}: the .mo is stale (rebuild: python setup.py build_ext --inplace)"


def test_an_unknown_language_is_a_config_error_naming_lang():
    game = cardcore.new_game("kings_stakes", seed=1)
    event = game.events(0)[0]
    for bad in ("de", "", None, "RU", "x" * 500):
        with pytest.raises(cardcore.ConfigError) as caught:
            describe(event, 0, str, game, lang=bad)
        assert caught.value.option == "lang" and len(str(caught.value)) < 120
    with pytest.raises(cardcore.ConfigError, match="lang"):
        breakdown_lines({"kind": game.round_end_event}, str, game, lang="fr")


def _played(cls, seed: int):
    game = cardcore.new_game(cls.name, seed=seed, **cls.conformance_configs[0]) \
        if cls.conformance_configs else cardcore.new_game(cls.name, seed=seed)
    bot = make_bot("greedy", seed)
    steps = 0
    while not game.is_over and steps < 400:
        game.apply(bot.choose(game))
        steps += 1
    return game


def _english_words(line: str, allowed: set[str]) -> set[str]:
    """Latin words of four letters or more that are not notation, kinds or bot names."""
    return {w for w in re.findall(r"[A-Za-z_]{4,}", line) if w.lower() not in allowed}


@pytest.mark.parametrize("cls", game_classes(), ids=lambda c: c.name)
def test_narration_and_breakdowns_in_russian_leave_no_english(cls):
    game = _played(cls, 5)
    allowed = {w.lower() for spec in game._specs for w in re.findall(r"[A-Za-z_]+", spec.label)}
    allowed |= {spec.kind for spec in game._specs} | {"greedy", "random", "went_out",
                                                      "stuck", "max_turns", "stock_empty"}
    names = lambda k: "вы" if k == 0 else f"место {k} (greedy)"   # noqa: E731
    lines = 0
    for event in game.events(0):
        if event["kind"] == game.round_end_event:
            texts = breakdown_lines(event, names, game, lang="ru")
        else:
            texts = [describe(event, 0, names, game, lang="ru")]
        for text in texts:
            if text is None:
                continue
            lines += 1
            left = _english_words(text, allowed | {str(v).lower() for v in event.values()
                                                   if isinstance(v, str)})
            assert not left, (cls.name, event["kind"], text, left)
    assert lines > 10


@pytest.mark.parametrize("cls", game_classes(), ids=lambda c: c.name)
def test_every_refusal_of_the_game_has_a_russian_text(cls):
    """Every explain_rule text met at positions of a few games fits one of the game's
    refusal templates (words.py REFUSALS), so the terminal can translate it."""
    from cardcore.cli import SHARED_REFUSALS, refusal_text
    words = __import__(f"{cls.__module__}.words", fromlist=["REFUSALS"])
    templates = tuple(words.REFUSALS) + SHARED_REFUSALS
    rng = random.Random(1)
    seen = set()
    for seed in range(2):
        game = cardcore.new_game(cls.name, seed=seed)
        bot = make_bot("random", seed)
        for _step in range(120):
            if game.is_over:
                break
            legal = set(game.legal_action_ids())
            for action in rng.sample(range(game.num_distinct_actions),
                                     min(60, game.num_distinct_actions)):
                if action in legal:
                    continue
                message, rule = game._state.explain_illegal(action)
                seen.add(message)
            game.apply(bot.choose(game))
    assert len(seen) >= 3
    with i18n.use("ru", cls):
        for message in seen:
            translated = i18n.fill_template(message, templates)
            assert translated != message, f"{cls.name}: no template fits {message!r}"
            error = cardcore.IllegalActionError(message, "XX-1.1")
            assert refusal_text(error, cls).endswith(" [XX-1.1]")


def test_the_shared_words_fall_back_under_a_game_and_english_is_the_source():
    with i18n.use("ru", game_classes()[0]):
        assert i18n._("you") == "вы" and i18n._("no such text") == "no such text"
    with i18n.use("en", game_classes()[0]):
        assert i18n._("you") == "you"
    assert i18n.current_lang() == "en"


def test_the_installed_package_carries_its_catalogs_and_how_to_play_pages():
    """What pip installs (from the sdist or the wheel): every game's compiled catalog and both
    how-to-play pages, read as package data."""
    from importlib import resources
    for cls in game_classes():
        assert i18n.translations("ru", cls).gettext(cls.score_direction) != cls.score_direction
        for lang in i18n.LANGUAGES:
            page = resources.files(cls.__module__).joinpath(f"howto.{lang}.md")
            assert page.is_file() and page.read_text(encoding="utf-8").startswith("# ")
    assert i18n.messages("ru")["you"] == "вы" and i18n.messages("en") == {}
