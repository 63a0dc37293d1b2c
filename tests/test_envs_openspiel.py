"""The OpenSpiel adapter: OpenSpiel's own random_sim_test (with serialization) for every game,
its Python IS-MCTS playing a full Kuzanasta deal, and what the adapter promises on top
(GameInfo from the cardcore game, the observer, resample_from_infostate, serialization)."""
from __future__ import annotations

import sys

import numpy as np
import pytest

if sys.version_info < (3, 11):      # open_spiel has no wheels before CPython 3.11
    pytest.importorskip("pyspiel")
import pyspiel  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import cardcore
from cardcore.envs import openspiel
from cardcore.envs._common import observation_text
from cardcore.registry import game_class

pytestmark = pytest.mark.slow       # random_sim_test on every configuration: minutes

GAMES = cardcore.available_games()
NAMES = openspiel.register()
ROLLOUT_CAP = 400      # a random Kuzanasta deal: median 210 actions, 1 in 200 over 1,000


def deal(state, rng):
    """Play the seed chance nodes."""
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.integers(len(outcomes))][0])
    return state


def random_moves(state, rng, count):
    for _ in range(count):
        if state.is_terminal():
            break
        actions = state.legal_actions()
        state.apply_action(actions[rng.integers(len(actions))])
    return state


def test_register_names_every_game_and_is_idempotent():
    assert NAMES == [f"cardcore_{name}" for name in GAMES]
    assert openspiel.register() == NAMES
    for name in NAMES:
        assert name in pyspiel.registered_names()


def spiel_game(name, options):
    """The pyspiel game for a cardcore configuration (None options as -1)."""
    params = {key: -1 if value is None else value for key, value in options.items()}
    return pyspiel.load_game(openspiel.short_name(name), params)


CONFIGS = [(name, dict(config)) for name in GAMES for config in game_class(name).conformance_configs]


@pytest.mark.parametrize("config", CONFIGS, ids=[f"{n}-{c}" for n, c in CONFIGS])
def test_openspiel_random_sim_test_passes_with_serialization(config):
    name, options = config
    game = spiel_game(name, options)
    assert game.num_players() == cardcore.new_game(name, **options).num_players
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_random_sim_test_passes_on_the_default_match(name):
    # A default Manna match (to 20,000 points) is about 12,000 random actions: ~1 minute here.
    game = pyspiel.load_game(openspiel.short_name(name))
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("name", GAMES)
def test_game_type_and_info_come_from_the_cardcore_game(name):
    game = pyspiel.load_game(openspiel.short_name(name))
    probe = cardcore.new_game(name, seed=0)
    game_type = game.get_type()
    assert game_type.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game_type.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game_type.provides_observation_tensor and game_type.provides_observation_string
    assert game_type.provides_information_state_string
    assert game_type.provides_information_state_tensor
    assert game.num_players() == probe.num_players
    assert game.num_distinct_actions() == probe.num_distinct_actions
    assert (game.min_utility(), game.max_utility()) == probe.utility_range
    assert game.max_game_length() == min(probe.max_game_length, 2 ** 31 - 1)
    assert game.observation_tensor_shape() == list(probe.observation_shape)
    assert game.max_chance_outcomes() == openspiel.SEED_OUTCOMES


def test_parameters_reach_the_game_and_minus_one_means_the_default():
    game = pyspiel.load_game("cardcore_kings_stakes(players=3,scoring=cards,first_player=2)")
    state = deal(game.new_initial_state(), np.random.default_rng(0))
    cg = state.cardcore_game
    assert cg.num_players == 3 and cg.options["scoring"] == "cards" and cg.current_player == 2
    default = deal(pyspiel.load_game("cardcore_kings_stakes").new_initial_state(),
                   np.random.default_rng(0))
    assert default.cardcore_game.options["first_player"] is None
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game("cardcore_kings_stakes(colour=red)")


def test_the_seed_is_drawn_by_chance_and_fixes_the_match():
    game = pyspiel.load_game("cardcore_kings_stakes")
    a, b = game.new_initial_state(), game.new_initial_state()
    assert a.is_chance_node() and a.current_player() == pyspiel.PlayerId.CHANCE
    assert len(a.chance_outcomes()) == openspiel.SEED_OUTCOMES
    for _ in range(openspiel.SEED_CHANCE_NODES):
        a.apply_action(17)
        b.apply_action(17)
    assert not a.is_chance_node()
    assert a.cardcore_game.to_json() == b.cardcore_game.to_json()
    c = game.new_initial_state()
    for _ in range(openspiel.SEED_CHANCE_NODES):
        c.apply_action(18)
    assert c.cardcore_game.view(0) != a.cardcore_game.view(0)


@pytest.mark.parametrize("name", GAMES)
def test_observer_tensor_and_string_are_the_games(name):
    game = pyspiel.load_game(openspiel.short_name(name))
    rng = np.random.default_rng(1)
    state = random_moves(deal(game.new_initial_state(), rng), rng, 25)
    cg = state.cardcore_game
    for seat in range(game.num_players()):
        np.testing.assert_array_equal(np.array(state.observation_tensor(seat), np.float32),
                                      cg.observation_tensor(seat))
        assert state.observation_string(seat) == observation_text(cg, seat)
    observation = pyspiel_observation(game)
    observation.set_from(state, 0)
    assert list(observation.dict) == [piece for piece, _, _ in cg.observation_pieces]


