"""GreedyBot's Kuzanasta policy in the core (issue 22): ``state.greedy_move(rng)`` (the hook
``kz_greedy``) makes the same choice as the 0.2-0.3 Python heuristic, kuzanasta_greedy_reference.py (the
oracle), and draws the same numbers from the generator, in every position checked; it reads
only what the seat to move may know; GreedyBot plays it."""
from __future__ import annotations

import functools
import random
from collections import Counter
from typing import Any

import pytest
from kz_helpers import greedy_reference, stacked

import cardcore.bots
from cardcore import new_game
from cardcore._fast import Random
from cardcore.bots import GreedyBot, make_bot
from cardcore.cards import JOKER
from cardcore.game import Game
from cardcore.games.kuzanasta._state import (
    DISCARD_FIRST, DRAW_DISCARD, DRAW_STOCK, END_TURN, GO_OUT, GOD_DRAW_FIRST, GOD_LOOK,
    WAIT_BELOW,
)

# Every option value the heuristic branches on: the player count (the declare step waits
# 2 turns a seat), going_out (the declare step exists only with "optional"), sets (hands
# valued by 3 + 4 cards), god_draw (a God look and draw with "look", blind places with
# "position"); with the piles' pairing, recycling and short deals for the late positions.
CONFIGS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 2, "going_out": "optional"},
    {"players": 3, "going_out": "optional", "max_turns": 60},
    {"players": 4, "going_out": "optional", "pile_pairing": "adjacent", "reshuffle": True},
    {"players": 2, "sets": "three_and_four"},
    {"players": 3, "sets": "three_and_four", "going_out": "optional"},
    {"players": 4, "sets": "three_and_four", "going_out": "optional", "god_draw": "position"},
    {"players": 2, "god_draw": "position", "reshuffle": True, "deals": 2},
    {"players": 4, "god_draw": "position", "going_out": "optional", "max_turns": 120},
    {"players": 2, "going_out": "optional", "sets": "three_and_four", "reshuffle": True,
     "max_turns": 300},
]
GAMES_PER_CONFIG = 16
STEPS_PER_GAME = 400


def config_id(config: dict[str, Any]) -> str:
    return "-".join(f"{k}={v}" for k, v in config.items())


def assert_same(game: Game, seed: int, where: str) -> int:
    """The in-core choice and the oracle's, each from its own Random(seed): the same id,
    then the same next number (the same draws were made); returns the id."""
    core_rng, oracle_rng = Random(seed), Random(seed)
    core = game.state.greedy_move(core_rng)
    oracle = greedy_reference.choose(game, oracle_rng)
    if core != oracle:
        s: Any = game.state
        pytest.fail(f"{where}: in-core {core} != oracle {oracle} (phase {game.phase}, hand "
                    f"{s.hand(game.current_player)}, wild {s.wild_rank}, discards "
                    f"{s.discards()}, legal {game.legal_action_ids()[:12]}...)")
    assert core_rng.state == oracle_rng.state, where
    assert core_rng.next_u32() == oracle_rng.next_u32(), where
    return core


def what_is_covered(game: Game, choice: int, seen: Counter[str]) -> None:
    """Count the heuristic's branches a position exercises (checked below: none is left out)."""
    s: Any = game.state
    seat = game.current_player
    legal = game.legal_action_ids()
    hand = s.hand(seat)
    seen[game.phase] += 1
    if s.wild_rank is None:
        seen["no wild rank (joker turn-up, KZ-2.3)"] += 1
    if game.phase == "draw":
        pile = s.discards()[s.pile_of(seat)]
        if GOD_LOOK in legal:
            seen["God look offered"] += 1
        elif pile:
            top = pile[-1]
            if top == JOKER:
                seen["joker on the discard pile"] += 1
            elif top % 13 == s.wild_rank:
                seen["wild card on the discard pile"] += 1
            elif top in hand:
                seen["a copy of a held card on the discard pile"] += 1
            seen["takes the discard" if choice == DRAW_DISCARD else "takes the stock"] += 1
        if DRAW_STOCK not in legal:
            seen["own stock empty"] += 1
    elif game.phase == "god_draw":
        values = [greedy_reference.evaluate(hand + [a - GOD_DRAW_FIRST], s.wild_rank,
                                            game.options["sets"] == "three_and_four")
                  for a in legal]
        if values.count(max(values)) > 1:
            seen["God draw: equal best cards"] += 1
    elif game.phase == "discard":
        if choice == DISCARD_FIRST + JOKER:
            seen["discards the joker"] += 1
    elif game.phase == "declare":
        value = s.best_sets(seat)[0]
        if choice == GO_OUT:
            seen["goes out"] += 1
        elif value:
            seen["waits with two sets"] += 1


