"""Durak's endgame solver (the kernel's solve hook, ``GameState.solve_moves``) and level 5's
use of it: with two players and at most the face-up trump card left in the stock, every card
is known (DU-7.3, DU-11), so the rest of the hand is a game of perfect information whose
result (the durak, DU-8.2, or a draw, DU-8.3) the solver finds exactly. Checked against a
brute-force minimax over the public API, and on a stacked-deck endgame with one winning move."""
from __future__ import annotations

import pytest

from cardcore import ConfigError, new_game
from cardcore.bots import make_bot

from du_helpers import du


def minimax(game) -> int:
    """Seat 0's result under best play by both (1: seat 1 is the durak), by brute force."""
    if game.is_over:
        durak = game.view(0)["durak"]
        return 1 if durak == 1 else -1 if durak == 0 else 0
    values = []
    for action in game.legal_action_ids():
        child = game.clone()
        child.apply(int(action))
        values.append(minimax(child))
    return max(values) if game.current_player == 0 else min(values)


def endgames(seeds, most_cards: int, **options):
    """Positions of greedy play with the stock at most its trump card and at most
    ``most_cards`` cards in the hands and on the table."""
    for seed in seeds:
        game = new_game("durak", players=2, seed=seed, **options)
        bot = make_bot("greedy", seed=seed)
        while not game.is_over:
            state = game.state
            cards = sum(state.hand_sizes()) + len(state.table())
            if state.stock_size <= 1 and cards <= most_cards and len(game.legal_action_ids()) > 1:
                yield game.clone()
            game.apply(bot.choose_id(game))


@pytest.mark.parametrize("options", [{}, {"transfer": True}])
def test_DU_8_2_solver_agrees_with_brute_force(options):
    checked = 0
    for game in endgames(range(25), 7, **options):
        sign = 1 if game.current_player == 0 else -1
        exact = []
        for action in game.legal_action_ids():
            child = game.clone()
            child.apply(int(action))
            exact.append(sign * minimax(child))
        every = game.state.solve_moves(every=True)
        assert [v for _, v in every] == exact
        assert [a for a, _ in every] == [int(a) for a in game.legal_action_ids()]
        first = game.state.solve_moves(every=False)          # stops at a move as good as any
        assert max(v for _, v in first if v is not None) == max(exact)
        checked += 1
    assert checked >= 20


def test_DU_11_1_solver_only_where_every_card_is_known():
    game = new_game("durak", players=2, seed=3)
    assert game.state.has_solver
    assert game.state.solve_moves() is None                    # a stock of hidden cards
    three = new_game("durak", players=3, seed=3)
    bot = make_bot("greedy", seed=1)
    while not three.is_over:
        assert three.state.solve_moves() is None                # another hand is unknown
        three.apply(bot.choose_id(three))
    small = next(endgames(range(5), 12))
    assert small.state.solve_moves(budget=1) is None            # over its budget: no answer


# Seed 60's deal (dealer 1), then greedy play to the endgame: seat 0 holds QS AD QD AH QH
# against JH KH, hearts trumps, and must answer 10H. Taking (greedy's move) or beating with
# the ace loses; only beating with the queen keeps the ace for the last attack.
DEAL = {0: ["8C", "10C", "8S", "9S", "6D", "9H"], 1: ["AC", "9C", "7S", "AD", "10D", "JH"]}
STOCK = ["KC", "6C", "JD", "JS", "9D", "10S", "QH", "7C", "7D", "10H", "KS", "QS", "8H", "QC",
         "KH", "8D", "6H", "KD", "QD", "JC", "6S", "AH", "AS"]            # top first
PLAY = ("attack 6D, beat 10D, attack 10C, beat AC, pass, attack 7S, beat 8S, pass, attack 6C, "
        "beat 9C, attack 9S, beat JS, pass, attack 7D, take, pass, attack 9D, take, pass, "
        "attack JD, take, pass, attack QS, take, pass, attack QC, take, pass, attack KS, take, "
        "pass, attack 8D, beat 9D, pass, attack 7C, take, attack 7D, pass, attack 8C, take, "
        "pass, attack 10S, take, pass, attack QS, take, attack QC, pass, attack JD, take, pass, "
        "attack QD, take, pass, attack JC, beat QC, pass, attack 7C, beat KC, attack 7D, "
        "beat KD, pass, attack 6S, beat 10S, pass, attack 8C, beat 7H, pass, attack AS, beat 6H, "
        "pass, attack JD, beat 9H, pass, attack KS, beat 8H, pass, attack QD, take, attack QS, "
        "attack AD, take, pass, attack 10H").split(", ")


def stacked_endgame():
    game = du(2, DEAL, STOCK, trump="7H", dealer=1)
    for label in PLAY:
        game.apply(label)
    return game


def test_DU_8_2_level_5_finds_the_only_winning_line():
    game = stacked_endgame()
    view = game.view(0)
    assert game.current_player == 0 and view["stock_size"] == 0
    assert sorted(view["hand"]) == sorted(["QS", "AD", "QD", "AH", "QH"])
    results = {}
    for action in game.legal_actions():
        child = game.clone()
        child.apply(action)
        results[str(action)] = minimax(child)
    assert results == {"beat AH": -1, "beat QH": 1, "take": -1}
    assert str(game.action_from_id(make_bot("greedy", seed=1).choose_id(game))) == "take"
    for seed in range(3):
        assert str(make_bot("level:5", seed=seed).choose(game)) == "beat QH"
    hints = make_bot("level:5", seed=0).suggest(game, top=3)
    assert [(str(h["action"]), h["estimate"]) for h in hints] == [
        ("beat QH", 1.0), ("beat AH", 0.0), ("take", 0.0)]


def test_solver_budget_is_checked():
    with pytest.raises(ConfigError) as e:
        make_bot("ismcts:solver=-1")
    assert e.value.option == "bots"
    with pytest.raises(ConfigError):
        make_bot("ismcts:solver=true")
