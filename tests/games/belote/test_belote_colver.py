"""Belote Contrée against colver 0.11.1 (the engine whose default rules games/belote.md
states), move by move through colver's Python API.

Each deal is a seeded shuffle of colver's 32 card indices dealt 8 a seat, with a seeded
dealer: colver gets it as ``Env.deal_with_hands(dealer, hands)``, cardcore as the stacked deck
that deals the same hands (``deck_for_hands``, BE-2.2) with ``dealer=``. At every step the
seat to move, the phase and the set of legal ids are compared (colver's bidding id ``b`` is
cardcore's ``32 + b``, a card's id is colver's index in both), one legal id is chosen at
random and applied to both; after every trick the teams' card points and tricks
(``get_points``, ``get_tricks_won``), after the auction the contract (``get_contract``), and at
the end colver's exact ``rewards()`` against each team's return.

What cannot be compared, and why: how colver deals (``Env.deal(seed=)``: its shuffle and its
packets are its own generator's; the hands themselves are compared through
``deal_with_hands``), the observation tensors (colver's 415 floats are its own encoding, and
cardcore's are documented in the rulebook) and colver's bots. The ``surcontre="x4"`` option
is beyond colver (colver's surcontre is x3 only); its arithmetic has rule tests.
"""
from __future__ import annotations

import random

import pytest

from cardcore import new_game
from cardcore.cards import card_str
from cardcore.games.belote._state import PASS, deck_for_hands, to_card_id

colver = pytest.importorskip("colver")   # the test extra pins colver==0.11.1 (pyproject.toml)


def test_colver_is_the_pinned_version():
    assert colver.__version__ == "0.11.1"


def play_both(seed: int, pass_bias: float) -> int:
    """One deal on both engines; the number of steps compared. ``pass_bias``: how often a
    seat passes where it may, so that auctions of every length are played."""
    rng = random.Random(seed)
    cards = list(range(32))
    rng.shuffle(cards)
    hands = [sorted(cards[8 * k:8 * k + 8]) for k in range(4)]
    dealer = rng.randrange(4)
    env = colver.Env.deal_with_hands(dealer, hands)
    deck = deck_for_hands(dealer, [[to_card_id(c) for c in h] for h in hands])
    game = new_game("belote", players=4, seed=seed, deck=[card_str(c) for c in deck],
                    dealer=dealer)
    s = game._state
    assert [sorted(s.hand(p)) for p in range(4)] == [
        sorted(to_card_id(c) for c in h) for h in hands]
    steps = 0
    while not env.is_terminal():
        phase = env.phase()
        assert not game.is_over
        assert game.current_player == env.current_player(), (seed, steps)
        ours = list(s.legal_ids())
        theirs = sorted(a + PASS if phase == 0 else a for a in env.legal_actions())
        assert ours == theirs, (seed, steps)
        if phase == 0 and PASS in ours and rng.random() < pass_bias:
            action = PASS
        else:
            action = rng.choice(ours)
        tricks = s.tricks_done
        env.step(action - PASS if phase == 0 else action)
        game.apply(action)
        steps += 1
        if phase == 0 and env.phase() == 1:
            contract = env.get_contract()
            assert (s.contract_value, "SHDC".index(s.contract_suit), s.taker % 2, s.contre) == (
                contract["value"], contract["trump"], contract["team"], contract["coinche"])
        if s.tricks_done > tricks and not game.is_over:
            assert s.points() == list(env.get_points()), (seed, steps)
            assert s.tricks_won() == list(env.get_tricks_won()), (seed, steps)
    assert game.is_over
    rewards = env.rewards()
    assert game.returns() == [rewards[p % 2] for p in range(4)], seed
    return steps


@pytest.mark.parametrize("pass_bias", [0.0, 0.5, 0.8])
def test_be_colver_deals_match_move_by_move(pass_bias):
    """200 seeded deals per bias (600 in all): 0 differences."""
    steps = sum(play_both(seed, pass_bias) for seed in range(200))
    assert steps >= 200 * 4          # a passed-out deal is 4 passes


@pytest.mark.slow
@pytest.mark.parametrize("pass_bias", [0.0, 0.3, 0.6, 0.9])
def test_be_colver_deals_match_move_by_move_many(pass_bias):
    """2,000 more seeded deals per bias."""
    for seed in range(1000, 3000):
        play_both(seed, pass_bias)
