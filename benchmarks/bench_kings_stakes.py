"""Kings' Stakes benchmarks: random playouts through the Python fast path and in the core.

pytest-benchmark:   pytest benchmarks/bench_kings_stakes.py --benchmark-enable
side by side:       python benchmarks/compare.py   (uses ``compare_section`` below)

Figures (issue 2, section 6):
* Python fast path, µs per action:
  ``ids = g.legal_action_ids(); g.apply(ids[rng.below(len(ids))])`` until ``ids`` is empty,
  over whole 4-player games, ``new_game`` included. Target ≤ 2 µs and ≥ 2.5× faster than
  OpenSpiel's Python API on crazy_eights, measured side by side when ``pyspiel`` imports
  (else the reference 5.35 µs of shared/anchors/perf.md is stated).
* Whole random games in the core (``cardcore.simulate`` with random bots: ``run_random``,
  no Python per action), actions per second on one core. Target ≥ 5 million.
"""
from __future__ import annotations

import random
import time
from typing import Any

from cardcore import new_game
from playout import fast_path_playout, run_random_only, timed_playouts
from cardcore.simulation import simulate

GAME = "kings_stakes"
OPENSPIEL_REFERENCE_US = 5.35       # crazy_eights, shared/anchors/perf.md (same machine type)


def openspiel_crazy_eights(seconds: float, seed: int = 0) -> tuple[float, int, int, int] | None:
    """OpenSpiel crazy_eights (5 players, its default) random playouts through pyspiel, the loop
    of shared/anchors/perf.md: legal_actions() -> random.choice -> apply_action, chance
    outcomes sampled uniformly (they are uniform in crazy_eights). Returns (elapsed seconds,
    steps with chance, decisions, games), or None when pyspiel is not installed."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("crazy_eights")
    choice = random.Random(seed).choice
    steps = decisions = games = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(choice(state.chance_outcomes())[0])
            else:
                state.apply_action(choice(state.legal_actions()))
                decisions += 1
            steps += 1
        games += 1
    return time.perf_counter() - started, steps, decisions, games


def side_by_side(seconds: float, slices: int = 8) -> dict[str, Any]:
    """Alternate short slices of the two playouts so that load from other processes on a
    shared machine falls on both alike; returns the summed figures."""
    ours = [0.0, 0, 0]
    theirs: list[float] | None = [0.0, 0, 0, 0]
    for k in range(slices):
        elapsed, actions, games = timed_playouts(GAME, seconds / slices, seed=k * 100_000)
        ours = [ours[0] + elapsed, ours[1] + actions, ours[2] + games]
        if theirs is not None:
            spiel = openspiel_crazy_eights(seconds / slices, seed=k)
            if spiel is None:
                theirs = None
            else:
                theirs = [a + b for a, b in zip(theirs, spiel)]
    result: dict[str, Any] = {"us_per_action": ours[0] / ours[1] * 1e6, "actions": ours[1],
                              "games": ours[2], "openspiel": None}
    if theirs is not None:
        result["openspiel"] = {"us_per_step": theirs[0] / theirs[1] * 1e6,
                               "us_per_decision": theirs[0] / theirs[2] * 1e6,
                               "games": int(theirs[3])}
    return result


def compare_section(quick: bool = False) -> list[dict[str, Any]]:
    seconds = 1.0 if quick else 4.0
    games = 5_000 if quick else 40_000
    rows: list[dict[str, Any]] = []
    fast = "Kings' Stakes random playout, Python fast path"
    both = side_by_side(seconds)
    us = both["us_per_action"]
    rows.append({"section": fast, "figure": "cardcore kings_stakes (4 players), per action",
                 "value": us, "unit": "µs", "target": "≤ 2 µs", "ok": us <= 2.0,
                 "note": f"{both['games']:,} games, {both['actions']:,} actions, "
                         "new_game included"})
    spiel = both["openspiel"]
    if spiel is None:
        baseline = OPENSPIEL_REFERENCE_US
        rows.append({"section": fast, "figure": "OpenSpiel crazy_eights (5 players), per step",
                     "value": baseline, "unit": "µs",
                     "note": "reference from shared/anchors/perf.md (pyspiel not installed)"})
    else:
        baseline = spiel["us_per_step"]
        rows.append({"section": fast, "figure": "OpenSpiel crazy_eights (5 players), per step",
                     "value": baseline, "unit": "µs",
                     "note": f"measured in alternating slices with the row above: "
                             f"{spiel['games']:,} games; {spiel['us_per_decision']:.2f} µs per "
                             f"decision; perf.md reference {OPENSPIEL_REFERENCE_US} µs"})
    ratio = baseline / us
    rows.append({"section": fast, "figure": "speed-up vs OpenSpiel", "value": ratio, "unit": "×",
                 "target": "≥ 2.5×", "ok": ratio >= 2.5})
    if spiel is not None:
        rows.append({"section": fast, "figure": "speed-up vs the perf.md reference 5.35 µs",
                     "value": OPENSPIEL_REFERENCE_US / us, "unit": "×"})

    core = "Kings' Stakes whole random games in the core"
    summary = simulate(GAME, games, seed=0)
    rows.append({"section": core, "figure": "cardcore.simulate, 1 worker, actions/s",
                 "value": summary["actions_per_second"], "unit": "/s", "target": "≥ 5,000,000",
                 "ok": summary["actions_per_second"] >= 5e6,
                 "note": f"{summary['games_per_second']:,.0f} games/s, "
                         f"{summary['mean_actions']:.0f} actions per game, dealing included"})
    per_second, _ = run_random_only(GAME, games // 4)
    rows.append({"section": core, "figure": "GameState.run_random alone, actions/s",
                 "value": per_second, "unit": "/s", "note": "deals outside the timer"})
    if not quick:
        both = simulate(GAME, games * 2, seed=0, workers=2)
        rows.append({"section": core, "figure": "cardcore.simulate, 2 workers, actions/s",
                     "value": both["actions_per_second"], "unit": "/s",
                     "note": f"{both['games_per_second']:,.0f} games/s, process start included"})
    greedy = simulate(GAME, 1000 if quick else 4000, bots="greedy,random", seed=0)
    rows.append({"section": core, "figure": "greedy+random bots in Python, games/s",
                 "value": greedy["games_per_second"], "unit": "/s",
                 "note": f"{1e6 / greedy['actions_per_second']:.2f} µs per action"})
    return rows


# ---------------------------------------------------------------- pytest-benchmark suite
def test_ks_fast_path_whole_game(benchmark: Any) -> None:
    benchmark.group = "kings_stakes game"
    assert benchmark(fast_path_playout, GAME, 3) > 50


def test_ks_run_random_whole_game(benchmark: Any) -> None:
    benchmark.group = "kings_stakes game"

    def one_game() -> int:
        return int(new_game(GAME, seed=3)._state.run_random(3))

    assert benchmark(one_game) > 50


def test_ks_new_game(benchmark: Any) -> None:
    benchmark.group = "kings_stakes step"
    g = benchmark(new_game, GAME, seed=1)
    assert not g.is_over


def test_ks_legal_action_ids(benchmark: Any) -> None:
    benchmark.group = "kings_stakes step"
    g = new_game(GAME, seed=1)
    assert len(benchmark(g.legal_action_ids)) > 0


def test_ks_apply_one_action(benchmark: Any) -> None:
    benchmark.group = "kings_stakes step"
    base = new_game(GAME, seed=1)
    action = base.legal_action_ids()[0]

    def setup() -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (base.clone(), action), {}

    benchmark.pedantic(lambda g, a: g.apply(a), setup=setup, rounds=2000)


def test_ks_greedy_bot_choice(benchmark: Any) -> None:
    benchmark.group = "kings_stakes step"
    from cardcore.bots import GreedyBot
    g = new_game(GAME, seed=1)
    bot = GreedyBot(seed=1)
    assert benchmark(bot.choose_id, g) in g.legal_action_ids()


def test_ks_simulate_1000_random_games(benchmark: Any) -> None:
    benchmark.group = "kings_stakes simulate"
    summary = benchmark.pedantic(simulate, args=(GAME, 1000), rounds=5)
    assert summary["games"] == 1000
