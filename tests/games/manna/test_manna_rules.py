"""Manna from Heaven: one or more tests per rule ID of games/manna.md (MH-x.y)."""
from __future__ import annotations

from collections import Counter

import pytest
from manna_helpers import (
    DRAW,
    RETRACT,
    TAKE_ADD,
    TAKE_JOKER,
    TAKE_PAIR,
    TAKE_TWO,
    c,
    cs,
    discard,
    game_with,
    go_out,
    meld,
    position,
    stacked,
)

from cardcore import ConfigError, IllegalActionError, new_game
from cardcore.cards import card_id, card_str
from cardcore.games.manna._melds import (
    py_canasta_type,
    py_meld_shape_ok,
    py_min_meld,
)

WILD, BLACK3 = 13, 14
FOUR_TYPES = ([["4C"] * 7, ["5C"] * 5 + ["JK", "JK"], ["JK"] * 7, ["7C"] * 7])


def names(ids):
    return sorted(card_str(x) for x in ids)


# ---------------------------------------------------------------- MH-1 components
def test_mh_1_1_four_decks_and_eight_jokers():
    g = new_game("manna", seed=1)
    deck = g.deck_for(6, g.options)
    counts = Counter(deck)
    assert len(deck) == 216 and counts[52] == 8
    assert all(counts[x] == 4 for x in range(52))
    assert sorted(g.all_cards()) == sorted(deck)


def test_mh_1_2_twos_and_jokers_are_wild_threes_are_not():
    assert py_meld_shape_ok(WILD, 0, 3)                 # 2 2 JK is a wild meld
    assert not py_meld_shape_ok(2, 3, 0)                # threes are not a natural rank
    assert py_meld_shape_ok(12, 2, 1)                   # K K + a wild
    assert game_with().wild_cards == ["2C", "2S", "2D", "2H", "JK"]     # what a table marks


def test_mh_1_3_card_points_count_toward_the_minimum():
    g = game_with()
    position(g, 1, ["AC", "AS", "AD", "KC", "KS", "KD", "2C", "JK", "JK", "4C", "4S", "4D",
                    "9C", "9S"], need=(150, 150))
    g.apply(meld("A", True, 3))
    assert g._state.turn_points == 60                   # ace 20
    g.apply(meld("K", True, 3))
    assert g._state.turn_points == 90                   # K 10
    g.apply(meld("4", True, 3))
    assert g._state.turn_points == 105                  # 4 = 5
    g.apply(meld("wild", True, 0, 1, 2))
    assert g._state.turn_points == 225                  # two 20, joker 50
    assert g._state.opened()[1]


def test_mh_1_4_teams_alternate_and_play_is_clockwise():
    g = game_with(dealer=0)
    assert g.current_player == 1
    s = g.scores
    assert s[0] == s[2] == s[4] and s[1] == s[3] == s[5]
    g.apply(DRAW)
    hand = g._state.hand(1)
    g.apply(6 + next(x for x in hand if x % 13 != 6))
    assert g.current_player == 2


# ---------------------------------------------------------------- MH-2 the deal
def test_mh_2_1_dealer_option_and_rotation():
    g = new_game("manna", seed=3, dealer=4, target=10**6)
    assert g._state.dealer == 4 and g.current_player == 5
    a, b = new_game("manna", seed=9), new_game("manna", seed=9)
    assert a._state.dealer == b._state.dealer            # by lot, reproducible
    g._state.run_random(1, max_actions=1)
    while g._state.round_index == 0:
        ids = g.legal_action_ids()
        g.apply(ids[0])
    assert g._state.dealer == 5 and g.current_player == 0
    with pytest.raises(ConfigError, match="dealer"):
        new_game("manna", dealer=6)


def test_mh_2_2_thirteen_cards_and_an_eleven_card_foot_one_at_a_time():
    hand1 = ["4C", "4S", "5C", "5S", "6C", "6S", "8C", "8S", "9C", "9S", "10C", "10S", "JC"]
    foot1 = ["QC", "QS", "QD", "KC", "KS", "KD", "AC", "AS", "AD", "JD", "JH"]
    g = game_with(dealer=0, hands={1: hand1}, feet={1: foot1})
    assert names(g._state.hand(1)) == names(cs(*hand1))
    assert names(g._state.foot(1)) == names(cs(*foot1))
    assert g._state.hand_sizes() == [13] * 6 and g._state.foot_sizes() == [11] * 6


def test_mh_2_3_stock_of_72_and_the_first_discard():
    g = game_with(upcard="9H")
    assert g._state.stock_size == 71 and g._state.discard_pile() == [c("9H")]
    assert not g._state.frozen
    assert game_with(upcard="2H")._state.frozen
    assert game_with(upcard="JK")._state.frozen
    assert game_with(upcard="3H")._state.frozen


def test_mh_2_4_dealt_red_threes_are_laid_out_and_replaced():
    hand1 = ["3H", "3D", "5C", "5S", "6C", "6S", "8C", "8S", "9C", "9S", "10C", "10S", "JC"]
    g = game_with(dealer=0, hands={1: hand1}, stock=["3D", "KH", "QH"])
    s = g._state
    assert names(s.red_threes(1)) == ["3D", "3D", "3H"]
    hand = s.hand(1)
    assert len(hand) == 13 and c("KH") in hand and c("QH") in hand
    assert s.stock_size == 71 - 3


def test_mh_2_5_stacked_deck_is_dealt_as_given():
    deck = stacked(dealer=2)
    g = new_game("manna", seed=5, dealer=2, deck=deck)
    first = 3
    for seat in range(6):
        want = [card_id(deck[(seat - first) % 6 + 6 * k]) for k in range(13)]
        assert names(g._state.hand(seat)) == names(want)
    assert g._state.discard_pile() == [card_id(deck[144])]
    assert g._state.stock()[0] == card_id(deck[145])


