"""Stacked-deck scenarios for Kings' Stakes tests."""
from __future__ import annotations

from typing import Any, Sequence

from cardcore import new_game
from cardcore.cards import card_id, card_str
from cardcore.games.kings_stakes._state import deal_plan, kings_stakes_deck
import kings_stakes_greedy_reference as greedy_reference  # noqa: F401  the oracle of the in-core policy


def stacked_deck(players: int, hands: dict[int, Sequence[str]], stock: Sequence[str] = (),
                 first: int = 0) -> list[str]:
    """A top-first deck that deals ``hands`` (4 cards per listed seat; unlisted seats get
    leftovers), then has ``stock`` on top of the stock, then the rest in id order. Where each
    position goes comes from the game's own deal plan."""
    rest = list(kings_stakes_deck(players))
    for c in [c for h in hands.values() for c in h] + list(stock):
        rest.remove(card_id(c))
    leftovers = [card_str(c) for c in rest]
    wanted = {seat: list(cards) for seat, cards in hands.items()}
    on_stock = list(stock)
    deck: list[str] = []
    for zone in deal_plan(players, first):
        source = wanted.get(int(zone[5:]), []) if zone.startswith("hand:") else on_stock
        deck.append(source.pop(0) if source else leftovers.pop(0))
    return deck


def ks(players: int = 4, hands: dict[int, Sequence[str]] | None = None, stock: Sequence[str] = (),
       first: int = 0, seed: int = 0, **options: Any):
    deck = stacked_deck(players, hands or {}, stock, first)
    return new_game("kings_stakes", players=players, seed=seed, deck=deck, first_player=first,
                    **options)


def legal(game) -> list[str]:
    return [str(a) for a in game.legal_actions()]


