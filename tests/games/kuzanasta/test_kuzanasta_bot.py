"""GreedyBot on Kuzanasta: legal choices in every phase, and it beats RandomBot clearly."""
from __future__ import annotations

from kz_helpers import greedy_reference

from cardcore.bots import GreedyBot, RandomBot
from cardcore.cards import card_id
from cardcore.registry import new_game


def test_greedy_choices_are_legal_in_every_phase():
    phases = set()
    for seed in range(30):
        g = new_game("kuzanasta", players=2 + seed % 3, seed=seed, going_out="optional")
        bot = GreedyBot(seed)
        for _ in range(400):
            if g.is_over:
                break
            phases.add(g.phase)
            a = bot.choose_id(g)
            assert a in g.legal_action_ids()
            g.apply(a)
    assert {"draw", "discard", "declare", "god_draw"} <= phases


def test_greedy_keeps_wild_cards_and_pairs():
    """The hand evaluation (the 0.2-0.3 heuristic's, which the in-core policy plays: see
    test_kuzanasta_greedy_policy.py)."""
    evaluate = greedy_reference.evaluate
    wild = 4                                             # fives are wild
    hand = [card_id(c) for c in ("5H", "7C", "7S", "QC", "2D", "9H", "KS")]
    with_wild = evaluate(hand, wild)
    without = evaluate([c for c in hand if c != card_id("5H")], wild)
    lose_pair = evaluate([c for c in hand if c != card_id("7C")], wild)
    lose_single = evaluate([c for c in hand if c != card_id("9H")], wild)
    assert with_wild > without and lose_single > lose_pair


def _greedy_rate(games: int, players: int, **options) -> float:
    wins = 0.0
    for seed in range(games):
        g = new_game("kuzanasta", players=players, seed=seed, **options)
        seat = seed % players                        # the greedy seat rotates
        bots = [RandomBot(seed * 10 + p) for p in range(players)]
        bots[seat] = GreedyBot(seed)
        while not g.is_over:
            g.apply(bots[g.current_player].choose_id(g))
        if seat in g.winners:
            wins += 1 / len(g.winners)
    return wins / games


def test_greedy_beats_random_clearly():
    assert _greedy_rate(200, 4) > 0.9                    # fair share 0.25
    assert _greedy_rate(300, 4, deals=1) > 0.6           # a single deal
    assert _greedy_rate(100, 2) > 0.9                    # fair share 0.5
