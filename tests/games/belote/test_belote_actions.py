"""Belote Contrée's action ids by name (the kernel's constants, re-exported by the package)."""
from __future__ import annotations

from cardcore import new_game
from cardcore.cards import card_id
from cardcore.games import belote as be
from cardcore.games.belote import _state


def test_the_named_action_ids_are_the_tables():
    specs = new_game("belote", seed=0)._specs
    assert len(specs) == 75
    assert (be.PLAY_FIRST, be.PASS, be.BID_FIRST, be.CAPOT_FIRST, be.CONTRE, be.SURCONTRE) == (
        0, 32, 33, 69, 73, 74)
    assert specs[be.PASS].label == "pass"
    assert [specs[be.BID_FIRST + k].label for k in range(5)] == [
        "bid 80S", "bid 80H", "bid 80D", "bid 80C", "bid 90S"]
    assert specs[be.BID_FIRST + 35].label == "bid 160C"
    assert [specs[be.CAPOT_FIRST + s].label for s in range(4)] == [
        "capot S", "capot H", "capot D", "capot C"]
    assert specs[be.CONTRE].label == "contre" and specs[be.SURCONTRE].label == "surcontre"
    # colver's card indices: suit * 8 + rank, suits S H D C, ranks 7 8 9 J Q K 10 A
    assert [specs[i].label for i in (0, 3, 6, 7, 8, 31)] == [
        "play 7S", "play JS", "play 10S", "play AS", "play 7H", "play AC"]
    assert all(_state.to_index(card_id(specs[i].cards[0])) == i for i in range(32))
    assert {"PLAY_FIRST", "PASS", "BID_FIRST", "CAPOT_FIRST", "CONTRE", "SURCONTRE"} <= set(
        be.__all__)
