"""A single-agent Gymnasium environment for every cardcore game (extra ``cardcore[rl]``).

One seat learns; the other seats are played by cardcore bots. Importing this module registers
``cardcore/<Name>-v0`` for every game, ``<Name>`` its name in CamelCase (``env_id(name)``):

>>> import gymnasium
>>> import cardcore.envs.gymnasium  # registers the ids
>>> env = gymnasium.make(env_id(name), opponents="random")
>>> obs, info = env.reset(seed=1)
>>> action = int(info["action_mask"].nonzero()[0][0])
>>> obs, reward, terminated, truncated, info = env.step(action)

(``gymnasium.make("cardcore.envs.gymnasium:" + env_id(name))`` imports it for you.)

| | |
|---|---|
| observation | ``game.observation_tensor(seat)``: float32, the rulebook's "Observation" layout;
  ``observation="scaled"``: every entry mapped into [0, 1] by the game's declared bounds
  (``Game.observation_bounds_of``, as VectorGame does), with a finite ``observation_space`` |
| action space | ``Discrete(game.num_distinct_actions)`` |
| action mask | ``info["action_mask"]`` (int8, 1 = legal; all 0 once the episode is over) |
| reward | ``game.returns()[seat]`` when the match ends, 0 before; optional shaping |
| seat | the learning seat: ``0`` by default, any seat, or ``"random"`` (drawn at every reset
  from the environment's generator, so from the reset seed) |
| players | the game's default (``game_class(name).default_players``) unless ``players=`` is
  given |
| opponents | ``"greedy"`` by default: a bot name for every other seat (``"greedy"``,
  ``"random"``, ``"level:3"``), a ``Bot``, or one per other seat in seat order; reseeded from
  the episode's seed on every reset |
| info | ``action_mask``, ``seat``; at the end also ``winners`` (``game.winners``) and
  ``returns`` (``game.returns()``, every seat's) |

``make_vec(name, num_envs, ...)`` is the batched counterpart, a ``gymnasium.vector.VectorEnv``
over :class:`~cardcore.vector.VectorGame` with the opponents played in C; it is also the ids'
vector entry point, so ``gymnasium.make_vec(env_id(name), num_envs)`` builds it.

An illegal action ends the episode with ``utility_range[0]`` (the worst return) and
``info["illegal_action"]`` (``illegal_action="terminate"``, the default); with
``illegal_action="raise"`` it raises ``cardcore.IllegalActionError`` and nothing changes.
"""
from __future__ import annotations

from typing import Any, Sequence, Union

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from cardcore.bots import BOTS, Bot, make_bot
from cardcore.envs._common import (
    RENDER_MODES, probe_game,
    Potential, camel_name, draw_seed, initial_potential, observation_bounds, render_text,
    shaped_rewards,
)
from cardcore.envs._vector_env import CardcoreVectorEnv, make_vec
from cardcore.errors import ConfigError, IllegalActionError, echo
from cardcore.game import Game
from cardcore.registry import available_games, new_game

__all__ = ["CardcoreEnv", "CardcoreVectorEnv", "env_id", "make_vec", "register_envs"]

Obs = npt.NDArray[np.float32]
Opponent = Union[str, Bot]
ILLEGAL_POLICIES = ("terminate", "raise")
DEAL_ATTEMPTS = 100        # new matches tried at reset before giving up on reaching our seat


