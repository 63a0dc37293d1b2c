"""One batched policy protocol (issue 47): ``choose_many(decisions) -> action ids``.

A policy that plays from what its seats see, e.g. a network, has one method wherever it plays:
``choose_many(decisions)``, where ``decisions`` is a ``Decisions`` record of k decisions
(``observations`` (k, size) float32, ``masks`` (k, actions) bool, ``seats`` (k,) int64 and the
game's name), and the answer is k legal action ids. ``VectorGame`` opponents, bot plug-ins
(``make_bot``, and so ``cardcore play``, ``serve``, ``simulate`` and ``tournament``) all accept
it: a plug-in factory may return such a policy, which ``PluginBot`` asks with one row per move
(``decisions_of``).

The older forms keep working for one release through ``batch_policy``'s adapter, with a
``DeprecationWarning`` (docs/deprecations.md): a plain callable ``(observations, masks,
seats) -> ids`` as a ``VectorGame`` opponent, and a plug-in's ``choose_many(observations,
masks)``.
"""
from __future__ import annotations

import inspect
import warnings
from collections.abc import Sequence
from typing import Any, Callable, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from cardcore.game import Game

__all__ = ["REMOVED_IN", "BatchPolicy", "Decisions", "LegacyPolicy", "batch_policy",
           "decisions_of"]

REMOVED_IN = "0.6.0"          # the release without the old policy forms (docs/deprecations.md)


class Decisions:
    """k decisions to make at once: what each mover sees and may do. Row i is seat
    ``seats[i]``'s decision, ``observations[i]`` its view (``observation_tensor``, or the
    ``VectorGame``'s ``observation`` kind) and ``masks[i]`` its legal action ids; ``game`` is
    the game's name.

    ``observations`` may be made on first read (``VectorGame`` does so: a policy that reads
    only the masks never pays for them); such a record's observations are readable during
    the ``choose_many`` call that received it, and a RuntimeError after it unless read then.
    The arrays are the caller's: copy what you keep."""

    __slots__ = ("_observations", "_observe", "masks", "seats", "game")

    def __init__(self, observations: npt.NDArray[np.float32] | None,
                 masks: npt.NDArray[np.bool_], seats: npt.NDArray[np.int64], game: str,
                 observe: Callable[[], npt.NDArray[np.float32]] | None = None) -> None:
        if observations is None and observe is None:
            raise ValueError("Decisions needs observations or a way to make them (observe)")
        self._observations = observations
        self._observe = observe
        self.masks = masks
        self.seats = seats
        self.game = game

    @property
    def observations(self) -> npt.NDArray[np.float32]:
        """(k, size) float32: each row's observation by its mover."""
        if self._observations is None:
            assert self._observe is not None
            self._observations = self._observe()
        return self._observations

    def close(self) -> None:
        """End the call: observations not read by now can no longer be made."""
        if self._observations is None:
            self._observe = _too_late

    def __len__(self) -> int:
        return len(self.seats)

    def __repr__(self) -> str:
        return f"Decisions({self.game!r}, {len(self)} rows)"


def _too_late() -> npt.NDArray[np.float32]:
    raise RuntimeError("Decisions.observations: read them during the choose_many call "
                       "(the games have moved on since)")


@runtime_checkable
class BatchPolicy(Protocol):
    """The policy protocol: one legal action id per row of ``decisions``."""

    def choose_many(self, decisions: Decisions) -> Any: ...


class LegacyPolicy:
    """An old policy form behind the protocol (removed in ``REMOVED_IN``): ``call`` is the
    callable, ``with_seats`` whether it takes ``seats`` after the observations and masks."""

    def __init__(self, call: Callable[..., Any], with_seats: bool) -> None:
        self.call, self.with_seats = call, with_seats

    def choose_many(self, decisions: Decisions) -> Any:
        if self.with_seats:
            return self.call(decisions.observations, decisions.masks, decisions.seats)
        return self.call(decisions.observations, decisions.masks)

    def __repr__(self) -> str:
        return f"LegacyPolicy({self.call!r})"


def _required_positionals(method: Any) -> int | None:
    """How many positional arguments ``method`` needs (None when it cannot be read)."""
    try:
        params = inspect.signature(method).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind is p.VAR_POSITIONAL for p in params):
        return None
    return sum(1 for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
               and p.default is p.empty)


def batch_policy(obj: Any, where: str = "a policy") -> BatchPolicy | None:
    """``obj`` as a ``BatchPolicy``: itself when its ``choose_many`` takes one argument; an
    adapter, with a DeprecationWarning, for ``choose_many(observations, masks[, seats])`` and
    for a plain callable ``(observations, masks, seats)``; None when it is neither."""
    many = getattr(obj, "choose_many", None)
    if callable(many):
        needed = _required_positionals(many)
        if needed is None or needed <= 1:
            return obj  # type: ignore[no-any-return]
        _warn(f"{where}: choose_many(observations, masks) is deprecated; take one "
              f"Decisions record, choose_many(decisions)")
        return LegacyPolicy(many, needed >= 3)
    if callable(obj) and not isinstance(obj, type):
        _warn(f"{where}: a plain callable (observations, masks, seats) is deprecated; give "
              f"an object with choose_many(decisions)")
        return LegacyPolicy(obj, True)
    return None


def _warn(text: str) -> None:
    warnings.warn(f"{text} (cardcore.policy; it goes in {REMOVED_IN})", DeprecationWarning,
                  stacklevel=4)


def decisions_of(games: Sequence[Game]) -> Decisions:
    """The decisions of the seats to move in ``games`` (one game of one configuration or
    several), each seen by its mover: what ``PluginBot`` gives a batched policy per move."""
    if not games:
        raise ValueError("decisions_of needs at least one game")
    seats = np.fromiter((g.current_player for g in games), np.int64, len(games))
    observations = np.stack([np.asarray(g.observation_tensor(int(seat)), np.float32)
                             for g, seat in zip(games, seats)])
    masks = np.stack([np.asarray(g.legal_action_mask(), np.bool_) for g in games])
    return Decisions(observations, masks, seats, games[0].name)
