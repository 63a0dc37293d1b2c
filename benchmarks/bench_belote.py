"""Belote Contrée against colver 0.11.1: the same game with the same rules (the move-by-move
differential test, tests/games/belote/test_belote_colver.py), full deals of random play per
second and actions per second, one thread each, measured side by side in one run.

    python benchmarks/bench_belote.py [--quick] [--slices N] [--seconds S]

colver's fastest random play from Python is ``Env.rollout(n)``: n uniformly random full deals
(auction and play) from one dealt position, in Rust, returning the mean scores. cardcore's is
``GameState.run_random``: a clone of the dealt position (``copy_from``) played to the end in C,
one Python call per deal. Both play the same dealt positions: each slice deals a seeded colver
deal (``Env.deal(dealer, seed)``) and gives cardcore the same hands (``deck_for_hands``).

colver reports deals, not actions: its actions are counted as deals x its mean actions per
random deal, measured by playing random deals of the same positions through colver's Python
API (``legal_actions`` / ``step``, uniform choices); that loop's mean scores are checked
against ``rollout``'s (within 5 standard errors), so the two are the same random play.
cardcore counts its actions exactly (``run_random`` returns them).

The contenders run in alternating slices of ``--seconds`` each, timed in process CPU time
(``time.process_time``): the machine is shared, and a slice's wall time counts the other
processes' turns; both contenders are single-threaded and in this process. The wall-clock
ratio is printed too. Goal: actions per second >= 1.5x colver's.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

import colver

from cardcore import new_game
from cardcore.cards import card_str
from cardcore.games.belote._state import deck_for_hands, to_card_id

GOAL = 1.5


def position(seed: int):
    """A seeded colver deal and the cardcore state of the same hands and dealer."""
    env = colver.Env.deal(dealer=seed % 4, seed=seed)
    hands = env.get_hands()
    deck = deck_for_hands(env.get_dealer(), [[to_card_id(c) for c in h] for h in hands])
    game = new_game("belote", seed=seed, dealer=env.get_dealer(),
                    deck=[card_str(c) for c in deck])
    return env, game._state


def colver_actions_per_deal(seed: int, deals: int) -> tuple[float, list[float], list[float]]:
    """Mean actions of a uniformly random deal of position ``seed`` through colver's Python
    API, and the per-deal scores (NS, EW) of those deals."""
    rng = random.Random(seed)
    actions = 0
    ns: list[float] = []
    ew: list[float] = []
    for _ in range(deals):
        env = colver.Env.deal(dealer=seed % 4, seed=seed)
        while not env.is_terminal():
            legal = env.legal_actions()
            env.step(legal[rng.randrange(len(legal))])
            actions += 1
        r = env.rewards()
        ns.append(r[0])
        ew.append(r[1])
    return actions / deals, ns, ew


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="8 slices of 1 s each")
    parser.add_argument("--slices", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--check-deals", type=int, default=4000,
                        help="random deals per position for colver's mean actions per deal")
    args = parser.parse_args()
    if args.quick:
        args.slices, args.seconds, args.check_deals = 8, 1.0, 2000
    assert colver.__version__ == "0.11.1", colver.__version__

    cpu = {"cardcore": [0.0, 0, 0], "colver": [0.0, 0, 0.0]}    # seconds, deals, actions
    wall = {"cardcore": 0.0, "colver": 0.0}
    rollout_means: list[tuple[int, int, list[float]]] = []
    chunk = 20_000
    for k in range(args.slices):
        seed = 1000 + k
        env, base = position(seed)
        # cardcore: copy the dealt position, play it to the end in C, one call a deal
        work = base.clone()
        copy, run = work.copy_from, work.run_random     # bound once: the loop is the overhead
        deals = actions = 0
        started, wall_started = time.process_time(), time.perf_counter()
        while time.process_time() - started < args.seconds:
            for i in range(deals, deals + 1000):
                copy(base)
                actions += run(i)
            deals += 1000
        cpu["cardcore"][0] += time.process_time() - started
        wall["cardcore"] += time.perf_counter() - wall_started
        cpu["cardcore"][1] += deals
        cpu["cardcore"][2] += actions
        # colver: rollout(n) from the same position, in chunks
        deals = 0
        sums = [0.0, 0.0]
        started, wall_started = time.process_time(), time.perf_counter()
        while time.process_time() - started < args.seconds:
            mean = env.rollout(chunk)
            sums[0] += mean[0] * chunk
            sums[1] += mean[1] * chunk
            deals += chunk
        cpu["colver"][0] += time.process_time() - started
        wall["colver"] += time.perf_counter() - wall_started
        cpu["colver"][1] += deals
        rollout_means.append((seed, deals, [sums[0] / deals, sums[1] / deals]))

    # colver's actions per deal, position by position, and the check against rollout's scores
    colver_actions = 0.0
    worst = 0.0
    for seed, deals, means in rollout_means:
        per_deal, ns, ew = colver_actions_per_deal(seed, args.check_deals)
        colver_actions += deals * per_deal
        for got, xs in zip(means, (ns, ew)):
            error = statistics.pstdev(xs) / len(xs) ** 0.5 or 1.0
            worst = max(worst, abs(got - statistics.fmean(xs)) / error)
    cpu["colver"][2] = colver_actions
    assert worst < 5.0, f"rollout's scores differ from uniform random play ({worst:.1f} SE)"

    rows = []
    for name in ("cardcore", "colver"):
        seconds, deals, actions = cpu[name]
        rows.append((name, deals / seconds, actions / seconds, actions / deals,
                     deals / wall[name]))
    (_, c_deals, c_actions, c_per, c_wall), (_, o_deals, o_actions, o_per, o_wall) = rows
    print(f"{args.slices} alternating slices of {args.seconds:g} s CPU each; positions "
          f"Env.deal(seed % 4, seed), seeds 1000..{1000 + args.slices - 1}")
    print(f"{'':10} {'deals/s':>12} {'actions/s':>14} {'actions/deal':>13} {'deals/s (wall)':>15}")
    for name, deals_s, actions_s, per, wall_s in rows:
        print(f"{name:10} {deals_s:12,.0f} {actions_s:14,.0f} {per:13.2f} {wall_s:15,.0f}")
    print(f"ratio cardcore : colver   deals/s {c_deals / o_deals:.2f}x   actions/s "
          f"{c_actions / o_actions:.2f}x (goal >= {GOAL}x: "
          f"{'met' if c_actions / o_actions >= GOAL else 'missed'})   wall deals/s "
          f"{c_wall / o_wall:.2f}x")
    print(f"colver's rollout scores vs its uniform random Python loop: at most {worst:.1f} "
          f"standard errors apart")


if __name__ == "__main__":
    main()
