"""Many seeded games with bots, summarised (docs/api.md, "Simulation"); ``cardcore.simulate``.

``simulate(name, 10_000, bots=("random",))`` plays every game inside the core
(``GameState.run_random``): no Python runs per action. Any other bot plays through the Python
protocol, one ``game.apply(bot.choose_id(game))`` per action.

Reproducibility: game ``i`` of a run gets its own seeds, derived from ``(seed, i)`` only
(``game_seed`` / ``chooser_seed``), so the results do not depend on ``workers`` or on how the
games are split into chunks or where the chunks run (``executor``: local processes, any
``concurrent.futures.Executor``, Dask or Ray; see ``cardcore.executors``); all sums are
integers, so the summary is bit-for-bit the same.
``new_game(name, seed=game_seed(seed, i), ...)`` deals game ``i`` again.

Seat ``k`` is played by ``bots[k % len(bots)]``, a bot name or spec (``"random:seed=3"``; a
spec's own ``seed`` replaces ``seed`` in that bot's ``bot_seed`` streams).
"""
from __future__ import annotations

import math
import os
import time
from collections.abc import Sequence
from typing import Any, Callable

import numpy as np

from cardcore._batch import play_policy_games, play_random_games
from cardcore._fast import Random, seed_to_u64
from cardcore.bots.base import check_bot
from cardcore.bots import (Bot, adopt_factories, make_bot, parse_bot_spec, parse_bot_specs,
                           shipped_factories)
from cardcore.errors import ConfigError, echo
from cardcore.executors import executor_kind, executor_workers, run_chunks
from cardcore.game import Game, resolve_seed
from cardcore.registry import game_class, new_game

__all__ = ["MAX_GAMES", "bot_seed", "chooser_seed", "default_chunk_size", "game_seed",
           "play_recorded", "simulate"]

_MASK = (1 << 64) - 1
# The most games one run plays (simulate, tournament): a trillion, weeks of a big cluster at
# a million games a second. The chunks are made as they are sent, so memory does not grow
# with ``games``; the cap keeps a typo (2**64) a ConfigError rather than a run for ever.
MAX_GAMES = 10**12

# Default chunking: enough chunks per worker to balance the load and move the progress bar,
# and, once chunks leave this process, enough games per chunk that scheduling costs at most
# SCHEDULING_SHARE of a chunk's work. Measured (benchmarks/bench_executors.py, README there):
# the overhead per chunk of each place, and the cost of a game with Python bots (greedy and
# random, the quickest game) and of a whole random game in the core.
CHUNKS_PER_WORKER = 8
MIN_CHUNKS = 40
MAX_CHUNK = 2000
SCHEDULING_SHARE = 0.05
CHUNK_OVERHEAD_MS = {"serial": 0.0, "processes": 0.15, "ray": 0.75, "dask": 4.5}
GAME_MS = {"python": 0.8, "core": 0.02}


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
    name, players, options, bots, seed, start, stop, *rest = job
    adopt_factories(rest[0] if rest else {})          # the bots register() made
    records = rest[1] if len(rest) > 1 else None
    template = new_game(name, players=players, seed=0, **options)
    totals = _new_totals(template.num_players)
    state: Any                                    # a game's Cython state
    if records is not None:
        for index in range(start, stop):
            game = play_recorded(name, players, options, bots, seed, index)
            _record(totals, game.scores, game.winners, len(game.action_log()),
                    game._state.turns)
            write_record(game, records, index, bots)
        return totals
    if all(b == "random" for b in bots):
        # All-random runs are dealt and played inside the core, game after game, with the
        # same per-game seeds as below (game_seed / chooser_seed): no Python per game.
        actions, turns, score_sum, wins, sole_wins = play_random_games(
            template._make_state(None), seed, start, stop)
        totals["games"] += stop - start
        totals["actions"] += actions
        totals["turns"] += turns
        for key, values in (("score_sum", score_sum), ("wins", wins), ("sole_wins", sole_wins)):
            totals[key] = [a + b for a, b in zip(totals[key], values)]
        return totals
    seats: list[Bot] = [make_bot(bots[k % len(bots)], 0) for k in range(template.num_players)]
    own = [parse_bot_spec(bots[k % len(bots)]).seed for k in range(template.num_players)]
    streams = [seed if s is None else s for s in own]
    core = core_policies(seats, template)
    if core is not None:
        # Every seat's bot plays inside the core (random, greedy): the same moves as the
        # Python loop below, from the same per-seat generators, without Python per move.
        scores, winners, actions_of, turns_of = play_in_core(template, core, streams, seed,
                                                              start, stop)
        totals["games"] += stop - start
        totals["actions"] += int(actions_of.sum())
        totals["turns"] += int(turns_of.sum())
        totals["score_sum"] = [int(x) for x in scores.sum(axis=0, dtype=np.int64)]
        totals["wins"] = [int(x) for x in winners.sum(axis=0, dtype=np.int64)]
        sole = winners.sum(axis=1) == 1
        totals["sole_wins"] = [int(x) for x in winners[sole].sum(axis=0, dtype=np.int64)]
        return totals
    for index in range(start, stop):
        game = new_game(name, players=players, seed=game_seed(seed, index), **options)
        for k, bot in enumerate(seats):
            bot.reseed(bot_seed(streams[k], index, k))
        state = game._state
        apply = game.apply
        actions = 0
        while not state.is_over:
            apply(seats[state.current_player].choose_id(game))
            actions += 1
        _record(totals, state.scores(), state.winners(), actions, state.turns)
    return totals


