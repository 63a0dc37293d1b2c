"""Smoke run of examples/masked_ppo.py (issue 23): a few thousand steps of masked PPO on
VectorGame learn something — the loss stays finite and the win rate against random rises
above the untrained (uniformly random) policy's, beyond both 95% Wilson intervals.

Needs torch (the CPU build of 2.13.0, which the README's test command installs); torch is
imported inside the test so that collecting this file never needs it.
Fixed seeds throughout: 8,192 learner steps, then 1,000 evaluation games per policy (about
10 CPU seconds in all; the margin seen is 0.75 -> 0.87, intervals about ±0.02)."""
from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path

import pytest

from cardcore.envs.evaluation import random_policy, win_rates

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "masked_ppo.py"


def load_example():
    if importlib.util.find_spec("torch") is None:
        pytest.fail("torch is not installed: the README's test command installs it "
                    "(pip install \".[test]\" torch==2.13.0, the CPU build)", pytrace=False)
    spec = importlib.util.spec_from_file_location("masked_ppo_example", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module            # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_masked_ppo_learns_against_random_in_a_few_thousand_steps():
    example = load_example()
    cfg = example.Config(game="kings_stakes", players=2, opponents="random", steps=8192,
                         num_envs=64, rollout=16, lr=1e-3, seed=0)
    result = example.train(cfg, log=lambda line: None)
    assert result["steps"] == 8192 and result["updates"] == 8
    assert result["losses"] and all(math.isfinite(x) for x in result["losses"])
    games = dict(games=1000, players=2, seed=99)
    before = win_rates(random_policy(0), "kings_stakes", ("random",), **games)["random"]
    after = win_rates(result["agent"].policy(), "kings_stakes", ("random",), **games)["random"]
    assert after["win_rate_ci"][0] > before["win_rate_ci"][1], (before, after)
