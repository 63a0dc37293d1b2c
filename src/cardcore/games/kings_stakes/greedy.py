"""GreedyBot's heuristic for Kings' Stakes: one-move lookahead on public information.

The policy runs in the core (``_state.pyx``, section "GreedyBot's policy", the weights' one
source; ``GameState.greedy_move``): it reads the stake, the sizes of the table and the stock
and the cards each legal play spends from the seat's own hand, nothing hidden. Every legal
action gets a value; the best wins (ties within 1e-9 broken with one draw from the bot's
generator, only when there is a tie):

* taking the table (KS-6) costs its cards, so it is chosen only when nothing else is legal
  or every play would waste more than the table is worth: -(6 + 3 per card on the table);
* a play is worth the **pressure** it leaves on the next player — the stake they must meet
  (KS-4.3): 0.25 per stake point up to 22; above 22 no number play can answer, only specials
  (KS-5), +4; a doubled stake is the strongest threat;
* minus what the cards spent are worth keeping: jokers (14) and kings (10) are the emergency
  exits (a king clears a full table, KS-5.3), aces (5) and tens (3.5) answer high stakes;
  queens 3.5, jacks 2, 2..9 a tenth of their pips;
* a king on a full table is worth the cards it sends out of play (2 per card; nobody takes
  them); on an empty table the pressure of stake 15 (KS-5.4); K+Q (KS-5.5) nothing;
* once the stock is empty, shedding cards gets the player out sooner (KS-8.1): +2.5 per card;
* four kings (KS-5.7) always (1000): the player scores 0 for the round and everyone else +1;
* with ``refill="manual"`` always refill (+1 against -1; forgetting costs a penalty point,
  KS-7.3).

The weights were tuned by self-play (2,000-game matches, a variant against the previous
weights in alternate seats): keeping jokers, kings, aces and tens mattered most; doubling
those keep values and halving the pressure weight won 35.6 % to 24.9 %. Other knobs were flat.
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
