"""Train the linear policy by imitating cardcore's greedy bot (a few seconds of numpy):

    python -m cardcore_linear_bot.train crazy_eights [--players 2] [--games 400] [--out FILE]

Greedy plays every seat; each of its decisions is a sample (observation, legal mask, choice),
and a softmax over the legal actions of ``obs @ W + b`` is fitted to them (Adam, full batch).
"""
from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from cardcore import new_game
from cardcore.bots import make_bot

from cardcore_linear_bot.policy import weights_name


def samples(game_name: str, players: int, games: int, seed: int) -> tuple[np.ndarray, ...]:
    obs, masks, choices = [], [], []
    bots = [make_bot("greedy", seed + k) for k in range(players)]
    for i in range(games):
        game = new_game(game_name, players=players, seed=seed + i)
        while not game.is_over:
            seat = game.current_player
            mask = game.legal_action_mask()
            choice = bots[seat].choose_id(game)
            if mask.sum() > 1:                      # a forced move teaches nothing
                obs.append(game.observation_tensor(seat))
                masks.append(mask)
                choices.append(choice)
            game.apply(choice)
    return np.array(obs), np.array(masks), np.array(choices)


def fit(obs: np.ndarray, masks: np.ndarray, choices: np.ndarray, steps: int = 300,
        lr: float = 0.05) -> tuple[np.ndarray, np.ndarray]:
    n, d = obs.shape
    a = masks.shape[1]
    W, b = np.zeros((d, a), np.float32), np.zeros(a, np.float32)
    m = [np.zeros_like(W), np.zeros_like(b)]
    v = [np.zeros_like(W), np.zeros_like(b)]
    onehot = np.zeros((n, a), np.float32)
    onehot[np.arange(n), choices] = 1
    for t in range(1, steps + 1):
        logits = np.where(masks, obs @ W + b, -1e9)
        p = np.exp(logits - logits.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        g = (p - onehot) / n
        for k, grad in enumerate((obs.T @ g + 1e-4 * W, g.sum(axis=0))):
            m[k] = 0.9 * m[k] + 0.1 * grad
            v[k] = 0.999 * v[k] + 0.001 * grad * grad
            step = lr * (m[k] / (1 - 0.9 ** t)) / (np.sqrt(v[k] / (1 - 0.999 ** t)) + 1e-8)
            if k == 0:
                W -= step
            else:
                b -= step
    return W, b


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    obs, masks, choices = samples(args.game, args.players, args.games, args.seed)
    W, b = fit(obs, masks, choices)
    agree = float((np.where(masks, obs @ W + b, -np.inf).argmax(axis=1) == choices).mean())
    out = Path(args.out or Path(__file__).parent / "weights" / weights_name(args.game,
                                                                            args.players))
    np.savez_compressed(out, W=W.astype(np.float16), b=b.astype(np.float16),
                        game=np.array(args.game), players=np.array(args.players))
    print(f"{len(choices)} decisions; agrees with greedy on {agree:.1%}; wrote {out}")


if __name__ == "__main__":
    main()
