"""VectorGame with in-core opponents, every seat's view, reward rules and episode figures
(api.md "Batched play and RL"; docs/rl.md, "VectorGame")."""
from __future__ import annotations

import numpy as np
import pytest

import cardcore
from cardcore import ConfigError, new_game
from cardcore.bots import make_bot
from cardcore.registry import game_class
from cardcore.vector import VectorGame, episode_seed, opponent_seed

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
        self.advance(i, game)
        if game.is_over:
            self.episodes[i] += 1
            self.games[i] = self.deal(i)
            return game, mover
        return None, mover


def play_against_mirror(vg: VectorGame, specs: dict[int, str], finished_goal: int,
                        step_cap: int = 20_000) -> int:
    mirror = Mirror(vg, specs)
    rng = np.random.default_rng(3)
    finished = steps = 0
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
            ended, mover = mirror.step(i, int(actions[i]))
            lengths[i] = mirror.learner_steps.get(i)
            assert bool(done[i]) == (ended is not None)
            if ended is None:
                assert not rewards[i].any()
                continue
            finished += 1
            assert not vg.truncated[i]
            assert np.allclose(rewards[i], ended.returns())
            assert np.allclose(vg.episode_returns[i], ended.returns())
            assert vg.episode_actions[i] == len(ended.action_log())
            assert np.array_equal(vg.final_observations[i], ended.observation_tensor(mover))
            assert not vg.final_masks[i].any()
    for i, game in enumerate(mirror.games):
        assert vg.game(i).to_json() == game.to_json()
    assert finished >= finished_goal
    return finished


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
    ({"opponents": "ismcts"}, "opponents"),
    ({"opponents": "level:5"}, "opponents"),
    ({"opponents": "nobody"}, "opponents"),
    ({"opponents": "random:seed=3"}, "opponents"),
    ({"opponents": {1: "greedy", 2: "random"}}, "opponents"),
    ({"opponents": {0: "greedy", 1: "random"}}, "opponents"),
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


def test_a_search_level_is_refused_naming_the_levels_that_work():
    with pytest.raises(ConfigError, match=r"level:4.*in-core bots here: random, greedy, "
                                          r"level:1, level:2, level:3$"):
        VectorGame("kings_stakes", 2, players=2, opponents="level:4")
