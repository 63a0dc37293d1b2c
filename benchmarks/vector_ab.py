"""Wall-clock A/B of two builds on bench_vector.py's and bench_vector_opponents.py's loops:
short runs of each build in fresh processes, alternating A, B, A, B, ... so the machine's load
falls on both alike; per figure the median of B's rates over A's.

    python benchmarks/vector_ab.py --a /tmp/base/src --b src [--rounds 6] [--seconds 1]

Figures (one CPU thread each): VectorGame self-play step + legal_mask, 256 games (Kings'
Stakes, Kuzanasta, Manna) and Kings' Stakes with observations (bench_vector.py); learner steps
with masks and observations against in-core greedy, 1,024 games, every game, 2 players (Manna
6) (bench_vector_opponents.py).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
WORK = r'''
import json, sys
sys.path.insert(0, sys.argv[1])
from bench_vector import GAMES, VectorLoop
from cardcore.registry import game_class
seconds = float(sys.argv[2])
figures = {}
for name in GAMES:
    loop = VectorLoop(name)
    loop.run(seconds)
    figures[f"self-play {name} (256)"] = loop.rate
loop = VectorLoop("kings_stakes", True)
loop.run(seconds)
figures["self-play kings_stakes + obs (256)"] = loop.rate
for name in GAMES:
    loop = VectorLoop(name, True, 1024, players=game_class(name).short_match.players,
                      opponents="greedy")
    loop.run(seconds)
    figures[f"vs greedy {name} (1024)"] = loop.rate
print(json.dumps(figures))
'''


def run(path: str, seconds: float) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": path, "OPENBLAS_NUM_THREADS": "1"}
    out = subprocess.run([sys.executable, "-c", WORK, str(HERE), str(seconds)], env=env,
                         capture_output=True, text=True, check=True)
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", required=True, help="PYTHONPATH of build A (the base)")
    ap.add_argument("--b", default="src", help="PYTHONPATH of build B")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--seconds", type=float, default=1.0)
    args = ap.parse_args()
    a: list[dict[str, float]] = []
    b: list[dict[str, float]] = []
    for _ in range(args.rounds):
        a.append(run(args.a, args.seconds))
        b.append(run(args.b, args.seconds))
    print(f"{'figure':38s} {'A M/s':>8s} {'B M/s':>8s} {'B/A median':>11s} {'B/A range':>14s}")
    for key in a[0]:
        ratios = [y[key] / x[key] for x, y in zip(a, b)]
        print(f"{key:38s} {statistics.median(x[key] for x in a) / 1e6:8.3f} "
              f"{statistics.median(y[key] for y in b) / 1e6:8.3f} "
              f"{statistics.median(ratios):11.3f} {min(ratios):6.2f}-{max(ratios):.2f}")


if __name__ == "__main__":
    main()
