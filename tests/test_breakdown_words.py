"""Every breakdown row reads as words: no placeholder of the kernel's row words is left
unfilled (Manna's "red threes ({detail})" reached players in 0.2)."""
from __future__ import annotations

import random

import pytest

import cardcore


@pytest.mark.parametrize("name", cardcore.available_games())
def test_breakdown_rows_have_no_unfilled_placeholder(name):
    seen = 0
    for seed in range(3):
        game = cardcore.new_game(name, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        for event in game.events():
            for row in (event.get("breakdown") or {}).get("components", []):
                assert "{" not in row["what"] and "}" not in row["what"], (event["kind"], row)
                seen += 1
    assert seen > 0


def test_manna_red_threes_row_counts_them():
    """MH-10.3: the red threes row says how many the team laid down."""
    rows = []
    for seed in range(3):
        game = cardcore.new_game("manna", seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        rows += [row for e in game.events() for row in (e.get("breakdown") or {}).get("components", [])
                 if row["what"].startswith("red threes (")]
    assert rows
    for row in rows:
        count = int(row["what"][len("red threes ("):-1])
        assert 0 <= count <= 8           # MH-8.3: eight red threes in the deck
        assert (row["points"] == 0) == (count == 0), row
