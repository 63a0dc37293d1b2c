"""Batched play: many games of one configuration stepped together in C (api.md, "Batched play").

``VectorGame(name, num_games, seed=0, threads=1, **options)`` keeps ``num_games`` games side by
side in one block of memory. Each call (``legal_mask``, ``observations``, ``step``) is one C loop
over all of them, without the GIL and without Python per game, writing into numpy arrays; with
``threads=k`` the games are split into ``k`` slices stepped on ``k`` threads at once.

Game slot ``i`` plays episodes 0, 1, 2, ... (a finished game restarts at once, inside ``step``);
episode ``k`` is ``new_game(name, seed=episode_seed(seed, i, k), ...)``, so ``vg.game(i)``
rebuilds it as an ordinary :class:`~cardcore.game.Game` from its seed and actions.

Opponents: with ``opponents`` (a bot spec for every other seat, or ``{seat: spec}``) the seats
not in ``learner_seats`` are played inside the core by in-core bots (``Bot.core_policy``:
random, greedy, the levels built on them), between the learner's steps: ``step`` returns when
every game is at a learner seat's turn. The opponent at ``seat`` in episode ``k`` of slot ``i``
draws from ``Random(opponent_seed(seed, i, k, seat))``, the generator a Python bot reseeded with
that seed holds, so a Game driven by such bots makes the same moves (docs/rl.md, "VectorGame").

Policy opponents: ``opponents`` may also be a batched policy (cardcore.policy: an object with
``choose_many(decisions)``; a plug-in bot whose policy has one; deprecated, a plain callable
``(observations, masks, seats)``), for every other seat or for some seats of a ``{seat:
spec | policy}`` map, such as a frozen copy of the learner's network: after the learner's
actions (and between in-core opponents' moves), ``step`` calls it once per round with the
``Decisions`` of exactly the slots where its seats are to move (observations made only if
read), and plays the int actions it returns, until every slot is at a learner's turn. Rounds
per step: the longest run of that policy's decisions in one game between two learner moves.
A policy's illegal action, wrong answer or exception breaks that step off half-way: the
VectorGame then refuses every further call (RuntimeError); make a new one.

Threads: a VectorGame may be shared by threads, and its calls are serialised: each public
method holds the VectorGame's token for the whole call (its C loops and worker threads
included), so calls never overlap and each sees and leaves all games between two steps.
A sequence of calls is not one step: another thread may step in between (an action chosen
from an older mask is then refused with IllegalActionError, and nothing changes).
"""
from __future__ import annotations

import functools
import math
import threading
import time
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

import numpy as np
import numpy.typing as npt

from cardcore._batch import (
    POLICY_EXTERNAL, NoLearnerTurn, VectorCore, episode_seed, opponent_seed,
)
from cardcore._fast import Random
from cardcore.errors import ConfigError, IllegalActionError, echo
from cardcore.game import Game, is_int
from cardcore.policy import BatchPolicy, Decisions, batch_policy
from cardcore.registry import game_class, new_game
from cardcore.vector_views import InformationStates, ObservationVariant, ObservationView

__all__ = ["REWARDS", "OpponentPolicy", "OutsideBot", "VectorGame", "episode_seed",
           "opponent_seed"]

# The deprecated callable opponent: (observations (k, size) float32, masks (k, actions) bool,
# seats (k,) int64) of the k slots where its seats are to move -> k int action ids
# (cardcore.policy.BatchPolicy is the protocol).
OpponentPolicy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.bool_],
                           npt.NDArray[np.int64]], Any]

REWARDS = ("returns", "win")         # VectorGame's reward rules (docs/rl.md, "VectorGame")
_REWARD_CODES = {"returns": 0, "win": 1}     # the core's REWARD_RETURNS, REWARD_WIN
# VectorGame's observation kinds; a game's own variants (Game.observation_variants) too
OBSERVATIONS = ("raw", "scaled", "information_state")

_INT64 = np.dtype(np.int64)
_FLOAT32 = np.dtype(np.float32)
_BOOL = np.dtype(np.bool_)
_NO_ROWS = np.empty((0, 0), np.float32)     # external_inputs: no observations written


def _read_only(array: npt.NDArray[Any]) -> npt.NDArray[Any]:
    view: npt.NDArray[Any] = array.view()
    view.flags.writeable = False
    return view


def is_policy(spec: Any) -> bool:
    """Whether an ``opponents`` entry is a batched policy: an object with ``choose_many``
    (cardcore.policy) or, deprecated, a plain callable; neither a bot spec, a Bot nor a
    class."""
    from cardcore.bots import Bot
    return not isinstance(spec, (str, Bot, type)) and (
        callable(spec) or callable(getattr(spec, "choose_many", None)))


