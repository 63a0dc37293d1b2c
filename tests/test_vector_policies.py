"""VectorGame with batched policy opponents: ``opponents=callable`` or ``{seat: callable |
spec}`` (issue 33; api.md "Agents"; docs/rl.md, "VectorGame")."""
from __future__ import annotations

import re
import threading
from collections import Counter

import numpy as np
import pytest

import cardcore
from cardcore import ConfigError, IllegalActionError, new_game
from cardcore.bots import make_bot
from cardcore.envs.gymnasium import make_vec
from cardcore.registry import game_class
from cardcore.vector import VectorGame, episode_seed, opponent_seed
from game_cases import declared

GAMES = cardcore.available_games()


def two_player(name: str) -> dict:
    cls = game_class(name)
    return {"players": max(2, cls.min_players)} | ({"deals": 1} if name == "kuzanasta" else {})


class LinearPolicy:
    """A deterministic batched policy: the legal action with the highest score
    ``(observation . v) * u + b`` for fixed random v, u, b (a rank-one linear map, cheap at any
    width). Records what it was shown, call by call."""

    def __init__(self, size: int, actions: int, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.v = rng.normal(size=size)
        self.u, self.b = rng.normal(size=actions), rng.normal(size=actions)
        self.calls: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []

    def __call__(self, observations, masks, seats):
        assert observations.dtype == np.float32 and masks.dtype == np.bool_
        assert seats.dtype == np.int64 and len(observations) == len(masks) == len(seats) > 0
        assert masks.any(axis=1).all()
        self.calls.append((observations.copy(), masks.copy(), seats.copy()))
        return self.choose(observations, masks)

    def choose(self, observations, masks):
        # row by row the same arithmetic, so a batch and a single game agree to the bit
        score = (observations.astype(np.float64) * self.v).sum(axis=1)
        return np.where(masks, score[:, None] * self.u + self.b, -np.inf).argmax(axis=1)

    def one(self, observation, mask) -> int:
        """The same choice for one game (the plain loop's call)."""
        return int(self.choose(observation[None], mask[None])[0])


def decisions(calls) -> Counter:
    """What a policy was shown, as a multiset of (seat, observation, mask)."""
    seen: Counter = Counter()
    for obs, masks, seats in calls:
        for row, mask, seat in zip(obs, masks, seats):
            seen[(int(seat), row.tobytes(), mask.tobytes())] += 1
    return seen


class PlainLoop:
    """The oracle: slot i's episodes as Game objects from cardcore.new_game with the seeds
    VectorGame uses (episode_seed; in-core bots reseeded with opponent_seed), the policy
    seats played by the same policy one game at a time."""

    def __init__(self, vg: VectorGame, policies: dict, specs: dict, scaled=None) -> None:
        self.vg, self.policies, self.specs, self.scaled = vg, policies, specs, scaled
        self.shown: Counter = Counter()
        self.episodes = [0] * vg.num_games
        self.unplayed = [0] * vg.num_games
        self.bots: dict = {}
        self.learner_steps = [0] * vg.num_games
        self.games = [self.deal(i) for i in range(vg.num_games)]

    def view(self, game, seat):
        obs = game.observation_tensor(seat)
        if self.scaled is not None:
            low, inv = self.scaled
            obs = ((obs - low) * inv).astype(np.float32)
        return obs

    def deal(self, i: int):
        vg, episode = self.vg, self.episodes[i]
        game = new_game(vg.name, players=vg.num_players,
                        seed=episode_seed(vg.seed, i, episode), **vg.options)
        self.bots[i] = {p: make_bot(spec, opponent_seed(vg.seed, i, episode, p))
                        for p, spec in self.specs.items()}
        self.learner_steps[i] = 0
        self.advance(i, game)
        if game.is_over:
            self.unplayed[i] += 1
            self.episodes[i] += 1
            return self.deal(i)
        return game

    def advance(self, i: int, game) -> None:
        while not game.is_over and game.current_player not in self.vg.learner_seats:
            p = game.current_player
            if p in self.policies:
                obs, mask = self.view(game, p), game.legal_action_mask().astype(bool)
                self.shown[(p, obs.tobytes(), mask.tobytes())] += 1
                game.apply(self.policies[p].one(obs, mask))
            else:
                game.apply(self.bots[i][p].choose_id(game))

    def step(self, i: int, action: int):
        game = self.games[i]
        mover = game.current_player
        game.apply(action)
        self.learner_steps[i] += 1
        self.advance(i, game)
        if game.is_over:
            self.episodes[i] += 1
            self.games[i] = self.deal(i)
            return game, mover
        return None, mover


def play_against_loop(vg: VectorGame, policies: dict, specs: dict, finished_goal: int,
                      scaled=None, step_cap: int = 5_000) -> int:
    """Step vg and the plain loop side by side (the learner's actions random); every step's
    masks, observations, rewards, done and episode figures equal, and what the policies
    were shown equals what the loop's policy decided on."""
    callables = {id(p): p for p in policies.values()}
    shown_before = sum((decisions(p.calls) for p in callables.values()), Counter())
    loop = PlainLoop(vg, policies, specs, scaled)
    assert shown_before == loop.shown                  # the constructor's deals too
    rng = np.random.default_rng(5)
    finished = steps = decided = 0
    while finished < finished_goal and steps < step_cap:
        mask, obs, players = vg.legal_mask(), vg.observations(), vg.current_player
        for i, game in enumerate(loop.games):
            assert players[i] == game.current_player and players[i] in vg.learner_seats
            assert np.array_equal(mask[i], game.legal_action_mask())
            assert np.array_equal(obs[i], loop.view(game, game.current_player))
        for p in callables.values():
            p.calls.clear()
        loop.shown.clear()
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
        rewards, done = vg.step(actions)
        steps += 1
        lengths = [n + 1 for n in loop.learner_steps]
        for i in range(vg.num_games):
            ended, mover = loop.step(i, int(actions[i]))
            assert bool(done[i]) == (ended is not None)
            if ended is None:
                assert not rewards[i].any()
                continue
            finished += 1
            assert vg.episode_lengths[i] == lengths[i] and not vg.truncated[i]
            assert np.allclose(rewards[i], ended.returns())
            assert np.allclose(vg.episode_returns[i], ended.returns())
            assert vg.episode_actions[i] == len(ended.action_log())
            assert np.array_equal(vg.final_observations[i], loop.view(ended, mover))
            assert not vg.final_masks[i].any()
        shown = sum((decisions(p.calls) for p in callables.values()), Counter())
        assert shown == loop.shown
        decided += sum(shown.values())
    for i, game in enumerate(loop.games):
        assert vg.game(i).to_json() == game.to_json()
    assert list(vg.unplayed_episodes) == loop.unplayed
    assert list(vg.episode_ids) == loop.episodes
    assert finished >= finished_goal and decided >= steps // 2
    return finished


@pytest.mark.parametrize("name", GAMES)
def test_trajectories_with_a_policy_opponent_equal_a_loop_over_games(name):
    options = two_player(name)
    probe = VectorGame(name, 1, **options)
    policy = LinearPolicy(probe.observation_shape[0], probe.num_distinct_actions, seed=1)
    players = probe.num_players
    vg = VectorGame(name, 6, seed=13, opponents=policy, **options)
    assert vg.opponents == {p: policy for p in range(1, players)}
    play_against_loop(vg, {p: policy for p in range(1, players)}, {}, finished_goal=4)


@pytest.mark.parametrize("name, options", declared("MIXED_POLICY_OPTIONS"))
def test_mixed_opponents_policies_and_in_core_bots(name, options):
    """Seat 1 and 3 (or 2) one callable, called once per round for both seats' slots;
    another seat an in-core greedy bot; two learner seats with a second callable."""
    probe = VectorGame(name, 1, **options)
    size, width = probe.observation_shape[0], probe.num_distinct_actions
    shared, other = LinearPolicy(size, width, seed=2), LinearPolicy(size, width, seed=3)
    if options["players"] == 4:
        opponents = {1: shared, 2: "greedy", 3: shared}
        vg = VectorGame(name, 5, seed=3, opponents=opponents, **options)
        assert vg.learner_seats == (0,)
        play_against_loop(vg, {1: shared, 3: shared}, {2: "greedy"}, finished_goal=3)
    else:
        vg = VectorGame(name, 5, seed=3, learner_seats=[0], opponents={1: shared, 2: other},
                        **options)
        play_against_loop(vg, {1: shared, 2: other}, {}, finished_goal=3)


def test_one_callable_for_several_seats_is_called_once_per_round():
    """One call per round holds every slot whose seat to move is the callable's, whichever
    of its seats that is."""
    probe = new_game("kings_stakes", players=4, seed=0)
    policy = LinearPolicy(probe.observation_shape[0], probe.num_distinct_actions)
    vg = VectorGame("kings_stakes", 64, players=4, seed=1, opponents=policy)
    mixed = 0
    for _ in range(20):
        policy.calls.clear()
        vg.step(vg.random_actions())
        assert all(set(seats.tolist()) <= {1, 2, 3} for _, _, seats in policy.calls)
        mixed += sum(len(set(seats.tolist())) > 1 for _, _, seats in policy.calls)
    assert mixed > 0


def test_scaled_observations_reach_the_policy_scaled():
    probe = VectorGame("kings_stakes", 1, players=2, observation="scaled")
    policy = LinearPolicy(probe.observation_shape[0], probe.num_distinct_actions, seed=4)
    raw = VectorGame("kings_stakes", 1, players=2)
    low, high = raw.observation_low, raw.observation_high
    span = high - low
    inv = np.where(span > 0, 1.0 / np.where(span > 0, span, 1), 0).astype(np.float32)
    vg = VectorGame("kings_stakes", 4, players=2, seed=2, observation="scaled", opponents=policy)
    play_against_loop(vg, {1: policy}, {}, finished_goal=3, scaled=(low, inv))
    assert all(((0 <= obs) & (obs <= 1)).all() for obs, _, _ in policy.calls)


def test_deals_that_begin_at_a_policy_seat_are_played_by_the_constructor():
    probe = new_game("kings_stakes", players=2, seed=0, first_player=1)
    policy = LinearPolicy(probe.observation_shape[0], probe.num_distinct_actions)
    vg = VectorGame("kings_stakes", 4, players=2, seed=7, first_player=1, opponents=policy)
    assert len(policy.calls) >= 1 and (vg.current_player == 0).all()
    play_against_loop(vg, {1: policy}, {}, finished_goal=3)


def test_threads_give_the_same_games_with_a_policy():
    probe = VectorGame("crazy_eights", 1, players=3)
    make = lambda: LinearPolicy(probe.observation_shape[0], probe.num_distinct_actions, 6)  # noqa: E731
    one = VectorGame("crazy_eights", 6, players=3, seed=9, opponents={1: make(), 2: "greedy"})
    two = VectorGame("crazy_eights", 6, players=3, seed=9, opponents={1: make(), 2: "greedy"},
                     threads=2)
    for _ in range(150):
        actions = one.random_actions()
        a, done = one.step(actions)
        b, done_too = two.step(actions)
        assert np.array_equal(a, b) and np.array_equal(done, done_too)
    assert [one.game(i).to_json() for i in range(6)] == [two.game(i).to_json() for i in range(6)]
    two.close()


def test_the_length_bound_truncates_during_a_policys_moves():
    probe = VectorGame("kings_stakes", 1, players=2)
    policy = LinearPolicy(probe.observation_shape[0], probe.num_distinct_actions)
    vg = VectorGame("kings_stakes", 5, players=2, seed=6, opponents=policy,
                    max_episode_actions=25)
    cut = 0
    for _ in range(40):
        rewards, done = vg.step(vg.random_actions())
        assert np.array_equal(vg.truncated, done)
        for i in np.flatnonzero(done):
            assert not rewards[i].any() and vg.episode_actions[i] == 25
            cut += 1
    assert cut >= 5


# --------------------------------------------------------------------- refusals


def answering(answer):
    """A policy that answers ``answer(masks)``."""
    return lambda observations, masks, seats: answer(masks)


def first_legal(masks):
    return masks.argmax(axis=1)


@pytest.mark.parametrize("answer, error, words", [
    (lambda m: np.full(len(m), -1), IllegalActionError, r"game \d+, seat 1: the policy's action"),
    (lambda m: (~m).argmax(axis=1), IllegalActionError, r"game \d+, seat 1: the policy's action"),
    (lambda m: np.full(len(m), 10 ** 12), IllegalActionError, r"seat 1.*1000000000000"),
    (lambda m: m.argmax(axis=1)[:-1], ValueError, r"must return \d+ integer action ids"),
    (lambda m: m.argmax(axis=1).astype(np.float64), ValueError, "float64"),
    (lambda m: None, ValueError, "integer action ids"),
    (lambda m: 1 / 0, ZeroDivisionError, "division"),
])
def test_a_bad_answer_is_refused_and_the_vector_game_then_refuses_every_call(answer, error,
                                                                           words):
    """The policy's illegal id names the game (slot), seat and action; a wrong shape or
    dtype is a ValueError; an exception of its own goes through. The step was broken off
    half-way, so the VectorGame refuses every further call."""
    calls = [0]

    def policy(observations, masks, seats):
        calls[0] += 1
        return answer(masks) if calls[0] > 2 else first_legal(masks)
    vg = VectorGame("kings_stakes", 16, players=2, seed=4, opponents=policy)
    with pytest.raises(error, match=words):
        for _ in range(50):
            vg.step(vg.random_actions())
    for call in (lambda: vg.step(np.zeros(16, np.int64)), vg.legal_mask, vg.observations,
                 vg.random_actions, lambda: vg.game(0), lambda: vg.current_player):
        with pytest.raises(RuntimeError, match="broken off by an opponents callable"):
            call()


def test_an_illegal_answer_names_the_rule_and_the_action():
    wrong = [False]
    vg = VectorGame("kings_stakes", 4, players=2, seed=4, opponents=answering(
        lambda m: (~m if wrong[0] else m).argmax(axis=1)))
    wrong[0] = True
    with pytest.raises(IllegalActionError) as e:
        for _ in range(5):
            vg.step(vg.random_actions())
    assert e.value.rule and e.value.rule in str(e.value)
    assert re.match(r"opponents: game \d, seat 1: the policy's action \d+: ", str(e.value))


def test_a_policy_may_not_call_its_own_vector_game():
    """A policy that calls the VectorGame it plays in gets a RuntimeError, not a hang."""
    box = {}
    calls = [0]

    def later(observations, masks, seats):
        calls[0] += 1
        if calls[0] > 1:
            box["vg"].step(np.zeros(2, np.int64))
        return masks.argmax(axis=1)
    box["vg"] = vg = VectorGame("kings_stakes", 2, players=2, opponents=later)
    done = threading.Event()

    def run():
        with pytest.raises(RuntimeError, match="may not call its own VectorGame"):
            for _ in range(20):
                vg.step(vg.random_actions())
        done.set()
    worker = threading.Thread(target=run)
    worker.start()
    worker.join(20)
    assert done.is_set()


@pytest.mark.parametrize("kwargs, words", [
    ({"learner_seats": 0, "opponents": {0: first_legal, 1: "greedy"}}, "exactly the seats"),
    ({"opponents": {0: first_legal, 1: "greedy"}}, "left to the learner"),
    ({"learner_seats": [0, 1], "opponents": first_legal}, "every seat is a learner"),
    ({"learner_seats": 0, "opponents": {0: first_legal}}, "exactly the seats"),
    ({"opponents": 3}, "policy with choose_many"),
    ({"opponents": [first_legal]}, "policy with choose_many"),
    ({"opponents": {1: 3}}, "policy with choose_many"),
    ({"opponents": {1: "nobody"}}, "policy with choose_many"),
    ({"opponents": VectorGame}, "is a class"),
    ({"learner_seats": 0}, "policy with choose_many"),
    ({"learner_seats": 0, "opponents": None}, "policy with choose_many"),
])
def test_every_bad_opponents_value_is_a_config_error_naming_it(kwargs, words):
    with pytest.raises(ConfigError, match=words) as e:
        VectorGame("kings_stakes", 2, players=2, **kwargs)
    assert e.value.option == "opponents" and str(e.value).startswith("opponents")


@pytest.mark.parametrize("opponents", [None, 3, [3], {1: 3}, "nobody", VectorGame])
def test_make_vec_refuses_bad_opponents_naming_the_option(opponents):
    with pytest.raises(ConfigError) as e:
        make_vec("kings_stakes", 2, players=2, opponents=opponents)
    assert e.value.option == "opponents" and "opponents" in str(e.value)


# --------------------------------------------------------------------- make_vec, self-play


def test_make_vec_plays_a_policy_opponent_as_the_vector_game_does():
    """make_vec(opponents=callable): the environment's steps are its VectorGame's, so the
    same seed and actions give the same trajectories as a VectorGame with the policy."""
    probe = VectorGame("crazy_eights", 1, players=2)
    size, width = probe.observation_shape[0], probe.num_distinct_actions
    env = make_vec("crazy_eights", 4, players=2, opponents=LinearPolicy(size, width, 1))
    obs, info = env.reset(seed=3)
    vg = VectorGame("crazy_eights", 4, players=2, seed=env.vector_game.seed,
                    learner_seats=0, opponents=LinearPolicy(size, width, 1))
    assert np.array_equal(obs, vg.observations())
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(200):
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in info["action_mask"]])
        obs, reward, terminated, truncated, info = env.step(actions)
        rewards, done = vg.step(actions)
        assert np.array_equal(terminated | truncated, done)
        assert np.array_equal(reward, rewards[:, 0]) and np.array_equal(obs, vg.observations())
        ended += done.sum()
    assert ended >= 4
    env.close()


