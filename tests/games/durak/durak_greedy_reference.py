"""GreedyBot's Durak heuristic in Python, from the seat's view alone: the oracle of the
in-core policy (``GameState.greedy_move``, the kernel's section "GreedyBot's policy"), the
same choice and the same draws in every position (greedy.py documents the weights)."""
from __future__ import annotations

from typing import Any

from cardcore._fast import Random
from cardcore.game import Game, best_by

__all__ = ["choose", "evaluate"]

TRUMP = 9.0
PAIR = 1.5
THROW = 6.5
TAKE_BASE = 4.0
TAKE_PER_CARD = 1.5
TRANSFER = 3.0
ENDGAME = 3.0
POWER = {r: i for i, r in enumerate(("6", "7", "8", "9", "10", "J", "Q", "K", "A"))}


def cost(card: str, trump: str) -> float:
    return POWER[card[:-1]] + (TRUMP if card[-1] == trump else 0.0)


def evaluate(view: dict[str, Any], label: str) -> float:
    trump = view["trump_suit"]
    endgame = view["stock_size"] == 0
    shed = ENDGAME if endgame else 0.0
    words = label.split()
    if words[0] == "pass":
        return 0.0
    if words[0] == "take":
        bout = view["bout"]
        uncovered = sum(1 for _, b in bout if b is None)
        return -(TAKE_BASE + TAKE_PER_CARD * (len(bout) + uncovered)) - (TAKE_BASE if endgame else 0.0)
    card = words[1]
    if len(words) > 2:                  # several cards of one rank (DU-13.1)
        costs = [cost(c, trump) for c in words[1:]]
        if view["phase"] == "attack":   # a lead: its mean cost, a pair bonus a card
            return 20.0 - sum(costs) / len(costs) + PAIR * (len(costs) - 1)
        return len(costs) * (THROW + shed) - sum(costs)    # each as thrown alone
    if words[0] == "transfer":
        return TRANSFER - cost(card, trump) + shed
    if words[0] == "beat":
        return -cost(card, trump) + shed
    if view["phase"] == "attack":
        value = 20.0 - cost(card, trump)
        if sum(1 for c in view["hand"] if c[:-1] == card[:-1]) > 1:
            value += PAIR
        return value
    return THROW - cost(card, trump) + shed


def choose(game: Game, rng: Random) -> int:
    seat = game.current_player
    view = game.view(seat)
    ids = game.legal_action_ids()
    if len(ids) == 1:
        return ids[0]
    labels = {i: game.action_from_id(i).label for i in ids}
    return best_by(ids, lambda i: evaluate(view, labels[i]), rng)
