"""Sampled worlds hide the real game (issue 20; docs/api.md "Numbers for learning and search").

``game.sample_hidden(seat, seed)`` is what a search plays in: nothing in it (seed, options,
deck, action log, events, history, save) may rebuild the real game's hidden cards.
"""
from __future__ import annotations

import copy
import json
import pickle
import random

import numpy as np
import pytest

from cardcore import new_game

from invariants import all_configs, config_id, random_steps


def played(config, seed: int, steps: int):
    name, kwargs = config
    game = new_game(name, seed=seed, **kwargs)
    for _ in zip(range(steps), random_steps(game, random.Random(seed))):
        pass
    return game


def hidden_truth(game, seat: int) -> str:
    """Everything ``seat`` cannot see: the other seats' views (their hands) and the cards
    of every zone (all_cards is sorted, so the views carry the placement)."""
    return json.dumps([game.view(p) for p in range(game.num_players) if p != seat],
                      sort_keys=True)


@pytest.mark.parametrize("config", all_configs(), ids=config_id)
def test_the_world_cannot_rebuild_the_real_game(config):
    """The probe's attack: ``new_game(w.name, players=..., seed=w.seed, **w.options)`` plus
    ``w.action_log()`` rebuilt the real hands in 41 of 41 worlds. Now the seed is fresh,
    there is no stacked deck and the log starts at the sampling point."""
    name, _ = config
    for seed in range(6):
        game = played(config, seed, 12 + 7 * seed)
        if game.is_over:
            continue
        seat = seed % game.num_players
        truth = hidden_truth(game, seat)
        world = game.sample_hidden(seat, 1000 + seed)
        assert world.seed != game.seed
        assert world._deck_input is None and world.action_log() == []
        rebuilt = new_game(world.name, players=world.num_players, seed=world.seed,
                           **world.options)
        for action in world.action_log():
            rebuilt.apply(action)
        assert hidden_truth(rebuilt, seat) != truth
        assert rebuilt.to_json() != game.to_json()
        # The seat's own view is kept; the sampling seed alone decides the world's seed.
        assert world.view(seat) == game.view(seat)
        again = game.sample_hidden(seat, 1000 + seed)
        assert again.seed == world.seed and again.view(0) == world.view(0)


def test_a_stacked_deck_does_not_reach_the_world():
    from cardcore.cards import card_str
    game = new_game("kings_stakes", players=3, seed=4)
    composition = game.deck_for(3, game.options)
    order = random.Random(2).sample(composition, len(composition))
    stacked = new_game("kings_stakes", players=3, seed=4, deck=[card_str(c) for c in order])
    world = stacked.sample_hidden(0, 7)
    assert world._deck_input is None and stacked._deck_input is not None
    assert world.seed != stacked.seed


@pytest.mark.parametrize("config", all_configs(), ids=config_id)
def test_a_world_has_its_own_history_from_the_sampling_point(config):
    game = played(config, 6, 15)
    seat = 1 % game.num_players
    world = game.sample_hidden(seat, 3)
    assert world.events() == [] and world.events(seat) == [] and world.history == []
    assert world.events(0, since=5) == []
    steps = list(zip(range(8), random_steps(world, random.Random(1))))
    played_ids = [a for _, a in steps]
    assert world.action_log() == played_ids and world.action_log(2) == played_ids[2:]
    for who in [None, *range(world.num_players)]:
        events = world.events(who)
        assert [e["n"] for e in events] == list(range(len(events)))
        moves = [e for e in events if not e.get("auto")]          # one event per move
        assert len(moves) == len(played_ids)
        assert all(e["id"] in (None, a) for e, a in zip(moves, played_ids))
        assert world.events(who, since=3) == events[3:]
    moves = [e for e in world.history if e["event"] == "action"]
    assert [e["id"] for e in moves] == played_ids
    # The real game is untouched, and its events are where the past is told.
    assert game.action_log() == played(config, 6, 15).action_log()
    assert game.events(seat)


@pytest.mark.parametrize("config", all_configs()[:1] + all_configs()[-1:], ids=config_id)
def test_a_world_cannot_be_saved_or_pickled_but_copies(config):
    game = played(config, 2, 9)
    world = game.sample_hidden(0, 5)
    with pytest.raises(ValueError, match="cannot be saved"):
        world.to_json()
    with pytest.raises(ValueError, match="cannot be saved"):
        world.to_json(key=b"k")
    with pytest.raises(ValueError, match="cannot be saved"):
        pickle.dumps(world)
    for twin in (world.clone(), copy.copy(world), copy.deepcopy(world)):
        assert twin.seed == world.seed and twin.view(0) == world.view(0)
        assert np.array_equal(twin.observation_tensor(0), world.observation_tensor(0))
        next(random_steps(twin, random.Random(3)))
        assert world.action_log() == [] and twin.action_log() != []


def test_worlds_of_a_world_are_worlds_too():
    game = played(all_configs()[0], 3, 10)
    world = game.sample_hidden(0, 1)
    next(random_steps(world, random.Random(2)))
    inner = world.sample_hidden(0, 2)
    assert inner.action_log() == [] and inner.events() == [] and inner.seed != world.seed
    for _ in random_steps(inner, random.Random(4)):
        pass
    assert inner.is_over and len(inner.events()) > 0
