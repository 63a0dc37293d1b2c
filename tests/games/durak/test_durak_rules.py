"""Durak, one or more tests per rule ID of games/durak.md."""
from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from cardcore import ConfigError, IllegalActionError, new_game
from cardcore.cards import card_id, card_str
from cardcore.games.durak import Durak
from cardcore.games.durak._state import card_power, durak_deck

from du_helpers import du, ids, legal, playout, stacked_deck

# Seat 0 holds the lowest trump (6S; trumps are spades, 10S turned up) and attacks seat 1.
H0 = ["7H", "9H", "KD", "8C", "10C", "6S"]
H1 = ["8H", "JH", "6D", "QC", "AS", "9D"]
TWO = {0: H0, 1: H1}


def two(**options):
    return du(2, TWO, trump="10S", **options)


def test_du_1_1_thirty_six_cards_six_to_ace():
    game = new_game("durak", players=3, seed=4)
    cards = game.all_cards()
    assert len(cards) == 36 and Counter(cards) == Counter(durak_deck())
    assert {card_str(c)[:-1] for c in cards} == {"6", "7", "8", "9", "10", "J", "Q", "K", "A"}


@pytest.mark.parametrize("players", [0, 1, 7])
def test_du_1_2_two_to_six_players(players):
    with pytest.raises(ConfigError, match="2 to 6 players"):
        new_game("durak", players=players)
    for ok in range(2, 7):
        assert new_game("durak", players=ok, seed=0).num_players == ok


def test_du_1_3_six_lowest_ace_highest_in_every_suit():
    order = [card_power(card_id(f"{r}H")) for r in ("6", "7", "8", "9", "10", "J", "Q", "K", "A")]
    assert order == list(range(9))
    game = du(2, {0: ["KH", "7C", "8C", "9C", "10C", "6S"], 1: ["AH", "QH", "6D", "7D", "8D", "9D"]},
              trump="10S")
    game.apply("attack KH")
    assert legal(game) == ["beat AH", "take"]           # the queen is lower than the king


def test_du_2_3_trumps_are_not_wild_cards():
    game = new_game("durak", players=3, seed=1)
    assert game.wild_cards == []                        # a table marks nothing as wild


def test_du_2_1_dealer_option_and_by_lot():
    assert new_game("durak", players=4, seed=3, dealer=2).view(0)["dealer"] == 2
    dealers = {new_game("durak", players=4, seed=s).view(0)["dealer"] for s in range(30)}
    assert dealers == {0, 1, 2, 3}
    with pytest.raises(ConfigError, match="DU-2.1"):
        new_game("durak", players=4, dealer=4)


def test_du_2_2_six_each_one_at_a_time_from_the_dealers_left():
    deck = stacked_deck(3, {}, dealer=1)
    game = new_game("durak", players=3, seed=0, deck=deck, dealer=1)
    state = game._state
    # deck[0] -> seat 2 (after the dealer), deck[1] -> seat 0, deck[2] -> seat 1, ...
    assert state.hand(2) == ids(deck[0:18:3])
    assert state.hand(0) == ids(deck[1:18:3])
    assert state.hand(1) == ids(deck[2:18:3])
    assert state.stock()[:-1] == [card_id(c) for c in deck[18:35]]
    assert game.view(0)["hand_sizes"] == [6, 6, 6]


def test_du_2_3_the_last_card_is_turned_up_for_trumps():
    game = two()
    view = game.view(0)
    assert view["trump_card"] == "10S" and view["trump_suit"] == "S"
    assert game._state.stock()[-1] == card_id("10S")                # the stock's bottom
    assert game._state.known_in_zone("stock") == [card_id("10S")]   # everybody knows it
    assert view["zones"]["stock"] == {"count": 24}
    # Six players: the deck is dealt out; the dealer's last card is shown and stays there.
    deck = stacked_deck(6, {}, trump="9H", dealer=4)
    six = new_game("durak", players=6, seed=0, deck=deck, dealer=4)
    assert six.view(0)["stock_size"] == 0 and six.view(0)["trump_suit"] == "H"
    assert card_id("9H") in six._state.hand(4)
    assert "9H" in six.view(0)["known_cards"][4]


