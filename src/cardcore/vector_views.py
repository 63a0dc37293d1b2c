"""VectorGame's observations other than the core's own (docs/rl.md, "VectorGame").

``observation="raw"`` and ``"scaled"`` are written by the core. The others are made here
from those or from the games' records, so the core's fast path pays nothing for them:

* ``"openspiel"``: a game's named variant of its observation (``Game.observation_variants``,
  e.g. an OpenSpiel game's own tensor): a slice of the core's rows.
* ``"information_state"``: each slot's ``Game.information_state_tensor(seat)``, from a
  shadow Game per slot kept in step with the core's action log (only the actions since the
  last read are replayed and narrated); the finished episodes' final ones from the logs the
  core keeps aside at each episode's end (``VectorCore.keep_finished_logs``).
"""
from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from cardcore._batch import VectorCore, episode_seed
from cardcore.game import Game
from cardcore.information_state import HISTORY_EVENTS, Layout
from cardcore.registry import new_game

__all__ = ["InformationStates", "ObservationVariant", "ObservationView"]


class ObservationView:
    """What a VectorGame's rows are made of, when not the core's rows themselves."""

    shape: tuple[int]
    low: npt.NDArray[np.float32]
    high: npt.NDArray[np.float32]
    needs_raw = True            # whether ``rows`` reads the core's rows

    def rows(self, slots: npt.NDArray[Any], seats: npt.NDArray[Any],
             raw: npt.NDArray[np.float32] | None, out: npt.NDArray[np.float32]) -> None:
        """Write slot ``slots[j]`` seen by ``seats[j]`` into ``out[j]`` (``raw[j]``: the
        core's row of the same)."""
        raise NotImplementedError

    def finals(self, done: npt.NDArray[np.bool_], movers: npt.NDArray[Any],
               raw: npt.NDArray[np.float32], out: npt.NDArray[np.float32]) -> None:
        """Rewrite the rows of ``out`` where ``done``: the finished episode seen by its mover
        (``raw``: the core's final rows)."""
        raise NotImplementedError


class ObservationVariant(ObservationView):
    """A named slice of the core's observation (``Game.observation_variants``)."""

    def __init__(self, offset: int, size: int, low: npt.NDArray[Any],
                 high: npt.NDArray[Any]) -> None:
        self.start, self.stop = offset, offset + size
        self.shape = (size,)
        self.low = low[self.start:self.stop].astype(np.float32)
        self.high = high[self.start:self.stop].astype(np.float32)

    def rows(self, slots: npt.NDArray[Any], seats: npt.NDArray[Any],
             raw: npt.NDArray[np.float32] | None, out: npt.NDArray[np.float32]) -> None:
        assert raw is not None
        out[...] = raw[:, self.start:self.stop]

    def finals(self, done: npt.NDArray[np.bool_], movers: npt.NDArray[Any],
               raw: npt.NDArray[np.float32], out: npt.NDArray[np.float32]) -> None:
        out[done] = raw[done, self.start:self.stop]


class InformationStates(ObservationView):
    """Per slot, a shadow Game of its current episode, extended lazily from the core's log."""

    needs_raw = False

    def __init__(self, probe: Game, core: VectorCore, num_games: int, seed: int,
                 low: npt.NDArray[Any], high: npt.NDArray[Any]) -> None:
        self.name, self.players = probe.name, probe.num_players
        self.options = dict(probe.options)
        self.seed = seed
        self.core: Any = core                 # VectorGame's _Abandoned once a step broke off
        self.games: list[Game | None] = [None] * num_games
        self.episodes: list[int] = [-1] * num_games      # the episode each shadow plays
        layout = Layout.of(probe)
        self.shape = (layout.size,)
        self.low, self.high = _bounds(probe, layout, low, high)
        core.keep_finished_logs()

    def _fresh(self, slot: int, episode: int) -> Game:
        return new_game(self.name, players=self.players,
                        seed=episode_seed(self.seed, slot, episode), **self.options)

    def game(self, slot: int) -> Game:
        """The shadow of slot ``slot``'s current episode, brought up to the core's log."""
        game = self.games[slot]
        episode, actions = self.core.log_since(slot, 0 if game is None else len(game._log))
        if game is None or episode != self.episodes[slot]:
            episode, actions = self.core.log_since(slot, 0)
            game = self.games[slot] = self._fresh(slot, episode)
            self.episodes[slot] = episode
        for action in actions:
            game.apply(action)
        return game

    def rows(self, slots: npt.NDArray[Any], seats: npt.NDArray[Any],
             raw: npt.NDArray[np.float32] | None, out: npt.NDArray[np.float32]) -> None:
        for j, (slot, seat) in enumerate(zip(slots.tolist(), seats.tolist())):
            self.game(slot).information_state_tensor(seat, out[j])

    def finals(self, done: npt.NDArray[np.bool_], movers: npt.NDArray[Any],
               raw: npt.NDArray[np.float32], out: npt.NDArray[np.float32]) -> None:
        for slot in np.flatnonzero(done).tolist():
            episode, actions = self.core.finished_record(slot)
            game = self.games[slot]
            if game is None or self.episodes[slot] != episode:
                game, start = self._fresh(slot, episode), 0
            else:
                start = len(game._log)
            for action in actions[start:]:
                game.apply(action)
            game.information_state_tensor(int(movers[slot]), out[slot])
            self.games[slot] = None           # the slot plays a new episode now


def _bounds(probe: Game, layout: Layout, low: npt.NDArray[Any], high: npt.NDArray[Any]
            ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Per entry of the information state: the observation's bounds, then 0 .. the copies of
    each card in the deck (twice), then 0 .. each history code's largest value."""
    deck = list(probe.deck_for(probe.num_players, probe.options))
    copies = np.array([deck.count(c) for c in layout.cards], np.float64)
    codes = np.tile(np.array([probe.num_players, len(layout.kinds),
                              probe.num_distinct_actions], np.float64), HISTORY_EVENTS)
    size = layout.size
    lo = np.zeros(size, np.float64)
    hi = np.concatenate([high, copies, copies, codes])
    lo[:low.shape[0]] = low
    assert hi.shape == (size,)
    return lo.astype(np.float32), hi.astype(np.float32)