def sweep(config: dict[str, Any], games: int, steps: int, first_seed: int = 0
          ) -> Counter[str]:
    """Seeded games, greedy and random moves mixed (the share of greedy moves varies by game,
    so that deals run short and long); every position compared."""
    seen: Counter[str] = Counter()
    for seed in range(first_seed, first_seed + games):
        game = new_game("kuzanasta", seed=seed, **config)
        chooser = random.Random(seed)
        greedy_share = (0.95, 0.7, 0.4, 0.1)[seed % 4]
        for step in range(steps):
            if game.is_over:
                seen["match over"] += 1
                break
            choice = assert_same(game, seed * 1_000_003 + step,
                                 f"{config_id(config)} seed {seed} step {step}")
            what_is_covered(game, choice, seen)
            seen["positions"] += 1
            if game.state.turns_in_deal >= 100:
                seen["late in a deal (100 turns)"] += 1
            legal = game.legal_action_ids()
            game.apply(choice if chooser.random() < greedy_share
                       else legal[chooser.randrange(len(legal))])
    return seen


@functools.lru_cache(maxsize=None)
def default_sweep(index: int) -> Counter[str]:
    """The default run's sweep of CONFIGS[index], made once for the tests below."""
    return sweep(CONFIGS[index], GAMES_PER_CONFIG, STEPS_PER_GAME)


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=lambda i: config_id(CONFIGS[i]))
def test_the_core_chooses_as_the_python_heuristic(index):
    config = CONFIGS[index]
    seen = default_sweep(index)
    assert seen["positions"] >= 1500 and seen["draw"] and seen["discard"], seen
    if config.get("going_out") == "optional":
        assert seen["declare"] and seen["goes out"], seen
    if config.get("god_draw") != "position":
        assert seen["god_draw"] and seen["God look offered"], seen


def test_every_branch_of_the_heuristic_is_compared():
    """The configurations above together reach every branch, in over 20,000 positions."""
    seen: Counter[str] = Counter()
    for index in range(len(CONFIGS)):
        seen += default_sweep(index)
    assert seen["positions"] >= 20_000, seen
    for branch in ("no wild rank (joker turn-up, KZ-2.3)", "joker on the discard pile",
                   "wild card on the discard pile", "a copy of a held card on the discard pile",
                   "takes the discard", "takes the stock", "own stock empty",
                   "God draw: equal best cards", "discards the joker", "goes out",
                   "waits with two sets", "match over", "late in a deal (100 turns)"):
        assert seen[branch] > 0, (branch, seen)


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_the_core_chooses_as_the_python_heuristic_sweep(config):
    """Ten times the default games, other seeds."""
    seen = sweep(config, 10 * GAMES_PER_CONFIG, STEPS_PER_GAME, first_seed=1000)
    assert seen["positions"] >= 10_000, seen


# ---------------------------------------------------------------- blindness
@pytest.mark.parametrize("config", CONFIGS[::2], ids=config_id)
def test_hidden_cards_do_not_change_the_choice(config):
    """Worlds that differ from the game only in what the seat to move cannot see (KZ-8;
    ``sample_hidden``: the other hands, the stock places nobody knows, the set-aside pile;
    during its own God draw the stocks keep the cards its look showed, KZ-6.2) give the same
    choice and the same draws."""
    differing = compared = 0
    for seed in range(10):
        game = new_game("kuzanasta", seed=seed, **config)
        chooser = random.Random(seed)
        for step in range(300):
            if game.is_over:
                break
            seat = game.current_player
            if step % 3 == 0 or game.phase == "god_draw":
                world = game.sample_hidden(seat, 10_000 + step)
                assert world.view(seat) == game.view(seat)
                differing += world.state.all_cards() != game.state.all_cards() or \
                    [world.view(p) for p in range(world.num_players)] != \
                    [game.view(p) for p in range(game.num_players)]
                rng_game, rng_world = Random(step), Random(step)
                assert world.state.greedy_move(rng_world) == game.state.greedy_move(rng_game), \
                    (config, seed, step)
                assert rng_world.next_u32() == rng_game.next_u32()
                compared += 1
            legal = game.legal_action_ids()
            game.apply(game.state.greedy_move(Random(step)) if chooser.random() < 0.7
                       else legal[chooser.randrange(len(legal))])
    assert compared > 300 and differing > compared // 2, (compared, differing)


