"""Calibrate the difficulty levels (issue 22): ``make_bot("level:N")`` for N = 1..5 per game.

    python benchmarks/calibrate_levels.py                  # every game, then its levels.md
    python benchmarks/calibrate_levels.py --game kings_stakes --games 200 --no-write

Two-seat games: one ``cardcore tournament`` of the five levels (every level in every seat, the
same deals for every seating), ratings on the Elo scale with their 95% intervals (the
tournament's Bradley-Terry fit). Partnership games (a side of several seats, e.g. Manna's
teams of three): a level plays a whole side against the level below, the sides swapped
halfway on the same seeds, and the Elo gap of neighbours is 400·log10(p / (1 - p)) from the
win share p with its 95% Wilson interval; the ladder's ratings chain these gaps from level 1
at 1000. The goal (checked and printed): ratings rise with N, neighbours at least 100 Elo
apart and their 95% intervals apart.

Think time: the mean and the 95th percentile of a decision's wall time at each level, over
the decisions of a few seeded games (every seat that level).

Each game is calibrated on its short match (``Game.short_match``: the players, the options,
what one game is and how many games a calibration plays), and its table is written into its
package, ``src/cardcore/games/<game>/levels.md``, which docs/bots.md shows (``--no-write``
prints only). Nothing here names a game.
"""
from __future__ import annotations

import argparse
import json
import math
import inspect
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import cardcore
from cardcore import new_game, simulate
from cardcore.bots import make_bot
from cardcore.registry import game_class
from cardcore.tournament import tournament, wilson_interval

LEVELS_FILE = "levels.md"            # in each game's package; docs/hooks.py shows them
LEVELS = (1, 2, 3, 4, 5)


def elo(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return 400 * math.log10(p / (1 - p))


def case(name: str) -> tuple[int, dict[str, Any]]:
    """The players and options of the game's short match."""
    short = game_class(name).short_match
    return short.players, dict(short.options)


def ladder_by_tournament(name: str, games: int, seed: int) -> list[dict[str, Any]]:
    players, options = case(name)
    bots = ",".join(f"level:{n}" for n in LEVELS)
    result = tournament(name, games, bots=bots, players=players, seed=seed, **options)
    by_bot = {s["bot"]: s for s in result["standings"]}
    return [{"level": n, "rating": by_bot[f"level:{n}"]["rating"],
             "interval": list(by_bot[f"level:{n}"]["rating_ci"]),
             "win_rate": by_bot[f"level:{n}"]["win_rate"]} for n in LEVELS]


def side_match(name: str, games: int, strong: str, weak: str, seed: int) -> tuple[float, int]:
    """The win share of ``strong`` playing every other seat (a side) against ``weak``."""
    players, options = case(name)
    won = played = 0.0
    for k, bots in enumerate(((strong, weak), (weak, strong))):
        s = simulate(name, games // 2, players=players, bots=bots, seed=seed + k, **options)
        won += s["wins"][k]
        played += s["games"]
    return won / played, int(played)


def ladder_by_sides(name: str, games: int, seed: int) -> list[dict[str, Any]]:
    rows = [{"level": 1, "rating": 1000.0, "interval": [1000.0, 1000.0], "win_rate": None}]
    for n in LEVELS[1:]:
        p, played = side_match(name, games, f"level:{n}", f"level:{n - 1}", seed + 10 * n)
        lo, hi = wilson_interval(round(p * played), played)
        base = rows[-1]["rating"]
        rows.append({"level": n, "rating": base + elo(p), "gap_interval": [elo(lo), elo(hi)],
                     "interval": [base + elo(lo), base + elo(hi)], "win_rate": p,
                     "versus_below": played})
    return rows


def think_times(name: str, games: int = 2) -> dict[int, tuple[float, float]]:
    """Per level: (mean, p95) of a decision's milliseconds."""
    players, options = case(name)
    out = {}
    for n in LEVELS:
        times: list[float] = []
        for g in range(games):
            game = new_game(name, players=players, seed=500 + g, **options)
            bots = [make_bot(f"level:{n}", 10 * g + k) for k in range(game.num_players)]
            moves = 0
            while not game.is_over and moves < 300:
                started = time.perf_counter()
                action = bots[game.current_player].choose_id(game)
                times.append((time.perf_counter() - started) * 1000)
                game.apply(action)
                moves += 1
        times.sort()
        out[n] = (statistics.fmean(times), times[int(0.95 * (len(times) - 1))])
    return out


def check(rows: list[dict[str, Any]]) -> list[str]:
    problems = []
    for below, above in zip(rows, rows[1:]):
        gap = above["rating"] - below["rating"]
        if gap < 100:
            problems.append(f"level {above['level']} is only {gap:.0f} Elo above {below['level']}")
        if "gap_interval" in above and above["gap_interval"][0] <= 0:
            problems.append(f"level {above['level']}'s gap interval reaches 0")
        if above["interval"][0] <= below["interval"][1]:
            problems.append(f"levels {below['level']} and {above['level']}: intervals overlap")
    return problems


def table(name: str, rows: list[dict[str, Any]], times: dict[int, tuple[float, float]],
          problems: list[str], games: int) -> str:
    cls = game_class(name)
    unit = cls.short_match.what
    lines = [f"<!-- {cls.title}'s calibrated levels: written by benchmarks/calibrate_levels.py "
             "(docs/bots.md shows it) -->", "",
             f"{unit}; {games} per {'tournament' if 'gap_interval' not in rows[-1] else 'pair of neighbours'}.", "",
             "| level | bot | rating (Elo) | 95% interval | think ms (mean / p95) |",
             "|---|---|---|---|---|"]
    for row in rows:
        mean, p95 = times[row["level"]]
        lines.append(f"| {row['level']} | `{cls.levels[row['level']]}` | {row['rating']:.0f} | "
                     f"{row['interval'][0]:.0f} – {row['interval'][1]:.0f} | "
                     f"{mean:.2f} / {p95:.2f} |")
    lines.append("")
    lines.append("Goal met: ratings rise with the level, neighbours >= 100 Elo apart with "
                 "separate intervals." if not problems else "Goal **not** met: " + "; ".join(problems) + ".")
    lines.append("")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", action="append", default=None)
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    names = args.game or list(cardcore.available_games())
    sections = {}
    failed = False
    for name in names:
        players, _ = case(name)
        games = args.games or game_class(name).short_match.calibration_games
        started = time.perf_counter()
        sides = len(set(game_class(name).sides_of(players, new_game(name, players=players).options)))
        rows = (ladder_by_sides if sides < players else ladder_by_tournament)(name, games, args.seed)
        times = think_times(name)
        problems = check(rows)
        failed |= bool(problems)
        sections[name] = table(name, rows, times, problems, games)
        print(sections[name], flush=True)
        print(json.dumps({"game": name, "rows": rows, "seconds": round(time.perf_counter() - started)}),
              file=sys.stderr, flush=True)
    if not args.no_write:
        for name, section in sections.items():
            Path(inspect.getfile(game_class(name))).with_name(LEVELS_FILE).write_text(
                section, encoding="utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
