"""Batched play (VectorGame), whole runs in the core, and IS-MCTS: the figures of issue 11.

pytest-benchmark:   pytest benchmarks/bench_vector.py --benchmark-enable
side by side:       python benchmarks/compare.py   (uses ``compare_section`` below)

* VectorGame game-steps per second on one core: ``step(actions)`` + ``legal_mask(out)`` timed
  (the random legal actions are drawn in C by ``random_actions`` outside the timer), for every
  game; with ``observations(out)`` too for Kings' Stakes. Targets: each game's declared
  ``benchmark_targets["vector_steps_per_s"]`` (else ≥ 2 M/s), ≥ 2 M/s for Kings' Stakes with
  observations.
* OpenSpiel's C++ random-bot loop on crazy_eights (``pyspiel.evaluate_bots`` with uniform random
  bots, everything in C++), steps per second in the same run, timed in slices alternating with
  Kings' Stakes' (``ratio_to_openspiel``); target: VectorGame Kings' Stakes ≥ 3× that.
* ISMCTSBot iterations per second per game (one 2-player decision from a fresh deal).
"""
from __future__ import annotations

import time
from typing import Any

import numpy as np

from cardcore import VectorGame, available_games, new_game
from cardcore.bots import ISMCTSBot
from cardcore.registry import game_class

GAMES = available_games()            # the registry's: a new game is measured too
# A game's VectorGame target unless it declares its own (Game.benchmark_targets).
VECTOR_TARGET = 2e6
BATCH = 256            # games per VectorGame: their states stay in the L2/L3 caches


class VectorLoop:
    """step + legal_mask (+ observations) on one VectorGame, timed in slices: the random
    legal actions are drawn in C outside the timer."""

    def __init__(self, name: str, observations: bool = False, batch: int = BATCH,
                 **options: Any) -> None:
        self.batch = batch
        self.vg = VectorGame(name, batch, seed=1, **options)
        self.mask = self.vg.legal_mask()
        self.obs = self.vg.observations() if observations else None
        self.timed = 0.0
        self.steps = 0

    def run(self, seconds: float) -> None:
        """Add about ``seconds`` of timed steps."""
        vg, mask, obs, clock = self.vg, self.mask, self.obs, time.perf_counter
        until = self.timed + seconds
        while self.timed < until:
            actions = vg.random_actions()             # drawn in C, outside the timer
            started = clock()
            vg.step(actions)
            vg.legal_mask(mask)
            if obs is not None:
                vg.observations(obs)
            self.timed += clock() - started
            self.steps += self.batch

    @property
    def rate(self) -> float:
        return self.steps / self.timed


def vector_rate(name: str, seconds: float, observations: bool = False, batch: int = BATCH,
                **options: Any) -> float:
    """Game-steps per second of step + legal_mask (+ observations)."""
    loop = VectorLoop(name, observations, batch, **options)
    loop.run(seconds)
    return loop.rate


class OpenSpielLoop:
    """crazy_eights (5 players) played by uniform random bots entirely in OpenSpiel's C++
    (evaluate_bots), steps per second including chance steps, timed in slices."""

    def __init__(self) -> None:
        import pyspiel  # type: ignore[import-not-found]
        self.pyspiel = pyspiel
        self.game = pyspiel.load_game("crazy_eights")
        players = self.game.num_players()
        # The average game length, from Python playouts (steps including chance).
        rng = np.random.default_rng(0)
        lengths = []
        for _ in range(30):
            state = self.game.new_initial_state()
            n = 0
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.integers(len(outcomes))][0])
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[rng.integers(len(legal))])
                n += 1
            lengths.append(n)
        self.length = float(np.mean(lengths))
        self.bots = [pyspiel.make_uniform_random_bot(p, 1234 + p) for p in range(players)]
        self.games = 0
        self.timed = 0.0

    def run(self, seconds: float) -> None:
        started = time.perf_counter()
        while time.perf_counter() - started < seconds:
            self.pyspiel.evaluate_bots(self.game.new_initial_state(), self.bots, self.games)
            self.games += 1
        self.timed += time.perf_counter() - started

    @property
    def rate(self) -> float:
        return self.games * self.length / self.timed


