"""The measured loop shared by every game's benchmarks: a whole random game through the
Python fast path (``legal_action_ids`` + ``apply`` of an int), as an RL or search user writes it."""
from __future__ import annotations

from typing import Any

from cardcore import new_game
from cardcore._fast import Random


def fast_path_playout(game: str, seed: int, **options: Any) -> int:
    """Play one random game from a fresh deal; return the number of actions applied."""
    rng = Random(seed)
    g = new_game(game, seed=seed, **options)
    n = 0
    ids = g.legal_action_ids()
    while ids:
        g.apply(ids[rng.below(len(ids))])
        n += 1
        ids = g.legal_action_ids()
    return n
