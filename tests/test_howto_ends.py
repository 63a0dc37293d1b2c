"""The how-to pages mention every rule that ends a round or the match (issue 35, item 4), in
both languages: each reason a round or match end can give (the game's ``reasons``, the
events' ``reason_code``) is written out with its rule ID, e.g. KS-8.2: a take during the final
turns ends the round at once. A Russian page written for players (issue 48) names none."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import cardcore
from cardcore.registry import game_classes
from game_cases import game_case

GAMES = Path(cardcore.__file__).resolve().parent / "games"


@pytest.mark.parametrize("cls", game_classes(), ids=lambda c: c.name)
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_how_to_page_names_every_rule_that_ends_a_round_or_the_match(cls, lang):
    # The rule of each reason_code, as the game's events.py gives it: its END_RULES.
    rules = game_case(cls.name, "END_RULES", {})
    assert set(rules) == set(cls.reasons), "a reason without its rule in tests/games/*/cases.py"
    page = (GAMES / cls.name / f"howto.{lang}.md").read_text(encoding="utf-8")
    missing = [rule for rule in rules.values() if f"{rule})" not in page and f"{rule}," not in page]
    if lang == "ru" and not re.search(r"\b[A-Z]{2}-\d", page):
        # A Russian page written for players names no rule ID (issue 48: Durak's); its
        # game's tests check that it says each end in words.
        missing = []
    assert missing == [], (cls.name, lang, missing)


def test_kings_stakes_says_a_take_in_the_final_turns_ends_the_round():
    en = (GAMES / "kings_stakes" / "howto.en.md").read_text(encoding="utf-8")
    ru = (GAMES / "kings_stakes" / "howto.ru.md").read_text(encoding="utf-8")
    assert "A take during those final turns ends the round at once" in en
    assert "забирает стол, раунд кончается сразу" in ru