def play_recorded(name: str, players: int | None, options: dict[str, Any],
                  bots: Sequence[str], seed: int, index: int) -> Game:
    """Game ``index`` of a run, played through the Python protocol with the same moves the
    run's in-core paths make (for its record): all-random runs pick ``legal[below(n)]`` from
    the core's chooser (``chooser_seed``), other bots are reseeded as ``_run_chunk`` does."""
    game = new_game(name, players=players, seed=game_seed(seed, index), **options)
    if all(b == "random" for b in bots):
        chooser = Random(chooser_seed(seed, index))
        while not game.is_over:
            legal = game.legal_action_ids()
            game.apply(legal[chooser.below(len(legal))])
        return game
    seats = [make_bot(bots[k % len(bots)], 0) for k in range(game.num_players)]
    for k, bot in enumerate(seats):
        own = parse_bot_spec(bots[k % len(bots)]).seed
        bot.reseed(bot_seed(seed if own is None else own, index, k))
    while not game.is_over:
        player = game.current_player
        assert player is not None                         # the game is not over
        game.apply(seats[player].choose_id(game))
    return game


def write_record(game: Game, folder: str, index: int, bots: Sequence[str],
                 tag: str = "") -> None:
    """The match record of game ``index`` (cardcore.match_record) into ``folder``, named
    ``GAME[-TAG]-INDEX.record.json``; the seats' names are their bots' specs."""
    from cardcore.match_record import dumps, export_record
    names = [bots[k % len(bots)] for k in range(game.num_players)]
    path = os.path.join(folder, f"{game.name}{'-' + tag if tag else ''}-{index:06d}"
                                f".record.json")
    with open(path, "w", encoding="utf-8") as f:
        f.write(dumps(export_record(game, names=names)) + "\n")


def check_records(records: Any) -> str | None:
    """The folder records are written to (made if missing), or ConfigError naming
    ``records``."""
    if records is None:
        return None
    try:
        folder: str = os.fspath(records)
        os.makedirs(folder, exist_ok=True)
    except (TypeError, OSError) as e:
        raise ConfigError(f"records must be a folder that can be written, not "
                          f"{echo(records)} ({e})"[:200], "records") from None
    return os.path.abspath(folder)


