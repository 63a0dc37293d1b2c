"""GreedyBot's Belote Contrée heuristic: one move ahead, from what the seat may know.

The policy runs in the core (``kernel.c``, section "GreedyBot's policy", the weights' one
source; ``GameState.greedy_move``). It reads only the seat's own hand, the auction and the
trick on the table. Every legal action gets a value; the best wins (ties within 1e-9 broken
with one draw from the bot's generator, only when there is a tie):

* auction (BE-3): a suit's worth is the trump points of the hand's cards of that suit
  (BE-4.2) plus 6 per card of it, plus 10 per ace of another suit. With no bid yet it opens
  80 in its best suit when that worth reaches 70 (the dealer, last to speak, opens whatever
  its hand: a table of greedy players never passes the deal out); over an opponents' contract it raises by one
  step (10) in its best suit when the worth reaches the new value; it never outbids its
  partner and never says contre or surcontre; otherwise it passes. With ``contracts="all"``
  (BE-9) no-trump and all-trump compete as two more "suits": no-trump's worth is the hand's
  no-trump points (BE-9.2) plus 4 per ace, all-trump's its all-trump points (BE-9.3) plus 6
  per jack;
* lead (BE-5.1): the strongest card (trumps above plain cards, then by rank; all-trump: by
  the trumps' order), points breaking ties;
* when the partner holds the trick (BE-5.3): the card worth most points, trumps kept back
  (-30);
* otherwise: the cheapest card that takes the trick, or, if none does, the cheapest card.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardcore._fast import Random
    from cardcore.game import Game

__all__ = ["choose"]


def choose(game: Game, rng: Random) -> int:
    """A legal action id for the player to move (the in-core policy; its tie-breaks are drawn
    from ``rng``)."""
    return int(game.state.greedy_move(rng))
