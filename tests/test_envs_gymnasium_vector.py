"""The Gymnasium vector environment over VectorGame (make_vec, issue 23) and the single
environment's additions (seat="random", winners and returns in info, scaled observations).

Gymnasium 1.x ships no checker for vector environments (``gymnasium.utils.env_checker`` takes
single environments only), so the checks here are the vector API's contract as Gymnasium's
own SyncVectorEnv keeps it: batched spaces (``batch_space``), observations inside them,
``AutoresetMode.SAME_STEP`` in the metadata and its final_obs / final_info layout, every info
key with its ``_key`` mask, seeding (``data_equivalence`` of whole trajectories), Gymnasium's
vector wrappers on top, and ``gymnasium.make_vec`` through the vector entry point."""
from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env, data_equivalence
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

import cardcore
from cardcore import ConfigError, IllegalActionError
from cardcore.envs.evaluation import format_win_rates, random_policy, win_rates
from cardcore.envs.gymnasium import CardcoreEnv, CardcoreVectorEnv, env_id, make_vec
from cardcore.vector import VectorGame

GAMES = cardcore.available_games()


def players_of(name):
    """The players of the game's short match (``Game.short_match``)."""
    return cardcore.registry.game_class(name).short_match.players


def short_options(name):
    """The options of the game's short match, so that games end in the run."""
    return dict(cardcore.registry.game_class(name).short_match.options)


def random_legal(rng, mask):
    return np.where(mask, rng.random(mask.shape), -1.0).argmax(axis=1)


def run(env, seed, steps, rng_seed=0):
    """(obs, reward, terminated, truncated, info) of every step, from reset(seed)."""
    rng = np.random.default_rng(rng_seed)
    obs, info = env.reset(seed=seed)
    out = [(obs, info)]
    for _ in range(steps):
        result = env.step(random_legal(rng, info["action_mask"]))
        info = result[-1]
        out.append(result)
    return out


@pytest.mark.parametrize("name", GAMES)
def test_spaces_metadata_and_a_random_run_keep_the_vector_contract(name):
    n = 16
    env = make_vec(name, n, players=players_of(name), opponents="random", **short_options(name))
    assert isinstance(env, gymnasium.vector.VectorEnv) and env.num_envs == n
    assert env.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    assert env.observation_space == batch_space(env.single_observation_space, n)
    assert env.action_space == batch_space(env.single_action_space, n)
    assert env.single_action_space == gymnasium.spaces.Discrete(env.vector_game.num_distinct_actions)
    obs, info = env.reset(seed=5)
    assert obs in env.observation_space
    for i in (0, n - 1):           # slot i's game, seen by the learning seat
        game = env.vector_game.game(i)
        assert game.current_player == 0
        np.testing.assert_array_equal(obs[i], game.observation_tensor(0))
        np.testing.assert_array_equal(info["action_mask"][i], game.legal_action_mask())
    rng = np.random.default_rng(1)
    finished = 0
    for _ in range(300):
        obs, reward, terminated, truncated, info = env.step(random_legal(rng, info["action_mask"]))
        assert obs.shape == (n, *env.single_observation_space.shape) and obs.dtype == np.float32
        assert reward.shape == (n,) and terminated.shape == truncated.shape == (n,)
        assert terminated.dtype == truncated.dtype == np.bool_
        assert info["action_mask"].shape == (n, env.single_action_space.n)
        np.testing.assert_array_equal(info["action_mask"], env.action_masks())
        assert info["action_mask"].any(axis=1).all()      # every game at the learner's turn
        for key in info:                                    # Gymnasium's info layout
            if not key.startswith("_"):
                assert info["_" + key].shape == (n,)
        done = terminated | truncated
        assert (reward[~done] == 0).all()
        if not done.any():
            assert "final_obs" not in info
            continue
        finished += int(done.sum())
        np.testing.assert_array_equal(info["_final_obs"], done)
        final = info["final_info"]
        for i in np.flatnonzero(done):
            assert info["final_obs"][i].shape == env.single_observation_space.shape
            returns = final["returns"][i]
            assert reward[i] == np.float32(returns[0])          # reward="returns", seat 0
            best = returns == returns.max()
            np.testing.assert_array_equal(final["winners"][i], best)
            assert not final["action_mask"][i].any()            # a match over: nothing legal
            assert final["episode_length"][i] >= 1
        assert all(info["final_obs"][i] is None for i in np.flatnonzero(~done))
        for key in ("returns", "winners", "action_mask", "episode_length"):
            np.testing.assert_array_equal(final["_" + key], done)
    assert finished > 0


