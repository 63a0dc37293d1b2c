"""The Python heuristic of GreedyBot for Manna from Heaven (cardcore 0.2-0.3), kept as the oracle
for the in-core policy (mh_greedy in src/cardcore/games/manna/kernel.c): test_manna_greedy_policy.py checks
that the core makes the same choice and the same random draws in every position it visits.
The logic is greedy.py's as it was, unchanged.

Draw: take the pile when it is legal and worth it (it always is for the initial meld, and for
piles of three or more cards, or when the top card joins a meld for free). Meld: lay the best
meld while one scores well (canastas first, above all of a type the team still lacks, then
natural cards; wild cards are kept for canastas and the initial meld). If the initial meld falls
short, take it back. Discard: black threes first (stop cards), never a card of a rank the
opponents are melding, and otherwise the least useful low card.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardcore.games.manna._state import ACTION_LAYOUT, card_points_of, meld_table

if TYPE_CHECKING:
    from cardcore._fast import Random
    from cardcore.game import Game

LAY = ACTION_LAYOUT
TABLE = meld_table()
DRAW, TAKE_ADD, TAKE_JOKER, RETRACT = LAY["draw"], LAY["take_add"], LAY["take_joker"], LAY["retract"]
DISCARD, GO_OUT, MELD = LAY["discard"], LAY["go_out"], LAY["meld"]
SEVEN, WILD_GROUP, BLACK3 = 6, 13, 14
TYPE_OF_GROUP = {WILD_GROUP: "wild", SEVEN: "sevens"}


def _rank(card: int) -> int:
    return 13 if card == 52 else card % 13


def _meld_score(s: Any, action: int, team: int, opened: bool) -> float:
    """How good a meld is for the team (higher is better; <= 0: not worth it); ``s`` is a
    ``game.state`` snapshot."""
    group, new, n, t, j = TABLE[action - MELD]
    if group == BLACK3:
        return 1000.0                      # only legal when it leads to going out
    size = n + t + j
    unfinished = {g: len(cards) for g, cards, ctype in s.melds(team) if ctype is None}
    final = size + (0 if new else unfinished.get(group, 0))
    types = set(s.canasta_types(team))
    score = 0.0
    if final == 7:
        kind = ("wild" if group == WILD_GROUP else "mixed" if (t + j or any(
            w for g, cards, ctype in s.melds(team) if g == group and ctype is None
            for w in cards if w == 52 or w % 13 == 1)) else TYPE_OF_GROUP.get(group, "natural"))
        score += 400 if kind not in types else 150
    score += 12 * n + (4 if group == SEVEN else 0) * n
    wilds = t + j
    if wilds:
        if group == WILD_GROUP:
            score += 30 * wilds         # the wild canasta is the hardest type to make
        elif opened and "mixed" in types:
            score -= 100 * wilds        # save wild cards for the wild canasta
        elif final == 7 or not opened:
            score += 5 * wilds
        else:
            score -= 15 * wilds
    return score


def _discard_score(s: Any, card: int, hand: list[int], team: int) -> float:
    """Lower is a better discard."""
    r = _rank(card)
    if r == 2:
        return -100.0                           # a black three stops the next player
    same = sum(1 for x in hand if _rank(x) == r)
    score = float(card_points_of(card) + 8 * (same - 1))
    if r in (1, 13):
        score += 80                             # keep wild cards
    enemy = {g for g, cards, ctype in s.melds(1 - team) if ctype is None}
    if r in enemy:
        score += 120                            # it would join their meld with the pile
    ours = {g for g, cards, ctype in s.melds(team) if ctype is None}
    if r in ours:
        score += 30
    return score


def choose(game: Game, rng: Random) -> int:
    """A legal action id for the player to move."""
    ids = [int(i) for i in game.legal_action_ids()]
    s: Any = game.state
    p = game.current_player
    assert p is not None
    team = p % 2
    opened = s.opened()[team]
    if s.phase == 0:                                           # draw stage
        takes = [i for i in ids if TAKE_ADD <= i <= TAKE_JOKER]
        if takes:
            return TAKE_ADD if TAKE_ADD in takes else min(takes)
        return DRAW
    outs = [i for i in ids if GO_OUT <= i < MELD]
    if outs:
        return outs[0]
    melds = [i for i in ids if i >= MELD]
    if melds:
        scored = [(_meld_score(s, i, team, opened), rng.below(1 << 16), i) for i in melds]
        best = max(scored)
        if best[0] > 0:
            return best[2]
    discards = [i for i in ids if DISCARD <= i < GO_OUT]
    if not discards:
        if RETRACT in ids:
            return RETRACT
        return ids[rng.below(len(ids))]
    hand: list[int] = s.hand(p)
    return min((_discard_score(s, i - DISCARD, hand, team), rng.below(1 << 16), i)
               for i in discards)[2]
