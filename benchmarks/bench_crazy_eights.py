"""Crazy Eights against OpenSpiel's crazy_eights: the same game with the same rules (default
options, 5 players), in whole random games per second, measured side by side in one run.

pytest-benchmark:   pytest benchmarks/bench_crazy_eights.py --benchmark-enable
side by side:       python benchmarks/compare.py --only crazy   (uses ``compare_section``)

The same game has the same length distribution in both engines, so games per second needs no
convention about what a step is (OpenSpiel's chance nodes are steps, cardcore has none). Each
pair is timed in alternating slices (as ``bench_vector.ratio_to_openspiel``): a VM's speed drifts
over seconds, and both contenders see the same drift.

1. In-core random play: ``cardcore.simulate("crazy_eights", n)`` (one process: each game dealt
   from a template, then ``run_random`` in C) against ``pyspiel.evaluate_bots`` with uniform
   random bots (everything in C++). Goal ≥ 5×.
2. ``VectorGame("crazy_eights", 256)``: ``step`` + ``legal_mask``, games finished per second
   (the random legal actions drawn in C outside the timer), against the same. Goal ≥ 3×.
3. The Python fast path, ``new_game`` then ``legal_action_ids()`` / ``apply(int)`` until over,
   against OpenSpiel's Python API loop (``new_initial_state``, ``legal_actions`` /
   ``apply_action``, chance outcomes sampled: they are uniform with one deck). Both choose with
   the same generator call (``Random.below``). Goal ≥ 5×.
"""
from __future__ import annotations

import time
from typing import Any

from cardcore import VectorGame, new_game, simulate
from cardcore._fast import Random

GAME = "crazy_eights"
BATCH = 256


class Timed:
    """Games finished and seconds spent, added slice by slice."""

    def __init__(self) -> None:
        self.games = 0
        self.timed = 0.0

    def run(self, seconds: float) -> None:
        raise NotImplementedError

    @property
    def rate(self) -> float:
        return self.games / self.timed


class Simulate(Timed):
    """cardcore.simulate with random bots, one worker, in calls of ``chunk`` games (of
    ``game``: the other same-game races, bench_gin_rummy.py, use these classes too)."""

    def __init__(self, chunk: int = 2000, game: str = GAME) -> None:
        super().__init__()
        self.chunk = chunk
        self.seed = 0
        self.game = game

    def run(self, seconds: float) -> None:
        until = self.timed + seconds
        while self.timed < until:
            started = time.perf_counter()
            simulate(self.game, self.chunk, seed=self.seed, workers=1)
            self.timed += time.perf_counter() - started
            self.games += self.chunk
            self.seed += 1


class Vector(Timed):
    """VectorGame step + legal_mask; the games its ``done`` flags finish."""

    def __init__(self) -> None:
        super().__init__()
        self.vg = VectorGame(GAME, BATCH, seed=1)
        self.mask = self.vg.legal_mask()

    def run(self, seconds: float) -> None:
        vg, mask, clock = self.vg, self.mask, time.perf_counter
        until = self.timed + seconds
        while self.timed < until:
            actions = vg.random_actions()             # drawn in C, outside the timer
            started = clock()
            _, done = vg.step(actions)
            vg.legal_mask(mask)
            self.timed += clock() - started
            self.games += int(done.sum())


class GameByGame(Timed):
    """Whole games one after the other until a slice's time is up (``play`` plays one)."""

    def run(self, seconds: float) -> None:
        play, clock = self.play, time.perf_counter
        started = clock()
        games = 0
        while clock() - started < seconds:
            play(self.games + games)
            games += 1
        self.timed += clock() - started
        self.games += games

    def play(self, index: int) -> None:
        raise NotImplementedError


class FastPath(GameByGame):
    """Whole games through legal_action_ids / apply(int), new_game included."""

    def __init__(self, game: str = GAME) -> None:
        super().__init__()
        self.below = Random(7).below
        self.setup = 0.0                               # of the time, new_game's
        self.game = game

    def play(self, index: int) -> None:
        below = self.below
        started = time.perf_counter()
        game = new_game(self.game, seed=index)
        self.setup += time.perf_counter() - started
        legal_action_ids, apply = game.legal_action_ids, game.apply
        ids = legal_action_ids()
        while ids:                                     # empty exactly when the game is over
            apply(ids[below(len(ids))])
            ids = legal_action_ids()


