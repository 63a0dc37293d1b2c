"""GreedyBot's Kings' Stakes heuristic (cardcore.games.kings_stakes.greedy, the in-core policy)."""
from __future__ import annotations

import pytest
from ks_helpers import greedy_reference, ks, legal

from cardcore import new_game
from cardcore.bots import GreedyBot
from cardcore.games.kings_stakes import KingsStakes
from cardcore.simulation import simulate


def play_out(game, bot):
    while not game.is_over:
        game.apply(bot.choose(game))


@pytest.mark.parametrize("config", KingsStakes.conformance_configs,
                         ids=lambda c: "-".join(f"{k}={v}" for k, v in sorted(c.items())))
def test_greedy_plays_every_kings_stakes_configuration(config):
    for seed in range(3):
        game = new_game("kings_stakes", seed=seed, **config)
        play_out(game, GreedyBot(seed=seed))
        assert game.is_over and game.winners


def greedy_choice(game, seed=0) -> str:
    return str(GreedyBot(seed=seed).choose(game))


def test_greedy_plays_four_kings_when_it_can():
    game = ks(hands={0: ["KC", "KS", "KD", "KH"]})
    assert "play KC KS KD KH" in legal(game)
    assert greedy_choice(game) == "play KC KS KD KH"


def test_greedy_answers_instead_of_taking():
    game = ks(hands={0: ["9C", "2D", "3H", "4S"], 1: ["10D", "2S", "3C", "4D"]})
    game.apply("play 9C")
    assert "take" in legal(game) and "play 10D" in legal(game)
    assert greedy_choice(game) != "take"


def test_greedy_takes_only_when_forced():
    game = ks(hands={0: ["AC", "2D", "3H", "4S"], 1: ["2S", "3C", "4D", "5D"]})
    game.apply("play AC")
    assert legal(game) == ["take"]
    assert greedy_choice(game) == "take"


def test_greedy_clears_a_full_table_with_a_king_rather_than_take():
    game = ks(hands={0: ["9C", "AD", "3H", "4S"], 1: ["10D", "2S", "3C", "KD"],
                     2: ["AH", "2C", "5C", "6C"], 3: ["2H", "3D", "4C", "5S"]})
    game.apply("play 9C")
    game.apply("play 10D")
    game.apply("play AH")
    game.apply("take")          # seat 3 cannot answer 11 and takes, then leads
    game.apply("play 5S")
    game.apply("play AD")       # seat 0: stake 11 on a 2-card table
    # Seat 1 holds 2S 3C 7C KD: no number answers 11; the king sends the table out of
    # play (KS-5.3), which beats taking it into the penalty pile.
    assert legal(game) == ["play KD", "take"]
    assert greedy_choice(game) == "play KD"


def test_greedy_leads_a_cheap_card_and_keeps_its_tens():
    game = ks(hands={0: ["10C", "10S", "2H", "3D"]})
    assert "play 10C 10S" in legal(game)
    assert greedy_choice(game) == "play 3D"           # tens answer high stakes later


def test_greedy_doubles_the_stake_rather_than_spend_a_higher_card():
    game = ks(hands={0: ["9C", "2D", "3H", "4S"], 1: ["9D", "10D", "AD", "2S"]})
    game.apply("play 9C")
    assert {"play 9D", "play 10D", "play AD"} <= set(legal(game))
    assert greedy_choice(game) == "play 9D"           # stake 18: the next player must find 18+


def test_greedy_keeps_jokers_when_a_natural_card_answers():
    game = ks(hands={0: ["8C", "2D", "3H", "4S"], 1: ["9D", "JK", "2S", "3C"]})
    game.apply("play 8C")
    choice = greedy_choice(game)
    assert "JK" not in choice and choice != "take"


def test_greedy_always_refills_with_manual_refill():
    game = ks(hands={0: ["8C", "2D", "3H", "4S"]}, refill="manual")
    game.apply("play 8C")
    assert legal(game) == ["refill", "end_turn"]
    assert greedy_choice(game) == "refill"


def test_greedy_sheds_two_cards_once_the_stock_is_empty():
    evaluate = greedy_reference.evaluate          # the oracle of the in-core policy
    single = ("play", "number", 7, ("7C",))
    pair = ("play", "number", 14, ("7C", "7S"))
    assert evaluate(pair, 0, 0, 0) - evaluate(single, 0, 0, 0) > \
        evaluate(pair, 0, 0, 10) - evaluate(single, 0, 0, 10)


@pytest.mark.slow
def test_greedy_beats_random_clearly_over_2000_seeded_games():
    # One GreedyBot against three RandomBots: a random seat wins about 25% of the time.
    summary = simulate("kings_stakes", 2000, bots="greedy,random,random,random", seed=2026)
    greedy, random_ = summary["by_bot"]["greedy"], summary["by_bot"]["random"]
    assert summary["games"] == 2000
    assert greedy["win_rate"] > 0.85                   # measured 94.5 %
    assert random_["win_rate"] < 0.15                  # measured 3.9 % per random seat
    assert greedy["mean_score"] < random_["mean_score"] - 4
    # Head to head with 2 players, from either seat.
    for bots in ("greedy,random", "random,greedy"):
        duel = simulate("kings_stakes", 500, players=2, bots=bots, seed=7)
        assert duel["by_bot"]["greedy"]["win_rate"] > 0.9      # measured 99.2 %
        assert duel["by_bot"]["random"]["win_rate"] < 0.4      # measured 16-17 % (ties count)
