"""What the adapters share: seeds, reward shaping, the text render, the registry names."""
from __future__ import annotations

import json
from typing import Any, Callable, Sequence

import numpy as np
import numpy.typing as npt

from cardcore.errors import ConfigError, echo
from cardcore.game import Game
from cardcore.registry import game_class, new_game

__all__ = ["Potential", "camel_name", "draw_seed", "render_text", "shaped_rewards"]

# A potential for reward shaping: per seat, a number computed from the game (its public API).
Potential = Callable[[Game], Sequence[float]]

SEED_BOUND = 2 ** 63        # game seeds are drawn in [0, 2**63): every cardcore seed accepts it


def draw_seed(rng: np.random.Generator) -> int:
    """A game seed from an adapter's generator (numpy's PCG64: the same on every platform)."""
    return int(rng.integers(0, SEED_BOUND, dtype=np.int64))


def camel_name(name: str) -> str:
    """``some_game`` -> ``SomeGame`` (the Gymnasium id's name part)."""
    return "".join(part.capitalize() for part in name.split("_"))


def check_game_name(name: str) -> type[Game]:
    """The game's class; ConfigError naming the available games for an unknown name."""
    return game_class(name)


RENDER_MODES = ("ansi",)


def probe_game(name: str, players: int | None, render_mode: str | None, illegal_action: str,
               policies: Sequence[str], options: dict[str, Any]) -> Game:
    """Check an environment's arguments (ConfigError naming the bad one) and return a game of
    the configuration, for its sizes and bounds."""
    check_game_name(name)
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ConfigError(f"render_mode must be None or 'ansi', not {echo(render_mode)}",
                          "render_mode")
    if illegal_action not in policies:
        raise ConfigError(f"illegal_action must be one of {', '.join(policies)}, "
                          f"not {echo(illegal_action)}", "illegal_action")
    return new_game(name, players=players, seed=0, **options)   # ConfigError if bad


def shaped_rewards(potential: Potential, game: Game, before: Sequence[float]
                   ) -> tuple[list[float], list[float]]:
    """Potential-based shaping (Ng, Harada & Russell 1999): each step pays every seat
    ``phi(after) - phi(before)``, with ``phi = 0`` once the match is over, so the shaping of a
    whole episode sums to ``-phi(start)`` and the best policies are unchanged.
    Returns (the step's shaping per seat, the new potential)."""
    after = [0.0] * game.num_players if game.is_over else [float(x) for x in potential(game)]
    return [a - b for a, b in zip(after, before)], after


def initial_potential(potential: Potential | None, game: Game) -> list[float]:
    if potential is None:
        return []
    return [float(x) for x in potential(game)]


def render_text(game: Game, seat: int | None = None) -> str:
    """A plain-text picture of the game from one seat's view (the seat to move by default;
    seat 0 once the match is over): the game's table lines, that seat's hand and its legal
    moves. Only what ``view(seat)`` shows."""
    if seat is None:
        seat = game.current_player if game.current_player is not None else 0
    view = game.view(seat)
    if game.is_over:
        status = f"match over: returns {game.returns()}, winners {game.winners}"
    else:
        status = f"seat {game.current_player} to move ({game.phase})"
    lines = [f"{game.name} — {status}"]
    lines += game.table_lines(seat) or _view_lines(view)
    lines.append(f"Seat {seat} hand: " + (" ".join(view["hand"]) or "(empty)"))
    if view["legal_actions"]:
        lines.append("Legal: " + " | ".join(view["legal_actions"]))
    return "\n".join(lines) + "\n"


_COMMON_VIEW_KEYS = ("game", "player", "current_player", "phase", "hand", "legal_actions")


def _view_lines(view: dict[str, Any]) -> list[str]:
    """A game without ``table_lines``: its view's other keys, one per line."""
    return [f"{key}: {json.dumps(value)}" for key, value in view.items()
            if key not in _COMMON_VIEW_KEYS]


def observation_text(game: Game, seat: int) -> str:
    """``view(seat)`` as deterministic text, one ``key: value`` line per key (OpenSpiel's
    observation string: equal exactly when the views are equal, since a view's keys come in
    a fixed order). ``repr`` rather than JSON per value: a fraction of the cost."""
    return "\n".join(f"{key}: {value!r}" for key, value in game.view(seat).items())


Scaling = tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]


def observation_bounds(name: str, players: int, observation: str, options: dict[str, Any]
                       ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32],
                                  Scaling | None]:
    """The observation Box's (low, high) per entry for ``observation="raw"`` or ``"scaled"``
    and, when scaled, the (low, factor) of ``(x - low) * factor``, the map into [0, 1] that
    VectorGame applies in C (one source for the bounds: ``Game.observation_bounds_of``, read
    through VectorGame; ConfigError for an unknown mode or, when scaled, a piece without
    bounds). Raw observations get (-inf, inf)."""
    from cardcore.vector import VectorGame
    chosen = VectorGame(name, 1, players=players, observation=observation, **options)
    low, high = chosen.observation_low.copy(), chosen.observation_high.copy()
    chosen.close()
    if observation != "scaled":
        # Raw: the Box states no bounds (-inf, inf), as before the games declared any; a
        # piece the game pins to one value would otherwise be a Box Gymnasium warns about.
        return np.full_like(low, -np.inf), np.full_like(high, np.inf), None
    raw = VectorGame(name, 1, players=players, **options)
    span = raw.observation_high - raw.observation_low
    factor = np.where(span > 0, 1.0 / np.where(span > 0, span, 1), 0).astype(np.float32)
    offset = raw.observation_low.astype(np.float32)
    raw.close()
    return low, high, (offset, factor)
