"""Stacked-deck scenarios and refusal checks for Kuzanasta tests."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from kuzanasta_oracle import composition

from cardcore import IllegalActionError
from cardcore.cards import card_id, card_str
from cardcore.game import Game
from cardcore.registry import new_game
from cardcore.games.kuzanasta._state import deal_plan
import kuzanasta_greedy_reference as greedy_reference  # noqa: F401  the oracle of the in-core policy


def ids(*names: str) -> list[int]:
    return [card_id(n) for n in names]


def stack_deck(players: int, dealer: int, hands: dict[int, list[int]], turn_up: int,
               stocks: Sequence[Sequence[int]] = (), discard_tops: Sequence[int] = ()) -> list[int]:
    """A top-first stacked deck (ids) whose first deal (with this dealer) gives these hands
    (seat -> card ids), turn-up, discard turn-ups and top-first stock prefixes (the stock
    below the turn-up's place, which keeps the turn-up). The other cards fill the remaining
    places in id order. The places come from the engine's ``deal_plan``. Raises ValueError
    if the wishes collide or do not fit."""
    plan = deal_plan(players, {}, dealer)
    deck: list[int | None] = [None] * len(plan)

    def put(zone: str, cards: Sequence[int]) -> None:
        places = [i for i, z in enumerate(plan) if z == zone and deck[i] is None]
        if len(cards) > len(places):
            raise ValueError(f"{len(cards)} cards do not fit in {zone}")
        for i, card in zip(places, cards):
            deck[i] = card

    put("turn_up", [turn_up])
    for seat, cards in hands.items():
        put(f"hand:{seat}", cards)
    for k, card in enumerate(discard_tops):
        put(f"discard:{k}", [card])
    for k, cards in enumerate(stocks):
        put(f"stock:{k}", cards)
    pool = composition()
    for c in deck:
        if c is not None:
            pool.remove(c)                          # ValueError if a card is wanted too often
    rest = iter(pool)
    return [c if c is not None else next(rest) for c in deck]


def stacked(players: int, dealer: int, hands: Any = None, turn_up: str = "5D", stocks: Any = (),
            discard_tops: Any = (), seed: int = 7, **options: Any) -> Game:
    """A game whose first deal gives ``hands`` (seat -> card names), turns up ``turn_up``, and
    puts ``stocks`` (top first) and ``discard_tops`` on the piles (see ``stack_deck``).
    The scenarios step through the declare step (KZ-3.3), so they play with
    ``going_out="optional"`` unless told otherwise; tests of the immediate default say so."""
    options.setdefault("going_out", "optional")
    hands = {seat: ids(*cards) for seat, cards in (hands or {}).items()}
    deck = stack_deck(players, dealer, hands, card_id(turn_up), [ids(*s) for s in stocks],
                      ids(*discard_tops))
    return new_game("kuzanasta", players=players, seed=seed, dealer=dealer,
                    deck=[card_str(c) for c in deck], **options)


def assert_refused(g: Game, action: Any, rule: str) -> None:
    """The action raises IllegalActionError naming ``rule`` and leaves the game unchanged."""
    before = g.to_json()
    with pytest.raises(IllegalActionError) as e:
        g.apply(action)
    assert e.value.rule == rule, e.value
    assert g.to_json() == before


