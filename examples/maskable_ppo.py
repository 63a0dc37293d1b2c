"""sb3-contrib's MaskablePPO on cardcore's Gymnasium vector environment.

    pip install ".[rl-examples]" torch==2.13.0          # (the CPU build; see docs/rl.md)
    python examples/maskable_ppo.py kings_stakes --budget-minutes 8 --curve curve.png

``cardcore.envs.gymnasium.make_vec`` is a ``gymnasium.vector.VectorEnv`` over VectorGame (the
opponents played inside the core). Stable-Baselines3 trains on its own ``VecEnv`` interface,
not on Gymnasium's vector API (SB3 issue #1745), so ``SB3VecEnv`` below adapts one to the
other in a few lines: Gymnasium's same-step autoreset is what SB3 expects (the new episode's
first observation, the finished one's last in ``info["terminal_observation"]``), and
``action_masks()`` is the method MaskablePPO asks every VecEnv for.

The script ends with the win rate against random, greedy and level 3 (95% Wilson intervals,
cardcore.envs.evaluation.win_rates; other opponents with --eval-opponent, checked before
training) and can draw its learning curve (--curve). It runs on every game.
"""
from __future__ import annotations

import argparse
import json
import time

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import VecEnv

from cardcore.envs.evaluation import (DEFAULT_OPPONENTS, check_opponents, format_win_rates,
                                      plot_curve, random_policy, win_rates)
from cardcore.envs.gymnasium import CardcoreVectorEnv, make_vec


def symlog(x: np.ndarray) -> np.ndarray:
    """sign(x) log(1 + |x|): raw counts and scores squeezed into a range an MLP takes."""
    return np.sign(x) * np.log1p(np.abs(x))


class SB3VecEnv(VecEnv):
    """A cardcore vector environment as a Stable-Baselines3 VecEnv (observations through
    ``symlog``)."""

    def __init__(self, env: CardcoreVectorEnv, seed: int = 0) -> None:
        self.env = env
        self._seed = seed
        super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)

    def reset(self):
        obs, _ = self.env.reset(seed=self._seed)
        self._seed += 1                      # the next reset deals new games
        return symlog(obs)

    def step_async(self, actions) -> None:
        self._actions = np.asarray(actions, np.int64)

    def step_wait(self):
        obs, reward, terminated, truncated, info = self.env.step(self._actions)
        done = terminated | truncated
        infos = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(done):
            infos[i] = {"terminal_observation": symlog(info["final_obs"][i]),
                        "TimeLimit.truncated": bool(truncated[i]),
                        "episode": {"r": float(reward[i]),
                                    "l": int(info["final_info"]["episode_length"][i])}}
        return symlog(obs), reward.astype(np.float32), done, infos

    def action_masks(self) -> np.ndarray:
        return self.env.action_masks()

    def env_method(self, method_name, *args, indices=None, **kwargs):
        if method_name == "action_masks":          # one row per game, as SB3 stacks them
            return list(self.env.action_masks())
        raise AttributeError(method_name)

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == "action_masks"

    def get_attr(self, attr_name, indices=None):
        if attr_name == "render_mode":
            return [None] * self.num_envs
        raise AttributeError(attr_name)

    def set_attr(self, attr_name, value, indices=None) -> None:
        raise AttributeError(attr_name)

    def env_is_wrapped(self, wrapper_class, indices=None):
        return [False] * self.num_envs

    def close(self) -> None:
        self.env.close()

    def seed(self, seed=None):
        self._seed = seed or 0
        return [seed] * self.num_envs


