"""Kings' Stakes events: what each seat saw happen."""
from __future__ import annotations

import random

import pytest

from cardcore import new_game

from event_pairs import check_event_pairs
from invariants import played, random_steps


def test_ks_5_3_king_clearing_the_table_is_an_event():
    game = new_game("kings_stakes", seed=0)
    rng = random.Random(0)
    for _ in random_steps(game, rng):
        if any(e["kind"] == "table_cleared" for e in game.events(None)):
            break
    cleared = [e for e in game.events(None) if e["kind"] == "table_cleared"][0]
    before = game.events(None)[cleared["n"] - 1]
    assert before["kind"] == "play" and before["cards"][-1].startswith("K")
    assert cleared["rule"] == "KS-5.3" and before["cards"][-1] in cleared["cards"]


def test_ks_9_breakdown_totals_are_the_player_totals():
    for seed in range(4):
        for kwargs in ({}, {"refill": "manual", "players": 3}, {"scoring": "cards", "players": 5},
                       {"teams": True}):
            game = played(("kings_stakes", kwargs), seed, limit=20000)
            assert game.is_over
            summed = [0] * game.num_players
            teams = [0, 0]
            for e in game.events(None):
                if e["kind"] == "round_end":
                    summed = [x + y for x, y in zip(summed, e["round_points"])]
                    b = e["breakdown"]
                    assert b["by"] == ("team" if kwargs.get("teams") else "seat")
                    if kwargs.get("teams"):       # KS-9.5: the breakdown is by team
                        teams = [x + y for x, y in zip(teams, b["totals"])]
                    else:
                        assert b["totals"] == e["round_points"]
            assert summed == game._state.player_totals()
            if kwargs.get("teams"):
                totals = game._state.player_totals()
                assert teams == [totals[0] + totals[2], totals[1] + totals[3]]


@pytest.mark.slow
@pytest.mark.parametrize("kwargs", [{"players": 4, "rounds": 8},
                                    {"players": 3, "refill": "manual", "rounds": 6}])
def test_ks_3_1_stacked_deck_pairs_show_events_reveal_no_more_than_the_view(kwargs):
    check_event_pairs("kings_stakes", kwargs, 600)