def test_du_3_1_the_lowest_trump_attacks_first_and_is_shown():
    game = two()
    assert game.current_player == 0 and game.view(1)["attacker"] == 0
    assert game.view(1)["shown_trump"] == "6S" and game.view(1)["known_cards"][0] == ["6S"]
    first = [e for e in game.events(1) if e["kind"] == "first_attack"][0]
    assert first["cards"] == ["6S"] and first["rule"] == "DU-3.1"
    # Seat 1 with the lower trump attacks instead.
    game = du(2, {0: ["7H", "9H", "KD", "8C", "10C", "AS"], 1: ["8H", "JH", "6D", "QC", "7S", "9D"]},
              trump="10S")
    assert game.current_player == 1
    # No trump in any hand: the seat after the dealer (Decision).
    game = du(2, {0: ["7H", "9H", "KD", "8C", "10C", "QH"], 1: ["8H", "JH", "6D", "QC", "KH", "9D"]},
              trump="10S", dealer=0)
    assert game.view(0)["shown_trump"] is None and game.current_player == 1


def test_du_3_2_first_attacker_by_lot():
    firsts = {new_game("durak", players=3, seed=s, first_attacker="random").current_player
              for s in range(30)}
    assert firsts == {0, 1, 2}
    game = du(2, TWO, trump="10S", first_attacker="random", seed=5)
    assert game.view(0)["shown_trump"] is None


def test_du_4_1_the_attacker_leads_any_card_against_the_next_player():
    game = du(3, {0: H0, 1: H1, 2: ["QH", "KH", "AH", "AD", "AC", "JD"]}, trump="10S", dealer=2)
    assert game.current_player == 0
    assert legal(game) == [f"attack {card_str(c)}" for c in sorted(ids(H0))]
    assert game.view(0)["defender"] == 1
    with pytest.raises(IllegalActionError, match="DU-4.1"):
        game.apply("pass")
    game.apply("attack KD")
    assert game.current_player == 1 and game.phase == "defend"


def test_du_4_2_the_defender_answers_each_card_before_the_next():
    game = two()
    game.apply("attack 7H")
    assert game.current_player == 1 and game.phase == "defend"
    assert sorted(legal(game)) == sorted(["beat AS", "beat 8H", "beat JH", "take"])
    game.apply("beat 8H")
    assert game.view(0)["bout"] == [["7H", "8H"]]
    assert game.phase == "throw_in" and game.current_player == 0


def test_du_4_3_higher_of_the_suit_or_a_trump_beats():
    game = two()
    game.apply("attack KD")                       # 6D is lower: only the trump beats it
    assert legal(game) == ["beat AS", "take"]
    with pytest.raises(IllegalActionError, match="DU-4.3"):
        game.apply("beat 6D")
    game = two()
    game.apply("attack 6S")                       # a trump: only a higher trump
    assert legal(game) == ["beat AS", "take"]
    game = two()
    game.apply("attack 8C")                       # QC higher of the suit, AS a trump
    assert sorted(legal(game)) == ["beat AS", "beat QC", "take"]


def _bind_counts(players: int, seeds: range, **options):
    """Random playouts: every throw-in offer respects DU-4.4 and DU-4.5; and how often a
    take ended with the uncovered cards equal to the defender's hand below the bout limit
    (DU-4.4 binding alone)."""
    bound = 0
    for seed in seeds:
        game = new_game("durak", players=players, seed=seed, **options)

        def check(g):
            nonlocal bound
            v = g._state
            if g.phase in ("throw_in", "take_throw_in"):
                pairs = v.bout()
                uncovered = sum(1 for _, b in pairs if b is None)
                attacks = [a for a in legal(g) if a.startswith("attack")]
                if attacks:
                    assert uncovered < v.hand_sizes()[v.defender]
                    assert len(pairs) < v.bout_limit
            if g.phase == "defend":
                return
            # a take about to end with the defender's hand full of uncovered cards
            if g.phase == "take_throw_in":
                pairs = v.bout()
                uncovered = sum(1 for _, b in pairs if b is None)
                if uncovered + 1 == v.hand_sizes()[v.defender] and len(pairs) + 1 < v.bout_limit:
                    bound += 1
        playout(game, seed, check)
    return bound


def test_du_4_4_no_more_uncovered_cards_than_the_defender_holds():
    assert _bind_counts(5, range(40)) > 0


LIMIT_HANDS = {0: ["7H", "7C", "7D", "8H", "8C", "6S"], 1: ["9H", "9C", "8D", "KS", "AS", "10D"],
               2: ["9D", "QH", "JH", "10H", "6H", "JD"]}
FIVE = [("attack 7H", "beat 9H"), ("attack 7C", "beat 9C"), ("attack 7D", "beat 8D"),
        ("attack 8H", "beat KS"), ("attack 8C", "beat AS")]