# ---------------------------------------------------------------- GreedyBot
@pytest.mark.parametrize("config", [{"players": 2}, {"players": 4, "going_out": "optional"},
                                    {"players": 3, "sets": "three_and_four", "deals": 3}],
                         ids=config_id)
def test_greedy_bot_plays_the_in_core_policy(config, monkeypatch):
    """Whole matches of GreedyBots (``make_bot("greedy", seed)``) move for move as the oracle
    with a generator seeded alike; the Python heuristic is not called."""
    bots = [make_bot("greedy", 7 + p) for p in range(config["players"])]
    oracles = [Random(7 + p) for p in range(config["players"])]

    def no_python_heuristic(name: str) -> Any:
        raise AssertionError("GreedyBot called the Python heuristic")

    monkeypatch.setattr(cardcore.bots, "greedy_heuristic", no_python_heuristic)
    moves = 0
    for seed in range(4):
        game = new_game("kuzanasta", seed=seed, **config)
        assert game.state.has_greedy and isinstance(bots[0], GreedyBot)
        while not game.is_over:
            seat = game.current_player
            choice = bots[seat].choose_id(game)
            assert choice == greedy_reference.choose(game, oracles[seat]), (seed, moves)
            assert bots[seat].rng.state == oracles[seat].state
            game.apply(choice)
            moves += 1
    assert moves > 100


# ---------------------------------------------------------------- the rules it plays by
def test_kz_6_2_the_god_holder_looks_then_takes_the_best_card():
    """KZ-6.2: with the joker the bot uses the God look, then takes the stock card that makes
    the best hand: a third queen (a face triple's potential, KZ-5.3), the lowest id of the
    equal queens."""
    g = stacked(2, 1, hands={0: ["JK", "7C", "7S", "QC", "QS", "2C", "9H"]},
                stocks=[["3D", "7D", "QH"]])
    assert assert_same(g, 1, "look") == GOD_LOOK
    g.apply(GOD_LOOK)
    queens = [a for a in g.legal_action_ids() if (a - GOD_DRAW_FIRST) % 13 == 11]
    assert assert_same(g, 1, "God draw") == min(queens)


def test_kz_3_1_the_discard_top_is_taken_when_it_helps():
    """KZ-3.1: the third queen on the discard pile is taken; a lone king is not (it would be
    the card to let go again, 50 card points, KZ-1.4): the stock."""
    hand = ["7C", "7S", "QC", "QS", "2C", "9H", "4D"]
    g = stacked(2, 1, hands={0: hand}, discard_tops=["QD"])
    assert assert_same(g, 1, "queen") == DRAW_DISCARD
    g = stacked(2, 1, hands={0: hand}, discard_tops=["KD"])
    assert assert_same(g, 1, "king") == DRAW_STOCK


def test_kz_3_3_small_sets_wait_while_the_deal_is_young():
    """KZ-3.3 with going_out="optional": two mixed number sets (10000, below WAIT_BELOW) end
    the turn during the first 2 turns a seat, then go out; a face set goes out at once."""
    g = stacked(2, 1, hands={0: ["9C", "9S", "5H", "8C", "8S", "5C", "KD"]},
                stocks=[["2D"]])                     # fives are wild (the turn-up 5D)
    g.apply("draw_stock")
    g.apply(assert_same(g, 1, "discard"))
    assert g.phase == "declare" and 0 < g.state.best_sets(0)[0] < WAIT_BELOW
    assert g.state.turns_in_deal < 4 and assert_same(g, 1, "young") == END_TURN
    g = stacked(2, 1, hands={0: ["QC", "QS", "QH", "8C", "8S", "8H", "KD"]}, stocks=[["2D"]])
    g.apply("draw_stock")
    g.apply(assert_same(g, 1, "discard"))
    assert g.state.best_sets(0)[0] >= WAIT_BELOW and assert_same(g, 1, "go out") == GO_OUT


def test_kz_7_1_three_and_four_lets_the_joker_go_to_go_out():
    """KZ-7.1 with sets="three_and_four": a 3-card and a 4-card set take all seven cards and
    the joker never belongs to a set (KZ-4.3), so the bot discards the joker (KZ-6.4) when the
    other seven make the declaration: worth more than the joker's 900."""
    g = stacked(2, 1, hands={0: ["JK", "7C", "7S", "7D", "QC", "QS", "QH"]}, stocks=[["QD"]],
                sets="three_and_four")
    g.apply("draw_stock")
    assert assert_same(g, 1, "discard") == DISCARD_FIRST + JOKER
