"""The engine's legal moves against an independent judge written from the rulebook
(durak_oracle.py) at every step of random playouts (issue 48, item 6): one card at a time
without ``attack_many``, and with it (DU-13) every set of cards of one rank a lead or a
throw-in may hold within DU-4.4 to DU-4.6. Every step also keeps the 36 cards (DU-1.1) in the
hands, the stock, the table and the discard pile. The quick loop runs a few configurations;
the slow suite 36 configurations with ``attack_many`` on, about 8,000 steps each."""
from __future__ import annotations

import itertools
import random

import pytest

from cardcore import new_game
from durak_oracle import engine_moves, legal_moves


def check_playouts(options: dict, steps: int) -> tuple[int, set[str]]:
    """Random playouts of ``options`` until ``steps`` steps: every step's legal moves are the
    oracle's. Returns the steps and the kinds of move seen."""
    seen: set[str] = set()
    done, seed = 0, 0
    while done < steps:
        game = new_game("durak", seed=seed, **options)
        rng = random.Random(seed)
        while not game.is_over and done < steps:
            view = game.view(game.current_player)
            expected = legal_moves(view, game.options)
            assert engine_moves(game) == expected, (options, seed, view)
            table = sum(1 + (c is not None) for _, c in view["bout"])
            assert sum(view["hand_sizes"]) + view["stock_size"] + table \
                + view["discard_size"] == 36, (options, seed, view)
            action = rng.choice(game.legal_actions())
            seen.add(f"{action.kind}{len(action.cards) if action.kind == 'attack' else ''}")
            game.apply(action)
            done += 1
        seed += 1
    return done, seen


QUICK = [{"players": 2, "attack_many": True}, {"players": 3, "transfer": True},
         {"players": 4, "partners": True, "transfer": True, "attack_many": True}]


@pytest.mark.parametrize("options", QUICK, ids=str)
def test_du_13_1_the_legal_moves_are_the_rulebooks_in_random_playouts(options):
    steps, seen = check_playouts(options, 3000)
    assert steps == 3000 and {"beat", "take", "pass", "attack1"} <= seen
    if options.get("attack_many"):
        assert "attack2" in seen                    # several cards at once were played


# The slow suite's 36 configurations with attack_many on: 2 to 6 players, with and without
# transfer and the first bout's five, partners with 4 and 6, and the random first attacker.
MANY = [{"players": p, "transfer": t, "first_bout_five": f, "attack_many": True}
        for p, t, f in itertools.product(range(2, 7), (False, True), (False, True))]
MANY += [{"players": p, "partners": True, "transfer": t, "first_bout_five": f,
          "attack_many": True} for p, t, f in itertools.product((4, 6), (False, True), (False, True))]
MANY += [{"players": p, "first_attacker": "random", "transfer": t, "attack_many": True}
         for p, t in itertools.product(range(2, 6), (False, True))]
assert len(MANY) == 36


@pytest.mark.slow
@pytest.mark.parametrize("options", MANY, ids=str)
def test_du_13_the_oracle_agrees_with_attack_many_over_8000_steps(options):
    steps, seen = check_playouts(options, 8000)
    assert steps == 8000 and {"attack1", "attack2", "beat", "take", "pass"} <= seen, seen