def test_make_vec_after_a_broken_step_reset_deals_new_games():
    calls = [0]

    def policy(observations, masks, seats):
        calls[0] += 1
        return masks.argmax(axis=1) - (calls[0] == 5)
    env = make_vec("kings_stakes", 8, players=2, opponents=policy)
    env.reset(seed=1)
    with pytest.raises(IllegalActionError):
        for _ in range(10):
            env.step(np.array([np.flatnonzero(r)[0] for r in env.action_masks()]))
    env.reset(seed=1)
    env.step(np.array([np.flatnonzero(r)[0] for r in env.action_masks()]))


class Frozen:
    """A 'network' whose weight is a number: it plays the legal id at that rank."""

    def __init__(self, rank: int) -> None:
        self.rank = rank

    def __call__(self, observations, masks, seats):
        ids = [np.flatnonzero(row) for row in masks]
        return np.array([row[min(self.rank, len(row) - 1)] for row in ids])


def test_self_play_answers_with_the_sampled_snapshot_and_keeps_the_latest():
    from cardcore.envs import SelfPlay
    learner = {"rank": 0}
    pool = SelfPlay(lambda: Frozen(learner["rank"]), keep=3, latest=0.5, seed=1)
    for rank in (1, 2, 3, 4):
        learner["rank"] = rank
        pool.snapshot()
    assert [s.rank for s in pool.snapshots] == [2, 3, 4] and pool.playing == 2
    picked = {pool.sample() for _ in range(200)}
    assert picked == {0, 1, 2}
    masks = np.ones((2, 6), bool)
    pool.playing = 0
    assert pool(np.zeros((2, 3), np.float32), masks, np.ones(2, np.int64)).tolist() == [2, 2]
    vg = VectorGame("kings_stakes", 8, players=2, seed=1, opponents=pool)
    for _ in range(30):
        pool.sample()
        vg.step(vg.random_actions())
    for bad in ({"keep": 0}, {"latest": 1.5}, {"keep": True}):
        with pytest.raises(ConfigError):
            SelfPlay(lambda: Frozen(0), **bad)
    with pytest.raises(ConfigError, match="freeze"):
        SelfPlay(lambda: 3)
