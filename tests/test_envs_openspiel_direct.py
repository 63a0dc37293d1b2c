"""The OpenSpiel adapter answers Python callers itself (observation and information-state
tensors, legal actions: issue 33, item 3, the adapter's speed): every answer equals pyspiel's
own C++ path for the same state, at the seed chance nodes, at every decision and at the end."""
from __future__ import annotations

import sys

import numpy as np
import pytest

if sys.version_info < (3, 11):      # open_spiel has no wheels before CPython 3.11
    pytest.importorskip("pyspiel")
import pyspiel  # noqa: E402
from open_spiel.python import rl_environment  # noqa: E402

from cardcore.envs import openspiel  # noqa: E402
from cardcore.registry import game_classes  # noqa: E402

openspiel.register()
Base = pyspiel.State


def same_answers(state, players):
    for p in range(players):
        assert state.observation_tensor(p) == Base.observation_tensor(state, p)
        assert state.information_state_tensor(p) == Base.information_state_tensor(state, p)
        assert state.legal_actions(p) == Base.legal_actions(state, p)
        assert type(state.observation_tensor(p)) is list
    assert state.legal_actions() == Base.legal_actions(state)
    assert state.chance_outcomes() == Base.chance_outcomes(state)
    if not state.is_chance_node() and not state.is_terminal():
        assert state.observation_tensor() == Base.observation_tensor(state)
        assert state.legal_actions(np.int64(0)) == Base.legal_actions(state, 0)


@pytest.mark.parametrize("name,players,params", [
    ("crazy_eights", 3, {"max_turns": 12}),                  # a match that ends in 150 steps
    *[(cls.name, cls.short_match.players, {}) for cls in game_classes()]])
def test_direct_answers_equal_pyspiels_path(name, players, params):
    game = pyspiel.load_game(openspiel.short_name(name), {"players": players, **params})
    rng = np.random.default_rng(players)
    state = game.new_initial_state()
    for step in range(150):
        same_answers(state, players)
        if state.is_terminal():
            break
        actions = state.legal_actions()
        state.apply_action(int(actions[rng.integers(len(actions))]))
    if params:                              # a short match: its end was checked too
        assert state.is_terminal()
    same_answers(state.clone(), players)
    with pytest.raises(Exception):          # pyspiel's own check: no such seat
        state.observation_tensor(players)


def test_rl_environment_plays_on_the_direct_answers():
    env = rl_environment.Environment(pyspiel.load_game("cardcore_crazy_eights",
                                                       {"players": 2}))
    step = env.reset()
    rng = np.random.default_rng(0)
    while not step.last():
        p = step.observations["current_player"]
        legal = step.observations["legal_actions"][p]
        state = env.get_state
        assert step.observations["info_state"][p] == Base.information_state_tensor(state, p)
        step = env.step([int(legal[rng.integers(len(legal))])])
    assert env.get_state.is_terminal() and len(step.rewards) == 2