# ---------------------------------------------------------------- MH-3 a turn
def test_mh_3_1_draw_two_from_the_stock():
    g = game_with(dealer=0, stock=["KH", "QH", "JH"])
    g.apply(DRAW)
    hand = g._state.hand(1)
    assert len(hand) == 15 and c("KH") in hand and c("QH") in hand
    assert g._state.stock()[0] == c("JH") and g.phase == "meld"


def test_mh_3_2_teams_meld_only_on_their_own_melds():
    g = game_with()
    position(g, 1, ["KC", "KS", "9C", "9D", "5C"], melds0=[["KD", "KH", "KC"]],
             opened0=True, opened1=True)
    ids = g.legal_action_ids()
    assert meld("K", False, 1) not in ids                # the kings meld is team 0's
    g2 = game_with()
    position(g2, 2, ["KC", "KS", "9C", "9D", "5C"], melds0=[["KD", "KH", "KC"]],
             opened0=True, opened1=True)
    assert meld("K", False, 1) in g2.legal_action_ids()


def test_mh_3_3_discard_ends_the_turn():
    g = game_with()
    position(g, 3, ["KC", "9C", "5C"], opened1=True)
    g.apply(discard("9C"))
    assert g.current_player == 4 and g.phase == "draw" and g._state.discard_pile()[-1] == c("9C")


# ---------------------------------------------------------------- MH-4 melds
def test_mh_4_1_canasta_is_closed_and_a_new_meld_may_start():
    g = game_with()
    position(g, 1, ["KC", "KS", "KD", "KH", "9C", "9D", "5C"], melds1=[["KC", "KS", "KD"]],
             opened1=True, foot_taken=True)
    g.apply(meld("K", False, 4))
    m = g._state.melds(1)
    assert len(m[0][1]) == 7 and m[0][2] == "natural"
    ids = g.legal_action_ids()
    assert not any(i for i in ids if i == meld("K", False, 1))
    assert py_meld_shape_ok(12, 8, 0) is False          # never more than 7 cards


def test_mh_4_2_two_naturals_and_at_most_three_wilds():
    assert py_meld_shape_ok(12, 2, 3)
    assert not py_meld_shape_ok(12, 1, 2)
    assert not py_meld_shape_ok(12, 3, 4)
    g = game_with()
    position(g, 1, ["KC", "2C", "2S", "9C", "9D", "5C"], opened1=True)
    ids = g.legal_action_ids()
    assert meld("K", True, 2, 1) not in ids             # only one king
    with pytest.raises(IllegalActionError) as e:
        g.apply(meld("K", True, 2, 1))
    assert e.value.rule == "MH-3.2"


def test_mh_4_3_wild_meld_of_wild_cards_only():
    assert py_meld_shape_ok(WILD, 0, 7) and not py_meld_shape_ok(WILD, 1, 3)
    g = game_with()
    position(g, 1, ["2C", "2S", "JK", "9C", "9D"], opened1=True)
    assert meld("wild", True, 0, 2, 1) in g.legal_action_ids()


def test_mh_4_4_one_unfinished_meld_per_rank():
    g = game_with()
    position(g, 1, ["KC", "KS", "KD", "9C", "9D"], melds1=[["KH", "KH", "KS"]], opened1=True)
    ids = g.legal_action_ids()
    assert meld("K", True, 3) not in ids and meld("K", False, 3) in ids


def test_mh_4_5_canasta_types_and_bonuses():
    assert py_canasta_type(12, 7, 0) == "natural"
    assert py_canasta_type(12, 5, 2) == "mixed"
    assert py_canasta_type(WILD, 0, 7) == "wild"
    assert py_canasta_type(6, 7, 0) == "sevens"
    assert py_canasta_type(12, 6, 0) == ""
    # Bonuses through the hand score: one canasta of each type, team 1 goes out.
    g = game_with()
    position(g, 1, ["9C", "9D", "9S", "5C"], melds1=FOUR_TYPES, opened1=True, foot_taken=True)
    before = feet_penalty(g, 1)
    g.apply(meld("9", True, 3))
    g.apply(go_out("5C"))
    cards = 7 * 5 + (5 * 5 + 100) + 350 + 35 + 30
    assert g._state.last_hand_scores()[1] == 500 + 300 + 1000 + 1500 + cards + 100 + before


def points(x):
    return 50 if x == 52 else [20, 20, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10][x % 13]


def test_mh_4_6_sevens_take_no_wild_cards_unless_wild_sevens():
    assert not py_meld_shape_ok(6, 3, 1)
    assert py_meld_shape_ok(6, 3, 1, True)
    assert py_canasta_type(6, 6, 1) == "mixed"
    g = game_with()
    position(g, 1, ["7C", "7S", "2C", "9C", "9D"], opened1=True)
    assert meld("7", True, 2, 1) not in g.legal_action_ids()
    g2 = game_with(wild_sevens=True)
    position(g2, 1, ["7C", "7S", "2C", "9C", "9D"], opened1=True)
    assert meld("7", True, 2, 1) in g2.legal_action_ids()


MIXED7 = ["7C"] * 5 + ["2C", "JK"]
NAT_WILD = FOUR_TYPES[0], FOUR_TYPES[2]


def test_mh_4_6_wild_sevens_defaults_and_a_mixed_sevens_canasta_scores_300():
    """MH-4.6 Decision: with wild_sevens a sevens canasta with wild cards is mixed (bonus 300);
    the 1500 is for seven natural sevens («Семерки канаста — 7 семерок»)."""
    options = new_game("manna", seed=0).options
    assert options["wild_sevens"] is False and options["mixed_sevens"] == "either"
    g = game_with(dealer=0, wild_sevens=True)
    position(g, 1, ["7C", "7S", "9C", "9D"], melds1=[["7D"] * 4 + ["2C"]], opened1=True,
             foot_taken=True)
    g.apply(meld("7", False, 2))
    assert [m[2] for m in g._state.melds(1)] == ["mixed"]
    g = game_with(dealer=0, wild_sevens=True)
    position(g, 1, ["5H"], melds1=[*NAT_WILD, FOUR_TYPES[1], MIXED7], opened1=True,
             foot_taken=True)
    others = feet_penalty(g, 1)
    g.apply(go_out("5H"))
    cards = 35 + 125 + 350 + (25 + 70)
    assert g._state.last_hand_scores()[1] == 500 + 1000 + 300 + 300 + cards + 100 + others


