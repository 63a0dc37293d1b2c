"""Stacked-deck scenarios and refusal checks for Kuzanasta tests."""
from __future__ import annotations

from typing import Any

import pytest
from kuzanasta_oracle import stack_deck

from cardcore import IllegalActionError
from cardcore.cards import card_id, card_str
from cardcore.game import Game, new_game


def ids(*names: str) -> list[int]:
    return [card_id(n) for n in names]


def stacked(players: int, dealer: int, hands: Any = None, turn_up: str = "5D", stocks: Any = (),
            discard_tops: Any = (), seed: int = 7, **options: Any) -> Game:
    """A game whose first deal gives ``hands`` (seat -> card names), turns up ``turn_up``, and
    puts ``stocks`` (top first) and ``discard_tops`` on the piles (see kuzanasta_oracle.stack_deck)."""
    first = (dealer + 1) % players
    hands = {seat: ids(*cards) for seat, cards in (hands or {}).items()}
    deck = stack_deck(players, first, hands, card_id(turn_up), [ids(*s) for s in stocks],
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
