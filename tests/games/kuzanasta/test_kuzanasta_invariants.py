"""Kuzanasta invariants over random play: card conservation, hand sizes per phase, the God-card
bookkeeping, save/load and clone in every phase, and the core playout matching Python play."""
from __future__ import annotations

import json

import pytest
from kuzanasta_oracle import JOKER, composition

from cardcore._fast import Random
from cardcore.registry import load_game, new_game

HAND_BY_PHASE = {"draw": 7, "god_draw": 7, "discard": 8, "declare": 7}


@pytest.mark.parametrize("players,options", [
    (2, {}), (3, {"reshuffle": True}), (4, {}), (4, {"pile_pairing": "adjacent", "ante": 3}),
    (2, {"max_turns": 25, "deals": 3}), (2, {"going_out": "optional"}),
    (3, {"sets": "three_and_four"}), (2, {"sets": "three_and_four", "going_out": "optional"}),
    (4, {"god_draw": "position"}), (2, {"god_draw": "position", "going_out": "optional"}),
])
def test_invariants_hold_after_every_action(players, options):
    deck = composition()
    for seed in range(6):
        g = new_game("kuzanasta", players=players, seed=seed, **options)
        rng = Random(seed)
        steps = 0
        while not g.is_over and steps < 3000:
            s = g._state
            p = g.current_player
            assert len(s.hand(p)) == HAND_BY_PHASE[g.phase]
            for q in range(players):
                if q != p:
                    assert len(s.hand(q)) == 7
            assert sorted(g.all_cards()) == deck
            holder = s.god_public
            if holder is not None:
                assert JOKER in s.hand(holder)
            assert JOKER not in [c for pile in s.discards() for c in pile[1:]] or \
                JOKER in [pile[0] for pile in s.discards()]       # only as a deal's turn-up
            if options.get("ante"):
                assert sum(s.chips()) + s.pot == 0
            ids = g.legal_action_ids()
            assert ids == sorted(set(ids)) and ids
            g.apply(ids[rng.below(len(ids))])
            steps += 1
        assert sorted(g.all_cards()) == deck


def test_save_load_and_clone_in_every_phase():
    seen = set()
    for seed in range(12):              # the declare step is the going_out="optional" one
        g = new_game("kuzanasta", players=2 + seed % 3, seed=seed, going_out="optional")
        rng = Random(seed)
        for _ in range(600):
            if g.is_over:
                break
            if g.phase not in seen or rng.below(50) == 0:
                seen.add(g.phase)
                copy = load_game(g.to_json())
                twin = g.clone()
                for other in (copy, twin):
                    assert other.view(g.current_player) == g.view(g.current_player)
                    assert other.legal_action_ids() == g.legal_action_ids()
                ids = g.legal_action_ids()
                a = ids[rng.below(len(ids))]
                twin.apply(a)
                assert twin.to_json() != g.to_json()
                g.apply(a)
                copy.apply(a)
                assert copy.to_json() == g.to_json()
                assert json.loads(g.to_json())["actions"][-1] == a
            else:
                ids = g.legal_action_ids()
                g.apply(ids[rng.below(len(ids))])
    assert {"draw", "discard", "declare", "god_draw"} <= seen


@pytest.mark.parametrize("players", [2, 3, 4])
def test_core_playout_equals_python_fast_path(players):
    for seed in range(3):
        a = new_game("kuzanasta", players=players, seed=seed)
        b = new_game("kuzanasta", players=players, seed=seed)
        n = a._state.run_random(seed + 100)
        rng = Random(seed + 100)
        steps = 0
        ids = b.legal_action_ids()
        while ids:
            b.apply(ids[rng.below(len(ids))])
            steps += 1
            ids = b.legal_action_ids()
        assert steps == n
        assert a.scores == b.scores and a.winners == b.winners
        assert a._state.rng_state == b._state.rng_state
