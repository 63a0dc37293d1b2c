"""Kuzanasta KZ-7 (going out and scoring), KZ-5.5 in play and KZ-8 (the view)."""
from __future__ import annotations

import json
import random

import pytest
from kuzanasta_oracle import composition
from kz_helpers import assert_refused, stacked

from cardcore import IllegalActionError
from cardcore.games.kuzanasta._sets import kz_descriptor_id
from cardcore.cards import card_id, card_str
from cardcore.registry import new_game
from cardcore.games.kuzanasta._state import named_declaration_id

HAND0 = ["7C", "7S", "7D", "QC", "QS", "5H", "2C"]          # 7-7-7 + Q-Q-W with 5 wild
HAND1 = ["KC", "KD", "10C", "10D", "6C", "3C", "AC"]        # 50+50+10+10+10+5+5 = 140 points


def ready(hand0=HAND0, hand1=HAND1, turn_up="5D", **options):
    """Seat 0 draws 9C, discards it, and stands in the declare step."""
    g = stacked(2, 1, hands={0: hand0, 1: hand1}, turn_up=turn_up, stocks=[["9C"]], **options)
    g.apply("draw_stock")
    g.apply("discard 9C")
    assert g.phase == "declare"
    return g


def test_kz_7_1_go_out_with_the_engines_best_declaration():
    g = ready()
    assert g.view(0)["best_sets"] == {"sets": ["7-7-7", "Q-Q-W"], "value": 20000}
    g.apply("go_out")
    last = g._state.last_deal()
    assert last["end"] == "went_out" and last["winner"] == 0
    assert g.history[-1]["event"] == "round_end"
    assert [s["set"] for s in g.history[-1]["sets"]] == ["7-7-7", "Q-Q-W"]
    assert g.scores == [20140, 0]


def test_kz_7_1_named_sets_are_validated():
    g = ready()
    legal = [str(a) for a in g.legal_actions()]
    assert legal == ["end_turn", "go_out", "go_out 7-7-7 Q-Q-W"]   # one wild card only
    g = ready(hand0=["7C", "7S", "7D", "QC", "QS", "5H", "5S"])
    legal = [str(a) for a in g.legal_actions()]
    assert legal == ["end_turn", "go_out", "go_out 7-7-7 Q-Q-W", "go_out 7-7-7 Q-W-W",
                     "go_out 7-7-7 Q-Q-W-W", "go_out 7-7-W Q-Q-W", "go_out 7-7-7-W Q-Q-W"]
    bad = named_declaration_id(kz_descriptor_id(6, 3, 0), kz_descriptor_id(11, 3, 0))
    assert_refused(g, bad, "KZ-7.1")
    with pytest.raises(IllegalActionError):
        g.apply("go_out 7-7-7 Q-Q-Q")
    g.apply("go_out Q-Q-W 7-7-W")                 # either order; a weaker choice is allowed
    assert g.scores == [10000 + 5000 + 140, 0]


def test_kz_5_5_four_of_a_kind_declared_as_three_by_the_engine():
    kings = ["KC", "KS", "KD", "KH", "7C", "7S", "5H"]
    other = ["2S", "3S", "4S", "6S", "8H", "9H", "10H"]          # 55 points
    g = ready(hand0=kings, hand1=other)
    g.apply("go_out")
    assert g.scores[0] == 20000 + 5000 + 55
    g = ready(hand0=kings, hand1=other)
    g.apply("go_out K-K-K-K 7-7-W")
    assert g.scores[0] == 2000 + 5000 + 55


def test_kz_7_2_opponents_hands_are_counted_winners_leftover_is_not():
    g = ready()
    g.apply("go_out")
    assert g._state.last_deal()["hand_points"] == 140           # the winner's 2C earns nothing
    g = stacked(3, 2, hands={0: HAND0, 1: HAND1, 2: ["2D", "3D", "4D", "6D", "8D", "JH", "QH"]},
                stocks=[["9C"]])
    g.apply("draw_stock")
    g.apply("discard 9C")
    g.apply("go_out")
    assert g.scores == [20000 + 140 + (5 * 3 + 10 * 2 + 50 * 2), 0, 0]


