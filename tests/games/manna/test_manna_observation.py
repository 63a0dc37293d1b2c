"""Manna from Heaven: the observation tensor, returns, the deal plan and sample_hidden (issue 7),
checked against independent Python code written from games/manna.md (MH-11, "Observation")."""
from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from manna_helpers import DRAW, TAKE_PAIR, discard, game_with, meld, stacked

from cardcore import new_game
from cardcore.cards import card_id, card_str
from cardcore.games.manna._state import deal_plan, manna_deck

PHASES = ("draw", "meld", "over")
MELD_SLOTS = ("A", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "wild", "black3")
TYPES = ("natural", "mixed", "wild", "sevens")
IDS = 53
RED_THREES = {card_id("3D"), card_id("3H")}
CONFIGS = [{"hands": 1}, {"hands": 2, "target": 1, "dealer": 2}, {"target": 3000, "wild_sevens": True},
           {"target": 3000, "foot_penalty": "cards"},
           {"target": 3000, "wild_sevens": True, "mixed_sevens": "mixed"}]


def is_wild(card: int) -> bool:
    return card == 52 or card % 13 == 1


def encode_view(game, seat: int) -> np.ndarray:
    """The tensor written from ``view(seat)`` alone, by the layout in games/manna.md."""
    view = game.view(seat)
    pieces = {name: (offset, size) for name, offset, size in game.observation_pieces}
    out = np.zeros(game.observation_shape, dtype=np.float32)

    def put(name: str, index: int, value: float = 1.0) -> None:
        offset, size = pieces[name]
        assert 0 <= index < size
        out[offset + index] += value

    put("observer", view["player"])
    if view["current_player"] is not None:
        put("current_player", view["current_player"])
    put("phase", PHASES.index(view["phase"]))
    put("team", view["team"])
    for card in view["hand"]:
        put("hand", card_id(card))
    for key in ("hand_sizes", "foot_sizes", "scores"):
        for p, value in enumerate(view[key]):
            put(key, p, value)
    for team in range(2):
        put("last_hand_scores", team, view["last_hand_scores"][team])
        put("min_meld", team, view["min_meld"][team])
        put("opened", team, float(view["opened"][team]))
        for card in view["red_threes"][team]:
            put("red_threes", 2 * team + ("3D", "3H").index(card))
        for kind in view["canasta_types"][team]:
            put("canasta_types", 4 * team + TYPES.index(kind))
        for m in view["melds"][team]:
            slot = len(MELD_SLOTS) * team + MELD_SLOTS.index(m["rank"])
            cards = [card_id(x) for x in m["cards"]]
            for x in cards:
                put("meld_cards", IDS * team + x)
            if m["complete"]:
                put("canastas", 4 * slot + TYPES.index(m["type"]))
            else:
                put("unfinished_size", slot, len(cards))
                put("unfinished_wilds", slot, sum(is_wild(x) for x in cards))
    put("turn_points", 0, view["turn_points"])
    put("dealer", view["dealer"])
    put("hand_number", 0, view["hand_number"])
    put("stock_size", 0, view["stock_size"])
    put("frozen", 0, float(view["frozen"]))
    for card in view["discard"]:
        put("discard", card_id(card))
    if view["discard"]:
        put("discard_top", card_id(view["discard"][-1]))
    return out


