"""GreedyBot's in-core Crazy Eights policy (``CE_HOOKS.greedy``, kernel.c's section
"GreedyBot's policy") against its oracle, the Python heuristic of 0.2-0.3
(``<game>_greedy_reference.py``): the same choice and the same draws in every position."""
from __future__ import annotations

import random
from collections import Counter

import pytest
from ce_helpers import ce, greedy_reference, legal

from cardcore import new_game
from cardcore._fast import Random
from cardcore.bots import GreedyBot, make_bot
from cardcore.games.crazy_eights._state import DRAW, NOMINATE_FIRST, PASS, to_os_index

oracle = greedy_reference

# Every option value the heuristic branches on (scoring: the points, CE-8.1 / CE-8.2;
# use_special_cards: the bonuses, CE-4; max_turns: the end game, CE-7.2), one and two decks
# (CE-1.2: copies of a card in one hand), 2 to 15 players; positions per configuration.
CONFIGS = [
    ({"players": 2}, 3000),
    ({"players": 3, "use_special_cards": True}, 3000),
    ({"players": 4, "scoring": "openspiel", "max_turns": 12, "max_draw_cards": 1}, 3000),
    ({"players": 5, "use_special_cards": True, "scoring": "openspiel", "max_turns": 30}, 3000),
    ({"players": 6, "reshuffle": True, "max_turns": 40}, 2500),
    ({"players": 8, "use_special_cards": True, "reshuffle": True, "max_draw_cards": 2}, 2500),
    ({"players": 15, "use_special_cards": True, "reshuffle": True, "scoring": "openspiel"},
     2000),
    ({"players": 2, "use_special_cards": True, "max_turns": 20, "max_draw_cards": 3}, 2000),
]


def config_name(options: dict) -> str:
    return "-".join(f"{k}={v}" for k, v in sorted(options.items()))


def same_choice_and_draws(game, seed: int) -> tuple[int, bool]:
    """The in-core move and the oracle's from generators seeded alike; both generators end in
    the same state. Returns the move and whether it drew (a tie was broken)."""
    core_rng, oracle_rng = Random(seed), Random(seed)
    core = game.state.greedy_move(core_rng)
    expected = oracle.choose(game, oracle_rng)
    assert core == expected, (game.to_json(), seed)
    after = core_rng.next_u32()
    assert after == oracle_rng.next_u32(), (game.to_json(), seed)
    return core, after != Random(seed).next_u32()


def sweep(options: dict, positions: int) -> Counter:
    """Seeded games mixing the greedy move and uniform random moves (so that positions are
    varied and reach the end of hands); every position checked."""
    seen: Counter = Counter()
    game_seed = 0
    special = options.get("use_special_cards", False)
    while seen["positions"] < positions:
        game = new_game("crazy_eights", seed=game_seed, **options)
        mix = random.Random(game_seed)
        greedy_share = (0.2, 0.5, 0.9)[game_seed % 3]
        while not game.is_over and seen["positions"] < positions:
            ids = game.legal_action_ids()
            state = game.state
            seat, players = state.current_player, game.num_players
            sizes = state.hand_sizes()
            hand = state.hand(seat)
            move, drew = same_choice_and_draws(game, mix.randrange(1 << 30))
            seen["positions"] += 1
            seen["tie broken by a draw"] += drew
            seen["CE-3.3: nominate"] += ids[0] >= NOMINATE_FIRST
            seen["CE-5.1: draw chosen"] += move == DRAW
            seen["CE-5.2: pass legal"] += PASS in ids
            seen["CE-7.2: 3 plays left or fewer"] += \
                game.options["max_turns"] - state.plays <= 3 and len(ids) > 1
            seen["CE-4: next player close to going out"] += \
                special and sizes[(seat + state.direction) % players] <= 2 and len(ids) > 1
            seen["CE-4.3: a debt to answer"] += state.draw_two_owed > 0 and len(ids) > 1
            seen["CE-1.2: copies of a playable card in the hand"] += any(
                i < 52 and hand.count(c) > 1 for c in set(hand) for i in [to_os_index(c)]
                if i in ids)
            game.apply(move if mix.random() < greedy_share else ids[mix.randrange(len(ids))])
        seen["games"] += 1
        seen["hands finished"] += game.is_over
        game_seed += 1
    return seen


@pytest.mark.parametrize("options,positions", CONFIGS, ids=[config_name(c) for c, _ in CONFIGS])
def test_in_core_greedy_equals_the_python_heuristic(options, positions):
    seen = sweep(options, positions)
    assert seen["positions"] == positions
    assert seen["tie broken by a draw"] > 0 and seen["hands finished"] > 0
    for rule in ("CE-3.3: nominate", "CE-5.1: draw chosen", "CE-5.2: pass legal"):
        assert seen[rule] > 0, rule
    if options.get("max_turns", 100) <= 40:
        assert seen["CE-7.2: 3 plays left or fewer"] > 0
    if options.get("use_special_cards"):
        assert seen["CE-4: next player close to going out"] > 0
        assert seen["CE-4.3: a debt to answer"] > 0
    if options["players"] > 5:
        assert seen["CE-1.2: copies of a playable card in the hand"] > 0


