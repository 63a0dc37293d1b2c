"""Round-robin bot tournaments: ``cardcore.tournament.tournament`` and ``cardcore tournament``.

``tournament(name, 1000, bots="greedy,random,random:seed=3")`` seats the bots in every
*seating*: every arrangement of the bots round the table that uses as many different bots as
there are seats (all of them when there are fewer bots than seats), so every bot sits in every
seat equally often and meets every other bot in every pair of seats. Each seating plays the
same deals, game ``i`` dealt from ``game_seed(seed, i)`` (like duplicate bridge: luck of the
deal falls on every bot alike), the bot at seat ``k`` reseeded with ``bot_seed(seed, i, k)``
(its own ``seed`` parameter in place of ``seed`` if its spec gives one).

Per bot: its win rate over the seats it played (a shared win counts for each winner) with a 95%
Wilson interval, sole wins, the mean and spread of its scores, and a rating on the Elo scale:
every pair of seats held by different bots in a game is one comparison (a winner against a
non-winner is a win, otherwise a draw), and the ratings are the Bradley-Terry maximum-likelihood
fit of all comparisons (order does not matter, unlike sequential Elo updates), 400·log10 units
with mean 1500, with one virtual draw per pair of bots so that a bot that never loses still
gets a finite rating. The 95% intervals come from the fit's Fisher information; they treat the
comparisons of one game as independent, so with more than two seats they are somewhat narrow.

Everything is summed as integers before any float is computed, in bot order, so the result is
bit-for-bit the same whatever the executor, worker count or chunking (see ``cardcore.executors``).
``plot_tournament`` draws it with matplotlib (the ``plot`` extra, cardcore.extras).
"""
from __future__ import annotations

import itertools
import math
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Callable

import numpy as np

from cardcore.bots.base import check_bot
from cardcore.bots import (Bot, adopt_factories, make_bot, parse_bot_spec, parse_bot_specs,
                           shipped_factories)
from cardcore.errors import ConfigError, echo
from cardcore.executors import run_chunks
from cardcore.game import resolve_seed
from cardcore.registry import game_class, new_game
from cardcore.simulation import (bot_seed, check_chunk_size, check_games, check_records,
                                 chunk_place, core_policies, default_chunk_size, game_seed,
                                 play_in_core, refuse_deck, resolve_workers, write_record)

__all__ = ["MAX_SEATINGS", "pairwise_table", "planned_games", "plot_tournament", "seatings",
           "standings_table", "tournament"]

MAX_SEATINGS = 20_000
Z95 = 1.959963984540054              # the standard normal's 97.5th percentile
ELO_SCALE = 400 / math.log(10)       # Elo points per natural-log unit of strength
ELO_MEAN = 1500.0
PRIOR_DRAWS = 1                      # virtual draws between every pair of bots
TIMING = ("seconds", "games_per_second", "workers")


# ------------------------------------------------------------------ seatings
def _count_seatings(bots: int, seats: int) -> int:
    if bots >= seats:
        return math.perm(bots, seats)
    # onto maps from seats to bots (inclusion-exclusion)
    return sum((-1) ** k * math.comb(bots, k) * (bots - k) ** seats for k in range(bots + 1))


def seatings(bots: int, seats: int) -> list[tuple[int, ...]]:
    """Every arrangement of ``bots`` bots (by index) in ``seats`` seats that uses
    ``min(bots, seats)`` different bots, in lexicographic order. The set is symmetric under
    renaming bots and permuting seats, so each bot holds each seat equally often."""
    if bots < 2:
        raise ConfigError("a tournament needs at least two different bots", "bots")
    count = _count_seatings(bots, seats)
    if count > MAX_SEATINGS:
        raise ConfigError(f"{bots} bots in {seats} seats make {count:,} seatings (at most "
                          f"{MAX_SEATINGS:,}); give fewer bots or players", "bots")
    distinct = min(bots, seats)
    if bots >= seats:
        return list(itertools.permutations(range(bots), seats))
    return [s for s in itertools.product(range(bots), repeat=seats) if len(set(s)) == distinct]


