"""Numbers for learning and search (api.md "Additions in 0.2"), for every registered game:
observation tensors, returns, utility bounds, game-length bounds and sample_hidden.
A game added to the registry gets all of these for free; each game adds an independent
encoder of its view and a uniformity test of its own."""
from __future__ import annotations

import collections

import json
import random

import numpy as np
import pytest

from cardcore import new_game
from cardcore.cards import card_str

from invariants import all_configs, composition, config_id, random_steps

CONFIGS = all_configs()
pytestmark = pytest.mark.parametrize("config", CONFIGS, ids=[config_id(c) for c in CONFIGS])


def make(config, seed=0, **extra):
    name, kwargs = config
    return new_game(name, seed=seed, **kwargs, **extra)


def public_view(game, seat):
    """The view without the list of legal moves (the tensor leaves those to the mask)."""
    view = game.view(seat)
    view.pop("legal_actions")
    return view


def test_observation_pieces_tile_the_tensor(config):
    game = make(config)
    pieces = game.observation_pieces
    names = [name for name, _, _ in pieces]
    assert len(names) == len(set(names)), "piece names are unique"
    offset = 0
    for _, start, size in pieces:
        assert start == offset and size > 0
        offset += size
    assert (offset,) == game.observation_shape
    tensor = game.observation_tensor(0)
    assert tensor.dtype == np.float32 and tensor.shape == game.observation_shape


def test_observation_tensor_writes_into_out_and_checks_it(config):
    game = make(config, 3)
    out = np.full(game.observation_shape, 7.0, dtype=np.float32)
    assert game.observation_tensor(1, out) is out
    assert np.array_equal(out, game.observation_tensor(1))
    with pytest.raises(ValueError):
        game.observation_tensor(0, np.zeros(game.observation_shape, dtype=np.float64))
    with pytest.raises(ValueError):
        game.observation_tensor(0, np.zeros(game.observation_shape[0] + 1, dtype=np.float32))
    for seat in (-1, game.num_players, True, 1.0, "0"):
        with pytest.raises(ValueError):
            game.observation_tensor(seat)


def test_tensor_is_the_same_whenever_the_seat_sees_the_same(config):
    """Two stacked decks that differ only in cards hidden from a seat, played with the same
    actions: as long as the seat's view is the same, so is its tensor (nothing leaks)."""
    name, kwargs = config
    probe = make(config, 11)
    deck = [card_str(c) for c in random.Random(11).sample(composition(probe), len(composition(probe)))]
    compared = 0
    for seat in range(probe.num_players):
        game = new_game(name, seed=11, deck=deck, **kwargs)
        hidden = game.hidden_deck_positions(seat)
        rng = random.Random(seat)
        i, j = rng.sample(hidden, 2)
        while deck[i] == deck[j]:
            i, j = rng.sample(hidden, 2)
        swapped = list(deck)
        swapped[i], swapped[j] = swapped[j], swapped[i]
        other = new_game(name, seed=11, deck=swapped, **kwargs)
        chooser = random.Random(100 + seat)
        for _ in range(400):
            same_view = public_view(game, seat) == public_view(other, seat)
            if same_view:
                assert np.array_equal(game.observation_tensor(seat), other.observation_tensor(seat))
                compared += 1
            if game.is_over or other.is_over:
                break
            ids = list(game.legal_action_ids())
            action = ids[chooser.randrange(len(ids))]
            if action not in other.legal_action_ids():
                break
            game.apply(action)
            other.apply(action)
    assert compared > probe.num_players


def test_tensor_changes_when_a_visible_card_changes(config):
    name, kwargs = config
    probe = make(config, 12)
    deck = [card_str(c) for c in random.Random(12).sample(composition(probe), len(composition(probe)))]
    game = new_game(name, seed=12, deck=deck, **kwargs)
    seat = 0
    hidden = game.hidden_deck_positions(seat)
    seen = [k for k in range(len(deck)) if k not in hidden]
    mine = next(k for k in seen if any(deck[h] != deck[k] for h in hidden))
    other_pos = next(h for h in hidden if deck[h] != deck[mine])
    swapped = list(deck)
    swapped[mine], swapped[other_pos] = swapped[other_pos], swapped[mine]
    other = new_game(name, seed=12, deck=swapped, **kwargs)
    assert public_view(game, seat) != public_view(other, seat)
    assert not np.array_equal(game.observation_tensor(seat), other.observation_tensor(seat))


def test_returns_are_zero_before_the_end_and_bounded_at_the_end(config):
    low, high = make(config).utility_range
    assert low < high
    for seed in range(6):
        game = make(config, seed)
        length = game.max_game_length
        steps = 0
        for _ in random_steps(game, random.Random(seed)):
            steps += 1
            if not game.is_over:
                assert game.returns() == [0.0] * game.num_players
        returns = game.returns()
        assert steps <= length
        assert all(low <= r <= high for r in returns), (returns, (low, high))
        best = max(returns)
        assert game.winners == [p for p, r in enumerate(returns) if r == best]


