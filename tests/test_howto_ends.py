"""The how-to pages mention every rule that ends a round or the match (issue 35, item 4), in
both languages: each reason a round or match end can give (the game's ``reasons``, the
events' ``reason_code``) is written out with its rule ID, e.g. KS-8.2: a take during the final
turns ends the round at once."""
from __future__ import annotations

from pathlib import Path

import pytest

import cardcore
from cardcore.registry import game_classes

# The rule of each reason_code, as the games' events.py give them (a test may know the games).
RULES = {
    "kings_stakes": {"final_turns": "KS-8.1", "final_take": "KS-8.2", "four_kings": "KS-8.3",
                     "rounds": "KS-9.4"},
    "crazy_eights": {"out": "CE-7.1", "max_turns": "CE-7.2", "passes": "CE-7.3",
                     "one_hand": "CE-8.3"},
    "kuzanasta": {"went_out": "KZ-7", "no_draw": "KZ-3.4", "max_turns": "KZ-3.5",
                  "target": "KZ-7.5", "deals": "KZ-7.5", "void_deals": "KZ-7.8"},
    "manna": {"went_out": "MH-9.4", "stock_out": "MH-9.5", "target": "MH-10.6",
              "hands": "MH-10.7"},
    "durak": {"durak": "DU-8.2", "draw": "DU-8.3", "bouts": "DU-8.4", "one_hand": "DU-8.2"},
}
GAMES = Path(cardcore.__file__).resolve().parent / "games"


@pytest.mark.parametrize("cls", game_classes(), ids=lambda c: c.name)
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_how_to_page_names_every_rule_that_ends_a_round_or_the_match(cls, lang):
    assert set(RULES[cls.name]) == set(cls.reasons), "a reason without its rule here"
    page = (GAMES / cls.name / f"howto.{lang}.md").read_text(encoding="utf-8")
    missing = [rule for rule in RULES[cls.name].values() if f"{rule})" not in page and f"{rule}," not in page]
    assert missing == [], (cls.name, lang, missing)


def test_kings_stakes_says_a_take_in_the_final_turns_ends_the_round():
    en = (GAMES / "kings_stakes" / "howto.en.md").read_text(encoding="utf-8")
    ru = (GAMES / "kings_stakes" / "howto.ru.md").read_text(encoding="utf-8")
    assert "A take during those final turns ends the round at once" in en
    assert "забирает стол, раунд кончается сразу" in ru
