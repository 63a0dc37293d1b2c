"""VectorGame with in-core opponents, every seat's view, reward rules and episode figures
(api.md "Batched play and RL"; docs/rl.md, "VectorGame")."""
from __future__ import annotations

import numpy as np
import pytest

import cardcore
from cardcore import ConfigError, new_game
from cardcore.bots import make_bot
from cardcore.registry import game_class, game_classes
from cardcore.vector import VectorGame, episode_seed, opponent_seed
from game_cases import declared

GAMES = cardcore.available_games()


def two_player(name: str) -> dict:
    """A small configuration of each game (Manna is always four: two teams)."""
    cls = game_class(name)
    return {"players": max(2, cls.min_players)}


class Mirror:
    """Slot i's episodes as Game objects whose opponents are Python bots reseeded with
    opponent_seed: the oracle an in-core VectorGame must match move for move."""

    def __init__(self, vg: VectorGame, specs: dict[int, str]) -> None:
        self.vg, self.specs = vg, specs
        self.episodes = [0] * vg.num_games
        self.unplayed = [0] * vg.num_games
        self.games = [self.deal(i) for i in range(vg.num_games)]

    def deal(self, i: int):
        vg = self.vg
        episode = self.episodes[i]
        game = new_game(vg.name, players=vg.num_players,
                        seed=episode_seed(vg.seed, i, episode), **vg.options)
        self.bots = getattr(self, "bots", {})
        self.bots[i] = {p: make_bot(spec, opponent_seed(vg.seed, i, episode, p))
                        for p, spec in self.specs.items()}
        self.learner_steps = getattr(self, "learner_steps", {})
        self.learner_steps[i] = 0
        self.advance(i, game)
        if game.is_over:                  # over before a learner's move: not reported
            self.unplayed[i] += 1
            self.episodes[i] += 1
            return self.deal(i)
        return game

    def advance(self, i: int, game) -> None:
        while not game.is_over and game.current_player in self.bots[i]:
            game.apply(self.bots[i][game.current_player].choose_id(game))

    def step(self, i: int, action: int):
        """Apply the learner's action and the opponents' replies; the finished game (or
        None) and the seat that acted."""
        game = self.games[i]
        mover = game.current_player
        game.apply(action)
        self.learner_steps[i] += 1
        before = len(game.action_log())
        self.advance(i, game)
        self.replied = len(game.action_log()) > before      # the opponents moved after it
        if game.is_over:
            self.episodes[i] += 1
            self.games[i] = self.deal(i)
            return game, mover
        return None, mover


def play_against_mirror(vg: VectorGame, specs: dict[int, str], finished_goal: int,
                        step_cap: int = 20_000) -> tuple[int, int]:
    """Step vg and its Mirror side by side with random learner moves; (episodes finished,
    of which ended on an opponent's move)."""
    mirror = Mirror(vg, specs)
    rng = np.random.default_rng(3)
    finished = steps = on_opponent = 0
    lengths = {}
    while finished < finished_goal and steps < step_cap:
        mask = vg.legal_mask()
        obs = vg.observations()
        players = vg.current_player
        for i, game in enumerate(mirror.games):
            assert players[i] == game.current_player and players[i] in vg.learner_seats
            assert np.array_equal(mask[i], game.legal_action_mask())
            assert np.array_equal(obs[i], game.observation_tensor(game.current_player))
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
        rewards, done = vg.step(actions)
        steps += 1
        for i in range(vg.num_games):
            lengths[i] = mirror.learner_steps[i] + 1
            ended, mover = mirror.step(i, int(actions[i]))
            assert bool(done[i]) == (ended is not None)
            if ended is None:
                assert not rewards[i].any()
                continue
            finished += 1
            on_opponent += mirror.replied
            assert vg.episode_lengths[i] == lengths[i]
            assert not vg.truncated[i]
            assert np.allclose(rewards[i], ended.returns())
            assert np.allclose(vg.episode_returns[i], ended.returns())
            assert vg.episode_actions[i] == len(ended.action_log())
            assert np.array_equal(vg.final_observations[i], ended.observation_tensor(mover))
            assert not vg.final_masks[i].any()
    for i, game in enumerate(mirror.games):
        assert vg.game(i).to_json() == game.to_json()
    assert list(vg.unplayed_episodes) == mirror.unplayed
    assert list(vg.episode_ids) == mirror.episodes
    assert finished >= finished_goal
    return finished, on_opponent


