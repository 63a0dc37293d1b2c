"""Manna benchmarks: legal-action generation, the minimum search, random playouts, the core.

pytest-benchmark:   pytest benchmarks/bench_manna.py --benchmark-enable
side by side:       python benchmarks/compare.py   (uses ``compare_section`` below)

Figures (issue 4, "Speed"; every ratio comes from one run):
* Legal-action generation for a 20-card hand with typical melds, from Python: ≤ 5 µs. Measured
  on positions harvested from random matches (meld stage, 18–22 cards, the team opened with
  melds on the table), with the state's legal-action cache dropped before every call
  (``legal_ids_uncached``), so the figure is the real enumeration.
* Random playout through the Python fast path, µs per action:
  ``ids = g.legal_action_ids(); g.apply(ids[rng.below(len(ids))])`` over whole matches,
  ``new_game`` included. Target ≤ 10 µs (OpenSpiel gin_rummy ~40 µs).
* Whole random matches inside the core (``GameState.run_random``, the nogil playout that
  ``simulate`` and ``VectorGame`` share): ≥ 3,000,000 actions/s on one core (issue 11; it was
  ≥ 500,000 in issue 4, and 0.92 M/s in 0.2).
* The initial-minimum search (``py_reach_min``) from Python against the brute-force oracle
  of tests/games/manna/manna_oracle.py on the same instances.
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Any

from cardcore.games.manna._minimum import py_reach_min

from cardcore import new_game
from playout import fast_path_playout, run_random_only, timed_playouts

GAME = "manna"
TESTS = Path(__file__).resolve().parent.parent / "tests"
GAME_TESTS = TESTS / "games" / GAME          # the oracle and the game's test helpers


def _tests_module(name: str) -> Any:
    for folder in (TESTS, GAME_TESTS):
        if str(folder) not in sys.path:
            sys.path.insert(0, str(folder))
    return __import__(name)


def typical_positions(count: int, seed: int = 0) -> list[Any]:
    """States (clones) at the meld stage with 18..22 cards in hand and the team's melds down."""
    rng = random.Random(seed)
    found: list[Any] = []
    game_seed = seed
    while len(found) < count:
        g = new_game(GAME, seed=game_seed)
        game_seed += 1
        s = g._state
        while not g.is_over and len(found) < count:
            p = g.current_player
            if s.phase == 1 and 18 <= s.hand_sizes()[p] <= 22 and s.opened()[p % 2] \
                    and len(s.melds(p % 2)) >= 2 and rng.random() < 0.3:
                found.append(s.clone())
            ids = g.legal_action_ids()
            g.apply(ids[rng.randrange(len(ids))])
    return found


def legal_generation_us(positions: list[Any], repeat: int = 5) -> float:
    calls = [st.legal_ids_uncached for st in positions]
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        for call in calls:
            call()
        best = min(best, time.perf_counter() - started)
    return best / len(calls) * 1e6


def search_figures(n: int, oracle_n: int) -> dict[str, float]:
    diff = _tests_module("test_manna_differential")
    oracle = _tests_module("manna_oracle")
    rng = random.Random(3)
    cases = [diff.random_search(rng) for _ in range(n)]
    started = time.perf_counter()
    for q in cases:
        py_reach_min(**q)
    core = time.perf_counter() - started
    sample = cases[:oracle_n]
    oracle._search.cache_clear()
    started = time.perf_counter()
    for q in sample:
        oracle.reach(**q)
    brute = time.perf_counter() - started
    return {"python_us": core / n * 1e6, "oracle_us": brute / len(sample) * 1e6}


def search_tools_us(positions: list[Any], repeat: int = 3) -> dict[str, float]:
    """observation_tensor (into a preallocated array) and sample_hidden, per call, from Python."""
    import numpy as np
    out = np.zeros(positions[0].observation_size, dtype=np.float32)
    best = {"observe": float("inf"), "sample": float("inf")}
    for _ in range(repeat):
        started = time.perf_counter()
        for k, st in enumerate(positions):
            st.observation_tensor(k % 6, out)
        best["observe"] = min(best["observe"], time.perf_counter() - started)
        started = time.perf_counter()
        for k, st in enumerate(positions):
            st.sample_hidden(k % 6, k)
        best["sample"] = min(best["sample"], time.perf_counter() - started)
    return {name: t / len(positions) * 1e6 for name, t in best.items()}