@pytest.mark.parametrize("mixed_sevens", ["either", "mixed"])
def test_mh_7_1_wild_sevens_a_mixed_sevens_canasta_frees_sevens(mixed_sevens):
    """MH-4.6 Decision: "until each side has completed a canasta of sevens (either natural or
    mixed)"; mixed_sevens="mixed" keeps 0.1's reading (only natural sevens canastas count)."""
    for mine, theirs in ((MIXED7, ["7S"] * 7), (["7S"] * 7, MIXED7), (MIXED7, MIXED7)):
        g = game_with(wild_sevens=True, mixed_sevens=mixed_sevens)
        position(g, 1, ["7C", "9C", "5C"], opened1=True, melds1=[mine], melds0=[theirs],
                 opened0=True)
        if mixed_sevens == "either":
            assert discard("7C") in g.legal_action_ids()
        else:
            with pytest.raises(IllegalActionError) as e:
                g.apply(discard("7C"))
            assert e.value.rule == "MH-7.1"
    g = game_with(wild_sevens=True, mixed_sevens=mixed_sevens)     # one side only: not yet
    position(g, 1, ["7C", "9C", "5C"], opened1=True, melds1=[MIXED7, ["7S"] * 7])
    assert discard("7C") not in g.legal_action_ids()


@pytest.mark.parametrize("melds,either,mixed", [
    ([*NAT_WILD, FOUR_TYPES[1], MIXED7], True, False),     # mixed sevens as the sevens one
    ([*NAT_WILD, ["7S"] * 7, MIXED7], True, True),         # ... or as the mixed one
    ([*NAT_WILD, MIXED7], False, False),                   # one canasta fills one place
    ([*NAT_WILD, MIXED7, MIXED7], True, False),            # two: one mixed, one of sevens
    ([*NAT_WILD, ["7S"] * 7], False, False),               # no mixed canasta at all
])
def test_mh_9_1_wild_sevens_a_mixed_sevens_canasta_is_a_canasta_of_sevens(melds, either, mixed):
    for mixed_sevens, legal in (("either", either), ("mixed", mixed)):
        g = game_with(wild_sevens=True, mixed_sevens=mixed_sevens)
        position(g, 1, ["5C"], melds1=melds, opened1=True)
        if legal:
            assert g.legal_action_ids() == [go_out("5C")], mixed_sevens
        else:
            with pytest.raises(IllegalActionError) as e:
                g.apply(go_out("5C"))
            assert e.value.rule == "MH-9.1", mixed_sevens


@pytest.mark.parametrize("mixed_sevens", ["either", "mixed"])
def test_mh_9_2_completing_a_mixed_sevens_canasta_goes_out(mixed_sevens):
    """The canasta that completes the four types counts at once, by a meld or a take."""
    g = game_with(dealer=0, wild_sevens=True, mixed_sevens=mixed_sevens)
    position(g, 1, ["7C", "7S"], melds1=[*FOUR_TYPES[:3], ["7D"] * 4 + ["2C"]], opened1=True,
             foot_taken=True)
    add = meld("7", False, 2)
    if mixed_sevens == "either":
        g.apply(add)
        assert g._state.last_out == 1 and g._state.round_index == 1
    else:
        with pytest.raises(IllegalActionError) as e:              # MH-9.3: no card kept
            g.apply(add)
        assert e.value.rule == "MH-9.3"
    g = game_with(dealer=0, wild_sevens=True, mixed_sevens=mixed_sevens)
    position(g, 1, ["5C"], stage=0, pile=["7H"], melds1=[*FOUR_TYPES[:3], ["7D"] * 5 + ["2C"]],
             opened1=True, foot_taken=True)
    assert (TAKE_ADD in g.legal_action_ids()) == (mixed_sevens == "either")
    if mixed_sevens == "either":
        g.apply(TAKE_ADD)
        assert g.legal_action_ids() == [go_out("5C")]


def test_mh_4_7_black_threes_only_when_going_out():
    g = game_with()
    position(g, 1, ["3C", "3S", "3C", "9C", "9D"], opened1=True)
    assert meld("black3", True, 3) not in g.legal_action_ids()
    g = game_with()
    position(g, 1, ["3C", "3S", "3C", "9C"], melds1=FOUR_TYPES, opened1=True)
    assert meld("black3", True, 3) in g.legal_action_ids()
    g.apply(meld("black3", True, 3))
    g.apply(go_out("9C"))
    assert g._state.last_out == 1
    with pytest.raises(ValueError):
        position(g, 1, ["9C"], melds1=[["3C", "3S", "2C"]])      # never with wild cards


def test_mh_4_8_minimum_by_score():
    assert [py_min_meld(s) for s in (-5, 0, 495, 500, 995, 1000, 1495, 1500, 9000)] == \
        [15, 50, 50, 90, 90, 120, 120, 150, 150]


def test_mh_4_8_provisional_melds_retract_and_no_discard_while_short():
    g = game_with()
    position(g, 1, ["KC", "KS", "KD", "9C", "9D", "5C"], need=(50, 50))
    g.apply(meld("K", True, 3))                          # 30 < 50: provisional
    assert discard("5C") not in g.legal_action_ids()
    with pytest.raises(IllegalActionError) as e:
        g.apply(discard("5C"))
    assert e.value.rule == "MH-4.8"
    g.apply(RETRACT)
    s = g._state
    assert s.melds(1) == [] and len(s.hand(1)) == 6 and s.turn_points == 0
    assert not any(i >= 112 for i in g.legal_action_ids())   # no melding after a retract
    g.apply(discard("5C"))
    assert g.current_player == 2


