"""The three training examples run on every game (issue 47): their final evaluation is an
option (``--eval-opponent``, default random, greedy and level 3), checked before training,
and runs on Durak, whose level 3 is a search (played outside the core since VectorGame
takes bots without an in-core policy). A few hundred steps each: this checks the plumbing,
not learning (tests/test_examples_masked_ppo.py and _league_ppo.py do that).

Needs torch (the CPU build of 2.13.0), imported inside the tests. examples/maskable_ppo.py
is not run here: it needs stable-baselines3 and sb3-contrib (the ``rl-examples`` extra),
which the test environment does not install (in ``[test]`` they would pull a CUDA torch into
the wheel's test venv, which has no torch); ``MASKABLE`` below is its command, run by hand
on Durak for issue 47 (docs/rl.md, "Durak")."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from cardcore import ConfigError

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
EXAMPLE_NAMES = ("masked_ppo", "league_ppo")
MASKABLE = ("python examples/maskable_ppo.py durak --steps 128 --num-envs 4 --n-steps 16 "
            "--eval-games 12 --eval-opponent random --eval-opponent level:3")
# Tiny runs: a few updates, then 12 evaluation games per opponent.
TINY = {"masked_ppo": ["--steps", "256", "--num-envs", "8", "--rollout", "8"],
        "league_ppo": ["--steps", "512", "--num-envs", "4", "--rollout", "8",
                       "--league", "self,greedy"]}


def load(name: str):
    if importlib.util.find_spec("torch") is None:
        pytest.fail("torch is not installed: the README's test command installs it "
                    "(pip install \".[test]\" torch==2.13.0, the CPU build)", pytrace=False)
    sys.path.insert(0, str(EXAMPLES))          # league_ppo imports masked_ppo beside it
    try:
        spec = importlib.util.spec_from_file_location(f"{name}_eval_example",
                                                      EXAMPLES / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module        # dataclasses look their module up there
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(EXAMPLES))
    return module


@pytest.mark.slow
@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_each_example_trains_and_evaluates_on_durak(name, capsys):
    example = load(name)
    summary = example.main(["durak", *TINY[name], "--eval-games", "12"])
    final = summary["final"]
    assert {"random", "greedy", "level:3"} <= set(final), final
    for spec in ("random", "greedy", "level:3"):
        assert final[spec]["games"] == 12 and 0 <= final[spec]["wins"] <= 12
    assert "level:3" in capsys.readouterr().out


@pytest.mark.slow
@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_eval_opponent_chooses_the_evaluation_and_a_bad_one_fails_before_training(name,
                                                                                  monkeypatch):
    example = load(name)
    summary = example.main(["durak", *TINY[name], "--eval-games", "8",
                            "--eval-opponent", "level:2", "--eval-opponent", "greedy"])
    assert [k for k in summary["final"] if k != "snapshot 0"] == ["level:2", "greedy"]

    def no_training(*args, **kwargs):
        raise AssertionError("trained before checking the evaluation's opponents")
    monkeypatch.setattr(example, "train", no_training)
    with pytest.raises(ConfigError, match="opponents.*nobody") as e:
        example.main(["durak", *TINY[name], "--eval-opponent", "nobody"])
    assert e.value.option == "opponents"
