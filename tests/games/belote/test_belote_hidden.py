"""sample_hidden (games/belote.md "Hidden cards"): the other hands are dealt back in their
sizes; a belote said pins the other card."""
from __future__ import annotations

from cardcore.cards import card_id

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
