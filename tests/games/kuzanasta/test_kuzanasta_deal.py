"""Kuzanasta KZ-1 (components) and KZ-2 (the deal), with stacked decks."""
from __future__ import annotations

import random

import pytest
from kuzanasta_oracle import JOKER, composition, deal_model
from kz_helpers import ids, stacked

from cardcore import ConfigError
from cardcore.cards import card_id, card_str
from cardcore.registry import new_game
from cardcore.games.kuzanasta._state import KuzanastaState, card_points_of, deal_plan


def test_kz_1_1_deck_has_93_cards_a_to_10_eight_times_faces_four_times():
    g = new_game("kuzanasta", players=4, seed=1)
    deck = g.deck_for(4, g.options)
    assert len(deck) == 93 and deck == composition()
    for rank in range(13):
        count = sum(1 for c in deck if c != JOKER and c % 13 == rank)
        assert count == (8 if rank < 10 else 4)
    assert deck.count(JOKER) == 1
    assert sorted(g.all_cards()) == deck


def test_kz_1_1_wrong_stacked_deck_is_a_config_error():
    deck = [card_str(c) for c in composition()]
    with pytest.raises(ConfigError) as e:
        new_game("kuzanasta", players=2, seed=1, deck=deck[:-1])
    assert e.value.option == "deck"
    bad = deck[:-1] + ["KH"]          # a second KH instead of the joker
    with pytest.raises(ConfigError):
        new_game("kuzanasta", players=2, seed=1, deck=bad)


def test_kz_1_2_view_sorts_hand_by_rank_ace_low_then_suit_joker_last():
    g = stacked(2, 1, hands={0: ["KC", "AH", "JK", "10S", "AC", "2D", "10C"]})
    assert g.view(0)["hand"] == ["AC", "AH", "2D", "10C", "10S", "KC", "JK"]


def test_kz_1_3_face_cards_are_j_q_k_for_set_values():
    from cardcore.games.kuzanasta._sets import kz_set_value
    assert kz_set_value(ids("JC", "JS", "JD"), None) == 20000       # face
    assert kz_set_value(ids("10C", "10S", "10D"), None) == 10000    # number


def test_kz_1_4_card_points():
    for rank in range(13):
        expected = 5 if rank <= 4 else (10 if rank <= 9 else 50)
        for suit in range(4):
            assert card_points_of(suit * 13 + rank) == expected
    assert card_points_of(JOKER) == 0


@pytest.mark.parametrize("players", [1, 5, 0])
def test_kz_1_5_two_to_four_players(players):
    with pytest.raises(ConfigError) as e:
        new_game("kuzanasta", players=players, seed=1)
    assert e.value.option == "players"
    for n in (2, 3, 4):
        assert new_game("kuzanasta", players=n, seed=1).num_players == n
    assert new_game("kuzanasta", seed=1).num_players == 4


def test_kz_2_1_dealer_by_option_or_by_lot_and_the_deal_passes_on():
    g = new_game("kuzanasta", players=3, seed=3, dealer=2)
    assert g._state.dealer == 2
    lots = {new_game("kuzanasta", players=4, seed=s)._state.dealer for s in range(40)}
    assert lots == {0, 1, 2, 3}
    assert new_game("kuzanasta", players=4, seed=11)._state.dealer == \
        new_game("kuzanasta", players=4, seed=11)._state.dealer
    with pytest.raises(ConfigError) as e:
        new_game("kuzanasta", players=3, seed=1, dealer=3)
    assert e.value.option == "dealer"
    g = new_game("kuzanasta", players=3, seed=3, dealer=2, max_turns=1)
    g.apply("draw_stock")
    g.apply(g.legal_action_ids()[0])         # a discard; the deal ends void (KZ-3.5)
    if g.phase == "declare":
        g.apply("end_turn")
    assert g._state.round_index == 1 and g._state.dealer == 0


def test_kz_2_2_first_player_is_after_the_dealer_and_play_goes_up():
    g = new_game("kuzanasta", players=4, seed=5, dealer=3)
    assert g.current_player == 0
    g.apply("draw_stock")
    g.apply(g.legal_action_ids()[0])
    if g.phase == "declare":
        g.apply("end_turn")
    assert g.current_player == 1


def test_kz_2_3_turn_up_sets_wild_rank_and_goes_back_at_index_46():
    g = stacked(2, 0, turn_up="9H")
    s = g._state
    assert s.wild_rank == 8 and g.view(0)["wild_rank"] == "9" and g.view(1)["turn_up"] == "9H"
    assert g.wild_cards == ["9C", "9S", "9D", "9H"]      # KZ-4.1: every card of the rank
    # 2 players: 14 cards dealt, the discard turn-up is index 14, so index 46 is stock index 31.
    assert s.stock(0)[46 - 14 - 1] == card_id("9H")


def test_kz_2_3_joker_turn_up_means_no_wild_rank():
    g = stacked(3, 0, turn_up="JK")
    assert g._state.wild_rank is None and g.view(0)["wild_rank"] is None
    assert g.wild_cards == []                            # and the joker is never wild (KZ-4.3)
    assert g.view(0)["turn_up"] == "JK"


def test_kz_2_4_seven_cards_one_at_a_time_from_the_first_player():
    deck = composition()
    random.Random(4).shuffle(deck)
    g = new_game("kuzanasta", players=3, seed=1, dealer=1, deck=[card_str(c) for c in deck])
    rest = deck[1:]
    rest.insert(46, deck[0])
    for seat in range(3):
        expected = [rest[i] for i in range(21) if (2 + i) % 3 == seat]
        assert g._state.hand(seat) == sorted(expected)          # a hand lists ids ascending
        assert len(expected) == 7


