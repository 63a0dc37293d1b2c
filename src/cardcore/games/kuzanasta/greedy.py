"""GreedyBot's Kuzanasta heuristic: a one-move look-ahead on a hand evaluation.

The policy runs in the core (``kz_greedy`` in ``_state.pyx``, the hook ``GameHooks.greedy``:
``game.state.greedy_move(rng)``); this module is its Python face, and the weights below are
read from the kernel, their one source.

It sees only what the seat may know (its own hand, the wild rank, the discard piles; with the
God card the stock contents that KZ-6.2 shows). The evaluation of a hand is the value of its
best two sets (Kuzanasta's ``best_two_sets``) plus a small potential for pairs, triples, wild
cards and the joker (which doubles the deal, KZ-7.3), minus its card points (they go to the
winner if someone else goes out, KZ-7.2): 400 per unit of potential (a pair of a natural rank
1, three or more 3, doubled for J-K), 600 per wild card, 900 for the joker. Then:

* draw: the God draw's best card when holding the joker; else the discard top if it raises
  the hand's best evaluation, else the stock (the joker and wild cards are always taken);
* discard: the card whose loss keeps the best evaluation (the lowest card id among equals;
  rarely a wild card, and the joker only with ``sets="three_and_four"``, when the seven cards
  left make the declaration, which the joker never belongs to);
* declare: go out with the best declaration, except that two mixed number sets (10000) early
  in a deal wait a couple of turns for a better hand (below ``WAIT_BELOW`` while fewer than
  ``WAIT_TURNS_PER_PLAYER`` turns a seat were played); without two sets, end the turn.

Every option value is played: with ``sets="three_and_four"`` hands are valued by their best
3-card + 4-card partition; with ``god_draw="position"`` the God draw is a blind place, no
better than the stock's top, so the bot draws as without the joker; with
``going_out="immediate"`` (no declare step) the engine goes out for it. A choice that is not
legal would become a uniformly random legal id, the policy's one draw from ``rng``; no position
the rules reach needs it (a God holder's own discard pile is never empty at its draw).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from cardcore.games.kuzanasta._state import WAIT_BELOW, WAIT_TURNS_PER_PLAYER

if TYPE_CHECKING:
    from cardcore._fast import Random
    from cardcore.game import Game

__all__ = ["WAIT_BELOW", "WAIT_TURNS_PER_PLAYER", "choose"]


def choose(game: Game, rng: Random) -> int:
    """A legal action id for ``game.current_player``: the in-core policy's choice."""
    return int(game.state.greedy_move(rng))
