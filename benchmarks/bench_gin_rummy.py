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

import time
from typing import Any

from bench_crazy_eights import GameByGame, Timed, side_by_side
from cardcore import new_game, simulate
from cardcore._fast import Random

GAME = "gin_rummy"


class Simulate(Timed):
    """cardcore.simulate with random bots, one worker, in calls of ``chunk`` games."""

    def __init__(self, chunk: int = 500) -> None:
        super().__init__()
        self.chunk = chunk
        self.seed = 0

    def run(self, seconds: float) -> None:
        until = self.timed + seconds
        while self.timed < until:
            started = time.perf_counter()
            simulate(GAME, self.chunk, seed=self.seed, workers=1)
            self.timed += time.perf_counter() - started
            self.games += self.chunk
            self.seed += 1


class FastPath(GameByGame):
    """Whole games through legal_action_ids / apply(int), new_game included."""

    def __init__(self) -> None:
        super().__init__()
        self.below = Random(7).below

    def play(self, index: int) -> None:
        below = self.below
        game = new_game(GAME, seed=index)
        legal_action_ids, apply = game.legal_action_ids, game.apply
        ids = legal_action_ids()
        while ids:                                     # empty exactly when the game is over
            apply(ids[below(len(ids))])
            ids = legal_action_ids()


class OpenSpielBots(GameByGame):
    """pyspiel.evaluate_bots with uniform random bots: the whole game in C++."""

    def __init__(self) -> None:
        super().__init__()
        import pyspiel  # type: ignore[import-not-found]
        self.evaluate = pyspiel.evaluate_bots
        self.game = pyspiel.load_game(GAME)
        self.bots = [pyspiel.make_uniform_random_bot(p, 1234 + p) for p in range(2)]

    def play(self, index: int) -> None:
        self.evaluate(self.game.new_initial_state(), self.bots, index)


class OpenSpielPython(GameByGame):
    """OpenSpiel's Python API loop, the same chooser as FastPath."""

    def __init__(self) -> None:
        super().__init__()
        import pyspiel
        self.game = pyspiel.load_game(GAME)
        self.below = Random(7).below

    def play(self, index: int) -> None:
        below = self.below
        state = self.game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[below(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[below(len(legal))])


PAIRS = (
    ("in-core random play: cardcore.simulate vs pyspiel.evaluate_bots (C++ random bots)",
     Simulate, OpenSpielBots, 20.0),
    ("Python fast path (legal_action_ids / apply) vs OpenSpiel's Python API loop",
     FastPath, OpenSpielPython, 5.0),
)


def compare_section(quick: bool = False, seconds: float | None = None) -> list[dict[str, Any]]:
    seconds = seconds or (2.0 if quick else 8.0)
    sec = "Gin Rummy vs OpenSpiel gin_rummy, same game (default options)"
    rows: list[dict[str, Any]] = []
    for label, ours_cls, theirs_cls, goal in PAIRS:
        try:
            theirs = theirs_cls()
        except ImportError:
            rows.append({"section": sec, "figure": label, "value": None, "unit": "",
                         "note": "pyspiel not installed"})
            continue
        ours = ours_cls()
        ours.run(seconds / 20)                       # warm up both before the timed slices
        theirs.run(seconds / 20)
        ours.games, ours.timed, theirs.games, theirs.timed = 0, 0.0, 0, 0.0
        mine, spiel = side_by_side(ours, theirs, seconds)
        note = f"cardcore {mine:,.0f} games/s, OpenSpiel {spiel:,.0f} games/s, 20 alternating slices"
        rows.append({"section": sec, "figure": label, "value": mine / spiel, "unit": "×",
                     "target": f"≥ {goal:g}×", "ok": mine / spiel >= goal, "note": note})
    return rows


def test_simulate_gin_rummy(benchmark: Any) -> None:
    benchmark(lambda: simulate(GAME, 100, seed=1))


def test_fast_path_gin_rummy(benchmark: Any) -> None:
    loop = FastPath()
    benchmark(lambda: loop.run(0.01))


if __name__ == "__main__":
    import sys
    for row in compare_section(seconds=float(sys.argv[1]) if len(sys.argv) > 1 else None):
        print(f"{row['figure']}: {row['value']:.2f}{row['unit']} ({row.get('target', '')}) "
              f"{row.get('note', '')}")