def test_du_4_5_at_most_six_attacking_cards():
    game = du(3, LIMIT_HANDS, trump="10S", dealer=2)
    for attack, beat in FIVE:
        game.apply(attack)
        game.apply(beat)
    assert game.view(0)["bout_limit"] == 6 and len(game.view(0)["bout"]) == 5
    assert game.current_player == 0 and legal(game) == ["pass"]     # nothing, but it answers
    game.apply("pass")
    assert game.current_player == 2 and legal(game) == ["attack 9D", "pass"]
    game.apply("attack 9D")
    game.apply("beat 10D")                # the sixth card beaten: nothing more may come
    assert game.view(0)["bouts"] == 1 and game.view(0)["discard_size"] == 12


def test_du_4_6_first_bout_five_option():
    game = du(3, LIMIT_HANDS, trump="10S", dealer=2, first_bout_five=True)
    assert game.view(0)["bout_limit"] == 5
    for attack, beat in FIVE:
        game.apply(attack)
        game.apply(beat)
    # five beaten: seat 2's 9D may not come; the next bout has six again
    assert game.view(0)["bouts"] == 1 and game.view(0)["bout_limit"] == 6
    assert game.view(0)["discard_size"] == 10


def test_du_4_7_the_next_attacker():
    game = two()                          # beaten: the defender attacks next
    game.apply("attack 7H")
    game.apply("beat 8H")
    game.apply("pass")
    assert game.view(0)["attacker"] == 1 and game.view(0)["defender"] == 0
    game = du(3, {0: H0, 1: H1, 2: ["QH", "KH", "AH", "AD", "AC", "JD"]}, trump="10S", dealer=2)
    game.apply("attack 7H")               # a take: the player after the defender attacks
    game.apply("take")
    while game.phase == "take_throw_in":
        game.apply("pass")
    assert game.view(0)["attacker"] == 2 and game.view(0)["defender"] == 0


def test_du_5_1_throw_in_only_ranks_on_the_table():
    game = two()
    game.apply("attack 7H")
    game.apply("beat 8H")
    assert legal(game) == ["attack 8C", "pass"]       # 8C: the rank of the beating card
    with pytest.raises(IllegalActionError, match="DU-5.1"):
        game.apply("attack KD")


def test_du_5_2_throwers_in_order_attacker_first():
    hands = {0: ["7H", "9H", "KD", "8C", "10C", "6S"], 1: H1, 2: ["7C", "8D", "QH", "KH", "AD", "JD"]}
    game = du(3, hands, trump="10S", dealer=2)
    game.apply("attack 7H")
    game.apply("beat 8H")
    assert game.current_player == 0                   # the attacker is asked first
    game.apply("pass")
    assert game.current_player == 2                   # then the next seat, the defender left out
    game.apply("attack 7C")
    game.apply("beat QC")
    assert game.current_player == 0                   # after a beaten card: from the attacker
    assert legal(game) == ["attack 8C", "pass"]


def test_du_5_3_when_every_thrower_passes_the_bout_is_beaten():
    game = two()
    game.apply("attack 7H")
    game.apply("beat 8H")
    game.apply("pass")
    assert game.view(0)["bouts"] == 1 and game.view(0)["bout"] == []
    kinds = [e["kind"] for e in game.events(0)]
    at = kinds.index("pass")
    assert kinds[at + 1] == "beaten" and kinds[at + 2] == "draw"


def test_du_6_1_the_defender_may_take_even_after_beating():
    game = du(2, {0: ["7H", "7C", "KD", "8C", "10C", "6S"], 1: H1}, trump="10S")
    game.apply("attack 7H")
    game.apply("beat 8H")
    game.apply("attack 8C")
    assert "take" in legal(game)
    game.apply("take")                    # seat 0 may still throw in 7C
    assert game.view(0)["taking"] is True and game.phase == "take_throw_in"
    game = two()
    game.apply("attack KD")               # nothing beats but the trump: take is always there
    assert "take" in legal(game)


def test_du_6_2_throw_ins_then_the_defender_takes_everything():
    game = two()
    game.apply("attack 7H")
    game.apply("take")
    assert game.current_player == 0 and legal(game) == ["pass"]    # seat 0 has no other 7
    game.apply("pass")
    assert game._state.hand_sizes() == [6, 7] and game.view(0)["bouts"] == 1
    game = du(2, {0: ["7H", "7C", "7D", "8C", "10C", "6S"], 1: H1}, trump="10S")
    game.apply("attack 7H")
    game.apply("take")
    assert legal(game) == ["attack 7C", "attack 7D", "pass"]
    game.apply("attack 7C")                              # no answer: the same thrower again
    assert game.current_player == 0 and legal(game) == ["attack 7D", "pass"]
    game.apply("pass")
    hand = game._state.hand(1)
    assert card_id("7H") in hand and card_id("7C") in hand
    assert game.view(0)["attacker"] == 0                 # 2 players: the attacker again
    assert game.view(0)["known_cards"][1] == ["7C", "7H"]