def compare_section(quick: bool = False) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    sec = "Manna legal actions, 20-card hand with melds"
    positions = typical_positions(100 if quick else 400)
    us = legal_generation_us(positions)
    rows.append({"section": sec, "figure": "legal_ids (cache dropped), from Python", "value": us,
                 "unit": "µs", "target": "≤ 5 µs", "ok": us <= 5.0})
    sec = "Manna observation and hidden-card sampling (same positions)"
    tools = search_tools_us(positions)
    rows.append({"section": sec, "figure": "observation_tensor(seat, out), from Python",
                 "value": tools["observe"], "unit": "µs", "note": "484 floats"})
    rows.append({"section": sec, "figure": "sample_hidden(seat, seed) on the state, from Python",
                 "value": tools["sample"], "unit": "µs", "note": "a clone, redealt in C"})
    k = search_figures(5_000 if quick else 20_000, 500 if quick else 2_000)
    sec = "Manna initial-minimum search"
    rows.append({"section": sec, "figure": "py_reach_min from Python, per instance",
                 "value": k["python_us"], "unit": "µs"})
    rows.append({"section": sec, "figure": "brute-force Python oracle, per instance",
                 "value": k["oracle_us"], "unit": "µs"})
    rows.append({"section": sec, "figure": "speed-up vs the oracle",
                 "value": k["oracle_us"] / k["python_us"], "unit": "×"})
    sec = "Manna random playout, Python fast path"
    elapsed, actions, games = timed_playouts(GAME, 1.0 if quick else 4.0)
    us = elapsed / actions * 1e6
    rows.append({"section": sec, "figure": "cardcore manna (6 players), per action", "value": us,
                 "unit": "µs", "target": "≤ 10 µs", "ok": us <= 10.0,
                 "note": f"{games:,} matches, {actions:,} actions, new_game included; "
                         "OpenSpiel gin_rummy ~40 µs (issue 4)"})
    sec = "Manna whole random matches in the core"
    per_second, total = run_random_only(GAME, 5 if quick else 30)
    rows.append({"section": sec, "figure": "GameState.run_random, actions/s", "value": per_second,
                 "unit": "/s", "target": "≥ 3,000,000", "ok": per_second >= 3e6,
                 "note": f"{total:,} actions, first deal outside the timer"})
    return rows


# ---------------------------------------------------------------- pytest-benchmark suite
def test_mh_legal_ids_20_card_hand(benchmark: Any) -> None:
    benchmark.group = "manna step"
    positions = typical_positions(50)
    calls = [st.legal_ids_uncached for st in positions]

    def fifty() -> int:
        return sum(len(call()) for call in calls)

    assert benchmark(fifty) > 50


def test_mh_reach_min_python(benchmark: Any) -> None:
    benchmark.group = "manna search"
    diff = _tests_module("test_manna_differential")
    rng = random.Random(1)
    cases = [diff.random_search(rng) for _ in range(1000)]
    benchmark(lambda: [py_reach_min(**q) for q in cases])


def test_mh_fast_path_whole_hand(benchmark: Any) -> None:
    benchmark.group = "manna game"
    assert benchmark(fast_path_playout, GAME, 3, hands=1) > 50


def test_mh_run_random_whole_match(benchmark: Any) -> None:
    benchmark.group = "manna game"
    assert benchmark(lambda: new_game(GAME, seed=3)._state.run_random(3)) > 100


def test_mh_greedy_bot_choice(benchmark: Any) -> None:
    benchmark.group = "manna step"
    from cardcore.bots import GreedyBot
    g = new_game(GAME, seed=1)
    g.apply("draw")
    bot = GreedyBot(seed=1)
    assert benchmark(bot.choose_id, g) in g.legal_action_ids()
