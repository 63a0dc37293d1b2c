"""Durak's bots: GreedyBot beats random play, and every level plays a legal game."""
from __future__ import annotations

from cardcore import new_game
from cardcore.bots import make_bot
from cardcore.games.durak import Durak


def play(bots, seed: int, **options):
    game = new_game("durak", players=len(bots), seed=seed, **options)
    while not game.is_over:
        game.apply(bots[game.current_player].choose(game))
    return game


def test_greedy_beats_random_in_two_player_hands():
    losses = {"greedy": 0, "random": 0}
    for seed in range(120):
        seats = ["greedy", "random"] if seed % 2 == 0 else ["random", "greedy"]
        bots = [make_bot(name, seed=seed * 2 + i) for i, name in enumerate(seats)]
        loser = play(bots, seed).view(0)["durak"]
        if loser is not None:
            losses[seats[loser]] += 1
    assert losses["random"] > 2 * losses["greedy"], losses


def test_every_level_plays_legal_moves():
    assert sorted(Durak.levels) == [1, 2, 3, 4, 5]
    for level in (1, 2, 3, 4):
        bots = [make_bot(f"level:{level}", seed=level, game="durak") for _ in range(3)]
        game = play(bots, level, transfer=True)
        assert game.is_over and len(game.action_log()) <= game.max_game_length