def core_policies(seats: Sequence[Bot], template: Game) -> list[tuple[int, int]] | None:
    """Each seat's in-core policy (``Bot.core_policy``), or None if some seat has none."""
    policies = [bot.core_policy(template) for bot in seats]
    return None if any(p is None for p in policies) else policies  # type: ignore[return-value]


def play_in_core(template: Game, policies: Sequence[tuple[int, int]], streams: Sequence[int],
                 seed: int, start: int, stop: int) -> tuple[Any, Any, Any, Any]:
    """Games start..stop with every seat an in-core policy: per game (rows) the scores and
    winners per seat, the actions and the turns (numpy arrays)."""
    n, players = stop - start, template.num_players
    scores = np.zeros((n, players), dtype=np.int32)
    winners = np.zeros((n, players), dtype=np.uint8)
    actions = np.zeros(n, dtype=np.int64)
    turns = np.zeros(n, dtype=np.int64)
    play_policy_games(template._make_state(None), seed, start, stop,
                      [kind for kind, _ in policies], [t for _, t in policies], list(streams),
                      template.max_game_length, scores, winners, actions, turns)
    return scores, winners, actions, turns


def _merge(into: dict[str, Any], part: dict[str, Any]) -> None:
    for key in ("games", "actions", "turns"):
        into[key] += part[key]
    for key in ("wins", "score_sum", "sole_wins"):
        into[key] = [a + b for a, b in zip(into[key], part[key])]


def check_games(games: int, least: int = 0) -> None:
    """ConfigError (option "games") unless ``games`` is an int least..MAX_GAMES."""
    if isinstance(games, bool) or not isinstance(games, int) or not least <= games <= MAX_GAMES:
        kind = "a positive int" if least == 1 else "a non-negative int"
        raise ConfigError(f"games must be {kind} of at most {MAX_GAMES:,}, not {echo(games)}",
                          "games")


def refuse_deck(options: dict[str, Any]) -> None:
    """simulate and tournament deal every game from its own seed: a stacked deck would be
    checked and then ignored, so it is refused (ConfigError naming "deck")."""
    if "deck" in options:
        raise ConfigError("deck: simulate and tournament deal every game from its own seed "
                          "(game_seed); play stacked decks with new_game(deck=...)", "deck")


def _parse_bots(bots: str | Sequence[str], players: int) -> tuple[str, ...]:
    """The canonical spec of each bot (checked: unknown bots and parameters raise)."""
    names = tuple(str(spec) for spec in parse_bot_specs(bots))
    if len(names) > players:
        raise ConfigError(f"{len(names)} bots given for {players} players", "bots")
    return names