def assert_world_follows_the_zones(game, world, seat):
    """The kernel's zone table is what the seat knows: a sampled world keeps every zone the
    seat sees (in order), every zone's size, and the cards every seat knows lie in a hidden
    zone; it may change only the rest."""
    real, other = game._state, world._state
    assert real.zones() == other.zones()
    for name, scope, instances, sight in real.zones():
        for i in range(instances):
            mine, theirs = real.zone_cards(name, i), other.zone_cards(name, i)
            assert len(mine) == len(theirs), (name, i)
            if real.zone_sees(name, i, seat):
                assert mine == theirs, (name, i)
            known = collections.Counter(real.known_in_zone(name, i))
            assert known <= collections.Counter(theirs), (name, i)
            assert known == collections.Counter(other.known_in_zone(name, i)), (name, i)


def test_sample_hidden_keeps_the_seats_view_and_every_card(config):
    for seed in range(4):
        game = make(config, seed)
        rng = random.Random(seed)
        for step, _ in enumerate(random_steps(game, rng)):
            if step % 7 or game.is_over:
                continue
            seat = rng.randrange(game.num_players)
            world = game.sample_hidden(seat, seed * 1000 + step)
            assert world.view(seat) == game.view(seat)
            assert np.array_equal(world.observation_tensor(seat), game.observation_tensor(seat))
            assert world.all_cards() == game.all_cards() == composition(game)
            assert_world_follows_the_zones(game, world, seat)
            assert list(world.legal_action_ids()) == list(game.legal_action_ids()) \
                or world.current_player != seat
            # The sampled world plays on to the end under the rules.
            for _ in random_steps(world, random.Random(step)):
                pass
            assert world.is_over
            if step > 60:
                break


def test_sample_hidden_is_reproducible_and_leaves_the_game_alone(config):
    game = make(config, 5)
    for _ in zip(range(9), random_steps(game, random.Random(5))):
        pass
    before = game.to_json()
    a, b = game.sample_hidden(0, 42), game.sample_hidden(0, 42)
    assert json.dumps([a.view(p) for p in range(a.num_players)]) == \
        json.dumps([b.view(p) for p in range(b.num_players)])
    assert game.to_json() == before
    with pytest.raises(ValueError, match="cannot be saved"):
        a.to_json()
    for bad in (-1, game.num_players, None):
        with pytest.raises(ValueError):
            game.sample_hidden(bad, 1)
    with pytest.raises(ValueError):
        game.sample_hidden(0, -5)


def test_state_snapshot_is_a_copy(config):
    game = make(config, 8)
    snapshot = game.state
    ids = list(snapshot.legal_ids())
    snapshot.apply(ids[0])
    assert list(game.legal_action_ids()) == ids


def test_sample_hidden_depends_only_on_what_the_seat_knows(config):
    """Two games that differ only in cards hidden from a seat give that seat the same sampled
    worlds for the same seed (so a search over them cannot read the hidden cards)."""
    name, kwargs = config
    probe = make(config, 13)
    deck = [card_str(c) for c in random.Random(13).sample(composition(probe), len(composition(probe)))]
    for seat in range(probe.num_players):
        game = new_game(name, seed=13, deck=deck, **kwargs)
        hidden = game.hidden_deck_positions(seat)
        i, j = random.Random(seat).sample(hidden, 2)
        while deck[i] == deck[j]:
            i, j = random.Random(seat + i).sample(hidden, 2)
        swapped = list(deck)
        swapped[i], swapped[j] = swapped[j], swapped[i]
        other = new_game(name, seed=13, deck=swapped, **kwargs)
        for seed in range(3):
            a, b = game.sample_hidden(seat, seed), other.sample_hidden(seat, seed)
            assert [a.view(p) for p in range(a.num_players)] == \
                [b.view(p) for p in range(b.num_players)]
            assert a.state.rng_state == b.state.rng_state


def test_a_sampled_world_tells_only_its_own_history(config):
    """A world's history starts when it is sampled (tests/test_sampled_worlds.py has the
    rest): nothing before that moment, the real game's past included, is replayed in it."""
    game = make(config, 6)
    for _ in zip(range(5), random_steps(game, random.Random(6))):
        pass
    world = game.sample_hidden(1, 3)
    assert world.events(1) == world.events() == world.events(0) == []
    assert world.history == [] and world.action_log() == []
    action = next(random_steps(world, random.Random(1)))
    assert world.action_log() == [action]
    assert [e for e in world.history if e["event"] == "action"][0]["id"] == action
    assert len(world.events(1)) >= 1 and world.events(1)[0]["n"] == 0
