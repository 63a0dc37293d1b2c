"""The learning lead on Crazy Eights (issue 33): the same masked PPO
(``examples/masked_ppo.py``) on OpenSpiel's ``crazy_eights`` and on cardcore's, trained
against a uniformly random opponent for the same number of env steps, over several seeds.

    pip install ".[rl-examples]" open_spiel torch==2.13.0
    python benchmarks/learning_lead.py --seeds 0 1 2 --json lead.json

Arms (each trained on 2 players, learner at seat 0, ``reward="win"``, OpenSpiel's scoring):
  openspiel      pyspiel states stepped in Python, OpenSpiel's observation tensor (213)
  cardcore-os    ``VectorGame(observation="openspiel")``: the same 213 entries
  cardcore-raw   ``VectorGame`` with the game's own tensor (300 entries, counts)
  cardcore-scaled  the own tensor with every entry in [0, 1]
Every arm is evaluated the same way: ``win_rates`` against random on cardcore games dealt
from seed 12345 (cardcore's Crazy Eights is OpenSpiel's, checked move by move, and its
action ids are OpenSpiel's). Runs go seed by seed, the arms in turn, so the machine's load
falls on every arm alike; steps per CPU second are reported beside the win rates.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
import masked_ppo  # noqa: E402

ARMS = {"openspiel": "openspiel", "cardcore-os": "openspiel", "cardcore-raw": "raw",
        "cardcore-scaled": "scaled"}


class OpenSpielVector:
    """``n`` pyspiel Crazy Eights games as the part of ``VectorGame`` that masked_ppo's
    ``train`` uses: seat 0 learns, the other seats play uniformly random legal actions,
    chance outcomes are drawn by their probabilities, a finished game is dealt again."""

    def __init__(self, n: int, players: int, seed: int) -> None:
        import pyspiel
        self.game = pyspiel.load_game("crazy_eights", {"players": players})
        self.n, self.players = n, players
        self.rng = np.random.default_rng(seed)
        self.observation_shape = tuple(self.game.observation_tensor_shape())
        self.num_distinct_actions = self.game.num_distinct_actions()
        self.truncated = np.zeros(n, dtype=bool)
        self.final_observations = np.zeros((n, *self.observation_shape), dtype=np.float32)
        self.states = [self._to_learner(self.game.new_initial_state()) for _ in range(n)]

    def _to_learner(self, state):
        """Plays chance and the other seats until seat 0 is to move or the game is over."""
        while not state.is_terminal() and state.current_player() != 0:
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(outcomes[self.rng.choice(len(outcomes), p=probs)])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[self.rng.integers(len(legal))])
        return state

    def observations(self, out=None) -> np.ndarray:
        out = np.empty((self.n, *self.observation_shape), np.float32) if out is None else out
        for i, s in enumerate(self.states):
            out[i] = s.observation_tensor(0)
        return out

    def legal_mask(self, out=None) -> np.ndarray:
        out = np.zeros((self.n, self.num_distinct_actions), bool) if out is None else out
        out[:] = False
        for i, s in enumerate(self.states):
            out[i, s.legal_actions(0)] = True
        return out

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        rewards = np.zeros((self.n, self.players), np.float32)
        done = np.zeros(self.n, bool)
        for i, s in enumerate(self.states):
            s.apply_action(int(actions[i]))
            s = self._to_learner(s)
            if s.is_terminal():
                returns = s.returns()
                best = max(returns)
                # reward="win": 1 for a sole best, 0 for a shared one, -1 otherwise
                won = returns[0] == best
                rewards[i, 0] = (1.0 if returns.count(best) == 1 else 0.0) if won else -1.0
                done[i] = True
                s = self._to_learner(self.game.new_initial_state())
            self.states[i] = s
        return rewards, done

    def close(self) -> None:
        pass


def run(arm: str, seed: int, steps: int, eval_games: int, players: int) -> dict:
    cfg = masked_ppo.Config(game="crazy_eights", players=players, opponents="random",
                            observation=ARMS[arm], steps=steps, seed=seed,
                            eval_games=eval_games, options={"scoring": "openspiel"})
    original = masked_ppo.make_games
    if arm == "openspiel":
        masked_ppo.make_games = lambda c, s: OpenSpielVector(c.num_envs, c.players, s)
    try:
        result = masked_ppo.train(cfg, log=lambda *_: None)
    finally:
        masked_ppo.make_games = original
    final = masked_ppo.evaluate(result["agent"], replace(cfg), ("random",), eval_games)
    return {"arm": arm, "seed": seed, "steps": result["steps"],
            "cpu_seconds": result["cpu_seconds"], "vs_random": final["random"]}


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--arms", nargs="+", default=list(ARMS), choices=list(ARMS))
    parser.add_argument("--steps", type=int, default=573_440)   # OpenSpiel's 4 CPU minutes
    parser.add_argument("--eval-games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--json", default="")
    args = parser.parse_args(argv)
    rows = []
    for seed in args.seeds:
        for arm in args.arms:
            started = time.time()
            row = run(arm, seed, args.steps, args.eval_games, args.players)
            rows.append(row)
            rate = row["vs_random"]
            print(f"{arm:16s} seed {seed}  {row['steps']:,} steps  "
                  f"{row['steps'] / row['cpu_seconds']:,.0f} steps/CPU s  vs random "
                  f"{rate['win_rate']:.3f} [{rate['win_rate_ci'][0]:.3f}, {rate['win_rate_ci'][1]:.3f}]  "
                  f"({time.time() - started:.0f} s wall)", flush=True)
            if args.json:
                Path(args.json).write_text(json.dumps(rows, indent=1))
    for arm in args.arms:
        rates = [r["vs_random"]["win_rate"] for r in rows if r["arm"] == arm]
        print(f"{arm:16s} mean {statistics.mean(rates):.3f} over {len(rates)} seeds: "
              + ", ".join(f"{x:.3f}" for x in rates))
    return rows


if __name__ == "__main__":
    main()
