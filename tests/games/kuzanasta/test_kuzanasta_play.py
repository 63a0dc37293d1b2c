"""Kuzanasta KZ-3 (a turn) and KZ-6 (the God card), with stacked decks."""
from __future__ import annotations

from kuzanasta_oracle import JOKER
from kz_helpers import assert_refused, stacked

from cardcore.cards import card_id, card_str


def plain_turn(g) -> None:
    """Draw from the stock, discard the drawn card (another one if it is the joker), do not go out."""
    before = set(g._state.hand(g.current_player))
    g.apply("draw_stock")
    hand = g._state.hand(g.current_player)
    drawn = [c for c in hand if c not in before] or hand
    card = drawn[0] if drawn[0] != JOKER else next(c for c in hand if c != JOKER)
    g.apply(f"discard {card_str(card)}")
    if g.phase == "declare":
        g.apply("end_turn")


# A 2-player table: seat 0 moves first (dealer 1); wild rank 5.
HAND0 = ["7C", "7S", "7D", "QC", "QS", "5H", "2C"]
HAND1 = ["KC", "KD", "10C", "10D", "6C", "3C", "AC"]


def test_kz_3_1_draw_the_top_of_the_stock_or_of_the_discard_pile():
    g = stacked(2, 1, hands={0: HAND0, 1: HAND1}, stocks=[["9C", "8H"]], discard_tops=["4S"])
    assert g.legal_actions()[0].kind == "draw_stock"
    assert [str(a) for a in g.legal_actions()] == ["draw_stock", "draw_discard"]
    g.apply("draw_stock")
    assert card_id("9C") in g._state.hand(0) and g._state.stock(0)[0] == card_id("8H")
    assert g.phase == "discard"
    g.apply("discard 2C")
    g.apply("end_turn")                         # 7-7-7 Q-Q-W: seat 0 may go out but waits
    g.apply("draw_discard")                     # seat 1 takes the 2C just thrown
    assert card_id("2C") in g._state.hand(1) and g._state.discards() == [[card_id("4S")]]


def test_kz_3_1_cannot_draw_twice_or_discard_before_drawing():
    g = stacked(2, 1, hands={0: HAND0, 1: HAND1})
    assert_refused(g, "discard 2C", "KZ-3.1")
    g.apply("draw_stock")
    assert_refused(g, "draw_stock", "KZ-3.2")


def test_kz_3_2_discard_goes_on_top_of_your_own_pile():
    g = stacked(4, 3, hands={0: HAND0}, discard_tops=["4S", "4H"])
    assert g._state.pile_of(0) == 0
    g.apply("draw_stock")
    assert_refused(g, "discard KH", "KZ-3.2")
    g.apply("discard 2C")
    assert g._state.discards() == [[card_id("4S"), card_id("2C")], [card_id("4H")]]
    assert g.view(2)["discards"][0] == ["4S", "2C"]


def test_kz_3_3_going_out_comes_after_the_discard_and_is_optional():
    g = stacked(2, 1, hands={0: HAND0, 1: HAND1}, stocks=[["9C"]])
    assert "go_out" not in [a.kind for a in g.legal_actions()]     # not before the discard
    g.apply("draw_stock")
    assert "go_out" not in [a.kind for a in g.legal_actions()]
    g.apply("discard 9C")
    assert g.phase == "declare" and g.current_player == 0
    labels = [str(a) for a in g.legal_actions()]
    assert labels[:2] == ["end_turn", "go_out"]
    g.apply("end_turn")                                             # waiting is allowed
    assert g.current_player == 1 and g.phase == "draw" and g.scores == [0, 0]


def test_kz_3_3_without_two_sets_the_declare_step_only_ends_the_turn():
    g = stacked(2, 1, hands={0: ["2C", "3C", "4C", "6C", "8C", "9C", "10C"]}, stocks=[["KH"]])
    g.apply("draw_stock")
    g.apply("discard KH")
    assert g.phase == "declare" and [str(a) for a in g.legal_actions()] == ["end_turn"]
    assert g.view(1)["phase"] == "declare"         # the same step as with two sets (KZ-8)
    assert_refused(g, "go_out", "KZ-7.1")
    g.apply("end_turn")
    assert g.current_player == 1 and g.phase == "draw"


def test_kz_3_4_empty_stock_is_refilled_from_the_discard_pile_turned_over():
    g = stacked(2, 1, hands={0: HAND0, 1: HAND1})
    while g._state.stock_sizes()[0] > 1:
        plain_turn(g)
    pile = g._state.discards()[0]
    plain_turn(g)                 # draws the last stock card and discards X on the pile
    top = g._state.discards()[0]
    assert len(top) == 1 and g._state.round_index == 0
    # The next draw starts by turning pile (all but X) over: its old bottom card is on top.
    assert g._state.stock(0) == pile
    assert g.legal_action_ids()[:2] == [0, 1]
    assert sorted(g.all_cards()) == g.deck_for(2, g.options)


