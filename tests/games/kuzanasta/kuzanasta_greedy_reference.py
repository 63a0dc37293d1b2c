"""GreedyBot's Kuzanasta heuristic: a one-move look-ahead on a hand evaluation.

The Python heuristic of cardcore 0.2-0.3, kept as the oracle for the in-core policy
(``kz_greedy`` in ``cardcore.games.kuzanasta._state``; test_kuzanasta_greedy_policy.py).

It sees only what the seat may know (its own hand, the wild rank, the discard piles; with the
God card the stock contents that KZ-6.2 shows). The evaluation of a hand is the value of its
best two sets (Kuzanasta's ``best_two_sets``) plus a small potential for pairs, triples, wild
cards and the joker (which doubles the deal, KZ-7.3), minus its card points (they go to the
winner if someone else goes out, KZ-7.2). Then:

* draw: the God draw's best card when holding the joker; else the discard top if it raises
  the hand's best evaluation, else the stock;
* discard: the card whose loss keeps the best evaluation (never the joker, rarely a wild card);
* declare: go out with the best declaration, except that two mixed number sets (10000) early
  in a deal wait a couple of turns for a better hand; without two sets, end the turn.

Every option value is played: with ``sets="three_and_four"`` hands are valued by their best
3-card + 4-card partition; with ``god_draw="position"`` the God draw is a blind place, no
better than the stock's top, so the bot draws as without the joker; with
``going_out="immediate"`` (no declare step) the engine goes out for it.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cardcore.cards import JOKER
from cardcore.games.kuzanasta._sets import best_three_four_sets, best_two_sets
from cardcore.games.kuzanasta._state import (
    DISCARD_FIRST, DRAW_DISCARD, DRAW_STOCK, END_TURN, GO_OUT, GOD_DRAW_FIRST, GOD_LOOK,
    card_points_of,
)

if TYPE_CHECKING:
    from cardcore._fast import Random
    from cardcore.game import Game

WAIT_BELOW = 15000           # declarations worth less may wait ...
WAIT_TURNS_PER_PLAYER = 2    # ... while the deal is this young


def evaluate(cards: Sequence[int], wild: int | None, three_four: bool = False) -> int:
    """Best declaration's value (two sets; a 3-card and a 4-card set with ``three_four``)
    plus the hand's potential, minus its card points."""
    value: int = (best_three_four_sets if three_four else best_two_sets)(cards, wild)[0]
    counts = [0] * 13
    wilds = jokers = points = 0
    for c in cards:
        if c == JOKER:
            jokers += 1
            continue
        r = c % 13
        points += card_points_of(c)
        if r == wild:
            wilds += 1
        else:
            counts[r] += 1
    potential = 0
    for r, n in enumerate(counts):
        if n >= 2:
            potential += (3 if n >= 3 else 1) * (2 if r >= 10 else 1)
    return value + 400 * potential + 600 * wilds + 900 * jokers - points


def best_discard(hand: list[int], wild: int | None, three_four: bool = False
                 ) -> tuple[int, int]:
    """(card, evaluation of the hand without it) for the best card to let go."""
    best_card, best_value = -1, None
    for c in sorted(set(hand)):
        rest = list(hand)
        rest.remove(c)
        v = evaluate(rest, wild, three_four)
        if best_value is None or v > best_value:
            best_card, best_value = c, v
    return best_card, best_value  # type: ignore[return-value]


def choose(game: Game, rng: Random) -> int:
    """A legal action id for ``game.current_player``."""
    state: Any = game.state             # a KuzanastaState: only the seat's public getters
    legal = game.legal_action_ids()
    player = game.current_player
    hand = state.hand(player)
    wild = state.wild_rank
    phase = game.phase
    three_four = game.options["sets"] == "three_and_four"
    choice = -1
    if phase == "draw":
        if GOD_LOOK in legal:
            choice = GOD_LOOK                                    # KZ-6.2 beats a blind draw
        else:
            pile = state.discards()[state.pile_of(player)]
            choice = DRAW_STOCK if DRAW_STOCK in legal else DRAW_DISCARD
            if pile and DRAW_DISCARD in legal:
                top = pile[-1]
                taken = best_discard(hand + [top], wild, three_four)
                if top == JOKER or top % 13 == wild or taken[0] != top and \
                        taken[1] > evaluate(hand, wild, three_four):
                    choice = DRAW_DISCARD
    elif phase == "god_draw":
        scored = [(evaluate(hand + [a - GOD_DRAW_FIRST], wild, three_four), -a) for a in legal]
        choice = -max(scored)[1]
    elif phase == "discard":
        card, _ = best_discard(hand, wild, three_four)
        choice = DISCARD_FIRST + card
    elif phase == "declare":
        value = int(state.best_sets(player)[0])        # what go_out would declare
        young = state.turns_in_deal < WAIT_TURNS_PER_PLAYER * game.num_players
        choice = END_TURN if value == 0 or (value < WAIT_BELOW and young) else GO_OUT
    if choice not in legal:
        choice = legal[rng.below(len(legal))]
    return int(choice)
