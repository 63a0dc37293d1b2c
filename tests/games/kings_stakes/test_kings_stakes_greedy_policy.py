"""GreedyBot's in-core Kings' Stakes policy (``KS_HOOKS.greedy``, the kernel's section
"GreedyBot's policy") against its oracle, the Python heuristic of 0.2-0.3
(``<game>_greedy_reference.py``): the same choice and the same draws in every position."""
from __future__ import annotations

import random
from collections import Counter

import pytest
from ks_helpers import greedy_reference, ks, legal

from cardcore import new_game
from cardcore._fast import Random
from cardcore.bots import GreedyBot, make_bot
from cardcore.games.kings_stakes import REFILL, TAKE

oracle = greedy_reference

# Every option value the heuristic branches on (refill="manual": the refill phase, KS-7.1;
# 2 players: no queens, KS-1.2) and every player count; positions per configuration.
CONFIGS = [
    ({"players": 2}, 4000),
    ({"players": 3, "scoring": "cards"}, 3000),
    ({"players": 4}, 3000),
    ({"players": 4, "teams": True, "refill": "manual"}, 3000),
    ({"players": 5, "refill": "manual"}, 3000),
    ({"players": 6}, 2000),
    ({"players": 2, "refill": "manual", "rounds": 4}, 3000),
]


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
    varied and reach the end of rounds and matches); every position checked."""
    seen: Counter = Counter()
    game_seed = 0
    while seen["positions"] < positions:
        game = new_game("kings_stakes", seed=game_seed, **options)
        mix = random.Random(game_seed)
        greedy_share = (0.2, 0.5, 0.9)[game_seed % 3]
        while not game.is_over and seen["positions"] < positions:
            ids = game.legal_action_ids()
            state = game.state
            move, drew = same_choice_and_draws(game, mix.randrange(1 << 30))
            seen["positions"] += 1
            seen["tie broken by a draw"] += drew
            seen["KS-5: stake above 22"] += state.stake > 22
            seen["KS-6: take legal"] += TAKE in ids
            seen["KS-6: take chosen"] += move == TAKE
            seen["KS-7.1: refill phase"] += REFILL in ids
            seen["KS-8.1: stock empty"] += state.stock_size == 0
            seen["KS-5.3: king on a full table"] += len(state.table()) > 0 and any(
                game.action_from_id(i).info.get("effect") == "king" for i in ids)
            game.apply(move if mix.random() < greedy_share else ids[mix.randrange(len(ids))])
        seen["games"] += 1
        seen["matches finished"] += game.is_over
        game_seed += 1
    return seen


@pytest.mark.parametrize("options,positions", CONFIGS,
                         ids=["-".join(f"{k}={v}" for k, v in sorted(c.items())) for c, _ in CONFIGS])
def test_in_core_greedy_equals_the_python_heuristic(options, positions):
    seen = sweep(options, positions)
    assert seen["positions"] == positions
    assert seen["tie broken by a draw"] > 0 and seen["matches finished"] > 0
    for rule in ("KS-6: take legal", "KS-6: take chosen", "KS-8.1: stock empty",
                 "KS-5.3: king on a full table"):
        assert seen[rule] > 0, rule
    if options.get("refill") == "manual":
        assert seen["KS-7.1: refill phase"] > 0


def test_the_sweep_checks_at_least_20000_positions():
    assert sum(n for _, n in CONFIGS) >= 20_000


@pytest.mark.slow
@pytest.mark.parametrize("options,positions", CONFIGS,
                         ids=["-".join(f"{k}={v}" for k, v in sorted(c.items())) for c, _ in CONFIGS])
def test_in_core_greedy_equals_the_python_heuristic_longer(options, positions):
    seen = sweep(options, 10 * positions)
    assert seen["positions"] == 10 * positions


@pytest.mark.parametrize("players", [2, 4, 6])
def test_in_core_greedy_is_blind_to_hidden_cards(players):
    """Worlds redealt with ``sample_hidden`` (the other hands and the stock differ) give the
    same choice and the same draws as the real game, for the seat to move."""
    differing = checked = 0
    for seed in range(40):
        game = new_game("kings_stakes", players=players, seed=seed,
                        refill="manual" if seed % 2 else "auto")
        mix = random.Random(seed)
        for _ in range(mix.randrange(60)):
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
                world.view(p) != game.view(p) for p in range(players) if p != seat)
            for tie_seed in range(3):
                a, b = Random(tie_seed), Random(tie_seed)
                assert world.state.greedy_move(a) == game.state.greedy_move(b)
                assert a.next_u32() == b.next_u32()
                checked += 1
    assert checked > 300 and differing > 100


@pytest.mark.parametrize("options", [{"players": 2}, {"players": 4}, {"players": 5, "refill": "manual"}])
def test_greedy_bot_plays_the_in_core_policy(options):
    """make_bot("greedy") and GreedyBot play the in-core policy: over whole matches with every
    seat greedy, move for move the oracle's choice from a generator seeded alike."""
    for seed in range(4):
        game = new_game("kings_stakes", seed=seed, **options)
        assert game.state.has_greedy
        bot = make_bot("greedy", seed) if seed % 2 else GreedyBot(seed=seed)
        rng = Random(seed)
        moves = 0
        while not game.is_over:
            move = bot.choose_id(game)
            assert move == oracle.choose(game, rng)
            game.apply(move)
            moves += 1
        assert moves > 20 and bot.rng.next_u32() == rng.next_u32()


def test_ks_5_7_in_core_greedy_plays_four_kings():
    game = ks(hands={0: ["KC", "KS", "KD", "KH"]})
    assert str(game.action_from_id(game.state.greedy_move(Random(0)))) == "play KC KS KD KH"


def test_ks_7_1_in_core_greedy_refills_with_manual_refill():
    game = ks(hands={0: ["8C", "2D", "3H", "4S"]}, refill="manual")
    game.apply("play 8C")
    assert legal(game) == ["refill", "end_turn"]
    assert game.state.greedy_move(Random(0)) == REFILL


def test_ks_6_in_core_greedy_takes_only_when_forced():
    game = ks(hands={0: ["AC", "2D", "3H", "4S"], 1: ["2S", "3C", "4D", "5D"]})
    game.apply("play AC")
    assert legal(game) == ["take"]
    rng = Random(5)
    assert game.state.greedy_move(rng) == TAKE
    assert rng.next_u32() == Random(5).next_u32()          # one legal move: no draw


def test_greedy_move_refuses_a_finished_match():
    game = new_game("kings_stakes", players=2, seed=1)
    bot = GreedyBot(seed=1)
    while not game.is_over:
        game.apply(bot.choose_id(game))
    with pytest.raises(ValueError):
        game.state.greedy_move(Random(0))
