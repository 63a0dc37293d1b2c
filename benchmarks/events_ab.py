"""CPU time of ``Game.events()`` per action in two builds, the collector on as in any process:
alternating runs, each in a fresh interpreter, whole short matches played first and kept (as a
server or an analysis keeps its games), then narrated once for the spectator.

    python benchmarks/events_ab.py --a /path/to/main/src --b src [--games manna] [--runs 3]

Prints per run and game the CPU µs per action and how many passes of each collector generation
ran during the narration; then the medians and B/A. ``instructions_ab.py --only events`` counts
the same work in instructions (the collector's share barely shows there: its full passes are
few; here they are timed).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

WORK = r'''
import gc, json, sys, time
from cardcore import new_game
from cardcore._fast import Random
name, n, options = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
below, s, done, games = Random(3).below, 0, 0, []
while done < n:
    g = new_game(name, seed=s, **options); s += 1
    ids = g.legal_action_ids()
    while ids:
        g.apply(ids[below(len(ids))]); ids = g.legal_action_ids()
    games.append(g); done += len(g.action_log())
passes = [0, 0, 0]
gc.callbacks.append(lambda phase, info: phase == "start" and passes.__setitem__(
    info["generation"], passes[info["generation"]] + 1))
start = time.process_time()
for g in games:
    g.events()
print(json.dumps({"us": (time.process_time() - start) / done * 1e6, "passes": passes}))
'''


def short_match(path: str, name: str) -> str:
    """``name``'s short match options in build ``path`` (both builds play them)."""
    code = ("import json, sys, cardcore; g = cardcore.new_game(sys.argv[1]); "
            "print(json.dumps(dict(type(g).short_match.options)))")
    return subprocess.run([sys.executable, "-c", code, name], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": path}, check=True).stdout.strip()


def run(path: str, name: str, n: int, options: str) -> dict[str, object]:
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": path}
    out = subprocess.run([sys.executable, "-c", WORK, name, str(n), options],
                         capture_output=True, text=True, env=env, check=True)
    result: dict[str, object] = json.loads(out.stdout)
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", required=True, help="PYTHONPATH of build A")
    ap.add_argument("--b", default="src", help="PYTHONPATH of build B")
    ap.add_argument("--games", default="crazy_eights,kings_stakes,kuzanasta,manna")
    ap.add_argument("--actions", type=int, default=3000)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    for name in args.games.split(","):
        options = short_match(args.b, name)
        times: dict[str, list[float]] = {"A": [], "B": []}
        for k in range(args.runs):
            for label, path in (("A", args.a), ("B", args.b)):   # alternating slices
                got = run(path, name, args.actions, options)
                times[label].append(float(got["us"]))  # type: ignore[arg-type]
                print(f"{name:13s} run {k} {label}: {got['us']:7.1f} µs/action, "
                      f"collector passes by generation {got['passes']}", flush=True)
        a, b = statistics.median(times["A"]), statistics.median(times["B"])
        print(f"{name:13s} median A {a:.1f}  B {b:.1f}  B/A {b / a:.3f}", flush=True)


if __name__ == "__main__":
    main()