def test_kz_3_4_reshuffle_option_shuffles_the_recycled_cards():
    g = stacked(2, 1, hands={0: HAND0, 1: HAND1}, reshuffle=True)
    while g._state.stock_sizes()[0] > 1:
        plain_turn(g)
    pile = g._state.discards()[0]
    plain_turn(g)
    stock = g._state.stock(0)
    assert sorted(stock) == sorted(pile) and len(pile) > 30
    assert stock != pile                        # same cards, shuffled with the game's generator


def test_kz_3_4_a_player_who_can_draw_nothing_ends_the_deal_void():
    # Seat 0 holds the joker and draws the 39th (last) stock card, then discards the joker:
    # the discard pile dies (KZ-6.4) and seat 1 has neither stock nor discard pile.
    g = stacked(2, 1, hands={0: GOD, 1: HAND1})
    while g._state.stock_sizes()[0] > 1:
        plain_turn(g)
    assert g.current_player == 0
    g.apply("draw_stock")
    g.apply("discard JK")
    g.apply("end_turn")
    assert g._state.round_index == 1                     # void: a new deal has started
    assert g.scores == [0, 0]
    assert g._state.last_deal()["end"] == "no_draw"
    assert g._state.dealer == 0 and g.current_player == 1


def test_kz_3_5_max_turns_ends_the_deal_void():
    g = stacked(2, 1, hands={0: HAND0, 1: HAND1}, max_turns=3, ante=4)
    for _ in range(3):
        plain_turn(g)
    assert g._state.round_index == 1 and g._state.last_deal()["end"] == "max_turns"
    assert g.scores == [0, 0]
    assert g._state.pot == 16                               # KZ-7.6: the pot carries over


# ---------------------------------------------------------------- the God card
GOD = ["JK", "2C", "3D", "6H", "8S", "9C", "JH"]


def test_kz_6_1_joker_takes_a_place_in_the_hand_and_fills_no_set():
    g = stacked(2, 1, hands={0: ["JK", "7C", "7S", "7D", "QC", "QS", "2C"]}, turn_up="9D",
                stocks=[["4H"]])
    assert len(g._state.hand(0)) == 7
    g.apply("draw_stock")
    g.apply("discard 2C")           # 7-7-7 Q-Q JK 4H: one set only
    assert [str(a) for a in g.legal_actions()] == ["end_turn"]


def test_kz_6_2_god_draw_takes_any_stock_card_topmost_copy_from_own_pile():
    g = stacked(2, 1, hands={0: GOD}, stocks=[["4H", "10S", "QD", "10S"]])
    labels = [str(a) for a in g.legal_actions()]
    assert labels == ["draw_stock", "draw_discard", "god_look"]
    assert g.view(1)["god_holder"] is None                      # KZ-8: not yet revealed
    g.apply("god_look")
    assert g.phase == "god_draw" and g.view(1)["god_holder"] == 0
    legal = [str(a) for a in g.legal_actions()]
    stock_cards = {card_str(c) for c in g._state.stock(0)}
    assert legal == [f"god_draw {c}" for c in sorted(stock_cards, key=card_id)]
    assert len(legal) == len(stock_cards)                       # each distinct card once
    before = g._state.stock(0)
    g.apply("god_draw 10S")
    after = g._state.stock(0)
    assert after == before[:1] + before[2:]                     # the copy nearest the top
    assert card_id("10S") in g._state.hand(0) and g.phase == "discard"
    # KZ-8: the public history shows that a God draw happened, not which card.
    assert [e["action"] for e in g.history] == ["god_look", "god_draw"]
    assert g.history[-1]["id"] is None and "10S" not in str(g.history)


def test_kz_6_2_god_draw_from_the_other_pile_with_four_players():
    g = stacked(4, 3, hands={0: GOD}, stocks=[["4H"], ["QH"]])
    assert card_id("QH") not in g._state.stock(0)     # the stack put QH in pile 1 only
    g.apply("god_look")
    g.apply("god_draw QH")
    assert card_id("QH") not in g._state.stock(1)
    assert g._state.stock_sizes() == [32, 30]


def test_kz_6_2_only_the_holder_may_god_draw():
    g = stacked(2, 1, hands={0: HAND0, 1: GOD})
    assert_refused(g, "god_look", "KZ-6.2")
    assert_refused(g, 3 + card_id("4H"), "KZ-3.1")                # a god_draw id in the draw phase
    plain_turn(g)
    g.apply("god_look")
    assert_refused(g, "draw_stock", "KZ-6.2")