@pytest.mark.parametrize("name", GAMES)
def test_trajectories_with_in_core_opponents_equal_games_with_python_bots(name):
    """Every game: each step's mask, observation, reward and done equal a Python loop over
    Game objects whose other seats are GreedyBot / RandomBot / LevelBot seeded with
    opponent_seed, and vg.game(i) rebuilds the current episode."""
    options = two_player(name) | ({"deals": 1} if name == "kuzanasta" else {})
    players = options["players"]
    levels = game_class(name).levels
    core_level = next(n for n in (3, 2) if levels[n].startswith("greedy"))
    specs = {p: ("greedy", "random", f"level:{core_level}")[(p - 1) % 3]
             for p in range(1, players)}
    if players == 2:
        for spec in ("greedy", "random", f"level:{core_level}"):
            vg = VectorGame(name, 3, seed=11, opponents=spec, **options)
            play_against_mirror(vg, {1: spec}, finished_goal=3)
    else:
        vg = VectorGame(name, 3, seed=11, opponents=specs, **options)
        play_against_mirror(vg, specs, finished_goal=3)


@pytest.mark.parametrize("kwargs, option", [
    ({"opponents": "nobody"}, "opponents"),
    ({"opponents": "random:seed=3"}, "opponents"),
    ({"opponents": {1: "greedy", 2: "random"}}, "opponents"),
    ({"opponents": {0: "greedy", 1: "random"}}, "opponents"),
    ({"opponents": {True: "greedy"}}, "opponents"),
    ({"opponents": {1: "greedy", "x": "random"}}, "opponents"),
    ({"learner_seats": [0, 1]}, "opponents"),
    ({"learner_seats": 0}, "opponents"),
    ({"learner_seats": 2, "opponents": "greedy"}, "learner_seats"),
    ({"learner_seats": [0, 0], "opponents": "greedy"}, "learner_seats"),
    ({"learner_seats": [], "opponents": "greedy"}, "learner_seats"),
    ({"learner_seats": "0", "opponents": "greedy"}, "learner_seats"),
    ({"reward": "wins"}, "reward"),
    ({"reward_scale": 0}, "reward_scale"),
    ({"reward_scale": float("nan")}, "reward_scale"),
    ({"reward": "win", "reward_scale": "utility_range"}, "reward_scale"),
    ({"observation": "normalised"}, "observation"),
    ({"max_episode_actions": 0}, "max_episode_actions"),
    ({"max_episode_actions": 2.5}, "max_episode_actions"),
])
def test_a_bad_option_is_a_config_error_naming_it(kwargs, option):
    with pytest.raises(ConfigError) as e:
        VectorGame("kings_stakes", 2, players=2, **kwargs)
    assert e.value.option == option and option in str(e.value)


def test_a_bound_that_cuts_every_episode_before_the_learner_moves_is_a_config_error():
    with pytest.raises(ConfigError, match="before a learner seat moved") as e:
        VectorGame("kings_stakes", 2, players=2, opponents="greedy", max_episode_actions=1,
                   first_player=1)
    assert e.value.option == "max_episode_actions"


def _random_steps(vg: VectorGame, steps: int, seed: int) -> list[tuple[list[int], list[bool]]]:
    rng = np.random.default_rng(seed)
    trace = []
    for _ in range(steps):
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in vg.legal_mask()])
        _, done = vg.step(actions)
        assert all(int(p) in vg.learner_seats for p in vg.current_player)
        trace.append((actions.tolist(), done.tolist()))
    return trace


def test_a_search_level_plays_outside_the_core_the_same_every_time():
    """Durak's level 3 and Kings' Stakes' level 4 search (IS-MCTS): no in-core policy, so
    they play outside the core on each slot's game (what win_rates and the training
    examples evaluate against), seeded from the VectorGame's seed."""
    from cardcore.envs.evaluation import random_policy, win_rates
    from cardcore.vector import in_core_bots
    assert "level:3" not in in_core_bots(new_game("durak", players=2))
    vg = VectorGame("durak", 3, players=2, seed=5, opponents="level:3")
    assert vg.opponents == {1: "level:3"}
    trace = _random_steps(vg, 60, 0)
    assert sum(sum(done) for _, done in trace) > 0          # episodes end and restart
    again = VectorGame("durak", 3, players=2, seed=5, opponents="level:3")
    assert _random_steps(again, 60, 0) == trace
    for i in range(3):                        # the slot's game holds only legal moves
        assert vg.game(i).action_log() == again.game(i).action_log()
    # It is the search, not a random stand-in: a random learner loses far more against it.
    rates = win_rates(random_policy(0), "kings_stakes", ("random", "level:4"), games=100,
                      players=2, seed=3)
    assert rates["level:4"]["win_rate_ci"][1] < rates["random"]["win_rate_ci"][0], rates


@pytest.mark.parametrize("name", [name for name, often in declared("GREEDY_OFTEN_ENDS_EPISODES")
                                  if often])