@pytest.mark.parametrize("players,sizes", [(2, (39, 39)), (3, (35, 36)), (4, (32, 31))])
def test_kz_2_5_rest_splits_into_two_piles_first_one_rounding_up(players, sizes):
    g = new_game("kuzanasta", players=players, seed=2)
    s = g._state
    rest = 93 - 7 * players
    assert (sizes[0] + 1) == (rest + 1) // 2            # pile 0 before its turn-up
    assert s.stock_sizes()[0] == sizes[0]
    if players == 4:
        assert s.stock_sizes()[1] == sizes[1]
    else:
        assert len(s.dead()) == sizes[1] == rest - (rest + 1) // 2   # the set-aside pile 1


def test_kz_2_6_two_or_three_players_use_pile_0_only():
    for n in (2, 3):
        g = new_game("kuzanasta", players=n, seed=9)
        v = g.view(0)
        assert v["my_pile"] == 0 and len(v["stock_sizes"]) == 1 and len(v["discards"]) == 1
        assert g._state.pile_of(n - 1) == 0


def test_kz_2_6_four_players_opposite_seats_share_by_default():
    g = new_game("kuzanasta", players=4, seed=9, dealer=0)      # first player 1
    assert [g._state.pile_of(p) for p in range(4)] == [1, 0, 1, 0]
    g = new_game("kuzanasta", players=4, seed=9, dealer=0, pile_pairing="adjacent")
    assert [g._state.pile_of(p) for p in range(4)] == [1, 0, 0, 1]
    with pytest.raises(ConfigError) as e:
        new_game("kuzanasta", players=4, seed=9, pile_pairing="diagonal")
    assert e.value.option == "pile_pairing"


def test_kz_2_7_top_of_each_used_stock_starts_its_discard_pile():
    g = stacked(4, 0, discard_tops=["3C", "QH"], stocks=[["4C"], ["4S"]])
    assert g._state.discards() == [[card_id("3C")], [card_id("QH")]]
    assert g._state.stock(0)[0] == card_id("4C") and g._state.stock(1)[0] == card_id("4S")
    assert g.view(2)["discards"] == [["3C"], ["QH"]]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("adjacent", [False, True])
def test_kz_2_8_stacked_deck_is_dealt_exactly_as_the_plain_model(players, adjacent):
    for trial in range(5):
        deck = composition()
        random.Random(trial * 10 + players).shuffle(deck)
        dealer = trial % players
        g = new_game("kuzanasta", players=players, seed=trial, dealer=dealer,
                     pile_pairing="adjacent" if adjacent else "opposite",
                     deck=[card_str(c) for c in deck])
        model = deal_model(deck, players, (dealer + 1) % players, adjacent)
        s = g._state
        for seat in range(players):
            assert s.hand(seat) == sorted(model["hands"][seat])
            assert s.pile_of(seat) == model["pile_of"][seat]
        assert s.discards() == model["discards"]
        for k, stock in enumerate(model["stocks"]):
            assert s.stock(k) == stock
        assert s.dead() == sorted(model["dead"])
        assert s.wild_rank == model["wild"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_kz_2_3_to_2_7_deal_plan_is_the_literal_deal_of_position_labels(players):
    """The engine's deal plan (which the C deal, hidden_deck_positions and the stacked-deck
    helpers all use) agrees with the plain model dealing a deck whose cards are its positions."""
    for dealer in range(players):
        plan = deal_plan(players, {}, dealer)
        model = deal_model(list(range(93)), players, (dealer + 1) % players)
        expected = [""] * 93
        for seat, hand in enumerate(model["hands"]):
            for pos in hand:
                expected[pos] = f"hand:{seat}"
        for k, pile in enumerate(model["stocks"]):
            for pos in pile:
                expected[pos] = f"stock:{k}"
        for k, pile in enumerate(model["discards"]):
            expected[pile[0]] = f"discard:{k}"
        for pos in model["dead"]:
            expected[pos] = "set_aside"
        assert model["turn_up"] == 0 and 0 in model["stocks"][0]     # shown, then in stock 0
        expected[0] = "turn_up"
        assert plan == expected
        # Stock positions in deck order are the stock top-first (the turn-up keeps its place).
        for k, pile in enumerate(model["stocks"]):
            assert [p for p in pile if p != 0] == [i for i, z in enumerate(plan) if z == f"stock:{k}"]


def test_kz_2_deal_plan_refuses_bad_arguments():
    with pytest.raises(ValueError, match="players"):
        deal_plan(5, {}, 0)
    with pytest.raises(ValueError, match="dealer"):
        deal_plan(3, {}, 3)


def test_kz_options_come_from_the_wrapper_defaults_only():
    """The state machine has no defaults of its own: it reads every option from the wrapper's
    checked options (whose defaults are the one source), and refuses an incomplete dict."""
    with pytest.raises(ValueError, match="missing Kuzanasta options"):
        KuzanastaState(2, {"dealer": None})
    g = new_game("kuzanasta", players=2, seed=1)
    assert g.options == {name: opt.default for name, opt in g.options_spec.items()}
    state = KuzanastaState(2, dict(g.options))
    state.seed_rng(1)
    state.start()
    assert state.hand(0) == g._state.hand(0)
