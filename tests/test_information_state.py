"""Information states (docs/api.md, "Information states"): perfect recall of what one seat
saw, as a string and as a fixed-size tensor, revealing nothing the seat may not know."""
from __future__ import annotations

import random

import numpy as np
import pytest

import cardcore
from cardcore import information_state
from cardcore.cards import card_str
from cardcore.events import DEAL_EVENT
from cardcore.registry import game_class, new_game

from event_pairs import _swap_pairs
from invariants import all_configs, config_id

CONFIGS = all_configs()


def played(name, config, seed, steps, unfinished=False):
    """``steps`` seeded random actions, or fewer at the end; ``unfinished``: stop before the
    action that would end the match (a game whose match is shorter than ``steps``)."""
    game = new_game(name, seed=seed, **config)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        action = rng.choice(game.legal_action_ids())
        if unfinished:
            trial = game.clone()
            trial.apply(action)
            if trial.is_over:
                break
        game.apply(action)
    return game


@pytest.mark.parametrize("name", cardcore.available_games())
def test_every_game_begins_its_rounds_with_a_deal_event(name):
    # information_state reads a round's private cards from its deal on
    assert DEAL_EVENT in game_class(name).narrator.kinds


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_the_string_is_perfect_recall_one_line_per_event(config):
    name, kwargs = config
    game = new_game(name, seed=5, **kwargs)
    rng = random.Random(5)
    before = {seat: game.information_state_string(seat) for seat in range(game.num_players)}
    for _ in range(150):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_action_ids()))
        for seat in range(game.num_players):
            now = game.information_state_string(seat)
            assert now.startswith(before[seat] + "\n") or not before[seat]
            assert now.count("\n") + 1 == len(game.events(seat))
            before[seat] = now


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_the_tensor_has_the_declared_fixed_layout(config):
    name, kwargs = config
    game = played(name, kwargs, 3, 80)
    pieces = game.information_state_pieces
    assert [p[0] for p in pieces] == ["observation", "dealt", "received", "history"]
    offset = 0
    for _, start, size in pieces:
        assert start == offset
        offset += size
    assert game.information_state_shape == (offset,)
    assert new_game(name, seed=99, **kwargs).information_state_shape == (offset,)
    for seat in range(game.num_players):
        tensor = game.information_state_tensor(seat)
        assert tensor.dtype == np.float32 and tensor.shape == (offset,)
        _, o, n = pieces[0]
        assert np.array_equal(tensor[o:o + n], game.observation_tensor(seat))
        out = np.full(offset, 7.0, np.float32)
        assert game.information_state_tensor(seat, out) is out
        assert np.array_equal(out, tensor)


def test_the_dealt_piece_counts_the_seats_hand_as_dealt():
    game = new_game("crazy_eights", players=2, seed=11)
    hand = game.view(0)["hand"]
    tensor = game.information_state_tensor(0)
    _, o, n = game.information_state_pieces[1]
    cards = game.information_state_cards
    dealt = sorted(card for i, card in enumerate(cards) for _ in range(int(tensor[o + i])))
    assert dealt == sorted(hand)
    _, o, n = game.information_state_pieces[2]
    assert not tensor[o:o + n].any()              # nothing drawn yet
    draw = game.legal_action_ids()[-1]
    while game.current_player == 0 or draw not in game.legal_action_ids():
        game.apply(game.legal_action_ids()[0])
        draw = 52
    seat = game.current_player
    game.apply(52)                                # draw: the card only that seat saw
    drawn = game.events(seat)[-1]["cards"]
    tensor = game.information_state_tensor(seat)
    got = [card for i, card in enumerate(cards) for _ in range(int(tensor[o + i]))]
    assert got == drawn


def test_the_history_codes_actor_kind_and_seen_action_id():
    game = played("kings_stakes", {}, 4, 30)
    kinds = game.information_state_kinds
    tensor = game.information_state_tensor(0)
    _, o, n = game.information_state_pieces[3]
    codes = tensor[o:o + n].reshape(-1, information_state.HISTORY_FIELDS)
    events = game.events(0)
    assert len(events) <= information_state.HISTORY_EVENTS
    for event, (actor, kind, action) in zip(events, codes):
        assert actor == (0 if event["player"] is None else event["player"] + 1)
        assert kind == kinds.index(event["kind"]) + 1
        seen = event.get("id") if not event.get("auto") else None
        assert action == (0 if seen is None else seen + 1)
    assert not codes[len(events):].any()