# ------------------------------------------------------------------ playing (on the workers)
def _run_chunk(job: tuple[Any, ...]) -> dict[str, Any]:
    """Games [start, stop) of one seating. Top-level so workers can import it."""
    name, players, options, specs, seed, start, stop, *rest = job
    adopt_factories(rest[0] if rest else {})          # the bots register() made
    records, tag = rest[1:3] if len(rest) > 2 else (None, "")
    bots: list[Bot] = [make_bot(spec, 0) for spec in specs]
    streams = [seed if s is None else s for s in (parse_bot_spec(spec).seed for spec in specs)]
    seats = len(specs)
    wins, sole = [0] * seats, [0] * seats
    scores: list[dict[int, int]] = [{} for _ in range(seats)]
    pairs = [(k, m) for k in range(seats) for m in range(k + 1, seats) if specs[k] != specs[m]]
    outcomes = {pair: [0, 0, 0] for pair in pairs}          # k won, m won, drawn
    template = new_game(name, players=players, seed=0, **options)
    core = None if records is not None else core_policies(bots, template)
    if core is not None:
        # Every seat's bot plays inside the core: the same games as the loop below.
        scores_of, winners_of, _, _ = play_in_core(template, core, streams, seed, start, stop)
        won = winners_of.astype(bool)
        for k in range(seats):
            wins[k] = int(won[:, k].sum())
            values, counts = np.unique(scores_of[:, k], return_counts=True)
            scores[k] = {int(v): int(c) for v, c in zip(values, counts)}
        alone = won.sum(axis=1) == 1
        for k in range(seats):
            sole[k] = int((alone & won[:, k]).sum())
        for k, m in pairs:
            k_only = int((won[:, k] & ~won[:, m]).sum())
            m_only = int((won[:, m] & ~won[:, k]).sum())
            outcomes[(k, m)] = [k_only, m_only, (stop - start) - k_only - m_only]
        return {"specs": specs, "games": stop - start, "wins": wins, "sole": sole,
                "scores": scores, "pairs": [[k, m, *outcomes[(k, m)]] for k, m in pairs]}
    for index in range(start, stop):
        game = new_game(name, players=players, seed=game_seed(seed, index), **options)
        for k, bot in enumerate(bots):
            bot.reseed(bot_seed(streams[k], index, k))
        while not game.is_over:
            player = game.current_player
            assert player is not None                       # the game is not over
            game.apply(bots[player].choose_id(game))
        if records is not None:
            write_record(game, records, index, specs, tag)
        winners = set(game.winners)
        for k, score in enumerate(game.scores):
            scores[k][score] = scores[k].get(score, 0) + 1
        for k in winners:
            wins[k] += 1
        if len(winners) == 1:
            sole[next(iter(winners))] += 1
        for pair in pairs:
            k_won, m_won = pair[0] in winners, pair[1] in winners
            outcomes[pair][0 if k_won and not m_won else 1 if m_won and not k_won else 2] += 1
    return {"specs": specs, "games": stop - start, "wins": wins, "sole": sole,
            "scores": scores, "pairs": [[k, m, *outcomes[(k, m)]] for k, m in pairs]}


# ------------------------------------------------------------------ statistics
def wilson_interval(successes: int, trials: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    z2n = Z95 * Z95 / trials
    centre = (p + z2n / 2) / (1 + z2n)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2n / (4 * trials)) / (1 + z2n)
    # rounding must not leave p outside its own interval (p = 0 or 1)
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def bradley_terry(points2: Sequence[Sequence[int]], comparisons: Sequence[Sequence[int]]
                  ) -> tuple[list[float], list[float]]:
    """Maximum-likelihood strengths (natural log scale, mean 0) and their standard errors.
    ``points2[i][j]``: twice the points ``i`` scored against ``j`` (win 2, draw 1);
    ``comparisons[i][j]``: how many times they met. ``PRIOR_DRAWS`` draws are added per pair."""
    import numpy as np

    n = len(points2)
    wins = np.array(points2, dtype=float) / 2
    meets = np.array(comparisons, dtype=float)
    off = ~np.eye(n, dtype=bool)
    wins[off] += PRIOR_DRAWS / 2
    meets[off] += PRIOR_DRAWS

    def loglik(t: Any) -> float:
        d = t[:, None] - t[None, :]
        return float(np.sum(wins[off] * -np.logaddexp(0.0, -d)[off]))

    theta = np.zeros(n)
    for _ in range(200):                                    # Newton with step halving
        prob = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))   # P(i beats j)
        grad = (wins - meets * prob).sum(axis=1, where=off)
        weight = np.where(off, meets * prob * prob.T, 0.0)
        laplacian = np.diag(weight.sum(axis=1)) - weight
        step = np.linalg.pinv(laplacian) @ grad
        before, scale = loglik(theta), 1.0
        while scale > 1e-6 and loglik(theta + scale * step) < before:
            scale /= 2
        theta = theta + scale * step
        theta -= theta.mean()
        if float(np.max(np.abs(scale * step))) < 1e-12:
            break
    prob = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))
    weight = np.where(off, meets * prob * prob.T, 0.0)
    covariance = np.linalg.pinv(np.diag(weight.sum(axis=1)) - weight)
    return [float(t) for t in theta], [float(math.sqrt(max(c, 0.0)))
                                       for c in np.diag(covariance)]


