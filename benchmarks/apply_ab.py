"""Same-process A/B of the fast path (issue 8): the 0.1 ``apply`` (two attribute lookups, no
thread guard) against the instance fast ``apply`` of 0.2 (locals, plus the token that makes a
state change and its log entry one step). CPU time, interleaved runs: machine noise cancels.

    python benchmarks/apply_ab.py
"""
import statistics
import time
import types

import cardcore
from cardcore._fast import Random

def old_apply(self, action):
    if type(action) is int:
        action_id = action
    else:
        action_id = self._resolve(action)
    self._state.apply(action_id)
    self._log.append(action_id)

def loop(game, games, old):
    below = Random(0).below
    actions = 0
    t = 0.0
    for s in range(games):
        g = cardcore.new_game(game, seed=s)
        if old:
            g.__dict__["apply"] = types.MethodType(old_apply, g)
        ids_of, apply = g.legal_action_ids, g.apply
        t0 = time.process_time()
        ids = ids_of()
        while ids:
            apply(ids[below(len(ids))])
            actions += 1
            ids = ids_of()
        t += time.process_time() - t0
    return t / actions * 1e6

# Whole games per timed run: enough for about as many actions in every game (the
# game's length, from a first random playout, sets the count).
ACTIONS_PER_RUN = 15000


def games_per_run(game):
    g, below = cardcore.new_game(game, seed=0), Random(0).below
    ids = g.legal_action_ids()
    while ids:
        g.apply(ids[below(len(ids))])
        ids = g.legal_action_ids()
    return max(1, ACTIONS_PER_RUN // max(1, len(g.action_log())))


for game in cardcore.available_games():
    n = games_per_run(game)
    res = {True: [], False: []}
    for r in range(20):
        for old in ((True, False) if r % 2 else (False, True)):
            res[old].append(loop(game, n, old))
    o, w = min(res[True]), min(res[False])
    mo, mw = statistics.median(res[True]), statistics.median(res[False])
    print(f"{game}: µs per action, min: 0.1 {o:.3f} / 0.2 {w:.3f} (x{w/o:.3f}); median: {mo:.3f} / {mw:.3f} (x{mw/mo:.3f})")
