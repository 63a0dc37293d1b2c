"""VectorGame with a policy opponent through the policy protocol (issue 47, item 5), every
game at 2 players: learner steps per second against a trivial ``choose_many`` policy, as a
same-run ratio to in-core greedy, and the policy's calls per learner step.

a table:            python benchmarks/bench_policy_protocol.py [--quick] [--seconds S]
side by side:       python benchmarks/compare.py --only policy_protocol

A learner step is ``step(actions)`` + ``legal_mask(out)`` + ``observations(out)`` for each of
``BATCH`` games (bench_vector's ``VectorLoop``: the learner's random legal actions drawn in C
outside the timer). The trivial policy answers ``decisions.masks.argmax(1)`` (the first legal
id: the engine's own cost, not a network's). Its slices alternate with the in-core greedy
VectorGame of the same configuration, so the ratio is of one run. Target (issue 47):
≥ 0.8× in-core greedy in every game; games for 2 players only (Manna and Belote seat 6 and 4).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))   # run as a script too
from bench_vector import VectorLoop  # noqa: E402

from cardcore import available_games  # noqa: E402
from cardcore.policy import Decisions  # noqa: E402
from cardcore.registry import game_class  # noqa: E402

BATCH = 1024
TARGET = 0.80


class FirstLegal:
    """The trivial policy: the lowest legal id of every row; counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def choose_many(self, decisions: Decisions) -> Any:
        self.calls += 1
        return decisions.masks.argmax(axis=1)


def two_player_games() -> list[tuple[str, dict[str, Any]]]:
    """(game, options) of every game that seats 2 players."""
    return [(name, {"players": 2}) for name in available_games()
            if game_class(name).min_players <= 2]


def calls_per_step(name: str, options: dict[str, Any], steps: int = 200) -> tuple[float, int]:
    """(mean, most) policy calls per learner step over ``steps`` steps of ``BATCH`` games."""
    policy = FirstLegal()
    loop = VectorLoop(name, False, BATCH, opponents=policy, **options)
    counts = []
    for _ in range(steps):
        policy.calls = 0
        loop.vg.step(loop.vg.random_actions())
        counts.append(policy.calls)
    return float(np.mean(counts)), max(counts)


def against_greedy(seconds: float, slices: int = 10) -> list[dict[str, Any]]:
    """Per game: learner steps/s against the trivial policy and against in-core greedy,
    alternating slices, and the policy's calls per step."""
    rows = []
    for name, options in two_player_games():
        mine = VectorLoop(name, True, BATCH, opponents=FirstLegal(), **options)
        greedy = VectorLoop(name, True, BATCH, opponents="greedy", **options)
        for _ in range(slices):
            mine.run(seconds / slices)
            greedy.run(seconds / slices)
        mean, most = calls_per_step(name, options)
        rows.append({"game": name, "rate": mine.rate, "greedy": greedy.rate,
                     "calls": mean, "most": most})
    return rows


def compare_section(quick: bool = False, seconds: float | None = None) -> list[dict[str, Any]]:
    seconds = seconds or (1.0 if quick else 3.0)
    sec = "VectorGame with a protocol policy opponent (issue 47)"
    return [{
        "section": sec, "figure": f"VectorGame {row['game']} (2 players) vs a trivial "
        f"choose_many policy: learner steps/s, step + mask + observations ({BATCH} games)",
        "value": row["rate"] / 1e6, "unit": "M/s",
        "note": f"{row['rate'] / row['greedy']:.2f}× in-core greedy ({row['greedy'] / 1e6:.2f} "
                f"M/s, alternating slices); {row['calls']:.2f} calls per step (most "
                f"{row['most']})",
        "target": f"≥ {TARGET:.0%} of in-core greedy", "ok": row["rate"] >= TARGET * row["greedy"]}
        for row in against_greedy(seconds)]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seconds", type=float, default=None)
    args = parser.parse_args()
    for row in compare_section(args.quick, args.seconds):
        print(f"{row['figure']}: {row['value']:.3f} {row['unit']}  ({row['note']})  "
              f"{'ok' if row['ok'] else 'BELOW TARGET'}")