def test_du_6_3_a_beaten_bout_goes_to_the_discard_pile():
    game = two()
    game.apply("attack 7H")
    game.apply("beat 8H")
    game.apply("pass")
    assert sorted(game._state.discard()) == ids(["7H", "8H"])
    assert game.view(1)["zones"]["discard"] == ["7H", "8H"]


def test_du_7_1_draw_up_to_six():
    game = two()
    game.apply("attack 7H")
    game.apply("beat 8H")
    game.apply("pass")
    assert game._state.hand_sizes() == [6, 6] and game.view(0)["stock_size"] == 22


def test_du_7_2_attacker_first_defender_last():
    hands = {0: ["7H", "9H", "KD", "8C", "10C", "6S"], 1: H1, 2: ["7C", "8D", "QH", "KH", "AD", "JD"]}
    game = du(3, hands, trump="10S", dealer=2, stock=["6H", "6C", "7S", "8S", "JC"])
    game.apply("attack 7H")
    game.apply("beat 8H")
    game.apply("pass")
    game.apply("attack 7C")              # seat 2 throws in
    game.apply("beat QC")
    game.apply("attack 8C")              # seat 0 throws in again
    game.apply("beat AS")
    while not game.view(0)["bouts"]:
        game.apply("pass")
    s = game._state
    assert card_id("6H") in s.hand(0) and card_id("6C") in s.hand(0)     # attacker first
    assert card_id("7S") in s.hand(2)                                     # then seat 2
    assert card_id("8S") in s.hand(1) and card_id("JC") in s.hand(1)     # defender last
    draws = [e for e in game.events(None) if e["kind"] == "draw"]
    assert [e["player"] for e in draws] == [0, 2, 1]


def test_du_7_3_the_trump_card_is_drawn_last_and_seen():
    game = new_game("durak", players=2, seed=11)
    trump = card_id(game.view(0)["trump_card"])
    seen = []

    def step(g):
        if g.view(0)["stock_size"] == 0 and not seen:
            holder = [p for p in range(2) if trump in g._state.hand(p)]
            if holder:
                seen.append(holder[0])
                assert card_str(trump) in g.view(1 - holder[0])["known_cards"][holder[0]]
    playout(game, 3, step)
    assert seen


def test_du_7_3_every_seat_sees_the_trump_card_drawn_in_the_events():
    """The face-up trump card, drawn last, is named in every seat's draw event and its
    move; the cards drawn with it before stay the drawer's (a count for the others)."""
    checked = 0
    for players, seed in ((2, 11), (3, 0), (4, 5), (3, 7)):
        game = playout(new_game("durak", players=players, seed=seed), seed)
        trump = game.view(0)["trump_card"]
        for seat in range(players):
            draws = [e for e in game.events(seat) if e["kind"] == "draw"]
            last = draws[-1]
            assert last["rule"] == "DU-7.3" and last["stock_size"] == 0
            assert last["cards"] == [trump] and "hidden" not in last
            assert last["moves"] == [{"from": "stock", "to": f"hand:{last['player']}",
                                      "cards": [trump]}]
            before = [e for e in draws if e["n"] == last["n"] - 1 and e["player"] ==
                      last["player"]]
            for e in before:                    # the same draw's other cards: unseen
                assert (trump not in e["cards"]) and (seat == e["player"] or
                                                      (e["cards"] == [] and e["hidden"]))
            assert [e for e in draws if e["rule"] == "DU-7.3"] == [last]
            checked += 1
    assert checked == 12


def test_du_8_1_out_of_cards_with_the_stock_empty():
    game = playout(new_game("durak", players=4, seed=2), 2)
    out = game.view(0)["out"]
    assert out and all(game._state.hand_sizes()[p] == 0 for p in out)
    assert [e for e in game.events(0) if e["kind"] == "out"]


def test_du_8_2_the_last_player_holding_cards_is_the_durak():
    for seed in range(10):
        game = playout(new_game("durak", players=3, seed=seed), seed)
        loser = game.view(0)["durak"]
        if loser is None:
            continue
        sizes = game._state.hand_sizes()
        assert sizes[loser] > 0 and sum(sizes) == sizes[loser]
        assert game.scores[loser] == 1 and sum(game.scores) == 1
        assert game.winners == [p for p in range(3) if p != loser]
        end = [e for e in game.events(0) if e["kind"] == "hand_end"][0]
        assert end["reason_code"] == "durak" and end["rule"] == "DU-8.2"
        return
    raise AssertionError("no durak in ten games")


