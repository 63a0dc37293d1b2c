"""Smoke run of examples/league_ppo.py (issue 33): masked PPO against its own frozen
snapshots (SelfPlay through VectorGame's policy opponents), greedy and levels 2 and 3. A few
thousand steps with fixed seeds: the snapshots are taken and play, the loss stays finite, and
the win rate against random rises above the untrained (uniformly random) policy's, beyond
both 95% Wilson intervals.

Needs torch (the CPU build of 2.13.0, which the README's test command installs), imported
inside the test so that collecting this file never needs it."""
from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path

import pytest

from cardcore.envs.evaluation import random_policy, win_rates

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "league_ppo.py"


def load_example():
    if importlib.util.find_spec("torch") is None:
        pytest.fail("torch is not installed: the README's test command installs it "
                    "(pip install \".[test]\" torch==2.13.0, the CPU build)", pytrace=False)
    spec = importlib.util.spec_from_file_location("league_ppo_example", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module            # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_league_ppo_plays_its_snapshots_and_learns():
    example = load_example()
    cfg = example.Config(game="kings_stakes", players=2, num_envs=32, steps=8192, rollout=16,
                         snapshot_every=1, keep=3, seed=0)
    result = example.train(cfg, log=lambda line: None)
    assert result["steps"] == 8192 and result["updates"] == 4
    assert result["snapshots"] == 5 and result["snapshot_moves"] > 1000
    assert result["losses"] and all(math.isfinite(x) for x in result["losses"])
    games = dict(games=1000, players=2, seed=99)
    before = win_rates(random_policy(0), "kings_stakes", ("random",), **games)["random"]
    final = example.evaluate(result["agent"], cfg, result["first_snapshot"], 1000)
    after = final["random"]
    assert after["win_rate_ci"][0] > before["win_rate_ci"][1], (before, after)
    assert final["snapshot 0"]["games"] == 1000
