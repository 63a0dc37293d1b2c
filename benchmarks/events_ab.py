"""CPU time of ``Game.events()`` per action in two builds, the collector on as in any process:
alternating runs, each in a fresh interpreter, whole short matches played first and kept (as a
server or an analysis keeps its games), then narrated once for the spectator.

    python benchmarks/events_ab.py --a /path/to/main/src --b src [--games manna] [--runs 3]
        [--actions 20000] [--collector off]

Prints per run and game the CPU µs per action and how many passes of each collector generation
ran during the narration, with its parts: the replay that tells the events (the game's
``_narrate()``), then the first ``events()`` (rendering and the words, made once per event and
reader) and a second one (rendering only: the words are kept); then the medians and B/A.
The window is long (20,000 actions) so that full collections, a few per window, average out: in
a window of 3,000 one more or fewer full pass moved a result by a fifth. Before the window a
full collection (the matches' own garbage is not the narration's to collect); even so whether
a full pass falls inside the window depends on where the collector's cycle then stands, which
the rest of a process decides: run k of R first allocates (and keeps) k/R of a cycle's worth of
objects, the same in both builds, so the median is over points of the cycle, not one point's
luck. ``--collector off`` times the same with the collector disabled. ``instructions_ab.py --only events`` counts the same
work in instructions (the collector's share barely shows there, nor do cache misses).
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
name, n, options, collector = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3]), sys.argv[4]
ballast = int(sys.argv[5])
below, s, done, games = Random(3).below, 0, 0, []
while done < n:
    g = new_game(name, seed=s, **options); s += 1
    ids = g.legal_action_ids()
    while ids:
        g.apply(ids[below(len(ids))]); ids = g.legal_action_ids()
    games.append(g); done += len(g.action_log())
gc.collect()            # the matches' own garbage is not the narration's to collect
# The rest of a process: objects it keeps, allocated before the window. How many sets where
# the collector's cycle stands when the window starts (a full pass is due every ~85,000
# net allocations), so that runs with different ballast average over where it falls.
kept = [[] for _ in range(ballast)]
passes = [0, 0, 0]
gc.callbacks.append(lambda phase, info: phase == "start" and passes.__setitem__(
    info["generation"], passes[info["generation"]] + 1))
if collector == "off":
    gc.disable()
clock = time.process_time
start = clock()
for g in games:
    g._narrate()                     # the replay that tells the events
told = clock()
for g in games:
    g.events()                       # rendered, with the words made
first = clock()
for g in games:
    g.events()                       # rendered again, the words kept
again = clock()
per = 1e6 / done
print(json.dumps({"us": (first - start) * per, "replay": (told - start) * per,
                  "render_words": (first - told) * per, "render": (again - first) * per,
                  "passes": passes}))
'''


# Net allocations between two full passes of the collector with its default thresholds
# (700 per young pass, 10 young per middle, 10 middle per full): 11 * 11 * 700.
CYCLE = 84_700


def short_match(path: str, name: str) -> str:
    """``name``'s short match options in build ``path`` (both builds play them)."""
    code = ("import json, sys, cardcore; g = cardcore.new_game(sys.argv[1]); "
            "print(json.dumps(dict(type(g).short_match.options)))")
    return subprocess.run([sys.executable, "-c", code, name], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": path}, check=True).stdout.strip()


def run(path: str, name: str, n: int, options: str, collector: str, ballast: int
        ) -> dict[str, object]:
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": path}
    out = subprocess.run([sys.executable, "-c", WORK, name, str(n), options, collector,
                          str(ballast)],
                         capture_output=True, text=True, env=env, check=True)
    result: dict[str, object] = json.loads(out.stdout)
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", required=True, help="PYTHONPATH of build A")
    ap.add_argument("--b", default="src", help="PYTHONPATH of build B")
    ap.add_argument("--games", default="crazy_eights,kings_stakes,kuzanasta,manna")
    ap.add_argument("--actions", type=int, default=20000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--collector", choices=("on", "off"), default="on")
    args = ap.parse_args()
    for name in args.games.split(","):
        options = short_match(args.b, name)
        times: dict[str, list[float]] = {"A": [], "B": []}
        for k in range(args.runs):
            ballast = CYCLE * k // args.runs      # each run starts at its own point of the
            for label, path in (("A", args.a), ("B", args.b)):   # cycle; alternating slices
                got = run(path, name, args.actions, options, args.collector, ballast)
                times[label].append(float(got["us"]))  # type: ignore[arg-type]
                print(f"{name:13s} run {k} {label} (ballast {ballast}): "
                      f"{got['us']:7.1f} µs/action (replay "
                      f"{got['replay']:.1f}, render and words {got['render_words']:.1f}; "
                      f"render alone {got['render']:.1f}), collector passes by generation "
                      f"{got['passes']}", flush=True)
        a, b = statistics.median(times["A"]), statistics.median(times["B"])
        print(f"{name:13s} median A {a:.1f}  B {b:.1f}  B/A {b / a:.3f}", flush=True)


if __name__ == "__main__":
    main()
