"""GreedyBot's in-core Durak policy (``DU_HOOKS.greedy``) against its oracle, the Python
heuristic over the seat's view (``durak_greedy_reference.py``): the same choice and the same
draws in every position, so the policy reads nothing the seat may not know."""
from __future__ import annotations

import random
from collections import Counter

import pytest

import durak_greedy_reference as oracle
from cardcore import new_game
from cardcore._fast import Random
from cardcore.bots import make_bot

CONFIGS = [
    ({"players": 2}, 3000),
    ({"players": 3, "transfer": True}, 2000),
    ({"players": 4, "partners": True}, 2000),
    ({"players": 6, "first_bout_five": True}, 1500),
    ({"players": 3, "attack_many": True, "transfer": True}, 2000),
]


def sweep(options: dict, positions: int) -> Counter:
    seen: Counter = Counter()
    game_seed = 0
    while seen["positions"] < positions:
        game = new_game("durak", seed=game_seed, **options)
        mix = random.Random(game_seed)
        while not game.is_over and seen["positions"] < positions:
            ids = game.legal_action_ids()
            seed = mix.randrange(1 << 30)
            core_rng, oracle_rng = Random(seed), Random(seed)
            move = game.state.greedy_move(core_rng)
            assert move == oracle.choose(game, oracle_rng), (game.to_json(), seed)
            after = core_rng.next_u32()
            assert after == oracle_rng.next_u32()
            seen["positions"] += 1
            seen["tie broken by a draw"] += after != Random(seed).next_u32()
            words = game.action_from_id(move).label.split()
            seen[words[0]] += 1
            seen["several"] += len(words) > 2
            game.apply(move if mix.random() < 0.6 else ids[mix.randrange(len(ids))])
        seen["games"] += 1
    return seen


@pytest.mark.parametrize("options,positions", CONFIGS,
                         ids=["-".join(f"{k}={v}" for k, v in sorted(c.items())) for c, _ in CONFIGS])
def test_in_core_greedy_equals_the_python_heuristic(options, positions):
    seen = sweep(options, positions)
    assert seen["positions"] == positions and seen["tie broken by a draw"] > 0
    for kind in ("attack", "beat", "take", "pass"):
        assert seen[kind] > 0, kind
    if options.get("transfer"):
        assert seen["transfer"] > 0
    if options.get("attack_many"):
        assert seen["several"] > 0


def test_greedy_bot_plays_the_in_core_policy():
    game = new_game("durak", players=3, seed=5)
    bot = make_bot("greedy", seed=1)
    while not game.is_over:
        game.apply(bot.choose(game))
    assert game.is_over
