"""Kuzanasta benchmarks: the best-two-sets kernel, random playouts, whole deals in the core.

pytest-benchmark:   pytest benchmarks/bench_kuzanasta.py --benchmark-enable
side by side:       python benchmarks/compare.py   (uses ``compare_section`` below)

Figures (issue 3, "Speed"; every ratio comes from one run):
* Best-two-sets on a 7-card hand: from Python (``best_two_sets(hand, wild)``, one call per
  hand) ≤ 1 µs; inside the core (``best_two_sets_bulk``: the kernel over 100,000 hands with no
  Python per hand) ≥ 200× faster than the brute-force oracle of tests/games/kuzanasta/kuzanasta_oracle.py on
  the same hands.
* Random playout through the Python fast path, µs per action:
  ``ids = g.legal_action_ids(); g.apply(ids[rng.below(len(ids))])`` over whole 4-player
  matches, ``new_game`` included. Target ≤ 3 µs (OpenSpiel gin_rummy ~40 µs, RLCard ~190 µs).
* Whole random deals inside the core (``GameState.run_random``), actions per second ≥ 2 million.
"""
from __future__ import annotations

import random
import sys
import time
from array import array
from pathlib import Path
from typing import Any

from cardcore import new_game
from cardcore.games.kuzanasta._sets import best_two_sets, best_two_sets_bulk
from playout import fast_path_playout, run_random_only, timed_playouts

GAME = "kuzanasta"
TESTS = Path(__file__).resolve().parent.parent / "tests"
GAME_TESTS = TESTS / "games" / GAME          # the oracle and the game's test helpers


def _oracle() -> Any:
    for folder in (TESTS, GAME_TESTS):
        if str(folder) not in sys.path:
            sys.path.insert(0, str(folder))
    import kuzanasta_oracle
    return kuzanasta_oracle


def random_hands(n: int, seed: int = 0) -> tuple[list[list[int]], list[int | None]]:
    """n random 7-card hands of the 93-card deck, wild ranks cycling None, A, 2, ..., K."""
    deck = new_game(GAME, seed=0).deck_for(4, {})
    rng = random.Random(seed)
    wilds: list[int | None] = [None] + list(range(13))
    return [rng.sample(deck, 7) for _ in range(n)], [wilds[i % 14] for i in range(n)]


def kernel_figures(n: int, oracle_n: int) -> dict[str, float]:
    """ns per hand in the core, µs per call from Python, µs per hand of the oracle."""
    hands, wilds = random_hands(n)
    cards = bytes(c for h in hands for c in h)
    wild_bytes = bytes(255 if w is None else w for w in wilds)
    out = array("i", [0]) * n
    best_two_sets_bulk(cards, 7, wild_bytes, out)                   # warm up
    core = min(_timed(lambda: best_two_sets_bulk(cards, 7, wild_bytes, out)) for _ in range(5))
    pairs = list(zip(hands, wilds))
    python = min(_timed(lambda: [best_two_sets(h, w) for h, w in pairs]) for _ in range(3))
    oracle = _oracle()
    sample = pairs[:oracle_n]
    brute = _timed(lambda: [oracle.best_two(h, w) for h, w in sample])
    assert [oracle.best_two(h, w) for h, w in sample[:200]] == list(out[:200])
    return {"core_ns": core / n * 1e9, "python_us": python / n * 1e6,
            "oracle_us": brute / len(sample) * 1e6}