def _seats(probe: Game, learner_seats: Any, opponents: Any
           ) -> tuple[list[bool], dict[int, tuple[str | OpponentPolicy | OutsideBot,
                                                  tuple[int, int]]]]:
    """Which seats learn, and each other seat's (canonical spec or callable, core policy).
    Neither given: every seat learns. ``opponents`` alone: seat 0 learns when it is one spec
    or callable, the seats the mapping leaves out when it is ``{seat: spec}``."""
    players = probe.num_players
    mine: list[Any]
    if learner_seats is None and opponents is None:
        return [True] * players, {}
    if learner_seats is None:
        mine = ([p for p in range(players) if p not in opponents]
                if isinstance(opponents, Mapping) else [0])
    else:
        seats = [learner_seats] if is_int(learner_seats) else learner_seats
        try:
            mine = list(seats)
        except TypeError:
            mine = [None]
        if not mine or not all(is_int(p) and 0 <= p < players for p in mine) \
                or len(set(mine)) != len(mine):
            raise ConfigError(f"learner_seats must be a seat 0..{players - 1} or distinct "
                              f"seats, not {echo(learner_seats)}", "learner_seats")
    others = [p for p in range(players) if p not in mine]
    if not mine:
        raise ConfigError("opponents: at least one seat must be left to the learner", "opponents")
    if not others:
        raise ConfigError(f"opponents: every seat is a learner's (learner_seats "
                          f"{echo(learner_seats)}); leave opponents None for self-play",
                          "opponents")
    if opponents is None:
        raise ConfigError(f"opponents: name the bots of seats {others}, e.g. 'greedy', "
                          f"{{seat: 'random'}} or a policy with choose_many(decisions)",
                          "opponents")
    if isinstance(opponents, Mapping):
        if not all(is_int(p) for p in opponents) or set(opponents) != set(others):
            raise ConfigError(f"opponents must give a bot for exactly the seats {others}, "
                              f"not {echo(sorted(opponents, key=str))}", "opponents")
        specs = {p: opponents[p] for p in others}
    else:
        specs = {p: opponents for p in others}
    return [p in mine for p in range(players)], {p: _policy(probe, spec)
                                                 for p, spec in specs.items()}