def test_mh_4_8_meeting_the_minimum_opens_the_team():
    g = game_with()
    position(g, 1, ["KC", "KS", "KD", "AC", "AS", "AD", "5C", "6C"], need=(50, 50))
    g.apply(meld("K", True, 3))
    g.apply(meld("A", True, 3))
    assert g._state.opened()[1] and RETRACT not in g.legal_action_ids()
    assert discard("5C") in g.legal_action_ids()


def test_mh_4_8_decision_no_canasta_while_short():
    g = game_with()
    position(g, 1, ["4C", "4S", "4D", "4H", "4C", "4S", "4D", "9C", "9D"], need=(50, 50))
    assert meld("4", True, 7) not in g.legal_action_ids()   # 35 points < 50
    g2 = game_with()
    position(g2, 1, ["4C", "4S", "4D", "4H", "4C", "4S", "4D", "9C", "9D"], need=(15, 15))
    assert meld("4", True, 7) in g2.legal_action_ids()      # 35 >= 15


# ---------------------------------------------------------------- MH-5 the pile
def test_mh_5_1_no_take_when_the_top_is_wild_or_a_three():
    for top in ("2C", "JK", "3C"):
        g = game_with()
        position(g, 1, ["9C", "9D", "9S"], stage=0, pile=["9H", top], opened1=True)
        assert g.legal_action_ids() == [DRAW]
        with pytest.raises(IllegalActionError) as e:
            g.apply(TAKE_PAIR)
        assert e.value.rule == "MH-5.1"


def test_mh_5_2_frozen_pile_needs_a_natural_pair():
    g = game_with()
    position(g, 1, ["9C", "2C", "5S", "6S"], stage=0, pile=["9H"], opened1=True, frozen=True)
    assert TAKE_TWO not in g.legal_action_ids()
    g = game_with()
    position(g, 1, ["9C", "2C", "5S", "6S"], stage=0, pile=["9H"], opened1=True)
    assert TAKE_TWO in g.legal_action_ids()
    # A wild discard freezes the pile.
    g = game_with()
    position(g, 1, ["2C", "9C", "5S"], opened1=True)
    g.apply(discard("2C"))
    assert g._state.frozen
    # Always frozen for a team without its initial meld.
    g = game_with()
    position(g, 1, ["9C", "2C", "KS", "KD", "KH", "AC", "AD", "AH"], stage=0, pile=["9H"])
    assert TAKE_TWO not in g.legal_action_ids()


def test_mh_5_3_a_unfrozen_add_to_an_unfinished_meld():
    g = game_with()
    position(g, 1, ["5S", "6S", "8C"], stage=0, pile=["4C", "9H"], opened1=True,
             melds1=[["9C", "9D", "9S"]])
    assert TAKE_ADD in g.legal_action_ids()
    g.apply(TAKE_ADD)
    assert len(g._state.melds(1)[0][1]) == 4 and c("4C") in g._state.hand(1)


def test_mh_5_3_b_new_meld_with_pair_or_natural_and_wild():
    g = game_with()
    position(g, 1, ["9C", "9D", "2C", "JK", "5S"], stage=0, pile=["9H"], opened1=True)
    ids = g.legal_action_ids()
    assert {TAKE_PAIR, TAKE_TWO, TAKE_JOKER} <= set(ids)
    g.apply(TAKE_JOKER)
    assert names(g._state.melds(1)[0][1]) == names(cs("9H", "9C", "JK"))


def test_mh_5_3_c_completed_canasta_rank_needs_a_pair():
    g = game_with()
    position(g, 1, ["9C", "2C", "JK", "5S"], stage=0, pile=["9H"], opened1=True,
             melds1=[["9C"] * 7])
    assert list(g.legal_action_ids()) == [DRAW]
    g = game_with()
    position(g, 1, ["9C", "9S", "5S", "6S"], stage=0, pile=["9H"], opened1=True,
             melds1=[["9C"] * 7, ["9D", "9D", "2C", "2D"]], foot_taken=True)
    assert TAKE_PAIR in g.legal_action_ids()
    g.apply(TAKE_PAIR)
    assert len(g._state.melds(1)[1][1]) == 7            # added to the unfinished meld


def test_mh_5_4_the_rest_of_the_pile_joins_the_hand_red_threes_laid_out():
    g = game_with()
    position(g, 1, ["9C", "9D", "5S"], stage=0, pile=["3H", "KC", "QC", "9H"], opened1=True)
    g.apply(TAKE_PAIR)
    s = g._state
    assert names(s.hand(1)) == names(cs("5S", "KC", "QC"))
    assert c("3H") in s.red_threes(1) and s.discard_pile() == []


def test_mh_5_5_unopened_take_needs_a_reachable_minimum():
    g = game_with()
    position(g, 1, ["9C", "9D", "5S", "6S"], stage=0, pile=["AC", "AD", "9H"], need=(50, 50))
    assert g.legal_action_ids() == [DRAW]               # 30 points; the pile's aces don't count
    with pytest.raises(IllegalActionError) as e:
        g.apply(TAKE_PAIR)
    assert e.value.rule == "MH-5.5"
    g = game_with()
    position(g, 1, ["9C", "9D", "AS", "AH", "AD", "6S", "8S"], stage=0, pile=["9H"], need=(50, 50))
    g.apply(TAKE_PAIR)
    s = g._state
    assert s.committed and s.turn_points == 30 and RETRACT not in g.legal_action_ids()
    assert discard("6S") not in g.legal_action_ids()
    g.apply(meld("A", True, 3))
    assert s.opened()[1]