def test_du_8_3_the_last_cards_out_together_is_a_draw():
    for seed in range(400):
        game = playout(new_game("durak", players=2, seed=seed), seed)
        if game.view(0)["durak"] is None:
            assert game.scores == [0, 0] and game.winners == [0, 1]
            assert game._state.hand_sizes() == [0, 0]
            end = [e for e in game.events(0) if e["kind"] == "hand_end"][0]
            assert end["reason_code"] == "draw" and end["rule"] == "DU-8.3"
            return
    raise AssertionError("no draw in 400 games")


def test_du_8_4_two_hundred_bouts_are_a_draw():
    # Every defender takes and nobody throws in: with 3 players the cards go round for ever.
    game = new_game("durak", players=3, seed=1)
    while not game.is_over:
        moves = legal(game)
        if "take" in moves:
            game.apply("take")
        elif "pass" in moves:
            game.apply("pass")
        else:
            game.apply(moves[0])
    assert game.view(0)["bouts"] == 200 and game.scores == [0, 0, 0]
    end = [e for e in game.events(0) if e["kind"] == "hand_end"][0]
    assert end["reason_code"] == "bouts" and end["rule"] == "DU-8.4"
    assert len(game.action_log()) <= game.max_game_length


def test_du_9_1_transfer_with_a_card_of_the_rank():
    hands = {0: H0, 1: ["7D", "JH", "6D", "QC", "AS", "9D"], 2: ["QH", "KH", "AH", "AD", "AC", "JD"]}
    game = du(3, hands, trump="10S", dealer=2, transfer=True)
    game.apply("attack 7H")
    assert "transfer 7D" in legal(game)
    game.apply("transfer 7D")
    v = game.view(0)
    assert v["attacker"] == 1 and v["defender"] == 2 and game.current_player == 2
    assert v["bout"] == [["7H", None], ["7D", None]]
    game.apply("beat QH")
    assert game.view(0)["bout"][0] == ["7H", "QH"] and game.current_player == 2
    without = du(3, hands, trump="10S", dealer=2)
    without.apply("attack 7H")
    assert not [a for a in legal(without) if a.startswith("transfer")]
    with pytest.raises(IllegalActionError, match="DU-9.1"):
        without.apply("transfer 7D")
    game = du(3, hands, trump="10S", dealer=2, transfer=True)
    game.apply("attack 7H")
    game.apply("beat JH")
    game.apply("pass")
    game.apply("attack 7D") if "attack 7D" in legal(game) else None
    assert not [a for a in legal(game) if a.startswith("transfer")]


def test_du_9_2_the_new_defender_must_hold_enough_cards():
    found = 0
    for seed in range(60):
        game = new_game("durak", players=3, seed=seed, transfer=True)

        def step(g):
            nonlocal found
            s = g._state
            if g.phase != "defend" or any(b is not None for _, b in s.bout()):
                return
            rank = card_str(s.bout()[0][0])[:-1]
            holds = [c for c in s.hand(s.defender) if card_str(c)[:-1] == rank]
            target = next((q for k in range(1, 3) for q in [(s.defender + k) % 3]
                           if s.hand_sizes()[q] > 0), None)
            transfers = [a for a in legal(g) if a.startswith("transfer")]
            if holds and (target is None or s.hand_sizes()[target] < len(s.bout()) + 1):
                assert transfers == []
                found += 1
            elif holds:
                assert len(transfers) == len(holds)
        playout(game, seed, step)
    assert found > 0


def test_du_9_3_a_transfer_may_be_transferred_again():
    hands = {0: H0, 1: ["7D", "JH", "6D", "QC", "AS", "9D"], 2: ["7C", "KH", "AH", "AD", "AC", "JD"]}
    game = du(3, hands, trump="10S", dealer=2, transfer=True)
    game.apply("attack 7H")
    game.apply("transfer 7D")
    game.apply("transfer 7C")
    v = game.view(0)
    assert v["attacker"] == 2 and v["defender"] == 0 and game.current_player == 0
    assert [a for a, _ in v["bout"]] == ["7H", "7D", "7C"]


def test_du_10_1_partners_alternate():
    assert Durak.sides_of(4, {"partners": True}) == [0, 1, 0, 1]
    assert Durak.sides_of(6, {"partners": True}) == [0, 1, 0, 1, 0, 1]
    assert new_game("durak", players=4, seed=0, partners=True).view(0)["sides"] == [0, 1, 0, 1]
    for players in (2, 3, 5):
        with pytest.raises(ConfigError, match="DU-10"):
            new_game("durak", players=players, partners=True)