def test_the_sweep_checks_at_least_20000_positions():
    assert sum(n for _, n in CONFIGS) >= 20_000


@pytest.mark.slow
@pytest.mark.parametrize("options,positions", CONFIGS, ids=[config_name(c) for c, _ in CONFIGS])
def test_in_core_greedy_equals_the_python_heuristic_longer(options, positions):
    seen = sweep(options, 10 * positions)
    assert seen["positions"] == 10 * positions


@pytest.mark.parametrize("options", [{"players": 2}, {"players": 4, "use_special_cards": True},
                                     {"players": 7, "use_special_cards": True}])
def test_in_core_greedy_is_blind_to_hidden_cards(options):
    """Worlds redealt with ``sample_hidden`` (the other hands and the stock differ) give the
    same choice and the same draws as the real game, for the seat to move."""
    differing = checked = 0
    for seed in range(40):
        game = new_game("crazy_eights", seed=seed, **options)
        mix = random.Random(seed)
        for _ in range(mix.randrange(40)):
            if game.is_over:
                break
            ids = game.legal_action_ids()
            game.apply(ids[mix.randrange(len(ids))])
        if game.is_over:
            continue
        seat = game.current_player
        for k in range(4):
            world = game.sample_hidden(seat, 100 * seed + k)
            assert world.view(seat) == game.view(seat)
            differing += world.state.all_cards() != game.state.all_cards() or any(
                world.view(p) != game.view(p) for p in range(game.num_players) if p != seat)
            for tie_seed in range(3):
                a, b = Random(tie_seed), Random(tie_seed)
                assert world.state.greedy_move(a) == game.state.greedy_move(b)
                assert a.next_u32() == b.next_u32()
                checked += 1
    assert checked > 300 and differing > 100


@pytest.mark.parametrize("options", [{"players": 2}, {"players": 4, "use_special_cards": True},
                                     {"players": 6, "reshuffle": True, "scoring": "openspiel"}])
def test_greedy_bot_plays_the_in_core_policy(options):
    """make_bot("greedy") and GreedyBot play the in-core policy: over whole hands with every
    seat greedy, move for move the oracle's choice from a generator seeded alike."""
    for seed in range(6):
        game = new_game("crazy_eights", seed=seed, **options)
        assert game.state.has_greedy
        bot = make_bot("greedy", seed) if seed % 2 else GreedyBot(seed=seed)
        rng = Random(seed)
        moves = 0
        while not game.is_over:
            move = bot.choose_id(game)
            assert move == oracle.choose(game, rng)
            game.apply(move)
            moves += 1
        assert moves > 5 and bot.rng.next_u32() == rng.next_u32()


def core_choice(game, seed: int = 0) -> str:
    return str(game.action_from_id(game.state.greedy_move(Random(seed))))


def test_ce_3_1_in_core_greedy_plays_a_matching_card_before_an_eight():
    game = ce(hands={1: ["7H", "KH", "8D", "3C", "4C"]}, turn_up=["5H"])
    assert legal(game) == ["play 7H", "play 8D", "play KH", "draw"]
    assert core_choice(game) == "play KH"                  # CE-8.1: 10 penalty points, not 7


def test_ce_3_3_in_core_greedy_nominates_its_longest_suit():
    game = ce(hands={1: ["8D", "2C", "3C", "4H", "6S"]}, turn_up=["5D"])
    assert core_choice(game) == "play 8D"
    game.apply("play 8D")
    assert core_choice(game) == "nominate C"


def test_ce_5_2_in_core_greedy_passes_when_nothing_else_is_legal():
    stuck = ce(hands={1: ["2C", "3C", "4C", "6C", "9C"]}, turn_up=["5H"], stock=["KD"],
               max_draw_cards=1)
    stuck.apply("draw")
    assert legal(stuck) == ["pass"]
    rng = Random(3)
    assert stuck.state.greedy_move(rng) == PASS
    assert rng.next_u32() == Random(3).next_u32()          # one legal move: no draw


def test_ce_4_3_in_core_greedy_answers_a_debt_with_a_two():
    hands = {1: ["2D", "7H", "JS", "QS", "KS"], 2: ["2S", "KC", "5D", "9H", "10H"]}
    game = ce(hands=hands, turn_up=["3D"], use_special_cards=True)
    game.apply("play 2D")
    assert legal(game) == ["play 2S", "draw"] and core_choice(game) == "play 2S"
