"""Cards: the id layout, notation, parsing and formatting (docs/api.md, "Cards").

A card id is ``suit * 13 + rank`` with ranks A 2 3 4 5 6 7 8 9 10 J Q K (0..12) and suits
C S D H (0..3); the joker is 52. Identical copies in multi-deck games share one id. The
numbers are defined once, in ``_fast.pxd``; this module only names them.
"""
from __future__ import annotations

import re
from typing import Iterable

from cardcore._fast import JOKER_ID, NUM_CARD_KINDS
from cardcore.errors import echo

__all__ = [
    "RANKS", "SUITS", "JOKER", "Card", "parse_card", "card_id", "card_str", "sort_key",
    "format_cards", "parse_cards", "with_suit_symbols",
]

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("C", "S", "D", "H")
JOKER = JOKER_ID
_SUIT_SYMBOLS = {"♣": "C", "♠": "S", "♦": "D", "♥": "H"}
_SYMBOL_OF = {letter: symbol for symbol, letter in _SUIT_SYMBOLS.items()}
# A card notation standing alone in a text: "7H", "10D" (not part of a longer word).
_NOTATION = re.compile(r"(?<![\w-])(10|[2-9AJQK])([CSDH])(?![\w-])")     # not XX-9.2

_NAMES = tuple(f"{RANKS[i % 13]}{SUITS[i // 13]}" for i in range(52)) + ("JK",)
assert len(_NAMES) == NUM_CARD_KINDS
# id -> notation without card_str's range check: for loops over ids the kernel gave.
CARD_NAMES: tuple[str, ...] = _NAMES


def card_str(card_id: int) -> str:
    """Canonical notation of a card id: ``10H``, ``AS``, ``JK``."""
    if not 0 <= card_id < NUM_CARD_KINDS:
        raise ValueError(f"card id out of range: {card_id}")
    return _NAMES[card_id]


def card_id(text: str) -> int:
    """Parse a card notation (``10H``, ``th``, ``Q♦``, ``jk``) to its id; ValueError if not a card."""
    if not isinstance(text, str):
        raise ValueError(f"a card notation must be a str, not {type(text).__name__}")
    s = text.strip().upper()
    for symbol, letter in _SUIT_SYMBOLS.items():
        s = s.replace(symbol, letter)
    if s in ("JK", "JOKER"):
        return JOKER
    if len(s) < 2:
        raise ValueError(f"not a card: {echo(text)}")
    rank, suit = s[:-1], s[-1]
    if rank == "T":
        rank = "10"
    if rank not in RANKS or suit not in SUITS:
        raise ValueError(f"not a card: {echo(text)} (rank A 2-10 J Q K, suit C S D H, or JK)")
    return SUITS.index(suit) * 13 + RANKS.index(rank)


def sort_key(card: int) -> tuple[int, int]:
    """Display order: by rank (A low), then suit C S D H; the joker last."""
    return (13, 0) if card == JOKER else (card % 13, card // 13)


def format_cards(cards: Iterable[int], *, sort: bool = False) -> list[str]:
    """Card ids to notations, in the given order or (``sort=True``) in display order."""
    ids = sorted(cards, key=sort_key) if sort else list(cards)
    if ids and not (0 <= min(ids) and max(ids) < NUM_CARD_KINDS):
        for c in ids:
            card_str(c)                # raises, naming the id out of range
    return [_NAMES[c] for c in ids]    # a look-up per card: views format every zone


def with_suit_symbols(text: str) -> str:
    """A text with every card notation written with its suit's symbol (``7H`` -> ``7♥``), for
    a reader rather than a parser (``card_id`` reads both)."""
    return _NOTATION.sub(lambda m: m.group(1) + _SYMBOL_OF[m.group(2)], text)


def parse_cards(texts: Iterable[str]) -> list[int]:
    """Card notations to ids; ValueError at the first that is not a card."""
    return [card_id(t) for t in texts]


class Card:
    """An immutable card: ``parse_card("10H")``; ``str(card) == "10H"``; ``card.id`` is its int id."""

    __slots__ = ("_id",)

    def __init__(self, card: int | str) -> None:
        if isinstance(card, str):
            card = card_id(card)
        if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < NUM_CARD_KINDS:
            raise ValueError(f"not a card: {echo(card)}")
        self._id = card

    @property
    def id(self) -> int:
        """The card id: ``suit * 13 + rank`` (A=0 .. K=12; C S D H = 0..3); the joker is 52."""
        return self._id

    @property
    def is_joker(self) -> bool:
        """True for the joker."""
        return self._id == JOKER

    @property
    def rank(self) -> str | None:
        """Rank notation (``"10"``), or None for the joker."""
        return None if self.is_joker else RANKS[self._id % 13]

    @property
    def suit(self) -> str | None:
        """Suit letter (``"H"``), or None for the joker."""
        return None if self.is_joker else SUITS[self._id // 13]

    @property
    def is_red(self) -> bool:
        """True for diamonds and hearts."""
        return self.suit in ("D", "H")

    def __str__(self) -> str:
        return _NAMES[self._id]

    def __repr__(self) -> str:
        return f"Card({_NAMES[self._id]!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and other._id == self._id

    def __hash__(self) -> int:
        return hash(("Card", self._id))

    def __lt__(self, other: Card) -> bool:
        return sort_key(self._id) < sort_key(other._id)


def parse_card(text: str) -> Card:
    """Parse a card notation; ValueError if it is not one."""
    return Card(card_id(text))