def test_an_episode_ending_on_the_opponents_move_is_credited_at_the_learners_last_step(name):
    """Against greedy, many episodes end on the greedy seat's move; the step whose learner
    action led to it returns the returns (checked against the Python loop), the steps
    before return zeros."""
    vg = VectorGame(name, 8, players=2, seed=2, opponents="greedy")
    finished, on_opponent = play_against_mirror(vg, {1: "greedy"}, finished_goal=30)
    assert 5 <= on_opponent < finished


def test_several_learner_seats_and_an_opponent_map():
    vg = VectorGame("kings_stakes", 3, players=4, seed=4, learner_seats=[0, 2],
                    opponents={1: "greedy", 3: "level:2"})
    assert vg.learner_seats == (0, 2) and vg.opponents == {1: "greedy", 3: "level:2"}
    play_against_mirror(vg, {1: "greedy", 3: "level:2"}, finished_goal=3)


@pytest.mark.parametrize("name", GAMES)
def test_every_seats_observations_equal_the_games_tensors(name):
    vg = VectorGame(name, 3, seed=8, **two_player(name))
    rng = np.random.default_rng(1)
    every = np.empty((3, vg.num_players, *vg.observation_shape), np.float32)
    for step in range(40):
        if step % 7 == 0:
            games = [vg.game(i) for i in range(3)]
            assert vg.observations_all(every) is every
            fresh = vg.observations_all()
            for seat in range(vg.num_players):
                seen = vg.observations(seat=seat)
                for i, game in enumerate(games):
                    tensor = game.observation_tensor(seat)
                    assert np.array_equal(seen[i], tensor)
                    assert np.array_equal(every[i, seat], tensor)
                    assert np.array_equal(fresh[i, seat], tensor)
        mask = vg.legal_mask()
        vg.step(np.array([rng.choice(np.flatnonzero(row)) for row in mask]))
    for bad in (-1, vg.num_players, 1.0, True):
        with pytest.raises(ValueError, match="seat"):
            vg.observations(seat=bad)
    with pytest.raises(ValueError):
        vg.observations_all(np.empty((3, vg.num_players + 1, *vg.observation_shape), np.float32))


def win_reward(returns, sides) -> list[float]:
    """The documented rule: each seat of a side with the best returns gets 1 / (winning
    sides), every other seat -1; all 0 when every side has the best returns."""
    best = max(returns)
    winning = {sides[p] for p, r in enumerate(returns) if r == best}
    if len(winning) == len(set(sides)):
        return [0.0] * len(returns)
    return [1 / len(winning) if r == best else -1.0 for r in returns]


@pytest.mark.parametrize("name, options", [(name, options) for name, each in
                                           declared("WIN_REWARD_OPTIONS") for options in each])
def test_the_win_reward_follows_the_rule(name, options):
    vg = VectorGame(name, 6, seed=3, reward="win", opponents="random", **options)
    sides = game_class(name).sides_of(vg.num_players, vg.options)
    seen = set()
    finished = 0
    for _ in range(3000):
        rewards, done = vg.step(vg.random_actions())
        for i in np.flatnonzero(done):
            expected = win_reward(list(vg.episode_returns[i]), sides)
            assert np.allclose(rewards[i], expected)
            seen.add(tuple(np.round(expected, 3)))
            finished += 1
        if finished >= 12:
            break
    assert finished >= 12 and len(seen) >= 2


def test_reward_scale_multiplies_and_utility_range_bounds_the_returns():
    plain = VectorGame("kuzanasta", 4, players=2, seed=1, deals=1, opponents="greedy")
    scaled = VectorGame("kuzanasta", 4, players=2, seed=1, deals=1, opponents="greedy",
                        reward_scale="utility_range")
    low, high = new_game("kuzanasta", players=2, seed=0, deals=1).utility_range
    assert scaled.reward_scale == pytest.approx(1 / max(abs(low), abs(high)))
    ended = 0
    for _ in range(2000):
        actions = plain.random_actions()
        a, done = plain.step(actions)
        b, done_too = scaled.step(actions)
        assert np.array_equal(done, done_too)
        assert np.allclose(b, a * scaled.reward_scale, rtol=1e-6)
        assert (np.abs(b) <= 1).all()
        ended += done.sum()
        if ended >= 4:
            break
    assert ended >= 4 and np.array_equal(plain.episode_returns, scaled.episode_returns)


def test_self_play_counts_every_action_as_a_learner_step():
    vg = VectorGame("crazy_eights", 4, players=3, seed=2)
    assert vg.learner_seats == (0, 1, 2) and vg.opponents == {}
    ended = 0
    while ended < 6:
        _, done = vg.step(vg.random_actions())
        for i in np.flatnonzero(done):
            assert vg.episode_lengths[i] == vg.episode_actions[i] > 0
            ended += 1


