"""GreedyBot's Durak heuristic: one move ahead, from what the seat may know.

The policy runs in the core (``kernel.c``, section "GreedyBot's policy", the weights' one
source; ``GameState.greedy_move``). It reads only the seat's own hand, the table, the trump
and the stock's size. Every legal action gets a value; the best wins (ties within 1e-9 broken
with one draw from the bot's generator, only when there is a tie). A card's worth is its
power (six 0 ... ace 8, DU-1.3), a trump 9 more:

* leading (DU-4.1): 20 less the card's worth (the cheapest card), +1.5 when the hand holds another of its rank (it can
  be thrown in after);
* throwing in (DU-5): a card worth less than 6.5 rather than passing (0); with the stock
  empty every card shed is worth 3 more;
* defending (DU-4.2): the cheapest card that beats; taking costs 4 + 1.5 per attacking card
  (each uncovered one twice), 4 more with the stock empty; a transfer (DU-9) is worth 3 more
  than beating with the same card;
* several cards of one rank at once (``attack_many``, DU-13): a lead is worth 20 less the
  cards' mean worth, +1.5 for each card after the first; a throw-in is worth what each card
  thrown in alone is, summed.
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
