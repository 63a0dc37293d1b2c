"""Stacked-deck scenarios and small statistics for the Gin Rummy tests."""
from __future__ import annotations

import math
from typing import Any, Sequence

from cardcore import new_game
from cardcore.cards import card_id, card_str
from cardcore.games.gin_rummy._state import (
    BREAKDOWN_RULES, BREAKDOWN_WHAT, gin_rummy_deck, deal_plan, to_os_index,
)
import gin_rummy_greedy_reference as greedy_reference  # noqa: F401  the oracle of the in-core policy


def stacked_deck(players: int, dealer: int = 0, hands: dict[int, Sequence[str]] | None = None,
                 turn_up: Sequence[str] = ("5H",), stock: Sequence[str] = ()) -> list[str]:
    """A top-first deck that deals ``hands`` (unlisted cards and seats get leftovers, eights
    last), turns up ``turn_up`` (eights first: they go to the stock bottom, GR-2.4), then has
    ``stock`` on top of the stock. Where each dealt card goes comes from the game's deal plan."""
    hands = hands or {}
    rest = list(gin_rummy_deck(players))
    for c in [c for h in hands.values() for c in h] + list(turn_up) + list(stock):
        rest.remove(card_id(c))
    rest.sort(key=lambda c: card_str(c).startswith("8"))     # keep stray eights out of hands
    leftovers = [card_str(c) for c in rest]
    wanted = {seat: list(cards) for seat, cards in hands.items()}
    deck: list[str] = []
    for zone in deal_plan(players, dealer):
        if not zone.startswith("hand:"):
            break
        source = wanted.get(int(zone[5:]), [])
        deck.append(source.pop(0) if source else leftovers.pop(0))
    assert not any(wanted.values()), "more cards listed than a hand holds"
    return deck + list(turn_up) + list(stock) + leftovers


def ce(players: int = 3, hands: dict[int, Sequence[str]] | None = None,
       turn_up: Sequence[str] = ("5H",), stock: Sequence[str] = (), dealer: int = 0,
       seed: int = 0, **options: Any):
    deck = stacked_deck(players, dealer, hands, turn_up, stock)
    return new_game("gin_rummy", players=players, seed=seed, deck=deck, dealer=dealer,
                    **options)


def score_rows(game) -> list[tuple[int, str, int, int, str]]:
    """The kernel's hand-end breakdown rows in words: (seat, what, count, points, rule)."""
    return [(owner, BREAKDOWN_WHAT[what], count, points, BREAKDOWN_RULES[rule])
            for owner, what, rule, _, count, points in game._state.breakdown_rows()]


def legal(game) -> list[str]:
    return [str(a) for a in game.legal_actions()]


def os_id(card: str) -> int:
    """OpenSpiel's index (= the play action id) of a card notation."""
    return to_os_index(card_id(card))


def chi2_bound(df: int, z: float = 4.265) -> float:
    """The chi-square value exceeded with probability about 1e-5 (Wilson-Hilferty; z is the
    normal quantile), so that a correct sampler fails a test about once in 100,000 runs."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def chi2_fit(counts: Sequence[int], probabilities: Sequence[float]) -> float:
    total = sum(counts)
    return sum((n - total * p) ** 2 / (total * p) for n, p in zip(counts, probabilities) if p > 0)


def chi2_homogeneity(a: Sequence[int], b: Sequence[int]) -> tuple[float, int]:
    """Two samples over the same categories: (statistic, degrees of freedom)."""
    na, nb = sum(a), sum(b)
    stat, df = 0.0, -1
    for x, y in zip(a, b):
        if x + y == 0:
            continue
        df += 1
        for observed, n in ((x, na), (y, nb)):
            expected = (x + y) * n / (na + nb)
            stat += (observed - expected) ** 2 / expected
    return stat, max(df, 1)


