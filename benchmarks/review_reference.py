"""The review's reference against the levels (issue 47, item 3): does the default reference
(``cardcore.review.reference_spec``: the game's ``review_reference``, ``DEFAULT_SEARCHES``
searches per decision, the move they visited most in all played) beat every level?

    python benchmarks/review_reference.py --game durak --games 200 --levels 5
    python benchmarks/review_reference.py --game crazy_eights --games 40 --levels 1,2,3,4

Each game is the game's short match (``Game.short_match``). The reference plays one side
(every seat of a partnership), the level the others; game ``i`` is dealt from seed
``seed + i // 2`` and the sides swap between the two games of a seed, so both sit on the
same deals. A level plays without its ``think_ms`` cap (its iterations only, as on an idle
machine): on a loaded one a capped level runs a fraction of its iterations, which would
flatter the reference. The score counts a win 1 and a draw (no sole winning side) 1/2; the
interval is the 95% Wilson interval of the score over the games. CPU seconds are this
process's; ``cpu_s_a_decision`` is the reference's alone, over its decisions with more than
one legal move (the load average at the end says how busy the machine was). Nothing here
names a game.
"""
from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any

from cardcore import new_game
from cardcore.bots import BotSpec, make_bot, parse_bot_spec
from cardcore.registry import game_class
from cardcore.review import ReferenceBot, reference_spec, DEFAULT_SEARCHES
from cardcore.simulation import bot_seed
from cardcore.tournament import wilson_interval


def uncapped(name: str, level: int) -> BotSpec:
    """The level's bot spec without its time cap."""
    spec = parse_bot_spec(game_class(name).levels[level])
    return BotSpec(spec.name, tuple((k, v) for k, v in spec.params if k != "think_ms"))


def match(name: str, level: int, games: int, seed: int, reference: str | None = None,
          searches: int = DEFAULT_SEARCHES) -> dict[str, Any]:
    cls = game_class(name)
    short = cls.short_match
    probe = new_game(name, players=short.players, seed=seed, **short.options)
    sides = cls.sides_of(short.players, probe.options)
    opponent = uncapped(name, level)
    wins = draws = decisions = 0
    ref_cpu = 0.0
    start = time.process_time()
    for i in range(games):
        game = new_game(name, players=short.players, seed=seed + i // 2, **short.options)
        ours = sides[i % 2]          # the reference's side: seat 0's, then seat 1's
        bots = [ReferenceBot(name, reference, searches, seed=bot_seed(seed, i, s))
                if sides[s] == ours
                else make_bot(opponent, bot_seed(seed, i, s))
                for s in range(short.players)]
        while not game.is_over:
            seat = game.current_player
            assert seat is not None              # the game is not over
            bot = bots[seat]
            if isinstance(bot, ReferenceBot) and len(game.legal_action_ids()) > 1:
                t = time.process_time()
                game.apply(bot.choose_id(game))
                ref_cpu += time.process_time() - t
                decisions += 1
            else:
                game.apply(bot.choose_id(game))
        won = {sides[s] for s in game.winners}
        if won == {ours}:
            wins += 1
        elif ours in won or not won:
            draws += 1
        if (i + 1) % 10 == 0:
            print(f"# {i + 1} games: {wins} wins, {draws} draws", flush=True)
    score = wins + draws / 2
    low, high = wilson_interval(round(score), games)
    return {"game": name, "level": level, "games": games, "wins": wins, "draws": draws,
            "losses": games - wins - draws, "score": score / games, "interval": [low, high],
            "cpu_s": round(time.process_time() - start, 1), "decisions": decisions,
            "cpu_s_a_decision": round(ref_cpu / max(decisions, 1), 4),
            "load": [round(x, 2) for x in os.getloadavg()]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", required=True)
    ap.add_argument("--games", type=int, default=100, help="games per level (even)")
    ap.add_argument("--levels", default="5", help="comma-separated levels (default 5)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--reference", default=None, help="another reference (reference_spec)")
    ap.add_argument("--searches", type=int, default=DEFAULT_SEARCHES)
    args = ap.parse_args()
    print(f"# {args.game}: reference {reference_spec(args.game, args.reference)} "
          f"x{args.searches} searches", flush=True)
    for level in (int(x) for x in args.levels.split(",")):
        row = match(args.game, level, args.games, args.seed, args.reference, args.searches)
        print(json.dumps(row), flush=True)
        print(f"| {args.game} | level {level} | {row['games']} | {row['score']:.3f} "
              f"[{row['interval'][0]:.3f}, {row['interval'][1]:.3f}] | {row['wins']}-"
              f"{row['draws']}-{row['losses']} | {row['cpu_s_a_decision']} |", flush=True)


if __name__ == "__main__":
    main()