def test_du_10_2_no_throwing_in_against_a_partner():
    hands = {0: ["7H", "9H", "KD", "8C", "10C", "6S"], 1: H1,
             2: ["7C", "8D", "QH", "KH", "AD", "JD"], 3: ["7D", "8S", "QD", "9C", "AC", "JC"]}
    game = du(4, hands, trump="10S", dealer=3, partners=True)
    game.apply("attack 7H")
    game.apply("beat 8H")
    game.apply("pass")
    assert game.current_player == 2                  # seat 3, the defender's partner, is left out
    game.apply("pass")
    assert game.view(0)["bouts"] == 1 and game.view(0)["attacker"] == 1
    assert game.view(0)["defender"] == 2             # the next opponent


def test_du_10_3_a_side_loses_together():
    for seed in range(20):
        game = playout(new_game("durak", players=4, seed=seed, partners=True), seed)
        loser = game.view(0)["durak"]
        if loser is None:
            continue
        side = loser % 2
        assert game.scores == [1 if p % 2 == side else 0 for p in range(4)]
        sizes = game._state.hand_sizes()
        assert sizes[1 - side] == 0 and sizes[3 - side] == 0     # the other side ran out
        end = [e for e in game.events(0) if e["kind"] == "hand_end"][0]
        assert end["rule"] == "DU-10.3" and end["breakdown"]["by"] == "team"
        return
    raise AssertionError("no side lost in 20 games")


def test_du_11_1_what_a_seat_sees():
    game = two()
    v = game.view(1)
    assert v["hand"] == sorted(H1, key=lambda c: card_id(c)) or set(v["hand"]) == set(H1)
    assert v["zones"]["hand:0"] == {"count": 6} and v["zones"]["stock"] == {"count": 24}
    assert "8C" not in str(v["known_cards"]) and v["attacker"] == 0 and v["defender"] == 1
    spectator = game.view(None)
    assert spectator["hand"] is None and spectator["zones"]["hand:1"] == {"count": 6}


def test_du_11_4_the_table_is_laid_out_in_pairs_open_cards_marked():
    game = two()
    table = next(z for z in game.zones if z["id"] == "table")
    assert table["layout"] == "pairs"
    assert all("layout" not in z for z in game.zones if z["id"] != "table")
    assert game.view(0)["slots"] == {"table": []}
    game.apply("attack 7H")
    game.apply("beat 8H")
    game.apply("attack 8C")
    for seat in (0, 1, None):
        view = game.view(seat)
        assert view["slots"] == {"table": [
            {"card": "7H", "cover": "8H", "open": False},
            {"card": "8C", "cover": None, "open": True}]}
        assert view["zones"]["table"] == ["7H", "8H", "8C"]
    game.apply("beat QC")
    assert [s["open"] for s in game.view(1)["slots"]["table"]] == [False, False]


def test_du_11_4_slots_follow_the_table_in_random_playouts():
    for seed in range(3):
        game = new_game("durak", players=3, seed=seed, transfer=True)

        def check(g):
            view = g.view(g.current_player)
            flat = [c for s in view["slots"]["table"] for c in (s["card"], s["cover"]) if c]
            assert flat == view["zones"]["table"]
            assert [[s["card"], s["cover"]] for s in view["slots"]["table"]] == view["bout"]
            assert all(s["open"] == (s["cover"] is None) for s in view["slots"]["table"])
        playout(game, seed, check)


def test_du_11_2_cards_taken_are_known_until_played():
    game = two()
    game.apply("attack 7H")
    game.apply("take")
    game.apply("pass")
    assert game.view(0)["known_cards"][1] == ["7H"]
    assert card_id("7H") in game._state.known_in_zone("hand", 1)
    game.apply("attack 8C")
    game.apply("beat QC")
    while game.phase == "throw_in":
        game.apply("pass")
    assert game.view(0)["attacker"] == 1  # 1 attacks now; plays the known 7H
    game.apply("attack 7H")
    assert game.view(0)["known_cards"][1] == []


def _hand_ends(game):
    return [e for e in game.events(None) if e["kind"] == "hand_end"]


def test_du_12_1_a_match_of_several_hands():
    game = playout(new_game("durak", players=3, seed=5, hands=3), 1)
    ends = _hand_ends(game)
    assert [e["hand"] for e in ends] == [1, 2, 3]
    assert len([e for e in game.events(None) if e["kind"] == "deal"]) == 3
    assert game.view(0)["hand_number"] == 3 and game.view(0)["hands"] == 3
    assert game.max_game_length == 3 * new_game("durak", players=3).max_game_length
    end = [e for e in game.events(None) if e["kind"] == "match_end"][0]
    assert end["reason_code"] == "hands" and end["rule"] == "DU-12.1"
    # one hand is the default: the match ends with it, as before
    one = playout(new_game("durak", players=3, seed=5), 1)
    assert len(_hand_ends(one)) == 1 and one.view(0)["hands"] == 1
    for bad in (0, 101, "3", 2.5, True):
        with pytest.raises(ConfigError, match="DU-12.1"):
            new_game("durak", players=3, hands=bad)