# ---------------------------------------------------------------- MH-6 the foot
def test_mh_6_1_completing_a_canasta_brings_the_foot():
    foot = ["QC", "QS", "QD", "KC", "KS", "KD", "AC", "AS", "AD", "JD", "JH"]
    g = game_with(dealer=0, feet={1: foot})
    position(g, 1, ["KC", "KS", "KD", "KH", "9C"], melds1=[["KC", "KS", "KD"]], opened1=True)
    g.apply(meld("K", False, 4))
    s = g._state
    assert s.feet_taken()[1] and s.foot_sizes()[1] == 0
    assert names(s.hand(1)) == names(cs("9C", *foot))


def test_mh_6_2_red_threes_in_the_foot_are_laid_out_and_replaced():
    foot = ["3H", "QS", "QD", "KC", "KS", "KD", "AC", "AS", "AD", "JD", "JH"]
    g = game_with(dealer=0, feet={1: foot}, stock=["8H"])
    position(g, 1, ["KC", "KS", "KD", "KH", "9C"], melds1=[["KC", "KS", "KD"]], opened1=True)
    g.apply(meld("K", False, 4))
    s = g._state
    assert c("3H") in s.red_threes(1) and c("8H") in s.hand(1) and len(s.hand(1)) == 12


def test_mh_6_3_the_foot_is_picked_up_once():
    g = game_with()
    position(g, 1, ["KC", "KS", "KD", "KH", "QC", "QS", "QD", "QH", "9C", "9D"],
             melds1=[["KC", "KS", "KD"], ["QC", "QS", "QD"]], opened1=True)
    g.apply(meld("K", False, 4))
    size = len(g._state.hand(1))
    g.apply(meld("Q", False, 4))
    assert len(g._state.hand(1)) == size - 4


# ---------------------------------------------------------------- MH-7 sevens
def test_mh_7_1_sevens_discardable_only_after_both_sevens_canastas():
    g = game_with()
    position(g, 1, ["7C", "9C", "5C"], opened1=True, melds1=[["7C"] * 7])
    assert discard("7C") not in g.legal_action_ids()
    with pytest.raises(IllegalActionError) as e:
        g.apply(discard("7C"))
    assert e.value.rule == "MH-7.1"
    g = game_with()
    position(g, 1, ["7C", "9C", "5C"], opened1=True, melds1=[["7C"] * 7], melds0=[["7S"] * 7],
             opened0=True)
    assert discard("7C") in g.legal_action_ids()


def test_mh_7_1_decision_a_hand_of_only_sevens_may_discard_one():
    g = game_with()
    position(g, 1, ["7C", "7S"], opened1=True)
    assert g.legal_action_ids() == [discard("7C"), discard("7S")]


def test_mh_7_2_never_go_out_on_a_seven():
    g = game_with()
    position(g, 1, ["9C", "9D", "9S", "7C"], melds1=FOUR_TYPES, opened1=True, foot_taken=True)
    assert meld("9", True, 3) not in g.legal_action_ids()   # it would leave only the seven
    g = game_with()
    position(g, 1, ["7C"], melds1=FOUR_TYPES, opened1=True)
    with pytest.raises(IllegalActionError) as e:
        g.apply(go_out("7C"))
    assert e.value.rule == "MH-7.2"


# ---------------------------------------------------------------- MH-8 red threes
def test_mh_8_1_red_three_from_the_stock_is_replaced():
    g = game_with(dealer=0, stock=["3D", "KH", "QH", "JH"])
    g.apply(DRAW)
    s = g._state
    assert c("3D") in s.red_threes(1) and {c("KH"), c("QH")} <= set(s.hand(1))
    assert len(s.hand(1)) == 15 and s.stock()[0] == c("JH")


def test_mh_8_2_red_three_upcard_freezes_and_goes_to_the_taker():
    g = game_with(upcard="3H")
    assert g._state.frozen and g.legal_action_ids() == [DRAW]
    g = game_with()
    position(g, 1, ["9C", "9D", "5S", "6S"], stage=0, pile=["3H", "9H"], opened1=True,
             frozen=True)
    g.apply(TAKE_PAIR)
    assert c("3H") in g._state.red_threes(1)


def feet_penalty(g, team):
    """MH-10.5 / MH-8.4 for a team's unopened feet, read from the state before the hand ends."""
    return sum(feet_penalty_of(g, p) for p in range(team, 6, 2) if not g._state.feet_taken()[p])


