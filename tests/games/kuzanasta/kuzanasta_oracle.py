"""Plain-Python brute-force oracle for Kuzanasta sets (KZ-4, KZ-5, KZ-7.1).

Written straight from the rule text, independently of the kernels in games/kuzanasta/_sets.pyx: a group
is a set if some rank r has at least one natural card in it and every other card is of the
wild rank; the best declaration tries every pair of disjoint 3- and 4-card groups of the hand.
Card ids: suit * 13 + rank (ranks A..K = 0..12, suits C S D H = 0..3), joker 52.
"""
from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

JOKER = 52
FACE = {10, 11, 12}
CLUBS, SPADES, DIAMONDS, HEARTS = 0, 1, 2, 3


def set_value(group: Sequence[int], wild: int | None) -> int:
    """KZ-5.3/5.4: value of a group (0 if not a set)."""
    if len(group) not in (3, 4) or JOKER in group:               # KZ-5.1, KZ-4.3
        return 0
    ranks = [c % 13 for c in group]
    others = {r for r in ranks if r != wild}
    if len(others) > 1:
        return 0                       # KZ-4.1: only cards of the wild rank may stand in
    if others:
        r = others.pop()               # KZ-5.1: the set's rank has a natural card
        natural = wild not in ranks
    else:
        r = wild                       # KZ-4.2: all of the wild rank: a natural set of it
        natural = True
    face = r in FACE
    if len(group) == 3:
        return (20000 if natural else 10000) if face else (10000 if natural else 5000)
    if face:
        return 2000 if natural else 1000
    if not natural:
        return 500
    suits = [c // 13 for c in group]
    if suits.count(HEARTS) == 2 and suits.count(DIAMONDS) == 2:     # KZ-5.4: best row
        return 1500
    if suits.count(CLUBS) == 2 and suits.count(SPADES) == 2:
        return 1100
    return 1000


_SUBSETS: dict = {}


def _subsets(n: int) -> list:
    """Every 3- and 4-element index tuple of range(n), with its bit mask (cached per n)."""
    if n not in _SUBSETS:
        _SUBSETS[n] = [(idx, sum(1 << i for i in idx))
                       for size in (3, 4) for idx in combinations(range(n), size)]
    return _SUBSETS[n]


def best_two(hand: Sequence[int], wild: int | None) -> int:
    """KZ-7.1: the highest total of two disjoint sets of 3 or 4 cards (0 if none)."""
    groups = []
    for idx, mask in _subsets(len(hand)):
        v = set_value([hand[i] for i in idx], wild)
        if v:
            groups.append((mask, v))
    # Every pair of disjoint groups; sorting by value only lets the scan stop early once no
    # remaining pair can beat the best found (the result is the same as the full scan).
    groups.sort(key=lambda g: -g[1])
    best = 0
    for a, (ma, va) in enumerate(groups):
        if 2 * va <= best:
            break
        for mb, vb in groups[a + 1:]:
            if va + vb <= best:
                break
            if not ma & mb:
                best = va + vb
    return best


# ---------------------------------------------------------------- the deal (KZ-1.1, KZ-2.3..2.7)
HAND_SIZE = 7


def composition() -> list:
    """KZ-1.1: deck A, deck B without J/Q/K, one joker; id order."""
    cards = [s * 13 + r for s in range(4) for r in range(13)]
    cards += [s * 13 + r for s in range(4) for r in range(10)]
    return sorted(cards + [JOKER])


def deal_model(deck: Sequence[int], players: int, first: int, adjacent: bool = False) -> dict:
    """The deal of KZ-2.3..2.7 done literally on a top-first deck of ids.

    Returns hands (list per seat, in the order dealt), stocks (top-first lists of the piles in
    play), discards (bottom -> top), pile_of (per seat), dead (the set-aside pile), wild."""
    turn_up = deck[0]
    rest = list(deck[1:])
    rest.insert(len(rest) // 2, turn_up)                           # KZ-2.3
    hands = [[] for _ in range(players)]
    for i in range(HAND_SIZE * players):                           # KZ-2.4
        hands[(first + i) % players].append(rest[i])
    rest = rest[HAND_SIZE * players:]
    half = (len(rest) + 1) // 2                                    # KZ-2.5
    piles = [rest[:half], rest[half:]]
    dead = []
    if players == 4:                                               # KZ-2.6
        pile_of = [0] * 4
        for i in range(4):
            seat = (first + i) % 4
            pile_of[seat] = (0 if i < 2 else 1) if adjacent else i % 2
    else:
        pile_of = [0] * players
        dead = piles.pop()
    discards = [[p.pop(0)] for p in piles]                         # KZ-2.7
    return {"hands": hands, "stocks": piles, "discards": discards, "pile_of": pile_of,
            "dead": dead, "wild": None if turn_up == JOKER else turn_up % 13,
            "turn_up": turn_up}