def test_du_12_1_a_stacked_deck_deals_the_first_hand_only():
    deck = stacked_deck(2, TWO, trump="10S", dealer=1)
    game = new_game("durak", players=2, seed=0, deck=deck, dealer=1, hands=2)
    assert set(game.view(0)["hand"]) == set(H0)
    while game.view(0)["hand_number"] == 1:
        moves = legal(game)
        game.apply("take" if "take" in moves else moves[0])
    assert game.view(0)["hand_number"] == 2 and not game.is_over
    assert game.view(0)["stock_size"] == 24              # a fresh deal of the whole pack
    assert sorted(game.all_cards()) == sorted(durak_deck())


def test_du_12_2_the_fool_deals_the_next_hand():
    checked = 0
    for seed in range(6):
        game = playout(new_game("durak", players=4, seed=seed, hands=4), seed)
        deals = [e for e in game.events(None) if e["kind"] == "deal"]
        for end, deal in zip(_hand_ends(game), deals[1:]):
            if end["reason_code"] == "durak":
                assert deal["dealer"] == end["reason_seat"]
                checked += 1
    assert checked >= 10


def test_du_12_2_after_a_draw_the_same_dealer_deals_again():
    for seed in range(400):
        game = playout(new_game("durak", players=2, seed=seed, hands=2), seed)
        ends = _hand_ends(game)
        if ends[0]["reason_code"] != "durak":
            deals = [e for e in game.events(None) if e["kind"] == "deal"]
            assert deals[1]["dealer"] == deals[0]["dealer"]
            assert ends[0]["scores"] == [0, 0]
            return
    raise AssertionError("no drawn first hand in 400 matches")


def test_du_12_2_partners_the_last_holder_deals():
    for seed in range(20):
        game = playout(new_game("durak", players=4, seed=seed, partners=True, hands=2), seed)
        first = _hand_ends(game)[0]
        if first["reason_code"] == "durak":
            deals = [e for e in game.events(None) if e["kind"] == "deal"]
            assert deals[1]["dealer"] == first["reason_seat"]
            assert first["hands_left"][first["reason_seat"]] > 0
            return
    raise AssertionError("no side lost in 20 matches")


def test_du_12_3_the_fool_s_count():
    game = new_game("durak", players=3, seed=7, hands=3)
    assert game.scores == [0, 0, 0] and game.view(1)["fools"] == [0, 0, 0]
    playout(game, 3)
    ends = _hand_ends(game)
    count = [0, 0, 0]
    for end in ends:
        if end["reason_code"] == "durak":
            count[end["reason_seat"]] += 1
        assert end["scores"] == count                    # running, after each hand
    assert game.scores == count and game.view(2)["fools"] == count
    assert game.returns() == [-float(n) for n in count]
    assert game.winners == [p for p in range(3) if count[p] == min(count)]
    assert game.utility_range == (-3.0, 0.0)
    obs = game.observation_tensor(0)
    at = {name: (start, size) for name, start, size in game.observation_pieces}["scores"]
    assert list(obs[at[0]:at[0] + 3]) == count


# DU-13: seat 0 holds three sevens and the lowest trump (6S; 10S turned up) and leads.
M0 = ["7C", "7D", "7H", "8C", "KD", "6S"]
M1 = ["9C", "9D", "AS", "QH", "JH", "8D"]


def many(players=2, hands=None, **options):
    return du(players, hands or {0: M0, 1: M1}, trump="10S", attack_many=True, **options)


def test_du_13_1_lead_several_cards_of_one_rank():
    game = many()
    moves = legal(game)
    assert {"attack 7C 7D", "attack 7C 7H", "attack 7D 7H", "attack 7C 7D 7H"} <= set(moves)
    assert not [m for m in moves if len(m.split()) > 2 and m.split()[1][:-1] != "7"]
    game.apply("attack 7C 7D 7H")
    v = game.view(0)
    assert v["bout"] == [["7C", None], ["7D", None], ["7H", None]]
    assert game.current_player == 1 and game.phase == "defend"
    end = [e for e in game.events(1) if e["kind"] == "attack"][-1]
    assert end["cards"] == ["7C", "7D", "7H"] and end["throw_in"] is False