def test_same_seed_same_trajectories_and_a_new_seed_new_games():
    make = lambda: make_vec("kings_stakes", 8, players=2)    # noqa: E731
    first, second = run(make(), 3, 120), run(make(), 3, 120)
    assert data_equivalence(first, second, exact=True)
    other = run(make(), 4, 0)
    assert not np.array_equal(other[0][0], first[0][0])
    env = make()
    env.reset(seed=3)
    again, _ = env.reset()           # no seed: the generator goes on, new games
    assert not np.array_equal(again, first[0][0])


def test_copy_false_reuses_the_buffers_with_the_same_values():
    a = make_vec("crazy_eights", 8, players=2, opponents="greedy")
    b = make_vec("crazy_eights", 8, players=2, opponents="greedy", copy=False)
    oa, ia = a.reset(seed=2)
    ob, ib = b.reset(seed=2)
    rng = np.random.default_rng(0)
    for _ in range(40):
        actions = random_legal(rng, ia["action_mask"])
        oa, ra, _, _, ia = a.step(actions)
        ob2, rb, _, _, ib = b.step(actions)
        assert ob2 is ob
        np.testing.assert_array_equal(oa, ob2)
        np.testing.assert_array_equal(ra, rb)
        np.testing.assert_array_equal(ia["action_mask"], ib["action_mask"])


def test_gymnasium_make_vec_uses_the_vector_entry_point():
    env = gymnasium.make_vec(env_id("kings_stakes"), 4, players=2, opponents="random")
    assert isinstance(env, CardcoreVectorEnv) and env.opponents == {1: "random"}
    assert env.spec.id == env_id("kings_stakes")
    env.reset(seed=0)
    sync = gymnasium.make_vec(env_id("kings_stakes"), 2, vectorization_mode="sync", players=2)
    assert isinstance(sync, gymnasium.vector.SyncVectorEnv)


def test_gymnasium_vector_wrappers_count_the_episodes():
    env = gymnasium.wrappers.vector.RecordEpisodeStatistics(
        make_vec("kings_stakes", 8, players=2, opponents="random"))
    obs, info = env.reset(seed=1)
    rng = np.random.default_rng(2)
    seen = 0
    for _ in range(200):
        obs, reward, terminated, truncated, info = env.step(random_legal(rng, info["action_mask"]))
        if "episode" in info:
            done = info["_episode"]
            np.testing.assert_array_equal(done, terminated | truncated)
            np.testing.assert_allclose(info["episode"]["r"][done],
                                       info["final_info"]["returns"][done, 0])
            np.testing.assert_array_equal(info["episode"]["l"][done],
                                          info["final_info"]["episode_length"][done])
            seen += int(done.sum())
    assert seen > 0


def test_opponents_seats_and_rewards_are_passed_to_vectorgame():
    env = make_vec("kings_stakes", 4, players=3, seat=1, opponents=["random", "greedy"],
                   reward="win")
    assert env.vector_game.learner_seats == (1,)
    assert env.opponents == {0: "random", 2: "greedy"}
    obs, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    total = 0
    for _ in range(200):
        obs, reward, terminated, truncated, info = env.step(random_legal(rng, info["action_mask"]))
        assert set(np.unique(reward)) <= {-1.0, 0.0, 0.5, 1.0}
        total += int(terminated.sum())
    assert total > 0
    with pytest.raises(IllegalActionError):
        illegal = np.where(info["action_mask"], -1.0, 1.0).argmax(axis=1)
        env.step(illegal)


def test_bad_arguments_give_config_errors_naming_them():
    with pytest.raises(ConfigError, match="seat"):
        make_vec("kings_stakes", 4, seat="random")
    with pytest.raises(ConfigError, match="learner_seats|seat"):
        make_vec("kings_stakes", 4, players=2, seat=2)
    with pytest.raises(ConfigError, match="reward_shaping.*sync"):
        make_vec("kings_stakes", 4, reward_shaping=lambda g: [0.0] * g.num_players)
    with pytest.raises(ConfigError, match="opponents"):
        make_vec("kings_stakes", 4, players=3, opponents=["random"])
    with pytest.raises(ConfigError, match="seed"):
        make_vec("kings_stakes", 4).reset(seed=[1, 2, 3, 4])
    with pytest.raises(RuntimeError, match="reset"):
        make_vec("kings_stakes", 4).step(np.zeros(4, np.int64))


