"""An independent judge of Durak's legal moves, written from the rulebook (games/durak.md),
not from the kernel: given what the player to move sees (its ``view``: its hand, the bout's
pairs, every hand's size, who attacks and defends, the phase) it lists the moves DU-4 to DU-6,
DU-9, DU-10 and DU-13 allow, as (kind, cards) with the cards as a set. The differential test
(test_durak_oracle.py) compares them with the engine's legal actions at every step of random
playouts, with ``attack_many`` on and off.

It reads facts from the view (who defends, whose turn, the phase, how many bouts the hand has
had), never a rule's outcome: the kinds of move, the ranks that may be thrown in, the limits
and who a transfer goes to are worked out here."""
from __future__ import annotations

from itertools import combinations
from typing import Any, Mapping

RANKS = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")     # DU-1.3, low to high

Move = tuple[str, frozenset[str]]


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def beats(card: str, target: str, trump: str) -> bool:
    """DU-4.3: a higher card of the suit, or a trump on a card that is not one."""
    if suit(card) == suit(target):
        return RANKS.index(rank(card)) > RANKS.index(rank(target))
    return suit(card) == trump and suit(target) != trump


def bout_limit(options: Mapping[str, Any], bouts: int) -> int:
    """DU-4.5, DU-4.6: six attacking cards, five in the hand's first bout with the option
    (``bouts``: the bouts the hand has finished)."""
    return 5 if options["first_bout_five"] and bouts == 0 else 6


def new_defender(view: Mapping[str, Any], options: Mapping[str, Any]) -> int | None:
    """DU-9.1, DU-10.2: the next player up from the defender holding cards (an opponent of
    the defender with partners); the defender's own cards are counted after the transfer."""
    sizes, defender = view["hand_sizes"], view["defender"]
    n = len(sizes)
    for step in range(1, n):
        seat = (defender + step) % n
        if sizes[seat] == 0:
            continue
        if options["partners"] and seat % 2 == defender % 2:
            continue
        return seat
    return None


def group_moves(cards: list[str], many: bool, room: int) -> set[Move]:
    """Attacks with one card each, and with ``attack_many`` (DU-13.1) every set of two or
    more cards of one rank, of at most ``room`` cards."""
    moves: set[Move] = {("attack", frozenset([c])) for c in cards} if room >= 1 else set()
    if many:
        by_rank: dict[str, list[str]] = {}
        for c in cards:
            by_rank.setdefault(rank(c), []).append(c)
        for same in by_rank.values():
            for k in range(2, min(len(same), room) + 1):
                moves |= {("attack", frozenset(s)) for s in combinations(same, k)}
    return moves


def legal_moves(view: Mapping[str, Any], options: Mapping[str, Any]) -> set[Move]:
    """The moves the rulebook allows the player to move (``view`` is its own)."""
    hand, phase, trump = list(view["hand"]), view["phase"], view["trump_suit"]
    bout = [(a, c) for a, c in view["bout"]]
    attacking = [a for a, _ in bout]
    open_cards = [a for a, c in bout if c is None]
    defender_cards = view["hand_sizes"][view["defender"]]
    limit = bout_limit(options, view["bouts"])
    many = bool(options["attack_many"])
    if phase == "attack":                          # DU-4.1: the attacker leads, nothing else
        assert not bout
        return group_moves(hand, many, min(limit, defender_cards))
    if phase == "defend":                          # DU-4.2, DU-6.1, DU-9
        first = open_cards[0]
        moves: set[Move] = {("beat", frozenset([c])) for c in hand if beats(c, first, trump)}
        moves.add(("take", frozenset(c for pair in bout for c in pair if c is not None)))
        if options["transfer"] and all(c is None for _, c in bout):
            target = new_defender(view, options)
            n = len(attacking) + 1
            if target is not None and n <= limit and view["hand_sizes"][target] >= n:
                moves |= {("transfer", frozenset([c])) for c in hand
                          if rank(c) == rank(attacking[0])}
        return moves
    if phase in ("throw_in", "take_throw_in"):      # DU-5, DU-6.2, DU-13.1, DU-13.3
        ranks = {rank(c) for pair in bout for c in pair if c is not None}
        room = min(limit - len(attacking), defender_cards - len(open_cards))
        throwable = [c for c in hand if rank(c) in ranks]
        return group_moves(throwable, many, room) | {("pass", frozenset())}
    return set()


def engine_moves(game: Any) -> set[Move]:
    """The engine's legal actions as (kind, cards)."""
    return {(a.kind, frozenset(a.cards)) for a in game.legal_actions()}
