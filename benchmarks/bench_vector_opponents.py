"""VectorGame with in-core opponents (issue 23): learner steps per second, every game.

pytest-benchmark:   pytest benchmarks/bench_vector_opponents.py --benchmark-enable
side by side:       python benchmarks/compare.py --only vector_opponents
a table:            python benchmarks/bench_vector_opponents.py [seconds per game]

A learner step is ``step(actions)`` + ``legal_mask(out)`` + ``observations(out)`` for each of
``BATCH`` games (the learner's random legal actions drawn in C by ``random_actions``, outside
the timer); with ``opponents="greedy"`` one step also plays every greedy reply in the core.
Each figure is timed in slices alternating with today's self-play VectorGame of the same
configuration (every seat a learner, the same three calls), so the ratio is of one run.
Target: ``VectorGame("kings_stakes", 1024, players=2, opponents="greedy")`` ≥ 2 M learner
steps/s on one core.
"""
from __future__ import annotations

import sys
import time
from typing import Any

from cardcore import VectorGame, available_games
from cardcore.registry import game_class

BATCH = 1024
TARGET = 2e6


def configuration(name: str) -> dict[str, Any]:
    """Two players where the game allows it (Manna is two teams of two)."""
    return {"players": max(2, game_class(name).min_players)}


class LearnerLoop:
    """step + legal_mask + observations on one VectorGame, timed in slices."""

    def __init__(self, name: str, batch: int = BATCH, **kwargs: Any) -> None:
        self.batch = batch
        self.vg = VectorGame(name, batch, seed=1, **configuration(name), **kwargs)
        self.mask = self.vg.legal_mask()
        self.obs = self.vg.observations()
        self.timed = 0.0
        self.steps = 0

    def run(self, seconds: float) -> None:
        vg, mask, obs, clock = self.vg, self.mask, self.obs, time.perf_counter
        until = self.timed + seconds
        while self.timed < until:
            actions = vg.random_actions()             # drawn in C, outside the timer
            started = clock()
            vg.step(actions)
            vg.legal_mask(mask)
            vg.observations(obs)
            self.timed += clock() - started
            self.steps += self.batch

    @property
    def rate(self) -> float:
        return self.steps / self.timed


def against_self_play(name: str, seconds: float, slices: int = 10,
                      opponents: str = "greedy") -> tuple[float, float]:
    """(learner steps/s with in-core ``opponents``, self-play steps/s), alternating slices."""
    theirs = LearnerLoop(name, opponents=opponents)
    plain = LearnerLoop(name)
    for _ in range(slices):
        theirs.run(seconds / slices)
        plain.run(seconds / slices)
    return theirs.rate, plain.rate


def compare_section(quick: bool = False) -> list[dict[str, Any]]:
    seconds = 1.0 if quick else 3.0
    sec = "VectorGame with in-core opponents (issue 23)"
    rows: list[dict[str, Any]] = []
    for name in available_games():
        rate, plain = against_self_play(name, seconds)
        players = configuration(name)["players"]
        row: dict[str, Any] = {
            "section": sec, "figure": f"VectorGame {name} ({players} players) vs greedy: "
            f"learner steps/s, step + mask + observations ({BATCH} games, 1 core)",
            "value": rate / 1e6, "unit": "M/s", "note": f"{rate / plain:.2f}× self-play "
            f"({plain / 1e6:.2f} M/s, alternating slices)"}
        if name == "kings_stakes":
            row.update(target=f"≥ {TARGET / 1e6:g} M/s", ok=rate >= TARGET)
        rows.append(row)
    return rows


def test_learner_step_kings_stakes_vs_greedy(benchmark: Any) -> None:
    loop = LearnerLoop("kings_stakes", opponents="greedy")

    def one_step() -> None:
        loop.vg.step(loop.vg.random_actions())
        loop.vg.legal_mask(loop.mask)
        loop.vg.observations(loop.obs)
    benchmark(one_step)


if __name__ == "__main__":
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    for row in compare_section():
        print(f"{row['figure']}: {row['value']:.2f} {row['unit']}  ({row['note']})")