def ratio_to_openspiel(seconds: float, slices: int = 20) -> tuple[float, float] | None:
    """(Kings' Stakes step + legal_mask, OpenSpiel's C++ loop) in game-steps per second,
    timed in alternating slices of seconds / slices each, so that both see the same machine
    (a VM's speed drifts over seconds: timed one after the other, the ratio moved 2.3-4.0×
    on a quiet machine). None without pyspiel."""
    try:
        theirs = OpenSpielLoop()
    except ImportError:
        return None
    ours = VectorLoop("kings_stakes")
    for _ in range(slices):
        theirs.run(seconds / slices)
        ours.run(seconds / slices)
    return ours.rate, theirs.rate


def ismcts_iterations_per_second(name: str, iterations: int) -> float:
    game = new_game(name, players=2, seed=7) if name != "manna" else new_game(name, seed=7, target=50)
    bot = ISMCTSBot(iterations=iterations, seed=7)
    started = time.perf_counter()
    bot.choose_id(game)
    return iterations / (time.perf_counter() - started)


def compare_section(quick: bool = False) -> list[dict[str, Any]]:
    seconds = 0.5 if quick else 2.0
    sec = "Batched play and search (issue 11)"
    rows: list[dict[str, Any]] = []
    for name in GAMES:
        target = game_class(name).benchmark_targets.get("vector_steps_per_s", VECTOR_TARGET)
        rate = vector_rate(name, seconds)
        rows.append({"section": sec, "figure": f"VectorGame {name}: step + legal_mask, "
                     f"game-steps/s ({BATCH} games, 1 core)", "value": rate / 1e6, "unit": "M/s",
                     "target": f"≥ {target / 1e6:g} M/s", "ok": rate >= target})
    rate = vector_rate("kings_stakes", seconds, observations=True)
    rows.append({"section": sec, "figure": "VectorGame kings_stakes: step + legal_mask + "
                 "observations, game-steps/s", "value": rate / 1e6, "unit": "M/s",
                 "target": "≥ 2 M/s", "ok": rate >= 2e6})
    both = ratio_to_openspiel(2 * seconds)
    if both is None:
        rows.append({"section": sec, "figure": "OpenSpiel C++ random bots, crazy_eights",
                     "value": None, "unit": "", "note": "pyspiel not installed; perf.md: 2.63 M/s"})
    else:
        ks, cpp = both
        rows.append({"section": sec, "figure": "OpenSpiel C++ random bots (evaluate_bots), "
                     "crazy_eights steps/s (alternating slices with Kings' Stakes)",
                     "value": cpp / 1e6, "unit": "M/s"})
        rows.append({"section": sec, "figure": "VectorGame kings_stakes ÷ OpenSpiel C++ loop, "
                     "alternating slices", "value": ks / cpp, "unit": "×", "target": "≥ 3×",
                     "ok": ks / cpp >= 3})
    for name in GAMES:
        rate = ismcts_iterations_per_second(name, 200 if quick else 1000)
        rows.append({"section": sec, "figure": f"ISMCTSBot {name}: iterations/s (one decision)",
                     "value": rate / 1e3, "unit": "k/s"})
    return rows


def test_vector_step_kings_stakes(benchmark: Any) -> None:
    vg = VectorGame("kings_stakes", BATCH, seed=1)
    mask = vg.legal_mask()

    def one_step() -> None:
        vg.step(vg.random_actions())
        vg.legal_mask(mask)
    benchmark(one_step)


def test_ismcts_decision_kings_stakes(benchmark: Any) -> None:
    game = new_game("kings_stakes", players=2, seed=7)
    benchmark(lambda: ISMCTSBot(iterations=200, seed=1).choose_id(game))
