"""GreedyBot's Gin Rummy heuristic (cardcore.games.gin_rummy.greedy, the in-core policy)."""
from __future__ import annotations

import pytest

from cardcore import new_game
from cardcore.bots import GreedyBot
from cardcore.cards import card_id
from cardcore.games.gin_rummy import GinRummy
from cardcore.simulation import simulate

from gr_helpers import ce, greedy_reference, legal, os_id

_points, evaluate = greedy_reference._points, greedy_reference.evaluate   # the oracle


def play_out(game, bot):
    while not game.is_over:
        game.apply(bot.choose(game))


def greedy_choice(game, seed=0) -> str:
    return str(GreedyBot(seed=seed).choose(game))


@pytest.mark.parametrize("config", GinRummy.conformance_configs,
                         ids=lambda c: "-".join(f"{k}={v}" for k, v in sorted(c.items())) or "default")
def test_greedy_plays_every_gin_rummy_configuration(config):
    for seed in range(3):
        game = new_game("gin_rummy", seed=seed, **config)
        play_out(game, GreedyBot(seed=seed))
        assert game.is_over and game.winners


def test_greedy_plays_a_matching_card_before_an_eight_and_the_dearest_first():
    game = ce(hands={1: ["7H", "KH", "8D", "3C", "4C"]}, turn_up=["5H"])
    assert legal(game) == ["play 7H", "play 8D", "play KH", "draw"]
    assert greedy_choice(game) == "play KH"                  # 10 penalty points, not 7


def test_greedy_keeps_a_suit_it_can_follow():
    game = ce(hands={1: ["7H", "7C", "2C", "3C", "4D"]}, turn_up=["7S"])
    assert greedy_choice(game) == "play 7C"                  # clubs: two more to follow


def test_greedy_plays_an_eight_rather_than_draw_and_nominates_its_longest_suit():
    game = ce(hands={1: ["8D", "2C", "3C", "4H", "6S"]}, turn_up=["5D"])
    assert legal(game) == ["play 8D", "draw"]
    assert greedy_choice(game) == "play 8D"
    game.apply("play 8D")
    assert greedy_choice(game) == "nominate C"


def test_greedy_draws_only_when_nothing_plays_then_plays_what_it_drew():
    game = ce(hands={1: ["2C", "3C", "4C", "6C", "9C"]}, turn_up=["5H"], stock=["KD", "6H"])
    assert legal(game) == ["draw"]
    game.apply(greedy_choice(game))
    assert legal(game) == ["draw"]
    game.apply(greedy_choice(game))
    assert legal(game) == ["play 6H", "draw"] and greedy_choice(game) == "play 6H"


def test_greedy_plays_rather_than_pass_and_passes_when_nothing_else_is_legal():
    game = ce(hands={1: ["2C", "3C", "4C", "6C", "9C"]}, turn_up=["5H"], stock=["6H"],
              max_draw_cards=1)
    game.apply("draw")
    assert legal(game) == ["play 6H", "pass"] and greedy_choice(game) == "play 6H"
    stuck = ce(hands={1: ["2C", "3C", "4C", "6C", "9C"]}, turn_up=["5H"], stock=["KD"],
               max_draw_cards=1)
    stuck.apply("draw")
    assert legal(stuck) == ["pass"] and greedy_choice(stuck) == "pass"


def test_greedy_answers_a_debt_with_a_two():
    hands = {1: ["2D", "7H", "JS", "QS", "KS"], 2: ["2S", "KC", "5D", "9H", "10H"]}
    game = ce(hands=hands, turn_up=["3D"], use_special_cards=True)
    game.apply("play 2D")
    assert legal(game) == ["play 2S", "draw"] and greedy_choice(game) == "play 2S"


def test_greedy_stops_a_next_player_close_to_going_out_with_special_cards():
    hand = [card_id(c) for c in ("QH", "KH", "2H", "3C")]
    table = {"points": _points("face"), "plays_left": 50, "special": True,
             "next_size": 5, "previous_size": 5}
    values = {c: evaluate(os_id(c), hand, table) for c in ("QH", "KH", "2H")}
    assert values["KH"] == values["QH"] > values["2H"]       # far from out: shed points
    table["next_size"] = 1
    values = {c: evaluate(os_id(c), hand, table) for c in ("QH", "KH", "2H")}
    assert values["2H"] > values["QH"] > values["KH"]         # make them draw, or skip them
    ace = [card_id(c) for c in ("AH", "KH")]
    table["previous_size"] = 6
    assert evaluate(os_id("AH"), ace, table) > evaluate(os_id("KH"), ace, table)
    table["special"] = False
    assert evaluate(os_id("AH"), ace, table) == evaluate(os_id("KH"), ace, table)


def test_greedy_sheds_its_dearest_cards_eights_included_before_max_turns():
    hand = [card_id(c) for c in ("8H", "KH", "3H")]
    table = {"points": _points("face"), "plays_left": 50, "special": False,
             "next_size": 5, "previous_size": 5}
    assert evaluate(os_id("KH"), hand, table) > evaluate(os_id("8H"), hand, table)
    table["plays_left"] = 1
    assert evaluate(os_id("8H"), hand, table) > evaluate(os_id("KH"), hand, table)


def test_greedy_beats_random_clearly_over_hundreds_of_seeded_games():
    # One GreedyBot against four RandomBots: a random seat wins about 20% of the games.
    summary = simulate("gin_rummy", 1000, bots="greedy,random,random,random,random", seed=2026)
    greedy, random_ = summary["by_bot"]["greedy"], summary["by_bot"]["random"]
    assert summary["games"] == 1000
    assert greedy["win_rate"] > 0.5                            # measured 63.3 %
    assert random_["win_rate"] < 0.15                          # measured 9.8 % per random seat
    assert greedy["mean_score"] < random_["mean_score"] - 10   # 7.4 vs 28.7 points
    # Head to head with 2 players, from either seat; and with special cards and reshuffles.
    for bots in ("greedy,random", "random,greedy"):
        duel = simulate("gin_rummy", 500, players=2, bots=bots, seed=7)
        assert duel["by_bot"]["greedy"]["win_rate"] > 0.85    # measured 91.8 / 92.2 %
    special = simulate("gin_rummy", 500, players=3, bots="greedy,random,random", seed=8,
                       use_special_cards=True, reshuffle=True)
    assert special["by_bot"]["greedy"]["win_rate"] > 0.65     # measured 83 % (1/3 by chance)
