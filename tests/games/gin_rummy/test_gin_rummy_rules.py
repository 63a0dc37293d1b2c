"""Gin Rummy, one or more tests per rule ID of games/gin_rummy.md (stacked decks)."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from cardcore import ConfigError, IllegalActionError, new_game
from cardcore.cards import card_id, card_str
from cardcore.games.gin_rummy._state import action_table, penalty_points, to_os_index

from gr_helpers import ce, chi2_bound, chi2_fit, legal, os_id, score_rows

# Dealer 0, 3 players: seat 1 plays first. Hands chosen so that the tests can steer.
HANDS = {0: ["2C", "3D", "9S", "KH", "4H"], 1: ["7H", "7S", "8D", "JC", "6C"],
         2: ["QH", "10S", "2D", "5S", "AC"]}


def draw_until_empty(game):
    """The player to move draws the whole stock (max_draw_cards must allow it)."""
    while game.view(0)["stock_size"]:
        game.apply("draw")


# ---------------------------------------------------------------- GR-1
@pytest.mark.parametrize("players", [0, 1, 16, 99])
def test_gr_1_1_two_to_fifteen_players(players):
    with pytest.raises(ConfigError, match="2 to 15 players"):
        new_game("gin_rummy", players=players)
    assert new_game("gin_rummy", seed=1).num_players == 5
    for ok in (2, 3, 15):
        assert new_game("gin_rummy", players=ok, seed=0).num_players == ok


def test_gr_1_2_one_deck_up_to_five_players_two_decks_above():
    for players, copies in ((2, 1), (5, 1), (6, 2), (15, 2)):
        counts = Counter(new_game("gin_rummy", players=players, seed=3).all_cards())
        assert sorted(counts) == list(range(52)) and set(counts.values()) == {copies}


@pytest.mark.parametrize("option,value,rule", [
    ("max_draw_cards", 0, "GR-5.1"), ("max_draw_cards", 105, "GR-5.1"),
    ("max_draw_cards", True, "GR-5.1"), ("max_turns", 0, "GR-7.2"),
    ("max_turns", 10_001, "GR-7.2"), ("use_special_cards", 1, "GR-4"),
    ("reshuffle", "yes", "GR-6.1"), ("scoring", "Face", "GR-8.1"), ("dealer", 3, "GR-2.1"),
    ("dealer", -1, "GR-2.1")])
def test_gr_1_3_options_are_checked_naming_option_and_rule(option, value, rule):
    with pytest.raises(ConfigError, match=option) as info:
        new_game("gin_rummy", players=3, **{option: value})
    assert rule in str(info.value) and info.value.args
    game = new_game("gin_rummy", players=3, max_draw_cards=104, max_turns=10_000)
    assert game.view(0)["max_turns"] == 10_000


# ---------------------------------------------------------------- GR-2
def test_gr_2_1_dealer_by_option_or_by_lot():
    for dealer in range(4):
        game = new_game("gin_rummy", players=4, dealer=dealer, seed=9)
        assert game.view(0)["dealer"] == dealer and game.current_player == (dealer + 1) % 4
    lots = Counter(new_game("gin_rummy", players=4, seed=s).view(0)["dealer"] for s in range(400))
    assert set(lots) == {0, 1, 2, 3} and min(lots.values()) > 60
    assert new_game("gin_rummy", seed=77).view(0) == new_game("gin_rummy", seed=77).view(0)


@pytest.mark.parametrize("players,per_hand", [(2, 7), (3, 5), (6, 5)])
def test_gr_2_2_deal_one_at_a_time_from_the_dealers_next_seat(players, per_hand):
    dealer = 1
    deck = [card_str(c) for c in new_game("gin_rummy", players=players).deck_for(players, {})]
    random.Random(players).shuffle(deck)
    turn = players * per_hand
    while deck[turn].startswith("8"):                            # a plain turn-up (GR-2.4 apart)
        deck.append(deck.pop(turn))
    game = new_game("gin_rummy", players=players, deck=deck, dealer=dealer, seed=0)
    for seat in range(players):
        first = (seat - dealer - 1) % players                    # deck[0] goes to dealer + 1
        expected = sorted(card_id(c) for c in deck[first:turn:players])
        assert game._state.hand(seat) == expected and len(expected) == per_hand
    assert game.view(0)["top_card"] == deck[turn]
    assert game._state.stock() == [card_id(c) for c in deck[turn + 1:]]


def test_gr_2_3_the_next_card_is_turned_up_and_sets_what_to_match():
    game = ce(hands=HANDS, turn_up=["7C"])
    view = game.view(1)
    assert view["top_card"] == "7C" and view["suit"] == "C" and view["discard"] == ["7C"]
    assert legal(game) == ["play 6C", "play 7H", "play 7S", "play 8D", "play JC", "draw"]


def test_gr_2_4_a_turned_up_eight_goes_to_the_bottom_of_a_stacked_stock():
    game = ce(hands=HANDS, turn_up=["8C", "8H", "9D"], stock=["KS"])
    view = game.view(0)
    assert view["top_card"] == "9D" and view["reburied"] == ["8C", "8H"]
    stock = game._state.stock()
    assert stock[0] == card_id("KS") and stock[-2:] == [card_id("8C"), card_id("8H")]
    assert view["stock_bottom_known"] == ["8H", "8C"]          # bottom first
    assert view["stock_size"] == 52 - 15 - 1                   # the eights are back in it


def test_gr_2_4_a_turned_up_eight_goes_back_at_a_uniform_place_in_a_shuffled_stock():
    """OpenSpiel draws the next turn-up uniformly from a deck the eight is back in: its place
    in the stock is uniform, the top included (then it is turned up again)."""
    buckets = [0] * 4
    again = 0
    for seed in range(30_000):
        game = new_game("gin_rummy", players=5, seed=seed)
        reburied = game._state.reburied()
        if len(reburied) != 1:
            again += len(reburied) > len(set(reburied))        # the same eight turned twice
            continue
        stock = game._state.stock()
        place = stock.index(reburied[0])                       # 0 = top; 26 cards
        buckets[min(place * 4 // len(stock), 3)] += 1
    assert sum(buckets) > 1500 and again > 0
    widths = [7, 6, 7, 6]                                      # places 0-6, 7-12, 13-19, 20-25
    assert chi2_fit(buckets, [w / 26 for w in widths]) < chi2_bound(3)


def test_gr_2_5_the_seat_after_the_dealer_plays_first():
    for dealer in range(3):
        assert ce(dealer=dealer).current_player == (dealer + 1) % 3


# ---------------------------------------------------------------- GR-3
def test_gr_3_1_match_the_suit_or_the_rank_or_play_an_eight():
    game = ce(hands=HANDS, turn_up=["7D"])
    assert legal(game) == ["play 7H", "play 7S", "play 8D", "draw"]
    with pytest.raises(IllegalActionError, match="GR-3.1") as info:
        game.apply("play JC")
    assert "JC matches neither" in str(info.value)
    with pytest.raises(IllegalActionError, match="do not hold"):
        game.apply("play 9D")
    game.apply("play 7S")                                        # now spades or sevens
    assert legal(game) == ["play 5S", "play 10S", "draw"]       # in id order (OpenSpiel's)


def test_gr_3_2_play_goes_up_the_seats():
    game = ce(hands=HANDS, turn_up=["7C"])
    order = [game.current_player]
    for action in ("play 7S", "play 5S", "play 9S"):
        game.apply(action)
        order.append(game.current_player)
    assert order == [1, 2, 0, 1] and game.view(0)["direction"] == 1


def test_gr_3_3_an_eight_then_the_same_player_nominates_a_suit():
    game = ce(hands=HANDS, turn_up=["3S"])
    game.apply("play 8D")
    assert game.phase == "nominate" and game.current_player == 1
    assert legal(game) == ["nominate C", "nominate D", "nominate H", "nominate S"]
    assert [a.id for a in game.legal_actions()] == [54, 55, 56, 57]
    with pytest.raises(IllegalActionError, match="GR-3.3"):
        game.apply("play 7H")
    game.apply("nominate H")
    view = game.view(2)
    assert view["suit"] == "H" and view["top_card"] == "8D" and game.current_player == 2
    assert legal(game) == ["play QH", "draw"]                   # hearts (or an eight)
    with pytest.raises(IllegalActionError, match="GR-3.3"):
        game.apply("nominate C")


def test_gr_3_4_drawing_is_allowed_beside_a_play_and_play_after_drawing():
    game = ce(hands=HANDS, turn_up=["7C"], stock=["JH"])
    assert "draw" in legal(game) and "play 7H" in legal(game)
    game.apply("draw")
    assert game.current_player == 1 and "JH" in game.view(1)["hand"]
    assert "play 7H" in legal(game) and "pass" not in legal(game)
    game.apply("play 7H")
    assert game.current_player == 2


# ---------------------------------------------------------------- GR-4
def test_gr_4_1_a_queen_skips_the_next_player():
    game = ce(hands=HANDS, turn_up=["6H"], use_special_cards=True)
    game.apply("play 7H")
    game.apply("play QH")                                        # seat 2 skips seat 0
    assert game.current_player == 1
    plain = ce(hands=HANDS, turn_up=["6H"])
    plain.apply("play 7H")
    plain.apply("play QH")
    assert plain.current_player == 0                             # no effect without the option
    two = ce(2, hands={1: ["QD", "3C"]}, turn_up=["5D"], use_special_cards=True)
    two.apply("play QD")
    assert two.current_player == 1                               # 2 players: moves again


def test_gr_4_2_an_ace_reverses_the_direction():
    game = ce(hands={1: ["AD", "6H"], 2: ["5H"], 0: ["4D"]}, turn_up=["3D"],
              use_special_cards=True)
    game.apply("play AD")
    assert game.view(0)["direction"] == -1 and game.current_player == 0
    game.apply("play 4D")
    assert game.current_player == 2
    two = ce(2, hands={1: ["AD", "6H"]}, turn_up=["3D"], use_special_cards=True)
    two.apply("play AD")
    assert two.current_player == 0 and two.view(0)["direction"] == -1


def test_gr_4_3_a_two_makes_the_next_player_owe_two_and_twos_stack():
    hands = {1: ["2D", "7H", "JS", "QS", "KS"], 2: ["2S", "8D", "5D", "9H", "10H"],
             0: ["2H", "9D", "3C", "4C", "6S"]}
    game = ce(hands=hands, turn_up=["3D"], use_special_cards=True)
    game.apply("play 2D")
    assert game.view(2)["draw_two_owed"] == 2
    assert legal(game) == ["play 2S", "draw"]                    # not the eight, not 5D
    with pytest.raises(IllegalActionError, match="GR-4.3"):
        game.apply("play 8D")
    with pytest.raises(IllegalActionError, match="GR-4.4"):
        game.apply("pass")
    game.apply("play 2S")
    assert game.current_player == 0 and game.view(0)["draw_two_owed"] == 4
    assert legal(game) == ["play 2H", "draw"]


def test_gr_4_4_drawing_the_debt_takes_every_card_and_ends_the_turn():
    hands = {1: ["2D", "7H"], 2: ["5H", "9C"], 0: ["3H"]}
    game = ce(hands=hands, turn_up=["3D"], stock=["2C", "KH", "4S"], use_special_cards=True)
    game.apply("play 2D")
    stock = game.view(0)["stock_size"]
    game.apply("draw")
    assert game._state.last_drawn() == [card_id("2C"), card_id("KH")]
    assert game.current_player == 0 and game.view(0)["stock_size"] == stock - 2
    assert game.view(0)["draws_this_turn"] == 0 and game.view(0)["draw_two_owed"] == 0
    assert {"2C", "KH"} <= set(game.view(2)["hand"])             # the 2 drawn is not played


def test_gr_4_5_a_special_turn_up_acts_as_if_the_dealer_played_it():
    for turn_up, first, direction, owed in (("QS", 2, 1, 0), ("AS", 3, -1, 0), ("2S", 1, 1, 2),
                                            ("KS", 1, 1, 0)):
        game = ce(4, turn_up=[turn_up], dealer=0, use_special_cards=True)
        view = game.view(0)
        assert (game.current_player, view["direction"], view["draw_two_owed"]) == \
            (first, direction, owed), turn_up
    plain = ce(4, turn_up=["AS"], dealer=0)
    assert plain.current_player == 1 and plain.view(0)["direction"] == 1


def test_gr_4_6_a_two_on_an_empty_stock_owes_nothing():
    game = ce(2, hands={1: ["2D", "2H", "9C", "7C"], 0: ["5D", "6D"]}, turn_up=["3D"],
              use_special_cards=True, max_draw_cards=100)
    draw_until_empty(game)
    game.apply("play 2D")
    assert game.view(0)["draw_two_owed"] == 0 and game.current_player == 0
    assert "draw" not in legal(game) and "play 5D" in legal(game)


# ---------------------------------------------------------------- GR-5
def test_gr_5_1_draw_takes_the_top_card_at_most_max_draw_cards_a_turn():
    game = ce(hands=HANDS, turn_up=["9H"], stock=["KD", "5C", "10D"], max_draw_cards=2)
    game.apply("draw")
    assert game._state.last_drawn() == [card_id("KD")] and game.view(1)["draws_this_turn"] == 1
    game.apply("draw")
    assert game.view(1)["draws_this_turn"] == 2 and "draw" not in legal(game)
    with pytest.raises(IllegalActionError, match="GR-5.1"):
        game.apply("draw")
    game.apply("play 7H")                                        # a play starts the count again
    assert game.view(2)["draws_this_turn"] == 0 and "draw" in legal(game)
    assert action_table()[52] == ("draw", None, None)


def test_gr_5_2_pass_only_after_the_draw_limit():
    game = ce(hands=HANDS, turn_up=["9H"], max_draw_cards=2)
    assert "pass" not in legal(game)
    with pytest.raises(IllegalActionError, match="GR-5.2"):
        game.apply("pass")
    game.apply("draw")
    assert "pass" not in legal(game)
    game.apply("draw")
    assert legal(game)[-1] == "pass" and "play 7H" in legal(game)
    game.apply("pass")
    assert game.current_player == 2 and game.view(2)["draws_this_turn"] == 0
    assert "pass" not in legal(game) and game.view(2)["passes"] == 0


def test_gr_5_3_empty_stock_no_draw_pass_allowed_last_card_counts_as_the_limit():
    game = ce(hands=HANDS, turn_up=["9H"], max_draw_cards=100)
    stock = game.view(0)["stock_size"]
    for _ in range(stock - 1):
        game.apply("draw")
    assert "pass" not in legal(game) and game.view(1)["draws_this_turn"] == stock - 1
    game.apply("draw")                                           # the last card
    view = game.view(1)
    assert view["stock_size"] == 0 and view["draws_this_turn"] == 100
    assert "draw" not in legal(game) and "pass" in legal(game)
    with pytest.raises(IllegalActionError, match="GR-5.3"):
        game.apply("draw")
    game.apply("pass")
    assert game.current_player == 2 and "pass" in legal(game) and "draw" not in legal(game)


def test_gr_5_4_a_debt_stops_when_the_stock_runs_out():
    hands = {1: ["2D", "7H", "7S"], 2: ["5H", "9C"], 0: ["2C", "3H"]}
    game = ce(hands=hands, turn_up=["3D"], use_special_cards=True, max_draw_cards=100)
    stock = game.view(0)["stock_size"]
    for _ in range(stock - 1):                                   # leave one card
        game.apply("draw")
    game.apply("play 2D")
    game.apply("draw")                                           # owes 2, gets 1
    view = game.view(0)
    assert view["stock_size"] == 0 and view["draw_two_owed"] == 0 and game.current_player == 0
    assert view["passes"] == 0                                   # cut short early: no pass (GR-7.3)


# ---------------------------------------------------------------- GR-6
def test_gr_6_1_reshuffle_the_discard_but_its_top_after_a_draw_or_a_play():
    hands = {1: ["7H", "7S", "6C"], 2: ["7C", "5S", "AD"], 0: ["7D", "9S", "4H"]}
    game = ce(hands=hands, turn_up=["9H"], reshuffle=True, max_draw_cards=100, seed=4)
    for action in ("play 7H", "play 7C", "play 7D"):             # discard 9H 7H 7C 7D
        game.apply(action)
    stock = game.view(1)["stock_size"]
    for _ in range(stock):
        game.apply("draw")
    view = game.view(1)
    assert view["discard"] == ["7D"] and view["stock_size"] == 3        # 9H 7H 7C, shuffled
    assert sorted(game._state.stock()) == sorted(card_id(c) for c in ("9H", "7H", "7C"))
    assert game._state.reshuffles == 1 and view["draws_this_turn"] == stock
    # After a play with an empty stock: a second game drains the stock, then plays.
    game = ce(hands=hands, turn_up=["9H"], reshuffle=True, max_draw_cards=100, seed=4)
    game.apply("play 7H")
    stock = game.view(1)["stock_size"]
    for _ in range(stock):
        game.apply("draw")                                       # seat 2 drains it ...
    assert game._state.reshuffles == 1 and game.view(0)["stock_size"] == 1    # 9H back
    game.apply("draw")                                           # ... and the 9H too
    assert game._state.reshuffles == 2 and game.view(0)["stock_size"] == 0   # nothing to move
    game.apply("play 7C")
    assert game._state.reshuffles == 3 and game.view(0)["discard"] == ["7C"]
    assert game._state.stock() == [card_id("7H")]


def test_gr_6_2_without_reshuffle_an_empty_stock_stays_empty():
    game = ce(hands=HANDS, turn_up=["9H"], max_draw_cards=100)
    game.apply("play 7H")
    draw_until_empty(game)
    game.apply("pass")
    game.apply("play 4H")
    assert game.view(0)["stock_size"] == 0 and game._state.reshuffles == 0
    assert game.view(0)["discard"] == ["9H", "7H", "4H"]


# ---------------------------------------------------------------- GR-7
def test_gr_7_1_the_last_card_ends_the_game_even_an_eight_without_nomination():
    hands = {1: ["5C", "6C", "7C", "9C", "10C", "JC", "8S"]}
    game = ce(2, hands=hands, turn_up=["4C"], max_draw_cards=1)
    for card in ("5C", "6C", "7C", "9C", "10C", "JC"):
        game.apply(f"play {card}")
        game.apply("draw")                                       # seat 0 draws one, passes
        game.apply("pass")
    assert game.view(1)["hand"] == ["8S"] and game.current_player == 1
    game.apply("play 8S")
    assert game.is_over and game.phase == "over" and game.winners == [1]
    assert game.view(0)["suit"] == "S" and game.returns()[1] == 0.0 and game.scores[1] == 0
    assert game.scores[0] > 0


def test_gr_7_2_max_turns_plays_end_the_game_right_after_the_play():
    game = ce(hands=HANDS, turn_up=["7C"], max_turns=3)
    game.apply("draw")                                            # draws do not count
    game.apply("play 7S")
    game.apply("play 5S")
    assert not game.is_over and game.view(0)["plays"] == 2
    game.apply("play 9S")
    assert game.is_over and game.view(0)["plays"] == 3
    game = ce(hands=HANDS, turn_up=["4S"], max_turns=1)
    game.apply("play 8D")                                         # an eight: no nomination
    assert game.is_over and game.phase == "over"


def test_gr_7_3_players_plus_one_passes_with_an_empty_stock_end_the_game():
    game = ce(hands=HANDS, turn_up=["10H"], max_draw_cards=100)
    draw_until_empty(game)                                       # seat 1 draws everything
    passes = []
    while not game.is_over:
        game.apply("pass")
        passes.append(game.view(0)["passes"])
    assert passes == [1, 2, 3, 4] and game.is_over               # 3 players: the 4th ends it
    # any other action starts the count again
    game = ce(hands=HANDS, turn_up=["10H"], max_draw_cards=100)
    draw_until_empty(game)
    game.apply("pass")
    game.apply("play 10S")                                       # seat 2 plays
    assert game.view(0)["passes"] == 0


def test_gr_7_3_a_debt_cut_short_exactly_at_its_last_card_counts_as_a_pass():
    hands = {1: ["2D", "7H", "7S"], 2: ["5H", "9C"], 0: ["2C", "3H"]}
    game = ce(hands=hands, turn_up=["3D"], use_special_cards=True, max_draw_cards=100)
    stock = game.view(0)["stock_size"]
    for _ in range(stock - 2):                                   # leave exactly two cards
        game.apply("draw")
    game.apply("play 2D")
    game.apply("draw")
    view = game.view(0)
    assert view["stock_size"] == 0 and view["passes"] == 1 and game.current_player == 0
    game.apply("pass")
    game.apply("pass")
    assert not game.is_over and game.view(0)["passes"] == 3
    game.apply("pass")
    assert game.is_over


# ---------------------------------------------------------------- GR-8
def test_gr_8_1_face_scoring_eight_fifty_court_ten_numbers_face_value():
    assert penalty_points([card_id(c) for c in ("8C", "8H", "JD", "QS", "KC", "AH")]) == 140
    assert penalty_points([card_id(c) for c in ("2C", "5S", "10H", "9D")]) == 26
    game = ce(hands=HANDS, turn_up=["7C"], max_turns=1)
    game.apply("play 7S")
    assert game.is_over
    expected = [penalty_points([card_id(c) for c in game.view(p)["hand"]]) for p in range(3)]
    assert game.scores == expected == [2 + 3 + 9 + 10 + 4, 7 + 50 + 10 + 6, 10 + 10 + 2 + 5 + 10]
    assert [r for r in score_rows(game) if r[0] == 1] == [
        (1, "eights", 1, 50, "GR-8.1"), (1, "court cards (J Q K A)", 1, 10, "GR-8.1"),
        (1, "number cards (2-10)", 2, 13, "GR-8.1")]


def test_gr_8_2_openspiel_scoring_charges_card_plus_two():
    assert penalty_points([card_id("5S")], "openspiel") == 17   # 5S: rank 3 * 4 + suit 3 + 2
    assert penalty_points([card_id("10H")], "openspiel") == 36
    assert penalty_points([card_id("2C")], "openspiel") == 2
    assert penalty_points([card_id("8D"), card_id("AS")], "openspiel") == 60
    game = ce(hands=HANDS, turn_up=["7C"], max_turns=1, scoring="openspiel")
    game.apply("play 7S")
    seat2 = [card_id(c) for c in HANDS[2]]
    assert game.scores[2] == sum(to_os_index(c) + 2 if card_str(c)[0] in "2345679" or
                                 card_str(c).startswith("10") else 10 for c in seat2)
    # 10S = 8 * 4 + 3, 2D = 0 * 4 + 1, 5S = 3 * 4 + 3: each + 2
    assert score_rows(game)[-1] == (2, "number cards (2-10)", 3, 37 + 3 + 17, "GR-8.2")
    assert score_rows(game)[-2] == (2, "court cards (J Q K A)", 2, 20, "GR-8.1")


def test_gr_8_3_returns_are_minus_the_penalty_and_the_fewest_points_win():
    game = ce(hands=HANDS, turn_up=["7C"], max_turns=2)
    assert game.returns() == [0.0] * 3 and game.scores == [0, 0, 0]
    game.apply("play 7S")
    assert game.scores == [0, 0, 0]                              # nothing is scored before the end
    game.apply("play 5S")
    assert game.is_over and game.returns() == [-s for s in game.scores]
    assert game.winners == [min(range(3), key=lambda p: game.scores[p])]
    low, high = game.utility_range
    assert (low, high) == (-544.0, 0.0)
    assert new_game("gin_rummy", players=6, scoring="openspiel").utility_range == (-1904.0, 0.0)


# ---------------------------------------------------------------- GR-9
def test_gr_9_1_the_view_shows_the_table_counters_and_known_places():
    game = ce(hands=HANDS, turn_up=["8C", "5H"], use_special_cards=True, max_draw_cards=3)
    game.apply("draw")
    view = game.view(0)
    assert view["hand"] == ["2C", "3D", "4H", "9S", "KH"] and view["hand_sizes"] == [5, 6, 5]
    assert (view["top_card"], view["suit"], view["direction"], view["dealer"]) == ("5H", "H", 1, 0)
    assert view["draws_this_turn"] == 1 and view["max_draw_cards"] == 3 and view["plays"] == 0
    assert view["reburied"] == ["8C"] and view["stock_bottom_known"] == ["8C"]
    assert view["known_eights"] == [[], [], []] and view["stock_size"] == 52 - 15 - 2
    assert view["current_player"] == 1 and view["phase"] == "play" and view["legal_actions"] == []
    assert game.view(1)["legal_actions"] == legal(game)


def test_gr_9_2_the_view_never_shows_other_hands_or_the_stock_order():
    game = ce(hands=HANDS, turn_up=["5H"], stock=["KD", "QD"])
    other = ce(hands={**HANDS, 2: ["QH", "10S", "2D", "5S", "KD"]}, turn_up=["5H"],
               stock=["AC", "QD"])
    assert other.view(0) == game.view(0) and other.view(1) == game.view(1)
    assert other.view(2) != game.view(2)
    assert "KD" not in str(game.view(0)) and "QD" not in str(game.view(1))


def test_action_ids_are_openspiels():
    table = action_table()
    assert [card_str(table[i][1]) for i in (0, 3, 4, 24, 48, 51)] == ["2C", "2S", "3C", "8C", "AC", "AS"]
    assert [os_id(c) for c in ("2C", "2D", "2H", "2S", "10H", "AS")] == [0, 1, 2, 3, 34, 51]
    game = new_game("gin_rummy", seed=1)
    labels = [game.action_from_id(i).label for i in range(58)]
    assert labels[52:] == ["draw", "pass", "nominate C", "nominate D", "nominate H", "nominate S"]
    assert labels[34] == "play 10H" and game.num_distinct_actions == 58


def test_every_refusal_names_a_rule():
    for seed in range(20):
        rng = random.Random(seed)
        game = new_game("gin_rummy", players=rng.choice([2, 3, 6]), seed=seed,
                        use_special_cards=True, reshuffle=seed % 2 == 0, max_draw_cards=2)
        while not game.is_over:
            legal_ids = set(game.legal_action_ids())
            for action in range(58):
                if action not in legal_ids:
                    message, rule = game._state.explain_illegal(action)
                    assert rule and rule.startswith("GR-") and message, (action, message)
            game.apply(rng.choice(sorted(legal_ids)))
        assert game._state.explain_illegal(0) == ("the match is over", "GR-7")


def test_gr_9_zones_say_who_sees_them_and_the_deal_plan_is_the_deal():
    from cardcore.games.gin_rummy._state import deal_plan
    game = ce(hands=HANDS, turn_up=["8S", "8C", "JH"], dealer=2)
    state = game._state
    assert state.zones() == [("hand", "seat", 3, "owner"), ("stock", "shared", 1, "none"),
                             ("discard", "shared", 1, "all")]
    assert state.zone_cards("hand", 1) == state.hand(1)
    assert state.zone_cards("discard") == [card_id("JH")]
    assert state.zone_cards("stock")[::-1] == state.stock()
    # GR-2.4, GR-10.2: the turned-up eights at a stacked stock's bottom are known places
    assert state.known_in_zone("stock") == sorted(card_id(c) for c in ("8S", "8C"))
    assert state.zone_cards("stock")[:2] == [card_id("8C"), card_id("8S")]     # the last first
    assert all(state.known_in_zone("hand", p) == [] for p in range(3))
    deck = [card_id(c) for c in json_deck(game)]
    plan = deal_plan(3, 2, deck)
    for position, zone in enumerate(plan):
        card = deck[position]
        if zone.startswith("hand:"):
            assert card in state.hand(int(zone[5:]))
        elif zone == "reburied":
            assert card in state.stock_bottom_known()
        elif zone == "discard":
            assert state.discard() == [card]
    assert plan.count("reburied") == 2 and game.hidden_deck_positions(0) == [
        i for i, z in enumerate(plan) if z not in ("hand:0", "reburied", "discard")]


def json_deck(game) -> list[str]:
    import json
    return json.loads(game.to_json())["deck"]
