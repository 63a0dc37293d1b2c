"""Kings' Stakes, one or more tests per rule ID of games/kings_stakes.md."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from cardcore import ConfigError, IllegalActionError, new_game
from cardcore.cards import card_id
from cardcore.games.kings_stakes._state import round_points

from ks_helpers import ks, legal, stacked_deck

HANDS = {0: ["5H", "6H", "KS", "JK"], 1: ["5S", "9C", "QD", "JD"],
         2: ["10C", "AC", "2D", "3D"], 3: ["7C", "8D", "4S", "KH"]}


def test_ks_1_1_deck_is_52_cards_and_two_jokers():
    game = new_game("kings_stakes", players=4, seed=1)
    counts = Counter(game.all_cards())
    assert len(game.all_cards()) == 54 and counts[card_id("JK")] == 2
    assert all(counts[c] == 1 for c in range(52))


def test_ks_1_2_two_players_play_without_queens():
    game = new_game("kings_stakes", players=2, seed=1)
    cards = game.all_cards()
    assert len(cards) == 50
    assert not any(card_id(q) in cards for q in ("QC", "QS", "QD", "QH"))
    with pytest.raises(ConfigError, match="uses 50"):
        new_game("kings_stakes", players=2, deck=stacked_deck(4, {}))


def test_ks_1_3_the_forget_me_chip_starts_in_the_box():
    game = ks(refill="manual")
    assert game.view(0)["chip_holder"] is None


@pytest.mark.parametrize("players", [1, 7, 0])
def test_ks_1_4_two_to_six_players(players):
    with pytest.raises(ConfigError, match="2 to 6 players"):
        new_game("kings_stakes", players=players)
    for ok in range(2, 7):
        assert new_game("kings_stakes", players=ok, seed=0).num_players == ok


def test_ks_2_1_number_values_ace_is_eleven():
    game = ks(hands={0: ["AC", "2C", "10D", "7S"]})
    game.apply("play AC")
    assert game.view(0)["stake"] == 11
    game = ks(hands={0: ["AC", "2C", "10D", "7S"]})
    game.apply("play 10D")
    assert game.view(0)["stake"] == 10


def test_ks_2_2_face_cards_have_no_value():
    game = ks(hands={0: ["JC", "QC", "KC", "2S"], 1: ["2H", "3H", "4H", "5H"]})
    actions = {a.label: a for a in game.legal_actions()}
    assert actions["play JC"].info["effect"] == "jack" and "amount" not in actions["play JC"].info
    assert actions["play KC"].info["effect"] == "king"


def test_ks_2_3_joker_is_wild():
    game = ks(hands={0: ["JK", "2S", "3D", "4C"]})
    assert [a for a in legal(game) if a.startswith("play JK=")] == [f"play JK={v}" for v in range(1, 12)]
    assert game.wild_cards == ["JK"]                     # what a table marks


def test_ks_3_1_deal_four_each_from_the_first_player_then_stock():
    deck = stacked_deck(4, HANDS, stock=["9H", "9D"], first=2)
    game = new_game("kings_stakes", players=4, seed=0, deck=deck, first_player=2)
    # one at a time from seat 2: deck[0] -> seat 2, deck[1] -> seat 3, deck[2] -> seat 0 ...
    assert game._state.hand(2) == sorted(card_id(c) for c in deck[0:16:4])
    assert game._state.hand(0) == sorted(card_id(c) for c in deck[2:16:4])
    assert game._state.stock()[:2] == [card_id("9H"), card_id("9D")]
    assert game.view(0)["stock_size"] == 54 - 16 and game.current_player == 2


def test_ks_3_2_first_player_option_lot_and_rotation():
    assert new_game("kings_stakes", players=5, first_player=3, seed=0).current_player == 3
    lots = {new_game("kings_stakes", players=5, seed=s).current_player for s in range(40)}
    assert lots == {0, 1, 2, 3, 4}                       # drawn by lot from the seed
    assert all(new_game("kings_stakes", seed=s).current_player ==
               new_game("kings_stakes", seed=s).current_player for s in range(10))
    with pytest.raises(ConfigError, match="first_player"):
        new_game("kings_stakes", players=3, first_player=3)
    # Decision: each later round starts with the seat after the previous round's first player.
    game = new_game("kings_stakes", players=3, first_player=1, seed=4)
    rng = random.Random(0)
    while game._state.round_index == 0:
        ids = game.legal_action_ids()
        game.apply(ids[rng.randrange(len(ids))])
    assert game.view(0)["round_first_player"] == 2 and game.current_player == 2


def test_ks_3_3_play_goes_clockwise_in_increasing_seats():
    game = ks(hands=HANDS, first=1)
    game.apply("play 5S")
    assert game.current_player == 2
    game.apply("play 10C")
    assert game.current_player == 3 and game.view(0)["direction"] == 1


def test_ks_3_4_table_starts_empty_with_stake_zero():
    view = ks(hands=HANDS).view(0)
    assert view["table"] == [] and view["stake"] == 0


def test_ks_4_1_single_number_card_sets_the_stake():
    game = ks(hands=HANDS)
    game.apply("play 6H")
    assert game.view(1)["table"] == ["6H"] and game.view(1)["stake"] == 6


def test_ks_4_2_pairs_same_rank_or_suited_neighbours():
    game = ks(hands={0: ["5H", "5S", "6H", "AD"], 1: ["10D", "AS", "2S", "3C"]})
    plays = legal(game)
    assert "play 5S 5H" in plays and "play 5H 6H" in plays
    assert "play 5S 6H" not in plays and "play 6H AD" not in plays   # different suits
    game.apply("play 5H 6H")
    assert game.view(0)["stake"] == 11
    game2 = ks(hands={0: ["10D", "AD", "2D", "3S"]})
    assert "play AD 10D" in legal(game2)                                # 10-A (ace is 11)
    game2.apply("play 10d ad")                                          # any order, any case
    assert game2.view(0)["stake"] == 21
    assert "play AD 2D" not in legal(game2)                             # no wrap-around


def test_ks_4_2_decision_no_face_card_pairs():
    game = ks(hands={0: ["JC", "JS", "KC", "KD"]})
    assert not any(len(a.cards) == 2 for a in game.legal_actions())


def test_ks_4_3_stake_must_be_met_greater_replaces_equal_doubles():
    game = ks(hands={0: ["10C", "2S", "3S", "4S"], 1: ["10D", "9D", "2C", "3C"],
                     2: ["AC", "AH", "4D", "4C"]})
    game.apply("play 10C")
    assert "play 9D" not in legal(game)                                 # below the stake
    with pytest.raises(IllegalActionError, match="KS-4.3"):
        game.apply("play 9D")
    game.apply("play 10D")                                              # equal: doubles
    assert game.view(0)["stake"] == 20
    game.apply("play AC AH")                                            # 22 > 20 replaces
    assert game.view(0)["stake"] == 22


def test_ks_4_4_joker_meanings_are_distinct_actions():
    game = ks(hands={0: ["5H", "JK", "KC", "2S"]})
    plays = legal(game)
    assert {"play 5H JK=5", "play 5H JK=4H", "play 5H JK=6H", "play KC JK=QC"} <= set(plays)
    amounts = {a.label: a.info.get("amount") for a in game.legal_actions()}
    assert amounts["play 5H JK=5"] == 10 and amounts["play 5H JK=4H"] == 9
    game = ks(hands={0: ["JK", "JK", "2S", "3S"]})
    two = [a for a in game.legal_actions() if a.cards == ("JK", "JK")]
    assert [a.info["amount"] for a in two] == list(range(2, 23))        # in id order
    assert "play JK=5 JK=6" in legal(game)


def test_ks_4_4_decision_no_joker_queen_with_two_players():
    game = ks(players=2, hands={0: ["KC", "JK", "JD", "2S"]})
    assert not any("JK=Q" in a for a in legal(game))
    with pytest.raises(IllegalActionError, match="KS-4.4"):
        game.apply(game.action_from_id(_id_of("play KC JK=QC")))
    four = ks(hands={0: ["KC", "KS", "KD", "JK"]})
    assert not any(a.info.get("effect") == "four_kings" for a in four.legal_actions())


def _id_of(label):
    game = new_game("kings_stakes", seed=0)
    return next(i for i in range(game.num_distinct_actions) if str(game.action_from_id(i)) == label)


def test_ks_4_5_hand_refilled_to_four_after_a_play():
    game = ks(hands=HANDS, stock=["9H", "9D"])
    game.apply("play 5H 6H")
    assert game.view(0)["hand"] == ["9D", "9H", "KS", "JK"]          # sorted, joker last
    assert game.view(0)["stock_size"] == 54 - 16 - 2


def test_ks_5_1_jack_adds_one():
    game = ks(hands={0: ["9C", "2S", "3S", "4S"], 1: ["JD", "2H", "3H", "4H"]})
    game.apply("play 9C")
    game.apply("play JD")
    assert game.view(0)["stake"] == 10 and game.current_player == 2


def test_ks_5_2_queen_reverses_direction():
    game = ks(hands={0: ["9C", "2S", "3S", "4S"], 1: ["QD", "2H", "3H", "4H"]})
    game.apply("play 9C")
    game.apply("play QD")
    assert game.view(0)["direction"] == -1 and game.view(0)["stake"] == 9
    assert game.current_player == 0


def test_ks_5_3_king_clears_a_non_empty_table():
    game = ks(hands={0: ["9C", "2S", "3S", "4S"], 1: ["KD", "2H", "3H", "4H"]})
    game.apply("play 9C")
    game.apply("play KD")
    view = game.view(0)
    assert view["table"] == [] and view["stake"] == 0 and view["discard"] == ["9C", "KD"]
    assert view["penalty_counts"] == [0, 0, 0, 0] and game.current_player == 2


def test_ks_5_4_king_on_an_empty_table_sets_fifteen():
    game = ks(hands={0: ["KC", "2S", "3S", "4S"]})
    game.apply("play KC")
    assert game.view(0)["stake"] == 15 and game.view(0)["table"] == ["KC"]


def test_ks_5_5_king_queen_of_a_suit_resets_and_reverses():
    game = ks(hands={0: ["AC", "2S", "3S", "4S"], 1: ["KH", "QH", "3H", "4H"]})
    game.apply("play AC")
    game.apply("play QH KH")
    view = game.view(0)
    assert view["stake"] == 0 and view["direction"] == -1 and view["table"] == ["AC", "QH", "KH"]
    assert game.current_player == 0


def test_ks_5_6_queen_jack_of_a_suit_reverses_and_adds_ten():
    game = ks(hands={0: ["AC", "2S", "3S", "4S"], 1: ["JH", "QH", "3H", "4H"]})
    game.apply("play AC")
    game.apply("play JH QH")
    assert game.view(0)["stake"] == 21 and game.view(0)["direction"] == -1


def test_ks_5_special_cards_are_legal_whatever_the_stake():
    game = ks(hands={0: ["AC", "AD", "3S", "4S"], 1: ["JH", "QS", "KH", "2H"]})
    game.apply("play AC AD")
    assert {"play JH", "play QS", "play KH"} <= set(legal(game)) and "play 2H" not in legal(game)


def test_ks_5_7_four_kings_end_the_round_at_once():
    game = ks(hands={0: ["2C", "3S", "4S", "5S"], 1: ["KC", "KS", "KD", "KH"]})
    game.apply("play 2C")
    game.apply("play KC KS KD KH")
    assert game._state.round_index == 1
    assert any(e["event"] == "round_end" for e in game.history)
    # KS-9.3: the four-kings player 0, everyone else their rank points + 1 (nobody took: 0 + 1)
    assert game._state.last_round_scores() == [1, 0, 1, 1]


def test_ks_6_1_take_only_with_cards_on_the_table_and_forced_when_nothing_fits():
    game = ks(hands={0: ["AC", "AD", "3S", "4S"], 1: ["2H", "3H", "4H", "5D"]})
    assert "take" not in legal(game)
    with pytest.raises(IllegalActionError, match="KS-6.1"):
        game.apply("take")
    game.apply("play AC AD")
    assert legal(game) == ["take"]                                     # forced


def test_ks_6_2_taken_cards_go_to_the_penalty_pile():
    game = ks(hands={0: ["AC", "AD", "3S", "4S"], 1: ["2H", "3H", "4H", "5D"]})
    game.apply("play AC AD")
    game.apply("take")
    view = game.view(1)
    assert view["penalty_counts"] == [0, 2, 0, 0] and view["table"] == []
    assert game._state.penalty(1) == [card_id("AC"), card_id("AD")]
    assert len(view["hand"]) == 4                      # not into the hand
    assert view["last_play"] == {"player": 1, "action": "take"}


def test_ks_6_3_the_taker_leads_a_new_circle_in_the_same_turn():
    game = ks(hands={0: ["AC", "AD", "3S", "4S"], 1: ["2H", "3H", "4H", "5D"]})
    game.apply("play AC AD")
    game.apply("take")
    assert game.current_player == 1 and game.view(1)["stake"] == 0
    assert "take" not in legal(game)                   # the table is empty
    game.apply("play 2H")                              # any card may lead
    assert game.view(0)["stake"] == 2 and game.current_player == 2


def test_ks_7_1_manual_refill_or_forget_and_take_the_chip():
    game = ks(hands=HANDS, refill="manual")
    game.apply("play 5H")
    assert game.phase == "refill" and legal(game) == ["refill", "end_turn"]
    with pytest.raises(IllegalActionError, match="KS-7.1"):
        game.apply("play 6H")
    game.apply("end_turn")
    assert game.view(0)["chip_holder"] == 0 and len(game.view(0)["hand"]) == 3
    game.apply("play 5S")
    game.apply("refill")
    assert game.view(1)["chip_holder"] == 0 and len(game.view(1)["hand"]) == 4
    assert new_game("kings_stakes", seed=1).phases.index("refill") == 1


def test_ks_7_2_short_hand_is_topped_up_at_the_next_turn():
    game = ks(hands=HANDS, refill="manual")
    game.apply("play 5H")
    game.apply("end_turn")
    for _ in range(3):                                    # seats 1, 2, 3 play and refill
        game.apply(legal(game)[0])
        if game.phase == "refill":
            game.apply("refill")
    assert game.current_player == 0 and len(game.view(0)["hand"]) == 4


def test_ks_7_3_chip_holder_gets_one_point_at_the_end():
    def finish(refill_choice):
        game = new_game("kings_stakes", players=2, seed=5, refill="manual", rounds=2)
        rng = random.Random(1)
        while not game.is_over:
            labels = legal(game)
            game.apply(refill_choice if refill_choice in labels else labels[rng.randrange(len(labels))])
        return game
    game = finish("end_turn")
    holder = game.view(0)["chip_holder"]
    assert holder is not None
    round_totals = [0, 0]
    for e in game.history:
        if e["event"] == "round_end":
            round_totals = [a + b for a, b in zip(round_totals, e["round_scores"])]
    expected = [t + (1 if p == holder else 0) for p, t in enumerate(round_totals)]
    assert game.scores == expected


def play_random_until(game, stop, seed=0):
    rng = random.Random(seed)
    while not game.is_over and not stop(game):
        ids = game.legal_action_ids()
        game.apply(ids[rng.randrange(len(ids))])


def test_ks_8_1_everyone_else_gets_exactly_one_final_turn():
    checked = 0
    for seed in range(30):
        game = new_game("kings_stakes", players=4, seed=seed, rounds=4)
        play_random_until(game, lambda g: g._state.out_player is not None, seed)
        if game.is_over or game._state.out_player is None:
            continue
        owed = game._state.final_turns_owed
        out = game._state.out_player
        assert out not in owed and all(game.view(p)["hand_sizes"][p] > 0 for p in owed)
        seen = []
        round_before = game._state.round_index
        while game._state.round_index == round_before:
            player = game.current_player
            if not seen or seen[-1] != player:
                # Turn order as play goes on: the next owed seat in the current direction.
                step, prev = game.view(player)["direction"], seen[-1] if seen else out
                waiting = [p for p in owed if p not in seen]
                expected = next((prev + step * k) % 4 for k in range(1, 5)
                                if (prev + step * k) % 4 in waiting)
                assert player == expected, (seed, seen, player)
                seen.append(player)
            ids = game.legal_action_ids()
            can_take = game.action_from_id(ids[-1]).kind == "take"
            chosen = ids[-1] if can_take and seed % 2 else ids[0]
            took = game.action_from_id(chosen).kind == "take"
            game.apply(chosen)
            if took:
                break                                    # KS-8.2 tested below
        if not took:
            assert sorted(seen) == owed                  # each owed seat moved exactly once
        checked += 1
    assert checked >= 10


def test_ks_8_2_a_take_during_the_final_turns_ends_the_round():
    for seed in range(40):
        game = new_game("kings_stakes", players=3, seed=seed)
        play_random_until(game, lambda g: g._state.out_player is not None and
                          "take" in legal(g), seed)
        if game.is_over:
            continue
        taker, before = game.current_player, game._state.round_index
        game.apply("take")
        assert game._state.round_index == before + 1
        last_action, round_end = game.history[-2:]
        assert (last_action["player"], last_action["action"]) == (taker, "take")
        assert round_end["event"] == "round_end"
        return
    pytest.fail("no final-turn take reached")


def test_ks_8_3_four_kings_end_the_round_immediately_mid_circle():
    game = ks(hands={0: ["2C", "3S", "4S", "5S"], 1: ["6C", "7S", "8S", "9S"],
                     2: ["KC", "KS", "KD", "KH"]})
    game.apply("play 2C")
    game.apply("play 6C")
    game.apply("play KC KS KD KH")
    assert game._state.round_index == 1 and game._state.last_round_scores() == [1, 1, 0, 1]


def test_ks_8_4_leftover_cards_count_for_nobody():
    game = ks(hands={0: ["2C", "3S", "4S", "5S"], 1: ["KC", "KS", "KD", "KH"]}, rounds=4)
    game.apply("play 2C")
    summary = [e for e in game.history]
    game.apply("play KC KS KD KH")
    end = game.history[-1]
    assert end["event"] == "round_end" and end["round_scores"] == [1, 0, 1, 1]
    assert len(summary) == 1


def test_ks_8_5_rounds_terminate_without_a_turn_cap():
    for seed in range(60):
        game = new_game("kings_stakes", players=2 + seed % 5, seed=seed)
        actions = 0
        rng = random.Random(seed)
        while not game.is_over:
            ids = game.legal_action_ids()
            game.apply(ids[rng.randrange(len(ids))])
            actions += 1
        # each turn moves a card out of a hand and the stock only shrinks: a round needs
        # at most one play and one take per card of the deck.
        assert actions <= 2 * 54 * game.options["rounds"]


def test_ks_9_1_no_penalty_cards_scores_zero():
    assert round_points([0, 3, 5, 0]) == [0, 1, 2, 0]


def test_ks_9_2_rank_by_penalty_cards_seed_example_and_ties():
    assert round_points([6, 9, 12, 22]) == [1, 2, 3, 4]
    assert round_points([5, 5, 9, 0]) == [1, 1, 3, 0]                 # Decision: ties share


def test_ks_9_3_four_kings_scoring():
    assert round_points([6, 9, 12, 0], four_kings_player=3) == [2, 3, 4, 0]
    # Decision: the four-kings player is left out of the ranking of the others.
    assert round_points([6, 9, 2, 0], four_kings_player=2) == [2, 3, 0, 1]


def test_ks_9_4_rounds_option_and_fewest_points_win():
    for bad in (0, 3, -4, "4", 4.0):
        with pytest.raises(ConfigError, match="rounds"):
            new_game("kings_stakes", players=4, rounds=bad)
    game = new_game("kings_stakes", players=2, rounds=4, seed=2)
    assert game.options["rounds"] == 4
    assert new_game("kings_stakes", players=3).options["rounds"] == 3
    play_random_until(game, lambda g: False)
    ends = [e for e in game.history if e["event"] == "round_end"]
    assert len(ends) == 4
    assert game.winners == [p for p in range(2) if game.scores[p] == min(game.scores)]


def test_ks_9_5_teams_sum_partners_opposite():
    with pytest.raises(ConfigError, match="teams"):
        new_game("kings_stakes", players=3, teams=True)
    game = new_game("kings_stakes", players=4, teams=True, seed=3)
    play_random_until(game, lambda g: False)
    per_player = game._state.player_totals()
    assert game.scores == [per_player[0] + per_player[2], per_player[1] + per_player[3]] * 2
    best = min(game.scores)
    assert game.winners == [p for p in range(4) if game.scores[p] == best]
    assert set(game.winners) in ({0, 2}, {1, 3}, {0, 1, 2, 3})


def test_ks_9_6_cards_scoring():
    assert round_points([5, 5, 9, 0], scoring="cards") == [5, 5, 9, 0]
    assert round_points([5, 5, 9, 0], four_kings_player=0, scoring="cards") == [0, 6, 10, 1]
    with pytest.raises(ConfigError, match="scoring"):
        new_game("kings_stakes", scoring="points")


def test_ks_10_view_shows_public_facts_only():
    game = ks(hands=HANDS, stock=["9H"])
    game.apply("play 5H")
    view = game.view(2)
    assert view["hand"] == ["AC", "2D", "3D", "10C"]                  # sorted: ace low
    assert view["table"] == ["5H"] and view["stake"] == 5 and view["stock_size"] == 54 - 17
    assert view["hand_sizes"] == [4, 4, 4, 4] and view["legal_actions"] == []
    assert "9H" not in str(view) and not any(c in str(view) for c in HANDS[3] if c != "KH")
    assert game.view(1)["legal_actions"] == legal(game)


def test_ks_9_5_partners_are_one_side_for_the_search():
    from cardcore.bots.ismcts import sides_of
    assert sides_of(new_game("kings_stakes", players=4, teams=True, seed=1)) == [0, 1, 0, 1]
    assert sides_of(new_game("kings_stakes", players=3, seed=1)) == [0, 1, 2]