class Progress(BaseCallback):
    """Stop at the CPU-time budget; every ``every`` rollouts, a point of the learning curve."""

    def __init__(self, args, budget_s: float) -> None:
        super().__init__()
        self.args, self.budget_s, self.start = args, budget_s, time.process_time()
        self.curve: list[dict] = []
        self.rollouts = 0

    def _on_step(self) -> bool:
        return not self.budget_s or time.process_time() - self.start < self.budget_s

    def _on_rollout_end(self) -> None:
        self.rollouts += 1
        if self.args.curve_every and self.rollouts % self.args.curve_every == 0:
            point = evaluate(self.model, self.args, ("random", "greedy"), self.args.curve_games)
            self.curve.append({"steps": self.num_timesteps,
                               "cpu_seconds": time.process_time() - self.start,
                               **{k: v["win_rate"] for k, v in point.items()}})
            print(f"steps {self.num_timesteps:9,d}  {self.curve[-1]}")


def model_policy(model: MaskablePPO):
    """The model as a batched policy ``(obs, mask) -> actions`` for win_rates."""
    def act(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        actions, _ = model.predict(symlog(obs), action_masks=np.array(mask),
                                   deterministic=False)
        return actions
    return act


def evaluate(model, args, opponents, games: int) -> dict:
    return win_rates(model_policy(model), args.game, opponents, games=games,
                     players=args.players, seed=12345, observation=args.observation)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game", nargs="?", default="kings_stakes")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponents", default="greedy")
    parser.add_argument("--reward", default="win")
    parser.add_argument("--observation", default="raw")
    parser.add_argument("--steps", type=int, default=2_000_000)
    parser.add_argument("--budget-minutes", type=float, default=0.0)
    parser.add_argument("--num-envs", type=int, default=64)
    parser.add_argument("--n-steps", type=int, default=64, help="steps per env per rollout")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--eval-games", type=int, default=1000)
    parser.add_argument("--curve-every", type=int, default=0)
    parser.add_argument("--curve-games", type=int, default=300)
    parser.add_argument("--curve", default="", help="a .png or .svg path for the curve")
    parser.add_argument("--eval-opponent", action="append", metavar="SPEC",
                        help="an opponent of the final evaluation, a bot spec; repeat for "
                             "several (default: random, greedy, level:3)")
    parser.add_argument("--json", default="", help="write the results to this file")
    args = parser.parse_args(argv)
    args.eval_opponent = tuple(args.eval_opponent or DEFAULT_OPPONENTS)
    # A spec the evaluation cannot play fails now, not after the training.
    check_opponents(args.game, args.eval_opponent, players=args.players,
                    observation=args.observation)
    torch.set_num_threads(args.threads)

    env = SB3VecEnv(make_vec(args.game, args.num_envs, players=args.players,
                             opponents=args.opponents, reward=args.reward,
                             observation=args.observation), seed=args.seed)
    model = MaskablePPO("MlpPolicy", env, n_steps=args.n_steps, batch_size=1024,
                        n_epochs=4, learning_rate=3e-4, gamma=0.995, ent_coef=0.01,
                        seed=args.seed, verbose=0)
    before = win_rates(random_policy(args.seed), args.game, ("random",),
                       games=args.eval_games, players=args.players, seed=12345,
                       observation=args.observation)
    print(f"untrained (uniform random) policy:\n{format_win_rates(before)}")
    progress = Progress(args, 60 * args.budget_minutes)
    start = time.process_time()
    model.learn(args.steps, callback=progress)
    seconds = time.process_time() - start
    final = evaluate(model, args, args.eval_opponent, args.eval_games)
    print(f"\n{args.game}: {model.num_timesteps:,} env steps in {seconds / 60:.1f} CPU min, "
          f"trained vs {args.opponents}")
    print(format_win_rates(final))
    if args.curve and progress.curve:
        plot_curve(progress.curve, args.curve,
                   f"MaskablePPO, {args.game} ({args.players} players)")
    summary = {"args": vars(args), "steps": model.num_timesteps, "cpu_seconds": seconds,
               "untrained": before, "final": final, "curve": progress.curve}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(summary, f, indent=1, default=list)
    return summary


if __name__ == "__main__":
    main()
