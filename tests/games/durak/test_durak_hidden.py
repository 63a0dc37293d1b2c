"""Durak's hidden information: sample_hidden redeals only what a seat cannot see and keeps
what everybody knows (the face-up trump card, cards taken from the table, DU-11.2); views,
tensors and events never show another seat's hidden cards."""
from __future__ import annotations

import random
from collections import Counter

from cardcore import new_game
from cardcore.cards import card_str

from du_helpers import playout


def positions(players: int, seeds: range, **options):
    for seed in seeds:
        game = new_game("durak", players=players, seed=seed, **options)
        rng = random.Random(seed)
        while not game.is_over:
            yield game
            game.apply(rng.choice(game.legal_action_ids()))


def test_sample_hidden_keeps_what_the_seat_knows():
    checked = known_kept = 0
    for game in positions(3, range(6), transfer=True):
        seat = game.current_player
        world = game.sample_hidden(seat, seed=checked)
        v, w = game.view(seat), world.view(seat)
        assert {k: v[k] for k in v if k != "zones"} == {k: w[k] for k in w if k != "zones"}
        assert v["zones"] == w["zones"]
        assert Counter(world.all_cards()) == Counter(game.all_cards())
        a, b = game._state, world._state
        assert b.stock()[-1:] == a.stock()[-1:]                 # the face-up trump card
        for p in range(3):
            assert set(a.known(p)) <= set(b.hand(p))
            known_kept += len(a.known(p))
        checked += 1
        if checked >= 400:
            break
    assert checked == 400 and known_kept > 0


def test_sample_hidden_varies_the_hidden_cards():
    game = new_game("durak", players=2, seed=3)
    worlds = {tuple(game.sample_hidden(0, seed=s)._state.hand(1)) for s in range(10)}
    assert len(worlds) > 1


def test_views_never_show_another_seats_unknown_cards():
    game = new_game("durak", players=4, seed=8, partners=True)
    rng = random.Random(8)
    while not game.is_over:
        for seat in range(4):
            v = game.view(seat)
            for p in range(4):
                zone = v["zones"][f"hand:{p}"]
                if p != seat:
                    assert zone == {"count": game._state.hand_sizes()[p]}
                    assert set(v["known_cards"][p]) <= {card_str(c) for c in game._state.hand(p)}
        game.apply(rng.choice(game.legal_action_ids()))


def test_a_seat_sees_its_own_draws_only():
    """... but the face-up trump card, drawn last in everybody's sight (DU-7.3)."""
    game = playout(new_game("durak", players=3, seed=4), 4)
    trump = game.view(0)["trump_card"]
    for seat in range(3):
        for e in game.events(seat):
            if e["kind"] == "draw" and e["player"] != seat and e["rule"] == "DU-7.3":
                assert e["cards"] == [trump]
            elif e["kind"] == "draw" and e["player"] != seat:
                assert e["cards"] == [] and e["hidden"] > 0