def feet_penalty_of(g, p):
    """MH-8.4: 100 per red three; MH-10.5: the other cards only with foot_penalty="cards"."""
    cards = g.options["foot_penalty"] == "cards"
    return -sum(100 if (x != 52 and x % 13 == 2 and x // 13 >= 2) else (points(x) if cards else 0)
                for x in g._state.foot(p))


def red_three_hand(team1_melds, **options):
    """Team 1 holds two red threes from the deal; seat 2 (team 0) goes out."""
    g = game_with(dealer=0, hands={1: ["3H", "3D"] + ["9C"] * 4 + ["10C"] * 4 + ["JC"] * 3},
                  stock=["KH", "KS"], **options)
    s = g._state
    assert len(s.red_threes(1)) == 2
    position(g, 2, ["9C", "9D", "9S", "5C"], melds0=FOUR_TYPES, melds1=team1_melds,
             opened0=True, opened1=True, foot_taken=True)
    feet = feet_penalty(g, 1)
    g.apply(meld("9", True, 3))
    g.apply(go_out("5C"))
    return s.last_hand_scores()[1], feet


def test_mh_8_3_red_threes_count_plus_with_a_sevens_canasta_minus_without():
    with_sevens, feet = red_three_hand(FOUR_TYPES)
    assert with_sevens == 3300 + (35 + 125 + 350 + 35) + 200 + feet
    without, feet = red_three_hand(FOUR_TYPES[:3])
    assert without == 1800 + (35 + 125 + 350) - 200 + feet


@pytest.mark.parametrize("mixed_sevens", ["either", "mixed"])
def test_mh_8_3_wild_sevens_a_mixed_sevens_canasta_spares_the_red_threes(mixed_sevens):
    """MH-4.6 Decision: the published "a side that has not completed a canasta of sevens"
    means natural or mixed, as MH-7.1; mixed_sevens="mixed" (0.1) counts them minus."""
    score, feet = red_three_hand([*FOUR_TYPES[:3], MIXED7], wild_sevens=True,
                                 mixed_sevens=mixed_sevens)
    red = 200 if mixed_sevens == "either" else -200
    assert score == 500 + 300 + 1000 + 300 + (35 + 125 + 350 + 95) + red + feet


def test_mh_8_3_all_eight_red_threes_are_worth_1000():
    hand = ["3H", "3H", "3H", "3H", "3D", "3D", "3D", "3D", "9C", "9C", "10C", "10C", "JC"]
    g = game_with(dealer=0, hands={1: hand})
    s = g._state
    assert len(s.red_threes(1)) == 8
    position(g, 1, ["9C", "9D", "9S", "5C"], melds1=FOUR_TYPES, opened1=True, foot_taken=True)
    feet = feet_penalty(g, 1)
    g.apply(meld("9", True, 3))
    g.apply(go_out("5C"))
    assert s.last_hand_scores()[1] == 3300 + (35 + 125 + 350 + 35 + 30) + 1000 + 100 + feet


@pytest.mark.parametrize("foot_penalty", ["red_threes", "cards"])
def test_mh_8_4_red_three_in_an_unopened_foot_costs_100(foot_penalty):
    foot = ["3H", "3D", "QD", "KC", "KS", "KD", "AC", "AS", "AD", "JD", "JH"]
    g = game_with(dealer=0, feet={3: foot}, foot_penalty=foot_penalty)
    position(g, 1, ["9C", "9D", "9S", "5C"], melds1=FOUR_TYPES, opened1=True, foot_taken=True)
    others = feet_penalty(g, 1) - feet_penalty_of(g, 3)
    g.apply(meld("9", True, 3))
    g.apply(go_out("5C"))
    foot3 = -200 - ((10 + 30 + 60 + 20) if foot_penalty == "cards" else 0)
    cards = 35 + 125 + 350 + 35 + 30
    assert g._state.last_hand_scores()[1] == 3300 + cards + 100 + foot3 + others


# ---------------------------------------------------------------- MH-9 going out
def test_mh_9_1_going_out_needs_all_four_canasta_types():
    g = game_with()
    position(g, 1, ["5C"], melds1=FOUR_TYPES, opened1=True)
    assert g.legal_action_ids() == [go_out("5C")]
    g = game_with()
    position(g, 1, ["5C"], melds1=FOUR_TYPES[:3], opened1=True)
    with pytest.raises(IllegalActionError) as e:
        g.apply(go_out("5C"))
    assert e.value.rule == "MH-9.1"


def test_mh_9_2_go_out_by_melding_every_card():
    g = game_with(dealer=0)
    position(g, 1, ["9C", "9D", "9S"], melds1=FOUR_TYPES, opened1=True, foot_taken=True)
    g.apply(meld("9", True, 3))
    assert g._state.last_out == 1 and g._state.round_index == 1


def test_mh_9_3_keep_a_card_when_you_cannot_go_out():
    g = game_with()
    position(g, 1, ["9C", "9D", "9S", "5C"], opened1=True, foot_taken=True)
    assert meld("9", True, 3) not in g.legal_action_ids()
    with pytest.raises(IllegalActionError) as e:
        g.apply(meld("9", True, 3))
    assert e.value.rule == "MH-9.3"
    g = game_with()
    position(g, 1, ["9C", "9D", "9S", "5C", "6C"], opened1=True, foot_taken=True)
    assert meld("9", True, 3) in g.legal_action_ids()


def test_mh_9_4_going_out_ends_the_hand_and_deals_the_next():
    g = game_with(dealer=0)
    position(g, 1, ["9C", "9D", "9S", "5C"], melds1=FOUR_TYPES, opened1=True, foot_taken=True)
    g.apply(meld("9", True, 3))
    g.apply(go_out("5C"))
    s = g._state
    assert s.round_index == 1 and s.last_out == 1 and s.dealer == 1 and g.current_player == 2
    assert s.hand_sizes() == [13] * 6 and s.melds(1) == []


def test_mh_9_5_empty_stock_ends_the_hand():
    g = game_with(dealer=0)
    s = g._state
    n = 0
    while s.stock_size > 0 and s.round_index == 0:
        ids = g.legal_action_ids()
        g.apply(DRAW if s.phase == 0 else next(i for i in ids if 6 <= i < 59))
        n += 1
    assert s.round_index == 0 and s.stock_size == 0
    while s.phase != 0:
        g.apply(next(i for i in g.legal_action_ids() if 6 <= i < 59))
    g.apply(DRAW)
    assert s.round_index == 1 and s.last_out is None


# ---------------------------------------------------------------- MH-10 scoring
def scored_hand(team1_out: bool = True, foot_penalty: str | None = None):
    """Team 1 (one red three from the deal, all four canasta types) melds three nines; seat 1
    goes out, or keeps 5C and 6C when ``team1_out`` is False and seat 2 ends the hand instead
    by drawing from an empty stock. Team 0 has one meld of kings and empty hands."""
    g = game_with(dealer=0, hands={1: ["3H"] + ["9C"] * 4 + ["10C"] * 4 + ["JC"] * 4},
                  stock=["QH"], **({} if foot_penalty is None else {"foot_penalty": foot_penalty}))
    s = g._state
    hand = ["9C", "9D", "9S", "5C"] + ([] if team1_out else ["6C", "8C"])
    position(g, 1, hand, melds1=FOUR_TYPES, opened1=True, foot_taken=True,
             melds0=[["KC", "KS", "KD"]], opened0=True, stock=[] if not team1_out else None)
    feet = (feet_penalty(g, 0), feet_penalty(g, 1))
    g.apply(meld("9", True, 3))
    if team1_out:
        g.apply(go_out("5C"))
    else:
        g.apply(discard("8C"))
        assert g.current_player == 2 and s.stock_size == 0
        g.apply(DRAW)                                     # MH-9.5: the hand ends
    return s.last_hand_scores(), feet


BONUS = 500 + 300 + 1000 + 1500
CARDS1 = 35 + (25 + 100) + 350 + 35 + 30


def test_mh_10_1_canasta_bonuses():
    (_, t1), (_, f1) = scored_hand()
    assert t1 - (CARDS1 + 100 + 100 + f1) == BONUS


def test_mh_10_2_card_points_of_all_melds():
    (t0, t1), (f0, f1) = scored_hand()
    assert t0 - f0 == 30                                  # K K K, unfinished, counts
    assert t1 - (BONUS + 100 + 100 + f1) == CARDS1


def test_mh_10_3_red_threes():
    (_, t1), (_, f1) = scored_hand()
    assert t1 - (BONUS + CARDS1 + 100 + f1) == 100


def test_mh_10_4_going_out_bonus():
    (_, t1), (_, f1) = scored_hand(team1_out=True)
    assert t1 == BONUS + CARDS1 + 100 + 100 + f1
    (_, u1), (_, g1) = scored_hand(team1_out=False)
    assert u1 == BONUS + CARDS1 + 100 - 5 - 5 + g1        # no bonus; 5C 6C left in hand


def test_mh_10_5_cards_left_in_hands_and_unopened_feet_count_against():
    (u0, u1), (g0, g1) = scored_hand(team1_out=False, foot_penalty="cards")
    assert g0 < 0 and u0 == 30 + g0                      # team 0's feet are unopened
    assert u1 == BONUS + CARDS1 + 100 - 10 + g1          # 5C 6C left in seat 1's hand


def unopened_foot_hand(foot_penalty: str | None):
    """Seat 3's foot holds two red threes and 130 points of other cards; seat 1 goes out and
    seat 5 has picked up its foot, so seat 3's is team 1's only unopened foot. Team 1's score."""
    foot = ["3H", "3D", "QD", "KC", "KS", "KD", "AC", "AS", "AD", "JD", "JH"]
    options = {} if foot_penalty is None else {"foot_penalty": foot_penalty}
    g = game_with(dealer=0, feet={3: foot}, **options)
    position(g, 1, ["9C", "9D", "9S", "5C"], melds1=FOUR_TYPES, opened1=True, foot_taken=True)
    assert sorted(g._state.foot(3)) == sorted(card_id(x) for x in foot)
    feet_of_5 = g._state.foot(5)
    g.apply(meld("9", True, 3))
    g.apply(go_out("5C"))
    return g._state.last_hand_scores()[1], feet_of_5


def test_mh_10_5_foot_penalty_red_threes_is_the_default_and_costs_only_red_threes():
    """foot_penalty="red_threes" (the text: «за каждую красную тройку ... минус 100 очков»):
    an unopened foot costs 100 per red three (MH-8.4) and nothing for its other cards."""
    assert new_game("manna", seed=0).options["foot_penalty"] == "red_threes"
    default, feet5 = unopened_foot_hand(None)
    red, _ = unopened_foot_hand("red_threes")
    melded = 3300 + (35 + 125 + 350 + 35 + 30) + 100          # bonuses, cards, going out
    red_in_feet5 = -100 * sum(1 for x in feet5 if x % 13 == 2 and x // 13 >= 2)
    assert default == red == melded - 200 + red_in_feet5


def test_mh_10_5_foot_penalty_cards_counts_every_card_of_an_unopened_foot():
    """foot_penalty="cards" (cardcore 0.1): the other cards of an unopened foot count too."""
    red, feet5 = unopened_foot_hand("red_threes")
    cards, _ = unopened_foot_hand("cards")
    others5 = sum(points(x) for x in feet5 if not (x % 13 == 2 and x // 13 >= 2))
    assert red - cards == (10 + 30 + 60 + 20) + others5 > 120


def test_mh_10_5_foot_penalty_leaves_hands_and_picked_up_feet_alone():
    """Cards left in a hand count under both values; a picked-up foot is a hand."""
    for fp in ("red_threes", "cards"):
        (u0, u1), (g0, g1) = scored_hand(team1_out=False, foot_penalty=fp)
        assert u1 == BONUS + CARDS1 + 100 - 10 + g1    # 5C 6C left in seat 1's hand
        assert u0 == 30 + g0
    (_, _), (red0, _) = scored_hand(team1_out=False, foot_penalty="red_threes")
    (_, _), (cards0, _) = scored_hand(team1_out=False, foot_penalty="cards")
    assert cards0 < red0 <= 0


def test_mh_10_5_foot_penalty_rejects_other_values_and_changes_nothing():
    with pytest.raises(ConfigError) as e:
        new_game("manna", seed=0, foot_penalty="feet")
    assert "MH-10.5" in str(e.value) and "red_threes" in str(e.value)
    with pytest.raises(ConfigError) as e:
        new_game("manna", seed=0, mixed_sevens="natural")
    assert "MH-4.6" in str(e.value)


def test_mh_10_6_match_to_the_target():
    g = game_with(dealer=0, target=100)
    position(g, 1, ["9C", "9D", "9S", "5C"], melds1=FOUR_TYPES, opened1=True, foot_taken=True)
    g.apply(meld("9", True, 3))
    g.apply(go_out("5C"))
    assert g.is_over and g.winners == [1, 3, 5] and g.legal_action_ids() == []
    with pytest.raises(ConfigError, match="target"):
        new_game("manna", target="x")


# ---------------------------------------------------------------- MH-11 the view
def test_mh_11_view_hides_feet_and_other_hands():
    g = new_game("manna", seed=4)
    v = g.view(0)
    assert set(v) >= {"melds", "red_threes", "discard", "frozen", "stock_size", "foot_sizes",
                      "min_meld", "team"}
    assert v["foot_sizes"] == [11] * 6 and len(v["hand"]) == 13
    assert not any("foot" in k and k != "foot_sizes" for k in v) and "stock" not in v
    assert all(k not in v for k in ("hands", "feet"))
    assert v["min_meld"] == [50, 50] and v["team"] == 0


# ---------------------------------------------------------------- Decisions
def test_mh_9_5_decision_red_threes_exhaust_the_stock_mid_draw():
    g = game_with(dealer=0)
    position(g, 1, ["9C"], stage=0, opened1=True, stock=["3H", "3D"])
    g.apply(DRAW)
    s = g._state
    assert s.round_index == 1 and s.last_out is None          # the hand ended
    assert c("3H") not in s.hand(1)


def test_mh_9_5_decision_a_single_card_that_can_be_melded_out_plays_on():
    # Red threes exhaust the stock, leaving seat 1 one seven: it cannot be the going-out
    # discard (MH-7.2), but adding it to the team's unfinished sevens meld goes out (MH-9.2).
    g = game_with(dealer=0)
    position(g, 1, ["7S"], stage=0, opened1=True, melds1=FOUR_TYPES + [["7D", "7D", "7H"]],
             stock=["3H", "3D"], foot_taken=True)
    g.apply(DRAW)
    s = g._state
    assert s.round_index == 0 and g.phase == "meld"
    assert g.legal_action_ids() == [meld("7", False, 1)]
    g.apply(meld("7", False, 1))
    assert s.round_index == 1 and s.last_out == 1


def test_mh_9_5_one_stock_card_is_drawn_alone():
    g = game_with(dealer=0)
    position(g, 1, ["9C", "5C"], stage=0, opened1=True, stock=["KH"])
    g.apply(DRAW)
    assert g._state.stock_size == 0 and len(g._state.hand(1)) == 3 and g.phase == "meld"


def test_mh_9_3_taking_the_pile_must_leave_a_card_to_keep():
    g = game_with()
    position(g, 1, ["9C", "9D", "5S"], stage=0, pile=["9H"], opened1=True)
    assert TAKE_PAIR not in g.legal_action_ids()              # 1 card left: discard, keep none
    g = game_with()
    position(g, 1, ["9C", "9D", "5S"], stage=0, pile=["4C", "9H"], opened1=True)
    assert TAKE_PAIR in g.legal_action_ids()


def test_mh_4_8_decision_pile_cards_melded_do_not_count():
    g = game_with()
    position(g, 1, ["9C", "9D", "KS", "KD", "5S", "6S", "8S"], stage=0,
             pile=["KC", "KH", "9H"], need=(50, 50))
    g.apply(TAKE_PAIR)                                        # 30 counted: 9H 9C 9D
    s = g._state
    g.apply(meld("K", True, 4))                               # two kings from hand count, two don't
    assert s.turn_points == 50 and s.opened()[1]


def test_mh_4_8_decision_committed_melds_keep_the_minimum_reachable():
    g = game_with()
    position(g, 1, ["9C", "9D", "AS", "AH", "AD", "4S", "4D", "4H", "8S"], stage=0,
             pile=["9H"], need=(50, 50))
    g.apply(TAKE_PAIR)                                        # 30; the aces bring 60 more
    ids = g.legal_action_ids()
    assert meld("4", True, 3) not in ids                      # 45 would leave 8S alone: stuck
    assert meld("A", True, 3) in ids


def test_mh_4_illegal_melds_name_their_rule():
    g = game_with()
    position(g, 1, ["KC", "KS", "KD", "QH", "QH", "QH", "7C", "7S", "2C", "2S", "JK", "JK", "9C"],
             melds1=[["QC", "QS", "QD", "2D", "2H"]], opened1=True)
    cases = {
        meld("Q", True, 3): "MH-4.4",                  # an unfinished meld of queens exists
        meld("J", False, 1): "MH-3.2",                 # no jacks in hand
        meld("K", False, 1): "MH-4.4",                 # nothing to add to
        meld("7", True, 2, 1): "MH-4.6",               # sevens take no wild card
        meld("Q", False, 0, 0, 2): "MH-4.2",           # four wild cards in all
    }
    before = g.legal_action_ids()
    for action, rule in cases.items():
        with pytest.raises(IllegalActionError) as e:
            g.apply(action)
        assert e.value.rule == rule, (action, e.value)
    assert g.legal_action_ids() == before


def test_mh_10_6_both_teams_over_the_target_the_higher_wins():
    for seed in range(20):
        g = new_game("manna", seed=seed, hands=1)
        g._state.run_random(seed)
        s = g._state
        t0, t1 = s.team_scores()
        assert s.round_index >= 1 and t0 != t1          # equal totals would play on
        assert g.winners == ([0, 2, 4] if t0 > t1 else [1, 3, 5])
        assert g.scores == [t0, t1] * 3


def test_mh_10_6_match_plays_on_below_the_target():
    g = new_game("manna", seed=1, target=10**6)
    g._state.run_random(1, max_actions=5000)
    assert not g.is_over and g._state.round_index >= 1
    assert g._state.hand_sizes() != [0] * 6


def test_mh_10_5_mh_4_6_format1_options_restore_the_0_1_rules():
    """Saves of format 1 (cardcore 0.1) replay with 0.1's rules: the loader fills the options
    they predate from ``Manna.format1_options``; both are valid option values."""
    from cardcore.games.manna import Manna
    assert Manna.format1_options == {"foot_penalty": "cards", "mixed_sevens": "mixed"}
    game = new_game("manna", seed=0, wild_sevens=True, **Manna.format1_options)
    assert {k: game.options[k] for k in Manna.format1_options} == Manna.format1_options
    assert all(Manna.options_spec[k].default != v for k, v in Manna.format1_options.items())


def test_mh_1_4_teams_are_one_side_for_the_search():
    from cardcore.bots.ismcts import sides_of
    assert sides_of(new_game("manna", seed=1)) == [0, 1, 0, 1, 0, 1]