def test_a_long_history_keeps_its_most_recent_events(monkeypatch):
    monkeypatch.setattr(information_state, "HISTORY_EVENTS", 8)
    monkeypatch.setattr(information_state.Layout, "_known", {})
    game = played("kings_stakes", {}, 4, 30)
    tensor = game.information_state_tensor(1)
    _, o, n = game.information_state_pieces[3]
    assert n == 8 * information_state.HISTORY_FIELDS
    kinds = game.information_state_kinds
    assert [int(k) - 1 for k in tensor[o + 1:o + n:3]] == [
        kinds.index(e["kind"]) for e in game.events(1)[-8:]]


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_information_states_reveal_nothing_the_seat_cannot_see(config):
    # Two deals that differ only in cards seat 0 cannot see, played alike: while seat 0's
    # view has been the same at every step, so are its information states.
    name, kwargs = config
    probe = new_game(name, seed=1, **kwargs)
    composition = [card_str(c) for c in probe.deck_for(probe.num_players, probe.options)]
    rng = random.Random(23)
    deck = rng.sample(composition, len(composition))
    game = new_game(name, seed=1, deck=deck, **kwargs)
    compared = 0
    for k, (i, j) in enumerate(_swap_pairs(game, 0, deck, rng, 4)):
        swapped = list(deck)
        swapped[i], swapped[j] = swapped[j], swapped[i]
        a = new_game(name, seed=1, deck=deck, **kwargs)
        b = new_game(name, seed=1, deck=swapped, **kwargs)
        moves = random.Random(k)
        while a.view(0) == b.view(0) and not a.is_over:
            assert a.information_state_string(0) == b.information_state_string(0)
            assert np.array_equal(a.information_state_tensor(0), b.information_state_tensor(0))
            compared += 1
            common = sorted(set(a.legal_action_ids()) & set(b.legal_action_ids()))
            if not common or compared > 400:
                break
            action = moves.choice(common)
            a.apply(action)
            b.apply(action)
        # the differing cards are hidden: the strings differ from another seat's side only
    assert compared > 20


@pytest.mark.parametrize("name", cardcore.available_games())
def test_a_clone_goes_on_from_where_its_game_was(name):
    game = played(name, {}, 8, 40)
    seats = range(game.num_players)
    strings = [game.information_state_string(seat) for seat in seats]
    twin = game.clone()
    assert [twin.information_state_string(seat) for seat in seats] == strings
    rng = random.Random(2)
    for _ in range(20):
        if twin.is_over:
            break
        twin.apply(rng.choice(twin.legal_action_ids()))
    fresh = cardcore.load_game(twin.to_json())          # narrated from scratch
    for seat in seats:
        assert twin.information_state_string(seat) == fresh.information_state_string(seat)
        assert np.array_equal(twin.information_state_tensor(seat),
                              fresh.information_state_tensor(seat))
        assert twin.events(seat) == fresh.events(seat)
    assert [game.information_state_string(seat) for seat in seats] == strings   # untouched


def test_bad_seats_and_buffers_are_refused():
    game = new_game("crazy_eights", players=2, seed=1)
    for bad in (-1, 2, None, "0", 1.0, True):
        with pytest.raises(ValueError):
            game.information_state_string(bad)
        with pytest.raises(ValueError):
            game.information_state_tensor(bad)
    size = game.information_state_shape[0]
    for out in (np.zeros(size, np.float64), np.zeros(size - 1, np.float32),
                np.zeros((2, size), np.float32)[:, 0], [0.0] * size):
        with pytest.raises(ValueError):
            game.information_state_tensor(0, out)


@pytest.mark.parametrize("name", cardcore.available_games())
def test_a_sampled_world_continues_its_seats_information_state(name):
    game = played(name, {}, 6, 40, unfinished=True)
    seat = game.current_player
    world = game.sample_hidden(seat, 5)
    assert world.information_state_string(seat) == game.information_state_string(seat)
    assert np.array_equal(world.information_state_tensor(seat),
                          game.information_state_tensor(seat))
    action = world.legal_action_ids()[0]
    world.apply(action)
    game.apply(action)
    # the seat saw its own move alike in both (its cards are its own)
    assert world.information_state_string(seat).splitlines()[:-2] == \
        game.information_state_string(seat).splitlines()[:-2]


def test_clones_kept_at_every_step_share_their_events():
    # A search that clones at every step of a long match and keeps the clones (OpenSpiel's
    # random_sim_test does) must not hold a copy of the events per clone.
    game = new_game("kuzanasta", seed=3)
    rng = random.Random(3)
    clones = []
    for _ in range(300):
        game.apply(rng.choice(game.legal_action_ids()))
        game.information_state_string(0)
        clones.append(game.clone())
    lists = {id(c._narration.raw._items) for c in clones}
    assert len(lists) == 1                             # one list, shared by prefix
    assert clones[10].events(0) == cardcore.load_game(clones[10].to_json()).events(0)
    assert len(game._narration.raw._items) == len(game._narration.raw)