class CardcoreEnv(gymnasium.Env[Obs, np.int64]):
    """One cardcore match seen by ``seat``; the other seats are played by ``opponents``.

    ``reward_shaping``: None (default), or a potential ``phi(game) -> [per seat]``; each step
    then also pays ``phi(after)[seat] - phi(before)[seat]`` (``phi = 0`` at the end), measured
    at this seat's turns, so an episode's shaping sums to ``-phi(start)[seat]``."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(self, name: str, seat: int | str = 0,
                 opponents: Opponent | Sequence[Opponent] = "greedy", *,
                 players: int | None = None, render_mode: str | None = None,
                 reward_shaping: Potential | None = None, illegal_action: str = "terminate",
                 observation: str = "raw", **options: Any) -> None:
        probe = probe_game(name, players, render_mode, illegal_action, ILLEGAL_POLICIES, options)
        random_seat = seat == "random"
        if not random_seat and (isinstance(seat, bool) or not isinstance(seat, int)
                                or not 0 <= seat < probe.num_players):
            raise ConfigError(f"seat must be a seat 0..{probe.num_players - 1} or 'random', "
                              f"not {echo(seat)}", "seat")
        self.name = name
        # With seat="random", ``seat`` is the current episode's (0 until the first reset).
        self.seat: int = 0 if random_seat else int(seat)
        self.random_seat = random_seat
        self.render_mode = render_mode
        self.reward_shaping = reward_shaping
        self.illegal_action = illegal_action
        self.utility_range = probe.utility_range
        self._players = probe.num_players
        self._options = dict(options)
        # One bot per other seat, in seat order of the other seats (seat 0's view when the
        # seat is drawn): _seat_bots maps them onto the seats once the learning seat is known.
        self._opponent_bots = self._make_bots(opponents, probe)
        self._bots = self._seat_bots()
        self._num_actions = probe.num_distinct_actions
        self._obs_shape = probe.observation_shape
        # The bounds the game declares per piece (-inf, inf for a raw piece it does not bound).
        low, high, self._scaling = observation_bounds(name, probe.num_players, observation,
                                                      options)
        self.observation = observation
        self.observation_space = spaces.Box(low, high, probe.observation_shape, np.float32)
        self.action_space = spaces.Discrete(probe.num_distinct_actions)
        self.game: Game = probe
        self._potential: list[float] = []
        self._done = True

    def _seat_bots(self) -> dict[int, Bot]:
        others = [p for p in range(self._players) if p != self.seat]
        return dict(zip(others, self._opponent_bots))

    def _make_bots(self, opponents: Opponent | Sequence[Opponent], probe: Game) -> list[Bot]:
        others = [p for p in range(probe.num_players) if p != self.seat]
        if isinstance(opponents, (str, Bot)):
            chosen: list[Opponent] = [opponents] * len(others)
        else:
            chosen = list(opponents)
            if len(chosen) != len(others):
                where = "" if self.random_seat else f" {others}"
                raise ConfigError(f"opponents: give one bot for each of the {len(others)} other "
                                  f"seats{where}, not {len(chosen)}", "opponents")
        bots: list[Bot] = []
        for opponent in chosen:
            if isinstance(opponent, str):
                # Each seat gets its own bot: a bot's generator is its own (seeded at reset).
                # By keyword: bots such as ISMCTSBot take other arguments first.
                cls = BOTS.get(opponent.strip().lower())
                bot = cls(seed=0) if cls is not None else make_bot(opponent)   # ConfigError
            elif isinstance(opponent, Bot):
                bot = opponent
            else:
                raise ConfigError(f"opponents: a bot name or a cardcore.bots.Bot, not "
                                  f"{type(opponent).__name__}", "opponents")
            bot.check_game(self.name)
            bots.append(bot)
        return bots

    # --- the Gymnasium API ------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Obs, dict[str, Any]]:
        """Deal a new match and let the opponents move until it is this seat's turn.
        ``seed`` restarts the environment's generator (game and bot seeds, and with
        ``seat="random"`` first the learning seat, are drawn from it); ``options`` is accepted
        for the API and ignored. A match that ends before this seat ever moves (possible in a
        one-round match) is skipped: the next one is dealt, since an episode must begin with a
        move to make."""
        super().reset(seed=seed)
        if self.random_seat:
            self.seat = int(self.np_random.integers(self._players))
            self._bots = self._seat_bots()
        for _ in range(DEAL_ATTEMPTS):
            self.game = new_game(self.name, players=self._players, seed=draw_seed(self.np_random),
                                 **self._options)
            for bot in self._bots.values():
                bot.reseed(draw_seed(self.np_random))
            self._play_opponents()
            if not self.game.is_over:
                break
        else:
            raise RuntimeError(f"{DEAL_ATTEMPTS} matches ended before seat {self.seat} moved")
        self._done = False
        self._potential = initial_potential(self.reward_shaping, self.game)
        return self._observe(), self._info()

    def step(self, action: int | np.int64) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise RuntimeError("the episode is over (or not begun): call reset()")
        game = self.game
        try:
            game.apply(int(action))
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise                     # the game is unchanged
            self._done = True
            info = self._info()
            info["illegal_action"] = action
            return self._observe(), float(self.utility_range[0]), True, False, info
        self._play_opponents()
        reward = 0.0
        if self.reward_shaping is not None:
            shaping, self._potential = shaped_rewards(self.reward_shaping, game, self._potential)
            reward = shaping[self.seat]
        if game.is_over:
            self._done = True
            reward += game.returns()[self.seat]
        return self._observe(), reward, self._done, False, self._info()

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: this seat's view as text (else None)."""
        if self.render_mode != "ansi":
            return None
        return render_text(self.game, self.seat)

    # --- helpers ----------------------------------------------------------------------
    def _play_opponents(self) -> None:
        game, bots, seat = self.game, self._bots, self.seat
        while True:
            to_move = game.current_player
            if to_move is None or to_move == seat:
                return
            game.apply(bots[to_move].choose_id(game))

    def _observe(self) -> Obs:
        # Every game's projection writes every float, so the buffer needs no zeroing.
        obs = self.game.observation_tensor(self.seat, np.empty(self._obs_shape, np.float32))
        if self._scaling is not None:
            offset, factor = self._scaling
            np.subtract(obs, offset, out=obs)
            np.multiply(obs, factor, out=obs)        # float32 throughout, as VectorGame's C
        return obs

    def _info(self) -> dict[str, Any]:
        game = self.game
        mask = np.zeros(self._num_actions, np.int8)
        if game.current_player == self.seat:
            for action_id in game.legal_action_ids():
                mask[action_id] = 1
        info: dict[str, Any] = {"action_mask": mask, "seat": self.seat}
        if game.is_over:
            info["winners"] = game.winners
            info["returns"] = np.asarray(game.returns(), np.float64)
        return info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions as bools (the method sb3-contrib's MaskablePPO looks for)."""
        if self.game.current_player != self.seat:
            return np.zeros(self._num_actions, dtype=bool)
        return self.game.legal_action_mask()


def env_id(name: str) -> str:
    """The Gymnasium id of a game: ``cardcore/<Name>-v0``, the name in CamelCase
    (``some_game`` -> ``cardcore/SomeGame-v0``)."""
    return f"cardcore/{camel_name(name)}-v0"


def register_envs() -> list[str]:
    """Register ``cardcore/<Name>-v0`` for every game (done on import), ``make_vec`` its
    vector entry point; returns the ids."""
    ids = []
    for name in available_games():
        gid = env_id(name)
        if gid not in gymnasium.registry:
            gymnasium.register(id=gid, entry_point=CardcoreEnv,  # type: ignore[arg-type]
                               vector_entry_point=make_vec,  # type: ignore[arg-type]
                               kwargs={"name": name})
        ids.append(gid)
    return ids


register_envs()
