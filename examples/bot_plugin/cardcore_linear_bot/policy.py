"""A linear policy over cardcore's observation tensor, and the plug-in's factory."""
from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["LinearPolicy", "load_weights", "make_bot", "weights_name"]


def weights_name(game_name: str, players: int) -> str:
    return f"{game_name}-{players}.npz"


def load_weights(path: str | Path) -> dict[str, Any]:
    """``W`` (observation size x actions), ``b`` (actions), ``game`` and ``players``."""
    with np.load(path, allow_pickle=False) as data:
        return {"W": data["W"].astype(np.float32), "b": data["b"].astype(np.float32),
                "game": str(data["game"]), "players": int(data["players"])}


class LinearPolicy:
    """``choose(game)``: the legal action with the highest ``obs @ W + b`` (or, with a
    ``temperature``, one drawn from the softmax over the legal actions). ``choose_many``
    (the policy protocol) does the same for a batch of decisions."""

    def __init__(self, weights: dict[str, Any], seed: int | None = None,
                 temperature: float = 0.0) -> None:
        if not isinstance(temperature, (int, float)) or temperature < 0:
            raise ValueError(f"temperature must be a number >= 0, not {temperature!r}")
        self.W, self.b = weights["W"], weights["b"]
        self.game, self.players = weights["game"], weights["players"]
        self.temperature = float(temperature)
        self.rng = np.random.default_rng(seed)

    def reseed(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def choose_many(self, decisions: Any) -> np.ndarray:
        """The policy protocol (``cardcore.policy.Decisions``): one legal id per row."""
        return self.choose_rows(decisions.observations, decisions.masks)

    def choose_rows(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        logits = np.asarray(observations, dtype=np.float32) @ self.W + self.b
        logits = np.where(masks, logits, -np.inf)
        if self.temperature == 0:
            return logits.argmax(axis=1)
        z = (logits - logits.max(axis=1, keepdims=True)) / self.temperature
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        u = self.rng.random((len(p), 1))
        return np.minimum((p.cumsum(axis=1) < u).sum(axis=1), p.shape[1] - 1)

    def choose_id(self, game: Any) -> int:
        if game.num_players != self.players or game.observation_shape[0] != self.W.shape[0]:
            raise ValueError(f"these weights are for {self.game} with {self.players} players "
                             f"(observation size {self.W.shape[0]})")
        seat = game.current_player
        obs = game.observation_tensor(seat)[None, :]
        return int(self.choose_rows(obs, game.legal_action_mask()[None, :])[0])

    def choose(self, game: Any) -> Any:
        return game.action_from_id(self.choose_id(game))


def make_bot(game_name: str, seed: int | None = None, players: int | None = None,
             options: dict[str, Any] | None = None, path: str | None = None,
             temperature: float = 0.0) -> LinearPolicy:
    """The plug-in's factory: weights from ``path``, else the ones shipped for the game. It
    refuses (ConfigError) a player count its weights were not trained for."""
    if path is None:
        shipped = [p for p in (resources.files("cardcore_linear_bot") / "weights").iterdir()
                   if p.name.startswith(game_name + "-")]
        if not shipped:
            raise ValueError(f"no weights shipped for {game_name}; give path=WEIGHTS.npz")
        with resources.as_file(shipped[0]) as file:
            weights = load_weights(file)
    else:
        weights = load_weights(path)
    if weights["game"] != game_name:
        raise ValueError(f"the weights are for {weights['game']}, not {game_name}")
    if players is not None and players != weights["players"]:
        from cardcore import ConfigError
        raise ConfigError(f"linear: the weights are for {weights['players']} players, not "
                          f"{players}", "bots")
    return LinearPolicy(weights, seed=seed, temperature=temperature)
