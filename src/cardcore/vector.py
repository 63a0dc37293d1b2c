"""Batched play: many games of one configuration stepped together in C (api.md, "Batched play").

``VectorGame(name, num_games, seed=0, threads=1, **options)`` keeps ``num_games`` games side by
side in one block of memory. Each call (``legal_mask``, ``observations``, ``step``) is one C loop
over all of them, without the GIL and without Python per game, writing into numpy arrays; with
``threads=k`` the games are split into ``k`` slices stepped on ``k`` threads at once.

Game slot ``i`` plays episodes 0, 1, 2, ... (a finished game restarts at once, inside ``step``);
episode ``k`` is ``new_game(name, seed=episode_seed(seed, i, k), ...)``, so ``vg.game(i)``
rebuilds it as an ordinary :class:`~cardcore.game.Game` from its seed and actions.

Threads: a VectorGame may be shared by threads, and its calls are serialised: each public
method holds the VectorGame's token for the whole call (its C loops and worker threads
included), so calls never overlap and each sees and leaves all games between two steps.
A sequence of calls is not one step: another thread may step in between (an action chosen
from an older mask is then refused with IllegalActionError, and nothing changes).
"""
from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

import numpy as np
import numpy.typing as npt

from cardcore._batch import VectorCore, episode_seed
from cardcore._fast import Random
from cardcore.errors import ConfigError, IllegalActionError, echo
from cardcore.game import Game
from cardcore.registry import game_class, new_game

__all__ = ["VectorGame", "episode_seed"]

_INT64 = np.dtype(np.int64)
_FLOAT32 = np.dtype(np.float32)
_BOOL = np.dtype(np.bool_)


def first_found(indexes: list[int]) -> int:
    """The smallest game index of the slices' answers (-1: none found)."""
    found = [i for i in indexes if i >= 0]
    return min(found) if found else -1


class VectorGame:
    """``num_games`` games of one configuration, stepped together in C.

    Thread-safe by serialisation: every public method (``legal_mask``, ``observations``,
    ``random_actions``, ``step``, ``current_player``, ``game``, ``close``) holds this
    VectorGame's token for the whole call, so two threads never run its C loops at once and
    each call sees all games between two steps; a thread waiting for it can be interrupted
    (Ctrl-C). Between two calls another thread may step the games."""

    def __init__(self, name: str, num_games: int, *, players: int | None = None, seed: int = 0,
                 threads: int = 1, **options: Any) -> None:
        if isinstance(num_games, bool) or not isinstance(num_games, int) or not 1 <= num_games <= 1 << 24:
            raise ConfigError(f"num_games must be an int 1..{1 << 24}, not {echo(num_games)}",
                              "num_games")
        if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= 256:
            raise ConfigError(f"threads must be an int 1..256, not {echo(threads)}", "threads")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ConfigError(f"seed must be a non-negative int, not {echo(seed)}", "seed")
        self._cls = game_class(name)
        probe: Game = self._cls(players=players, seed=0, **options)   # checks every option
        self.name = name
        self.num_games = num_games
        self.num_players = probe.num_players
        self.options = dict(probe.options)
        self.seed = seed
        self.num_distinct_actions = probe.num_distinct_actions
        self.observation_shape = probe.observation_shape
        self._core = VectorCore(probe._make_state(None), num_games, seed,
                                max_log=probe.max_game_length)
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

    def observations(self, out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        """(num_games, *observation_shape) float32: each game seen by its player to move.
        ``out``: a C-contiguous float32 array of that shape, in native byte order."""
        if out is None:
            out = np.empty((self.num_games, *self.observation_shape), dtype=np.float32)
        tokens = self._tokens               # the uncontended case inlined: hot path
        try:
            token = tokens.pop()
        except IndexError:
            token = self._hold()
        try:
            self._each_slice(lambda lo, hi: self._core.observations(out, lo, hi))
        finally:
            tokens.append(token)
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
        """Apply one action id per game. Returns (rewards, done): rewards (num_games,
        num_players) are the finished games' ``returns()`` (0 elsewhere); done marks the
        games that ended on this step and have already restarted. An illegal id in any game
        raises IllegalActionError naming the game, and no game changes."""
        tokens = self._tokens               # the uncontended case inlined: hot path
        try:
            token = tokens.pop()
        except IndexError:
            token = self._hold()
        try:
            rewards = np.empty(self._rewards_shape, _FLOAT32)
            done = np.empty(self.num_games, _BOOL)
            core = self._core
            if self.threads == 1:
                if type(actions) is np.ndarray and actions.dtype is _INT64 and actions.ndim == 1:
                    try:           # the core checks the length and the layout
                        bad = core.step(actions, rewards, done, 0, self.num_games)
                    except ValueError:
                        actions = self._action_ids(actions)     # raises IllegalActionError
                        bad = core.step(actions, rewards, done, 0, self.num_games)
                else:
                    actions = self._action_ids(actions)
                    bad = core.step(actions, rewards, done, 0, self.num_games)
            else:          # every slice is checked before any is applied
                ids = actions = self._action_ids(actions)
                bad = first_found(self._each_slice(lambda lo, hi: core.validate(ids, lo, hi)))
                if bad < 0:
                    bad = first_found(self._each_slice(
                        lambda lo, hi: core.step(ids, rewards, done, lo, hi)))
            if bad >= 0:
                self._raise_illegal(bad, int(actions[bad]))
            return rewards, done
        finally:
            tokens.append(token)

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
