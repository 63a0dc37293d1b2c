"""Kuzanasta events: what each seat saw happen."""
from __future__ import annotations

import random

import pytest

from cardcore import new_game

from event_pairs import check_event_pairs
from invariants import played, random_steps


def test_kz_draws_name_the_card_for_the_drawer_only():
    game = new_game("kuzanasta", seed=4, players=3)
    rng = random.Random(4)
    for _ in random_steps(game, rng):
        if game.view(0)["deal"] > 1:
            break
    for e in game.events(1):
        if e["kind"] == "draw_stock" and e["player"] == 1 and e["cards"]:
            assert len(e["cards"]) == 1
        elif e["kind"] == "draw_stock":
            assert e["cards"] == [] and e["hidden"] == 1 or e["player"] == 1
        if e["kind"] == "god_draw" and e["player"] != 1:
            assert e["action"] == "god_draw" and e["id"] is None and e["cards"] == []
        if e["kind"] == "draw_discard":
            assert len(e["cards"]) == 1


def test_kz_7_4_breakdown_totals_are_the_scores():
    for seed in range(4):
        for kwargs in ({"players": 2, "max_turns": 60}, {"ante": 3}):
            game = played(("kuzanasta", kwargs), seed, limit=20000)
            assert game.is_over
            summed = [0] * game.num_players
            for e in game.events(None):
                if e["kind"] == "deal_end":
                    summed = [x + y for x, y in zip(summed, e["breakdown"]["totals"])]
            assert summed == game.scores


@pytest.mark.slow
@pytest.mark.parametrize("kwargs", [{"players": 2, "max_turns": 30, "deals": 5},
                                    {"players": 4, "max_turns": 24, "deals": 5, "ante": 1}])
def test_kz_8_stacked_deck_pairs_show_events_reveal_no_more_than_the_view(kwargs):
    # Going out shows a hand: those moves are played last.
    go_out = {i for i, s in enumerate(new_game("kuzanasta", **kwargs)._specs)
              if s.kind == "go_out"}
    check_event_pairs("kuzanasta", kwargs, 500, loud=go_out)


@pytest.mark.parametrize("players", [2, 4])
def test_kz_2_6_kz_2_7_texts_count_the_piles_from_1_as_the_table_does(players):
    """The events and the rulebook number the piles 0 and 1; a player reads them from 1, as
    the terminal's table lines do (KZ-2.7: each pile in play starts its discard pile; KZ-2.6:
    with 2-3 players the rulebook's pile 1, the second, is set aside)."""
    game = new_game("kuzanasta", seed=3, players=players)
    events = game.events(None, lang="en")
    starts = [e["text"] for e in events if e["kind"] == "pile_start"]
    if players == 4:
        assert [t.split(" starts")[0] for t in starts] == ["Discard pile 1", "Discard pile 2"]
    else:
        assert [t.split(" starts")[0] for t in starts] == ["Discard pile 1"]
        aside = [e["text"] for e in events if e["kind"] == "set_aside"]
        assert len(aside) == 1 and aside[0].startswith("Stock pile 2 is set aside unseen")
        russian = [e["text"] for e in game.events(None, lang="ru") if e["kind"] == "set_aside"]
        assert russian[0].startswith("Колода 2 отложена")
    table = "\n".join(game.table_lines(0))
    assert "Pile 1 (" in table and ("Pile 2 (" in table) == (players == 4)
