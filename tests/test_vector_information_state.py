"""VectorGame(observation="information_state"): batched perfect-recall information states
(issue 33, item 3), slot by slot the single game's ``information_state_tensor``."""
from __future__ import annotations

import random

import numpy as np
import pytest

from cardcore import new_game
from cardcore.errors import ConfigError
from cardcore.registry import game_classes
from cardcore.vector import VectorGame, episode_seed

# Each game at its short match's player count and at up to four players.
CONFIGS = [(cls.name, players) for cls in game_classes()
           for players in sorted({cls.short_match.players,
                                   max(cls.min_players, min(cls.max_players, 4))})]


def python_loop(name: str, players: int, seed: int, n: int, steps: int, **options):
    """VectorGame in self-play beside a Python loop over Game objects with the same seeds and
    the same actions: every row, every final row, equal."""
    vg = VectorGame(name, n, players=players, seed=seed, observation="information_state",
                    **options)
    games = [new_game(name, players=players, seed=episode_seed(seed, i, 0), **options)
             for i in range(n)]
    episodes = [0] * n
    rng = random.Random(seed)
    finished = 0
    assert vg.observation_shape == games[0].information_state_shape
    for _ in range(steps):
        obs = vg.observations()
        for i, game in enumerate(games):
            assert np.array_equal(obs[i], game.information_state_tensor(game.current_player))
        mask = vg.legal_mask()
        actions = np.array([rng.choice(np.flatnonzero(row).tolist()) for row in mask], np.int64)
        movers = [g.current_player for g in games]
        _, done = vg.step(actions)
        for i, game in enumerate(games):
            game.apply(int(actions[i]))
            assert done[i] == game.is_over
            if done[i]:
                final = game.information_state_tensor(movers[i])
                assert np.array_equal(vg.final_observations[i], final)
                finished += 1
                episodes[i] += 1
                games[i] = new_game(name, players=players,
                                    seed=episode_seed(seed, i, episodes[i]), **options)
    return finished


@pytest.mark.parametrize("name,players", CONFIGS)
def test_information_state_rows_equal_the_single_game(name, players):
    python_loop(name, players, seed=3, n=3, steps=60)


def test_information_state_final_rows_across_episodes():
    # Short Crazy Eights matches (max_turns) end often: finals and fresh shadows are checked.
    assert python_loop("crazy_eights", 2, seed=5, n=4, steps=150, max_turns=5) >= 4


def test_information_state_with_in_core_opponents_and_every_seat():
    vg = VectorGame("kings_stakes", 4, players=3, seed=7, opponents="random",
                    observation="information_state")
    for _ in range(40):
        rows = vg.observations()
        every = vg.observations_all()
        seat1 = vg.observations(seat=1)
        for i in range(4):
            game = vg.game(i)
            assert game.current_player == 0
            assert np.array_equal(rows[i], game.information_state_tensor(0))
            assert np.array_equal(seat1[i], game.information_state_tensor(1))
            for p in range(3):
                assert np.array_equal(every[i, p], game.information_state_tensor(p))
        assert ((rows >= vg.observation_low) & (rows <= vg.observation_high)).all()
        vg.step(vg.random_actions())


def test_information_state_for_policy_opponents():
    seen = []

    def policy(observations, masks, seats):
        seen.append(observations.copy())
        return np.array([np.flatnonzero(m)[0] for m in masks], np.int64)

    vg = VectorGame("crazy_eights", 3, players=2, seed=1, opponents=policy,
                    observation="information_state")
    for _ in range(10):
        vg.step(vg.random_actions())
    assert seen and all(o.shape[1] == vg.observation_shape[0] for o in seen)


@pytest.mark.parametrize("bad", ["info", "", None, 3, "x" * 500])
def test_observation_option_refuses_bad_values(bad):
    with pytest.raises(ConfigError) as e:
        VectorGame("kings_stakes", 2, observation=bad)
    assert e.value.option == "observation" and "observation" in str(e.value)
    assert len(str(e.value)) < 200


def test_openspiel_observation_is_crazy_eights_only():
    with pytest.raises(ConfigError) as e:
        VectorGame("kings_stakes", 2, observation="openspiel")
    assert e.value.option == "observation"
    with pytest.raises(ConfigError) as e:
        new_game("kings_stakes", seed=0).observation_variant(0, "openspiel")
    assert e.value.option == "observation"


@pytest.mark.parametrize("observation", ["information_state", "openspiel"])
def test_make_vec_serves_information_states_and_openspiels_tensor(observation):
    from cardcore.envs.gymnasium import make_vec
    env = make_vec("crazy_eights", 3, players=2, opponents="random", observation=observation,
                   max_turns=6)
    obs, _ = env.reset(seed=0)
    assert obs.shape == (3, *env.single_observation_space.shape)
    for _ in range(12):
        mask = env._vg.legal_mask()
        actions = np.array([np.flatnonzero(m)[0] for m in mask], np.int64)
        obs, _, terminated, truncated, info = env.step(actions)
        for i in range(3):
            game = env._vg.game(i)
            expected = (game.information_state_tensor(0) if observation == "information_state"
                        else game.observation_variant(0, "openspiel"))
            assert np.array_equal(obs[i], expected)


def test_information_state_refuses_after_a_policy_broke_a_step_off():
    calls = []

    def policy(observations, masks, seats):
        calls.append(len(seats))
        if len(calls) > 3:
            raise KeyError("boom")
        return np.array([np.flatnonzero(m)[0] for m in masks], np.int64)

    vg = VectorGame("kings_stakes", 2, players=2, seed=0, opponents=policy,
                    observation="information_state")
    with pytest.raises(KeyError):
        for _ in range(20):
            vg.step(vg.random_actions())
    for call in (lambda: vg.observations(seat=1), vg.observations, vg.observations_all):
        with pytest.raises(RuntimeError, match="broken off"):
            call()
