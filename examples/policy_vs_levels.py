"""A saved masked-PPO agent (``examples/masked_ppo.py --save``) against every level, each side
in each seat: the measurement of issue 47, item 4 (docs/rl.md, "Durak").

    python examples/masked_ppo.py durak --steps 1228800 --seed 0 --save durak_ppo.pt
    python examples/policy_vs_levels.py durak_ppo.pt durak --games 200

``--games`` games per seat and level (so twice that per level), dealt from ``--seed`` (the same deals in both seats) with
cardcore.envs.evaluation.win_rates (the same deals for every level); the agent plays its most
likely move (``--sample`` draws from its distribution, seeded). A win is a game the agent
wins; the level's win share is one minus it less the draws.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from masked_ppo import load_policy  # noqa: E402

from cardcore.envs.evaluation import win_rates  # noqa: E402
from cardcore.tournament import wilson_interval  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("agent")
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=200, help="per seat and level")
    parser.add_argument("--levels", default="1,2,3,4,5",
                        help="levels, comma-separated, or bot specs separated by ';'")
    parser.add_argument("--seed", type=int, default=12345)
    parser.add_argument("--sample", action="store_true")
    args = parser.parse_args()
    policy = load_policy(args.agent, greedy=not args.sample, seed=0)
    for level in args.levels.split(";" if ":" in args.levels else ","):
        spec = level if ":" in level else f"level:{level}"
        start = time.process_time()
        wins = games = 0
        for seat in (0, 1):
            r = win_rates(policy, args.game, (spec,), games=args.games, seat=seat,
                          players=2, seed=args.seed)[spec]
            wins += r["wins"]
            games += r["games"]
        low, high = wilson_interval(wins, games)
        print(json.dumps({"opponent": spec, "games": games, "agent_wins": wins,
                          "agent_win_rate": wins / games, "interval": [low, high],
                          "cpu_s": round(time.process_time() - start, 1)}), flush=True)


if __name__ == "__main__":
    main()
