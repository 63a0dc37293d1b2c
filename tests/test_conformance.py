"""The protocol conformance suite (api.md), run for every registered game and configuration.
A game added to the registry with ``conformance_configs`` gets all of these for free."""
from __future__ import annotations

import json
import random

import numpy as np
import pytest

import cardcore
from cardcore import ConfigError, IllegalActionError, load_game, new_game
from cardcore.cards import card_str
from cardcore.game import Action

from invariants import all_configs, check_invariants, composition, config_id, random_steps, snapshot

CONFIGS = all_configs()
pytestmark = pytest.mark.parametrize("config", CONFIGS, ids=[config_id(c) for c in CONFIGS])


def make(config, seed=0, **extra):
    name, kwargs = config
    return new_game(name, seed=seed, **kwargs, **extra)


def test_invariants_hold_after_every_action_in_random_playouts(config):
    for seed in range(3):
        game = make(config, seed)
        check_invariants(game)
        for _ in random_steps(game, random.Random(seed)):
            check_invariants(game)
        assert game.is_over and game.legal_actions() == []


def test_random_playouts_end_and_seeds_reproduce(config):
    for seed in range(10, 16):
        a, b = make(config, seed), make(config, seed)
        steps_a = list(random_steps(a, random.Random(seed)))
        steps_b = list(random_steps(b, random.Random(seed)))
        assert steps_a == steps_b and snapshot(a) == snapshot(b)


def test_legal_actions_agree_with_ids_mask_and_notation(config):
    game = make(config, 3)
    rng = random.Random(3)
    for step in random_steps(game, rng):
        if game.is_over:
            break
        ids = game.legal_action_ids()
        actions = game.legal_actions()
        assert [a.id for a in actions] == list(ids)
        mask = game.legal_action_mask()
        assert mask.dtype == np.bool_ and mask.shape == (game.num_distinct_actions,)
        assert list(np.flatnonzero(mask)) == list(ids)
        for a in actions:
            assert a.player == game.current_player
            json.dumps(a.to_dict())
            assert game.action_from_id(a.id) == a
        # Every notation is accepted by apply and means the same id.
        pick = actions[rng.randrange(len(actions))]
        by_text, by_action = game.clone(), game.clone()
        by_text.apply(str(pick).lower())
        by_action.apply(pick)
        assert by_text._log[-1] == by_action._log[-1] == pick.id