class OutsideBot:
    """An opponent bot with no in-core policy (a search level: IS-MCTS), played outside the
    core: each of its slots' games is kept as a ``Game`` brought up to the core's log (only
    the new actions applied), and the bot chooses on it, one slot after another. Seeded
    from the VectorGame's seed and the seat; much slower than an in-core bot."""

    def __init__(self, bot: Any, text: str) -> None:
        self.bot, self.text = bot, text
        self.seeded = False

    def choose(self, vg: VectorGame, slots: npt.NDArray[np.int32],
               seats: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        if not self.seeded:
            self.bot.reseed(opponent_seed(vg.seed, 0, 0, int(seats[0])))
            self.seeded = True
        return np.fromiter((self.bot.choose_id(vg._slot_game(int(slot))) for slot in slots),
                           np.int64, len(slots))


def _policy(probe: Game, spec: Any) -> tuple[str | OpponentPolicy | OutsideBot,
                                             tuple[int, int]]:
    """A bot spec (or Bot) as the core plays it: (canonical spec, (kind, threshold)); a
    callable as itself, and a bot with no in-core policy as an ``OutsideBot``, played
    outside the core."""
    from cardcore.bots import Bot, make_bot, parse_bot_spec
    from cardcore.bots.base import check_bot
    if is_policy(spec):
        return spec, (POLICY_EXTERNAL, 0)
    if isinstance(spec, type):
        raise ConfigError(f"opponents: {echo(spec)} is a class; give a bot spec such as "
                          f"'greedy', a Bot instance or a policy with choose_many(decisions)",
                          "opponents")
    if isinstance(spec, Bot):
        bot, text = spec, repr(spec)
    else:
        try:
            parsed = parse_bot_spec(spec)
        except ConfigError as e:
            raise ConfigError(f"opponents: {e}; or a policy with choose_many(decisions)",
                              "opponents") from None
        if parsed.seed is not None:
            raise ConfigError(f"opponents: {echo(str(parsed))} gives its own seed; in-core "
                              f"opponents draw from their episodes' seeds (opponent_seed)",
                              "opponents")
        bot, text = make_bot(parsed, 0), str(parsed)
    try:
        check_bot(bot, probe.name, probe.num_players, probe.options)
        policy = bot.core_policy(probe)
    except ConfigError as e:
        raise ConfigError(f"opponents: {e}", "opponents") from None
    if policy is None:
        # a plug-in whose policy is batched plays as one (a call per round, not per game)
        batched = getattr(bot, "batched", None)
        if batched is not None:
            return batched, (POLICY_EXTERNAL, 0)
        return OutsideBot(bot, text), (POLICY_EXTERNAL, 0)
    return text, policy


def in_core_bots(probe: Game) -> list[str]:
    """The bot specs that can be VectorGame opponents in ``probe``'s configuration: random,
    greedy when the game has it in its kernel, and the levels built on those."""
    from cardcore.bots import make_bot
    names = ["random", "greedy"] + [f"level:{n}" for n in sorted(type(probe).levels)]
    found = []
    for name in names:
        try:
            bot = make_bot(name, 0)
            bot.check_game(probe.name)
        except ConfigError:
            continue
        if bot.core_policy(probe) is not None:
            found.append(name)
    return found


def _reward_scale(probe: Game, reward: Any, scale: Any) -> float:
    """The factor the core applies to each reward: ``reward_scale``, or for "utility_range"
    one over the largest magnitude of the returns' bounds (rewards then lie in [-1, 1])."""
    if reward not in REWARDS:
        raise ConfigError(f"reward must be one of {', '.join(REWARDS)}, not {echo(reward)}",
                          "reward")
    if scale == "utility_range":
        if reward != "returns":
            raise ConfigError("reward_scale='utility_range' scales reward='returns'; the win "
                              "reward already lies in [-1, 1]", "reward_scale")
        low, high = probe.utility_range
        largest = max(abs(low), abs(high))
        return 1.0 / largest if largest > 0 else 1.0
    if isinstance(scale, bool) or not isinstance(scale, (int, float)) \
            or not math.isfinite(scale) or scale <= 0:
        raise ConfigError(f"reward_scale must be a positive number or 'utility_range', not "
                          f"{echo(scale)}", "reward_scale")
    return float(scale)


def _observation_bounds(probe: Game, observation: Any
                        ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Per entry, the bounds of the raw observation (the game's ``observation_bounds_of``;
    +-inf where it declares none), checked finite when ``observation="scaled"``."""
    known = list(OBSERVATIONS) + list(probe.observation_variants)
    if not isinstance(observation, str) or observation not in known:
        raise ConfigError(f"observation must be one of {', '.join(known)} for {probe.name}, "
                          f"not {echo(observation)}", "observation")
    size = probe.observation_shape[0]
    low = np.full(size, -np.inf)
    high = np.full(size, np.inf)
    bounds = type(probe).observation_bounds_of(probe.num_players, probe.options)
    for piece, offset, length in probe.observation_pieces:
        if piece in bounds:
            low[offset:offset + length], high[offset:offset + length] = bounds[piece]
    if observation == "scaled":
        unbounded = [piece for piece, offset, length in probe.observation_pieces
                     if not (np.isfinite(low[offset:offset + length]).all()
                             and np.isfinite(high[offset:offset + length]).all())]
        if unbounded:
            raise ConfigError(f"observation='scaled': {probe.name} declares no bounds for "
                              f"{', '.join(unbounded[:5])} (Game.observation_bounds_of)",
                              "observation")
    return low, high


def first_found(indexes: list[int]) -> int:
    """The smallest game index of the slices' answers (-1: none found)."""
    found = [i for i in indexes if i >= 0]
    return min(found) if found else -1


class _Abandoned:
    """The core of a VectorGame whose step a policy callable broke off: every use raises."""

    def __init__(self, why: str) -> None:
        self.why = why

    def __getattr__(self, name: str) -> Any:
        raise RuntimeError(self.why)


class VectorGame:
    """``num_games`` games of one configuration, stepped together in C.

    ``learner_seats`` / ``opponents``: which seats the caller plays and which bots play the
    others inside the core, or which policies (``choose_many``) play them from Python (None / None:
    self-play; docs/rl.md, "VectorGame"). ``reward``
    ("returns" or "win") and ``reward_scale`` (a factor, or "utility_range": rewards in
    [-1, 1]) shape ``step``'s rewards; ``observation="scaled"`` maps every observation entry
    to [0, 1] (``observation_low`` / ``observation_high``), ``"information_state"`` gives
    each game's ``information_state_tensor`` (made in Python: slow), a game's own variant
    (``Game.observation_variants``, e.g. ``"openspiel"``) that slice of the
    observation; ``max_episode_actions`` cuts an
    episode as truncated (default: the game's ``max_game_length``). Other keywords are game
    options. A bad value is a ConfigError naming it.

    Thread-safe by serialisation: every public method (``legal_mask``, ``observations``,
    ``observations_all``, ``random_actions``, ``step``, ``current_player``, ``game``,
    ``episode_ids``, ``unplayed_episodes``, ``close``) holds this VectorGame's token for the whole call, so two
    threads never run its C loops at once and each call sees all games between two steps; a
    thread waiting for it can be interrupted (Ctrl-C). Between two calls another thread may
    step the games (the episode arrays are views that a step rewrites)."""

    def __init__(self, name: str, num_games: int, *, players: int | None = None, seed: int = 0,
                 threads: int = 1, learner_seats: int | Any = None, opponents: Any = None,
                 reward: str = "returns", reward_scale: float | str = 1.0,
                 observation: str = "raw", max_episode_actions: int | None = None,
                 **options: Any) -> None:
        if isinstance(num_games, bool) or not isinstance(num_games, int) or not 1 <= num_games <= 1 << 24:
            raise ConfigError(f"num_games must be an int 1..{1 << 24}, not {echo(num_games)}",
                              "num_games")
        if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= 256:
            raise ConfigError(f"threads must be an int 1..256, not {echo(threads)}", "threads")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ConfigError(f"seed must be a non-negative int, not {echo(seed)}", "seed")
        self._cls = game_class(name)
        probe: Game = self._cls(players=players, seed=0, **options)   # checks every option
        learners, policies = _seats(probe, learner_seats, opponents)
        scale = _reward_scale(probe, reward, reward_scale)
        low, high = _observation_bounds(probe, observation)
        if max_episode_actions is None:
            max_log = probe.max_game_length
        elif is_int(max_episode_actions) and max_episode_actions >= 1:
            max_log = min(int(max_episode_actions), probe.max_game_length)
        else:
            raise ConfigError(f"max_episode_actions must be a positive int or None, not "
                              f"{echo(max_episode_actions)}", "max_episode_actions")
        self.name = name
        self.num_games = num_games
        self.num_players = probe.num_players
        self.options = dict(probe.options)
        self.seed = seed
        self.num_distinct_actions = probe.num_distinct_actions
        self.observation_shape: tuple[int] = probe.observation_shape
        self.learner_seats: tuple[int, ...] = tuple(p for p, mine in enumerate(learners) if mine)
        # Each seat's canonical bot spec, or the policy callable that plays it.
        self.opponents: dict[int, str | OpponentPolicy] = {
            p: spec.text if isinstance(spec, OutsideBot) else spec
            for p, (spec, _) in policies.items()}
        self.reward = reward
        self.reward_scale = scale
        self.observation = observation
        self.max_episode_actions = max_log
        # The core, or once a policy callable broke a step off, what refuses every call.
        self._core: VectorCore | _Abandoned
        if policies:
            kinds = [policies[p][1][0] if p in policies else 0 for p in range(self.num_players)]
            thresholds = [policies[p][1][1] if p in policies else 0
                          for p in range(self.num_players)]
            try:
                self._core = VectorCore(probe._make_state(None), num_games, seed,
                                        max_log=max_log, learners=learners, kinds=kinds,
                                        thresholds=thresholds)
            except NoLearnerTurn as e:
                raise self._no_learner_turn(e, max_episode_actions, max_log) from None
        else:
            self._core = VectorCore(probe._make_state(None), num_games, seed, max_log=max_log)
        size = self._raw_size = self.observation_shape[0]     # the core's rows
        self._episode_returns = np.zeros((num_games, self.num_players), np.float64)
        self._episode_lengths = np.zeros(num_games, np.int64)
        self._episode_actions = np.zeros(num_games, np.int64)
        self._final_observations = np.zeros((num_games, size), np.float32)
        self._final_masks = np.zeros((num_games, self.num_distinct_actions), _BOOL)
        scaling: tuple[Any, Any] = (None, None)
        if observation == "scaled":
            span = (high - low).astype(np.float32)
            scaling = (low.astype(np.float32),
                       np.where(span > 0, 1.0 / np.where(span > 0, span, 1), 0).astype(np.float32))
            low, high = np.zeros(size, np.float32), np.ones(size, np.float32)
        # Observations made outside the core (cardcore.vector_views), or None: the core's.
        self._view: ObservationView | None = None
        if observation == "information_state":
            self._view = InformationStates(probe, self._core, num_games, seed, low, high)
        elif observation not in OBSERVATIONS:
            offset, length = type(probe).observation_variants_of(
                self.num_players, self.options)[observation]
            self._view = ObservationVariant(offset, length, low, high)
        if self._view is not None:
            low, high = self._view.low.astype(np.float64), self._view.high.astype(np.float64)
            self.observation_shape = self._view.shape
            self._view_finals = np.zeros((num_games, *self.observation_shape), np.float32)
        self.observation_low: npt.NDArray[np.float32] = _read_only(low.astype(np.float32))
        self.observation_high: npt.NDArray[np.float32] = _read_only(high.astype(np.float32))
        self._core.configure_episodes(
            _REWARD_CODES[reward], scale, type(probe).sides_of(self.num_players, self.options),
            self._episode_returns, self._episode_lengths, self._episode_actions,
            self._final_observations, self._final_masks.view(np.uint8), *scaling)
        self._truncated = np.zeros(num_games, _BOOL)
        self._tokens: list[bool] = [True]   # serialises the public methods (module docstring)
        self._players = np.empty(num_games, dtype=np.int32)
        self._mask_shape = (num_games, self.num_distinct_actions)
        self._own_mask: npt.NDArray[np.bool_] | None = None   # legal_mask()'s latest array ...
        self._own_view: npt.NDArray[np.bool_] | None = None   # ... and its read-only view
        self._rewards_shape = (num_games, self.num_players)
        self.threads = min(threads, num_games)
        bounds = [num_games * k // self.threads for k in range(self.threads + 1)]
        self._slices = list(zip(bounds[:-1], bounds[1:]))
        self._pool = ThreadPoolExecutor(self.threads) if self.threads > 1 else None
        self._choosers = [Random(episode_seed(seed, k, 1 << 40)) for k in range(self.threads)]
        # Policy opponents: each callable once, with the seats it plays (one call per round).
        groups: dict[int, tuple[BatchPolicy | OutsideBot, list[int]]] = {}
        for p, (spec, _) in policies.items():
            if isinstance(spec, OutsideBot) or (not isinstance(spec, str) and is_policy(spec)):
                if id(spec) not in groups:      # one adapter (and one warning) per object
                    runner = spec if isinstance(spec, OutsideBot) \
                        else batch_policy(spec, "opponents")
                    groups[id(spec)] = (runner, [])  # type: ignore[assignment]
                groups[id(spec)][1].append(p)
        # OutsideBot's games, per slot: (episode, the game, actions applied to it)
        self._slot_games: dict[int, tuple[int, Game, int]] = {}
        self._outside = [(policy, np.array(seats, np.int64)) for policy, seats in groups.values()]
        self._asking: int | None = None       # the thread inside a policy callable
        if self._outside:
            self._pending = np.empty(num_games, np.int32)
            # A round's masks and seats, and the next round's written as it is played: two
            # buffers in turn, made once rather than each round (Decisions' arrays are the
            # caller's: a policy copies what it keeps), and the answers' buffer. They hold
            # two legal_mask outputs' worth for the VectorGame's life.
            width = self.num_distinct_actions
            self._round_buffers = [(np.empty((num_games, width), _BOOL),
                                    np.empty(num_games, _INT64)) for _ in range(2)]
            self._answers = np.empty(num_games, _INT64)
            try:            # the deals may begin at a policy seat: play it to a learner's turn
                self._play_outside(np.empty(self._rewards_shape, _FLOAT32),
                                   np.empty(num_games, _BOOL), np.empty(num_games, _BOOL))
            except NoLearnerTurn as e:
                raise self._no_learner_turn(e, max_episode_actions, max_log) from None

    @staticmethod
    def _no_learner_turn(e: Exception, max_episode_actions: Any, max_log: int) -> ConfigError:
        option = "opponents" if max_episode_actions is None else "max_episode_actions"
        return ConfigError(f"{option}: {e} (the opponents end or, with "
                           f"max_episode_actions={max_log}, outlast every episode)", option)

    def _hold(self) -> bool:
        """Take the VectorGame's one token (a list of one, as Game's guard: list.pop and
        list.append are atomic and cost a fraction of a threading.Lock per call); while
        another thread holds it, wait in sleeps of up to a millisecond (Ctrl-C can reach
        the waiting thread)."""
        delay = 0.0
        while True:
            try:
                return self._tokens.pop()
            except IndexError:
                if self._asking == threading.get_ident():
                    raise RuntimeError("an opponents callable may not call its own VectorGame "
                                       "(it is inside that VectorGame's step)") from None
                time.sleep(delay)
                delay = min(1e-3, 2 * delay + 1e-5)

    def _each_slice(self, work: Callable[[int, int], Any]) -> list[Any]:
        """Run ``work(lo, hi)`` on every slice: on the pool's threads when threads > 1, one
        after another on this thread once ``close()`` stopped them (the same results)."""
        if self._pool is None:
            if self.threads == 1:
                return [work(0, self.num_games)]
            return [work(lo, hi) for lo, hi in self._slices]
        return list(self._pool.map(lambda bounds: work(*bounds), self._slices))

    @property
    def current_player(self) -> npt.NDArray[np.int32]:
        """The seat to move in every game (games restart at once, so there always is one)."""
        token = self._hold()
        try:
            self._core.current_player(self._players, 0, self.num_games)
            players: npt.NDArray[np.int32] = self._players.copy()
        finally:
            self._tokens.append(token)
        return players

    def legal_mask(self, out: npt.NDArray[np.bool_] | None = None) -> npt.NDArray[np.bool_]:
        """(num_games, num_distinct_actions) bool: the legal actions of every game.

        Without ``out``: a new **read-only** array. Given back as ``out`` (the array the
        latest such call returned), it is updated in place, and cheaply: nobody else can have
        written it, so a wide row (thousands of ids, a handful legal) has only the entries set
        last time cleared. Any other ``out`` must be a writeable bool array of the right shape; it is
        written whole. (To change a mask, work on a copy.)"""
        tokens = self._tokens               # the uncontended case inlined: hot path
        try:
            token = tokens.pop()
        except IndexError:
            token = self._hold()
        try:
            trusted = out is not None and out is self._own_view
            target: npt.NDArray[np.bool_]
            if out is None:
                target = np.empty(self._mask_shape, _BOOL)
            elif trusted and self._own_mask is not None:
                target = self._own_mask
            else:
                if not isinstance(out, np.ndarray) or (out.dtype is not _BOOL
                                                       and out.dtype != _BOOL):
                    raise ValueError("out must be a numpy bool array")
                if out.shape != self._mask_shape:
                    raise ValueError(f"out must be ({self.num_games}, "
                                     f"{self.num_distinct_actions})")
                if not out.flags.writeable:
                    raise ValueError("out is read-only: pass the array the latest legal_mask() "
                                     "returned, or a writeable array")
                target = out
            width = self.num_distinct_actions
            if self._pool is None:
                bad = self._core.legal_mask(target, width, 0, self.num_games, trusted)
            else:
                reusable = self._core.mask_rows_reusable(target, width, trusted)
                bad = first_found(self._each_slice(
                    lambda lo, hi: self._core.legal_mask(target, width, lo, hi, trusted,
                                                         reusable)))
            if bad >= 0:
                raise RuntimeError(f"game {bad}: more legal actions than the game's bound")
            if out is not None:
                return out
            view: npt.NDArray[np.bool_] = target.view()   # the caller's handle: read-only
            view.flags.writeable = False
            self._own_mask, self._own_view = target, view
            return view
        finally:
            tokens.append(token)

    def observations(self, out: npt.NDArray[np.float32] | None = None,
                     seat: int | None = None) -> npt.NDArray[np.float32]:
        """(num_games, *observation_shape) float32: each game seen by its player to move, or,
        with ``seat``, every game seen by that seat (``observation_tensor(seat)``; scaled with
        ``observation="scaled"``). ``out``: a C-contiguous float32 array of that shape, in
        native byte order."""
        if seat is not None and (not is_int(seat) or not 0 <= seat < self.num_players):
            raise ValueError(f"seat must be 0..{self.num_players - 1} or None, not {echo(seat)}")
        if out is None:
            out = np.empty((self.num_games, *self.observation_shape), dtype=np.float32)
        tokens = self._tokens               # the uncontended case inlined: hot path
        try:
            token = tokens.pop()
        except IndexError:
            token = self._hold()
        try:
            if self._view is not None:
                self._view_rows(out, seat)
            elif seat is None:
                self._each_slice(lambda lo, hi: self._core.observations(out, lo, hi))
            else:
                self._each_slice(lambda lo, hi: self._core.observations_of(out, int(seat), lo, hi))
        finally:
            tokens.append(token)
        return out

    def _view_rows(self, out: npt.NDArray[np.float32], seat: int | None) -> None:
        """``observations`` of a view (cardcore.vector_views), every game seen by ``seat``
        or by its player to move."""
        view = self._view
        assert view is not None
        shape = (self.num_games, *self.observation_shape)
        if not isinstance(out, np.ndarray) or out.shape != shape or out.dtype != np.float32 \
                or not out.flags.c_contiguous or not out.flags.writeable:
            raise ValueError(f"out must be a writeable C-contiguous float32 array of shape {shape}")
        raw = None
        if view.needs_raw:
            raw = np.empty((self.num_games, self._raw_size), np.float32)
            if seat is None:
                self._each_slice(lambda lo, hi: self._core.observations(raw, lo, hi))
            else:
                self._each_slice(lambda lo, hi: self._core.observations_of(raw, int(seat), lo, hi))
        if seat is None:
            self._core.current_player(self._players, 0, self.num_games)
            seats = self._players
        else:
            seats = np.full(self.num_games, int(seat), np.int32)
        view.rows(np.arange(self.num_games), seats, raw, out)

    def observations_all(self, out: npt.NDArray[np.float32] | None = None
                         ) -> npt.NDArray[np.float32]:
        """(num_games, num_players, *observation_shape) float32: every game seen by every seat
        (``[i, p]`` is game i's ``observation_tensor(p)``), written in one C loop; for a
        centralised critic. ``out``: a C-contiguous float32 array of that shape."""
        shape = (self.num_games, self.num_players, *self.observation_shape)
        if out is None:
            out = np.empty(shape, dtype=np.float32)
        elif not isinstance(out, np.ndarray) or out.shape != shape or out.dtype != np.float32 \
                or not out.flags.c_contiguous or not out.flags.writeable:
            raise ValueError(f"out must be a writeable C-contiguous float32 array of shape {shape}")
        flat = out.reshape(self.num_games, -1)              # a view: out is C-contiguous
        token = self._hold()
        try:
            if self._view is not None:
                row = np.empty((self.num_games, *self.observation_shape), np.float32)
                for p in range(self.num_players):
                    self._view_rows(row, p)
                    out[:, p] = row
            else:
                self._each_slice(lambda lo, hi: self._core.observations_all(flat, lo, hi))
        finally:
            self._tokens.append(token)
        return out

    def random_actions(self) -> npt.NDArray[np.int64]:
        """A uniformly random legal action id for every game, drawn in C from this
        VectorGame's own generator (seeded from ``seed``; one stream per thread slice)."""
        out = np.empty(self.num_games, dtype=np.int64)
        tokens = self._tokens               # the uncontended case inlined: hot path
        try:
            token = tokens.pop()
        except IndexError:
            token = self._hold()
        try:
            self._each_slice(lambda lo, hi: self._core.random_actions(
                out, lo, hi, self._choosers[self._slices.index((lo, hi))]))
        finally:
            tokens.append(token)
        return out

    def step(self, actions: Any) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Apply one action id per game (the learner's, at the seat to move), then the
        in-core opponents' moves until a learner seat is to move again. Returns (rewards,
        done): rewards (num_games, num_players) are, for the episodes that ended during this
        step, the ``reward`` rule of their ``returns()`` times ``reward_scale`` (0 for a
        truncated episode and in every other game); done marks those games, which have
        already restarted (``truncated``, ``episode_returns``, ``episode_lengths``,
        ``final_observations``, ``final_masks`` describe the finished episodes). An illegal
        id in any game raises IllegalActionError naming the game, and no game changes."""
        tokens = self._tokens               # the uncontended case inlined: hot path
        try:
            token = tokens.pop()
        except IndexError:
            token = self._hold()
        try:
            rewards = np.empty(self._rewards_shape, _FLOAT32)
            done = np.empty(self.num_games, _BOOL)
            cut = np.empty(self.num_games, _BOOL)
            core = self._core
            if self._view is not None:          # the seats whose step may end an episode
                movers = np.empty(self.num_games, np.int32)
                core.current_player(movers, 0, self.num_games)
            if self.threads == 1:
                if type(actions) is np.ndarray and actions.dtype is _INT64 and actions.ndim == 1:
                    try:           # the core checks the length and the layout
                        bad = core.step(actions, rewards, done, 0, self.num_games, cut)
                    except ValueError:
                        actions = self._action_ids(actions)     # raises IllegalActionError
                        bad = core.step(actions, rewards, done, 0, self.num_games, cut)
                else:
                    actions = self._action_ids(actions)
                    bad = core.step(actions, rewards, done, 0, self.num_games, cut)
            else:          # every slice is checked before any is applied
                ids = actions = self._action_ids(actions)
                bad = first_found(self._each_slice(lambda lo, hi: core.validate(ids, lo, hi)))
                if bad < 0:
                    bad = first_found(self._each_slice(
                        lambda lo, hi: core.step(ids, rewards, done, lo, hi, cut)))
            if bad >= 0:
                self._raise_illegal(bad, int(actions[bad]))
            if self._outside:
                self._play_outside(rewards, done, cut)
            if self._view is not None and done.any():
                self._view.finals(done, movers, self._final_observations, self._view_finals)
            self._truncated = cut
            return rewards, done
        finally:
            tokens.append(token)

    @property
    def truncated(self) -> npt.NDArray[np.bool_]:
        """(num_games,) bool: the games whose episode the latest ``step`` ended by truncation
        (``max_episode_actions`` actions without an end; ``done`` is set there too, the
        reward is 0). All False before the first step."""
        return self._truncated

    @property
    def episode_returns(self) -> npt.NDArray[np.float64]:
        """(num_games, num_players) float64, read-only: per slot, the game's own ``returns()``
        of its latest finished episode (before ``reward`` and ``reward_scale``; for a
        truncated one the standing when it was cut). Rows change only where ``done``; 0 until
        a slot's first episode ends. A view, rewritten by later steps: copy to keep."""
        return _read_only(self._episode_returns)

    @property
    def episode_lengths(self) -> npt.NDArray[np.int64]:
        """(num_games,) int64, read-only: per slot, the learner steps (``step`` calls) of its
        latest finished episode; ``episode_actions`` counts every seat's actions."""
        return _read_only(self._episode_lengths)

    @property
    def episode_actions(self) -> npt.NDArray[np.int64]:
        """(num_games,) int64, read-only: per slot, every seat's actions in its latest
        finished episode (learner and opponents: ``len(game.action_log())``)."""
        return _read_only(self._episode_actions)

    @property
    def episode_ids(self) -> npt.NDArray[np.int64]:
        """(num_games,) int64: the episode each slot is playing now, k = 0, 1, ... (dealt with
        ``episode_seed(seed, i, k)``; unplayed episodes are counted too). A slot whose
        ``done`` is set has moved on to a new id. A new array per call."""
        return self._per_slot(self._core.episode_ids)

    @property
    def unplayed_episodes(self) -> npt.NDArray[np.int64]:
        """(num_games,) int64, read-only: per slot, the episodes that ended on the opponents'
        moves before any learner seat moved (the constructor's deals included). They are
        never reported by ``step`` (no done, no reward): the slot deals the next episode at
        once. Count them as played when judging a win rate. A new array per call."""
        return self._per_slot(self._core.unplayed_episodes)

    def _per_slot(self, fill: Callable[[npt.NDArray[np.int64]], None]
                  ) -> npt.NDArray[np.int64]:
        """A new int64 per slot, written by the core's ``fill`` under the token."""
        out = np.empty(self.num_games, np.int64)
        token = self._hold()
        try:
            fill(out)
        finally:
            self._tokens.append(token)
        return out

    @property
    def final_observations(self) -> npt.NDArray[np.float32]:
        """(num_games, *observation_shape) float32, read-only: per slot, the final state of
        its latest finished episode seen by the seat whose ``step`` action ended it (the
        learner's last transition's next observation). Rows change only where ``done``."""
        if self._view is not None:
            return _read_only(self._view_finals)
        return _read_only(self._final_observations)

    @property
    def final_masks(self) -> npt.NDArray[np.bool_]:
        """(num_games, num_distinct_actions) bool, read-only: that seat's legal actions in the
        final state: none when the episode ended, those it has when truncated at its turn."""
        return _read_only(self._final_masks)

    def _play_outside(self, rewards: npt.NDArray[np.float32], done: npt.NDArray[np.bool_],
                      cut: npt.NDArray[np.bool_]) -> None:
        """Ask the policies for the slots where their seats are to move, play their answers
        (and the in-core opponents after them), round after round, until every slot is at a
        learner's turn: one call per round, as many rounds as the longest run of policy
        decisions in one game between two learner moves (each needs the one before it
        played). Any failure breaks the step off: the core is set aside."""
        core, pending = self._core, self._pending
        size = self._raw_size
        done8, cut8 = done.view(np.uint8), cut.view(np.uint8)
        (now_masks, now_seats), (next_masks, next_seats) = self._round_buffers
        try:
            k = core.external_pending(pending)
            if not k:
                return
            slots, masks, seats = pending[:k], now_masks[:k], now_seats[:k]
            if core.external_inputs(slots, _NO_ROWS, masks.view(np.uint8), seats) >= 0:
                raise RuntimeError("a game offered an action id past num_distinct_actions")
            while True:
                actions = self._ask(self._observer(slots, seats, size), masks, seats, slots)
                # the next round's masks and seats are written as this one is played
                kept = core.external_round(slots, actions, rewards, done8, cut8,
                                           next_masks.view(np.uint8), next_seats)
                if kept < 0:
                    bad = -1 - kept
                    self._raise_policy_illegal(int(slots[bad]), int(seats[bad]),
                                               int(actions[bad]))
                if not kept:
                    return
                k = kept
                now_masks, now_seats, next_masks, next_seats = \
                    next_masks, next_seats, now_masks, now_seats
                slots, masks, seats = pending[:k], now_masks[:k], now_seats[:k]
        except BaseException as e:
            self._abandon(e)
            raise

    def _observer(self, slots: npt.NDArray[np.int32], seats: npt.NDArray[np.int64],
                  size: int) -> Callable[[npt.NDArray[np.intp] | None],
                                         npt.NDArray[np.float32]]:
        """``observe(rows)``: the observations of those rows of this round's ``slots`` (all
        with None), made when a policy first reads them (the games unchanged till then)."""
        def observe(rows: npt.NDArray[np.intp] | None) -> npt.NDArray[np.float32]:
            mine = slots if rows is None else slots[rows]
            obs = np.empty((len(mine), size), _FLOAT32)
            self._core.external_observations(mine, obs)
            if self._view is None:
                return obs
            seen = np.empty((len(mine), *self.observation_shape), _FLOAT32)
            self._view.rows(mine, seats if rows is None else seats[rows], obs, seen)
            return seen     # the policy sees what the learner sees
        return observe

    def _ask(self, observe: Callable[[npt.NDArray[np.intp] | None], npt.NDArray[np.float32]],
             masks: npt.NDArray[np.bool_], seats: npt.NDArray[np.int64],
             slots: npt.NDArray[np.int32]) -> npt.NDArray[np.int64]:
        """Every policy's answers for its slots of this round, as one int64 array."""
        k = len(seats)
        whole = len(self._outside) == 1
        actions = self._answers[:k]
        for policy, mine in self._outside:
            rows = None if whole else np.flatnonzero(np.isin(seats, mine))
            if rows is not None and not len(rows):
                continue
            mover = seats if rows is None else seats[rows]
            if isinstance(policy, OutsideBot):
                answer = policy.choose(self, slots if rows is None else slots[rows], mover)
            else:
                decisions = Decisions(None, masks if rows is None else masks[rows], mover,
                                      self.name, functools.partial(observe, rows))
                self._asking = threading.get_ident()
                try:
                    answer = policy.choose_many(decisions)
                finally:
                    self._asking = None
                    decisions.close()
            expected = len(mover)
            ids = np.asarray(answer)
            if ids.dtype.kind not in "iu" or ids.shape != (expected,):
                raise ValueError(f"opponents: the policy of seats {mine.tolist()} must return "
                                 f"{expected} integer action ids (shape ({expected},)), not "
                                 f"{ids.dtype} of shape {ids.shape}")
            if rows is None:
                actions[:] = ids
            else:
                actions[rows] = ids
        return actions

    def _raise_policy_illegal(self, slot: int, seat: int, action: int) -> None:
        """IllegalActionError for a policy callable's action: the slot, seat, action and the
        game's own explanation (the rule)."""
        rule = None
        why = "not legal now"
        if 0 <= action < 1 << 31:
            try:
                self._game(slot).apply(action)
            except IllegalActionError as e:
                why, rule = str(e), e.rule
        error = IllegalActionError(f"opponents: game {slot}, seat {seat}: the policy's action "
                                   f"{action}: {why}")
        error.rule = rule
        raise error

    def _abandon(self, cause: BaseException) -> None:
        """Set the core aside after a policy callable broke a step off half-way (the
        information states' shadows read it too)."""
        self._core = _Abandoned(
            f"this VectorGame's step was broken off by an opponents callable "
            f"({type(cause).__name__}: {echo(str(cause))}); its games stand half-way through "
            f"that step: make a new VectorGame (make_vec: reset())")
        if isinstance(self._view, InformationStates):
            self._view.core = self._core

    def _action_ids(self, actions: Any) -> npt.NDArray[np.int64]:
        """``actions`` as a C-contiguous int64 array of one id per game, or
        IllegalActionError."""
        ids = np.asarray(actions)
        if ids.dtype.kind not in "iu":
            raise IllegalActionError(f"actions must be integer ids, not {ids.dtype}")
        if ids.shape != (self.num_games,):
            raise IllegalActionError(f"actions must be {self.num_games} ids, not shape {ids.shape}")
        contiguous: npt.NDArray[np.int64] = np.ascontiguousarray(ids, dtype=np.int64)
        return contiguous

    def _raise_illegal(self, index: int, action: int) -> None:
        """IllegalActionError naming the game and the rule (the game's own explanation)."""
        try:
            self._game(index).apply(action)
        except IllegalActionError as e:
            error = IllegalActionError(f"game {index}: {e}")     # e's text names the rule
            error.rule = e.rule
            raise error from None
        raise RuntimeError(f"game {index}: action {action} was refused in the batch but is legal")

    def game(self, i: int) -> Game:
        """Game slot ``i``'s current episode as an ordinary Game (rebuilt from its seed and
        its actions, so it saves, loads and shows history like any game)."""
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < self.num_games:
            raise IndexError(f"game index must be 0..{self.num_games - 1}, not {echo(i)}")
        token = self._hold()
        try:
            return self._game(int(i))
        finally:
            self._tokens.append(token)

    def _slot_game(self, i: int) -> Game:
        """Slot ``i``'s game for an ``OutsideBot``: kept between calls and brought up to the
        core's log (a new episode: dealt anew)."""
        episode, log = self._core.game_record(i)
        held = self._slot_games.get(i)
        if held is None or held[0] != episode or held[2] > len(log):
            held = (episode, new_game(self.name, players=self.num_players,
                                      seed=episode_seed(self.seed, i, episode), **self.options), 0)
        game = held[1]
        for action in log[held[2]:]:
            game.apply(action)
        self._slot_games[i] = (episode, game, len(log))
        return game

    def _game(self, i: int) -> Game:
        episode, log = self._core.game_record(i)
        game = new_game(self.name, players=self.num_players,
                        seed=episode_seed(self.seed, i, episode), **self.options)
        for action in log:
            game.apply(action)
        return game

    def close(self) -> None:
        """Stop the worker threads (also done when the VectorGame is collected). The
        VectorGame goes on working, its slices stepped one after another on the calling
        thread, with the same results."""
        pool = getattr(self, "_pool", None)       # None too when __init__ refused its arguments
        if pool is not None:
            token = self._hold()
            try:
                pool.shutdown()
                self._pool = None
            finally:
                self._tokens.append(token)

    def __del__(self) -> None:
        self.close()

    def __repr__(self) -> str:
        return (f"<VectorGame {self.name} x{self.num_games}, {self.num_players} players, "
                f"{self.threads} thread(s)>")