# ---------------------------------------------------------------- the deal plan (MH-2.5)
def test_mh_2_5_deal_plan_matches_the_stacked_deck_layout():
    for dealer in range(6):
        plan = deal_plan(6, {}, dealer)
        first = (dealer + 1) % 6
        assert len(plan) == len(manna_deck()) == 216
        assert plan[:78] == [f"hand:{(first + i) % 6}" for i in range(78)]
        assert plan[78:144] == [f"foot:{(first + i) % 6}" for i in range(66)]
        assert plan[144] == "discard" and set(plan[145:]) == {"stock"}
        # The engine deals exactly by the plan.
        deck = [card_str(c) for c in random.Random(dealer).sample(manna_deck(), 216)]
        deck = [x for x in deck if card_id(x) not in RED_THREES] + ["3D"] * 4 + ["3H"] * 4
        s = new_game("manna", seed=0, dealer=dealer, deck=deck).state
        for seat in range(6):
            assert sorted(s.hand(seat)) == sorted(card_id(deck[i]) for i, z in enumerate(plan)
                                                  if z == f"hand:{seat}")
            assert sorted(s.foot(seat)) == sorted(card_id(deck[i]) for i, z in enumerate(plan)
                                                  if z == f"foot:{seat}")
        assert s.discard_pile() == [card_id(deck[144])]
        assert s.stock() == [card_id(x) for x in deck[145:]]
    with pytest.raises(ValueError):
        deal_plan(4, {}, 0)
    with pytest.raises(ValueError):
        deal_plan(6, {}, 6)


# ---------------------------------------------------------------- the tensor
@pytest.mark.parametrize("config", CONFIGS)
def test_observation_tensor_matches_an_encoder_of_the_view(config):
    checked = 0
    for seed in range(3):
        game = new_game("manna", seed=seed, **config)
        rng = random.Random(seed)
        out = np.zeros(game.observation_shape, dtype=np.float32)
        step = 0
        while True:
            if step % 5 == 0 or game.is_over:
                for seat in range(6):
                    assert np.array_equal(game.observation_tensor(seat, out), encode_view(game, seat)), \
                        (seed, step, seat)
                    checked += 1
            if game.is_over or step > 1500:
                break
            ids = game.legal_action_ids()
            game.apply(ids[rng.randrange(len(ids))])
            step += 1
    assert checked > 300


def test_observation_is_blind_to_hidden_cards():
    """Decks that differ only in cards a seat cannot see (another hand, a foot, the stock below
    the top) give that seat the same tensor after the same actions; its own hand differing
    changes it."""
    base: dict = dict(dealer=0, hands={1: ["KC", "KD", "9S"], 2: ["QC", "QD"]},
                feet={3: ["JC", "JD"], 4: ["8C"]}, upcard="5S")
    a = game_with(**base)
    b = game_with(**{**base, "hands": {1: ["KC", "KD", "9S"], 2: ["QC", "8C"]},
                     "feet": {3: ["JC", "JD"], 4: ["QD"]}})
    deck = stacked(**base, stock=["9H", "9D"])
    i = 150 if deck[150] != deck[200] else 151            # stock cards nobody has drawn
    swapped = list(deck)
    swapped[i], swapped[200] = swapped[200], swapped[i]
    c = new_game("manna", seed=0, dealer=0, deck=deck)
    e = new_game("manna", seed=0, dealer=0, deck=swapped)
    for g in (a, b, c, e):
        g.apply(DRAW)
    for seat in (0, 1, 3, 5):
        assert np.array_equal(a.observation_tensor(seat), b.observation_tensor(seat))
    assert not np.array_equal(a.observation_tensor(2), b.observation_tensor(2))   # its own hand
    for seat in range(6):
        assert np.array_equal(c.observation_tensor(seat), e.observation_tensor(seat))
    assert not np.array_equal(a.observation_tensor(1), c.observation_tensor(1))   # it drew 9H 9D
    d = game_with(**{**base, "hands": {1: ["KC", "KD", "9S"], 2: ["QC", "QD"], 0: ["AH"]}})
    d.apply(DRAW)
    assert not np.array_equal(a.observation_tensor(0), d.observation_tensor(0))


# ---------------------------------------------------------------- returns (MH-10.6, MH-10.7)
@pytest.mark.parametrize("config", CONFIGS)
def test_returns_are_team_totals_at_the_end_and_zero_before(config):
    game = new_game("manna", seed=4, **config)
    low, high = game.utility_range
    rng = random.Random(4)
    steps = 0
    while not game.is_over:
        assert game.returns() == [0.0] * 6
        ids = game.legal_action_ids()
        game.apply(ids[rng.randrange(len(ids))])
        steps += 1
    returns = game.returns()
    teams = game.state.team_scores()
    assert returns == [float(teams[p % 2]) for p in range(6)]
    assert all(low <= r <= high for r in returns)
    assert steps <= game.max_game_length
    best = max(teams)
    assert game.winners == [p for p in range(6) if teams[p % 2] == best]