# --- the single environment ---------------------------------------------------------------
def test_single_env_random_seat_is_drawn_from_the_reset_seed():
    env = gymnasium.make(env_id("kings_stakes"), seat="random", opponents="random").unwrapped
    seats = []
    for seed in range(12):
        obs, info = env.reset(seed=seed)
        assert info["seat"] == env.seat and env.game.current_player == env.seat
        np.testing.assert_array_equal(obs, env.game.observation_tensor(env.seat))
        seats.append(env.seat)
    assert len(set(seats)) > 1
    again = [CardcoreEnv("kings_stakes", seat="random").reset(seed=s)[1]["seat"]
             for s in range(12)]
    assert again == seats
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env)
    assert not [w for w in caught if "infinity" not in str(w.message)]


@pytest.mark.parametrize("name", GAMES)
def test_single_env_ends_with_winners_and_returns_in_info(name):
    env = CardcoreEnv(name, seat="random", opponents="random")
    _, info = env.reset(seed=7)
    assert "winners" not in info
    rng = np.random.default_rng(7)
    terminated = False
    while not terminated:
        legal = np.flatnonzero(info["action_mask"])
        _, reward, terminated, _, info = env.step(int(rng.choice(legal)))
    assert info["winners"] == env.game.winners and info["winners"]
    np.testing.assert_array_equal(info["returns"], env.game.returns())
    assert reward == info["returns"][env.seat]


@pytest.mark.parametrize("name", GAMES)
def test_single_env_scaled_observations_match_vectorgames(name):
    players = players_of(name)
    try:
        vg = VectorGame(name, 4, players=players, seed=3, observation="scaled")
    except ConfigError as e:               # the game declares no bounds for some piece
        with pytest.raises(ConfigError, match="observation"):
            CardcoreEnv(name, players=players, observation="scaled")
        assert e.option == "observation"
        return
    env = CardcoreEnv(name, players=players, observation="scaled")
    low, high = env.observation_space.low, env.observation_space.high
    assert np.isfinite(low).all() and np.isfinite(high).all()
    assert (low == 0).all() and (high == 1).all()
    seen = vg.observations(seat=0)
    for i in range(4):
        env.game = vg.game(i)                   # slot i's game, seen by the env's seat 0
        np.testing.assert_array_equal(env._observe(), seen[i])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(gymnasium.make(env_id(name), players=players, observation="scaled").unwrapped)
    assert not [str(w.message) for w in caught]


# --- evaluation -----------------------------------------------------------------------------
def test_win_rates_count_the_first_episode_of_every_slot():
    results = win_rates(random_policy(0), "kings_stakes", ("random", "greedy"), games=200,
                        players=2, seed=1)
    assert set(results) == {"random", "greedy"}
    for r in results.values():
        assert r["games"] == 200 and 0 <= r["sole_wins"] <= r["wins"] <= 200
        low, high = r["win_rate_ci"]
        assert low <= r["win_rate"] <= high
    assert results["random"]["win_rate"] > results["greedy"]["win_rate"]
    again = win_rates(random_policy(0), "kings_stakes", ("random",), games=200, players=2,
                      seed=1)
    assert again["random"] == results["random"]
    assert "greedy" in format_win_rates(results)


@pytest.mark.parametrize("name", cardcore.available_games())
def test_scaled_vector_observations_stay_in_the_finite_box(name):
    env = make_vec(name, 16, players=cardcore.registry.game_class(name).short_match.players,
                   observation="scaled")
    space = env.single_observation_space
    assert space.is_bounded() and (space.low == 0).all() and (space.high == 1).all()
    obs, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    finals = 0
    for _ in range(150):
        assert obs in env.observation_space
        obs, _, terminated, _, info = env.step(random_legal(rng, info["action_mask"]))
        for i in np.flatnonzero(terminated):
            assert info["final_obs"][i] in space
            finals += 1
    assert finals > 0
