"""How strong ISMCTSBot is (issue 11, "Strength"): a script, not a timed test.

    python benchmarks/bench_strength.py --games 100                # every game's goal
    python benchmarks/bench_strength.py --games 40 --only kuzanasta --bot ismcts:rollout=random
    python benchmarks/bench_strength.py --openspiel 40 --openspiel-iterations 100

Goals, each ISMCTS(1000) against GreedyBot, reported with its 95% Wilson interval:

* 2-player Kings' Stakes matches: ISMCTS wins >= 60%;
* 2-player Kuzanasta deals (a match of ``deals=1``: one scored deal; a void deal is dealt
  again, KZ-7.5): >= 60%;
* Manna hands, a team of ISMCTS bots against a team of greedy bots (``hands=1``: one
  hand decides the match, equal totals a draw, MH-10.7): >= 60% of hands.

Every run is ``cardcore.simulate``: half the games with ISMCTS at the even seats, half at the
odd ones, on the same seeded deals (so luck of the deal cancels out). A shared win (a tie)
counts half.

``--openspiel N`` plays cardcore's ISMCTS against OpenSpiel's Python IS-MCTS
(``open_spiel.python.algorithms.ismcts.ISMCTSBot`` on the adapter's registered game,
``cardcore.envs.openspiel``; random rollouts to the end of the game, observation strings as
information-state keys, resampling through ``resample_from_infostate``) at the same iteration
count, seats alternating, and times the moves of both bots in the same run. pyspiel's C++
ISMCTSBot cannot search a Python game: it needs a C++ resampler (``ResampleFromInfostate``),
which a game written in Python does not reach.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

from cardcore import available_games, simulate
from cardcore.registry import game_class
from cardcore.tournament import wilson_interval

GOAL = 0.60


def case(name: str) -> tuple[int, dict[str, Any], str]:
    """The game's short match (``Game.short_match``): players, options, what one game is."""
    short = game_class(name).short_match
    return short.players, dict(short.options), short.what


def points_of(summary: dict[str, Any], seat: int) -> tuple[int, int]:
    """(sole wins, shared wins) of ``seat``'s side; a side of partners wins together."""
    wins = summary["wins"][seat]
    cls = game_class(summary["game"])
    players, options, _ = case(cls.name)
    if len(set(cls.sides_of(players, cls(players=players, **options).options))) < players:
        return wins, 0                       # a team's win: both partners are winners
    return summary["sole_wins"][seat], wins - summary["sole_wins"][seat]


def versus_greedy(name: str, games: int, bot: str, seed: int, workers: int) -> dict[str, Any]:
    """ISMCTS (``bot``) against GreedyBot over ``games`` games, seats alternating."""
    players, options, unit = case(name)
    won = tied = played = 0
    seconds = 0.0
    for first, seat in (((bot, "greedy"), 0), (("greedy", bot), 1)):
        n = games // 2 if seat == 0 else games - games // 2
        if n == 0:
            continue
        summary = simulate(name, n, players=players, bots=first, seed=seed, workers=workers,
                           **options)
        w, t = points_of(summary, seat)
        won, tied, played = won + w, tied + t, played + n
        seconds += summary["seconds"]
    score = won + tied / 2
    low, high = wilson_interval(score, played)  # type: ignore[arg-type]   # halves for ties
    return {"game": name, "unit": unit, "bot": bot, "games": played, "wins": won, "ties": tied,
            "rate": score / played if played else 0.0, "wilson95": [low, high],
            "goal": GOAL, "ok": low >= GOAL, "point_ok": score / played >= GOAL if played else False,
            "seconds": seconds}


