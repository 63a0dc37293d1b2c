"""sample_hidden (games/belote.md "Hidden cards"): the other hands are dealt back in their
sizes; a belote said pins the other card; the worlds keep what the plays showed a seat did not
hold."""
from __future__ import annotations

from cardcore.cards import card_id, card_str as card_str_of

from be_helpers import deal, run, to_play
from test_belote_rules import A


def test_sample_hidden_keeps_the_seats_hand_and_the_sizes():
    game = deal(A, dealer=3)
    to_play(game, "bid 80H")
    run(game, "play AS", "play 7S")
    seen = set()
    for k in range(20):
        world = game.sample_hidden(2, seed=k)
        s = world._state
        assert s.hand(2) == game._state.hand(2)
        assert s.hand_sizes() == game._state.hand_sizes()
        assert sorted(s.all_cards()) == sorted(game._state.all_cards())
        seen.add(tuple(s.hand(0)))
    assert len(seen) > 1


def test_sample_hidden_keeps_the_card_a_belote_reveals():
    game = deal(A, dealer=3)
    to_play(game, "bid 80H")
    run(game, "play AS", "play 7S", "play 7D", "play KH")      # seat 3: «Belote!»
    for k in range(20):
        world = game.sample_hidden(0, seed=k)
        assert card_id("QH") in world._state.hand(3)
        assert world._state.belote_seat == 3


def _suits(cards) -> set[str]:
    return {card_str_of(c)[-1] for c in cards}


def test_be_5_2_worlds_keep_the_suit_a_seat_did_not_follow():
    game = deal(A, dealer=3)
    to_play(game, "bid 80H")
    run(game, "play AS", "play 7S", "play 7D", "play KH")   # seats 2 and 3 show no spade
    spades = {c for c in game._state.hand(0) if card_str_of(c).endswith("S")}
    hands = set()
    for k in range(30):
        world = game.sample_hidden(1, seed=k)._state
        assert "S" not in _suits(world.hand(2)) and "S" not in _suits(world.hand(3))
        assert spades <= set(world.hand(0))                    # so every spade is seat 0's
        assert world.hand_sizes() == game._state.hand_sizes()
        hands.add(tuple(world.hand(2)))
    assert len(hands) > 1                                      # still a redeal


# Seat 1 holds neither diamonds nor trumps (hearts).
NO_TRUMP = {0: ["AD", "KD", "QD", "JD", "AS", "KS", "QS", "JS"],
            1: ["7S", "8S", "9S", "10S", "7C", "8C", "9C", "10C"],
            2: ["7H", "8H", "9H", "10H", "7D", "8D", "9D", "10D"],
            3: ["JH", "QH", "KH", "AH", "JC", "QC", "KC", "AC"]}


def test_be_5_4_worlds_keep_the_trumps_a_seat_could_not_play():
    game = deal(NO_TRUMP, dealer=3)
    to_play(game, "bid 80H")
    run(game, "play AD")
    before = set()
    for k in range(30):
        before |= _suits(game.sample_hidden(0, seed=k)._state.hand(1))
    assert {"H", "D"} <= before                 # nothing shown yet
    run(game, "play 7C")       # the other team's trick, no trump on it: no trump held
    for k in range(30):
        world = game.sample_hidden(0, seed=k)._state
        assert _suits(world.hand(1)) <= {"S", "C"}


def test_be_5_3_a_discard_on_the_partners_trick_shows_only_the_suit_led():
    game = deal(A, dealer=3)
    to_play(game, "bid 80H")
    run(game, "play AS", "play 7S", "play 7D")      # seat 2 discards on its partner's trick
    suits = set()
    for k in range(40):
        suits |= _suits(game.sample_hidden(1, seed=k)._state.hand(2))
    assert "S" not in suits and "H" in suits        # it may still hold trumps


# Seat 1 trumps with the top trump; seat 2 (no diamond, no trump) then discards.
UNDER = {0: ["AD", "KD", "QD", "JD", "10D", "9D", "8D", "7D"],
         1: ["JH", "7S", "8S", "9S", "10S", "JS", "QS", "KS"],
         2: ["AS", "7C", "8C", "9C", "10C", "JC", "QC", "KC"],
         3: ["AC", "7H", "8H", "9H", "10H", "QH", "KH", "AH"]}


def test_be_5_6_a_discard_shows_no_trump_only_where_undertrumping_is_required():
    for undertrump, trumps_possible in (("free", True), ("required", False)):
        game = deal(UNDER, dealer=3, undertrump=undertrump)
        to_play(game, "bid 80H")
        run(game, "play AD", "play JH", "play 7C")
        suits = set()
        for k in range(40):
            suits |= _suits(game.sample_hidden(0, seed=k)._state.hand(2))
        assert "D" not in suits and ("H" in suits) == trumps_possible
