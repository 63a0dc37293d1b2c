"""ISMCTSBot (api.md "Bots"): legal moves only, and blind to what its seat cannot see."""
from __future__ import annotations

import random

import pytest

import cardcore
from cardcore import new_game
from cardcore.bots import ISMCTSBot, make_bot
from cardcore.cards import card_str

from invariants import composition

pytestmark = pytest.mark.slow       # searches of hundreds of iterations per move

GAMES = cardcore.available_games()


@pytest.mark.parametrize("name", GAMES)
def test_ismcts_only_chooses_legal_moves(name):
    game = new_game(name, seed=3)
    bot = ISMCTSBot(iterations=30, seed=3)
    for _ in range(40):
        if game.is_over:
            break
        action = bot.choose(game)
        assert action.id in game.legal_action_ids()
        game.apply(action)


@pytest.mark.parametrize("name", GAMES)
def test_ismcts_chooses_the_same_when_only_hidden_cards_differ(name):
    """Two deals that differ only in cards the seat to move cannot see: the same seed gives
    the same search, move for move, so the bot cannot be reading the hidden cards."""
    probe = new_game(name, seed=4)
    cards = composition(probe)
    differing = 0
    for trial in range(3):
        deck = [card_str(c) for c in random.Random(trial).sample(cards, len(cards))]
        game = new_game(name, seed=4, deck=deck)
        seat = game.current_player
        hidden = game.hidden_deck_positions(seat)
        rng = random.Random(trial)
        swapped = list(deck)
        for _ in range(6):
            i, j = rng.sample(hidden, 2)
            swapped[i], swapped[j] = swapped[j], swapped[i]
        other = new_game(name, seed=4, deck=swapped)
        assert other.view(seat) == game.view(seat)
        # ... while the game itself differs: some other seat's view (or the stock) changed.
        differing += [game.view(p) for p in range(game.num_players)] != \
            [other.view(p) for p in range(other.num_players)] or game.state.all_cards() != other.state.all_cards()
        a = ISMCTSBot(iterations=200, seed=trial).choose_id(game)
        b = ISMCTSBot(iterations=200, seed=trial).choose_id(other)
        assert a == b
    assert differing


def test_ismcts_parameters_are_checked():
    for bad in ({"iterations": 0}, {"iterations": 2.5}, {"iterations": True},
                {"exploration": -1}, {"exploration": "x"}):
        with pytest.raises(ValueError):
            ISMCTSBot(**bad)
    assert isinstance(make_bot("ismcts", 1), ISMCTSBot)
    game = new_game("kings_stakes", seed=1)
    from cardcore._search import ismcts_search
    with pytest.raises(ValueError):
        ismcts_search(game.state, (game.current_player + 1) % game.num_players, 10, 1)
