"""Win rates of a batched policy against bots (``win_rates``), for training scripts.

A policy is a function ``policy(obs, mask) -> actions`` on whole batches: ``obs`` (n, size)
float32, ``mask`` (n, num_actions) bool, ``actions`` n legal ids. It plays ``games`` games at
``seat`` against every opponent spec on a :class:`~cardcore.vector.VectorGame`, one game per
slot (each slot's first episode only, so long games weigh as much as short ones), dealt from
``seed``: the same seed deals the same games to every policy. Any bot spec is an opponent:
in-core bots play inside the core, a search level (IS-MCTS: every game's level 5, some
games' lower levels) outside it on each slot's game (VectorGame, ``OutsideBot``), slower. A
win is the seat among the game's winners (a shared win counts, as in
:mod:`cardcore.tournament`); a sole win has no other side among them. Intervals are 95%
Wilson intervals.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from cardcore.errors import ConfigError, echo
from cardcore.game import is_int
from cardcore.registry import game_class
from cardcore.tournament import wilson_interval
from cardcore.vector import VectorGame

__all__ = ["DEFAULT_OPPONENTS", "Policy", "check_opponents", "format_win_rates", "plot_curve",
           "random_policy", "win_rates"]

Policy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.bool_]], Any]
DEFAULT_OPPONENTS = ("random", "greedy", "level:3")


def random_policy(seed: int = 0) -> Policy:
    """A uniformly random legal move per game (the untrained baseline)."""
    rng = np.random.default_rng(seed)

    def policy(obs: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
        scores = np.where(mask, rng.random(mask.shape), -1.0)
        choice: npt.NDArray[np.int64] = scores.argmax(axis=1)
        return choice
    return policy


def check_opponents(name: str, opponents: Sequence[str], *, players: int | None = None,
                    **options: Any) -> None:
    """ConfigError (option ``opponents``) for an opponent spec ``win_rates`` cannot play in
    this configuration: a training script calls it before training, not after."""
    if isinstance(opponents, str) or not opponents:
        raise ConfigError(f"opponents must be a non-empty list of bot specs, not "
                          f"{echo(opponents)}", "opponents")
    for spec in opponents:
        VectorGame(name, 1, players=players, learner_seats=0, opponents=spec, **options).close()


def win_rates(policy: Policy, name: str, opponents: Sequence[str] = DEFAULT_OPPONENTS, *,
              games: int = 1000, seat: int = 0, players: int | None = None, seed: int = 1,
              max_steps: int = 100_000, **options: Any) -> dict[str, dict[str, Any]]:
    """Per opponent spec: ``games``, ``wins``, ``sole_wins``, ``win_rate`` and
    ``win_rate_ci`` (95% Wilson), ``mean_return`` (the seat's ``returns()``) and
    ``truncated`` (games cut by ``max_episode_actions``, counted as not won). ``options``
    go to VectorGame (``observation="scaled"``, game options, ...)."""
    if not is_int(games) or games < 1:
        raise ConfigError(f"games must be a positive int, not {echo(games)}", "games")
    results = {}
    for spec in opponents:
        vg = VectorGame(name, games, players=players, seed=seed, learner_seats=seat,
                        opponents=spec, **options)
        sides = np.asarray(game_class(name).sides_of(vg.num_players, vg.options))
        returns = np.zeros((games, vg.num_players))
        cut = np.zeros(games, np.bool_)
        finished = np.zeros(games, np.bool_)
        obs = mask = None
        for _ in range(max_steps):
            obs = vg.observations(obs)
            mask = vg.legal_mask(mask)
            _, done = vg.step(np.asarray(policy(obs, mask), np.int64))
            first = done & ~finished
            returns[first] = vg.episode_returns[first]
            cut[first] = vg.truncated[first]
            finished |= done
            if finished.all():
                break
        else:
            raise RuntimeError(f"{name}: games still unfinished after {max_steps} steps")
        vg.close()
        best = returns == returns.max(axis=1, keepdims=True)
        won = best[:, seat] & ~cut
        # sole: every best seat sits on the seat's side (partners share a side)
        sole = won & ~(best & (sides != sides[seat])[None, :]).any(axis=1)
        wins = int(won.sum())
        results[spec] = {"games": games, "wins": wins, "sole_wins": int(sole.sum()),
                         "win_rate": wins / games, "win_rate_ci": wilson_interval(wins, games),
                         "mean_return": float(returns[:, seat].mean()),
                         "truncated": int(cut.sum())}
    return results


def format_win_rates(results: dict[str, dict[str, Any]]) -> str:
    """The results as a small text table (one line per opponent)."""
    lines = [f"{'opponent':10s} {'games':>6s} {'win rate':>9s} {'95% CI':>15s} {'sole':>6s}"]
    for spec, r in results.items():
        low, high = r["win_rate_ci"]
        lines.append(f"{spec:10s} {r['games']:6d} {r['win_rate']:9.3f} "
                     f"  [{low:.3f}, {high:.3f}] {r['sole_wins'] / r['games']:6.3f}")
    return "\n".join(lines)


def plot_curve(curve: Sequence[dict[str, float]], path: str, title: str) -> None:
    """A learning curve (matplotlib, extra ``cardcore[plot]``) to ``path`` (.png or .svg):
    ``curve`` is a list of points ``{"steps": env steps, "<opponent>": win rate, ...}``."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6, 3.5))
    for key in curve[0]:
        if key not in ("steps", "seconds", "cpu_seconds"):
            ax.plot([p["steps"] for p in curve], [p[key] for p in curve], marker=".",
                    label=f"vs {key}")
    ax.set_xlabel("env steps (learner decisions)")
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend()
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
