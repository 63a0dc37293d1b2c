"""The measured loop shared by every game's benchmarks: a whole random game through the
Python fast path (``legal_action_ids`` + ``apply`` of an int), as an RL or search user writes it."""
from __future__ import annotations

import time
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


def run_random_only(game: str, games: int, seed: int = 0, **options: Any) -> tuple[float, int]:
    """Actions per second counting only the time inside ``GameState.run_random`` (whole
    matches; each fresh state is dealt outside the timer). Returns (rate, actions)."""
    template = new_game(game, seed=0, **options)
    total = 0
    elapsed = 0.0
    for i in range(games):
        state = template._make_state(None)
        state.seed_rng(seed + i)
        state.start()
        started = time.perf_counter()
        total += state.run_random(i)
        elapsed += time.perf_counter() - started
    return total / elapsed, total


def timed_playouts(game: str, seconds: float, seed: int = 0,
                   **options: Any) -> tuple[float, int, int]:
    """Random games through the Python fast path for about ``seconds``, ``new_game`` inside the
    timed loop. Returns (elapsed seconds, actions, games)."""
    below = Random(seed).below
    actions = games = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        g = new_game(game, seed=seed + games, **options)
        legal_action_ids, apply = g.legal_action_ids, g.apply
        ids = legal_action_ids()
        while ids:                         # empty exactly when the game is over (api.md)
            apply(ids[below(len(ids))])
            actions += 1
            ids = legal_action_ids()
        games += 1
    return time.perf_counter() - started, actions, games
