"""GreedyBot for Manna from Heaven: a one-move heuristic using only what the player may see.

The policy runs in the core (the game's ``greedy`` hook, ``mh_greedy`` in ``kernel.c``, where
its weights are defined); ``choose`` asks the state for it. It makes the choices, and the
random draws, of the Python heuristic of cardcore 0.2-0.3 (kept as the tests' oracle).

Draw: take the pile whenever a take is legal (``take add`` first, else the lowest way offered),
else draw. Meld: go out when offered; else lay the best meld if its value is above 0 (canastas
first, above all of a type the team still lacks, then natural cards; wild cards are kept for
canastas and the initial meld); else discard the card of lowest value; else take a short
initial meld back (retract); else (not met in play) a random legal move. Every meld and every
discard considered draws one ``below(1 << 16)`` tie-break, in id order; equal values go to the
higher draw (melds) or the lower (discards), then to the higher or lower id.

Meld value: black threes 1000 (only offered when they lead to going out); a canasta completed
+400 if the team lacks its type (wild; mixed when it has a wild card; sevens; natural), else
+150; +12 per natural card, +4 more per seven; per wild card: +30 in the wild meld, -100
elsewhere once the team has opened and holds a mixed canasta (saved for the wild canasta), +5
if it completes a canasta or the team has not opened, else -15.

Discard value (lower is better): a three -100 (a black three stops the next player); else the
card's points, +8 per other card of its kind in hand, +80 for a wild card, +120 if the
opponents have an unfinished meld of its kind (it would join their meld with the pile), +30 if
the team has one.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardcore._fast import Random
    from cardcore.game import Game


def choose(game: Game, rng: Random) -> int:
    """A legal action id for the player to move (the in-core policy; ties from ``rng``)."""
    return int(game.state.greedy_move(rng))
