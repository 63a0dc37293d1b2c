"""The Gymnasium adapter: Gymnasium's own check_env for every game, then what the adapter
promises on top (registered ids, the learning seat's tensor and mask, bots at the other
seats, rewards = returns(), illegal actions)."""
from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import cardcore
import cardcore.bots
from cardcore import ConfigError, IllegalActionError
from cardcore.bots import RandomBot
from cardcore.envs.gymnasium import CardcoreEnv, env_id

GAMES = cardcore.available_games()

# The one note check_env gives: the Game API states no per-element bounds for the tensor, so
# the observation Box is (-inf, inf), which check_env calls "probably too low/high".
EXPECTED_NOTES = ("space minimum value is -infinity", "space maximum value is infinity")


def masked_random(rng, info):
    legal = np.flatnonzero(info["action_mask"])
    return int(legal[rng.integers(len(legal))])


@pytest.mark.parametrize("opponents", ["greedy", "random"])
@pytest.mark.parametrize("name", GAMES)
def test_gymnasium_check_env_passes(name, opponents):
    env = gymnasium.make(env_id(name), opponents=opponents, render_mode="ansi")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    others = {str(w.message) for w in caught
              if not any(note in str(w.message) for note in EXPECTED_NOTES)}
    assert not others


def test_every_game_is_registered_under_its_camel_case_id():
    assert env_id("kings_stakes") == "cardcore/KingsStakes-v0"
    for name in GAMES:
        env = gymnasium.make(env_id(name))
        assert isinstance(env.unwrapped, CardcoreEnv) and env.unwrapped.name == name


@pytest.mark.parametrize("name", GAMES)
def test_an_episode_sees_the_seats_tensor_mask_and_ends_with_its_return(name):
    env = CardcoreEnv(name, seat=1, opponents="random")
    obs, info = env.reset(seed=4)
    rng = np.random.default_rng(4)
    total, terminated = 0.0, False
    while not terminated:
        game = env.game
        assert game.current_player == 1                     # the bots moved the others
        np.testing.assert_array_equal(obs, game.observation_tensor(1))
        np.testing.assert_array_equal(info["action_mask"], game.legal_action_mask().astype(np.int8))
        np.testing.assert_array_equal(env.action_masks(), game.legal_action_mask())
        obs, reward, terminated, truncated, info = env.step(masked_random(rng, info))
        assert not truncated
        total += reward
    assert env.game.is_over and total == env.game.returns()[1]
    assert not info["action_mask"].any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


@pytest.mark.parametrize("name", GAMES)
def test_illegal_actions_end_the_episode_or_raise_leaving_the_game_unchanged(name):
    env = CardcoreEnv(name, opponents="random")
    _, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == env.utility_range[0] and info["illegal_action"] == illegal

    strict = CardcoreEnv(name, opponents="random", illegal_action="raise")
    strict.reset(seed=2)
    before = strict.game.to_json()
    with pytest.raises(IllegalActionError):
        strict.step(illegal)
    assert strict.game.to_json() == before


def test_same_seed_same_trajectory_with_greedy_opponents():
    def run(seed):
        env = CardcoreEnv("kings_stakes", seat=2, opponents=["greedy", "random", "greedy"])
        obs, info = env.reset(seed=seed)
        rng = np.random.default_rng(0)
        trace, terminated = [obs.tobytes()], False
        while not terminated:
            obs, reward, terminated, _, info = env.step(masked_random(rng, info))
            trace.append((obs.tobytes(), reward))
        return trace

    assert run(8) == run(8)
    assert run(8) != run(9)


def test_every_bot_name_can_be_an_opponent():
    for bot in cardcore.bots.available_bots():
        env = CardcoreEnv("kings_stakes", players=2, opponents=bot)
        _, info = env.reset(seed=0)
        assert env.game.current_player == 0 and info["action_mask"].any()


def test_bot_instances_are_used_and_reseeded():
    bot = RandomBot(seed=123)
    env = CardcoreEnv("kings_stakes", players=2, seat=0, opponents=bot)
    env.reset(seed=1)
    first = bot.seed
    env.reset(seed=2)
    assert bot.seed != first        # reseeded from the episode's seed at every reset


def test_bad_configuration_gives_clear_errors():
    with pytest.raises(ConfigError, match="opponents"):
        CardcoreEnv("kings_stakes", opponents=["random"])       # 3 other seats
    with pytest.raises(ConfigError, match="unknown bot"):
        CardcoreEnv("kings_stakes", opponents="perfect")
    with pytest.raises(ConfigError, match="seat"):
        CardcoreEnv("kings_stakes", seat=4)
    with pytest.raises(ConfigError, match="illegal_action"):
        CardcoreEnv("kings_stakes", illegal_action="ignore")
    with pytest.raises(ConfigError, match="render_mode"):
        CardcoreEnv("kings_stakes", render_mode="human")


def test_render_ansi_is_the_learning_seats_view():
    env = CardcoreEnv("kings_stakes", seat=3, opponents="random", render_mode="ansi")
    env.reset(seed=6)
    text = env.render()
    assert "Seat 3 hand: " + " ".join(env.game.view(3)["hand"]) in text


def test_reward_shaping_sums_to_the_return_minus_the_start_potential():
    def potential(game):
        return [-float(s) for s in game.scores]

    env = CardcoreEnv("kings_stakes", opponents="random", reward_shaping=potential)
    _, info = env.reset(seed=3)
    start = potential(env.game)[0]
    rng = np.random.default_rng(1)
    total, terminated = 0.0, False
    while not terminated:
        _, reward, terminated, _, info = env.step(masked_random(rng, info))
        total += reward
    assert total == pytest.approx(env.game.returns()[0] - start)
