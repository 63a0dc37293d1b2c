"""Gin Rummy against OpenSpiel's gin_rummy: the same game with the same rules (default
options), in whole random games per second, measured side by side in one run (the Crazy Eights
method, ``bench_crazy_eights``: alternating slices, so that both see the same drift of a
loaded machine).

pytest-benchmark:   pytest benchmarks/bench_gin_rummy.py --benchmark-enable
side by side:       python benchmarks/compare.py --only gin   (uses ``compare_section``)

Games per second needs no convention about what a step is (OpenSpiel's deal and stock draws
are chance nodes, cardcore has none), and uniform random play has the same length
distribution in both engines (the rules are the same, move for move:
tests/games/gin_rummy/test_gin_rummy_openspiel.py).

1. In-core random play: ``cardcore.simulate("gin_rummy", n)`` (each game dealt, then
   ``run_random`` in C, one worker) against ``pyspiel.evaluate_bots`` with uniform random bots
   (everything in C++). Goal ≥ 20× (issue 49).
2. The Python fast path, ``new_game`` then ``legal_action_ids()`` / ``apply(int)`` until over,
   against OpenSpiel's Python API loop (chance outcomes sampled). Goal ≥ 5×.
"""
from __future__ import annotations

from typing import Any

from bench_crazy_eights import (FastPath, OpenSpielBots, OpenSpielPython, Simulate,
                                race_section)
from cardcore import simulate

GAME = "gin_rummy"


# The Crazy Eights race's contenders, given this game (simulate in calls of 500 games: a
# random Gin Rummy game is about 190 actions).
PAIRS = (
    ("in-core random play: cardcore.simulate vs pyspiel.evaluate_bots (C++ random bots)",
     lambda: Simulate(500, GAME), lambda: OpenSpielBots(GAME), 20.0),
    ("Python fast path (legal_action_ids / apply) vs OpenSpiel's Python API loop",
     lambda: FastPath(GAME), lambda: OpenSpielPython(GAME), 5.0),
)


def compare_section(quick: bool = False, seconds: float | None = None) -> list[dict[str, Any]]:
    return race_section("Gin Rummy vs OpenSpiel gin_rummy, same game (default options)", PAIRS,
                        seconds or (2.0 if quick else 8.0))


def test_simulate_gin_rummy(benchmark: Any) -> None:
    benchmark(lambda: simulate(GAME, 100, seed=1))


def test_fast_path_gin_rummy(benchmark: Any) -> None:
    loop = FastPath(GAME)
    benchmark(lambda: loop.run(0.01))


if __name__ == "__main__":
    import sys
    for row in compare_section(seconds=float(sys.argv[1]) if len(sys.argv) > 1 else None):
        print(f"{row['figure']}: {row['value']:.2f}{row['unit']} ({row.get('target', '')}) "
              f"{row.get('note', '')}")
