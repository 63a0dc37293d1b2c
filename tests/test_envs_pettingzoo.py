"""The PettingZoo AEC adapter: PettingZoo's own api_test and seed_test for every game, then
what the adapter promises on top (observations = the game's tensor and mask, rewards =
returns(), illegal actions, shaping, render)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import cardcore
from cardcore import ConfigError, IllegalActionError
from cardcore.envs.pettingzoo import env, raw_env

GAMES = cardcore.available_games()

# PettingZoo's api_test names its own dict-observation envs in a list; any other env with a
# {"observation", "action_mask"} dict (the classic-env convention) gets these two notes.
EXPECTED_NOTES = ("Observation is not a NumPy array",
                  "Observation space for each agent probably should be")


def masked_random(rng, obs):
    legal = np.flatnonzero(obs["action_mask"])
    return int(legal[rng.integers(len(legal))])


@pytest.mark.parametrize("make", [env, raw_env], ids=["env", "raw_env"])
@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_api_test_passes(name, make):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(make(name, render_mode="ansi"), num_cycles=1000)
    others = {str(w.message) for w in caught
              if not str(w.message).startswith(EXPECTED_NOTES)}
    assert not others


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_seed_test_passes(name):
    seed_test(lambda: env(name), num_cycles=1000)


@pytest.mark.parametrize("name", GAMES)
def test_observations_are_the_games_tensor_and_mask_and_rewards_its_returns(name):
    e = raw_env(name)
    e.reset(seed=11)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    steps = 0
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        game = e.game
        seat = e.possible_agents.index(agent)
        if steps % 7 == 0 or terminated:
            for other, other_seat in zip(e.possible_agents, range(game.num_players)):
                o = e.observe(other) if other in e.agents else None
                if o is None:
                    continue
                assert o["observation"].dtype == np.float32
                np.testing.assert_array_equal(o["observation"], game.observation_tensor(other_seat))
                expected = (game.legal_action_mask() if other_seat == game.current_player
                            else np.zeros(game.num_distinct_actions, bool))
                np.testing.assert_array_equal(o["action_mask"], expected.astype(np.int8))
        if terminated or truncated:
            e.step(None)
            continue
        assert seat == game.current_player
        e.step(masked_random(rng, obs))
        steps += 1
    assert e.game.is_over and not e.agents
    assert [totals[a] for a in e.possible_agents] == e.game.returns()


def test_observations_are_fresh_arrays():
    e = raw_env("kings_stakes")
    e.reset(seed=1)
    first = e.observe(e.agent_selection)
    again = e.observe(e.agent_selection)
    assert first["observation"] is not again["observation"]
    first["observation"][:] = -5
    assert not np.array_equal(first["observation"], e.observe(e.agent_selection)["observation"])


@pytest.mark.parametrize("name", GAMES)
def test_raw_env_raises_on_an_illegal_action_and_changes_nothing(name):
    e = raw_env(name)
    e.reset(seed=3)
    obs = e.observe(e.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = e.game.to_json()
    with pytest.raises(IllegalActionError):
        e.step(illegal)
    assert e.game.to_json() == before and not any(e.terminations.values())
    with pytest.raises(IllegalActionError):
        e.step(10 ** 9)
    assert e.game.to_json() == before


@pytest.mark.parametrize("name", GAMES)
def test_env_ends_the_episode_on_an_illegal_action_with_the_worst_return(name):
    e = env(name)
    e.reset(seed=3)
    offender = e.agent_selection
    obs, *_ = e.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    e.step(illegal)
    worst = e.utility_range[0]
    assert all(e.terminations.values())
    assert e.rewards[offender] == worst and e.infos[offender]["illegal_action"] == illegal
    assert all(r == 0 for a, r in e.rewards.items() if a != offender)
    seen = {}
    for agent in e.agent_iter():
        _, reward, terminated, _, _ = e.last()
        assert terminated
        seen[agent] = reward
        e.step(None)
    assert seen[offender] == worst and not e.agents


def test_reward_shaping_is_potential_based():
    # Penalty points on the table so far (public), fewer is better in Kings' Stakes.
    def potential(game):
        return [-float(s) for s in game.scores]

    e = raw_env("kings_stakes", reward_shaping=potential)
    e.reset(seed=5)
    start = potential(e.game)
    rng = np.random.default_rng(5)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    shaped_before_end = False
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        shaped_before_end |= reward != 0
        e.step(masked_random(rng, obs))
    returns = e.game.returns()
    assert shaped_before_end       # the shaping paid something during the match
    for seat, agent in enumerate(e.possible_agents):
        assert totals[agent] == pytest.approx(returns[seat] - start[seat])


def test_render_ansi_shows_the_view_of_the_seat_to_move():
    e = raw_env("kings_stakes", render_mode="ansi")
    e.reset(seed=2)
    text = e.render()
    seat = e.game.current_player
    view = e.game.view(seat)
    assert f"seat {seat} to move" in text
    assert " ".join(view["hand"]) in text and view["legal_actions"][0] in text
    assert raw_env("kings_stakes").render() is None


def test_bad_configuration_and_order_give_clear_errors():
    with pytest.raises(ConfigError, match="render_mode"):
        raw_env("kings_stakes", render_mode="human")
    with pytest.raises(ConfigError, match="illegal_action"):
        raw_env("kings_stakes", illegal_action="ignore")
    with pytest.raises(ConfigError, match="unknown game"):
        raw_env("poker")
    with pytest.raises(ConfigError, match="teams"):
        raw_env("kings_stakes", players=3, teams=True)
    with pytest.raises(RuntimeError, match="reset"):
        raw_env("kings_stakes").step(0)


def test_game_options_and_players_reach_the_game():
    e = raw_env("kings_stakes", players=3, scoring="cards")
    e.reset(seed=0)
    assert e.possible_agents == ["player_0", "player_1", "player_2"]
    assert e.game.options["scoring"] == "cards" and e.game.num_players == 3
    assert e.observation_space("player_0")["observation"].shape == e.game.observation_shape


def test_reset_with_a_seed_repeats_the_deal_and_without_one_moves_on():
    e = raw_env("kings_stakes")
    e.reset(seed=9)
    first = e.game.view(0)["hand"]
    e.reset()
    second = e.game.view(0)["hand"]
    e.reset(seed=9)
    assert e.game.view(0)["hand"] == first and second != first
