"""Durak's sampled worlds use what play has made public (issue 47, item 4; DU-11.3): the
lowest trump shown means no hand held a lower one at the deal, nobody showing a trump means no
hand held one, a hand holds such a card only if its draws leave room for it, and taken cards
stay with the taker. Every world is checked by du_worlds.py, a judge written from the
rulebook's text that never calls the kernel."""
from __future__ import annotations

import random

import pytest

from cardcore import new_game
from cardcore.cards import card_id
from cardcore.games.durak._state import card_power

from du_helpers import du
from du_worlds import Record, impossible

SUITS = "CSDH"


def trumps_below(game, cards, shown) -> list[int]:
    """The trumps among ``cards`` below ``shown`` (every trump when ``shown`` is None)."""
    suit = SUITS.index(game._state.trump_suit)
    return [c for c in cards
            if c // 13 == suit and (shown is None or card_power(c) < card_power(shown))]


def other_hands(world, seat: int) -> list[int]:
    return [c for p in range(world.num_players) if p != seat for c in world._state.hand(p)]


# ---------------------------------------------------------------- case 1: the lowest trump shown
SHOWN = {0: ["7H", "9H", "KD", "8C", "10C", "8S"], 1: ["8H", "JH", "6D", "QC", "JS", "9D"]}


@pytest.mark.parametrize("seat", [0, 1])
def test_du_3_1_du_11_3_no_world_gives_a_hand_a_trump_below_the_one_shown(seat):
    """Seat 0 shows 8S; 6S and 7S lie in the stock (on top of it). Before the change 38%
    (seen from seat 0) and 32% (seat 1) of these worlds gave the other hand one of them."""
    game = du(2, SHOWN, stock=["6S", "7S"], trump="10S")
    assert game._state.shown_trump == card_id("8S") and game.current_player == 0
    record = Record(game, seat)
    lower = set()
    for k in range(2000):
        world = game.sample_hidden(seat, k)
        assert trumps_below(game, other_hands(world, seat), card_id("8S")) == []
        assert impossible(record, world._state) == []
        lower.update(trumps_below(game, world._state.stock(), card_id("8S")))
    assert lower == {card_id("6S"), card_id("7S")}        # they are somewhere: in the stock


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_du_3_1_du_11_3_random_deals_no_world_below_the_shown_trump(players):
    worlds = 0
    for seed in range(120):
        game = new_game("durak", players=players, seed=seed)
        shown = game._state.shown_trump
        if shown is None:
            continue
        for seat in range(players):
            for k in range(12 // players):
                world = game.sample_hidden(seat, 10 * seed + k)
                assert trumps_below(game, other_hands(world, seat), shown) == []
                worlds += 1
    assert worlds > 1000


# ---------------------------------------------------------------- case 2: nobody held a trump
NO_TRUMP = {0: ["7H", "9H", "KD", "8C", "10C", "QH"], 1: ["8H", "JH", "6D", "QC", "KH", "9D"]}


def no_trump_game():
    """Nobody holds a spade: seat 1 (after the dealer, seat 0) attacks first (DU-3.1)."""
    game = du(2, NO_TRUMP, stock=["AS", "7D", "7C", "6C"], trump="10S", dealer=0)
    assert game._state.shown_trump is None and game.current_player == 1
    return game


@pytest.mark.parametrize("seat", [0, 1])
def test_du_3_1_du_11_3_nobody_showed_a_trump_no_world_deals_one_into_a_hand(seat):
    """Before the change 89% of these worlds (from either seat) dealt a trump into the other
    hand."""
    game = no_trump_game()
    record = Record(game, seat)
    for k in range(2000):
        world = game.sample_hidden(seat, k)
        assert trumps_below(game, other_hands(world, seat), None) == []
        assert impossible(record, world._state) == []


def test_du_3_1_du_11_3_random_deals_without_a_trump_in_hand():
    worlds = 0
    for seed in range(600):
        game = new_game("durak", players=2, seed=seed)
        if game._state.shown_trump is not None:
            continue
        for seat in range(2):
            for k in range(40):
                world = game.sample_hidden(seat, 100 * seed + k)
                assert trumps_below(game, other_hands(world, seat), None) == []
                worlds += 1
    assert worlds >= 400                  # 2-player deals with no trump in hand: ~2%


def test_du_11_3_later_a_hand_holds_late_trumps_only_within_its_draws():
    """Seat 1 leads 8H, seat 0 beats it; seat 1 draws one card (AS, a trump), seat 0 draws
    7D. Seen from seat 0, seat 1 may now hold one trump, never two. Then seat 0 leads 7D and
    seat 1 beats it with AS: that draw is spent, and seat 1 holds no unseen trump again."""
    game = no_trump_game()
    for move in ("attack 8H", "beat 9H", "pass"):
        game.apply(move)
    assert card_id("AS") in game._state.hand(1) and card_id("7D") in game._state.hand(0)
    record = Record(game, 0)
    counts = [0, 0]
    for k in range(4000):
        world = game.sample_hidden(0, k)
        held = len(trumps_below(game, world._state.hand(1), None))
        assert held <= 1 and impossible(record, world._state) == []
        counts[held] += 1
    # Every possible world equally likely (the Decision): 6 of seat 1's cards and 21 of the
    # stock's hide the 8 trumps, seat 1 at most one: C(6,1)C(21,7) / (C(21,8) + C(6,1)C(21,7)).
    assert abs(counts[1] / 4000 - 697680 / 901170) < 0.03
    game.apply("attack 7D")
    game.apply("beat AS")
    assert game.current_player == 0
    record.update()
    for k in range(500):
        world = game.sample_hidden(0, k)
        assert trumps_below(game, world._state.hand(1), None) == []
        assert impossible(record, world._state) == []


# ---------------------------------------------------------------- case 3: taken cards stay
def test_du_11_2_taken_cards_stay_in_the_takers_hand_in_every_world():
    game = du(2, SHOWN, stock=["6S", "7S"], trump="10S")
    game.apply("attack 9H")
    game.apply("take")
    game.apply("pass")
    taken = {card_id("9H")}
    assert taken <= set(game._state.known(1))
    record = Record(game, 0)
    for k in range(1000):
        world = game.sample_hidden(0, k)
        assert taken <= set(world._state.hand(1))
        assert impossible(record, world._state) == []


# ---------------------------------------------------------------- every step of random games
CONFIGS = [
    (2, {}), (2, {"transfer": True}), (3, {}), (4, {"partners": True}), (5, {"transfer": True}),
    (6, {}), (3, {"first_attacker": "random"}), (2, {"first_bout_five": True}),
]


def check_playouts(games: int, worlds: int) -> int:
    checked = 0
    for players, options in CONFIGS:
        for seed in range(games):
            game = new_game("durak", players=players, seed=seed, **options)
            records = [Record(game, seat) for seat in range(players)]
            rng = random.Random(seed)
            while not game.is_over:
                mover = game.current_player
                for seat in (mover, (mover + 1 + seed) % players):
                    record = records[seat].update()
                    assert impossible(record, game._state) == []      # the judge takes the truth
                    for k in range(worlds):
                        world = game.sample_hidden(seat, rng.randrange(1 << 30))
                        assert impossible(record, world._state) == [], (players, options, seed)
                        checked += 1
                game.apply(rng.choice(game.legal_action_ids()))
    return checked


def test_du_11_3_every_sampled_world_of_random_games_is_possible():
    assert check_playouts(games=2, worlds=1) > 4000


@pytest.mark.slow
def test_du_11_3_every_sampled_world_of_many_random_games_is_possible():
    assert check_playouts(games=12, worlds=1) > 25000


class Swapped:
    """A world with two cards swapped between zones: seat ``p``'s card ``a`` for ``b``."""

    def __init__(self, state, p: int, a: int, b: int) -> None:
        self.state, self.p, self.a, self.b = state, p, a, b

    def hand(self, q: int) -> list[int]:
        cards = self.state.hand(q)
        return [self.b if (q == self.p and c == self.a) else c for c in cards]


def test_du_11_3_the_judge_rejects_an_impossible_world():
    """The judge can fail: 6S moved from the stock into seat 1's hand at the first move, or
    into seat 1's hand after its draw was spent on AS."""
    game = du(2, SHOWN, stock=["6S", "7S"], trump="10S")
    record = Record(game, 0)
    assert impossible(record, game._state) == []
    assert impossible(record, Swapped(game._state, 1, card_id("8H"), card_id("6S"))) != []
    assert impossible(record, Swapped(game._state, 1, card_id("8H"), card_id("JC"))) == []
    game = no_trump_game()
    for move in ("attack 8H", "beat 9H", "pass"):
        game.apply(move)
    record = Record(game, 0)
    one = Swapped(game._state, 1, card_id("JH"), card_id("6S"))       # AS and 6S: two
    assert impossible(record, one) != []
