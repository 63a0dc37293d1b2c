"""ISMCTSBot (api.md "Bots"): legal moves only, and blind to what its seat cannot see."""
from __future__ import annotations

import random

import pytest

import cardcore
from cardcore import new_game
from cardcore._search import ismcts_search, rollout_move
from cardcore.bots import ISMCTSBot, make_bot
from cardcore.bots.ismcts import sides_of

from invariants import hidden_twin

pytestmark = pytest.mark.slow       # searches of hundreds of iterations per move

GAMES = cardcore.available_games()


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("horizon, rollout, seed, iterations, moves", [
    (None, "game", 3, 30, 40),                    # the game's defaults
    ("round", "random", 5, 20, 15),
    ("match", "game", 5, 20, 15),
])
def test_ismcts_only_chooses_legal_moves(name, horizon, rollout, seed, iterations, moves):
    game = new_game(name, seed=seed)
    bot = ISMCTSBot(iterations=iterations, seed=seed, horizon=horizon, rollout=rollout)
    for _ in range(moves):
        if game.is_over:
            break
        action = bot.choose(game)
        assert action.id in game.legal_action_ids()
        game.apply(action)


@pytest.mark.parametrize("name", GAMES)
def test_rollout_policy_plays_only_legal_moves(name):
    """The rollout hook (uniform where a game has none) returns legal moves along whole
    games, whatever the phase."""
    for seed in range(2):
        game = new_game(name, seed=seed)
        chooser = random.Random(seed)
        for step in range(400):
            if game.is_over:
                break
            legal = game.legal_action_ids()
            move = rollout_move(game.state, step)
            assert move in legal
            # play on with the policy half the time, at random otherwise: more phases visited
            game.apply(move if chooser.random() < 0.5 else legal[chooser.randrange(len(legal))])


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("horizon", ["round", "match"])
def test_ismcts_chooses_the_same_when_only_hidden_cards_differ(name, horizon):
    """Two deals that differ only in cards the seat to move cannot see: the same seed gives
    the same search, move for move, so the bot cannot be reading the hidden cards."""
    differing = 0
    for trial in range(3):
        game, other, seat = hidden_twin(name, 4, trial)
        assert other.view(seat) == game.view(seat)
        # ... while the game itself differs: some other seat's view (or the stock) changed.
        differing += [game.view(p) for p in range(game.num_players)] != \
            [other.view(p) for p in range(other.num_players)] or game.state.all_cards() != other.state.all_cards()
        a = ISMCTSBot(iterations=200, seed=trial, horizon=horizon).choose_id(game)
        b = ISMCTSBot(iterations=200, seed=trial, horizon=horizon).choose_id(other)
        assert a == b
    assert differing


def test_ismcts_parameters_are_checked():
    for bad in ({"iterations": 0}, {"iterations": 2.5}, {"iterations": True},
                {"exploration": -1}, {"exploration": "x"}, {"horizon": "deal"},
                {"rollout": "smart"}, {"prior": -1}, {"prior": True}):
        with pytest.raises(ValueError):
            ISMCTSBot(**bad)
    assert isinstance(make_bot("ismcts", 1), ISMCTSBot)
    spec = make_bot("ismcts:iterations=50,horizon=round,rollout=random", 1)
    assert (spec.iterations, spec.horizon, spec.rollout) == (50, "round", "random")
    game = new_game("kings_stakes", seed=1)
    seat = game.current_player
    with pytest.raises(ValueError):
        ismcts_search(game.state, (seat + 1) % game.num_players, 10, 1)
    for bad in ({"horizon": "hand"}, {"rollout": "policy"}, {"sides": [0]}, {"sides": [0, 5]}, {"prior": -0.5},
                {"sides": [0, "1"]}):
        with pytest.raises(ValueError):
            ismcts_search(game.state, seat, 10, 1, **bad)


def test_every_game_declares_a_horizon_and_its_sides():
    for name in cardcore.available_games():
        cls = cardcore.registry.game_class(name)
        assert cls.search_horizon in ("round", "match")
        for config in cls.conformance_configs:
            game = new_game(name, seed=1, **config)
            sides = sides_of(game)
            assert len(sides) == game.num_players and set(sides) == set(range(len(set(sides))))


def test_going_out_wins_the_deal_with_the_round_horizon():
    """Kuzanasta with going out optional (KZ-3.3): a hand that can go out (KZ-7.1) wins the
    deal for sure, so every go-out move has mean win share 1 and one of them is chosen;
    ending the turn wins less."""
    greedy = make_bot("greedy", 1)
    for seed in range(40):
        game = new_game("kuzanasta", players=2, seed=seed, going_out="optional")
        while not game.is_over and not (game.phase == "declare"
                                         and len(game.legal_action_ids()) > 1):
            game.apply(greedy.choose_id(game))
        if not game.is_over:
            break
    else:
        pytest.fail("no declare-phase position with two sets found")
    stats = ismcts_search(game.state, game.current_player, 300, 1, 0.7, "round", "game")
    assert stats[0][0] != 160 and stats[0][2] == 1.0               # a go-out, won
    end_turn = [mean for action, visits, mean in stats if action == 160]
    assert end_turn and end_turn[0] < 1.0


def test_partners_share_the_win():
    """Manna's teams (MH-1.4): with sides, a team's hand win counts 1 for each partner;
    without, the win is split among the three winning seats (at most 1/3 each)."""
    game = new_game("manna", seed=3)
    seat = game.current_player
    alone = ismcts_search(game.state, seat, 200, 1, 0.7, "round", "game")
    together = ismcts_search(game.state, seat, 200, 1, 0.7, "round", "game", sides_of(game))
    assert max(mean for _, _, mean in alone) <= 1 / 3 + 1e-9
    assert max(mean for _, _, mean in together) > 1 / 3
