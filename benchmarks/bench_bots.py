"""Bots for products (issue 22): in-core bot speed, think budgets and hint latency.

    python benchmarks/bench_bots.py                 # everything, a few seconds per game
    python benchmarks/bench_bots.py --only speed --seconds 3

* **speed**: ``simulate(GAME, bots=("greedy", "random"))`` games/s as a ratio to all-random
  in-core play of the same game, in alternating slices of the same run (so the figure does
  not depend on the machine's speed). A game that had 0.2's Python GreedyBot declares that
  ratio and the aimed speed-up in ``benchmark_targets`` (``bots_ratio_0_2``,
  ``bots_goal_factor``).
* **budget**: ``ISMCTSBot(think_ms=B)`` decisions timed for several budgets; the goal is every
  decision within B * 1.10 + 5 ms on an idle machine.
* **hint**: ``make_bot("level:5").suggest(game)`` latency, against level 5's own budget.
"""
from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

import cardcore
from cardcore import new_game, simulate
from cardcore.bots import ISMCTSBot, make_bot, parse_bot_spec
from cardcore.registry import game_class

BUDGETS_MS = (10, 50, 200)


def rate(name: str, bots: tuple[str, ...], seconds: float, seed: int) -> float:
    """Games per second of one ``simulate`` call of about ``seconds`` (sized by a short
    probe, so that the call's fixed cost does not count)."""
    probe = 20
    while True:
        started = time.perf_counter()
        simulate(name, probe, bots=bots, seed=seed)
        took = time.perf_counter() - started
        if took > 0.05 or probe >= 1_000_000:
            break
        probe *= 4
    games = max(probe, int(probe * seconds / took))
    started = time.perf_counter()
    simulate(name, games, bots=bots, seed=seed + 1)
    return games / (time.perf_counter() - started)


def speed(name: str, seconds: float, slices: int = 4) -> dict[str, Any]:
    """greedy-vs-random and all-random games/s in alternating slices; their ratio."""
    greedy, random_ = [], []
    for k in range(slices):
        greedy.append(rate(name, ("greedy", "random"), seconds / slices, 1000 * k))
        random_.append(rate(name, ("random",), seconds / slices, 1000 * k))
    g, r = statistics.median(greedy), statistics.median(random_)
    out: dict[str, Any] = {"game": name, "greedy_random_per_s": round(g), "random_per_s": round(r),
                           "ratio": round(g / r, 4)}
    targets = game_class(name).benchmark_targets      # declared by the game, if at all
    if "bots_ratio_0_2" in targets:
        out["ratio_0_2"] = targets["bots_ratio_0_2"]
        out["speedup_vs_0_2"] = round(g / r / targets["bots_ratio_0_2"], 1)
        out["goal"] = targets.get("bots_goal_factor")
    return out


def position(name: str, seed: int = 4) -> Any:
    game = new_game(name, seed=seed)
    while len(game.legal_action_ids()) < 2:
        game.apply(game.legal_action_ids()[0])
    return game


def budget(name: str, repeats: int = 5) -> dict[str, Any]:
    """Elapsed ms of think_ms decisions: the worst and the median per budget."""
    game = position(name)
    rows = {}
    for ms in BUDGETS_MS:
        times = []
        for k in range(repeats):
            bot = ISMCTSBot(think_ms=ms, seed=k)
            started = time.perf_counter()
            bot.choose_id(game)
            times.append((time.perf_counter() - started) * 1000)
        rows[str(ms)] = {"median_ms": round(statistics.median(times), 2),
                         "max_ms": round(max(times), 2), "limit_ms": round(ms * 1.1 + 5, 1),
                         "within": max(times) <= ms * 1.1 + 5}
    return {"game": name, "budgets": rows}


def hint(name: str, repeats: int = 3) -> dict[str, Any]:
    """level:5's suggest latency against its think budget."""
    game = position(name)
    spec = parse_bot_spec(game_class(name).levels[5])
    limit = dict(spec.params).get("think_ms")
    times = []
    for k in range(repeats):
        bot = make_bot("level:5", k)
        started = time.perf_counter()
        bot.suggest(game, top=3)
        times.append((time.perf_counter() - started) * 1000)
    return {"game": name, "level_5": str(spec), "max_ms": round(max(times), 1),
            "think_ms": limit, "within": limit is None or max(times) <= limit * 1.1 + 5}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", choices=("speed", "budget", "hint"), default=None)
    parser.add_argument("--game", default=None)
    parser.add_argument("--seconds", type=float, default=4.0)
    args = parser.parse_args()
    games = [args.game] if args.game else list(cardcore.available_games())
    for name in games:
        if args.only in (None, "speed"):
            print(json.dumps(speed(name, args.seconds)), flush=True)
        if args.only in (None, "budget"):
            print(json.dumps(budget(name)), flush=True)
        if args.only in (None, "hint"):
            print(json.dumps(hint(name)), flush=True)


if __name__ == "__main__":
    main()
