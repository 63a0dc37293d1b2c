"""Exact cards (issue 31, item 3) in Kuzanasta: no action takes hand cards by count or rank
(games/kuzanasta.md, "Actions", the Decision on exact cards), so ``apply(..., cards=)`` must
name the action's own cards, and anything else is refused with nothing changed."""
from __future__ import annotations

import pytest
from kz_helpers import stacked

from cardcore import IllegalActionError

HAND0 = ["7C", "7S", "7D", "QC", "QS", "5H", "2C"]
HAND1 = ["KC", "KD", "10C", "10D", "6C", "3C", "AC"]


def refused(g, action, cards):
    before = (g.to_json(), [g.view(p) for p in range(g.num_players)], g.events())
    with pytest.raises(IllegalActionError) as e:
        g.apply(action, cards=cards)
    assert (g.to_json(), [g.view(p) for p in range(g.num_players)], g.events()) == before
    return e.value


def test_kuzanasta_exact_cards_decision_no_action_chooses_hand_cards():
    g = stacked(2, 1, hands={0: HAND0, 1: HAND1}, stocks=[["9C"]], discard_tops=["4S"])
    assert not g._state.chooses_hand_cards
    for action in g.legal_action_ids():
        assert g._state.hand_cards(action) is None


def test_kuzanasta_exact_cards_decision_cards_must_be_the_actions_own():
    g = stacked(2, 1, hands={0: HAND0, 1: HAND1}, stocks=[["9C"]], discard_tops=["4S"])
    assert "names its cards (none)" in str(refused(g, "draw_stock", ["9C"]))
    assert "names its cards (4S)" in str(refused(g, "draw_discard", ["9C"]))
    g.apply("draw_stock", cards=[])
    assert "names its cards (2C)" in str(refused(g, "discard 2C", ["2S"]))
    refused(g, "discard 2C", ["2C", "2C"])
    refused(g, "discard 2C", "2C")
    g.apply("discard 2C", cards=("2C",))
    refused(g, "go_out", ["7C", "7S", "7D"])
    g.apply("go_out", cards=[])
    assert g.chosen_cards() == {}
    assert '"format": 2' in g.to_json()


def test_kuzanasta_exact_cards_refused_when_the_action_is_not_legal():
    g = stacked(2, 1, hands={0: HAND0, 1: HAND1})
    assert refused(g, "discard 2C", ["2C"]).rule == "KZ-3.1"