@pytest.mark.parametrize("config", CONFIGS)
def test_every_hand_score_is_within_hand_score_bounds(config):
    """utility_range rests on hand_score_bounds(): every hand's score stays within it under
    every option value (foot_penalty only lowers what a foot costs; MH-10.5)."""
    from cardcore.games.manna._state import hand_score_bounds
    low, high = hand_score_bounds()
    hands = 0
    for seed in range(3):
        game = new_game("manna", seed=seed, **{**config, "target": 10**6, "hands": None})
        rng = random.Random(seed)
        while game.state.round_index < 4:
            before = game.state.round_index
            ids = game.legal_action_ids()
            game.apply(ids[rng.randrange(len(ids))])
            if game.state.round_index != before:
                assert all(low <= x <= high for x in game.state.last_hand_scores())
                hands += 1
    assert hands == 12


def test_mh_10_7_the_match_ends_after_the_hand_limit():
    game = new_game("manna", seed=2, target=10**6)
    state = game.state
    state.run_random(7)
    assert state.is_over and state.round_index == 1000
    scores = state.team_scores()
    low, high = game.utility_range
    assert all(low <= r <= high for r in state.returns())
    best = max(scores)
    assert state.winners() == [p for p in range(6) if scores[p % 2] == best]


# ---------------------------------------------------------------- sample_hidden
def unseen_for(state, seat: int) -> Counter:
    """The cards ``seat`` cannot place: other hands less their known cards, unopened feet
    (its own too), the stock."""
    pool = Counter(state.stock())
    for p in range(6):
        if p != seat:
            pool += Counter(state.hand(p)) - Counter(state.known_cards(p))
        pool += Counter(state.foot(p))
    return pool


def test_sample_hidden_keeps_the_view_and_the_cards_seen_picked_up():
    g = game_with(dealer=0, hands={1: ["KC"], 2: ["KD", "KH", "AC", "AS", "AD"]}, upcard="5S")
    g.apply(DRAW)
    g.apply(discard("KC"))
    g.apply(TAKE_PAIR)                     # seat 2 takes [5S, KC]: 5S joins its hand, in view
    s = g.state
    assert s.known_cards(2) == [card_id("5S")]
    for seat in (0, 1, 3):
        for seed in range(30):
            world = g.sample_hidden(seat, seed)
            w = world.state
            assert world.view(seat) == g.view(seat)
            assert np.array_equal(world.observation_tensor(seat), g.observation_tensor(seat))
            assert sorted(world.all_cards()) == sorted(g.all_cards())
            assert card_id("5S") in w.hand(2) and w.known_cards(2) == [card_id("5S")]
            assert w.hand_sizes() == s.hand_sizes() and w.foot_sizes() == s.foot_sizes()
            assert w.stock_size == s.stock_size
            assert w.hand(seat) == s.hand(seat)
            assert unseen_for(w, seat) == unseen_for(s, seat)
            assert not any(c in RED_THREES for p in range(6) for c in w.hand(p))
    g.apply(meld("A", True, 3))            # seat 2 opens (30 + 60 points)
    g.apply(next(i for i in g.legal_action_ids() if discard("AC") <= i <= discard("JK")
                 and i != discard("5S")))
    world = g.sample_hidden(0, 1)
    assert card_id("5S") in world.state.hand(2)   # still known: not melded or discarded


def test_sample_hidden_redeals_every_unseen_card():
    g = game_with(dealer=0, hands={0: ["KH", "KH", "KH"]})
    s = g.state
    seen_elsewhere = set()
    for seed in range(40):
        w = g.sample_hidden(0, seed).state
        assert w.hand(0) == s.hand(0)
        seen_elsewhere.update(tuple(w.hand(p)) for p in range(1, 6))
        assert w.hand(1) != s.hand(1) or w.foot(0) != s.foot(0)
    assert len(seen_elsewhere) > 100