def test_du_13_1_off_by_default_one_card_at_a_time():
    game = du(2, {0: M0, 1: M1}, trump="10S")
    assert all(len(m.split()) <= 2 for m in legal(game))
    before = game.to_json()
    with pytest.raises(IllegalActionError):
        game.apply("attack 7C 7D")
    assert game.to_json() == before
    assert game.num_distinct_actions == 158


def test_du_13_1_a_thrower_throws_in_several_of_a_rank_on_the_table():
    hands = {0: ["9H", "KD", "8C", "10C", "6S", "QS"], 1: ["JH", "7D", "QC", "AS", "KH", "8H"],
             2: ["9C", "9D", "AH", "AD", "AC", "JD"]}
    game = many(3, hands, dealer=2)
    game.apply("attack 9H")
    game.apply("beat JH")
    game.apply("pass")                                      # the attacker has no nine
    assert game.current_player == 2
    assert "attack 9C 9D" in legal(game)
    assert not [m for m in legal(game) if m.startswith("attack A")]   # no ace on the table
    game.apply("attack 9C 9D")
    assert game.view(0)["bout"] == [["9H", "JH"], ["9C", None], ["9D", None]]
    assert game.current_player == 1


def test_du_13_1_the_bouts_limits_hold_for_all_the_cards():
    """Against random play, the several-card attacks offered are exactly the held subsets
    (two or more) of a rank allowed (any when leading, the table's when throwing in) that
    fit DU-4.4 to DU-4.6 together; a subset that does not fit is refused naming the rule."""
    checked = refused = 0
    for seed in range(12):
        game = new_game("durak", players=3, seed=seed, attack_many=True,
                        first_bout_five=seed % 2 == 0)
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.current_player
            v = game.view(seat)
            if game.phase in ("attack", "throw_in", "take_throw_in"):
                bout = v["bout"]
                uncovered = sum(1 for _, b in bout if b is None)
                defender_cards = v["hand_sizes"][v["defender"]]
                ranks = {c[:-1] for pair in bout for c in pair if c}
                wanted = set()
                for rank in {c[:-1] for c in v["hand"]}:
                    if game.phase != "attack" and rank not in ranks:
                        continue
                    held = sorted((c for c in v["hand"] if c[:-1] == rank),
                                  key=lambda c: "CSDH".index(c[-1]))
                    for size in range(2, len(held) + 1):
                        for combo in itertools.combinations(held, size):
                            fits = (len(bout) + size <= v["bout_limit"]
                                    and uncovered + size <= defender_cards)
                            label = "attack " + " ".join(combo)
                            if fits:
                                wanted.add(label)
                            elif refused < 40:
                                with pytest.raises(IllegalActionError, match=r"DU-4\.[45]"):
                                    game.apply(label)
                                refused += 1
                offered = {m for m in legal(game) if len(m.split()) > 2}
                assert offered == wanted, (game.to_json(), offered, wanted)
                checked += len(wanted)
            game.apply(rng.choice(game.legal_action_ids()))
    assert checked > 50 and refused > 5


def test_du_13_2_the_defender_beats_them_in_any_order():
    for first, second in (("9C", "AS"), ("AS", "9D")):
        game = many()
        game.apply("attack 7C 7D")
        assert set(legal(game)) == {"beat 9C", "beat AS", "take"}     # 7C first
        game.apply(f"beat {first}")
        game.apply(f"beat {second}")
        assert game.view(0)["bout"] == [["7C", first], ["7D", second]]
        assert game.phase == "throw_in"


def test_du_13_3_after_a_take_several_at_once_and_the_thrower_asked_again():
    game = many()
    game.apply("attack 7C")
    game.apply("take")
    assert game.current_player == 0 and "attack 7D 7H" in legal(game)
    game.apply("attack 7D 7H")
    assert game.current_player == 0 and game.phase == "take_throw_in"
    game.apply("pass")
    assert sorted(game.view(1)["known_cards"][1]) == ["7C", "7D", "7H"]
    assert game.view(1)["hand_sizes"][1] == 9


def test_du_13_1_a_transfer_stays_one_card():
    hands = {0: ["7C", "7H", "KD", "8C", "10C", "6S"], 1: ["7D", "7S", "QC", "AS", "KH", "8H"],
             2: ["9C", "9D", "AH", "AD", "AC", "JD"]}
    game = many(3, hands, dealer=2, transfer=True)
    game.apply("attack 7C 7H")
    transfers = [m for m in legal(game) if m.startswith("transfer")]
    assert sorted(transfers) == ["transfer 7D", "transfer 7S"]