@pytest.mark.parametrize("opponents", [None, "greedy"])
def test_the_length_bound_truncates_an_episode(opponents):
    """max_episode_actions: an episode that reaches it unfinished is done and truncated,
    reward 0, and the slot restarts; the final observation is the acting seat's view of the
    cut state, the final mask its legal actions there when it is to move (else none)."""
    cap = 25
    vg = VectorGame("kings_stakes", 5, players=2, seed=6, opponents=opponents,
                    max_episode_actions=cap)
    assert vg.max_episode_actions == cap
    cut = at_turn = 0
    for _ in range(40):
        before = [vg.game(i) for i in range(5)]
        actions = vg.random_actions()
        rewards, done = vg.step(actions)
        assert np.array_equal(vg.truncated, done)          # no game of 25 actions ends
        for i in np.flatnonzero(done):
            assert not rewards[i].any() and vg.episode_actions[i] == cap
            assert len(vg.game(i).action_log()) < cap       # a new episode
            cut += 1
            if opponents is not None:
                continue
            game = before[i]
            mover = game.current_player
            game.apply(int(actions[i]))
            assert len(game.action_log()) == cap and not game.is_over
            assert np.array_equal(vg.final_observations[i], game.observation_tensor(mover))
            assert np.allclose(vg.episode_returns[i], game.returns())
            mask = game.legal_action_mask() if game.current_player == mover else 0 * game.legal_action_mask()
            assert np.array_equal(vg.final_masks[i], mask.astype(bool))
            at_turn += game.current_player == mover
    assert cut >= 5 and (opponents is not None or at_turn >= 1)


def test_threads_give_the_same_games_with_opponents():
    one = VectorGame("kuzanasta", 6, players=3, seed=9, deals=1, opponents="level:3")
    two = VectorGame("kuzanasta", 6, players=3, seed=9, deals=1, opponents="level:3", threads=2)
    for _ in range(300):
        actions = one.random_actions()
        a, done = one.step(actions)
        b, done_too = two.step(actions)
        assert np.array_equal(a, b) and np.array_equal(done, done_too)
        assert np.array_equal(one.observations(), two.observations())
    assert np.array_equal(one.episode_returns, two.episode_returns)
    assert [one.game(i).to_json() for i in range(6)] == [two.game(i).to_json() for i in range(6)]


# Every configuration each game declares for conformance (every value of every option).
SCALED = [(cls.name, dict(config)) for cls in game_classes() for config in cls.conformance_configs]


@pytest.mark.parametrize("name, options", SCALED)
def test_scaled_observations_lie_in_the_unit_interval(name, options):
    """observation="scaled": (raw - low) / (high - low) from the game's declared bounds,
    every entry in [0, 1] over random play (the bounds hold), for every seat."""
    raw = VectorGame(name, 8, seed=5, **options)
    scaled = VectorGame(name, 8, seed=5, observation="scaled", **options)
    low, high = raw.observation_low, raw.observation_high
    assert np.isfinite(low).all() and np.isfinite(high).all() and (low <= high).all()
    assert (scaled.observation_low == 0).all() and (scaled.observation_high == 1).all()
    span = np.where(high > low, high - low, 1)
    for step in range(600):
        if step % 5 == 0:
            a, b = raw.observations_all(), scaled.observations_all()
            assert ((low <= a) & (a <= high)).all(), np.argwhere(~((low <= a) & (a <= high)))
            assert np.allclose(b, np.where(high > low, (a - low) / span, 0), atol=1e-6)
        actions = raw.random_actions()
        raw.step(actions)
        scaled.step(actions)


def test_a_game_without_bounds_refuses_scaling_naming_the_option(monkeypatch):
    """A game that declares no bounds for a piece: raw bounds +-inf there, and "scaled" is a
    ConfigError naming the option and the piece."""
    cls = game_class("kings_stakes")
    declared = cls.observation_bounds_of
    monkeypatch.setattr(cls, "observation_bounds_of", classmethod(
        lambda c, players, options: {k: v for k, v in declared(players, options).items()
                                     if k != "stake"}))
    with pytest.raises(ConfigError, match="declares no bounds for stake") as e:
        VectorGame("kings_stakes", 2, observation="scaled")
    assert e.value.option == "observation"
    vg = VectorGame("kings_stakes", 2)
    stake = dict((n, o) for n, o, _ in new_game("kings_stakes", seed=0).observation_pieces)["stake"]
    assert np.isinf(vg.observation_high[stake]) and np.isfinite(vg.observation_high[:stake]).all()
