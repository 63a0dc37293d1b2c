"""GreedyBot for Manna: legal, sensible, and clearly better than RandomBot."""
from __future__ import annotations

import pytest

from cardcore import new_game
from cardcore.bots import GreedyBot, RandomBot
from cardcore.games.manna import Manna

ONE_HAND = 1                        # hands: each match is one hand (MH-10.7)


def play_hand(seed: int, greedy_seats: set[int]):
    g = new_game("manna", seed=seed, hands=ONE_HAND)
    bots = [GreedyBot(seed * 7 + i) if i in greedy_seats else RandomBot(seed * 7 + i)
            for i in range(6)]
    while not g.is_over:
        g.apply(bots[g.current_player].choose_id(g))
    return g


def test_greedy_seat_beats_random_over_500_hands():
    wins = 0
    for seed in range(500):
        seat = seed % 6                         # the greedy seat rotates
        wins += seat in play_hand(seed, {seat}).winners
    assert wins / 500 >= 0.7                    # the fair share is 0.5


def test_greedy_team_goes_out_in_a_measurable_share_of_hands():
    out = wins = 0
    for seed in range(200):
        team = seed % 2
        g = play_hand(10_000 + seed, {team, team + 2, team + 4})
        wins += team in g.winners
        last = g._state.last_out
        out += last is not None and last % 2 == team
    assert wins >= 190 and out >= 6


def test_greedy_choices_are_legal_and_reproducible():
    a = new_game("manna", seed=3)
    b = new_game("manna", seed=3)
    ba, bb = GreedyBot(1), GreedyBot(1)
    for _ in range(300):
        x, y = ba.choose_id(a), bb.choose_id(b)
        assert x == y and x in a.legal_action_ids()
        a.apply(x)
        b.apply(y)


@pytest.mark.parametrize("config", Manna.conformance_configs,
                         ids=lambda c: "-".join(f"{k}={v}" for k, v in sorted(c.items())))
def test_greedy_plays_every_manna_option_value(config):
    """Every value of every option (the conformance configurations cover them: wild_sevens,
    mixed_sevens, foot_penalty) is played to the end by greedy bots, legally."""
    assert {Manna.options_spec["foot_penalty"].default, "cards"} <= {
        c.get("foot_penalty", "red_threes") for c in Manna.conformance_configs}
    for seed in range(2):
        g = new_game("manna", seed=seed, **{**config, "hands": ONE_HAND})
        bots = [GreedyBot(seed * 7 + i) for i in range(6)]
        while not g.is_over:
            choice = bots[g.current_player].choose_id(g)
            assert choice in g.legal_action_ids()
            g.apply(choice)
        assert g.winners
