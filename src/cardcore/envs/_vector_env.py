"""A Gymnasium ``VectorEnv`` over :class:`~cardcore.vector.VectorGame` (``make_vec``).

One learning seat in every game, the other seats played by in-core bots between its steps, so
the whole batch is stepped by a few C calls per ``step`` and no Python per game. A game that
ends restarts inside the same ``step`` (Gymnasium's ``AutoresetMode.SAME_STEP``): the returned
observation is the new episode's first, and the finished one's last observation, mask,
returns and winners are in ``info["final_obs"]`` / ``info["final_info"]``.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Union

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from cardcore.envs._common import draw_seed
from cardcore.errors import ConfigError, echo
from cardcore.game import is_int
from cardcore.policy import BatchPolicy
from cardcore.vector import OpponentPolicy, VectorGame

__all__ = ["CardcoreVectorEnv", "make_vec"]

Obs = npt.NDArray[np.float32]
# A bot spec or a batched policy (cardcore.policy; deprecated: a callable), for every other
# seat, per seat, or in seat order.
Opponent = Union[str, BatchPolicy, OpponentPolicy]
Opponents = Union[Opponent, Mapping[int, Opponent], Sequence[Opponent]]
# Options of the single environment that the batched one cannot honour (Python per move).
SINGLE_ONLY = ("render_mode", "reward_shaping", "illegal_action")


class CardcoreVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games of ``name`` seen by ``seat``; the other seats are ``opponents``
    played inside the core (``"greedy"``, ``"random"``, ``"level:N"``: the in-core bots; a
    search level or ``"ismcts"`` plays outside it, slower; or ``{seat: spec}``, or one spec
    per other seat in seat order), or by a batched policy with ``choose_many(decisions)``
    (cardcore.policy; VectorGame's policy opponents; for self-play, a frozen copy of the
    learner's policy: docs/rl.md, "Self-play").

    - ``step(actions)`` → ``(obs, reward, terminated, truncated, info)``: ``obs`` (n, size)
      float32, ``reward`` (n,) float64 = VectorGame's reward of ``seat`` (``reward="returns"``:
      its returns when the match ends, ``"win"``: 1 / -1 / 0, shared wins split; 0 before),
      ``truncated`` by ``max_episode_actions``.
    - ``info["action_mask"]`` (n, num_actions) bool, the legal actions of the new
      observation; ``action_masks()`` returns the same (sb3-contrib's method name).
    - Where an episode ended (``info["_final_obs"]``): ``info["final_obs"][i]`` its last
      observation (an object array of rows, None elsewhere, as in Gymnasium's
      ``SyncVectorEnv``), ``info["final_info"]`` with ``returns`` (n, players) float64 (the game's
      own ``returns()``), ``winners`` (n, players) bool (the seats with the best returns:
      ``game.winners``; none for a truncated episode), ``action_mask`` (the final state's,
      all False at the end of a match) and ``episode_length`` (the learner's steps), each
      with its ``_key`` mask = the finished games.
    - ``reset(seed=s)`` deals new games everywhere, every episode's seed drawn from ``s``
      (the same seed and actions give the same trajectories); ``options`` are ignored.
    - ``copy=True`` (default) returns new observation and mask arrays every step;
      ``copy=False`` the same buffers, rewritten by the next step (copy what you keep).
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, name: str, num_envs: int, *, players: int | None = None,
                 seat: int | str = 0, opponents: Opponents = "greedy",
                 reward: str = "returns", copy: bool = True, threads: int = 1,
                 **options: Any) -> None:
        single = [key for key in SINGLE_ONLY if key in options]
        if single:
            raise ConfigError(f"{single[0]}: an option of the single environment (CardcoreEnv); "
                              f"for it use gymnasium.make_vec(..., vectorization_mode='sync')",
                              single[0])
        if seat == "random":
            raise ConfigError("seat='random' is for the single environment; a VectorGame's "
                              "learning seat is fixed: give a seat number", "seat")
        if not isinstance(seat, int) or not is_int(seat) or seat < 0:
            raise ConfigError(f"seat must be a seat number, not {echo(seat)}", "seat")
        self._config: dict[str, Any] = dict(
            players=players, threads=threads, learner_seats=int(seat), reward=reward,
            **options)
        probe = VectorGame(name, 1, **self._config, opponents="random")   # checks it all
        self._config["opponents"] = _opponent_map(opponents, int(seat), probe.num_players)
        self._config["players"] = probe.num_players
        self.name = name
        self.seat = int(seat)
        self.num_envs = num_envs
        self.copy = copy
        self._vg = VectorGame(name, num_envs, seed=0, **self._config)
        self.num_players = self._vg.num_players
        self.opponents = self._vg.opponents
        # Raw observations state no bounds (as the single environment's); scaled: [0, 1].
        scaled = self._vg.observation == "scaled"
        self.single_observation_space = spaces.Box(
            self._vg.observation_low if scaled else -np.inf,
            self._vg.observation_high if scaled else np.inf, self._vg.observation_shape,
            np.float32)
        self.single_action_space = spaces.Discrete(self._vg.num_distinct_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._obs = np.empty((num_envs, *self._vg.observation_shape), np.float32)
        self._mask: npt.NDArray[np.bool_] | None = None
        self._all = np.ones(num_envs, np.bool_)
        self._started = False

    @property
    def vector_game(self) -> VectorGame:
        """The VectorGame behind the environment (a new one at every reset)."""
        return self._vg

    def reset(self, *, seed: int | list[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        """New games in every slot, dealt from ``seed`` (an int; the generator goes on
        without one)."""
        if isinstance(seed, list):
            raise ConfigError("reset(seed=...): one int for the whole batch (every game's seed "
                              "is drawn from it), not a list", "seed")
        super().reset(seed=seed)
        self._vg.close()
        self._vg = VectorGame(self.name, self.num_envs, seed=draw_seed(self.np_random),
                              **self._config)
        self._mask = None
        self._started = True
        obs, mask = self._observe()
        return obs, {"action_mask": mask, "_action_mask": self._all}

    def step(self, actions: Any) -> tuple[Obs, npt.NDArray[np.float64], npt.NDArray[np.bool_],
                                          npt.NDArray[np.bool_], dict[str, Any]]:
        """One learner action per game (an illegal id raises IllegalActionError, nothing
        changes); the opponents then move in C until the learner's next turn."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        vg = self._vg
        rewards, done = vg.step(actions)
        reward = rewards[:, self.seat].astype(np.float64)
        truncated = vg.truncated.copy()
        terminated = done & ~truncated
        obs, mask = self._observe()
        info: dict[str, Any] = {"action_mask": mask, "_action_mask": self._all}
        if done.any():
            info.update(self._final_info(vg, done, truncated))
        return obs, reward, terminated, truncated, info

    def _observe(self) -> tuple[Obs, npt.NDArray[np.bool_]]:
        # copy=True: new arrays written whole in C (cheaper than writing in place and
        # copying); copy=False: the same buffers, the mask's updated where it changed.
        if self.copy:
            self._mask = self._vg.legal_mask()
            return self._vg.observations(), self._mask
        self._mask = self._vg.legal_mask(self._mask)
        return self._vg.observations(self._obs), self._mask

    @staticmethod
    def _final_info(vg: VectorGame, done: npt.NDArray[np.bool_],
                    truncated: npt.NDArray[np.bool_]) -> dict[str, Any]:
        # Only the finished rows are copied (a few per step in a large batch), the others
        # left zero; final_obs is an object array of rows, as Gymnasium's SyncVectorEnv
        # gives it (and no (n, size) array to zero every step).
        rows = np.flatnonzero(done)
        final_obs = np.full(len(done), None, dtype=object)
        block = vg.final_observations[rows]                    # one copy of those rows
        for j, i in enumerate(rows):
            final_obs[i] = block[j]

        def finished(source: npt.NDArray[Any]) -> npt.NDArray[Any]:
            out = np.zeros(source.shape, source.dtype)
            out[rows] = source[rows]
            return out
        returns = finished(vg.episode_returns)
        winners = (returns == returns.max(axis=1, keepdims=True)) & (done & ~truncated)[:, None]
        final = {"returns": returns, "winners": winners,
                 "action_mask": finished(vg.final_masks),
                 "episode_length": finished(vg.episode_lengths)}
        final.update({"_" + key: done for key in list(final)})
        return {"final_obs": final_obs, "_final_obs": done,
                "final_info": final, "_final_info": done}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """(num_envs, num_actions) bool, read-only: the legal actions now (sb3-contrib's
        name; the array ``info["action_mask"]`` holds)."""
        if self._mask is None:
            raise RuntimeError("call reset() first")
        return self._mask

    def close_extras(self, **kwargs: Any) -> None:
        self._vg.close()

    def __repr__(self) -> str:
        return (f"CardcoreVectorEnv({self.name!r}, {self.num_envs}, seat={self.seat}, "
                f"opponents={self.opponents})")