# ------------------------------------------------------------------ OpenSpiel's IS-MCTS
def versus_openspiel(name: str, games: int, iterations: int, seed: int,
                     players: int = 2, **options: Any) -> dict[str, Any]:
    """cardcore's ISMCTSBot against OpenSpiel's Python IS-MCTS, both at ``iterations``,
    seats alternating; CPU seconds per move of each."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    from cardcore.bots import ISMCTSBot
    from cardcore.envs import openspiel

    openspiel.register()
    params = ",".join([f"players={players}"] + [f"{k}={v}" for k, v in options.items()])
    game = pyspiel.load_game(f"cardcore_{name}({params})")
    # OpenSpiel's UCT adds uct_c * sqrt(...) to raw returns; its usual uct_c = 2 is for returns
    # in -1..1: scale it to the game's utility range.
    spread = game.max_utility() - game.min_utility()
    ours_won = theirs_won = tied = 0
    cpu = {"cardcore": 0.0, "openspiel": 0.0}
    moves = {"cardcore": 0, "openspiel": 0}
    for index in range(games):
        rs = np.random.RandomState(seed + index)
        theirs = ismcts.ISMCTSBot(
            game, mcts.RandomRolloutEvaluator(1, rs), uct_c=spread,
            max_simulations=iterations, random_state=rs, use_observation_string=True,
            allow_inconsistent_action_sets=True)
        ours = ISMCTSBot(iterations=iterations, seed=seed + index)
        our_seat = index % 2
        state = game.new_initial_state()
        chance = np.random.default_rng(seed + index // 2)        # the same deal for both seatings
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[chance.integers(len(outcomes))][0])
        while not state.is_terminal():
            if len(state.legal_actions()) < 2:      # a forced move: neither bot searches
                state.apply_action(state.legal_actions()[0])
                continue
            who = "cardcore" if state.current_player() == our_seat else "openspiel"
            started = time.process_time()
            if who == "cardcore":
                action = ours.choose_id(state.cardcore_game)
            else:
                action = theirs.step(state)
            cpu[who] += time.process_time() - started
            moves[who] += 1
            state.apply_action(action)
        winners = state.cardcore_game.winners
        if winners == [our_seat]:
            ours_won += 1
        elif our_seat in winners:
            tied += 1
        else:
            theirs_won += 1
    score = ours_won + tied / 2
    low, high = wilson_interval(score, games)  # type: ignore[arg-type]
    per_move = {k: cpu[k] / max(1, moves[k]) for k in cpu}
    return {"game": name, "players": players, "options": options, "iterations": iterations,
            "games": games, "cardcore_wins": ours_won, "openspiel_wins": theirs_won,
            "ties": tied, "cardcore_rate": score / games if games else 0.0,
            "wilson95": [low, high], "cpu_s_per_move": per_move,
            "speedup": per_move["openspiel"] / per_move["cardcore"] if per_move["cardcore"] else 0.0,
            "openspiel_uct_c": spread}


def time_per_move(name: str, iterations: int, positions: int, seed: int,
                  players: int = 2, **options: Any) -> dict[str, Any]:
    """CPU seconds per move of both searches at ``iterations``, on the same positions (the
    first moves of a game both bots reach by playing it alternately)."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    from cardcore.bots import ISMCTSBot
    from cardcore.envs import openspiel

    openspiel.register()
    params = ",".join([f"players={players}"] + [f"{k}={v}" for k, v in options.items()])
    game = pyspiel.load_game(f"cardcore_{name}({params})")
    spread = game.max_utility() - game.min_utility()
    rs = np.random.RandomState(seed)
    theirs = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(1, rs), uct_c=spread, max_simulations=iterations,
        random_state=rs, use_observation_string=True, allow_inconsistent_action_sets=True)
    ours = ISMCTSBot(iterations=iterations, seed=seed)
    # The same search as OpenSpiel's: uniformly random rollouts to the end of the game.
    plain = ISMCTSBot(iterations=iterations, seed=seed, horizon="match", rollout="random")
    state = game.new_initial_state()
    chance = np.random.default_rng(seed)
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[chance.integers(len(outcomes))][0])
    cpu = {"cardcore": 0.0, "cardcore_match_random": 0.0, "openspiel": 0.0}
    timed = 0
    while timed < positions and not state.is_terminal():
        if len(state.legal_actions()) < 2:       # a forced move: neither bot searches
            state.apply_action(state.legal_actions()[0])
            continue
        started = time.process_time()
        ours.choose_id(state.cardcore_game)
        cpu["cardcore"] += time.process_time() - started
        started = time.process_time()
        plain.choose_id(state.cardcore_game)
        cpu["cardcore_match_random"] += time.process_time() - started
        started = time.process_time()
        action = theirs.step(state)
        cpu["openspiel"] += time.process_time() - started
        state.apply_action(action)
        timed += 1
    per_move = {k: v / max(1, timed) for k, v in cpu.items()}
    return {"game": name, "iterations": iterations, "positions": timed,
            "cpu_s_per_move": per_move,
            "speedup": per_move["openspiel"] / per_move["cardcore"] if per_move["cardcore"] else 0.0,
            "speedup_match_random": per_move["openspiel"] / per_move["cardcore_match_random"]
            if per_move["cardcore_match_random"] else 0.0}


