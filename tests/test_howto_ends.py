"""The how-to pages say every way a round or the match ends (issue 35, item 4), in both
languages: each reason a round or match end can give (the game's ``reasons``, the events'
``reason_code``) is written out in words (tests/games/*/cases.py's ``END_WORDS``), e.g. "A take
during those final turns ends the round at once". The pages are a player's text: they name no
rule ID (issue 48; the rulebooks, games/*.md, carry them, and ``END_RULES`` keeps each reason's
rule for the tests that check the events' ``rule``). Until issue 48 the check was that each end's
rule ID stood on the page; the words are what a player reads, so they are what it checks."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import cardcore
from cardcore.registry import game_classes
from game_cases import game_case

GAMES = Path(cardcore.__file__).resolve().parent / "games"
RULE_ID = re.compile(r"\b[A-Z]{2,3}-\d+(\.\d+)*\b")


@pytest.mark.parametrize("cls", game_classes(), ids=lambda c: c.name)
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_how_to_page_says_every_end_in_words_and_names_no_rule_id(cls, lang):
    rules = game_case(cls.name, "END_RULES", {})
    words = game_case(cls.name, "END_WORDS", {})
    assert set(rules) == set(cls.reasons), "a reason without its rule in tests/games/*/cases.py"
    assert set(words) == set(cls.reasons), "a reason without its words in tests/games/*/cases.py"
    page = (GAMES / cls.name / f"howto.{lang}.md").read_text(encoding="utf-8")
    flat = " ".join(page.split())                  # a phrase may wrap at a line's end
    missing = [(reason, said[lang]) for reason, said in words.items() if said[lang] not in flat]
    assert missing == [], (cls.name, lang, missing)
    assert not RULE_ID.search(page), (cls.name, lang, RULE_ID.search(page))


def test_kings_stakes_says_a_take_in_the_final_turns_ends_the_round():
    en = (GAMES / "kings_stakes" / "howto.en.md").read_text(encoding="utf-8")
    ru = (GAMES / "kings_stakes" / "howto.ru.md").read_text(encoding="utf-8")
    assert "A take during those final turns ends the round at once" in en
    assert "забирает стол, раунд кончается сразу" in ru
