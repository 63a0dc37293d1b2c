"""Stacked-deck scenarios for Kings' Stakes tests."""
from __future__ import annotations

from typing import Any, Sequence

from cardcore import new_game
from cardcore.cards import card_id, card_str
from cardcore.games._kings_stakes import kings_stakes_deck


def stacked_deck(players: int, hands: dict[int, Sequence[str]], stock: Sequence[str] = (),
                 first: int = 0) -> list[str]:
    """A top-first deck that deals ``hands`` (4 cards per listed seat; unlisted seats get
    leftovers), then has ``stock`` on top of the stock, then the rest in id order."""
    rest = list(kings_stakes_deck(players))
    for c in [c for h in hands.values() for c in h] + list(stock):
        rest.remove(card_id(c))
    leftovers = [card_str(c) for c in rest]
    deck: list[str] = [""] * (4 * players)
    for k in range(4):
        for i in range(players):
            seat = (first + i) % players
            deck[k * players + i] = hands[seat][k] if seat in hands else leftovers.pop(0)
    return deck + list(stock) + leftovers


def ks(players: int = 4, hands: dict[int, Sequence[str]] | None = None, stock: Sequence[str] = (),
       first: int = 0, seed: int = 0, **options: Any):
    deck = stacked_deck(players, hands or {}, stock, first)
    return new_game("kings_stakes", players=players, seed=seed, deck=deck, first_player=first,
                    **options)


def legal(game) -> list[str]:
    return [str(a) for a in game.legal_actions()]