def default_chunk_size(games: int, workers: int, *, where: str = "serial",
                       core: bool = False) -> int:
    """Games per chunk when ``chunk_size`` is not given. ``where``: "serial" (this process),
    "processes" (a local pool or another ``concurrent.futures.Executor``), "dask" or "ray";
    ``core``: whole games run in the core (~40× cheaper than with Python bots)."""
    size = -(-games // max(MIN_CHUNKS, CHUNKS_PER_WORKER * workers))
    game_ms = GAME_MS["core" if core else "python"]
    least = math.ceil(CHUNK_OVERHEAD_MS[where] / SCHEDULING_SHARE / game_ms)
    return max(1, min(MAX_CHUNK, max(size, least)))


def chunk_place(executor: Any, workers: int) -> str:
    """The ``where`` of ``default_chunk_size`` for a run."""
    kind = executor_kind(executor)
    if kind == "local":
        return "serial" if workers == 1 else "processes"
    return "processes" if kind == "futures" else kind


def check_chunk_size(chunk_size: int | None) -> None:
    if chunk_size is not None and (isinstance(chunk_size, bool)
                                   or not isinstance(chunk_size, int) or chunk_size < 1):
        raise ConfigError(f"chunk_size must be a positive int, not {echo(chunk_size)}",
                          "chunk_size")


def resolve_workers(executor: Any, workers: int, games: int) -> int:
    """The number of workers a run uses (checks ``workers`` and ``executor``)."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 0:
        raise ConfigError(f"workers must be a non-negative int, not {echo(workers)}",
                          "workers")
    if executor_kind(executor) != "local":
        if workers != 1:
            raise ConfigError("give workers or executor, not both (the executor has its own "
                              "workers)", "workers")
        return executor_workers(executor)
    workers = workers or (os.cpu_count() or 1)
    return max(1, min(workers, games or 1))


def simulate(name: str, games: int, *, players: int | None = None,
             bots: str | Sequence[str] = ("random",), seed: int | None = 0, workers: int = 1,
             executor: Any = None, chunk_size: int | None = None,
             progress: Callable[[int], None] | None = None, records: Any = None,
             **options: Any) -> dict[str, Any]:
    """Play ``games`` seeded games of ``name`` and summarise them.

    ``bots``: one name or spec per seat, repeated round the table (``("greedy", "random")``
    puts greedy at even seats). ``workers`` > 1 splits the games over processes (0 = one per
    CPU). ``executor`` runs the chunks elsewhere instead: any ``concurrent.futures.Executor``,
    a ``dask.distributed.Client`` or ``"ray"`` (after ``ray.init``); a chunk lost with its
    worker runs again. ``chunk_size`` games go to a worker at a time (default
    ``default_chunk_size``). None of these change the summary, only ``workers`` and timing.
    ``progress(n)`` is called with the number of games just finished, after each chunk.
    ``seed=None`` draws a fresh seed (reported in the summary). ``options`` are the game's
    options; ``deck`` is refused (every game is dealt from its own seed). ``games`` is at
    most MAX_GAMES (10**12): the chunks are made as they are sent, so memory does not grow
    with it. ``records``: a folder that gets each game's match record
    (``GAME-INDEX.record.json``, cardcore.match_record; the same games and summary, played
    through the Python protocol, so slower). Returns a JSON-serializable dict: games, actions, turns, per-seat wins (a shared
    win counts for each winner; ``sole_wins`` only counts games with one winner), win rates
    and mean scores, the same per bot name, mean turns and actions per game, seconds, games
    and actions per second.
    """
    cls: type[Game] = game_class(name)
    check_games(games)
    refuse_deck(options)
    check_chunk_size(chunk_size)
    seed = resolve_seed(seed)
    template = new_game(name, players=players, seed=0, **options)   # checks players, options
    folder = check_records(records)
    n_players = template.num_players
    names = _parse_bots(bots, n_players)
    for b in dict.fromkeys(names):
        # unknown, or none for this configuration
        check_bot(make_bot(b, 0), cls.name, n_players, template.options)
    workers = resolve_workers(executor, workers, games)
    in_core = core_policies([make_bot(names[k % len(names)], 0) for k in range(n_players)],
                            template) is not None
    chunk = chunk_size or default_chunk_size(games, workers, where=chunk_place(
        executor, workers), core=in_core and folder is None)
    plugins = shipped_factories(names, chunk_place(executor, workers) != "serial")
    jobs = ((cls.name, n_players, dict(template.options), names, seed, start,
             min(games, start + chunk), plugins, folder) for start in range(0, games, chunk))
    totals = _new_totals(n_players)
    started = time.perf_counter()

    def done(index: int, part: dict[str, Any]) -> None:
        _merge(totals, part)                               # integer sums: any order will do
        if progress is not None:
            progress(part["games"])

    run_chunks(_run_chunk, jobs, executor=executor, workers=workers, on_result=done, keep=False)
    seconds = time.perf_counter() - started
    return _summary(cls.name, template.options, names, n_players, seed, workers, totals, seconds,
                    in_core)


def _summary(name: str, options: dict[str, Any], names: tuple[str, ...], players: int,
             seed: int, workers: int, totals: dict[str, Any], seconds: float,
             in_core: bool) -> dict[str, Any]:
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
        "core": in_core,
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
