"""Stacked deals and short scripts for the Belote Contrée tests."""
from __future__ import annotations

from typing import Any, Sequence

from cardcore import new_game
from cardcore.cards import card_id, card_str
from cardcore.games.belote._state import belote_deck, deck_for_hands


def deal(hands: dict[int, Sequence[str]] | None = None, dealer: int = 0, seed: int = 0,
         **options: Any):
    """A game whose seats hold ``hands`` (notations; unlisted cards fill the other hands in id
    order), ``dealer`` dealing."""
    hands = hands or {}
    rest = [c for c in belote_deck() if card_str(c) not in {x for h in hands.values() for x in h}]
    full = []
    for seat in range(4):
        mine = [card_id(c) for c in hands.get(seat, ())]
        while len(mine) < 8:
            mine.append(rest.pop(0))
        full.append(mine)
    deck = [card_str(c) for c in deck_for_hands(dealer, full)]
    return new_game("belote", players=4, seed=seed, deck=deck, dealer=dealer, **options)


def legal(game) -> list[str]:
    return [str(a) for a in game.legal_actions()]


def run(game, *moves: str) -> None:
    for m in moves:
        game.apply(m)


def to_play(game, contract: str = "bid 80S", *after: str) -> None:
    """The seat after the dealer bids ``contract``, the others pass (``after``: the calls
    after the bid, instead of three passes)."""
    game.apply(contract)
    for m in after or ("pass", "pass", "pass"):
        game.apply(m)
