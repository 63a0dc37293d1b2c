"""GreedyBot's Gin Rummy heuristic: one move ahead, from what the seat may know.

The policy runs in the core (``kernel.c``, section "GreedyBot's policy"; ``GameState.
greedy_move``). It reads only the seat's own hand and the table. Every legal action gets a
value; the best wins (ties within 1e-9 broken with one draw from the bot's generator):

* knock as soon as the rules allow (GR-5.1, GR-5.2), and declare big gin (keep all eleven
  cards) whenever it is offered (GR-6.4);
* take the upcard when it joins a meld of the hand's best arrangement (more points melded),
  else pass the first upcard (GR-3.1) or draw from the stock (GR-4.1);
* discard the card after which the least deadwood is left, the dearer card on a tie (GR-4.1;
  after a knock among the discards allowed, GR-6.2);
* lay the melds of the hand's best arrangement, then pass (GR-6.3, GR-7.2);
* lay off every card that no meld of the hand's best arrangement needs, the dearest first
  (GR-7.1).
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
