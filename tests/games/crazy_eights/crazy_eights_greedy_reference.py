"""GreedyBot's Crazy Eights heuristic: one move ahead, from what the seat may know.

The Python heuristic of cardcore 0.2-0.3 (``cardcore.games.crazy_eights.greedy`` then), kept
unchanged as the test oracle of the in-core policy (``GameState.greedy_move``, the kernel's
section "GreedyBot's policy"): the same choice and the same draws in every position.

It reads only the seat's own hand and the public table (the suit to follow, the hand sizes,
the stock, the debt, the plays so far). Every legal action gets a value; the best wins (ties
broken by the bot's generator):

* a card that matches beats an eight: eights are kept for when nothing else plays (an eight
  plays on anything, CE-3.1) — but an eight is played rather than drawing;
* among matching cards, the dearest first (what is left in the hand at the end is penalty
  points, CE-8), and one of the suit the hand holds most of (the next turn is likelier to
  match);
* with special cards (CE-4): a 2 answers a debt instead of drawing it; when the next player is
  close to going out, a 2 makes them draw, a queen skips them and an ace turns the play away
  from them (measured: spending the specials earlier wins no more games against random seats
  or against this bot, and loses a little in 3-player games);
* near the ``max_turns`` limit (CE-7.2) the dearest card goes first, eights included;
* after an eight, nominate the suit held most (CE-3.3);
* draw only when nothing is playable (CE-5.1), pass when no draw is left (CE-5.2, CE-5.3).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardcore._fast import rank_of, suit_of
from cardcore.game import best_by
from cardcore.games.crazy_eights._state import (
    DRAW, NOMINATE_FIRST, PASS, SPECIAL_RANKS, SUIT_LETTERS, WILD_RANK, action_table,
    penalty_points,
)

if TYPE_CHECKING:
    from cardcore._fast import Random
    from cardcore.game import Game

__all__ = ["choose", "evaluate"]

EIGHT_COST = 100.0          # an eight kept is an answer to any card: spend it last
SAME_SUIT = 4.0             # per card of the played card's suit left in the hand
# The special cards, played on a next player close to going out (at most CLOSE cards).
TWO_BONUS = 24.0            # a 2: they draw two (or answer with a 2)
SKIP_BONUS = 12.0           # a queen: they miss the turn
REVERSE_BONUS = 12.0        # an ace, when the player before has more cards
CLOSE = 2
ENDGAME_PLAYS = 3           # plays left before max_turns at which only the points count

# The card (cardcore id) each play id plays, from the kernel's action table.
_CARD_OF: dict[int, int] = {i: card for i, (kind, card, _) in enumerate(action_table())
                            if kind == "play" and card is not None}
# OpenSpiel's suit order of the nominations (C D H S), as cardcore suit indexes (C S D H).
_NOMINATED = [("C", "S", "D", "H").index(letter) for letter in SUIT_LETTERS]
_POINTS: dict[str, dict[int, int]] = {}


def _points(scoring: str) -> dict[int, int]:
    """The kernel's penalty points of each card under a scoring (CE-8.1, CE-8.2)."""
    table = _POINTS.get(scoring)
    if table is None:
        table = _POINTS[scoring] = {card: penalty_points([card], scoring)
                                    for card in _CARD_OF.values()}
    return table


def evaluate(action: int, hand: list[int], table: dict[str, Any]) -> float:
    """The value of one legal action for the seat holding ``hand`` (higher is better).
    ``table`` holds the public facts: ``points`` (per card), ``next_size`` and ``previous_size``
    (the hand sizes of the players after and before the seat, in the direction of play),
    ``plays_left`` (before max_turns), ``special`` (use_special_cards)."""
    if action == DRAW:
        return -1000.0
    if action == PASS:
        return -2000.0
    if action >= NOMINATE_FIRST:
        suit = _NOMINATED[action - NOMINATE_FIRST]
        return float(sum(1 for c in hand if suit_of(c) == suit and rank_of(c) != WILD_RANK))
    card = _CARD_OF[action]
    rank, suit = rank_of(card), suit_of(card)
    value = float(table["points"][card])
    if table["plays_left"] <= ENDGAME_PLAYS:
        return value                              # CE-7.2: the hand ends soon, shed points
    if rank == WILD_RANK:
        return value - EIGHT_COST
    value += SAME_SUIT * sum(1 for c in hand if c != card and suit_of(c) == suit
                             and rank_of(c) != WILD_RANK)
    if table["special"] and table["next_size"] <= CLOSE:
        if rank == SPECIAL_RANKS["draw_two"]:
            value += TWO_BONUS
        elif rank == SPECIAL_RANKS["skip"]:
            value += SKIP_BONUS
        elif rank == SPECIAL_RANKS["reverse"] and table["next_size"] < table["previous_size"]:
            value += REVERSE_BONUS
    return value


def choose(game: Game, rng: Random) -> int:
    """A legal action id for the player to move."""
    ids = game.legal_action_ids()
    if len(ids) == 1:
        return int(ids[0])
    state: Any = game.state                   # the state's public getters (the C kernel's)
    seat = state.current_player
    players = game.num_players
    sizes = state.hand_sizes()
    direction = state.direction
    table = {
        "points": _points(game.options["scoring"]),
        "next_size": sizes[(seat + direction) % players],
        "previous_size": sizes[(seat - direction) % players],
        "plays_left": game.options["max_turns"] - state.plays,
        "special": game.options["use_special_cards"],
    }
    hand = state.hand(seat)                   # the seat's own cards only
    return best_by(ids, lambda i: evaluate(i, hand, table), rng)
