"""VectorGame with in-core opponents (issue 23): learner steps per second, every game.

pytest-benchmark:   pytest benchmarks/bench_vector_opponents.py --benchmark-enable
side by side:       python benchmarks/compare.py --only vector_opponents
a table:            python benchmarks/bench_vector_opponents.py [--quick]

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
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))   # run as a script too
from bench_vector import VectorLoop  # noqa: E402

from cardcore import available_games  # noqa: E402
from cardcore.registry import game_class  # noqa: E402

BATCH = 1024
TARGET = 2e6


def configuration(name: str) -> dict[str, Any]:
    """Two players where the game allows it (Manna is always six: two teams of three)."""
    return {"players": max(2, game_class(name).min_players)}


def learner_loop(name: str, **kwargs: Any) -> VectorLoop:
    """bench_vector's timed loop (step + legal_mask + observations) on ``BATCH`` games of the
    configuration, with ``kwargs`` (opponents=...) given to the VectorGame."""
    return VectorLoop(name, True, BATCH, **configuration(name), **kwargs)


def against_self_play(name: str, seconds: float, slices: int = 10,
                      opponents: str = "greedy") -> tuple[float, float]:
    """(learner steps/s with in-core ``opponents``, self-play steps/s), alternating slices."""
    theirs = learner_loop(name, opponents=opponents)
    plain = learner_loop(name)
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
    loop = learner_loop("kings_stakes", opponents="greedy")
    assert loop.obs is not None

    def one_step() -> None:
        loop.vg.step(loop.vg.random_actions())
        loop.vg.legal_mask(loop.mask)
        loop.vg.observations(loop.obs)
    benchmark(one_step)


if __name__ == "__main__":
    quick = len(sys.argv) > 1 and sys.argv[1] == "--quick"
    for row in compare_section(quick):
        print(f"{row['figure']}: {row['value']:.2f} {row['unit']}  ({row['note']})")