@pytest.mark.parametrize("name", GAMES)
def test_information_states_are_the_games(name):
    game = pyspiel.load_game(openspiel.short_name(name))
    rng = np.random.default_rng(2)
    state = game.new_initial_state()
    assert state.information_state_string(0) == ""
    state = random_moves(deal(state, rng), rng, 25)
    cg = state.cardcore_game
    assert game.information_state_tensor_shape() == list(cg.information_state_shape)
    for seat in range(game.num_players()):
        assert state.information_state_string(seat) == cg.information_state_string(seat)
        np.testing.assert_array_equal(np.array(state.information_state_tensor(seat), np.float32),
                                      cg.information_state_tensor(seat))
    from open_spiel.python.observation import INFO_STATE_OBS_TYPE, make_observation
    observation = make_observation(game, INFO_STATE_OBS_TYPE)
    observation.set_from(state, 1)
    assert list(observation.dict) == [piece for piece, _, _ in cg.information_state_pieces]


def test_outcome_sampling_mccfr_runs_and_its_average_policy_plays():
    # The bar: 1,000 iterations of OpenSpiel's outcome-sampling MCCFR on Crazy
    # Eights for two, through the adapter's perfect-recall information states.
    from open_spiel.python.algorithms import outcome_sampling_mccfr
    game = pyspiel.load_game(openspiel.short_name("crazy_eights"), {"players": 2})
    np.random.seed(0)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(1000):
        solver.iteration()
    average = solver.average_policy()
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    # Every iteration's two episodes reach new information states (each deal is new: the
    # seed has 63 bits), so the played match meets unlearned ones (uniform there).
    assert len(solver._infostates) >= 1000
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.integers(openspiel.SEED_OUTCOMES)))
            continue
        probabilities = average.action_probabilities(state)
        assert sorted(probabilities) == state.legal_actions()
        assert abs(sum(probabilities.values()) - 1.0) < 1e-9
        state.apply_action(max(probabilities, key=probabilities.get))
    assert state.cardcore_game.is_over and len(state.returns()) == 2


def pyspiel_observation(game):
    from open_spiel.python.observation import make_observation
    return make_observation(game)


@pytest.mark.parametrize("name", GAMES)
def test_resample_from_infostate_keeps_what_the_player_sees(name):
    game = pyspiel.load_game(openspiel.short_name(name))
    rng = np.random.default_rng(2)
    state = random_moves(deal(game.new_initial_state(), rng), rng, 20)
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differs = False
    for _ in range(5):
        world = state.resample_from_infostate(player, sampler)
        assert world.current_player() == player
        assert world.observation_string(player) == state.observation_string(player)
        assert world.observation_tensor(player) == state.observation_tensor(player)
        assert world.legal_actions() == state.legal_actions()
        differs |= any(world.cardcore_game.view(p) != state.cardcore_game.view(p)
                       for p in range(game.num_players()) if p != player)
        with pytest.raises(Exception, match="cannot be saved"):
            pyspiel.serialize_game_and_state(game, world)
    assert differs                  # hidden cards really were redealt
    assert state.cardcore_game.to_json()     # the real state is untouched and savable


@pytest.mark.parametrize("name", GAMES)
def test_serialized_states_continue_identically(name):
    game = pyspiel.load_game(openspiel.short_name(name))
    rng = np.random.default_rng(3)
    state = random_moves(deal(game.new_initial_state(), rng), rng, 30)
    text = pyspiel.serialize_game_and_state(game, state)
    _, copy = pyspiel.deserialize_game_and_state(text)
    assert str(copy) == str(state) and copy.history() == state.history()
    moves = np.random.default_rng(4)
    again = np.random.default_rng(4)
    random_moves(state, moves, 10 ** 6)
    random_moves(copy, again, 10 ** 6)
    assert copy.returns() == state.returns() and copy.history() == state.history()


def play_with_ismcts(game_string, simulations, seed=0):
    """Every seat played by OpenSpiel's Python IS-MCTS (random rollouts, capped so that a
    rare very long deal keeps the test short)."""
    game = pyspiel.load_game(game_string)
    rs = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(1, rs, max_length=ROLLOUT_CAP)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0,
                           max_simulations=simulations, random_state=rs,
                           use_observation_string=True, allow_inconsistent_action_sets=True)
    state = deal(game.new_initial_state(), np.random.default_rng(seed))
    moves = 0
    while not state.is_terminal():
        state.apply_action(bot.step(state))
        moves += 1
    return state, moves


def test_openspiel_ismcts_plays_a_full_kuzanasta_deal():
    state, moves = play_with_ismcts("cardcore_kuzanasta(deals=1)", simulations=6)
    game = state.cardcore_game
    assert game.is_over
    assert sum(event["event"] == "round_end" for event in game.history) == 1     # one deal
    assert moves == len(state.history()) - openspiel.SEED_CHANCE_NODES
    assert state.returns() == game.returns()
    assert all(state.get_game().min_utility() <= r <= state.get_game().max_utility()
               for r in state.returns())
