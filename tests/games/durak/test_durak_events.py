"""Durak's events: every card's move is told with its zones, a bout's end and the refill in
order, and the end of the hand once."""
from __future__ import annotations

import random
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


# Issue 48: the action that ends a bout lists its card hand -> table, then the bout's cards
# table -> discard or -> the taker's hand, in its event and in its legal action's moves.
FULL_0 = ["6H", "8C", "6C", "10D", "6D", "8D"]
FULL_1 = ["8H", "10C", "7C", "JD", "7D", "9D"]
BOUT = ["6H", "8H", "8C", "10C", "6C", "7C", "10D", "JD", "6D", "7D", "8D"]


def full_bout_but_the_last_beat():
    game = du(2, {0: FULL_0, 1: FULL_1}, trump="10S")
    for action in ["attack 6H", "beat 8H", "attack 8C", "beat 10C", "attack 6C", "beat 7C",
                   "attack 10D", "beat JD", "attack 6D", "beat 7D", "attack 8D"]:
        game.apply(action)
    return game


def test_du_6_3_the_beat_that_ends_a_full_bout_moves_its_card_then_the_bout():
    game = full_bout_but_the_last_beat()
    beat = next(a for a in game.legal_actions() if str(a) == "beat 9D")
    assert beat.moves == [{"from": "hand:1", "to": "table", "cards": ["9D"]},
                          {"from": "table", "to": "discard", "cards": [*BOUT, "9D"]}]
    seen = len(game.events())
    game.apply(beat)
    beat_event, beaten = game.events(1, since=seen)[:2]
    assert beat_event["moves"] == beat.moves[:1]
    assert beaten["kind"] == "beaten" and beaten["moves"] == beat.moves[1:]


def test_du_6_2_a_take_that_ends_a_full_bout_moves_the_table_to_the_taker():
    game = full_bout_but_the_last_beat()
    take = next(a for a in game.legal_actions() if a.kind == "take")
    assert take.moves == [{"from": "table", "to": "hand:1", "cards": BOUT}]


def test_du_6_2_the_throw_in_that_fills_the_bout_after_a_take_goes_to_the_taker():
    game = du(2, {0: ["7H", "8C", "7C", "7D", "8D", "8S"],
                  1: ["8H", "9D", "10D", "JD", "QD", "KD"]}, trump="10S")
    for action in ["attack 7H", "beat 8H", "attack 8C", "take", "attack 7C", "attack 7D",
                   "attack 8D"]:
        game.apply(action)
    moves = {str(a): a.moves for a in game.legal_actions()}
    table = ["7H", "8H", "8C", "7C", "7D", "8D"]
    assert moves == {
        "attack 8S": [{"from": "hand:0", "to": "table", "cards": ["8S"]},
                      {"from": "table", "to": "hand:1", "cards": [*table, "8S"]}],
        "pass": [{"from": "table", "to": "hand:1", "cards": table}]}
    seen = len(game.events())
    game.apply("attack 8S")
    attack, picked = game.events(0, since=seen)[:2]
    assert attack["moves"] == moves["attack 8S"][:1]
    assert picked["kind"] == "picked_up" and picked["moves"] == moves["attack 8S"][1:]


def test_du_6_2_a_take_moves_nothing_until_the_bout_ends():
    game = du(2, {0: H0, 1: H1}, trump="10S")
    game.apply("attack 7H")
    take = next(a for a in game.legal_actions() if a.kind == "take")
    assert take.cards == ("7H",) and take.moves == []       # the table stays till then


def test_du_12_a_take_that_ends_a_hand_of_a_match_moves_the_table_to_the_taker():
    """hands=3: the take that leaves its taker the fool ends the hand, and the next is dealt
    in the same step; its moves still name the table's cards going to the taker (the web
    table animates them and lets the table be tapped), then the deck gathers them."""
    game = new_game("durak", players=3, hands=3, seed=0)
    rng = random.Random(0)
    while True:
        take = next((a for a in game.legal_actions() if a.kind == "take"), None)
        if take is not None:
            after = game.clone()
            after.apply(take)
            if after._state.round_index != game._state.round_index and not after.is_over:
                break
        game.apply(rng.choice(game.legal_action_ids()))
    seat = take.player
    table = game.view(seat)["zones"]["table"]
    assert table and take.moves == [{"from": "table", "to": f"hand:{seat}", "cards": table}]
    seen = len(game.events())
    game.apply(take)
    events = game.events(seat, since=seen)
    kinds = [e["kind"] for e in events]
    assert kinds[:2] == ["take", "picked_up"] and "hand_end" in kinds and "deal" in kinds
    assert events[0]["moves"] == [] and events[1]["moves"] == take.moves
    end = events[kinds.index("hand_end")]
    assert any(m["from"] == f"hand:{seat}" and m["to"] == game.deck_zone
               and Counter(table) <= Counter(m["cards"]) for m in end["moves"])
