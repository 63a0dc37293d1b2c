"""Durak's events: every card's move is told with its zones, a bout's end and the refill in
order, and the end of the hand once."""
from __future__ import annotations

from collections import Counter

from cardcore import new_game

from du_helpers import du, playout

H0 = ["7H", "9H", "KD", "8C", "10C", "6S"]
H1 = ["8H", "JH", "6D", "QC", "AS", "9D"]


def test_the_deal_tells_the_trump_and_the_first_attacker():
    game = du(2, {0: H0, 1: H1}, trump="10S")
    kinds = [e["kind"] for e in game.events(0)]
    assert kinds == ["deal", "dealt", "dealt", "trump", "first_attack"]
    trump = game.events(1)[3]
    assert trump["cards"] == ["10S"] and "spades" in trump["text"]


def test_a_beaten_bout_and_the_refill_move_cards_between_zones():
    game = du(2, {0: H0, 1: H1}, trump="10S")
    game.apply("attack 7H")
    game.apply("beat 8H")
    game.apply("pass")
    events = game.events(0, since=5)
    assert [e["kind"] for e in events] == ["attack", "beat", "pass", "beaten", "draw", "draw"]
    assert events[3]["moves"] == [{"cards": ["7H", "8H"], "from": "table", "to": "discard"}]
    assert events[4]["player"] == 0 and events[4]["moves"][0]["to"] == "hand:0"
    assert events[5]["player"] == 1 and events[5]["cards"] == []       # seat 0 cannot see them


def test_a_take_moves_the_table_into_the_hand():
    game = du(2, {0: H0, 1: H1}, trump="10S")
    game.apply("attack 7H")
    game.apply("take")
    game.apply("pass")
    picked = [e for e in game.events(0) if e["kind"] == "picked_up"][0]
    assert picked["player"] == 1 and picked["cards"] == ["7H"]
    assert picked["moves"] == [{"cards": ["7H"], "from": "table", "to": "hand:1"}]


def test_the_hand_ends_once_with_the_breakdown():
    game = playout(new_game("durak", players=3, seed=6), 6)
    events = game.events(None)
    counts = Counter(e["kind"] for e in events)
    assert counts["hand_end"] == 1 and counts["match_end"] == 1
    end = [e for e in events if e["kind"] == "hand_end"][0]
    assert end["breakdown"]["totals"] == end["scores"] == game.scores
    assert game._state.round_index == 1
