"""The Gymnasium vector environment (``cardcore.envs.gymnasium.make_vec``) against the
VectorGame under it: learner steps per CPU second, issue 23's target ≥ 500k/s with masks.

    python benchmarks/bench_rl_vector.py [--games kings_stakes,crazy_eights] [--seconds 3]

Per game (2 players, Manna 6, the learner at seat 0, in-core greedy opponents, 1024 games): three loops
timed in alternating slices of 0.2 s in one process, so that a busy machine slows them alike:

* ``vectorgame``: ``vg.step(actions)``, ``vg.legal_mask(out)``, ``vg.observations(out)`` (what
  any training loop on VectorGame pays);
* ``make_vec``: ``env.step(actions)`` (observations, masks in ``info``, final observations,
  returns and winners of the finished games), ``copy=True`` (new arrays every step);
* ``make_vec copy=False``: the same, returning the same buffers every step.

The learner's actions are uniformly random legal ids drawn in C (``random_actions``) outside
the timer. Rates are per CPU second of this process (``time.process_time``): other processes
on the machine do not count. The ratio make_vec / vectorgame is the adapter's cost.
"""
from __future__ import annotations

import argparse
import time

from cardcore.envs.gymnasium import make_vec
from cardcore.registry import available_games, game_class
from cardcore.vector import VectorGame

BATCH = 1024
SLICE = 0.2


class Loop:
    def __init__(self, step, vg: VectorGame) -> None:
        self.step, self.vg = step, vg
        self.timed = 0.0
        self.steps = 0

    def run(self, seconds: float) -> None:
        clock, until = time.process_time, self.timed + seconds
        while self.timed < until:
            actions = self.vg.random_actions()          # drawn in C, outside the timer
            started = clock()
            self.step(actions)
            self.timed += clock() - started
            self.steps += BATCH

    @property
    def rate(self) -> float:
        return self.steps / self.timed


def loops(name: str, players: int) -> dict[str, Loop]:
    vg = VectorGame(name, BATCH, players=players, seed=1, learner_seats=0, opponents="greedy")
    mask, obs = vg.legal_mask(), vg.observations()

    def raw(actions) -> None:
        vg.step(actions)
        vg.legal_mask(mask)
        vg.observations(obs)

    found = {"vectorgame": Loop(raw, vg)}
    for copy in (True, False):
        env = make_vec(name, BATCH, players=players, opponents="greedy", copy=copy)
        env.reset(seed=1)
        found["make_vec" if copy else "make_vec copy=False"] = Loop(env.step, env.vector_game)
    return found


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", default=",".join(available_games()))
    parser.add_argument("--seconds", type=float, default=3.0, help="timed CPU s per loop")
    args = parser.parse_args(argv)
    print(f"{'game':14s} {'loop':22s} {'steps/CPU s':>12s} {'ratio':>6s}")
    for name in args.games.split(","):
        players = max(game_class(name).min_players, 2)   # two seats where the game allows
        timed = loops(name, players)
        for _ in range(round(args.seconds / SLICE)):
            for loop in timed.values():
                loop.run(SLICE)
        base = timed["vectorgame"].rate
        for label, loop in timed.items():
            print(f"{name:14s} {label:22s} {loop.rate:12,.0f} {loop.rate / base:6.2f}")


if __name__ == "__main__":
    main()