def illegal_inputs(game):
    ids = set(game.legal_action_ids())
    n = game.num_distinct_actions
    yield from (None, 1.5, "", "no such move", object(), True, [0], -1, n, 10**30, -(10**30))
    illegal_ids = [i for i in range(n) if i not in ids]
    for i in illegal_ids[:: max(1, len(illegal_ids) // 25)]:
        yield i
        yield np.int64(i)
        yield str(game.action_from_id(i))
    if game.current_player is not None:
        legal = game.action_from_id(next(iter(ids)))
        other = (legal.player + 1) % game.num_players
        yield Action(legal.id, other, legal.kind, legal.cards, legal.label)       # wrong seat
        yield Action(legal.id, legal.player, legal.kind, legal.cards, "forged")   # forged label


def test_illegal_input_raises_and_changes_nothing(config):
    game = make(config, 5)
    rng = random.Random(5)
    checkpoints = 0
    for step, _ in enumerate(random_steps(game, rng)):
        if step % 9 or game.is_over or checkpoints >= 15:
            continue
        checkpoints += 1
        before = snapshot(game)
        for bad in illegal_inputs(game):
            with pytest.raises(IllegalActionError) as info:
                game.apply(bad)
            assert str(info.value)
            assert snapshot(game) == before, f"state changed by {bad!r}"
    before = snapshot(game)
    for bad in (0, 1, "take", None):
        with pytest.raises(IllegalActionError):
            game.apply(bad)
    assert snapshot(game) == before


def test_load_game_of_to_json_continues_identically(config):
    game = make(config, 7)
    rng = random.Random(7)
    for step, _ in enumerate(random_steps(game, rng)):
        if step % 11:
            continue
        copy = load_game(game.to_json())
        assert snapshot(copy) == snapshot(game)
        assert load_game(json.loads(game.to_json())).to_json() == game.to_json()
        # Same future, randomness included: continue both with the same choices.
        a, b = game.clone(), copy
        seed = rng.randrange(1 << 30)
        list(random_steps(a, random.Random(seed)))
        list(random_steps(b, random.Random(seed)))
        assert snapshot(a) == snapshot(b)
        if step > 120:
            break


def test_tampered_or_malformed_saves_raise_value_error(config):
    game = make(config, 8)
    list(zip(range(30), random_steps(game, random.Random(8))))
    data = json.loads(game.to_json())
    bad_saves = ["not json", "[]", "{}", json.dumps({**data, "format": 99}),
                 json.dumps({**data, "players": "four"}), json.dumps({**data, "rng": [1, 3]}),
                 json.dumps({**data, "actions": data["actions"] + [10**9]}),
                 json.dumps({**data, "actions": ["x"]}), json.dumps({**data, "game": "chess"}),
                 json.dumps({**data, "options": {"nonsense": 1}})]
    if data["actions"]:
        bad_saves.append(json.dumps({**data, "actions": [game.num_distinct_actions - 1] * 3}))
    for bad in bad_saves:
        with pytest.raises(ValueError):
            load_game(bad)


def test_clone_is_independent(config):
    game = make(config, 9)
    list(zip(range(25), random_steps(game, random.Random(9))))
    before = snapshot(game)
    twin = game.clone()
    assert snapshot(twin) == before
    list(random_steps(twin, random.Random(1)))
    assert twin.is_over
    assert snapshot(game) == before
    list(random_steps(game, random.Random(1)))
    assert snapshot(game) == snapshot(twin)


def test_view_is_unchanged_when_unseen_cards_are_swapped(config):
    name, kwargs = config
    probe = make(config, 11)
    deck = [card_str(c) for c in random.Random(11).sample(composition(probe), len(composition(probe)))]
    for seat in range(probe.num_players):
        game = new_game(name, seed=11, deck=deck, **kwargs)
        hidden = game.hidden_deck_positions(seat)
        assert hidden, "some cards must be hidden from every seat"
        rng = random.Random(seat)
        for _ in range(12):
            i, j = rng.sample(hidden, 2)
            if deck[i] == deck[j]:
                continue
            swapped = list(deck)
            swapped[i], swapped[j] = swapped[j], swapped[i]
            other = new_game(name, seed=11, deck=swapped, **kwargs)
            assert other.view(seat) == game.view(seat)
            # The swap did change the game: somebody else's cards (or the stock) differ.
            assert snapshot(other) != snapshot(game)


def test_configuration_errors_name_the_problem(config):
    name, kwargs = config
    cls_players = make(config).num_players
    with pytest.raises(ConfigError, match="has no option"):
        new_game(name, **kwargs, no_such_option=1)
    for players in (0, 1, 99, "4", 2.0):
        with pytest.raises(ConfigError, match="players"):
            new_game(name, players=players)
    with pytest.raises(ConfigError, match="deck"):
        make(config, deck=["AS"] * 3)
    full = [card_str(c) for c in composition(make(config))]
    assert full[0] != full[-1]
    with pytest.raises(ConfigError, match="composition"):
        make(config, deck=full[:-1] + [full[0]])          # one card twice, another missing
    with pytest.raises(ConfigError, match="deck"):
        make(config, deck=full[:-1] + ["ZZ"])             # not a card
    with pytest.raises(ConfigError, match="seed"):
        make(config, seed=-1)
    assert cls_players == kwargs.get("players", cls_players)


def test_unknown_game_is_a_config_error(config):
    with pytest.raises(ConfigError, match="unknown game"):
        new_game("chess")
    assert config[0] in cardcore.available_games()


def test_copy_from_makes_what_clone_makes_in_place(config):
    """``GameState.copy_from`` (the narration's copy before each action) leaves the state
    equal to a clone: same legal ids, zones, scores and play from there; another game's
    state is refused."""
    game = make(config, 12)
    kept = game._state.clone()
    rng = random.Random(12)
    for _ in range(40):
        ids = game.legal_action_ids()
        if not ids:
            break
        kept.copy_from(game._state)
        twin = game._state.clone()
        assert kept.zone_bytes() == twin.zone_bytes() and kept.legal_ids() == twin.legal_ids()
        assert kept.scores() == twin.scores() and kept.sides == twin.sides
        action = rng.choice(ids)
        kept.apply(action)
        twin.apply(action)
        assert kept.zone_bytes() == twin.zone_bytes() and kept.legal_ids() == twin.legal_ids()
        game.apply(action)
    other = "kings_stakes" if config[0] != "kings_stakes" else "crazy_eights"
    with pytest.raises(TypeError, match="copy_from needs"):
        kept.copy_from(new_game(other, seed=1)._state)