def short_options(name: str) -> dict[str, Any]:
    """The options of the game's own short match (Game.short_match)."""
    return dict(game_class(name).short_match.options)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per goal (default 100)")
    parser.add_argument("--only", default=",".join(available_games()),
                        help="comma-separated games (default: every registered game)")
    parser.add_argument("--bot", default="ismcts:iterations=1000",
                        help="the ISMCTS spec (default ismcts:iterations=1000)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--openspiel", type=int, default=0, metavar="N",
                        help="also N games against OpenSpiel's IS-MCTS (Kings' Stakes, 2 players)")
    parser.add_argument("--openspiel-iterations", type=int, default=100)
    parser.add_argument("--openspiel-game", default="kings_stakes")
    parser.add_argument("--timing-positions", type=int, default=0, metavar="K",
                        help="time both searches at 1000 iterations on K positions per game")
    args = parser.parse_args(argv)
    report: dict[str, Any] = {"load_average": os.getloadavg(), "results": []}
    if args.games > 0:
        for name in [n.strip() for n in args.only.split(",") if n.strip()]:
            result = versus_greedy(name, args.games, args.bot, args.seed, args.workers)
            report["results"].append(result)
            low, high = result["wilson95"]
            print(f"{name:13s} {result['bot']} vs greedy: {result['rate']:.1%} of "
                  f"{result['games']} {result['unit']} (wins {result['wins']}, ties "
                  f"{result['ties']}), 95% CI {low:.1%}..{high:.1%}, goal >= {GOAL:.0%}, "
                  f"{result['seconds']:.0f} s", flush=True)
    if args.openspiel > 0:
        options = short_options(args.openspiel_game)
        result = versus_openspiel(args.openspiel_game, args.openspiel, args.openspiel_iterations,
                                  args.seed, **options)
        report["openspiel"] = result
        low, high = result["wilson95"]
        print(f"vs OpenSpiel IS-MCTS, {args.openspiel_game}, {result['iterations']} iterations: "
              f"cardcore {result['cardcore_rate']:.1%} of {result['games']} "
              f"({result['cardcore_wins']}-{result['openspiel_wins']}-{result['ties']}), "
              f"95% CI {low:.1%}..{high:.1%}; CPU s/move cardcore "
              f"{result['cpu_s_per_move']['cardcore']:.4f}, OpenSpiel "
              f"{result['cpu_s_per_move']['openspiel']:.4f} ({result['speedup']:.0f}x)", flush=True)
    if args.timing_positions > 0:
        report["timing"] = []
        for name in [n.strip() for n in args.only.split(",") if n.strip()]:
            result = time_per_move(name, 1000, args.timing_positions, args.seed,
                                   **short_options(name))
            report["timing"].append(result)
            cpu = result["cpu_s_per_move"]
            print(f"time per move at 1000 iterations, {name}, {result['positions']} positions: "
                  f"cardcore {cpu['cardcore'] * 1e3:.1f} ms (default search; "
                  f"{cpu['cardcore_match_random'] * 1e3:.1f} ms with random rollouts to the end "
                  f"of the game), OpenSpiel {cpu['openspiel'] * 1e3:.0f} ms CPU "
                  f"({result['speedup']:.0f}x; {result['speedup_match_random']:.0f}x)", flush=True)
    report["load_average_after"] = os.getloadavg()
    print(json.dumps(report, indent=1), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
