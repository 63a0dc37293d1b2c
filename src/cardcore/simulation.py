"""Many seeded games with bots, summarised (docs/api.md, "Simulation"); ``cardcore.simulate``.

``simulate("kings_stakes", 10_000, bots=("random",))`` plays every game inside the core
(``GameState.run_random``): no Python runs per action. Any other bot plays through the Python
protocol, one ``game.apply(bot.choose_id(game))`` per action.

Reproducibility: game ``i`` of a run gets its own seeds, derived from ``(seed, i)`` only
(``game_seed`` / ``chooser_seed``), so the results do not depend on ``workers`` or on how the
games are split into chunks; all sums are integers, so the summary is bit-for-bit the same.
``new_game(name, seed=game_seed(seed, i), ...)`` deals game ``i`` again.

Seat ``k`` is played by ``bots[k % len(bots)]``.
"""
from __future__ import annotations

import os
import time
from collections.abc import Sequence
from typing import Any, Callable

from cardcore._fast import seed_to_u64
from cardcore.bots import Bot, make_bot
from cardcore.errors import ConfigError
from cardcore.game import Game, game_class, new_game, resolve_seed

__all__ = ["bot_seed", "chooser_seed", "game_seed", "simulate"]

_MASK = (1 << 64) - 1


def _mix(x: int) -> int:
    """splitmix64's finaliser: a bijective 64-bit hash."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


def _derive(seed: int, index: int, stream: int) -> int:
    return _mix(_mix(_mix(seed_to_u64(seed)) ^ index) ^ stream)


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``seed`` (deal and shuffles)."""
    return _derive(seed, index, 0)


def chooser_seed(seed: int, index: int) -> int:
    """The seed of the in-core random chooser of game ``index`` (all-random runs)."""
    return _derive(seed, index, 1)