def _weighted_quantile(counts: Sequence[tuple[int, int]], q: float) -> float:
    total = sum(c for _, c in counts)
    running = 0
    for score, count in counts:
        running += count
        if running >= q * total:
            return float(score)
    return float(counts[-1][0])


# ------------------------------------------------------------------ the tournament
def _plan(name: str, games: int, bots: str | Sequence[str], players: int | None,
          options: dict[str, Any]) -> tuple[str, int, dict[str, Any], list[str],
                                            list[tuple[int, ...]], int]:
    """Check the arguments; (game, players, options, entrants, seatings, games per seating)."""
    cls = game_class(name)
    check_games(games, 1)
    refuse_deck(options)
    template = new_game(name, players=players, seed=0, **options)   # checks players, options
    entrants = [str(spec) for spec in parse_bot_specs(bots)]
    repeated = sorted({e for e in entrants if entrants.count(e) > 1})
    if repeated:
        raise ConfigError(f"bot {echo(repeated[0])} is given twice; give each bot once "
                          f"(another seed makes another entrant: 'name:seed=1')", "bots")
    for spec in entrants:
        # a bot that cannot play this game
        check_bot(make_bot(spec, 0), cls.name, template.num_players, template.options)
    plan = seatings(len(entrants), template.num_players)
    return (cls.name, template.num_players, dict(template.options), entrants, plan,
            -(-games // len(plan)))


def planned_games(name: str, games: int, *, bots: str | Sequence[str],
                  players: int | None = None, **options: Any) -> int:
    """How many games ``tournament`` with these arguments plays (``games`` rounded up to a
    multiple of the number of seatings)."""
    _, _, _, _, plan, per_seating = _plan(name, games, bots, players, options)
    return per_seating * len(plan)


def tournament(name: str, games: int, *, bots: str | Sequence[str],
               players: int | None = None, seed: int | None = 0, workers: int = 1,
               executor: Any = None, chunk_size: int | None = None,
               progress: Callable[[int], None] | None = None, records: Any = None,
               **options: Any) -> dict[str, Any]:
    """Play a round-robin tournament of at least ``games`` games between ``bots`` (names or
    specs such as ``"random:seed=3"``, comma-separated or a sequence; at least two different
    ones) and rate them. Every seating (see ``seatings``) plays ``ceil(games / seatings)``
    games. ``workers``, ``executor``, ``chunk_size`` and ``progress`` are as in
    ``cardcore.simulate``; none of them change the result apart from ``workers`` and timing.
    ``records``: a folder that gets each game's match record (``GAME-sK-INDEX.record.json``
    for seating K, cardcore.match_record; the same games, played in Python, so slower).
    Returns a JSON-serializable dict (``standings`` in the order the bots were given)."""
    check_chunk_size(chunk_size)
    seed = resolve_seed(seed)
    cls_name, n_players, options, entrants, plan, per_seating = _plan(name, games, bots,
                                                                      players, options)
    total = per_seating * len(plan)
    folder = check_records(records)
    workers = resolve_workers(executor, workers, total)
    chunk = min(per_seating, chunk_size or default_chunk_size(
        total, workers, where=chunk_place(executor, workers)))
    plugins = shipped_factories(entrants, chunk_place(executor, workers) != "serial")
    jobs = ((cls_name, n_players, options, tuple(entrants[b] for b in seating), seed, start,
             min(per_seating, start + chunk), plugins, folder, f"s{k}")
            for k, seating in enumerate(plan) for start in range(0, per_seating, chunk))
    tally = _Tally(entrants)

    started = time.perf_counter()

    def done(index: int, part: dict[str, Any]) -> None:
        tally.add(part)                          # integer sums: any order gives the same
        if progress is not None:
            progress(part["games"])

    run_chunks(_run_chunk, jobs, executor=executor, workers=workers, on_result=done, keep=False)
    seconds = time.perf_counter() - started
    result = tally.result()
    result.update({
        "game": cls_name, "players": n_players, "options": options, "seed": seed,
        "seatings": [[entrants[b] for b in seating] for seating in plan],
        "games_per_seating": per_seating, "games": total,
        "workers": workers, "seconds": seconds,
        "games_per_second": total / seconds if seconds > 0 else 0.0,
    })
    return result


class _Tally:
    """The chunks' sums, added as they come back (integers, so any order gives the same),
    then rated: memory does not grow with the number of chunks."""

    def __init__(self, entrants: list[str]) -> None:
        n = len(entrants)
        self.entrants = entrants
        self.index = {spec: i for i, spec in enumerate(entrants)}
        self.seats_played, self.wins, self.sole = [0] * n, [0] * n, [0] * n
        self.scores: list[dict[int, int]] = [{} for _ in range(n)]
        self.points2 = [[0] * n for _ in range(n)]
        self.meets = [[0] * n for _ in range(n)]

    def add(self, part: dict[str, Any]) -> None:
        who = [self.index[spec] for spec in part["specs"]]
        for k, e in enumerate(who):
            self.seats_played[e] += part["games"]
            self.wins[e] += part["wins"][k]
            self.sole[e] += part["sole"][k]
            for score, count in part["scores"][k].items():
                self.scores[e][score] = self.scores[e].get(score, 0) + count
        for k, m, k_won, m_won, drawn in part["pairs"]:
            a, b = who[k], who[m]
            self.points2[a][b] += 2 * k_won + drawn
            self.points2[b][a] += 2 * m_won + drawn
            self.meets[a][b] += k_won + m_won + drawn
            self.meets[b][a] += k_won + m_won + drawn

    def result(self) -> dict[str, Any]:
        """Ratings, intervals and standings from the sums."""
        entrants, seats_played, wins, sole = self.entrants, self.seats_played, self.wins, self.sole
        scores, points2, meets = self.scores, self.points2, self.meets
        theta, errors = bradley_terry(points2, meets)
        standings = []
        for e, spec in enumerate(entrants):
            counts = sorted(scores[e].items())
            played = seats_played[e]
            mean = sum(s * c for s, c in counts) / played if played else 0.0
            var = sum(c * (s - mean) ** 2 for s, c in counts) / played if played else 0.0
            rating = ELO_MEAN + ELO_SCALE * theta[e]
            half = Z95 * ELO_SCALE * errors[e]
            standings.append({
                "bot": spec, "seat_games": played, "wins": wins[e], "sole_wins": sole[e],
                "win_rate": wins[e] / played if played else 0.0,
                "win_rate_ci": list(wilson_interval(wins[e], played)),
                "sole_win_rate": sole[e] / played if played else 0.0,
                "mean_score": mean, "score_sd": math.sqrt(var),
                "score_quartiles": [_weighted_quantile(counts, q) for q in (0.25, 0.5, 0.75)]
                if counts else [0.0, 0.0, 0.0],
                "rating": rating, "rating_ci": [rating - half, rating + half],
                "scores": [[s, c] for s, c in counts],
            })
        return {
            "bots": list(entrants),
            "standings": standings,
            "fair_share": sum(wins) / sum(seats_played) if sum(seats_played) else 0.0,
            "pairwise": {"points": [[p / 2 for p in row] for row in points2], "meetings": meets},
            "rating_method": ("Bradley-Terry maximum likelihood on the Elo scale (400 log10, mean "
                              f"1500), winner vs non-winner pairs, {PRIOR_DRAWS} virtual draw per "
                              "pair; 95% intervals from the Fisher information"),
        }


# ------------------------------------------------------------------ presentation
def standings_table(result: dict[str, Any]) -> Any:
    """A rich Table of the standings, best rating first."""
    from rich import box
    from rich.table import Table

    table = Table(title=f"{result['game']} tournament: {result['games']:,} games, "
                        f"{len(result['seatings'])} seatings × {result['games_per_seating']:,}, "
                        f"{result['players']} players, seed {result['seed']}",
                  caption="rating: Bradley-Terry on the Elo scale, mean 1500; [95% interval]; "
                          f"fair share of wins {result['fair_share']:.1%}; scores: "
                          f"{game_class(result['game']).score_direction}",
                  box=box.SIMPLE_HEAVY)
    for column in ("#", "bot", "rating", "win rate", "sole wins", "mean score", "seat-games"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    ranked = sorted(result["standings"], key=lambda row: -row["rating"])
    for rank, row in enumerate(ranked, 1):
        lo, hi = row["rating_ci"]
        wlo, whi = row["win_rate_ci"]
        table.add_row(str(rank), row["bot"], f"{row['rating']:.0f} [{lo:.0f}, {hi:.0f}]",
                      f"{row['win_rate']:.1%} [{wlo:.1%}, {whi:.1%}]",
                      f"{row['sole_win_rate']:.1%}",
                      f"{row['mean_score']:.2f} ± {row['score_sd']:.2f}",
                      f"{row['seat_games']:,}")
    return table


def pairwise_table(result: dict[str, Any]) -> Any:
    """A rich Table: the row bot's share of points against the column bot."""
    from rich import box
    from rich.table import Table

    bots = result["bots"]
    points, meets = result["pairwise"]["points"], result["pairwise"]["meetings"]
    table = Table(title="head to head: row's points share",
                  box=box.SIMPLE_HEAVY)
    table.add_column("")
    for bot in bots:
        table.add_column(bot, justify="right")
    for i, bot in enumerate(bots):
        table.add_row(bot, *("—" if i == j or not meets[i][j] else
                             f"{points[i][j] / meets[i][j]:.1%}" for j in range(len(bots))))
    return table


def plot_tournament(result: dict[str, Any], out: str | Path) -> list[Path]:
    """Write ``tournament.png`` and ``tournament.svg`` to the directory ``out``: ratings and
    win rates with their 95% intervals, and each bot's score distribution. Needs matplotlib
    (the ``plot`` extra). Returns the paths written."""
    figure = _figure(result)
    import matplotlib

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / "tournament.png", folder / "tournament.svg"]
    with matplotlib.rc_context({"svg.hashsalt": "cardcore", "svg.fonttype": "none"}):
        figure.savefig(paths[0], dpi=120, metadata={"Software": None})
        figure.savefig(paths[1], metadata={"Date": None, "Creator": None})
    return paths


def require_matplotlib() -> None:
    """ConfigError (option "out") when matplotlib is not installed."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        from cardcore.extras import install_hint
        raise ConfigError(f"plots need matplotlib: {install_hint('plot')}", "out") from None


def _spans(values: list[float], intervals: list[list[float]]) -> list[list[float]]:
    """errorbar's [below, above] distances (never negative, whatever the rounding)."""
    return [[max(0.0, v - lo) for v, (lo, _) in zip(values, intervals)],
            [max(0.0, hi - v) for v, (_, hi) in zip(values, intervals)]]


def _figure(result: dict[str, Any]) -> Any:
    require_matplotlib()
    from matplotlib.figure import Figure                   # no pyplot: no GUI, no global state

    rows = sorted(result["standings"], key=lambda row: row["rating"])   # best at the top
    labels = [row["bot"] for row in rows]
    y = list(range(len(rows)))
    figure = Figure(figsize=(12, 1.9 + 0.55 * len(rows)), layout="constrained")
    rating_ax, win_ax, score_ax = figure.subplots(1, 3, sharey=True)

    ratings = [row["rating"] for row in rows]
    rating_ax.errorbar(ratings, y, xerr=_spans(ratings, [row["rating_ci"] for row in rows]),
                       fmt="o", capsize=4, color="tab:blue")
    rating_ax.axvline(ELO_MEAN, color="grey", lw=0.8, ls=":")
    rating_ax.set_yticks(y, labels)
    rating_ax.set_xlabel("rating, Elo scale\n(95% interval)")

    rates = [row["win_rate"] * 100 for row in rows]
    win_ax.errorbar(rates, y, xerr=_spans(rates, [[x * 100 for x in row["win_rate_ci"]]
                                                  for row in rows]),
                    fmt="o", capsize=4, color="tab:green")
    win_ax.axvline(result["fair_share"] * 100, color="grey", lw=0.8, ls=":",
                   label="fair share")
    win_ax.set_xlabel("win rate %, per seat and game\n(95% interval)")
    win_ax.legend(loc="lower right", fontsize="small")

    stats = []
    for row in rows:
        counts = [(s, c) for s, c in row["scores"]]
        q = [_weighted_quantile(counts, p) if counts else 0.0
             for p in (0.05, 0.25, 0.5, 0.75, 0.95)]
        stats.append({"label": row["bot"], "whislo": q[0], "q1": q[1], "med": q[2],
                      "q3": q[3], "whishi": q[4], "mean": row["mean_score"], "fliers": []})
    try:
        score_ax.bxp(stats, positions=y, orientation="horizontal", showmeans=True, widths=0.5)
    except TypeError:                                      # matplotlib < 3.10
        score_ax.bxp(stats, positions=y, vert=False, showmeans=True, widths=0.5)
    # Which way is good is the game's to say (Game.score_direction): penalty points in some.
    direction = game_class(result["game"]).score_direction
    score_ax.set_xlabel(f"score as the game counts it: {direction}\n"
                        "(box 25-75%, whiskers 5-95%, ▲ mean)")
    figure.suptitle(f"{result['game']}: {result['games']:,} games, {result['players']} players, "
                    f"seed {result['seed']}")
    return figure
