"""VectorGame with a batched policy opponent in Python (issue 33): learner steps per second
against in-core greedy opponents in the same run.

pytest-benchmark:   pytest benchmarks/bench_vector_policy.py --benchmark-enable
side by side:       python benchmarks/compare.py --only vector_policy
a table:            python benchmarks/bench_vector_policy.py [--quick] [--seconds S]

A learner step is ``step(actions)`` + ``legal_mask(out)`` + ``observations(out)`` for each of
``BATCH`` games of Kings' Stakes, 2 players (bench_vector_opponents' loop; the learner's random
legal actions drawn in C outside the timer). ``opponents=`` a numpy callable: ``step`` asks
it (``choose_many(decisions)``, the policy protocol), once per round, for the slots where
seat 1 is to move (their masks; their observations when it reads them), the time of those
calls and of the policy itself inside the timer. Three policies:

* ``first legal``: ``masks.argmax(1)``, about the least a policy can cost (the engine's own
  overhead: gathering views and masks, checking and applying the answers);
* ``random legal``: a uniformly random legal action drawn with numpy;
* ``linear``: the legal action with the best score of a fixed random linear map of the
  observation (a one-layer "network", float32 matmul).

Each is timed in slices alternating with the in-core greedy VectorGame of the same
configuration, so the ratio is of one run. Target (issue 33): ≥ 40 % of in-core greedy.
"""
from __future__ import annotations

import argparse
import os
import sys

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")      # one core: the linear policy's matmul included
from pathlib import Path  # noqa: E402  (after the thread settings, which numpy reads once)
from typing import Any, Callable  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))   # run as a script too
from bench_vector import VectorLoop  # noqa: E402

from cardcore import VectorGame  # noqa: E402

BATCH = 1024
GAME, PLAYERS = "kings_stakes", 2
TARGET = 0.40


class Policy:
    """A numpy function of (observations, masks) as the policy protocol (cardcore.policy);
    ``reads`` says whether it reads the observations (made only then)."""

    def __init__(self, choose: Callable[..., Any], reads: bool) -> None:
        self.choose, self.reads = choose, reads

    def choose_many(self, decisions: Any) -> Any:
        return self.choose(decisions.observations if self.reads else None, decisions.masks)


def policies(size: int, actions: int) -> dict[str, Policy]:
    """The numpy opponents timed, by name."""
    rng = np.random.default_rng(0)
    weights = rng.normal(size=(size, actions)).astype(np.float32)

    def first_legal(observations: Any, masks: Any) -> Any:
        return masks.argmax(axis=1)

    def random_legal(observations: Any, masks: Any) -> Any:
        # the legal entries in row order (flatnonzero: several times a 2-D nonzero's
        # speed), one uniform pick within each row
        flat = np.flatnonzero(masks)
        width = masks.shape[1]
        counts = np.bincount(flat // width, minlength=len(masks))
        starts = np.cumsum(counts) - counts
        return flat[starts + (rng.random(len(masks)) * counts).astype(np.int64)] % width

    def linear(observations: Any, masks: Any) -> Any:
        return np.where(masks, observations @ weights, -np.inf).argmax(axis=1)
    return {"first legal": Policy(first_legal, False), "random legal": Policy(random_legal, False),
            "linear": Policy(linear, True)}


def against_greedy(seconds: float, slices: int = 10) -> list[tuple[str, float, float]]:
    """(policy, learner steps/s against it, against in-core greedy), alternating slices."""
    probe = VectorGame(GAME, 1, players=PLAYERS)
    rows = []
    for name, policy in policies(probe.observation_shape[0], probe.num_distinct_actions).items():
        theirs = VectorLoop(GAME, True, BATCH, players=PLAYERS, opponents=policy)
        greedy = VectorLoop(GAME, True, BATCH, players=PLAYERS, opponents="greedy")
        for _ in range(slices):
            theirs.run(seconds / slices)
            greedy.run(seconds / slices)
        rows.append((name, theirs.rate, greedy.rate))
    return rows


def compare_section(quick: bool = False, seconds: float | None = None) -> list[dict[str, Any]]:
    seconds = seconds or (1.0 if quick else 3.0)
    sec = "VectorGame with a policy opponent (issue 33)"
    rows: list[dict[str, Any]] = []
    for name, rate, greedy in against_greedy(seconds):
        rows.append({
            "section": sec, "figure": f"VectorGame {GAME} ({PLAYERS} players) vs a numpy "
            f"policy ({name}): learner steps/s, step + mask + observations ({BATCH} games)",
            "value": rate / 1e6, "unit": "M/s",
            "note": f"{rate / greedy:.2f}× in-core greedy ({greedy / 1e6:.2f} M/s, "
                    f"alternating slices)",
            "target": f"≥ {TARGET:.0%} of in-core greedy", "ok": rate >= TARGET * greedy})
    return rows


def test_learner_step_kings_stakes_vs_a_numpy_policy(benchmark: Any) -> None:
    probe = VectorGame(GAME, 1, players=PLAYERS)
    policy = policies(probe.observation_shape[0], probe.num_distinct_actions)["random legal"]
    loop = VectorLoop(GAME, True, BATCH, players=PLAYERS, opponents=policy)
    assert loop.obs is not None

    def one_step() -> None:
        loop.vg.step(loop.vg.random_actions())
        loop.vg.legal_mask(loop.mask)
        loop.vg.observations(loop.obs)
    benchmark(one_step)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seconds", type=float, default=None)
    args = parser.parse_args()
    for row in compare_section(args.quick, args.seconds):
        print(f"{row['figure']}: {row['value']:.2f} {row['unit']}  ({row['note']})  "
              f"{'ok' if row['ok'] else 'BELOW TARGET'}")
