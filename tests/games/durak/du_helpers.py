"""Stacked-deck scenarios and random playouts for Durak tests."""
from __future__ import annotations

import random
from typing import Any, Callable, Sequence

from cardcore import new_game
from cardcore.cards import card_id, card_str
from cardcore.games.durak._state import deal_plan, durak_deck


def stacked_deck(players: int, hands: dict[int, Sequence[str]], stock: Sequence[str] = (),
                 trump: str | None = None, dealer: int | None = None) -> list[str]:
    """A top-first deck that deals ``hands`` (unlisted cards of a seat: leftovers in id
    order), then ``stock`` on top of the stock and ``trump`` as the last card (turned up,
    DU-2.3). Where each position goes comes from the game's own deal plan."""
    dealer = players - 1 if dealer is None else dealer
    named = [c for h in hands.values() for c in h] + list(stock) + ([trump] if trump else [])
    rest = [card_str(c) for c in durak_deck() if card_str(c) not in named]
    if trump is None:
        trump = rest.pop()
    wanted = {seat: list(cards) for seat, cards in hands.items()}
    on_stock = list(stock)
    deck: list[str] = []
    for zone in deal_plan(players, dealer):
        if zone == "trump":
            deck.append(trump)
            continue
        source = wanted.get(int(zone[5:]), []) if zone.startswith("hand:") else on_stock
        deck.append(source.pop(0) if source else rest.pop(0))
    return deck


def du(players: int = 2, hands: dict[int, Sequence[str]] | None = None, stock: Sequence[str] = (),
       trump: str | None = None, dealer: int | None = None, seed: int = 0, **options: Any):
    dealer = players - 1 if dealer is None else dealer
    deck = stacked_deck(players, hands or {}, stock, trump, dealer)
    return new_game("durak", players=players, seed=seed, deck=deck, dealer=dealer, **options)


def legal(game) -> list[str]:
    return [str(a) for a in game.legal_actions()]


def ids(cards: Sequence[str]) -> list[int]:
    return sorted(card_id(c) for c in cards)


def playout(game, seed: int, step: Callable[[Any], None] | None = None, limit: int = 20000):
    """Random legal actions until the game is over; ``step(game)`` before each."""
    rng = random.Random(seed)
    for _ in range(limit):
        if game.is_over:
            return game
        if step is not None:
            step(game)
        game.apply(rng.choice(game.legal_action_ids()))
    raise AssertionError("the playout did not end")
