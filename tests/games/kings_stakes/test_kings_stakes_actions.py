"""The Kings' Stakes action space is a public contract: its ids are pinned here."""
from __future__ import annotations

import pytest

from cardcore import new_game

GOLDEN = {
    0: "play AC", 9: "play 10C", 10: "play JC", 51: "play KH",
    52: "play JK=1", 62: "play JK=11",
    63: "play AC 10C", 64: "play AC AS", 166: "play QH KH",
    167: "play AC JK=A", 168: "play AC JK=10C", 169: "play 2C JK=2", 170: "play 2C JK=3C",
    294: "play KH JK=QH",
    295: "play JK=1 JK=1", 296: "play JK=1 JK=2", 315: "play JK=11 JK=11",
    316: "play KC KS KD KH", 317: "take", 318: "refill", 319: "end_turn",
}


@pytest.mark.parametrize("players", [2, 4, 6])
def test_action_ids_are_pinned(players):
    game = new_game("kings_stakes", players=players, seed=0)
    assert game.num_distinct_actions == 320
    for action_id, label in GOLDEN.items():
        assert game.action_from_id(action_id).label == label


def test_every_id_has_a_unique_notation_and_meaning():
    game = new_game("kings_stakes", seed=0)
    actions = [game.action_from_id(i) for i in range(game.num_distinct_actions)]
    assert len({a.label for a in actions}) == 320
    plays = [a for a in actions if a.kind == "play"]
    assert len(plays) == 317
    assert sum(1 for a in plays if a.cards == ("JK", "JK")) == 21
    assert [a.info["amount"] for a in actions[295:316]] == list(range(2, 23))
    assert actions[64].info == {"effect": "number", "amount": 22}
    assert actions[166].info["effect"] == "king_queen"
    assert actions[316].info["effect"] == "four_kings"


def test_the_named_action_ids_are_the_tables():
    from cardcore.games import kings_stakes as ks
    specs = new_game("kings_stakes", seed=0)._specs
    assert specs[ks.TAKE].kind == "take" and specs[ks.REFILL].kind == "refill"
    assert specs[ks.END_TURN].kind == "end_turn"
    assert specs[ks.PLAY_FOUR_KINGS].label == "play KC KS KD KH"
    assert specs[ks.PLAY_JOKER_FIRST].label == "play JK=1"
    assert specs[ks.PLAY_TWO_JOKERS_FIRST].label == "play JK=1 JK=1"
    assert specs[ks.PLAY_PAIR_FIRST].cards and len(specs[ks.PLAY_PAIR_FIRST].cards) == 2
    assert "JK" in specs[ks.PLAY_WITH_JOKER_FIRST].cards
