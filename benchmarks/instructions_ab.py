"""Instructions per operation of two builds, counted by valgrind (cachegrind): an A/B that the
load of a shared machine cannot blur. Wall-clock slices here vary by ±5-20% between runs;
instruction counts of the same seeded work repeat to the instruction.

    python benchmarks/instructions_ab.py --a /path/to/main/src --b src [--only vector,apply]

Each workload runs in a fresh interpreter under ``valgrind --tool=cachegrind --cache-sim=no``
twice, with N operations and with none (imports, setup and one-time caches cancel; for
``events``, games of N actions or more played both times, narrated once), with
PYTHONHASHSEED=0 and one BLAS thread; the figure is the difference divided by N. ``--a`` and
``--b`` are put first on PYTHONPATH ("" for the installed cardcore). Needs valgrind.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys

WORK = r'''
import json, sys
import numpy as np
from cardcore import VectorGame, new_game
from cardcore._fast import Random
from cardcore.bots import ISMCTSBot
what, name, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
game = new_game(name, seed=5)
r = Random(1)
for _ in range(40):
    ids = game.legal_action_ids(); game.apply(ids[r.below(len(ids))])
seat = game.current_player
out = np.empty(game.observation_shape, np.float32)
if what == "vector":                       # per game-step: random_actions + step + legal_mask
    vg = VectorGame(name, 256, seed=1); mask = vg.legal_mask()
    for _ in range(n // 256):
        vg.step(vg.random_actions()); vg.legal_mask(mask)
elif what == "opponents":                  # per learner step: 2 players, in-core greedy
    vg = VectorGame(name, 256, seed=1, players=6 if name == "manna" else 2, opponents="greedy")
    mask = vg.legal_mask()
    for _ in range(n // 256):
        vg.step(vg.random_actions()); vg.legal_mask(mask)
elif what == "apply":                      # per action: the Python fast path, whole games
    below, s, done = Random(3).below, 0, 0
    while done < n:
        g = new_game(name, seed=s); s += 1
        ids_of, apply = g.legal_action_ids, g.apply
        ids = ids_of()
        while ids and done < n:
            apply(ids[below(len(ids))]); done += 1; ids = ids_of()
elif what == "legal":                      # per action: legal_actions() then apply, whole games
    below, s, done = Random(3).below, 0, 0
    while done < n:
        g = new_game(name, seed=s); s += 1
        acts = g.legal_actions()
        while acts and done < n:
            g.apply(acts[below(len(acts))].id); done += 1; acts = g.legal_actions()
elif what == "events":                     # per action: events() of whole played games
    below, s, done, games = Random(3).below, 0, 0, []
    opts = json.loads(sys.argv[5])             # build B's short match (0.3 had none)
    while done < n:                          # the games are played before the count (n=0
        g = new_game(name, seed=s, **opts); s += 1         # plays them too: they cancel)
        ids = g.legal_action_ids()
        while ids:
            g.apply(ids[below(len(ids))]); ids = g.legal_action_ids()
        games.append(g); done += len(g.action_log())
    print("ops", done)
    if int(sys.argv[4]):
        for g in games: g.events()
elif what == "random":                     # per action: whole random games in the core
    s, done = 0, 0                            # (simulate's loop: the deal outside the count)
    while done < n:
        g = new_game(name, seed=s); s += 1
        done += g._state.run_random(s)
    print("ops", done)
elif what == "observe":
    for _ in range(n): game.observation_tensor(seat, out)
elif what == "returns":
    for _ in range(n): game.returns()
elif what == "sample":
    for i in range(n): game.sample_hidden(seat, i)
elif what == "view":
    for _ in range(n): game.view(seat)
elif what == "ismcts":                     # per 200-iteration decision
    while len(game.legal_action_ids()) < 2: game.apply(game.legal_action_ids()[0])
    for k in range(n): ISMCTSBot(iterations=200, seed=k).choose_id(game)
'''
WORKLOADS = {"events": 1500, "legal": 3000, "vector": 256 * 400, "opponents": 256 * 200, "apply": 20000, "random": 200000, "observe": 20000, "returns": 20000,
             "sample": 2000, "view": 2000, "ismcts": 5}


def registered_games(path: str) -> list[str]:
    """The games build ``path`` registers (its registry, not a list kept here)."""
    env = {**os.environ, "PYTHONPATH": path} if path else {
        k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run([sys.executable, "-c", "import cardcore; "
                          "print(' '.join(cardcore.available_games()))"],
                         capture_output=True, text=True, env=env, check=True)
    return out.stdout.split()


def short_match(path: str, name: str) -> str:
    """The options of ``name``'s short match in build ``path``, as JSON (the events workload
    plays them in both builds: a build before 0.4 declares none)."""
    env = {**os.environ, "PYTHONPATH": path} if path else {
        k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    code = ("import json, sys, cardcore; g = cardcore.new_game(sys.argv[1]); "
            "print(json.dumps(dict(type(g).short_match.options)))")
    out = subprocess.run([sys.executable, "-c", code, name], capture_output=True, text=True,
                         env=env, check=True)
    return out.stdout.strip()


def instructions(path: str, what: str, name: str, n: int, run: int = 1,
                 options: str = "{}") -> tuple[int, int]:
    """Instructions of the workload, and its count of operations (``n``, or for the events
    workloads the actions of the games played; ``run=0``: play them, narrate nothing)."""
    env = {**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1"}
    env.pop("PYTHONPATH", None)
    if path:
        env["PYTHONPATH"] = path
    out = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no",
                          "--cachegrind-out-file=/dev/null", sys.executable, "-c", WORK, what,
                          name, str(n), str(run), options], capture_output=True, text=True, env=env,
                         check=True)
    ops = re.search(r"^ops (\d+)$", out.stdout, re.M)
    return (int(re.search(r"I\s+refs:\s+([\d,]+)", out.stderr).group(1).replace(",", "")),
            int(ops.group(1)) if ops else n)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", default="", help="PYTHONPATH of build A ('' = installed)")
    ap.add_argument("--b", default="src", help="PYTHONPATH of build B")
    ap.add_argument("--only", default=",".join(WORKLOADS), help="workloads, comma-separated")
    ap.add_argument("--games", default="", help="games, comma-separated (default: build B's)")
    args = ap.parse_args()
    games = args.games.split(",") if args.games else registered_games(args.b)
    print(f"{'workload':10s} {'game':13s} {'A':>12s} {'B':>12s} {'B/A':>7s}  instructions per op")
    for what in args.only.split(","):
        n = WORKLOADS[what]
        events = what == "events"
        for name in games:
            per = []
            options = short_match(args.b, name) if events else "{}"
            for p in (args.a, args.b):
                (full, ops), (base, _) = (instructions(p, what, name, n, 1, options),
                                          instructions(p, what, name, n if events else 0, 0,
                                                       options))
                per.append((full - base) / ops)
            print(f"{what:10s} {name:13s} {per[0]:12,.0f} {per[1]:12,.0f} {per[1] / per[0]:7.3f}")


if __name__ == "__main__":
    main()