def test_kz_7_2_points_double_after_a_joker_turn_up():
    g = ready(hand0=["7C", "7S", "7D", "QC", "QS", "QD", "2C"], turn_up="JK")
    assert g._state.wild_rank is None
    g.apply("go_out")
    assert g.scores == [30000 + 2 * 140, 0]
    assert g._state.last_deal()["turn_up_doubled"] is True


def test_kz_7_3_and_kz_6_5_the_joker_holder_doubles_the_deal_total():
    g = ready(hand0=["7C", "7S", "7D", "QC", "QS", "5H", "JK"])
    g.apply("go_out")
    assert g.scores == [2 * (20000 + 140), 0]
    assert g._state.last_deal()["god_doubled"] is True


def test_kz_7_4_only_the_player_who_went_out_scores():
    g = stacked(3, 2, hands={0: HAND0, 1: HAND1}, stocks=[["9C"]])
    g.apply("draw_stock")
    g.apply("discard 9C")
    g.apply("go_out")
    assert g.scores[1] == g.scores[2] == 0 and g.scores[0] > 0


def test_kz_7_5_target_ends_the_match_highest_score_wins():
    g = ready(target=20000)
    g.apply("go_out")
    assert g.is_over and g.winners == [0] and g.current_player is None
    assert g.legal_actions() == []
    g = ready()                                   # default target 50000: the next deal starts
    g.apply("go_out")
    assert not g.is_over and g._state.round_index == 1 and g._state.dealer == 0
    assert g.current_player == 1 and len(g._state.hand(0)) == 7
    assert sorted(g.all_cards()) == composition()


def test_kz_7_5_deals_option_counts_scored_deals_only():
    g = ready(deals=1, target=10**6)
    g.apply("go_out")
    assert g.is_over and g.winners == [0]
    g = stacked(2, 1, hands={0: HAND0, 1: HAND1}, deals=1, max_turns=1)
    g.apply("draw_stock")
    g.apply("discard 2C")                # two sets, but the deal ends void at max_turns
    g.apply("end_turn")
    assert not g.is_over and g._state.round_index == 1 and g._state.deals_scored == 0


def test_kz_7_8_the_match_ends_after_max_void_deals():
    """Decision (termination guard): void deals do not count towards KZ-7.5, so the match
    also ends after MAX_VOID_DEALS of them; the highest score wins, ties share."""
    from cardcore.games.kuzanasta._state import MAX_VOID_DEALS
    game = new_game("kuzanasta", players=2, seed=5, max_turns=1, target=10**6,
                    sets="three_and_four")          # few deals score: the target stays far
    rng = random.Random(5)
    actions = 0
    while not game.is_over:
        ids = game.legal_action_ids()
        game.apply(ids[rng.randrange(len(ids))])
        actions += 1
        assert actions <= game.max_game_length
    state = game.state
    assert state.round_index - state.deals_scored == MAX_VOID_DEALS
    assert game.view(0)["last_deal"]["end"] != "went_out"
    assert game.winners == [p for p, s in enumerate(game.scores) if s == max(game.scores)]
    events = game.events()
    assert events[-2]["kind"] == "deal_end" and events[-1]["kind"] == "match_end"
    with pytest.raises(IllegalActionError):
        game.apply(0)
    assert MAX_VOID_DEALS == 10_000                 # the rulebook's number