def test_kz_6_3_god_discard_starts_a_new_pile_and_the_old_one_is_dead():
    g = stacked(2, 1, hands={0: GOD, 1: HAND1}, discard_tops=["4S"], stocks=[["9H"]])
    g.apply("draw_stock")
    labels = [str(a) for a in g.legal_actions()]
    assert "god_discard 9H" in labels and "god_discard JK" not in labels
    g.apply("god_discard 9H")
    assert g._state.discards() == [[card_id("9H")]]
    assert card_id("4S") in g._state.dead()
    assert g.view(1)["god_holder"] == 0


def test_kz_6_3_no_god_discard_for_a_player_without_the_joker():
    g = stacked(2, 1, hands={0: HAND0, 1: HAND1}, stocks=[["9H"]])
    g.apply("draw_stock")
    assert_refused(g, "god_discard 9H", "KZ-6.3")


def test_kz_6_4_discarding_the_joker_kills_the_pile_and_the_privileges():
    g = stacked(2, 1, hands={0: GOD, 1: HAND1}, discard_tops=["4S"], stocks=[["9H"]])
    g.apply("draw_stock")
    dead_before = len(g._state.dead())
    g.apply("discard JK")
    assert g._state.discards() == [[]]
    assert len(g._state.dead()) == dead_before + 2 and JOKER in g._state.dead()
    assert g.view(1)["god_holder"] is None
    g.apply("end_turn")
    assert [str(a) for a in g.legal_actions()] == ["draw_stock"]    # seat 1: no discard pile


def test_kz_6_3_kz_6_4_kz_8_the_dead_piles_are_face_up_the_set_aside_pile_is_not():
    """The dead discard piles lie face up in zone "dead", which every seat's view lists; the
    set-aside pile 1 of a 2-3 player deal (KZ-2.6) is zone "aside", a count to everybody."""
    g = stacked(2, 1, hands={0: GOD, 1: HAND1}, discard_tops=["4S"], stocks=[["9H"]])
    aside = len(g._state.dead())
    assert aside > 0
    for seat in (0, 1):
        assert g.view(seat)["zones"]["aside"] == {"count": aside}
        assert g.view(seat)["zones"]["dead"] == []
    g.apply("draw_stock")
    g.apply("god_discard 9H")                         # KZ-6.3: 4S's pile leaves play
    for seat in (0, 1):
        assert g.view(seat)["zones"]["dead"] == ["4S"]
        assert g.view(seat)["zones"]["aside"] == {"count": aside}
    g.apply("end_turn")
    g2 = stacked(2, 1, hands={0: GOD, 1: HAND1}, discard_tops=["4S"], stocks=[["9H"]])
    g2.apply("draw_stock")
    g2.apply("discard JK")                            # KZ-6.4: the joker and its pile
    for seat in (0, 1):
        assert sorted(g2.view(seat)["zones"]["dead"]) == sorted(["4S", "JK"])
    moves = [m for e in g2.events(1) for m in e["moves"] if m["to"] == "dead"]
    assert moves and all("cards" in m for m in moves)


def test_kz_6_6_dead_cards_are_never_recycled():
    g = stacked(2, 1, hands={0: GOD, 1: HAND1}, discard_tops=["4S"], stocks=[["9H"]])
    g.apply("draw_stock")
    g.apply("god_discard 9H")
    g.apply("end_turn")
    dead = g._state.dead()
    for _ in range(45):                          # past the refill of the stock
        plain_turn(g)
        if g._state.round_index:
            break
    assert g._state.round_index == 0
    assert g._state.dead() == dead
    live = g._state.stock(0) + g._state.discards()[0] + g._state.hand(0) + g._state.hand(1)
    assert sorted(live + dead) == g.deck_for(2, g.options)


def test_kz_6_2_god_draw_from_the_other_pile_when_the_own_stock_is_empty():
    g = stacked(4, 3, hands={0: GOD})              # seats 0, 2 use pile 0; seats 1, 3 pile 1
    while True:
        p = g.current_player
        if p in (1, 3) or (p == 2 and g._state.stock_sizes()[0] == 1):
            g.apply("draw_discard")                # keeps pile 1's stock, and the parity
            g.apply(g.legal_action_ids()[0])       # some discard
            g.apply("end_turn")
            continue
        if p == 0 and g._state.stock_sizes()[0] == 1:
            g.apply("draw_stock")
            g.apply("god_discard " + card_str(next(c for c in g._state.hand(0) if c != JOKER)))
            g.apply("end_turn")
            break
        plain_turn(g)
    for _ in range(3):                             # seats 1, 2, 3: pile 0 keeps one card
        g.apply("draw_discard")
        g.apply(g.legal_action_ids()[0])
        g.apply("end_turn")
    assert g.current_player == 0 and g._state.stock_sizes()[0] == 0
    assert [str(a) for a in g.legal_actions()] == ["draw_discard", "god_look"]
    g.apply("god_look")
    pile1 = g._state.stock(1)
    assert g.legal_action_ids() == sorted({3 + c for c in pile1})
    g.apply(g.legal_action_ids()[-1])
    assert len(g._state.stock(1)) == len(pile1) - 1
