"""cardcore.bots: RandomBot, GreedyBot and make_bot on every game (each game's heuristic has
its own tests in tests/games/<game>/)."""
from __future__ import annotations

import numpy as np
import pytest

import cardcore
from cardcore import ConfigError, new_game
from cardcore.bots import Bot, GreedyBot, RandomBot, available_bots, greedy_heuristic, make_bot
from cardcore.game import Action

from invariants import all_configs, config_id

FIRSTS = list({name: (name, config) for name, config in reversed(all_configs())}.values())


def play_out(game, bots):
    """Play to the end with one bot per seat (a single bot is used for every seat)."""
    seats = bots if isinstance(bots, list) else [bots] * game.num_players
    actions = []
    while not game.is_over:
        bot = seats[game.current_player]
        action = bot.choose(game)
        assert isinstance(action, Action)
        assert action.player == game.current_player
        assert action.id in game.legal_action_ids()
        game.apply(action)
        actions.append(action.id)
    return actions


@pytest.mark.parametrize("bot_class", [RandomBot, GreedyBot])
@pytest.mark.parametrize("config", FIRSTS, ids=config_id)
def test_bots_choose_legal_actions_to_the_end(bot_class, config):
    name, options = config
    for seed in (1, 2):
        game = new_game(name, seed=seed, **options)
        actions = play_out(game, bot_class(seed=seed))
        assert game.is_over and len(actions) > 5 and game.winners


@pytest.mark.parametrize("bot_class", [RandomBot, GreedyBot])
@pytest.mark.parametrize("config", FIRSTS, ids=config_id)
def test_same_seed_same_choices_and_reseed_restarts(bot_class, config):
    name, options = config
    a = play_out(new_game(name, seed=5, **options), bot_class(seed=9))
    b = play_out(new_game(name, seed=5, **options), bot_class(seed=9))
    assert a == b
    bot = bot_class(seed=9)
    play_out(new_game(name, seed=6, **options), bot)
    bot.reseed(9)
    assert play_out(new_game(name, seed=5, **options), bot) == a


@pytest.mark.parametrize("config", FIRSTS, ids=config_id)
def test_random_bots_with_different_seeds_play_differently(config):
    name, options = config
    runs = {tuple(play_out(new_game(name, seed=5, **options), RandomBot(seed=s)))
            for s in range(5)}
    assert len(runs) == 5


def test_unseeded_bots_draw_fresh_entropy():
    assert RandomBot().rng.state != RandomBot().rng.state


def test_random_bot_makes_the_same_choices_as_run_random_in_the_core():
    # One RandomBot for every seat draws ids[rng.below(len(ids))] from the same PCG32 stream
    # as GameState.run_random: the Python loop and the in-core playout are the same game.
    for (name, options), seed in zip(FIRSTS * 2, range(2 * len(FIRSTS))):
        python_game = new_game(name, seed=seed, **options)
        actions = play_out(python_game, RandomBot(seed=100 + seed))
        core_game = new_game(name, seed=seed, **options)
        assert core_game._state.run_random(100 + seed) == len(actions)
        assert core_game.scores == python_game.scores
        assert core_game.winners == python_game.winners


@pytest.mark.parametrize("config", FIRSTS, ids=config_id)
def test_choose_on_a_finished_game_raises(config):
    name, options = config
    game = new_game(name, seed=1, **options)
    play_out(game, RandomBot(seed=1))
    for bot in (RandomBot(seed=1), GreedyBot(seed=1)):
        with pytest.raises(ValueError, match="over"):
            bot.choose(game)
        with pytest.raises(ValueError, match="over"):
            bot.choose_id(game)


def test_make_bot_by_name_and_unknown_names():
    assert isinstance(make_bot("random", 1), RandomBot)
    assert isinstance(make_bot(" Greedy ", 1), GreedyBot)
    assert set(available_bots()) >= {"random", "greedy"}
    for bad in ("minimax", "", None, 3):
        with pytest.raises(ConfigError, match="bot") as info:
            make_bot(bad, 1)
        assert info.value.option == "bots"
    assert isinstance(make_bot("random", 1), Bot)
    assert repr(make_bot("random", 7)) == "RandomBot(seed=7)"


def test_greedy_heuristic_is_the_games_and_a_game_without_one_is_a_config_error(monkeypatch):
    for name in cardcore.available_games():
        cls = cardcore.registry.game_class(name)
        assert greedy_heuristic(name) is cls.greedy
        GreedyBot(seed=1).check_game(name)
    with pytest.raises(ConfigError, match="unknown game"):
        greedy_heuristic("no_such_game")
    cls = cardcore.registry.game_class(cardcore.available_games()[0])
    monkeypatch.setattr(cls, "greedy", None)
    with pytest.raises(ConfigError, match="no heuristic") as info:
        greedy_heuristic(cls.name)
    assert info.value.option == "bots"
    with pytest.raises(ConfigError, match="no heuristic"):
        GreedyBot(seed=1).check_game(cls.name)
    RandomBot(seed=1).check_game(cls.name)              # random plays anything


def test_best_by_takes_the_highest_value_and_draws_only_to_break_a_tie():
    from cardcore._fast import Random
    from cardcore.game import best_by

    values = {3: 1.0, 5: 2.0, 9: 2.0 + 1e-12, 11: -4.0}
    untouched, used = Random(7), Random(7)
    assert best_by([3, 11], values.__getitem__, used) == 3          # no tie: no draw
    assert used.below(1000) == untouched.below(1000)
    picks = {best_by(np.array([3, 5, 9, 11]), values.__getitem__, Random(s)) for s in range(40)}
    assert picks == {5, 9}                                          # 1e-12 apart: a tie
    assert all(type(best_by(np.array([3, 5]), values.__getitem__, Random(s))) is int
               for s in range(3))