def _timed(fn: Any) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def compare_section(quick: bool = False) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    kernel = "Kuzanasta best two sets, 7-card hands"
    k = kernel_figures(20_000 if quick else 100_000, 1_000 if quick else 5_000)
    rows.append({"section": kernel, "figure": "from Python, best_two_sets(hand, wild)",
                 "value": k["python_us"], "unit": "µs", "target": "≤ 1 µs",
                 "ok": k["python_us"] <= 1.0})
    rows.append({"section": kernel, "figure": "inside the core (best_two_sets_bulk), per hand",
                 "value": k["core_ns"] / 1000, "unit": "µs"})
    rows.append({"section": kernel, "figure": "brute-force Python oracle, per hand",
                 "value": k["oracle_us"], "unit": "µs"})
    ratio = k["oracle_us"] * 1000 / k["core_ns"]
    rows.append({"section": kernel, "figure": "core speed-up vs the oracle", "value": ratio,
                 "unit": "×", "target": "≥ 200×", "ok": ratio >= 200})

    fast = "Kuzanasta random playout, Python fast path"
    elapsed, actions, games = timed_playouts(GAME, 1.0 if quick else 4.0)
    us = elapsed / actions * 1e6
    rows.append({"section": fast, "figure": "cardcore kuzanasta (4 players), per action",
                 "value": us, "unit": "µs", "target": "≤ 3 µs", "ok": us <= 3.0,
                 "note": f"{games:,} matches, {actions:,} actions, new_game included; "
                         "OpenSpiel gin_rummy ~40 µs, RLCard ~190 µs (issue 3)"})

    core = "Kuzanasta whole random deals in the core"
    per_second, total = run_random_only(GAME, 500 if quick else 3000)
    rows.append({"section": core, "figure": "GameState.run_random, actions/s",
                 "value": per_second, "unit": "/s", "target": "≥ 2,000,000",
                 "ok": per_second >= 2e6, "note": f"{total:,} actions, first deal outside the timer"})

    search = "Kuzanasta numbers for learning and search"
    obs_us, sample_us, positions = search_figures(200 if quick else 1000)
    rows.append({"section": search, "figure": "observation_tensor(seat, out), per call",
                 "value": obs_us, "unit": "µs", "note": f"{positions} positions of random play"})
    rows.append({"section": search, "figure": "Game.sample_hidden(seat, seed), per call",
                 "value": sample_us, "unit": "µs", "note": "a whole Game copy included"})
    return rows


def search_figures(positions: int) -> tuple[float, float, int]:
    """µs per observation_tensor into a preallocated array and per sample_hidden, over
    positions taken along random 4-player games."""
    import numpy as np
    rng = random.Random(0)
    games = []
    seed = 0
    while len(games) < positions:
        g = new_game(GAME, seed=seed)
        seed += 1
        while not g.is_over and len(games) < positions:
            ids = g.legal_action_ids()
            g.apply(ids[rng.randrange(len(ids))])
            if rng.random() < 0.05:
                games.append(g.clone())
    out = np.zeros(games[0].observation_shape, dtype=np.float32)
    obs = min(_timed(lambda: [g.observation_tensor(g.current_player or 0, out) for g in games])
              for _ in range(3))
    sample = min(_timed(lambda: [g.sample_hidden(g.current_player or 0, 7) for g in games])
                 for _ in range(3))
    return obs / positions * 1e6, sample / positions * 1e6, positions


# ---------------------------------------------------------------- pytest-benchmark suite
HANDS, WILDS = random_hands(1000, seed=1)


def test_kz_best_two_sets_python(benchmark: Any) -> None:
    benchmark.group = "kuzanasta sets"
    pairs = list(zip(HANDS, WILDS))

    def thousand() -> int:
        return sum(best_two_sets(h, w)[0] for h, w in pairs)

    assert benchmark(thousand) > 0


def test_kz_best_two_sets_core(benchmark: Any) -> None:
    benchmark.group = "kuzanasta sets"
    cards = bytes(c for h in HANDS for c in h)
    wild_bytes = bytes(255 if w is None else w for w in WILDS)
    out = array("i", [0]) * len(HANDS)
    assert benchmark(best_two_sets_bulk, cards, 7, wild_bytes, out) == len(HANDS)


def test_kz_oracle_100_hands(benchmark: Any) -> None:
    benchmark.group = "kuzanasta sets"
    oracle = _oracle()
    pairs = list(zip(HANDS, WILDS))[:100]
    benchmark(lambda: [oracle.best_two(h, w) for h, w in pairs])


def test_kz_fast_path_whole_match(benchmark: Any) -> None:
    benchmark.group = "kuzanasta game"
    assert benchmark(fast_path_playout, GAME, 3) > 100


def test_kz_run_random_whole_match(benchmark: Any) -> None:
    benchmark.group = "kuzanasta game"
    assert benchmark(lambda: new_game(GAME, seed=3)._state.run_random(3)) > 100


def test_kz_greedy_bot_choice(benchmark: Any) -> None:
    benchmark.group = "kuzanasta step"
    from cardcore.bots import GreedyBot
    g = new_game(GAME, seed=1)
    g.apply("draw_stock")
    bot = GreedyBot(seed=1)
    assert benchmark(bot.choose_id, g) in g.legal_action_ids()
