"""A player's text names no option, Python word or identifier (issue 48, item 7): the how-to
pages, in both languages and for every game, say a table's option by the words the lobby shows
for it ("the table's option “max turns”", «настройка стола «макс. ходов»»), never by its name
(`max_turns`, `contracts="all"`); the rulebooks (games/*.md) and the docs keep the names. What
a page may show in backticks is what a player types: a move's notation (`play 7H`, `pass`,
`god_draw 7H`), cards, keys and `cardcore ...` commands. Seats count from 1. The lobby's
labels of the options are words in both languages."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import cardcore
from cardcore.i18n import messages
from cardcore.registry import game_class, game_classes, new_game

GAMES = Path(cardcore.__file__).resolve().parent / "games"
LANGS = ("en", "ru")
BACKTICKED = re.compile(r"`([^`]+)`")
IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
PYTHON_WORDS = re.compile(r"\b(None|True|False)\b")
LATIN = re.compile(r"[A-Za-z]")
# A seat counted from 0 ("seats 0 and 2", «места 0 2 4»): players count from 1.
SEAT_ZERO = re.compile(r"\b(seats?|players?|мест[оа]?|игрок[аи]?)\s+0\b", re.IGNORECASE)


def page(name: str, lang: str) -> str:
    return (GAMES / name / f"howto.{lang}.md").read_text(encoding="utf-8")


def notations(name: str) -> set[str]:
    """Every move's notation of the game, under each of its test configurations (a player
    types these in the terminal; an option may add moves, as Belote's contracts="all" adds
    `capot NT`)."""
    return {spec.label for config in game_class(name).conformance_configs
            for spec in new_game(name, seed=0, **config)._specs}


def identifiers_shown(text: str, options: set[str], moves: set[str]) -> list[str]:
    """The backticked spans of ``text`` that are no move, card or command but an option's
    name, a snake_case identifier or an assignment (``name=value``)."""
    bad = []
    for span in BACKTICKED.findall(text):
        if span.startswith("cardcore ") or span in moves:
            continue
        head = IDENTIFIER.match(span)
        if "=" in span or (head and (head.group() in options or "_" in head.group())):
            bad.append(span)
    return bad


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", cardcore.available_games())
def test_a_how_to_page_names_no_option_no_python_word_and_no_seat_0(name, lang):
    options = set(new_game(name, seed=0).options)
    moves = notations(name)
    text = page(name, lang)
    assert identifiers_shown(text, options, moves) == [], (name, lang)
    # Outside the moves' notation, no option's name made of several words (max_turns) at all:
    # one-word names (hands, target, transfer) are words of the page's prose.
    prose = BACKTICKED.sub(lambda m: "" if m.group(1) in moves else m.group(0), text)
    named = [o for o in options if "_" in o and re.search(rf"\b{o}\b", prose)]
    assert named == [], (name, lang)
    assert not PYTHON_WORDS.search(text), (name, lang, PYTHON_WORDS.search(text))
    assert not SEAT_ZERO.search(text), (name, lang, SEAT_ZERO.search(text))


def test_the_check_finds_option_names_and_lets_moves_through():
    options, moves = {"max_turns", "transfer", "contracts"}, {"pass", "transfer 7S", "draw_stock"}
    text = ("`max_turns` `transfer` `contracts=\"all\"` `rediscard_upcard=False` `hand_size` "
            "`pass` `transfer 7S` `draw_stock` `9C` `4C 9D` `cardcore play crazy_eights` `?`")
    assert identifiers_shown(text, options, moves) == [
        "max_turns", "transfer", 'contracts="all"', "rediscard_upcard=False", "hand_size"]
    assert SEAT_ZERO.search("seats 0 and 2") and SEAT_ZERO.search("места 0 2 4")
    assert not SEAT_ZERO.search("players 1 and 3") and not SEAT_ZERO.search("10,000 void")


@pytest.mark.parametrize("cls", game_classes(), ids=lambda c: c.name)
def test_the_lobbys_option_labels_are_words(cls):
    """The lobby labels an option by its name with spaces (lobby.js ``optionWidget``),
    translated by the game's catalog: in English words, in Russian a translation with no
    Latin letter."""
    russian = messages("ru", game_class(cls.name))
    for option in new_game(cls.name, seed=0).options:
        label = option.replace("_", " ")
        assert re.fullmatch(r"[a-z]+( [a-z]+)*", label), (cls.name, option)
        said = russian.get(label, "")
        assert said and not LATIN.search(said), (cls.name, option, said)