def test_kz_7_8_max_game_length_is_derived_from_the_guard():
    from cardcore.games.kuzanasta._state import MAX_VOID_DEALS, actions_per_turn, min_deal_total
    assert min_deal_total() == 5000 + 500          # a 3-card set and a 4-card set, KZ-5.3
    per_deal = actions_per_turn() * 40
    game = new_game("kuzanasta", players=3, deals=7, max_turns=40)
    assert game.max_game_length == (7 + MAX_VOID_DEALS) * per_deal
    # To a target: before the last deal every seat is below it, each scored deal adds at
    # least min_deal_total to one seat.
    game = new_game("kuzanasta", players=4, target=50000, max_turns=40)
    assert game.max_game_length == (4 * (-(-50000 // 5500) - 1) + 1 + MAX_VOID_DEALS) * per_deal


def test_kz_7_5_ties_share_the_win():
    # Seeded random play (found by search): two scored deals, one each, equal totals.
    # (going_out="optional": the seeds were searched in the 0.1 rules, KZ-3.3)
    g = new_game("kuzanasta", players=2, seed=9, deals=2, going_out="optional")
    g._state.run_random(9)
    assert g.is_over and g.scores == [15100, 15100]
    assert g.winners == [0, 1]
    g = new_game("kuzanasta", players=2, seed=10, deals=2, going_out="optional")
    g._state.run_random(10)
    assert g.scores[0] != g.scores[1] and g.winners == [g.scores.index(max(g.scores))]


def test_kz_7_6_ante_pot_and_its_doubling():
    g = ready(ante=10)
    assert g._state.chips() == [-10, -10] and g._state.pot == 20
    g.apply("go_out")
    assert g._state.chips() == [0, -20] and g._state.pot == 20      # next deal's ante paid
    g = ready(hand0=["7C", "7S", "7D", "QC", "QS", "5H", "JK"], ante=10)
    g.apply("go_out")
    assert g._state.chips() == [10, -30]             # seat 1 paid a second ante (pot 30)
    assert g._state.last_deal()["pot"] == 30


def test_kz_7_7_illegal_moves_are_refused_not_penalised():
    g = ready()
    assert_refused(g, "draw_stock", "KZ-3.3")
    assert_refused(g, "discard 7C", "KZ-3.3")
    assert g.scores == [0, 0]
    with pytest.raises(IllegalActionError) as e:
        g.apply("slap the table")
    assert "legal" in str(e.value)


# ---------------------------------------------------------------- KZ-8 the view
VIEW_KEYS = {"zones", "game", "player", "current_player", "phase", "hand", "hand_sizes", "scores",
             "legal_actions", "wild_rank", "turn_up", "discards", "my_pile", "pile_of",
             "stock_sizes", "dealer", "first_player", "deal", "turns_in_deal", "god_holder",
             "chips", "pot", "best_sets", "last_deal"}


def test_kz_8_view_shows_public_facts_only():
    g = stacked(4, 3, hands={0: HAND0, 1: ["JK", "2C", "3D", "6H", "8S", "9C", "JH"]})
    for p in range(4):
        v = g.view(p)
        assert set(v) == VIEW_KEYS
        json.dumps(v)
        assert v["hand"] == sorted((card_str(c) for c in g._state.hand(p)),
                                   key=lambda n: (card_id(n) % 13 if n != "JK" else 13, card_id(n) // 13))
        assert v["stock_sizes"] == [32, 31] and v["hand_sizes"] == [7, 7, 7, 7]
        assert v["god_holder"] is None                       # seat 1's joker is not revealed
        assert (v["legal_actions"] != []) == (p == 0)
    text = json.dumps(g.view(2))
    assert "JK" not in text.replace('"turn_up": "JK"', "")  # nothing about the joker's holder


def test_kz_8_view_is_unchanged_when_hidden_cards_are_swapped():
    rng = random.Random(3)
    for players in (2, 3, 4):
        deck = composition()
        rng.shuffle(deck)
        names = [card_str(c) for c in deck]
        g = new_game("kuzanasta", players=players, seed=5, deck=names)
        for seat in range(players):
            hidden = g.hidden_deck_positions(seat)
            for _ in range(10):
                i, j = rng.sample(hidden, 2)
                swapped = list(names)
                swapped[i], swapped[j] = swapped[j], swapped[i]
                other = new_game("kuzanasta", players=players, seed=5, deck=swapped)
                assert other.view(seat) == g.view(seat)


def test_kz_8_the_joker_holder_is_revealed_by_taking_it_face_up():
    g = stacked(2, 1, hands={0: HAND0, 1: HAND1}, discard_tops=["JK"])
    g.apply("draw_discard")
    assert g.view(1)["god_holder"] == 0
    g.apply("discard 2C")
    g.apply("end_turn")
    assert g.view(1)["god_holder"] == 0


def test_table_lines_show_wild_rank_piles_and_best_sets():
    g = ready()
    lines = g.table_lines(0)
    text = "\n".join(lines)
    assert "wild cards: fives" in text and "7-7-7 + Q-Q-W = 20000" in text
    assert "Pile 1 (you, player 2)" in text          # piles and players counted from 1
