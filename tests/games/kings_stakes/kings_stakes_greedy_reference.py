"""GreedyBot's heuristic for Kings' Stakes: one-move lookahead on public information.

The Python heuristic of cardcore 0.2-0.3 (``cardcore.games.kings_stakes.greedy`` then), kept
unchanged as the test oracle of the in-core policy (``GameState.greedy_move``, the kernel's
section "GreedyBot's policy"): the same choice and the same draws in every position.

Every legal action gets a value; the best wins (ties broken by the bot's generator):

* taking the table (KS-6) costs its cards, so it is chosen only when nothing else is legal
  or every play would waste more than the table is worth;
* a play is worth the **pressure** it leaves on the next player — the stake they must meet
  (KS-4.3). Above 22 no number play can answer, only specials (KS-5); a doubled stake is
  the strongest threat;
* minus what the cards spent are worth keeping: jokers and kings are the emergency exits
  (a king clears a full table, KS-5.3), aces and tens answer high stakes;
* a king on a full table is worth the cards it sends out of play (nobody takes them);
* once the stock is empty, shedding cards gets the player out sooner (KS-8.1);
* four kings (KS-5.7) always: the player scores 0 for the round and everyone else +1;
* with ``refill="manual"`` always refill (forgetting costs a penalty point, KS-7.3).
"""
from __future__ import annotations

from typing import Any

from cardcore._fast import Random
from cardcore.game import Game, best_by

__all__ = ["choose", "evaluate"]

# Weights. Tuned by self-play (2,000-game matches, a variant against the previous weights in
# alternate seats): keeping jokers, kings, aces and tens mattered most; doubling those keep
# values and halving the pressure weight won 35.6 % to 24.9 %. Other knobs were flat.
TAKE_BASE = 6.0            # the first penalty card turns a 0-point round into >= 1 point
TAKE_PER_CARD = 3.0
PRESSURE_PER_POINT = 0.25  # stake points the next player has to meet
UNANSWERABLE = 22          # no number play is worth more (A+A or two jokers)
UNANSWERABLE_BONUS = 4.0
CLEAR_PER_CARD = 2.0       # a king sends the table out of play
SHED_PER_CARD = 2.5        # stock empty: every card played brings going out closer
KEEP = {"JK": 14.0, "K": 10.0, "Q": 3.5, "J": 2.0, "A": 5.0, "10": 3.5}

# Per configuration: (kind, effect, amount, cards) per action id, decoded once.
_FEATURES: dict[tuple[Any, ...], list[tuple[str, str, int, tuple[str, ...]]]] = {}


def _features(game: Game) -> list[tuple[str, str, int, tuple[str, ...]]]:
    key = (game.num_players, tuple(sorted(game.options.items(), key=lambda kv: kv[0])))
    table = _FEATURES.get(key)
    if table is None:
        table = []
        for i in range(game.num_distinct_actions):
            a = game.action_from_id(i)
            table.append((a.kind, str(a.info.get("effect", "")), int(a.info.get("amount", 0)),
                          tuple(a.cards)))
        _FEATURES[key] = table
    return table


def _keep_cost(cards: tuple[str, ...]) -> float:
    cost = 0.0
    for c in cards:
        rank = c if c == "JK" else c[:-1]
        cost += KEEP.get(rank, 0.1 * (int(rank) if rank.isdigit() else 0))
    return cost


def _pressure(stake: int) -> float:
    return PRESSURE_PER_POINT * min(stake, UNANSWERABLE) + (
        UNANSWERABLE_BONUS if stake > UNANSWERABLE else 0.0)


def evaluate(feature: tuple[str, str, int, tuple[str, ...]], stake: int, table_size: int,
             stock_size: int) -> float:
    """The value of one action in the current position (higher is better)."""
    kind, effect, amount, cards = feature
    if kind == "take":
        return -(TAKE_BASE + TAKE_PER_CARD * table_size)
    if kind == "refill":
        return 1.0
    if kind == "end_turn":
        return -1.0
    if effect == "four_kings":
        return 1000.0
    if effect == "number":
        if amount > stake:
            after = amount
        elif amount == stake and stake > 0:
            after = 2 * stake
        else:
            after = stake
        value = _pressure(after)
    elif effect == "jack":
        value = _pressure(stake + 1)
    elif effect == "queen":
        value = _pressure(stake)
    elif effect == "queen_jack":
        value = _pressure(stake + 10)
    elif effect == "king":
        value = _pressure(15) if table_size == 0 else CLEAR_PER_CARD * table_size
    else:                                   # king_queen: stake 0, the table stays
        value = 0.0
    value -= _keep_cost(cards)
    if stock_size == 0:
        value += SHED_PER_CARD * len(cards)
    return value


def choose(game: Game, rng: Random) -> int:
    """A legal action id for the player to move."""
    ids = game.legal_action_ids()
    if len(ids) == 1:
        return int(ids[0])
    features = _features(game)
    state: Any = game.state                 # the Cython state's public getters
    stake = state.stake
    table_size = len(state.table())
    stock_size = state.stock_size
    return best_by(ids, lambda i: evaluate(features[i], stake, table_size, stock_size), rng)
