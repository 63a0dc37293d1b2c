"""A digest of every refusal in many seeded random games, to show that a change kept every
refusal's message and rule the same (issue 45 moved the decision of *why* into the C kernels).

Run it with two builds and compare the output (``--dump FILE`` writes every refusal, one a
line, to diff when a digest differs):

    python benchmarks/refusal_digest.py [games per configuration] [--dump FILE] [--games a,b]

Per configuration (each game's conformance configurations, which hold every value of every
option, and every player count) it plays ``games`` seeded games with a seeded random chooser
and, at every step, records ``state.explain_illegal(id)`` for every id that is not legal (in a
game of more than 1,000 ids, Kuzanasta's, the first 200, every 97th and every 10th of the
last 400: its thousands of named declarations all take one branch).
"""
from __future__ import annotations

import hashlib
import sys
from typing import Any

import numpy as np

from cardcore import new_game

from seeded_digest import CONFIGS   # every game's configurations, as seeded_digest plays them


def refusals(name: str, options: dict[str, Any], games: int, out: Any) -> tuple[int, str]:
    h = hashlib.sha256()
    rng = np.random.default_rng(2024)
    count = 0
    for g in range(games):
        game = new_game(name, seed=500 + g, **options)
        state = game._state
        n = state.num_actions
        ids = [a for a in range(n)
               if n <= 1000 or a < 200 or a % 97 == 0 or (a >= n - 400 and a % 10 == 0)]
        step = 0
        while not game.is_over:
            legal = game.legal_action_ids()
            allowed = set(legal)
            for a in ids:
                if a not in allowed:
                    line = f"{name} {options} g{g} s{step} a{a}: {state.explain_illegal(a)!r}\n"
                    h.update(line.encode())
                    if out is not None:
                        out.write(line)
                    count += 1
            game.apply(legal[int(rng.integers(len(legal)))])
            step += 1
        over = repr(state.explain_illegal(0))       # a finished match's refusal too
        h.update(over.encode())
    return count, h.hexdigest()[:16]


def main() -> None:
    args = sys.argv[1:]
    out = None
    if "--dump" in args:
        k = args.index("--dump")
        out = open(args[k + 1], "w", encoding="utf-8")
        del args[k:k + 2]
    only = None
    if "--games" in args:
        k = args.index("--games")
        only = set(args[k + 1].split(","))
        del args[k:k + 2]
    games = int(args[0]) if args else 20
    total = hashlib.sha256()
    for name, options in CONFIGS:
        if only is not None and name not in only:
            continue
        count, digest = refusals(name, options, games, out)
        total.update(digest.encode())
        print(f"{name:14} {options!s:70} refusals {count:9,}  {digest}", flush=True)
    print("all", total.hexdigest()[:16])
    if out is not None:
        out.close()


if __name__ == "__main__":
    main()