class OpenSpielBots(GameByGame):
    """pyspiel.evaluate_bots with uniform random bots: the whole game in C++."""

    def __init__(self, game: str = GAME) -> None:
        super().__init__()
        import pyspiel  # type: ignore[import-not-found]
        self.evaluate = pyspiel.evaluate_bots
        self.game = pyspiel.load_game(game)
        self.bots = [pyspiel.make_uniform_random_bot(p, 1234 + p)
                     for p in range(self.game.num_players())]

    def play(self, index: int) -> None:
        self.evaluate(self.game.new_initial_state(), self.bots, index)


class OpenSpielPython(GameByGame):
    """OpenSpiel's Python API loop, the same chooser as FastPath."""

    def __init__(self, game: str = GAME) -> None:
        super().__init__()
        import pyspiel
        self.game = pyspiel.load_game(game)
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


def side_by_side(ours: Timed, theirs: Timed, seconds: float, slices: int = 20) -> tuple[float, float]:
    """(our games/s, their games/s), timed in ``slices`` alternating slices of seconds/slices."""
    for _ in range(slices):
        theirs.run(seconds / slices)
        ours.run(seconds / slices)
    return ours.rate, theirs.rate


PAIRS = (
    ("in-core random play: cardcore.simulate vs pyspiel.evaluate_bots (C++ random bots)",
     Simulate, OpenSpielBots, 5.0),
    ("VectorGame step + legal_mask (256 games, 1 core) vs pyspiel.evaluate_bots",
     Vector, OpenSpielBots, 3.0),
    ("Python fast path (legal_action_ids / apply) vs OpenSpiel's Python API loop",
     FastPath, OpenSpielPython, 5.0),
)


def compare_section(quick: bool = False) -> list[dict[str, Any]]:
    return race_section("Crazy Eights vs OpenSpiel crazy_eights, same game (5 players, default "
                        "options)", PAIRS, 2.0 if quick else 8.0)


def race_section(sec: str, pairs: Any, seconds: float) -> list[dict[str, Any]]:
    """compare.py's rows for each (label, ours, theirs, goal) of ``pairs``: both warmed up,
    then ``side_by_side`` (the other same-game races, bench_gin_rummy.py, use it too)."""
    rows: list[dict[str, Any]] = []
    for label, ours_cls, theirs_cls, goal in pairs:
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
        if isinstance(ours, FastPath):
            ours.setup = 0.0
        mine, spiel = side_by_side(ours, theirs, seconds)
        note = f"cardcore {mine:,.0f} games/s, OpenSpiel {spiel:,.0f} games/s, 20 alternating slices"
        if isinstance(ours, FastPath):
            note += f"; new_game {ours.setup / ours.games * 1e6:.0f} µs of {1e6 / mine:.0f} µs a game"
        rows.append({"section": sec, "figure": label, "value": mine / spiel, "unit": "×",
                     "target": f"≥ {goal:g}×", "ok": mine / spiel >= goal, "note": note})
    return rows


def test_simulate_crazy_eights(benchmark: Any) -> None:
    benchmark(lambda: simulate(GAME, 200, seed=1))


def test_fast_path_crazy_eights(benchmark: Any) -> None:
    loop = FastPath()
    benchmark(lambda: loop.run(0.01))


def test_vector_step_crazy_eights(benchmark: Any) -> None:
    vg = VectorGame(GAME, BATCH, seed=1)
    mask = vg.legal_mask()

    def one_step() -> None:
        vg.step(vg.random_actions())
        vg.legal_mask(mask)
    benchmark(one_step)


if __name__ == "__main__":
    for row in compare_section():
        print(f"{row['figure']}: {row['value']:.2f}{row['unit']} ({row.get('target', '')}) "
              f"{row.get('note', '')}")