def test_sample_hidden_depends_only_on_what_the_seat_knows_mid_game():
    """Two decks that differ in two cards of other seats' feet, played the same way until the
    feet matter: seat 0's sampled worlds are identical, whatever the hidden cards were."""
    deck = stacked(dealer=0)
    i, j = 78 + 2, 78 + 3                 # feet of seats 3 and 4 (first player is seat 1)
    while deck[i] == deck[j]:
        j += 6
    other = list(deck)
    other[i], other[j] = other[j], other[i]
    a = new_game("manna", seed=5, dealer=0, deck=deck)
    b = new_game("manna", seed=5, dealer=0, deck=other)
    rng = random.Random(5)
    for _ in range(30):
        ids = a.legal_action_ids()
        if a.is_over or list(b.legal_action_ids()) != list(ids) or any(a.state.feet_taken()):
            break
        action = ids[rng.randrange(len(ids))]
        a.apply(action)
        b.apply(action)
    for seed in range(3):
        wa, wb = a.sample_hidden(0, seed), b.sample_hidden(0, seed)
        assert [wa.view(p) for p in range(6)] == [wb.view(p) for p in range(6)]
        assert [wa.state.foot(p) for p in range(6)] == [wb.state.foot(p) for p in range(6)]
        assert wa.state.stock() == wb.state.stock()


def test_sample_hidden_is_uniform_over_consistent_deals():
    """Where the fourth KH (the other three are in seat 0's hand) lands: every slot a plain card
    may take is equally likely. Hands hold no red three (MH-2.4), so with H unknown hand slots,
    M foot and stock slots and N unseen plain cards, a hand slot has probability 1/N and a foot
    or stock slot (1 - H/N)/M. Chi-square over the 5 other hands, 6 feet and the stock."""
    g = game_with(dealer=0, hands={0: ["KH", "KH", "KH"]})
    s = g.state
    unseen = unseen_for(s, 0)
    plain = sum(n for c, n in unseen.items() if c not in RED_THREES)
    hand_slots = {p: len(s.hand(p)) for p in range(1, 6)}
    foot_slots = {p: len(s.foot(p)) for p in range(6)}
    other_slots = sum(foot_slots.values()) + s.stock_size
    h = sum(hand_slots.values())
    expected = {("hand", p): n / plain for p, n in hand_slots.items()}
    expected.update({("foot", p): n * (1 - h / plain) / other_slots for p, n in foot_slots.items()})
    expected[("stock", 0)] = s.stock_size * (1 - h / plain) / other_slots
    assert abs(sum(expected.values()) - 1) < 1e-9
    kh = card_id("KH")
    counts: Counter = Counter()
    samples = 6000
    for seed in range(samples):
        w = s.sample_hidden(0, seed)
        where = [("hand", p) for p in range(1, 6) if kh in w.hand(p)] + \
                [("foot", p) for p in range(6) if kh in w.foot(p)] + \
                ([("stock", 0)] if kh in w.stock() else [])
        assert len(where) == 1
        counts[where[0]] += 1
    chi2 = sum((counts[k] - samples * p) ** 2 / (samples * p) for k, p in expected.items())
    assert chi2 < 31.26, (chi2, counts)     # 11 degrees of freedom, p = 0.001


def test_sample_hidden_never_puts_a_red_three_in_a_hand():
    g = game_with(dealer=0, feet={2: ["3D", "3H"], 5: ["3D"]})
    for seed in range(200):
        w = g.sample_hidden(1, seed).state
        assert not any(c in RED_THREES for p in range(6) for c in w.hand(p))
        assert sum(c in RED_THREES for p in range(6) for c in w.foot(p)) + \
            sum(c in RED_THREES for c in w.stock()) == 8
