"""GreedyBot's Crazy Eights heuristic: one move ahead, from what the seat may know.

The policy runs in the core (``kernel.c``, section "GreedyBot's policy", the weights' one
source; ``GameState.greedy_move``). It reads only the seat's own hand and the public table
(the hand sizes of the players after and before it in the direction of play, the plays so
far against ``max_turns``, the options). Every legal action gets a value; the best wins (ties
within 1e-9 broken with one draw from the bot's generator, only when there is a tie):

* a card that matches beats an eight: eights are kept for when nothing else plays (an eight
  plays on anything, CE-3.1; its value is its points minus 100) — but an eight is played
  rather than drawing (-1000);
* among matching cards, the dearest first (what is left in the hand at the end is penalty
  points, CE-8: a card is worth its points under the game's ``scoring``), and one of the suit
  the hand holds most of (+4 per other card of its suit in the hand, eights and the card's
  own copies left out: the next turn is likelier to match);
* with special cards (CE-4): a 2 answers a debt instead of drawing it; when the next player is
  close to going out (at most 2 cards), a 2 makes them draw (+24), a queen skips them (+12)
  and an ace turns the play away from them (+12, when the player before holds more cards)
  (measured: spending the specials earlier wins no more games against random seats or
  against this bot, and loses a little in 3-player games);
* near the ``max_turns`` limit (CE-7.2: 3 plays left or fewer) only the points count: the
  dearest card goes first, eights included;
* after an eight, nominate the suit held most (CE-3.3: its count of cards, eights left out);
* draw only when nothing is playable (CE-5.1), pass when no draw is left (-2000; CE-5.2,
  CE-5.3).
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