def bot_seed(seed: int, index: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in game ``index`` (runs with Python bots)."""
    return _derive(seed, index, 2 + seat)


def _new_totals(players: int) -> dict[str, Any]:
    return {"games": 0, "actions": 0, "turns": 0, "wins": [0] * players,
            "score_sum": [0] * players, "sole_wins": [0] * players}


def _record(totals: dict[str, Any], scores: Sequence[int], winners: Sequence[int],
            actions: int, turns: int) -> None:
    totals["games"] += 1
    totals["actions"] += actions
    totals["turns"] += turns
    score_sum = totals["score_sum"]
    for seat, score in enumerate(scores):
        score_sum[seat] += score
    wins = totals["wins"]
    for seat in winners:
        wins[seat] += 1
    if len(winners) == 1:
        totals["sole_wins"][winners[0]] += 1


def _run_chunk(job: tuple[Any, ...]) -> dict[str, Any]:
    """Play games [start, stop) of a run. Top-level so worker processes can import it."""
    name, players, options, bots, seed, start, stop = job
    template = new_game(name, players=players, seed=0, **options)
    totals = _new_totals(template.num_players)
    state: Any                                    # a game's Cython state
    if all(b == "random" for b in bots):
        # The hot loop of all-random runs: everything per action happens in run_random.
        # Each game is a clone of one fresh, undealt state (cheaper than building a state
        # from the options every time), seeded and dealt exactly as new_game would.
        base = _mix(seed_to_u64(seed))
        fresh = template._make_state(None)
        wins, score_sum, sole_wins = totals["wins"], totals["score_sum"], totals["sole_wins"]
        actions = turns = 0
        for index in range(start, stop):
            inner = _mix(base ^ index)            # = game_seed / chooser_seed, shared half
            state = fresh.clone()
            state.seed_rng(_mix(inner))
            state.start()
            actions += state.run_random(_mix(inner ^ 1))
            turns += state.turns
            for seat, score in enumerate(state.scores()):
                score_sum[seat] += score
            winners = state.winners()
            for seat in winners:
                wins[seat] += 1
            if len(winners) == 1:
                sole_wins[winners[0]] += 1
        totals["games"] += stop - start
        totals["actions"] += actions
        totals["turns"] += turns
        return totals
    seats: list[Bot] = [make_bot(bots[k % len(bots)], 0) for k in range(template.num_players)]
    for index in range(start, stop):
        game = new_game(name, players=players, seed=game_seed(seed, index), **options)
        for k, bot in enumerate(seats):
            bot.reseed(bot_seed(seed, index, k))
        state = game._state
        apply = game.apply
        actions = 0
        while not state.is_over:
            apply(seats[state.current_player].choose_id(game))
            actions += 1
        _record(totals, state.scores(), state.winners(), actions, state.turns)
    return totals


def _merge(into: dict[str, Any], part: dict[str, Any]) -> None:
    for key in ("games", "actions", "turns"):
        into[key] += part[key]
    for key in ("wins", "score_sum", "sole_wins"):
        into[key] = [a + b for a, b in zip(into[key], part[key])]


def _parse_bots(bots: str | Sequence[str], players: int) -> tuple[str, ...]:
    if isinstance(bots, str):
        bots = bots.split(",")
    names = tuple(str(b).strip().lower() for b in bots)
    if not names or any(not b for b in names):
        raise ConfigError("bots must name at least one bot, e.g. ('greedy', 'random')", "bots")
    if len(names) > players:
        raise ConfigError(f"{len(names)} bots given for {players} players", "bots")
    return names


def simulate(name: str, games: int, *, players: int | None = None,
             bots: str | Sequence[str] = ("random",), seed: int | None = 0, workers: int = 1,
             progress: Callable[[int], None] | None = None, **options: Any) -> dict[str, Any]:
    """Play ``games`` seeded games of ``name`` and summarise them.

    ``bots``: one name per seat, repeated round the table (``("greedy", "random")`` puts greedy
    at even seats). ``workers`` > 1 splits the games over processes (0 = one per CPU).
    ``progress(n)`` is called with the number of games just finished, after each chunk.
    ``seed=None`` draws a fresh seed (reported in the summary). ``options`` are the game's
    options. Returns a JSON-serializable dict: games, actions, turns, per-seat wins (a shared
    win counts for each winner; ``sole_wins`` only counts games with one winner), win rates
    and mean scores, the same per bot name, mean turns and actions per game, seconds, games
    and actions per second.
    """
    cls: type[Game] = game_class(name)
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise ConfigError(f"games must be a non-negative int, not {games!r}", "games")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 0:
        raise ConfigError(f"workers must be a non-negative int, not {workers!r}", "workers")
    seed = resolve_seed(seed)
    template = new_game(name, players=players, seed=0, **options)   # checks players, options
    n_players = template.num_players
    names = _parse_bots(bots, n_players)
    for b in dict.fromkeys(names):
        make_bot(b, 0).check_game(cls.name)            # unknown bot, or none for this game
    workers = workers or (os.cpu_count() or 1)
    workers = max(1, min(workers, games or 1))

    chunk = max(1, min(2000, -(-games // (workers * 8 if workers > 1 else 40))))
    jobs = [(cls.name, n_players, dict(template.options), names, seed, start,
             min(games, start + chunk)) for start in range(0, games, chunk)]
    totals = _new_totals(n_players)
    started = time.perf_counter()
    if workers == 1:
        for job in jobs:
            part = _run_chunk(job)
            _merge(totals, part)
            if progress is not None:
                progress(part["games"])
    else:
        from concurrent.futures import ProcessPoolExecutor  # only runs with workers pay for it

        with ProcessPoolExecutor(max_workers=workers) as pool:
            for part in pool.map(_run_chunk, jobs):
                _merge(totals, part)
                if progress is not None:
                    progress(part["games"])
    seconds = time.perf_counter() - started
    return _summary(cls.name, template.options, names, n_players, seed, workers, totals, seconds)


def _summary(name: str, options: dict[str, Any], names: tuple[str, ...], players: int,
             seed: int, workers: int, totals: dict[str, Any], seconds: float) -> dict[str, Any]:
    n = totals["games"]
    seat_bots = [names[k % len(names)] for k in range(players)]

    def rate(x: float, d: float) -> float:
        return x / d if d else 0.0

    by_bot: dict[str, dict[str, Any]] = {}
    for bot in dict.fromkeys(seat_bots):
        seats = [k for k in range(players) if seat_bots[k] == bot]
        by_bot[bot] = {
            "seats": seats,
            "win_rate": rate(sum(totals["wins"][k] for k in seats), n * len(seats)),
            "mean_score": rate(sum(totals["score_sum"][k] for k in seats), n * len(seats)),
        }
    return {
        "game": name,
        "players": players,
        "options": dict(options),
        "bots": seat_bots,
        "seed": seed,
        "workers": workers,
        "core": all(b == "random" for b in names),
        "games": n,
        "actions": totals["actions"],
        "turns": totals["turns"],
        "wins": list(totals["wins"]),
        "sole_wins": list(totals["sole_wins"]),
        "win_rate": [rate(w, n) for w in totals["wins"]],
        "mean_score": [rate(s, n) for s in totals["score_sum"]],
        "by_bot": by_bot,
        "mean_turns": rate(totals["turns"], n),
        "mean_actions": rate(totals["actions"], n),
        "seconds": seconds,
        "games_per_second": rate(n, seconds) if seconds > 0 else 0.0,
        "actions_per_second": rate(totals["actions"], seconds) if seconds > 0 else 0.0,
    }
