"""PettingZoo AEC environments for every cardcore game (extra ``cardcore[rl]``).

>>> from cardcore.envs.pettingzoo import env
>>> e = env(name)                     # any name of cardcore.available_games()
>>> e.reset(seed=1)
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     action = None if terminated or truncated else int(obs["action_mask"].nonzero()[0][0])
...     e.step(action)

| | |
|---|---|
| agents | ``player_0`` … ``player_{n-1}`` (seat k is ``player_k``) |
| action space | ``Discrete(game.num_distinct_actions)``: the game's fixed action ids |
| observation | ``{"observation": game.observation_tensor(seat)`` (float32, the rulebook's
  "Observation" layout), ``"action_mask": int8`` (1 = legal; all 0 when it is not that seat's
  turn)``}`` |
| rewards | ``game.returns()`` when the match ends, 0 before; optional potential-based shaping
  (``reward_shaping=``, off by default) |
| render | ``render_mode="ansi"``: the text of the seat to move's view |

Illegal actions: ``env()`` ends the episode, the offender receiving ``utility_range[0]`` (the
worst return) and the others 0, and puts the id in the offender's ``infos[agent]
["illegal_action"]`` — the rule of PettingZoo's ``TerminateIllegalWrapper``; ``raw_env`` raises
``cardcore.IllegalActionError`` instead. Either way the game is unchanged. The checks are
built in rather than stacked as PettingZoo wrappers, whose per-attribute delegation costs
several times what a cardcore step does (benchmarks/README.md).

Version history: v0 — first version (cardcore 0.2).
"""
from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from cardcore.envs._common import (
    RENDER_MODES, probe_game,
    Potential, draw_seed, initial_potential, render_text, shaped_rewards,
)
from cardcore.errors import IllegalActionError
from cardcore.game import Game
from cardcore.registry import new_game

__all__ = ["env", "raw_env"]

ObsDict = dict[str, npt.NDArray[Any]]
ILLEGAL_POLICIES = ("raise", "terminate")


def env(name: str, **kwargs: Any) -> raw_env:
    """The AEC environment for the game ``name`` with illegal actions ending the episode
    (see the module docstring); ``kwargs`` are ``raw_env``'s: ``players``, ``render_mode``,
    ``reward_shaping`` and the game's options."""
    kwargs.setdefault("illegal_action", "terminate")
    return raw_env(name, **kwargs)


class raw_env(AECEnv[str, ObsDict, int]):  # type: ignore[misc]  # noqa: N801 (PettingZoo's name)
    """One cardcore match as a PettingZoo AEC environment; ``reset(seed=...)`` deals a new
    match (the same seed, the same match and, with the same actions, the same episode).

    ``reward_shaping``: None (default: rewards only at the end, ``returns()``), or a potential
    ``phi(game) -> [per seat]`` read through the public API; every step then also pays each
    seat ``phi(after) - phi(before)`` (``phi = 0`` at the end), which sums to ``-phi(start)``
    over an episode and leaves the best policies unchanged (potential-based shaping)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1, "name": "cardcore_v0",
                "is_parallelizable": False}

    def __init__(self, name: str, *, players: int | None = None, render_mode: str | None = None,
                 reward_shaping: Potential | None = None, illegal_action: str = "raise",
                 **options: Any) -> None:
        super().__init__()
        probe = probe_game(name, players, render_mode, illegal_action, ILLEGAL_POLICIES, options)
        self.name = name
        self.metadata = dict(self.metadata, name=f"cardcore_{name}_v0")
        self.render_mode = render_mode
        self.reward_shaping = reward_shaping
        self.illegal_action = illegal_action
        self._players = probe.num_players
        self._options = dict(options)
        self.utility_range = probe.utility_range
        self.possible_agents = [f"player_{seat}" for seat in range(probe.num_players)]
        self._seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._num_actions = probe.num_distinct_actions
        self._obs_shape = probe.observation_shape
        # Bounds: the tensors' pieces are counts, one-hots, sizes and scores, but the Game API
        # states no per-element bounds, so the Box says so honestly (-inf, inf).
        observation = spaces.Box(-np.inf, np.inf, probe.observation_shape, np.float32)
        mask = spaces.Box(0, 1, (self._num_actions,), np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": observation, "action_mask": mask})
                                   for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self._num_actions) for a in self.possible_agents}
        self._np_random: np.random.Generator | None = None
        self.game: Game = probe
        self._potential: list[float] = []
        self._dealt = False

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new match. ``seed`` restarts the environment's generator, from which each
        match's game seed is drawn; ``options`` is accepted for the API and ignored (game
        options are fixed when the environment is made)."""
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        self.game = new_game(self.name, players=self._players, seed=draw_seed(self._np_random),
                             **self._options)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._potential = initial_potential(self.reward_shaping, self.game)
        seat = self.game.current_player
        self.agent_selection = self.possible_agents[0 if seat is None else seat]
        self._dealt = True

    def observe(self, agent: str) -> ObsDict:
        """``agent``'s observation: a fresh tensor and mask (safe to keep in a buffer)."""
        if not self._dealt:
            raise RuntimeError("call reset() before observe()")
        seat = self._seat_of[agent]
        game = self.game
        mask = np.zeros(self._num_actions, np.int8)
        if seat == game.current_player:
            for action_id in game.legal_action_ids():      # a few ids: faster than fancy indexing
                mask[action_id] = 1
        # Every game's projection writes every float, so the buffer needs no zeroing.
        return {"observation": game.observation_tensor(seat, np.empty(self._obs_shape, np.float32)),
                "action_mask": mask}

    def step(self, action: int | None) -> None:
        if not self._dealt:
            raise RuntimeError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: give an action id, not None")
        game = self.game
        try:
            game.apply(int(action))
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise                     # the game is unchanged
            self._end_on_illegal(agent, action)
            return
        self._cumulative_rewards[agent] = 0.0
        rewards = self.rewards
        potential = self.reward_shaping
        shaping = potential is not None
        if potential is not None:
            step_shaping, self._potential = shaped_rewards(potential, game, self._potential)
            for other, value in zip(self.possible_agents, step_shaping):
                rewards[other] = value
        if game.is_over:
            for other, value in zip(self.possible_agents, game.returns()):
                rewards[other] = rewards[other] + value if shaping else value
                self.terminations[other] = True
            self._accumulate_rewards()
            return                        # agent_selection stays: dead agents step with None
        if shaping:
            self._accumulate_rewards()
        self.agent_selection = self.possible_agents[game.current_player]   # type: ignore[index]

    def _end_on_illegal(self, agent: str, action: Any) -> None:
        """``illegal_action="terminate"``: the episode ends, the offender gets the worst
        return and every other seat 0 (PettingZoo's TerminateIllegalWrapper rule)."""
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = float(self.utility_range[0])
        self.terminations = dict.fromkeys(self.agents, True)
        self.infos[agent] = dict(self.infos[agent], illegal_action=action)
        self._accumulate_rewards()

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the seat to move's view as text (else None)."""
        if self.render_mode != "ansi":
            return None
        return render_text(self.game)

    def close(self) -> None:
        """Nothing to release (the game lives in memory)."""