def _opponent_map(opponents: Opponents, seat: int, players: int) -> Any:
    """VectorGame's ``opponents``: one spec or policy, ``{seat: spec}``, or from a list given
    like the single environment's (one spec per other seat, in seat order). VectorGame
    judges every other value (a ConfigError naming ``opponents``)."""
    if opponents is None:
        raise ConfigError("opponents: make_vec needs a player for every other seat: a bot "
                          "spec such as 'greedy', {seat: spec}, one per other seat, or a "
                          "policy with choose_many(decisions)",
                          "opponents")
    if isinstance(opponents, Mapping):
        return dict(opponents)
    if isinstance(opponents, str) or not isinstance(opponents, Sequence):
        return opponents
    others = [p for p in range(players) if p != seat]
    chosen = list(opponents)
    if len(chosen) != len(others):
        raise ConfigError(f"opponents: give one bot for each of the {len(others)} other "
                          f"seats {others}, not {len(chosen)}", "opponents")
    return dict(zip(others, chosen))


def make_vec(name: str, num_envs: int, players: int | None = None, seat: int = 0,
             opponents: Opponents = "greedy",
             reward: str = "returns", **options: Any) -> CardcoreVectorEnv:
    """A ``gymnasium.vector.VectorEnv`` of ``num_envs`` games over VectorGame (see
    :class:`CardcoreVectorEnv`); ``options``: ``observation="scaled"``, ``reward_scale``,
    ``max_episode_actions``, ``copy``, ``threads`` and the game's own options."""
    return CardcoreVectorEnv(name, num_envs, players=players, seat=seat, opponents=opponents,
                             reward=reward, **options)
