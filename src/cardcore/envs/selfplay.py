"""Self-play against frozen snapshots: one batched opponent for ``VectorGame`` / ``make_vec``
(``opponents=SelfPlay(...)``; docs/rl.md, "Self-play").

A learner that plays its live self chases its own tail; the usual cure is to play frozen past
copies of itself. ``SelfPlay`` keeps the latest few and answers as the one chosen by the most
recent ``sample()``; the learner decides when to freeze (``snapshot()``, e.g. every few PPO
updates) and when to draw an opponent (``sample()``, e.g. at every rollout). A snapshot is
whatever ``freeze()`` returns: a policy with ``choose_many(decisions)`` (cardcore.policy) or a
callable ``(observations, masks, seats) -> actions``; for torch, a deep copy of the network in
eval mode wrapped in such a function. ``SelfPlay`` itself follows the policy protocol.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from cardcore.errors import ConfigError, echo
from cardcore.policy import Decisions

__all__ = ["SelfPlay"]

# A snapshot: a cardcore.policy.BatchPolicy, or a callable (observations, masks, seats).
Policy = Any


class SelfPlay:
    """Frozen snapshots of a learner's policy, playing as one batched opponent.

    ``freeze()``: a frozen copy of the learner's policy as it is now (called at once and by
    every ``snapshot()``). ``keep``: how many snapshots are kept (the oldest is dropped).
    ``latest``: the chance that ``sample()`` picks the newest snapshot; otherwise one of the
    older ones, uniformly. ``seed``: the generator of ``sample()``.

    Changing the snapshot between two calls changes the opponent of the games under way too
    (a VectorGame's episodes run across rollouts); call ``sample()`` where that is wanted."""

    def __init__(self, freeze: Callable[[], Policy], keep: int = 8, latest: float = 0.5,
                 seed: int | None = None) -> None:
        if not callable(freeze):
            raise ConfigError(f"freeze must be a function returning a policy callable, not "
                              f"{echo(freeze)}", "freeze")
        if isinstance(keep, bool) or not isinstance(keep, int) or keep < 1:
            raise ConfigError(f"keep must be a positive int, not {echo(keep)}", "keep")
        if isinstance(latest, bool) or not isinstance(latest, (int, float)) \
                or not 0 <= latest <= 1:
            raise ConfigError(f"latest must be a probability 0..1, not {echo(latest)}", "latest")
        self.freeze, self.keep, self.latest = freeze, keep, float(latest)
        self._random = random.Random(seed)
        self.snapshots: list[Policy] = []
        self.playing = 0                     # the index in snapshots that answers now
        self.snapshot()

    def snapshot(self) -> None:
        """Freeze the learner's policy now; the new snapshot plays from now on."""
        policy = self.freeze()
        if not callable(policy) and not callable(getattr(policy, "choose_many", None)):
            raise ConfigError(f"freeze() must return a policy callable (observations, masks, "
                              f"seats) -> actions, not {echo(policy)}", "freeze")
        self.snapshots.append(policy)
        del self.snapshots[:-self.keep]
        self.playing = len(self.snapshots) - 1

    def sample(self) -> int:
        """Choose the snapshot that plays until the next call; returns its index (the newest
        is ``len(snapshots) - 1``)."""
        newest = len(self.snapshots) - 1
        if newest == 0 or self._random.random() < self.latest:
            self.playing = newest
        else:
            self.playing = self._random.randrange(newest)
        return self.playing

    def choose_many(self, decisions: Decisions) -> Any:
        """The playing snapshot's answers (the policy protocol, cardcore.policy)."""
        snapshot = self.snapshots[self.playing]
        many = getattr(snapshot, "choose_many", None)
        if callable(many):
            return many(decisions)
        return snapshot(decisions.observations, decisions.masks, decisions.seats)

    def __call__(self, observations: npt.NDArray[np.float32], masks: npt.NDArray[np.bool_],
                 seats: npt.NDArray[np.int64]) -> Any:
        return self.choose_many(Decisions(observations, masks, seats, ""))

    def __repr__(self) -> str:
        return (f"SelfPlay({len(self.snapshots)} snapshot(s), playing {self.playing}, "
                f"keep={self.keep}, latest={self.latest})")
